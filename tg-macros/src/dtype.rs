//! The Rust type of each dtype, as the code the macros emit spells it. (What the dtypes are and
//! how they promote is tg-core's.)

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use tg_core::DType;

/// The Rust type of `dtype`, as tokens (`f16` through tg's prelude).
pub fn rust_type(dtype: DType) -> TokenStream {
    match dtype {
        DType::F16 => quote!(::tg::prelude::f16),
        _ => {
            let id = Ident::new(dtype.rust_name(), Span::call_site());
            quote!(#id)
        }
    }
}

/// `::tg::DType::F32`: the runtime's name of `dtype`, as tokens.
pub fn dtype_tokens(dtype: DType) -> TokenStream {
    let v = Ident::new(&format!("{dtype:?}"), Span::call_site());
    quote!(::tg::DType::#v)
}
