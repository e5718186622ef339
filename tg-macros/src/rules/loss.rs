//! Loss functions: the reductions a training step ends with. Each mirrors tg-ops'
//! `untyped/loss.rs`: the per-element shape (a broadcast, or the logits without the class
//! axis), reduced to a scalar unless `reduction = "none"`, and the float dtype the
//! predictions and targets meet in. tg-ops' `Reduction` enum is spelled as tinygrad and torch
//! spell it, a string: `"mean"` (the default), `"sum"` or `"none"`.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Error, Result};

use super::{args, ops};
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val, show_shape};
use crate::sym::Poly;
use tg_core::DType;
use tg_core::ScalarKind;

ops! {
    /// The losses.
    pub enum LossOp {
        CrossEntropy = "cross_entropy",
        NllLoss = "nll_loss",
        BinaryCrossentropy = "binary_crossentropy",
        BinaryCrossentropyLogits = "binary_crossentropy_logits",
        SparseCategoricalCrossentropy = "sparse_categorical_crossentropy",
    }
}

/// tg-ops' `Reduction`.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Reduction {
    None,
    Sum,
    Mean,
}

impl Reduction {
    fn code(self) -> TokenStream {
        match self {
            Reduction::None => quote!(::tg::untyped::loss::Reduction::None),
            Reduction::Sum => quote!(::tg::untyped::loss::Reduction::Sum),
            Reduction::Mean => quote!(::tg::untyped::loss::Reduction::Mean),
        }
    }

    /// The result's shape: the per-element losses, or a scalar.
    fn shape(self, per_element: Vec<Poly>) -> Vec<Poly> {
        if self == Reduction::None {
            per_element
        } else {
            vec![]
        }
    }
}

/// tinygrad's spellings of the reductions.
const REDUCTIONS: &[&str] = &["mean", "sum", "none"];

/// The `reduction` argument (a string; `"mean"` if absent).
fn reduction(op: &str, a: Option<&Arg>) -> Result<Reduction> {
    let Some(a) = a else {
        return Ok(Reduction::Mean);
    };
    Ok(match args::choice(op, "reduction", a, REDUCTIONS)? {
        "sum" => Reduction::Sum,
        "none" => Reduction::None,
        _ => Reduction::Mean,
    })
}

/// The value of a number written in the kernel (a literal, possibly negated), for checks
/// tg-ops makes at run time that the macro can make at once; `None` for run-time values.
fn known_f64(v: &Val) -> Option<f64> {
    fn eval(e: &syn::Expr) -> Option<f64> {
        match e {
            syn::Expr::Lit(l) => match &l.lit {
                syn::Lit::Float(f) => f.base10_parse().ok(),
                syn::Lit::Int(i) => i.base10_parse().ok(),
                _ => None,
            },
            syn::Expr::Paren(p) => eval(&p.expr),
            syn::Expr::Group(g) => eval(&g.expr),
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => eval(&u.expr).map(|x| -x),
            _ => None,
        }
    }
    match v {
        Val::Int(p) => p.as_const().map(|c| c as f64),
        Val::Scalar {
            kind: ScalarKind::Float | ScalarKind::Int,
            code,
            ..
        } => syn::parse2::<syn::Expr>(code.clone())
            .ok()
            .and_then(|e| eval(&e)),
        _ => None,
    }
}

/// `label_smoothing` as `f64` code (0 if absent); a literal outside [0, 1] is an error, as
/// tg-ops' check.
fn smoothing(op: &str, a: Option<&Arg>) -> Result<TokenStream> {
    let Some(a) = a else {
        return Ok(quote!(0.0f64));
    };
    let code = args::scalar_f64(op, a)?;
    if let Some(s) = known_f64(&a.val)
        && !(0.0..=1.0).contains(&s)
    {
        return Err(Error::new(
            a.span,
            format!("`{op}`: label_smoothing must be in [0, 1], got {s}"),
        ));
    }
    Ok(code)
}

