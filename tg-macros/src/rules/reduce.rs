//! Reductions: `x.sum()`, `x.sum(1)`, `x.sum([0, 2])`, `x.sum(-1, true)` (keepdim). The axes
//! and the output shape are tg-core's reduce rule; the dtype its accumulation rules.

use proc_macro2::{Ident, Span};
use quote::quote;
use syn::Result;
use tg_core::DType;
use tg_core::shape::reduce;

use super::{args, ops};
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val};

ops! {
    /// The reductions over a set of axes.
    pub enum ReduceOp {
        Sum = "sum",
        Prod = "prod",
        Max = "max",
        Min = "min",
        Mean = "mean",
        Any = "any",
        All = "all",
    }
}

impl ReduceOp {
    /// The dtype of the result on a `dt` input.
    fn out_dtype(self, dt: DType) -> DType {
        match self {
            ReduceOp::Sum => dt.sum_dtype(),
            ReduceOp::Mean => dt.float_of(),
            ReduceOp::Any | ReduceOp::All => DType::Bool,
            ReduceOp::Prod | ReduceOp::Max | ReduceOp::Min => dt,
        }
    }
}

/// `x.op(axes?, keepdim?)`: every reduction has this one rule.
pub fn apply(ctx: &mut Ctx, op: ReduceOp, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let name = op.name();
    args::count(name, &args, 0, 2, span)?;
    let (shape, dtype, code) = args::tensor(name, &recv)?;
    let axes = args
        .first()
        .map(|a| args::axes(name, a).map(|v| (v, a.span)))
        .transpose()?;
    let keepdim = args
        .get(1)
        .map(|a| args::boolean(name, a))
        .transpose()?
        .unwrap_or(false);
    let at = axes.as_ref().map(|(_, s)| *s).unwrap_or(span);
    let list = axes.as_ref().map(|(v, _)| v.as_slice());
    let (_, out) = ctx.rule(at, |_| reduce::reduce(name, shape, list, keepdim))?;
    let m = Ident::new(name, span);
    let axes_code = match &axes {
        None => quote!(None),
        Some((v, _)) => {
            let s = args::isize_slice(v);
            quote!(Some(#s))
        }
    };
    let code = code.clone();
    Ok(ctx.bind(
        out,
        op.out_dtype(dtype),
        quote!(#code.#m(#axes_code, #keepdim)),
    ))
}
