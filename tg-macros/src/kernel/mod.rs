//! `#[kernel]`: checks a function's tensor shapes symbolically while expanding it
//! (`check`), then emits a function that records its kernels on the first call with a given
//! set of input shapes and replays them on later calls (`emit`).

mod check;
mod emit;
mod host;
pub mod infer;
mod signature;
mod syntax;
pub mod value;

use proc_macro2::TokenStream;
use syn::spanned::Spanned;
use syn::{Error, ItemFn, Result};

/// The expansion of `#[kernel]` on `item`. An error in the body still gives the function's
/// signature (around the error), so its callers do not fail with errors of their own.
pub fn expand(attr: TokenStream, item: TokenStream) -> Result<TokenStream> {
    if !attr.is_empty() {
        return Err(Error::new(attr.span(), "#[kernel] takes no arguments"));
    }
    let f: ItemFn = syn::parse2(item)?;
    let sig = signature::read(&f)?;
    Ok(match check::body(&f, &sig) {
        Ok((ctx, outs)) => emit::emit(&f, &sig, ctx, outs),
        Err(e) => emit::stub(&f, &sig, e),
    })
}
