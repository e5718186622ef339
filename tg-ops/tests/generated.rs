//! The typed API's trait impls that stable Rust cannot state once for all ranks and dtypes
//! (a const axis cannot compute a tuple type; a trait cannot compute a dtype), generated from
//! tg-core's tables: `MAX_RANK` and `MATMUL_MAX_RANK` for the shape impls, the promotion
//! lattice and the accumulation rules for the dtype impls. This test writes each file's text
//! and fails if the committed file differs; `TG_BLESS=1 cargo test -p tg-ops --test generated`
//! writes them.

#[path = "generated/dispatch.rs"]
mod dispatch;
#[path = "generated/docs.rs"]
mod docs;
#[path = "generated/typed.rs"]
mod typed;

use std::fmt::Write;
use std::path::PathBuf;

use tg_core::shape::{MATMUL_MAX_RANK, MAX_RANK};
use tg_core::{DType, ScalarKind};

/// The header of every generated file.
fn header(what: &str) -> String {
    format!(
        "// {what}\n// Generated from tg-core's tables by tg-ops/tests/generated.rs; do not edit by hand:\n// TG_BLESS=1 cargo test -p tg-ops --test generated\n"
    )
}

/// `(A, B, )`, or `()`.
fn tup<S: AsRef<str>>(items: &[S]) -> String {
    if items.is_empty() {
        return "()".into();
    }
    let mut s = String::from("(");
    for x in items {
        s.push_str(x.as_ref());
        s.push_str(", ");
    }
    s.push(')');
    s
}

/// `D0, D1, ...` for rank `r`.
fn params(prefix: &str, r: usize) -> Vec<String> {
    (0..r).map(|i| format!("{prefix}{i}")).collect()
}

/// `<D0: Dim, D1: Dim>`.
fn generics(ps: &[String]) -> String {
    let bounds: Vec<String> = ps.iter().map(|p| format!("{p}: Dim")).collect();
    format!("<{}>", bounds.join(", "))
}

/// Each impl is `do_not_recommend`, so that an axis out of range shows the trait's message
/// (naming the axis and the shape), not a list of the impls that exist.
const DNR: &str = "#[diagnostic::do_not_recommend] ";

/// `RemoveAxis`, `KeepAxis`, `SelectAxis`, `SwapAxes` and `InsertAxis` for every rank and
/// every axis, each spelled positive and negative.
fn axis_impls() -> String {
    let mut out =
        header("The per-rank, per-axis impls of the type-level axis traits (shape/axis.rs).");
    out.push_str("\nuse super::axis::{InsertAxis, KeepAxis, RemoveAxis, SelectAxis, SwapAxes};\nuse super::{Const, Dim};\n\n");
    for r in 1..=MAX_RANK {
        let ps = params("D", r);
        let g = generics(&ps);
        let me = tup(&ps);
        for a in 0..r {
            for spelled in [a as isize, a as isize - r as isize] {
                let rem: Vec<&String> = ps
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != a)
                    .map(|(_, p)| p)
                    .collect();
                let keep: Vec<String> = ps
                    .iter()
                    .enumerate()
                    .map(|(i, p)| if i == a { "Const<1>".into() } else { p.clone() })
                    .collect();
                let removed = &ps[a];
                let (rem, keep) = (tup(&rem), tup(&keep));
                writeln!(out, "{DNR}impl{g} RemoveAxis<{spelled}> for {me} {{ const AXIS: usize = {a}; type Output = {rem}; type Removed = {removed}; }}").ok();
                writeln!(out, "{DNR}impl{g} KeepAxis<{spelled}> for {me} {{ const AXIS: usize = {a}; type Output = {keep}; }}").ok();
                writeln!(out, "{DNR}impl{g} SelectAxis<{spelled}> for {me} {{ const AXIS: usize = {a}; type Dim = {removed}; }}").ok();
                for b in 0..r {
                    for bspelled in [b as isize, b as isize - r as isize] {
                        let mut sw = ps.clone();
                        sw.swap(a, b);
                        let sw = tup(&sw);
                        writeln!(out, "{DNR}impl{g} SwapAxes<{spelled}, {bspelled}> for {me} {{ const AXES: (usize, usize) = ({a}, {b}); type Output = {sw}; }}").ok();
                    }
                }
            }
        }
    }
    for r in 0..MAX_RANK {
        let ps = params("D", r);
        let g = if ps.is_empty() {
            String::new()
        } else {
            generics(&ps)
        };
        let me = tup(&ps);
        for a in 0..=r {
            for spelled in [a as isize, a as isize - (r as isize + 1)] {
                let mut ins = ps.clone();
                ins.insert(a, "Const<1>".into());
                let ins = tup(&ins);
                writeln!(out, "{DNR}impl{g} InsertAxis<{spelled}> for {me} {{ const AXIS: usize = {a}; type Output = {ins}; }}").ok();
            }
        }
    }
    out
}

