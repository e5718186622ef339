//! The op table (tg-core's `ops`) against the ops it describes:
//! - every public `DynTensor` op has a row (a new op without one fails here, so a kernel body,
//!   the typed wrappers, the dispatcher and the docs cannot miss it);
//! - calls through the dispatcher, which checks each result's shape and dtype against the
//!   row, agree with the op on accepting or rejecting (the cases the macros' shape rules were
//!   compared with tg-ops on, now that both read the one table).
//!
//! Nothing is realized: a lazy tensor knows its shape and dtype.

use std::path::{Path, PathBuf};

use tg_ops::DType::{self, *};
use tg_ops::DynTensor;
use tg_ops::dispatch::{ArgValue, call, expect};
use tg_runtime::Error;

/// Public methods of `DynTensor` that are not ops: constructors from host data, accessors,
/// devices, autograd's plumbing, and forms of an op its row covers.
const NOT_OPS: &[(&str, &str)] = &[
    (
        "binary_op",
        "the binary ops by their `Binary` variant; the rows name each",
    ),
    ("manual_seed", "seeds the process-wide random stream"),
    ("from_lazy", "wraps a runtime graph node"),
    ("lazy", "accessor"),
    ("into_lazy", "accessor"),
    ("shape", "accessor"),
    ("dtype", "accessor"),
    ("ndim", "accessor"),
    ("numel", "accessor"),
    ("nbytes", "accessor"),
    ("sum_acc_dtype", "accessor"),
    ("from_slice", "host data"),
    ("from_vec", "host data"),
    ("realize", "realizes"),
    ("to_vec", "reads back to the host"),
    ("device", "device"),
    ("to", "device"),
    ("device_buffer", "device"),
    ("from_device_buffer", "device"),
    (
        "with_gradient",
        "autograd plumbing: a rule of its own for a node",
    ),
    ("requires_grad", "autograd plumbing"),
    ("is_requires_grad", "autograd plumbing"),
    ("backward", "autograd plumbing"),
    ("backward_with", "autograd plumbing"),
    ("grad", "autograd plumbing"),
    ("zero_grad", "autograd plumbing"),
    ("parameter", "autograd plumbing: a tracked buffer"),
    ("state", "autograd plumbing: an untracked buffer"),
    ("assign_index", "writes through an index in place"),
    ("align", "broadcasting helper of the composed ops"),
    ("conv2d_direct", "one algorithm of conv2d"),
    ("conv2d_winograd", "one algorithm of conv2d"),
    ("image_conv2d", "one layout of conv2d"),
    ("image_dot", "one layout of dot"),
    (
        "pool",
        "the windows view the pools and convolutions are built on",
    ),
    ("sequential", "applies closures in turn"),
];

/// `text` without comments and string literals (so braces in them do not count).
fn code_only(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
                out.push_str("\"\"");
            }
            '\'' => {
                // a char literal ('{', '\n') or a lifetime ('a)
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with('\\') || rest.chars().nth(1) == Some('\'') {
                    for c in chars.by_ref() {
                        if c == '\'' {
                            break;
                        }
                    }
                    out.push_str("' '");
                } else {
                    out.push(c);
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// The public methods in `impl DynTensor` blocks of one file.
fn methods(text: &str) -> Vec<String> {
    let code = code_only(text);
    let mut out = Vec::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("impl DynTensor {") {
        let body = &rest[i + "impl DynTensor {".len()..];
        let mut depth = 1usize;
        let mut end = body.len();
        for (k, c) in body.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = k;
                        break;
                    }
                }
                _ => {}
            }
        }
        let block = &body[..end];
        let mut d = 0usize;
        for line in block.lines() {
            let t = line.trim_start();
            if d == 0
                && let Some(name) = t.strip_prefix("pub fn ")
            {
                let name: String = name
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.push(name);
            }
            d += line.matches('{').count();
            d -= line.matches('}').count().min(d);
        }
        rest = &body[end..];
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("a source folder") {
        let p = e.expect("an entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_dyntensor_op_has_a_row() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/untyped");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a source file");
        found.extend(methods(&text));
    }
    assert!(found.len() > 150, "the scan found {} methods", found.len());
    let missing: Vec<&String> = found
        .iter()
        .filter(|m| tg_core::ops::lookup(m).is_none() && !NOT_OPS.iter().any(|(n, _)| n == m))
        .collect();
    assert!(
        missing.is_empty(),
        "public DynTensor ops without a row in tg-core's op table (tg-core/src/ops/table/): {missing:?}; add a row, or list the method in NOT_OPS with the reason it is not an op"
    );
    let stale: Vec<&&str> = NOT_OPS
        .iter()
        .map(|(n, _)| n)
        .filter(|n| !found.iter().any(|m| m == *n))
        .collect();
    assert!(
        stale.is_empty(),
        "NOT_OPS names methods that are gone: {stale:?}"
    );
}