/// `ignore_index` as `Option<i64>` code: a compile-time integer.
fn ignore_index(op: &str, a: Option<&Arg>) -> Result<TokenStream> {
    match a {
        None => Ok(quote!(None)),
        Some(a) => {
            let p = args::poly(op, a)?;
            let c = p.to_tokens(&|_| quote!(0usize));
            let c = match p.as_const() {
                Some(k) => {
                    let l = proc_macro2::Literal::i64_unsuffixed(k);
                    quote!(#l)
                }
                None => quote!(#c),
            };
            Ok(quote!(Some(#c as i64)))
        }
    }
}

/// Class labels must be integers (tg-ops' `check_labels`).
fn check_labels(op: &str, (shape, dtype): (&[Poly], DType), a: &Arg) -> Result<()> {
    if dtype.is_int() {
        return Ok(());
    }
    Err(Error::new(
        a.span,
        format!(
            "`{op}`: class labels must be an integer tensor; the labels {} are {}",
            show_shape(shape),
            dtype.rust_name()
        ),
    ))
}

/// `labels` must be `shape` without axis `axis`, axis by axis (symbolic dims checked later).
fn require_without(
    ctx: &mut Ctx,
    op: &str,
    (what, shape): (&str, &[Poly]),
    labels: &[Poly],
    axis: usize,
    span: Span,
) -> Result<()> {
    let want: Vec<Poly> = shape
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != axis)
        .map(|(_, d)| d.clone())
        .collect();
    if labels.len() != want.len() {
        return Err(Error::new(
            span,
            format!(
                "`{op}`: the labels {} must have the {what}' shape {} without the class axis {axis}, i.e. {}",
                show_shape(labels),
                show_shape(shape),
                show_shape(&want)
            ),
        ));
    }
    for (i, (got, w)) in labels.iter().zip(&want).enumerate() {
        ctx.require_equal(got, w, span, || {
            format!(
                "`{op}`: the labels {} must have the {what}' shape {} without the class axis {axis}: labels axis {i} is {got}, not {w}",
                show_shape(labels),
                show_shape(shape)
            )
        })?;
    }
    Ok(())
}

pub fn apply(ctx: &mut Ctx, op: LossOp, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let name = op.name();
    let (shape, dtype, code) = args::tensor(name, &recv)?;
    let (shape, code) = (shape.to_vec(), code.clone());
    // tg-ops' arguments in its order, each positional or by name
    let known: &[&str] = match op {
        LossOp::BinaryCrossentropy => &["y", "reduction"],
        LossOp::BinaryCrossentropyLogits => &["y", "reduction", "pos_weight"],
        LossOp::SparseCategoricalCrossentropy => {
            &["y", "ignore_index", "label_smoothing", "reduction"]
        }
        LossOp::CrossEntropy => &["y", "reduction", "label_smoothing"],
        LossOp::NllLoss => &["y", "weight", "ignore_index", "reduction"],
    };
    let (pos, kw) = args::split(name, args, known, known.len(), span)?;
    let at = |n: &str| known.iter().position(|k| *k == n).unwrap_or(usize::MAX);
    let get = |n: &str| args::pick_once(name, &kw, &pos, n, at(n));
    let red = reduction(name, get("reduction")?)?;
    let rc = red.code();
    let y = get("y")?.ok_or_else(|| Error::new(span, format!("`{name}` needs the targets `y`")))?;
    let (ys, yd, yc) = args::tensor(name, y)?;
    let (ys, yc) = (ys.to_vec(), yc.clone());
    match op {
        LossOp::BinaryCrossentropy | LossOp::BinaryCrossentropyLogits => {
            // predictions and targets broadcast, in the float dtype they meet in
            let mut dt = dtype.float_of().least_upper(yd);
            let mut out = ctx.broadcast(name, &shape, &ys, y.span)?;
            if op == LossOp::BinaryCrossentropy {
                return Ok(ctx.bind(
                    red.shape(out),
                    dt,
                    quote!(#code.binary_crossentropy(&#yc, #rc)),
                ));
            }
            let w = match get("pos_weight")? {
                Some(w) => {
                    let (ws, wd, wc) = args::tensor(name, w)?;
                    dt = dt.least_upper(wd);
                    out = ctx.broadcast(name, ws, &out, w.span)?;
                    let wc = wc.clone();
                    quote!(Some(&#wc))
                }
                None => quote!(None),
            };
            Ok(ctx.bind(
                red.shape(out),
                dt,
                quote!(#code.binary_crossentropy_logits(&#yc, #rc, #w)),
            ))
        }
        LossOp::SparseCategoricalCrossentropy => {
            let ii = ignore_index(name, get("ignore_index")?)?;
            let ls = smoothing(name, get("label_smoothing")?)?;
            check_labels(name, (&ys, yd), y)?;
            if shape.is_empty() {
                return Err(Error::new(
                    recv.span,
                    format!("`{name}`: the logits need a class axis, got a rank-0 tensor"),
                ));
            }
            let last = shape.len() - 1;
            require_without(ctx, name, ("logits", &shape), &ys, last, y.span)?;
            Ok(ctx.bind(
                red.shape(ys),
                dtype.float_of(),
                quote!(#code.sparse_categorical_crossentropy(&#yc, #ii, #ls, #rc)),
            ))
        }
        LossOp::CrossEntropy => {
            let ls = smoothing(name, get("label_smoothing")?)?;
            if shape.is_empty() {
                return Err(Error::new(
                    recv.span,
                    format!("`{name}`: the logits need a class axis, got a rank-0 tensor"),
                ));
            }
            // classes on axis 1, or axis 0 of a 1-D input; the targets' rank tells
            // probabilities (the logits' shape) from labels (without the class axis)
            let axis = usize::from(shape.len() > 1);
            let (per_sample, dt) = if ys.len() == shape.len() {
                for (i, (a, b)) in ys.iter().zip(&shape).enumerate() {
                    ctx.require_equal(a, b, y.span, || {
                        format!(
                            "`cross_entropy`: probability targets {} must have the logits' shape {}: axis {i} is {a}, not {b}",
                            show_shape(&ys),
                            show_shape(&shape)
                        )
                    })?;
                }
                let mut ps = shape.clone();
                ps.remove(axis);
                (ps, dtype.float_of().least_upper(yd.weak(ScalarKind::Float)))
            } else if ys.len() + 1 == shape.len() {
                check_labels(name, (&ys, yd), y)?;
                require_without(ctx, name, ("logits", &shape), &ys, axis, y.span)?;
                // integer labels make the targets f32 (tinygrad), so f16 logits give f32
                (ys.clone(), dtype.float_of().least_upper(DType::F32))
            } else {
                let mut labels = shape.clone();
                labels.remove(axis);
                return Err(Error::new(
                    y.span,
                    format!(
                        "`cross_entropy`: targets {} must be labels of shape {} or probabilities of the logits' shape {}",
                        show_shape(&ys),
                        show_shape(&labels),
                        show_shape(&shape)
                    ),
                ));
            };
            Ok(ctx.bind(
                red.shape(per_sample),
                dt,
                quote!(#code.cross_entropy(&#yc, #rc, #ls)),
            ))
        }
        LossOp::NllLoss => {
            // nll_loss(y, weight, ignore_index): log-probabilities (N, C, ...), labels (N, ...)
            check_labels(name, (&ys, yd), y)?;
            if shape.len() < 2 {
                return Err(Error::new(
                    recv.span,
                    format!(
                        "`nll_loss` needs log-probabilities (N, C, ...) of rank 2 or more, got {}",
                        show_shape(&shape)
                    ),
                ));
            }
            require_without(ctx, name, ("log-probabilities", &shape), &ys, 1, y.span)?;
            let (wd, wcode) = match get("weight")? {
                Some(w) => {
                    let (ws, wd, wc) = args::tensor(name, w)?;
                    if ws.len() != 1 {
                        return Err(Error::new(
                            w.span,
                            format!(
                                "`nll_loss`: the weight must have shape [{}] (one per class of {}), got {}",
                                shape[1],
                                show_shape(&shape),
                                show_shape(ws)
                            ),
                        ));
                    }
                    ctx.require_equal(&ws[0], &shape[1], w.span, || {
                        format!(
                            "`nll_loss`: the weight {} has {} values for the {} classes (axis 1) of {}",
                            show_shape(ws),
                            ws[0],
                            shape[1],
                            show_shape(&shape)
                        )
                    })?;
                    let wc = wc.clone();
                    (wd, quote!(Some(&#wc)))
                }
                // no weight: the labels' dtype (tg-ops weighs by `y.const_like(1)`)
                None => (yd, quote!(None)),
            };
            let ii = ignore_index(name, get("ignore_index")?)?;
            let nll = dtype.least_upper(wd);
            let dt = match red {
                Reduction::None => nll,
                Reduction::Sum => nll.sum_dtype(),
                // the weighted sum over the total weight
                Reduction::Mean => nll.sum_dtype().least_upper(wd.sum_dtype()).float_of(),
            };
            Ok(ctx.bind(
                red.shape(ys),
                dt,
                quote!(#code.nll_loss(&#yc, #wcode, #ii, #rc)),
            ))
        }
    }
}
