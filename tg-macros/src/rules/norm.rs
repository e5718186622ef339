//! Normalization: `layernorm` over trailing axes and `batchnorm` with given statistics.

use proc_macro2::Span;
use quote::quote;
use syn::{Error, Result};

use super::args::{self, Input};
use super::ops;
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val, show_shape};
use crate::sym::Poly;

ops! {
    /// The normalizations.
    pub enum NormOp {
        Layernorm = "layernorm",
        Batchnorm = "batchnorm",
    }
}

pub fn apply(ctx: &mut Ctx, op: NormOp, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let (shape, dtype, code) = args::tensor(op.name(), &recv)?;
    let (shape, code) = (shape.to_vec(), code.clone());
    let x = (shape.as_slice(), dtype, &code);
    match op {
        NormOp::Layernorm => layernorm(ctx, x, args, span),
        NormOp::Batchnorm => batchnorm(ctx, x, args, span),
    }
}

/// `x.layernorm(axis = -1, eps = 1e-5)`.
fn layernorm(
    ctx: &mut Ctx,
    (shape, dtype, code): Input,
    args: Vec<Arg>,
    span: Span,
) -> Result<Val> {
    const OP: &str = "layernorm";
    let (pos, kw) = args::split(OP, args, &["axis", "eps"], 2, span)?;
    let axes = match args::pick(&kw, &pos, "axis", 0) {
        Some(a) => args::axes(OP, a)?,
        None => vec![-1],
    };
    for &a in &axes {
        args::axis(OP, a, shape, span)?;
    }
    let eps = args::pick(&kw, &pos, "eps", 1)
        .map(|a| args::scalar_f64(OP, a))
        .transpose()?
        .unwrap_or(quote!(1e-5f64));
    let s = args::isize_slice(&axes);
    Ok(ctx.bind(
        shape.to_vec(),
        dtype.float_of(),
        quote!(#code.layernorm(#s, #eps)),
    ))
}

/// `x.batchnorm(mean, invstd, weight, bias, axis = 1)`: `(x - mean) * weight * invstd + bias`.
/// `mean`, `weight`, `bias` hold one value per element of the normalized axes (tg-ops
/// reshapes them, so only the count must match); `invstd` too when it has one axis per
/// normalized axis, else it broadcasts against the input. The required statistics come
/// first, unlike tinygrad's order, since the DSL cannot pass `None` for the optional ones.
fn batchnorm(
    ctx: &mut Ctx,
    (shape, dtype, code): Input,
    args: Vec<Arg>,
    span: Span,
) -> Result<Val> {
    const OP: &str = "batchnorm";
    let (pos, kw) = args::split(
        OP,
        args,
        &["mean", "invstd", "weight", "bias", "axis"],
        4,
        span,
    )?;
    let axes_arg = args::pick_once(OP, &kw, &[], "axis", usize::MAX)?;
    let axes = axes_arg
        .map(|a| args::axes(OP, a))
        .transpose()?
        .unwrap_or_else(|| vec![1]);
    let axes_span = axes_arg.map_or(span, |a| a.span);
    let norm = ctx.rule(axes_span, |_| {
        tg_core::shape::distinct_axes(OP, &axes, shape)
    })?;
    let sizes: Vec<Poly> = norm.iter().map(|&a| shape[a].clone()).collect();
    let count = Poly::product(&sizes);
    // the statistics are reshaped to the normalized axes in place (1 elsewhere), so they
    // broadcast into the input without changing its shape
    let mut dt = dtype;
    let mut out = shape.to_vec();
    let mut codes = Vec::new();
    for (what, i) in [("mean", 0), ("invstd", 1), ("weight", 2), ("bias", 3)] {
        let Some(t) = args::pick_once(OP, &kw, &pos, what, i)? else {
            if i < 2 {
                return Err(Error::new(
                    span,
                    format!(
                        "`batchnorm` needs the {what} (batchnorm(mean, invstd, weight, bias, axis = ..))"
                    ),
                ));
            }
            codes.push(quote!(None));
            continue;
        };
        let (ts, td, tc) = args::tensor(OP, t)?;
        dt = dt.least_upper(td);
        if what == "invstd" && ts.len() != axes.len() {
            // not one axis per normalized axis: broadcast as it is
            out = ctx.broadcast(OP, &out, ts, t.span)?;
        } else {
            let n = Poly::product(ts);
            ctx.require_equal(&n, &count, t.span, || {
                format!(
                    "`batchnorm`: the {what} of shape {} has {n} values; axes {axes:?} of the input {} (sizes {}) have {count}",
                    show_shape(ts),
                    show_shape(shape),
                    show_shape(&sizes)
                )
            })?;
        }
        let tc = tc.clone();
        codes.push(if i < 2 {
            quote!(&#tc)
        } else {
            quote!(Some(&#tc))
        });
    }
    let (m, v, w, b) = (&codes[0], &codes[1], &codes[2], &codes[3]);
    let ax = args::isize_slice(&axes);
    Ok(ctx.bind(out, dt, quote!(#code.batchnorm(#w, #b, #m, #v, #ax))))
}