fn z(shape: &[usize], d: DType) -> DynTensor {
    DynTensor::zeros(shape, d).expect("zeros")
}

fn i(v: i64) -> ArgValue {
    ArgValue::Int(v)
}
fn f(v: f64) -> ArgValue {
    ArgValue::Float(v)
}
fn b(v: bool) -> ArgValue {
    ArgValue::Bool(v)
}
fn s(v: &str) -> ArgValue {
    ArgValue::Str(v.into())
}
fn d(v: DType) -> ArgValue {
    ArgValue::DType(v)
}
fn ints(v: &[i64]) -> ArgValue {
    ArgValue::Ints(v.to_vec())
}
fn floats(v: &[f64]) -> ArgValue {
    ArgValue::Floats(v.to_vec())
}
fn pairs(v: &[(i64, i64)]) -> ArgValue {
    ArgValue::Pairs(v.to_vec())
}
fn ten(t: &DynTensor) -> ArgValue {
    ArgValue::Tensor(t.clone())
}
fn tens(t: &[&DynTensor]) -> ArgValue {
    ArgValue::Tensors(t.iter().map(|&x| x.clone()).collect())
}
fn p(v: ArgValue) -> (Option<&'static str>, ArgValue) {
    (None, v)
}
fn k(name: &'static str, v: ArgValue) -> (Option<&'static str>, ArgValue) {
    (Some(name), v)
}

