//! einsum in a kernel body: `a.einsum("ij,jk->ik", b)`, its formula parsed while the macro
//! expands with tg-core's rule; the receiver is the first operand and the others follow the
//! formula (a kernel body has no free functions).

use proc_macro2::Span;
use quote::quote;
use syn::{Error, Result};
use tg_core::Checker;
use tg_core::DType;
use tg_core::shape::einsum::{self, EinsumError};

use super::args;
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val};
use crate::sym::Poly;

/// `a.einsum("ij,jk->ik", b)`: the first operand is the receiver, the formula comes first in
/// the arguments and the other operands follow (tg-ops' `DynTensor::einsum(formula,
/// operands, acc)` and numpy's `einsum(formula, *operands)`, with the kernel's method-call
/// syntax: a kernel body has no free functions). `acc = f32` sets the accumulation and
/// result dtype; without it the products' dtype is summed as `sum` sums it.
///
/// The formula is a string literal, parsed here with tg-ops' rules: explicit `->` or the
/// implicit output (ellipsis axes, then the letters used once, alphabetically), a letter
/// repeated within one operand takes its diagonal, `...` broadcasts like numpy. Sizes bound
/// to one letter must agree (symbolically: equal, or asserted once const parameters are known).
pub fn einsum(ctx: &mut Ctx, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    const OP: &str = "einsum";
    let (pos, kw) = args::split(OP, args, &["acc"], usize::MAX, span)?;
    let Some(fa) = pos.first() else {
        return Err(Error::new(
            span,
            "`einsum` needs its formula: `a.einsum(\"ij,jk->ik\", b)`",
        ));
    };
    let formula = match &fa.val {
        Val::Str(s) => s.clone(),
        other => {
            return Err(Error::new(
                fa.span,
                format!(
                    "`einsum` takes its formula as a string literal first (`a.einsum(\"ij,jk->ik\", b)`), found {}",
                    other.describe()
                ),
            ));
        }
    };
    let fspan = fa.span;
    let mut ops = Vec::with_capacity(pos.len());
    let mut codes = Vec::with_capacity(pos.len());
    let mut dtype: Option<DType> = None;
    for a in std::iter::once(&recv).chain(&pos[1..]) {
        let (s, d, c) = args::tensor(OP, a)?;
        ops.push((s.to_vec(), a.span));
        codes.push(c.clone());
        dtype = Some(dtype.map_or(d, |x| x.least_upper(d)));
    }
    let acc = args::pick_once(OP, &kw, &[], "acc", 0)?
        .map(|a| args::dtype(OP, a))
        .transpose()?;
    // tg-core's rule: the formula, the diagonals, one size per letter, the output
    let shapes: Vec<&[Poly]> = ops.iter().map(|(s, _)| s.as_slice()).collect();
    let mut ck = Checker::new();
    let out = match einsum::einsum(&mut ck, &formula, &shapes) {
        Ok(e) => e.out,
        Err(EinsumError { operand, error }) => {
            let at = operand.and_then(|k| ops.get(k)).map_or(fspan, |(_, s)| *s);
            return Err(Error::new(at, error.to_string()));
        }
    };
    for d in ck.take_deferred() {
        ctx.assert_later(&d.fact, d.error.to_string(), span);
    }
    let product = dtype.unwrap_or(DType::F32);
    let (dt, acc_code) = match acc {
        Some(d) => {
            let t = crate::dtype::dtype_tokens(d);
            (d, quote!(Some(#t)))
        }
        None => (product.sum_dtype(), quote!(None)),
    };
    let lit = proc_macro2::Literal::string(&formula);
    Ok(ctx.bind(
        out,
        dt,
        quote!(::tg::DynTensor::einsum(#lit, &[#(#codes.clone()),*], #acc_code)),
    ))
}
