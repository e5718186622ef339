//! Random tensors shaped like an operand. A replay would repeat the recorded numbers, so a
//! kernel that draws them runs its body on every call instead of replaying.

use proc_macro2::Span;
use quote::quote;
use syn::{Error, Result};

use super::{args, ops};
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val, show_shape};

ops! {
    /// Random tensors shaped like the receiver.
    pub enum RandomOp {
        RandLike = "rand_like",
        RandnLike = "randn_like",
    }
}

/// `x.rand_like()`, `x.randn_like()`: one rule for both.
pub fn apply(ctx: &mut Ctx, op: RandomOp, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let name = op.name();
    args::count(name, &args, 0, 0, span)?;
    let (shape, dtype, code) = args::tensor(name, &recv)?;
    if !dtype.is_float() {
        return Err(Error::new(
            recv.span,
            format!(
                "`{name}` draws floats of its operand's dtype; the operand {} is {}: cast it to a float dtype first",
                show_shape(shape),
                dtype.rust_name()
            ),
        ));
    }
    let (shape, code) = (shape.to_vec(), code.clone());
    let method = proc_macro2::Ident::new(name, span);
    ctx.replayable = false;
    Ok(ctx.bind(shape, dtype, quote!(#code.#method())))
}