/// Op `op` on `recv` through the dispatcher: the table and the op agree (the dispatcher
/// checks the result's shape and dtype; a rejection by the op must be one the table makes
/// too). The first output, if the call is accepted.
fn agree(
    op: &str,
    recv: &DynTensor,
    args: Vec<(Option<&'static str>, ArgValue)>,
) -> Option<DynTensor> {
    let verdict = expect(op, Some(recv), &args);
    let on = format!(
        "{op} on {:?} {:?} with {args:?}",
        recv.shape(),
        recv.dtype()
    );
    match call(op, Some(recv), &args) {
        Ok(out) => Some(out[0].clone()),
        Err(e @ Error::Internal { .. }) => {
            disagree(format!("{on}: {e}"));
            None
        }
        Err(e) => {
            if let Ok(Some(Ok(outs))) = verdict {
                disagree(format!(
                    "{on}: the table accepts ({outs:?}) what the op rejects: {e}"
                ));
            }
            None
        }
    }
}

thread_local! {
    static DISAGREEMENTS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Notes a disagreement (every one is listed at the end of the test).
fn disagree(message: String) {
    DISAGREEMENTS.with(|d| d.borrow_mut().push(message));
}

/// Fails with every disagreement noted.
fn none_noted() {
    let all = DISAGREEMENTS.with(|d| std::mem::take(&mut *d.borrow_mut()));
    assert!(
        all.is_empty(),
        "{} disagreement(s):\n{}",
        all.len(),
        all.join("\n")
    );
}

/// One case: the tensors and the calls on them.
fn case(t: &[DynTensor], f: impl FnOnce(&[DynTensor]) -> Option<DynTensor>) {
    let _ = f(t);
}

const ALL: [DType; 12] = [Bool, I8, U8, I16, U16, I32, U32, I64, U64, F16, F32, F64];

#[test]
fn dtype_loops_agree() {
    for dt in ALL {
        case(&[z(&[2, 3], dt)], |t| agree("triu", &t[0], vec![p(i(1))]));
        case(&[z(&[2, 3], dt)], |t| agree("tril", &t[0], vec![]));
        let (zz, idx) = (z(&[2, 3], dt), z(&[2, 3], I32));
        let src = z(&[2, 3], dt);
        agree(
            "scatter",
            &zz,
            vec![p(i(1)), p(ten(&idx)), p(i(2)), k("reduce", s("add"))],
        );
        agree(
            "scatter",
            &zz,
            vec![p(i(1)), p(ten(&idx)), p(f(1.5)), k("reduce", s("multiply"))],
        );
        agree("scatter", &zz, vec![p(i(0)), p(ten(&idx)), p(b(true))]);
        for how in ["sum", "prod", "mean", "amax", "amin"] {
            agree(
                "scatter_reduce",
                &zz,
                vec![p(i(0)), p(ten(&idx)), p(ten(&src)), p(s(how))],
            );
            agree(
                "scatter_reduce",
                &zz,
                vec![
                    p(i(1)),
                    p(ten(&idx)),
                    p(ten(&src)),
                    p(s(how)),
                    k("include_self", b(false)),
                ],
            );
        }
        let m = z(&[2, 3], Bool);
        agree(
            "masked_select_sized",
            &zz,
            vec![p(ten(&m)), p(i(3)), p(b(true))],
        );
        agree("nonzero_sized", &zz, vec![p(i(3))]);
        for name in [
            "sum", "prod", "max", "min", "mean", "any", "all", "cumsum", "cumprod",
        ] {
            agree(name, &zz, vec![p(i(1))]);
        }
        for name in [
            "exp", "relu", "abs", "neg", "isnan", "sigmoid", "log10", "square", "sign",
        ] {
            agree(name, &zz, vec![]);
        }
        agree("add", &zz, vec![p(f(2.5))]);
        agree("div", &zz, vec![p(i(2))]);
        agree("bitwise_and", &zz, vec![p(ten(&zz))]);
        agree("leaky_relu", &zz, vec![p(f(0.1))]);
        agree("hardtanh", &zz, vec![]);
        agree("clamp", &zz, vec![p(f(0.0)), p(f(1.0))]);
        agree("fmod", &zz, vec![p(i(2))]);
        agree("copysign", &zz, vec![p(f(-1.0))]);
        agree("logaddexp", &zz, vec![p(ten(&zz))]);
        agree("masked_fill", &zz, vec![p(ten(&m)), p(i(1))]);
        agree("softmax", &zz, vec![]);
        agree("var", &zz, vec![]);
        agree("sort", &zz, vec![]);
        agree("matmul", &z(&[3, 2], dt), vec![p(ten(&zz))]);
        agree("rand_like", &zz, vec![]);
        agree("one_hot", &zz, vec![p(i(4))]);
        agree("keccak", &zz, vec![]);
        agree("cast", &zz, vec![p(d(F16))]);
    }
    for (shape, dt) in [
        (&[3usize, 3][..], F32),
        (&[4, 2][..], F64),
        (&[2, 5][..], F16),
        (&[2, 3, 2][..], I32),
    ] {
        let x = z(shape, dt);
        agree("qr", &x, vec![]);
        agree("svd", &x, vec![]);
        agree("svd", &x, vec![p(b(false))]);
        agree("svd", &x, vec![k("full_matrices", b(false))]);
        agree("newton_schulz", &x, vec![p(i(2)), p(floats(&[1.5, -0.5]))]);
    }
    none_noted();
}

#[path = "table/cases.rs"]
mod cases;

#[test]
fn the_table_and_the_ops_agree() {
    cases::run();
    none_noted();
}

/// Random einsum formulas (well-formed or not) over random shapes: the table's rule and the op
/// agree on accepting and on the result's shape and dtype.
mod einsum_fuzz {
    use super::*;
    use proptest::prelude::*;

    fn agree_on(formula: &str, shapes: &[Vec<usize>]) {
        let ts: Vec<DynTensor> = shapes.iter().map(|s| z(s, F32)).collect();
        let others: Vec<&DynTensor> = ts[1..].iter().collect();
        agree("einsum", &ts[0], vec![p(s(formula)), p(tens(&others))]);
        none_noted();
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn random_formulas_agree(
            parts in prop::collection::vec(prop::sample::select(vec!["i", "j", "k", "i", "j", "...", ",", "->"]), 0..9),
            shapes in prop::collection::vec(prop::collection::vec(1usize..4, 0..4), 1..4),
        ) {
            agree_on(&parts.concat(), &shapes);
        }

        #[test]
        fn fitting_formulas_agree(
            subs in prop::collection::vec(prop::collection::vec(prop::sample::select(vec!['i', 'j', 'k', 'l']), 0..4), 1..4),
            ellipsis in prop::collection::vec(any::<bool>(), 3),
            out in prop::option::of(prop::collection::vec(prop::sample::select(vec!['i', 'j', 'k', 'l']), 0..3)),
            sizes in prop::collection::vec(1usize..3, 4),
            extra in prop::collection::vec(prop::collection::vec(1usize..3, 0..3), 3),
        ) {
            // operands shaped to fit their subscripts (letter sizes from `sizes`, so mostly
            // consistent), with broadcasting axes under `...`
            let mut inputs = Vec::new();
            let mut shapes = Vec::new();
            for (k, sub) in subs.iter().enumerate() {
                let mut shape: Vec<usize> = Vec::new();
                let mut text = String::new();
                if ellipsis[k] {
                    text.push_str("...");
                    shape.extend(&extra[k]);
                }
                for &c in sub {
                    text.push(c);
                    shape.push(sizes[(c as u8 - b'i') as usize]);
                }
                inputs.push(text);
                shapes.push(shape);
            }
            let mut formula = inputs.join(",");
            if let Some(o) = out {
                let dots = if ellipsis.iter().take(subs.len()).any(|&e| e) { "..." } else { "" };
                formula.push_str("->");
                formula.push_str(dots);
                formula.extend(o);
            }
            agree_on(&formula, &shapes);
        }
    }
}
