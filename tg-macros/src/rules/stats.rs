//! Statistics, scans and sorting: shapes follow the reduction or keep the input's; ops with
//! two results (values and indices, variance and mean) give a pair.

use proc_macro2::{Ident, Span};
use quote::quote;
use syn::{Error, Result};

use super::args;
use super::reduce::reduced;
use tg_core::DType;

use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val};

pub const NAMES: &[&str] = &[
    "var",
    "std",
    "var_mean",
    "std_mean",
    "logsumexp",
    "softmax",
    "log_softmax",
    "softmin",
    "normalize",
    "cumsum",
    "cumprod",
    "cummax",
    "cummin",
    "logcumsumexp",
    "argmax",
    "argmin",
    "sort",
    "argsort",
    "topk",
];

/// Ops that give a pair.
const PAIRS: &[&str] = &["var_mean", "std_mean", "cummax", "cummin", "sort", "topk"];

pub fn apply(ctx: &mut Ctx, name: &str, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let (shape, dtype, code) = args::tensor(name, &recv)?;
    let (shape, code) = (shape.to_vec(), code.clone());
    let m = Ident::new(name, span);
    let at = |args: &[Arg], i: usize| args.get(i).map(|a| a.span).unwrap_or(span);
    match name {
        "var" | "std" | "var_mean" | "std_mean" | "logsumexp" => {
            let known: &[&str] = if name == "logsumexp" {
                &["axis", "keepdim"]
            } else {
                &["axis", "keepdim", "correction"]
            };
            let (pos, kw) = args::split(name, args, known, 3, span)?;
            let axes = args::pick(&kw, &pos, "axis", 0)
                .map(|a| args::ints(name, a).map(|v| (v, a.span)))
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
            let (out, _) = reduced(
                name,
                &shape,
                axes.as_ref().map(|(v, _)| v.as_slice()),
                keepdim,
                axes_span,
            )?;
            let axes_code = match &axes {
                None => quote!(None),
                Some((v, _)) => {
                    let s = args::isize_slice(v);
                    quote!(Some(#s))
                }
            };
            let dt = dtype.float_of();
            if name == "logsumexp" {
                return Ok(ctx.bind(out, dt, quote!(#code.logsumexp(#axes_code, #keepdim))));
            }
            if PAIRS.contains(&name) {
                return Ok(ctx.bind_pair(
                    (out.clone(), dt),
                    (out, dt),
                    quote!(#code.#m(#axes_code, #keepdim, #corr)),
                ));
            }
            Ok(ctx.bind(out, dt, quote!(#code.#m(#axes_code, #keepdim, #corr))))
        }
        "softmax" | "log_softmax" | "softmin" => {
            args::count(name, &args, 0, 1, span)?;
            let ax = args
                .first()
                .map(|a| args::int(name, a))
                .transpose()?
                .unwrap_or(-1);
            args::axis(name, ax, &shape, at(&args, 0))?;
            Ok(ctx.bind(
                shape,
                dtype.float_of(),
                quote!(#code.#m(#ax as isize, None)),
            ))
        }
        "normalize" => {
            let (pos, kw) = args::split(name, args, &["p", "axis", "eps"], 3, span)?;
            let p = args::pick(&kw, &pos, "p", 0)
                .map(|a| args::scalar_f64(name, a))
                .transpose()?
                .unwrap_or(quote!(2.0f64));
            let ax = args::pick(&kw, &pos, "axis", 1)
                .map(|a| args::int(name, a))
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
        "cumsum" | "cumprod" | "cummax" | "cummin" | "logcumsumexp" => {
            args::count(name, &args, 0, 1, span)?;
            let ax = args
                .first()
                .map(|a| args::int(name, a))
                .transpose()?
                .unwrap_or(0);
            if !shape.is_empty() {
                args::axis(name, ax, &shape, at(&args, 0))?;
            }
            let dt = match name {
                "cumsum" => sum_out(dtype),
                "logcumsumexp" => dtype.float_of(),
                _ => dtype,
            };
            if name == "cummax" || name == "cummin" {
                return Ok(ctx.bind_pair(
                    (shape.clone(), dtype),
                    (shape, DType::I32),
                    quote!(#code.#m(#ax as isize)),
                ));
            }
            Ok(ctx.bind(shape, dt, quote!(#code.#m(#ax as isize))))
        }
        "argmax" | "argmin" => {
            args::count(name, &args, 0, 2, span)?;
            let ax = args.first().map(|a| args::int(name, a)).transpose()?;
            let keepdim = args
                .get(1)
                .map(|a| args::boolean(name, a))
                .transpose()?
                .unwrap_or(false);
            let (out, axc) = match ax {
                None => (vec![], quote!(None)),
                Some(a) => {
                    let (o, _) = reduced(name, &shape, Some(&[a]), keepdim, at(&args, 0))?;
                    (o, quote!(Some(#a as isize)))
                }
            };
            Ok(ctx.bind(out, DType::I32, quote!(#code.#m(#axc, #keepdim))))
        }
        "sort" | "argsort" => {
            let (pos, kw) = args::split(name, args, &["axis", "descending"], 2, span)?;
            let ax = args::pick(&kw, &pos, "axis", 0)
                .map(|a| args::int(name, a))
                .transpose()?
                .unwrap_or(-1);
            args::axis(name, ax, &shape, span)?;
            let desc = args::pick(&kw, &pos, "descending", 1)
                .map(|a| args::boolean(name, a))
                .transpose()?
                .unwrap_or(false);
            if name == "argsort" {
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
        _ => {
            // topk(k, axis, largest)
            let (pos, kw) = args::split(name, args, &["k", "axis", "largest"], 3, span)?;
            let ka =
                args::pick(&kw, &pos, "k", 0).ok_or_else(|| Error::new(span, "`topk` needs k"))?;
            let k = args::int(name, ka)?;
            let ax = args::pick(&kw, &pos, "axis", 1)
                .map(|a| args::int(name, a))
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

/// cumsum's dtype: tinygrad's sum dtype (f16 stays f16).
fn sum_out(d: DType) -> DType {
    d.sum_dtype()
}
