//! matmul (`a @ b`, `a.matmul(b)`, `a.dot(b)`) and `linear`, with numpy's shape rules: 1-D
//! operands are promoted and the added axis removed, batch axes broadcast; einsum, whose
//! formula is parsed while the macro expands; and the decompositions of the matrices in the
//! last two axes (qr, svd, newton_schulz), whose leading axes are a batch.

use proc_macro2::Span;
use quote::quote;
use syn::{Error, Result};

use super::{args, ops};
use tg_core::Checker;
use tg_core::DType;
use tg_core::shape::einsum::{self, EinsumError};

use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val, show_shape};
use crate::sym::Poly;

ops! {
    /// Matrix products, einsum and the decompositions.
    pub enum LinalgOp {
        Matmul = "matmul",
        Dot = "dot",
        Linear = "linear",
        Einsum = "einsum",
        Qr = "qr",
        Svd = "svd",
        NewtonSchulz = "newton_schulz",
    }
}

/// The decompositions of a matrix (the last two axes).
#[derive(Copy, Clone)]
enum Decomposition {
    Qr,
    Svd,
    NewtonSchulz,
}

pub fn matmul(ctx: &mut Ctx, a: Arg, b: Arg, span: Span) -> Result<Val> {
    let (sa, da, ca) = args::tensor("matmul", &a)?;
    let (sb, db, cb) = args::tensor("matmul", &b)?;
    let out = ctx.rule(span, |ck| {
        tg_core::shape::matmul::matmul(ck, "matmul", sa, sb)
    })?;
    let (ca, cb) = (ca.clone(), cb.clone());
    Ok(ctx.bind(out, da.least_upper(db), quote!(#ca.matmul(&#cb))))
}

pub fn apply(ctx: &mut Ctx, op: LinalgOp, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let name = op.name();
    match op {
        LinalgOp::Einsum => einsum(ctx, recv, args, span),
        LinalgOp::Qr => decompose(ctx, Decomposition::Qr, name, recv, args, span),
        LinalgOp::Svd => decompose(ctx, Decomposition::Svd, name, recv, args, span),
        LinalgOp::NewtonSchulz => {
            decompose(ctx, Decomposition::NewtonSchulz, name, recv, args, span)
        }
        LinalgOp::Matmul | LinalgOp::Dot => {
            no_keywords(name, &args)?;
            args::count(name, &args, 1, 1, span)?;
            let [b] = <[Arg; 1]>::try_from(args).map_err(|_| Error::new(span, "one argument"))?;
            matmul(ctx, recv, b, span)
        }
        LinalgOp::Linear => {
            no_keywords(name, &args)?;
            linear(ctx, name, recv, args, span)
        }
    }
}

/// The family takes keywords for einsum and the decompositions; the products take none.
fn no_keywords(name: &str, args: &[Arg]) -> Result<()> {
    match args.iter().find(|a| a.name.is_some()) {
        Some(a) => Err(Error::new(
            a.span,
            format!("`{name}` takes no keyword arguments"),
        )),
        None => Ok(()),
    }
}

/// `x.linear(weight (in, out), bias?)`: tinygrad's convention.
fn linear(ctx: &mut Ctx, name: &'static str, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    args::count(name, &args, 1, 2, span)?;
    let w = args[0].clone();
    let Val::Tensor { shape, dtype, .. } = matmul(ctx, recv.clone(), w.clone(), span)? else {
        return Err(Error::new(span, "internal: a matmul gives a tensor"));
    };
    let (_, _, cx) = args::tensor(name, &recv)?;
    let (_, _, cw) = args::tensor(name, &w)?;
    let (cx, cw) = (cx.clone(), cw.clone());
    let (shape, dtype, bias) = match args.get(1) {
        Some(b) => {
            let (sb, db, cb) = args::tensor(name, b)?;
            let cb = cb.clone();
            let s = ctx.broadcast("linear", &shape, sb, b.span)?;
            (s, dtype.least_upper(db), quote!(Some(&#cb)))
        }
        None => (shape, dtype, quote!(None)),
    };
    Ok(ctx.bind(shape, dtype, quote!(#cx.linear(&#cw, #bias))))
}

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
fn einsum(ctx: &mut Ctx, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
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
        ctx.assert_later(&d.fact, d.error.to_string());
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

/// The matrix dims `(m, n)` of a batch of matrices.
fn matrix<'a>(op: &str, shape: &'a [Poly], span: Span) -> Result<(&'a Poly, &'a Poly)> {
    match shape {
        [.., m, n] => Ok((m, n)),
        _ => Err(Error::new(
            span,
            format!(
                "`{op}` needs a matrix (rank 2 or more), got shape {} (rank {})",
                show_shape(shape),
                shape.len()
            ),
        )),
    }
}

/// `min(m, n)`: known when their difference is; else a dynamic dimension named after both
/// (equal for equal inputs), which the run checks, as tg-ops' typed `svd` does with `usize`.
fn min_dim(m: &Poly, n: &Poly) -> Poly {
    match m.sub(n).as_const() {
        Some(d) if d >= 0 => n.clone(),
        Some(_) => m.clone(),
        None => Poly::dynamic(&format!("min({m}, {n})")),
    }
}

/// `x.qr()` -> `(q, r)`: `(..., m, m)` and `(..., m, n)`. `x.svd()` / `x.svd(full_matrices
/// = false)` -> `(u, s, vh)`: `(..., m, m)`, `(..., k)`, `(..., n, n)`, or `(..., m, k)`,
/// `(..., k)`, `(..., k, n)` for `k = min(m, n)` (numpy's shapes; `full_matrices` defaults
/// to true as in numpy and tinygrad). `x.newton_schulz(steps, params, eps = 1e-7)`: the
/// input's shape (tinygrad's default `eps`; `params` a non-empty list of coefficients). All
/// give floats: integer and bool inputs give f32.
fn decompose(
    ctx: &mut Ctx,
    op: Decomposition,
    name: &'static str,
    recv: Arg,
    args: Vec<Arg>,
    span: Span,
) -> Result<Val> {
    let (shape, dtype, code) = args::tensor(name, &recv)?;
    let (shape, code) = (shape.to_vec(), code.clone());
    let dt = dtype.float_of();
    match op {
        Decomposition::Qr => {
            args::count(name, &args, 0, 0, span)?;
            let (m, _) = matrix(name, &shape, recv.span)?;
            let mut q = shape.clone();
            let len = q.len();
            q[len - 1] = m.clone();
            Ok(ctx.bind_pair((q, dt), (shape, dt), quote!(#code.qr())))
        }
        Decomposition::Svd => {
            let (pos, kw) = args::split(name, args, &["full_matrices"], 1, span)?;
            let full = match args::pick_once(name, &kw, &pos, "full_matrices", 0)? {
                None => true,
                Some(a) => args::boolean(name, a).map_err(|_| {
                    Error::new(
                        a.span,
                        format!(
                            "`svd`: full_matrices is `true` or `false`, found {}",
                            a.val.describe()
                        ),
                    )
                })?,
            };
            let (m, n) = matrix(name, &shape, recv.span)?;
            let (m, n) = (m.clone(), n.clone());
            let k = min_dim(&m, &n);
            let batch = &shape[..shape.len() - 2];
            let with = |dims: &[&Poly]| -> Vec<Poly> {
                batch
                    .iter()
                    .cloned()
                    .chain(dims.iter().map(|&d| d.clone()))
                    .collect()
            };
            let (u, vh) = if full {
                (with(&[&m, &m]), with(&[&n, &n]))
            } else {
                (with(&[&m, &k]), with(&[&k, &n]))
            };
            let s = with(&[&k]);
            Ok(ctx.bind_tuple(vec![(u, dt), (s, dt), (vh, dt)], quote!(#code.svd(#full))))
        }
        Decomposition::NewtonSchulz => {
            let (pos, kw) = args::split(name, args, &["steps", "params", "eps"], 3, span)?;
            matrix(name, &shape, recv.span)?;
            let steps = args::pick_once(name, &kw, &pos, "steps", 0)?.ok_or_else(|| {
                Error::new(
                    span,
                    "`newton_schulz` needs `steps` (the iteration count) and `params` (the polynomial's coefficients)",
                )
            })?;
            let steps_n = args::poly(name, steps)?;
            if steps_n.as_const().is_some_and(|s| s < 0) {
                return Err(Error::new(
                    steps.span,
                    format!("`newton_schulz`: steps must be 0 or more, got {steps_n}"),
                ));
            }
            let steps_code = steps_n.to_tokens(&|_| quote!(0usize));
            let params = args::pick_once(name, &kw, &pos, "params", 1)?.ok_or_else(|| {
                Error::new(
                    span,
                    "`newton_schulz` needs `params`, the polynomial's coefficients (Muon's [3.4445, -4.7750, 2.0315])",
                )
            })?;
            let items = match &params.val {
                Val::List(items) => items.clone(),
                v => vec![v.clone()],
            };
            if items.is_empty() {
                return Err(Error::new(
                    params.span,
                    format!(
                        "`newton_schulz` needs at least one polynomial coefficient in params (input of shape {})",
                        show_shape(&shape)
                    ),
                ));
            }
            let ps = items
                .into_iter()
                .map(|v| args::scalar_f64(name, &Arg::new(v, params.span)))
                .collect::<Result<Vec<_>>>()?;
            let eps = args::pick_once(name, &kw, &pos, "eps", 2)?
                .map(|a| args::scalar_f64(name, a))
                .transpose()?
                .unwrap_or(quote!(1e-7f64));
            Ok(ctx.bind(
                shape,
                dt,
                quote!(#code.newton_schulz(#steps_code, &[#(#ps),*], #eps)),
            ))
        }
    }
}
