//! Statistics, scans and sorting: shapes follow the reduction or keep the input's; ops with
//! two results (values and indices, variance and mean) give a pair.

use proc_macro2::{Ident, Span};
use quote::quote;
use syn::{Error, Result};

use super::{args, ops};
use tg_core::DType;
use tg_core::shape::reduce;

use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val};

ops! {
    /// Statistics over axes, scans along one axis, and sorting.
    pub enum StatsOp {
        Var = "var",
        Std = "std",
        VarMean = "var_mean",
        StdMean = "std_mean",
        Logsumexp = "logsumexp",
        Softmax = "softmax",
        LogSoftmax = "log_softmax",
        Softmin = "softmin",
        Normalize = "normalize",
        Cumsum = "cumsum",
        Cumprod = "cumprod",
        Cummax = "cummax",
        Cummin = "cummin",
        Logcumsumexp = "logcumsumexp",
        Argmax = "argmax",
        Argmin = "argmin",
        Sort = "sort",
        Argsort = "argsort",
        Topk = "topk",
    }
}

impl StatsOp {
    /// Whether the op gives a pair (values and indices, or variance and mean).
    fn gives_pair(self) -> bool {
        matches!(
            self,
            StatsOp::VarMean
                | StatsOp::StdMean
                | StatsOp::Cummax
                | StatsOp::Cummin
                | StatsOp::Sort
                | StatsOp::Topk
        )
    }
}