/// numpy's rank broadcasting as `Broadcast` impls: shapes align at their last axis, aligned
/// dims must match (`SameDim`: equal, or one dynamic), the longer shape's leading dims are
/// kept. (A static size-1 axis cannot stretch here: that impl would overlap the equal-dims
/// one. `expand` and `#[kernel]` do it.)
fn broadcast_impls() -> String {
    let mut out = header("numpy's rank broadcasting as trait impls (shape/mod.rs, `Broadcast`).");
    out.push_str("\nuse super::{Broadcast, Dim, SameDim};\n\n");
    for ra in 0..=MAX_RANK {
        for rb in 0..=MAX_RANK {
            let (a, b) = (params("A", ra), params("B", rb));
            let r = ra.max(rb);
            let mut dims = Vec::new();
            let mut bounds: Vec<String> = a.iter().chain(&b).map(|x| format!("{x}: Dim")).collect();
            for i in 0..r {
                let ia = (i + ra).checked_sub(r);
                let ib = (i + rb).checked_sub(r);
                match (ia, ib) {
                    (Some(ia), Some(ib)) => {
                        bounds.push(format!("{}: SameDim<{}>", a[ia], b[ib]));
                        dims.push(format!("<{} as SameDim<{}>>::Output", a[ia], b[ib]));
                    }
                    (Some(ia), None) => dims.push(a[ia].clone()),
                    (None, Some(ib)) => dims.push(b[ib].clone()),
                    (None, None) => {}
                }
            }
            let all: Vec<&String> = a.iter().chain(&b).collect();
            let g = if all.is_empty() {
                String::new()
            } else {
                format!(
                    "<{}>",
                    all.iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            let w = if bounds.is_empty() {
                String::new()
            } else {
                format!(" where {}", bounds.join(", "))
            };
            // keep rustc from listing every impl under a shape error
            out.push_str("#[diagnostic::do_not_recommend]\n");
            writeln!(
                out,
                "impl{g} Broadcast<{}> for {}{w} {{ type Output = {}; }}",
                tup(&b),
                tup(&a),
                tup(&dims)
            )
            .ok();
        }
    }
    out
}

/// `DynAxis`, `RemoveAxes2`, and the matmul traits (`MatMulCheck` states the rules, with the
/// messages; `MatMulShape` gives the output and never fails, so an error is always the check's).
fn shape_ops_impls() -> String {
    let mut out = header("The per-rank impls of the shape traits of shape/ops.rs.");
    out.push_str("\nuse super::{DynAxis, MatMulCheck, MatMulShape, MatmulBatch, MatmulInner, MatmulRanks, MoreStatic, RemoveAxes2};\nuse crate::shape::Shape;\nuse crate::shape::Dim;\n\n");
    // DynAxis<A>: the shape with axis A made dynamic
    for r in 1..=MAX_RANK {
        let ps = params("D", r);
        for a in 0..r {
            let o: Vec<String> = ps
                .iter()
                .enumerate()
                .map(|(i, p)| if i == a { "usize".into() } else { p.clone() })
                .collect();
            for spelled in [a as isize, a as isize - r as isize] {
                writeln!(out, "{DNR}impl{} DynAxis<{spelled}> for {} {{ const AXIS: usize = {a}; type Output = {}; }}", generics(&ps), tup(&ps), tup(&o)).ok();
            }
        }
    }
    // RemoveAxes2<A, B>: the shape without two distinct axes
    for r in 2..=MAX_RANK {
        let ps = params("D", r);
        for a in 0..r {
            for b in 0..r {
                if a == b {
                    continue;
                }
                let o: Vec<&String> = ps
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != a && i != b)
                    .map(|(_, p)| p)
                    .collect();
                for sa in [a as isize, a as isize - r as isize] {
                    for sb in [b as isize, b as isize - r as isize] {
                        writeln!(out, "{DNR}impl{} RemoveAxes2<{sa}, {sb}> for {} {{ const AXES: (usize, usize) = ({a}, {b}); type Output = {}; }}", generics(&ps), tup(&ps), tup(&o)).ok();
                    }
                }
            }
        }
    }
    // numpy's matmul shapes for ranks 1..=MATMUL_MAX_RANK on each side
    for p in 1..=MATMUL_MAX_RANK {
        for q in 1..=MATMUL_MAX_RANK {
            let lb = params("L", p.saturating_sub(2));
            let rb = params("R", q.saturating_sub(2));
            let mut lhs = lb.clone();
            if p >= 2 {
                lhs.push("M".into());
            }
            lhs.push("K1".into());
            let mut rhs = rb.clone();
            rhs.push("K2".into());
            if q >= 2 {
                rhs.push("N".into());
            }
            let mut bounds = vec!["K1: MatmulInner<K2>".to_string()];
            let mut out_bounds = Vec::new();
            let n = lb.len().max(rb.len());
            let mut batch = Vec::new();
            for i in 0..n {
                let li = (i + lb.len()).checked_sub(n);
                let ri = (i + rb.len()).checked_sub(n);
                match (li, ri) {
                    (Some(li), Some(ri)) => {
                        bounds.push(format!("{}: MatmulBatch<{}>", lb[li], rb[ri]));
                        out_bounds.push(format!("{}: MoreStatic<{}>", lb[li], rb[ri]));
                        batch.push(format!("<{} as MoreStatic<{}>>::Output", lb[li], rb[ri]));
                    }
                    (Some(li), None) => batch.push(lb[li].clone()),
                    (None, Some(ri)) => batch.push(rb[ri].clone()),
                    (None, None) => {}
                }
            }
            let mut o = batch;
            if p >= 2 {
                o.push("M".into());
            }
            if q >= 2 {
                o.push("N".into());
            }
            let mut all = lhs.clone();
            all.extend(rhs.iter().filter(|x| !lhs.contains(x)).cloned());
            writeln!(
                out,
                "impl{} MatMulCheck<{}> for {} where {} {{}}",
                generics(&all),
                tup(&rhs),
                tup(&lhs),
                bounds.join(", ")
            )
            .ok();
            let w = if out_bounds.is_empty() {
                String::new()
            } else {
                format!(" where {}", out_bounds.join(", "))
            };
            writeln!(
                out,
                "impl{} MatMulShape<{}> for {}{w} {{ type Output = {}; }}",
                generics(&all),
                tup(&rhs),
                tup(&lhs),
                tup(&o)
            )
            .ok();
        }
    }
    // the other ranks: MatMulCheck bounded by MatmulRanks (implemented only for a non-shape),
    // so that such a call fails with its message; a left operand of rank 0 or above the limit
    // takes any right operand in one impl (method lookup does not know the right operand yet)
    for p in 0..=MAX_RANK {
        let lhs = params("L", p);
        if !(1..=MATMUL_MAX_RANK).contains(&p) {
            let mut bounds: Vec<String> = lhs.iter().map(|x| format!("{x}: Dim")).collect();
            bounds.push("R: Shape".into());
            let g = format!("<{}>", bounds.join(", "));
            let me = tup(&lhs);
            writeln!(
                out,
                "impl{g} MatMulCheck<R> for {me} where {me}: MatmulRanks<R> {{}}"
            )
            .ok();
            writeln!(
                out,
                "impl{g} MatMulShape<R> for {me} {{ type Output = {me}; }}"
            )
            .ok();
            continue;
        }
        for q in 0..=MAX_RANK {
            if (1..=MATMUL_MAX_RANK).contains(&q) {
                continue;
            }
            let rhs = params("R", q);
            let mut all = lhs.clone();
            all.extend(rhs.iter().cloned());
            let (me, other) = (tup(&lhs), tup(&rhs));
            writeln!(
                out,
                "impl{} MatMulCheck<{other}> for {me} where {me}: MatmulRanks<{other}> {{}}",
                generics(&all)
            )
            .ok();
            writeln!(
                out,
                "impl{} MatMulShape<{other}> for {me} {{ type Output = {me}; }}",
                generics(&all)
            )
            .ok();
        }
    }
    out
}

/// The Rust type of a dtype as tg-ops names it.
fn rust(d: DType) -> &'static str {
    d.rust_name()
}

