//! `docs/kernel-ops.md`: what a `#[kernel]` body accepts, written from tg-core's op table (every
//! row: its call with parameters and defaults, what it returns, what it computes), so the list
//! cannot drift from what the macro interprets.

use std::fmt::Write;

use tg_core::ops::{self, Call, DtypeRule, Family, Kind, OpSig, Outputs};

/// What an output's dtype is, in words.
fn dtype(rule: &DtypeRule) -> String {
    match rule {
        DtypeRule::Same => "the input's".into(),
        DtypeRule::FloatOf => "float (ints: f32)".into(),
        DtypeRule::Sum => "sum's".into(),
        DtypeRule::Bool => "bool".into(),
        DtypeRule::I32 => "i32".into(),
        DtypeRule::U8 => "u8".into(),
        DtypeRule::Meet(_) => "operands' meet".into(),
        DtypeRule::Branches(_) => "branches' meet".into(),
        DtypeRule::FloatMeet(_) => "float of the meet".into(),
        DtypeRule::BitwiseMeet(_) => "meet (no floats)".into(),
        DtypeRule::Arg(n) => format!("`{n}`"),
        DtypeRule::ArgOr(n, _) | DtypeRule::ArgOrSum(n, _) => format!("`{n}` or the meet's"),
        DtypeRule::ArgOrFloat(n) => format!("`{n}` or float"),
        DtypeRule::ArgOrF32(n) => format!("`{n}` or f32"),
        DtypeRule::Bitcast(n) => format!("`{n}` (same size)"),
        DtypeRule::Conv => "the convolution's".into(),
        DtypeRule::Scatter | DtypeRule::ScatterReduce => "by the reduction".into(),
        DtypeRule::Bce | DtypeRule::CrossEntropy | DtypeRule::NllLoss => "the loss's float".into(),
        DtypeRule::Arange => "`dtype`, else i32 or f32".into(),
    }
}

/// The outputs, in words.
fn returns(sig: &OpSig) -> String {
    let dts: Vec<String> = sig.dtypes.iter().map(dtype).collect();
    match sig.outputs {
        Outputs::One => dts[0].clone(),
        Outputs::List => format!("a list, each {}", dts[0]),
        Outputs::Pair | Outputs::Triple => format!("({})", dts.join(", ")),
    }
}

/// How a body writes the call.
fn usage(sig: &OpSig) -> String {
    let params: Vec<String> = sig
        .params
        .iter()
        .map(|p| {
            let name = match p.kind {
                Kind::Choice(_) | Kind::OptChoice(_) | Kind::PadMode => {
                    format!("{}: \"..\"", p.name)
                }
                _ => p.name.to_string(),
            };
            match p.default {
                ops::ArgDefault::Required => name,
                d => format!("{name} = {}", d.text()),
            }
        })
        .collect();
    match sig.call {
        Call::Assoc => format!("`Tensor::{}({})`", sig.name, params.join(", ")),
        _ => format!("`x.{}({})`", sig.name, params.join(", ")),
    }
}

/// The text of `docs/kernel-ops.md`.
pub fn kernel_ops() -> String {
    let mut out = String::from(
        "<!-- Generated from tg-core's op table by tg-ops/tests/generated.rs; do not edit by hand:\n     TG_BLESS=1 cargo test -p tg-ops --test generated -->\n\n# What a `#[kernel]` body accepts\n\nEvery op below is a method of a tensor in a kernel body (and of `DynTensor`, with the\nsame parameters). Arguments go by position, or as `name = value` where the op takes\nkeywords (marked *kw*); modes are strings. Shapes and dtypes are checked while the macro\nexpands, by the same rules tg-ops applies at run time. Operators (`+ - * / % ** @`,\ncomparisons, `& | ^ << >> && ||`, unary `-` and `!`) and indexing (`x[..]`, numpy's) are\nwritten as in Python. A row marked *not in a body* is a `DynTensor` op a kernel cannot call,\nwith the reason.\n\nBesides these ops, a body may run Rust code as written: a call of another `#[kernel]` or\nof a function over typed tensors, a layer's `forward`, an optimizer's `step`, `?`. That\ncode sees the body's tensors as typed tensors of the shapes the macro proved, so rustc\nchecks each call against its signature; bind its result with a tensor type (`let y:\nTensor<shape![B, 10]> = f(x);`) to use it in the ops below (README: \"Kernels compose\").\n",
    );
    for family in Family::ALL {
        let rows: Vec<&OpSig> = ops::all().filter(|s| s.family == family).collect();
        if rows.is_empty() {
            continue;
        }
        writeln!(out, "\n## {}\n", family.title()).ok();
        out.push_str("| call | returns | computes |\n|---|---|---|\n");
        for sig in rows {
            let kw = if sig.keywords { " *kw*" } else { "" };
            let doc = match sig.call {
                Call::Special(reason) if !matches!(sig.name, "einsum" | "gradient" | "assign") => {
                    format!("{} (*not in a body*: {reason})", sig.doc)
                }
                _ => sig.doc.to_string(),
            };
            let doc = doc.replace('|', "\\|");
            writeln!(
                out,
                "| {}{kw} | {} | {doc} |",
                usage(sig).replace('|', "\\|"),
                returns(sig)
            )
            .ok();
        }
    }
    out
}
