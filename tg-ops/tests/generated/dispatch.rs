//! The dispatcher's calls (`src/dispatch/invoke.rs`): one match arm per row of the op table
//! that a call by name can reach, each argument converted by its parameter's kind.

use std::fmt::Write;

use tg_core::ops::{self, Call, Choices, Family, Group, Kind, OpSig, Outputs};

/// The expression reading parameter `i` of kind `kind` as the `DynTensor` op takes it.
fn arg(sig: &OpSig, i: usize, kind: Kind) -> String {
    match kind {
        Kind::Axis => format!("a.axis({i})?"),
        Kind::OptAxis => format!("a.opt_axis({i})?"),
        Kind::Axes => format!("a.axes({i})?.as_deref()"),
        Kind::AxisList | Kind::Ints | Kind::Shape => format!("&a.isizes({i})?"),
        Kind::Bool => format!("a.flag({i})?"),
        Kind::F64 => format!("a.f64({i})?"),
        Kind::Size => format!("a.usize({i})?"),
        Kind::OptSize => format!("a.opt_usize({i})?"),
        Kind::Counts | Kind::Sizes => format!("&a.usizes({i})?"),
        Kind::OptSizes => format!("a.opt_usizes({i})?.as_deref()"),
        Kind::Offset => format!("a.isize({i})?"),
        Kind::I64 => format!("a.int64({i})?"),
        Kind::OptI64 => format!("a.opt_i64({i})?"),
        Kind::I32 => format!("a.i32({i})?"),
        Kind::DType => format!("a.dtype({i})?"),
        Kind::OptDType => format!("a.opt_dtype({i})?"),
        Kind::Tensor => format!("a.tensor({i})?"),
        Kind::OptTensor => format!("a.opt_tensor({i})?"),
        Kind::Operand => format!("a.operand({i})?"),
        Kind::OptOperand => format!("a.opt_operand({i})?"),
        Kind::Fill => format!("a.scalar({i})?"),
        Kind::OptShape => format!("&a.opt_sizes({i})?"),
        Kind::Pairs => format!("&a.pairs({i})?"),
        Kind::Ranges => format!("&a.ranges({i})?"),
        Kind::Choice(Choices::Reduction) => format!("a.reduction({i})?"),
        Kind::Choice(Choices::ScatterReduce) => format!("a.scatter_reduce({i})?"),
        Kind::Choice(Choices::Interpolation) => format!("a.interpolation({i})?"),
        Kind::OptChoice(Choices::ScatterOp) => format!("a.opt_scatter_op({i})?"),
        Kind::Keccak => format!("a.keccak({i})?"),
        Kind::Floats => format!("&a.floats({i})?"),
        Kind::Formula => format!("a.text({i})?"),
        Kind::Window(_) if sig.family == Family::Conv => "&a.conv()?".into(),
        Kind::Window(_) => "&a.pool(r()?)?".into(),
        Kind::PadMode | Kind::PadValue => "a.pad_mode()?".into(),
        other => panic!(
            "{}: no conversion for {other:?} in a call by name",
            sig.name
        ),
    }
}

/// The `DynTensor` call of a row, or `None` where a call by name cannot reach it.
fn call(sig: &OpSig) -> Option<String> {
    let name = sig.name;
    match sig.call {
        Call::Split => {
            return Some(
                "match a.vals[0] {\n            ArgValue::Ints(_) => r()?.split(&a.usizes(0)?, a.axis(1)?),\n            _ => r()?.split_every(a.usize(0)?, a.axis(1)?),\n        }"
                    .into(),
            );
        }
        Call::Special(_) if name == "einsum" => {
            return Some(
                "one(DynTensor::einsum(a.text(0)?, &a.join(r()?, 1)?, a.opt_dtype(2)?))".into(),
            );
        }
        Call::Special(_) if sig.shape != ops::ShapeRule::DataDependent => return None,
        _ => {}
    }
    let order: Vec<usize> = match sig.call {
        Call::Reorder(names) => names
            .iter()
            .map(|n| sig.param(n).expect("a reordered parameter").0)
            .collect(),
        _ => (0..sig.params.len()).collect(),
    };
    let mut args = Vec::new();
    let mut done: Option<Group> = None;
    for &i in &order {
        let p = &sig.params[i];
        match p.kind.group() {
            Some(g) if done == Some(g) => continue,
            g => {
                done = g.or(done);
                if g.is_none() && p.kind == Kind::Tensors {
                    continue;
                }
                args.push(arg(sig, i, p.kind));
            }
        }
    }
    let args_text = args.join(", ");
    Some(match sig.call {
        Call::Method | Call::Reorder(_) => format!("r()?.{name}({args_text})"),
        Call::Assoc => format!("DynTensor::{name}({args_text})"),
        Call::Join => {
            let rest = if args.is_empty() {
                String::new()
            } else {
                format!(", {args_text}")
            };
            format!("DynTensor::{name}(&a.join(r()?, 0)?{rest})")
        }
        Call::Special(_) => format!("r()?.{name}({args_text})"),
        Call::Write => format!("{{ let mut w = r()?.clone(); w.{name}({args_text}).map(|()| w) }}"),
        Call::Split => unreachable!("handled above"),
    })
}

/// The text of `src/dispatch/invoke.rs`.
pub fn invoke() -> String {
    let mut out = super::header("Each op of tg-core's table called by name (dispatch/mod.rs).");
    out.push_str(
        "\nuse tg_runtime::Result;\n\nuse super::{ArgValue, Resolved, none, one, pair, triple};\nuse crate::untyped::DynTensor;\n\n",
    );
    out.push_str("/// Calls op `name` with the arguments `a` of its row.\n");
    out.push_str("pub(super) fn invoke(name: &'static str, recv: Option<&DynTensor>, a: &Resolved) -> Result<Vec<DynTensor>> {\n");
    out.push_str("    let r = || recv.ok_or_else(|| super::no_receiver(name));\n");
    out.push_str("    match name {\n");
    for sig in ops::all() {
        let Some(c) = call(sig) else { continue };
        let wrapped = match (sig.outputs, sig.fallible) {
            _ if sig.name == "einsum" => c,
            (Outputs::One, true) => format!("one({c})"),
            (Outputs::One, false) => format!("Ok(vec![{c}])"),
            (Outputs::Pair, _) => format!("pair({c})"),
            (Outputs::Triple, _) => format!("triple({c})"),
            (Outputs::List, _) => c,
        };
        writeln!(out, "        {:?} => {wrapped},", sig.name).ok();
    }
    out.push_str("        _ => none(name),\n    }\n}\n");
    out
}