/// The dtype rules as trait impls: `Promote` (tinygrad's lattice), `WeakPromote` (weak Rust
/// scalars), `FloatOf` (float math), `SumDtype` and `MeanDtype` (reductions).
fn dtype_impls() -> String {
    let mut out = header("The dtype rules of tg-core as the typed API's trait impls.");
    out.push_str("\nuse half::f16;\n\nuse crate::dtype::{Promote, WeakPromote};\nuse crate::typed::elementwise::FloatOf;\nuse crate::typed::reduce::{MeanDtype, SumDtype};\n\n");
    for a in DType::ALL {
        for b in DType::ALL {
            writeln!(
                out,
                "impl Promote<{}> for {} {{ type Output = {}; }}",
                rust(b),
                rust(a),
                rust(a.least_upper(b))
            )
            .ok();
        }
    }
    let scalars = [
        (DType::F32, ScalarKind::Float),
        (DType::F64, ScalarKind::Float),
        (DType::F16, ScalarKind::Float),
        (DType::I8, ScalarKind::Int),
        (DType::I16, ScalarKind::Int),
        (DType::I32, ScalarKind::Int),
        (DType::I64, ScalarKind::Int),
        (DType::U8, ScalarKind::Int),
        (DType::U16, ScalarKind::Int),
        (DType::U32, ScalarKind::Int),
        (DType::U64, ScalarKind::Int),
        (DType::Bool, ScalarKind::Bool),
    ];
    for (s, kind) in scalars {
        for t in DType::ALL {
            writeln!(
                out,
                "impl WeakPromote<{}> for {} {{ type Output = {}; }}",
                rust(s),
                rust(t),
                rust(t.weak(kind))
            )
            .ok();
        }
    }
    for t in DType::ALL {
        writeln!(
            out,
            "impl FloatOf for {} {{ type Output = {}; }}",
            rust(t),
            rust(t.float_of())
        )
        .ok();
    }
    for t in DType::ALL {
        writeln!(
            out,
            "impl SumDtype for {} {{ type Output = {}; }}",
            rust(t),
            rust(t.sum_dtype())
        )
        .ok();
    }
    for t in DType::ALL {
        writeln!(
            out,
            "impl MeanDtype for {} {{ type Output = {}; }}",
            rust(t),
            rust(t.float_of())
        )
        .ok();
    }
    out
}

#[test]
fn generated_impls_are_current() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let bless = std::env::var("TG_BLESS").is_ok_and(|v| v == "1");
    let mut stale = Vec::new();
    for (path, text) in [
        ("shape/axis_impls.rs", axis_impls()),
        ("shape/broadcast_impls.rs", broadcast_impls()),
        ("shape/ops/impls.rs", shape_ops_impls()),
        ("dtype_impls.rs", dtype_impls()),
        ("dispatch/invoke.rs", dispatch::invoke()),
        ("typed/generated.rs", typed::typed()),
        ("../../docs/kernel-ops.md", docs::kernel_ops()),
    ] {
        let file = src.join(path);
        let now = std::fs::read_to_string(&file).unwrap_or_default();
        if now == text {
            continue;
        }
        if bless {
            std::fs::write(&file, &text)
                .unwrap_or_else(|e| panic!("writing {}: {e}", file.display()));
        } else {
            stale.push(file.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "generated files differ from tg-core's tables: {}. Regenerate them with `TG_BLESS=1 cargo test -p tg-ops --test generated` and review the diff",
        stale.join(", ")
    );
}