pub fn apply(ctx: &mut Ctx, op: StatsOp, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let name = op.name();
    let (shape, dtype, code) = args::tensor(name, &recv)?;
    let (shape, code) = (shape.to_vec(), code.clone());
    let m = Ident::new(name, span);
    let at = |args: &[Arg], i: usize| args.get(i).map(|a| a.span).unwrap_or(span);
    match op {
        StatsOp::Var | StatsOp::Std | StatsOp::VarMean | StatsOp::StdMean | StatsOp::Logsumexp => {
            let known: &[&str] = if op == StatsOp::Logsumexp {
                &["axis", "keepdim"]
            } else {
                &["axis", "keepdim", "correction"]
            };
            let (pos, kw) = args::split(name, args, known, 3, span)?;
            let axes = args::pick(&kw, &pos, "axis", 0)
                .map(|a| args::axes(name, a).map(|v| (v, a.span)))
                .transpose()?;
            let keepdim = args::pick(&kw, &pos, "keepdim", 1)
                .map(|a| args::boolean(name, a))
                .transpose()?
                .unwrap_or(false);
            let corr = args::pick(&kw, &pos, "correction", 2)
                .map(|a| args::scalar_f64(name, a))
                .transpose()?
                .unwrap_or(quote!(1.0f64));
            let axes_span = axes.as_ref().map(|(_, s)| *s).unwrap_or(span);
            let list = axes.as_ref().map(|(v, _)| v.as_slice());
            let (_, out) = ctx.rule(axes_span, |_| reduce::reduce(name, &shape, list, keepdim))?;
            let axes_code = match &axes {
                None => quote!(None),
                Some((v, _)) => {
                    let s = args::isize_slice(v);
                    quote!(Some(#s))
                }
            };
            let dt = dtype.float_of();
            if op == StatsOp::Logsumexp {
                return Ok(ctx.bind(out, dt, quote!(#code.logsumexp(#axes_code, #keepdim))));
            }
            if op.gives_pair() {
                return Ok(ctx.bind_pair(
                    (out.clone(), dt),
                    (out, dt),
                    quote!(#code.#m(#axes_code, #keepdim, #corr)),
                ));
            }
            Ok(ctx.bind(out, dt, quote!(#code.#m(#axes_code, #keepdim, #corr))))
        }
        StatsOp::Softmax | StatsOp::LogSoftmax | StatsOp::Softmin => {
            args::count(name, &args, 0, 1, span)?;
            let ax = args
                .first()
                .map(|a| args::isize_arg(name, a))
                .transpose()?
                .unwrap_or(-1);
            args::axis(name, ax, &shape, at(&args, 0))?;
            Ok(ctx.bind(
                shape,
                dtype.float_of(),
                quote!(#code.#m(#ax as isize, None)),
            ))
        }
        StatsOp::Normalize => {
            let (pos, kw) = args::split(name, args, &["p", "axis", "eps"], 3, span)?;
            let p = args::pick(&kw, &pos, "p", 0)
                .map(|a| args::scalar_f64(name, a))
                .transpose()?
                .unwrap_or(quote!(2.0f64));
            let ax = args::pick(&kw, &pos, "axis", 1)
                .map(|a| args::isize_arg(name, a))
                .transpose()?
                .unwrap_or(1);
            args::axis(name, ax, &shape, span)?;
            let eps = args::pick(&kw, &pos, "eps", 2)
                .map(|a| args::scalar_f64(name, a))
                .transpose()?
                .unwrap_or(quote!(1e-12f64));
            Ok(ctx.bind(
                shape,
                dtype.float_of(),
                quote!(#code.normalize(#p, #ax as isize, #eps)),
            ))
        }
        StatsOp::Cumsum
        | StatsOp::Cumprod
        | StatsOp::Cummax
        | StatsOp::Cummin
        | StatsOp::Logcumsumexp => {
            args::count(name, &args, 0, 1, span)?;
            let ax = args
                .first()
                .map(|a| args::isize_arg(name, a))
                .transpose()?
                .unwrap_or(0);
            if !shape.is_empty() {
                args::axis(name, ax, &shape, at(&args, 0))?;
            }
            let dt = match op {
                StatsOp::Cumsum => dtype.sum_dtype(),
                StatsOp::Logcumsumexp => dtype.float_of(),
                _ => dtype,
            };
            if op.gives_pair() {
                return Ok(ctx.bind_pair(
                    (shape.clone(), dtype),
                    (shape, DType::I32),
                    quote!(#code.#m(#ax as isize)),
                ));
            }
            Ok(ctx.bind(shape, dt, quote!(#code.#m(#ax as isize))))
        }
        StatsOp::Argmax | StatsOp::Argmin => {
            args::count(name, &args, 0, 2, span)?;
            let ax = args.first().map(|a| args::isize_arg(name, a)).transpose()?;
            let keepdim = args
                .get(1)
                .map(|a| args::boolean(name, a))
                .transpose()?
                .unwrap_or(false);
            let (out, axc) = match ax {
                None => (vec![], quote!(None)),
                Some(a) => {
                    let (_, o) = ctx.rule(at(&args, 0), |_| {
                        reduce::reduce(name, &shape, Some(&[a]), keepdim)
                    })?;
                    (o, quote!(Some(#a as isize)))
                }
            };
            Ok(ctx.bind(out, DType::I32, quote!(#code.#m(#axc, #keepdim))))
        }
        StatsOp::Sort | StatsOp::Argsort => {
            let (pos, kw) = args::split(name, args, &["axis", "descending"], 2, span)?;
            let ax = args::pick(&kw, &pos, "axis", 0)
                .map(|a| args::isize_arg(name, a))
                .transpose()?
                .unwrap_or(-1);
            args::axis(name, ax, &shape, span)?;
            let desc = args::pick(&kw, &pos, "descending", 1)
                .map(|a| args::boolean(name, a))
                .transpose()?
                .unwrap_or(false);
            if op == StatsOp::Argsort {
                return Ok(ctx.bind(
                    shape,
                    DType::I32,
                    quote!(#code.argsort(#ax as isize, #desc)),
                ));
            }
            Ok(ctx.bind_pair(
                (shape.clone(), dtype),
                (shape, DType::I32),
                quote!(#code.sort(#ax as isize, #desc)),
            ))
        }
        StatsOp::Topk => {
            let (pos, kw) = args::split(name, args, &["k", "axis", "largest"], 3, span)?;
            let ka =
                args::pick(&kw, &pos, "k", 0).ok_or_else(|| Error::new(span, "`topk` needs k"))?;
            let k = args::int(name, ka)?;
            let ax = args::pick(&kw, &pos, "axis", 1)
                .map(|a| args::isize_arg(name, a))
                .transpose()?
                .unwrap_or(-1);
            let n = args::axis(name, ax, &shape, span)?;
            let largest = args::pick(&kw, &pos, "largest", 2)
                .map(|a| args::boolean(name, a))
                .transpose()?
                .unwrap_or(true);
            if let Some(len) = shape[n].as_const()
                && (k < 0 || k > len)
            {
                return Err(Error::new(
                    ka.span,
                    format!("`topk`: k = {k} is out of range for axis {ax} of size {len}"),
                ));
            }
            let mut out = shape.clone();
            out[n] = crate::sym::Poly::constant(k);
            Ok(ctx.bind_pair(
                (out.clone(), dtype),
                (out, DType::I32),
                quote!(#code.topk(#k as usize, #ax as isize, #largest)),
            ))
        }
    }
}
