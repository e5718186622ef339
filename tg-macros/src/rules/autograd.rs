//! Gradients in a kernel body: `loss.gradient(w)` is a tensor of `w`'s shape and dtype,
//! `loss.gradient(w, b)` a pair (or more) of them, so a whole training step (forward,
//! backward, update) is one kernel, recorded once and replayed. The seed's rules hold at
//! compile time: the differentiated value is a scalar (shape `[]`) and every tensor is a
//! float. `x.detach()` (an elementwise identity, `elementwise.rs`) stops a gradient;
//! `x.contiguous_backward()` (the op table's) gives the gradient
//! through it a buffer of its own. `w.assign(v)` writes `v` into the parameter `w` in place (an
//! optimizer's update; a replay writes the new call's `w` again).

use proc_macro2::Span;
use quote::quote;
use syn::{Error, Result};

use super::args;
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val, show_shape};

/// Checks that `a` is a float tensor for `op`, naming `what` it is.
fn float<'a>(
    op: &str,
    what: &str,
    a: &'a Arg,
) -> Result<(
    &'a [crate::sym::Poly],
    tg_core::DType,
    &'a proc_macro2::TokenStream,
)> {
    let (shape, dtype, code) = args::tensor(op, a)?;
    if !dtype.is_float() {
        return Err(Error::new(
            a.span,
            format!(
                "`{op}`: only float tensors have gradients; {what} {} is {}",
                show_shape(shape),
                dtype.rust_name()
            ),
        ));
    }
    Ok((shape, dtype, code))
}

/// `w.assign(v)`: `v` written into `w` in place; both of one shape and dtype.
pub fn assign(ctx: &mut Ctx, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let name = "assign";
    args::count(name, &args, 1, 1, span)?;
    let (shape, dtype, code) = args::tensor(name, &recv)?;
    let (vshape, vdtype, value) = args::tensor(name, &args[0])?;
    if vdtype != dtype {
        return Err(Error::new(
            args[0].span,
            format!(
                "`assign`: the value is {}, the target {}; cast it first",
                vdtype.rust_name(),
                dtype.rust_name()
            ),
        ));
    }
    if vshape.len() != shape.len()
        || vshape
            .iter()
            .zip(shape)
            .any(|(a, b)| matches!(a.equal(b), crate::sym::Equal::No))
    {
        return Err(Error::new(
            args[0].span,
            format!(
                "`assign`: the value's shape {} differs from the target's {}",
                show_shape(vshape),
                show_shape(shape)
            ),
        ));
    }
    let code = quote!({
        let mut __w = #code.clone();
        __w.assign(&#value).map(|()| __w)
    });
    Ok(ctx.bind(shape.to_vec(), dtype, code))
}

/// `loss.gradient(w)` (a tensor of `w`'s shape), `loss.gradient(w, b)` (a tuple).
pub fn gradient(ctx: &mut Ctx, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let name = "gradient";
    if let Some(a) = args.iter().find(|a| a.name.is_some()) {
        return Err(Error::new(
            a.span,
            format!("`{name}` takes no keyword arguments"),
        ));
    }
    if args.is_empty() {
        return Err(Error::new(
            span,
            "`gradient` takes the tensors to differentiate with respect to",
        ));
    }
    let (shape, _, code) = float(name, "the differentiated value", &recv)?;
    if !shape.is_empty() {
        return Err(Error::new(
            recv.span,
            format!(
                "`gradient` differentiates a scalar (shape []); this value has shape {}: \
                 reduce it first (`.sum()`, `.mean()`)",
                show_shape(shape)
            ),
        ));
    }
    let mut outs = Vec::new();
    let mut targets = Vec::new();
    for a in &args {
        let (shape, dtype, code) = float(name, "the target", a)?;
        outs.push((shape.to_vec(), dtype));
        targets.push(code.clone());
    }
    let call = quote!(#code.gradient(&[#(&#targets),*], None));
    if outs.len() == 1 {
        let (shape, dtype) = outs.remove(0);
        return Ok(ctx.bind(shape, dtype, quote!(#call.map(|mut g| g.remove(0)))));
    }
    let n = outs.len();
    let picks = (0..n).map(|i| quote!(__g[#i].clone()));
    let tuple = quote!(#call.map(|__g| (#(#picks),*)));
    Ok(ctx.bind_tuple(outs, tuple))
}
