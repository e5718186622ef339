//! Random tensors shaped like an operand. They draw from the process-wide stream; in a
//! kernel, the draw's key schedule is made of vars, so a replay draws fresh numbers (the
//! ones an eager run with the same seed would draw).

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
    // the draw's key schedule is made of vars a replay rebinds from the process-wide stream
    let method = proc_macro2::Ident::new(name, span);
    Ok(ctx.bind(shape, dtype, quote!(#code.#method())))
}
