//! Ops tested by name (fixtures/ops_by_name.json, made by scripts/gen_ops_by_name.py): each
//! case names its op and its arguments by the op's parameters in tg-core's op table, and runs
//! through the dispatcher (`tg::dispatch`), which also checks the result's shape and dtype
//! against the table. A new op's test is its cases in the generator; no code here.

use tg_test_support::fixture;

use fixture::Case;
use serde_json::Value;
use tg_ops::dispatch::{self, ArgValue, Kind};
use tg_ops::prelude::*;
use tg_runtime::{Lazy, Scalar};

use crate::creation::GLOBAL_STREAM;

/// A fixture argument as the parameter of kind `kind` takes it.
fn value(v: &Value, kind: Kind, inputs: &[DynTensor]) -> ArgValue {
    let input = |v: &Value| {
        v.get("input")
            .and_then(Value::as_u64)
            .map(|i| inputs[i as usize].clone())
    };
    if let Some(t) = input(v) {
        return ArgValue::Tensor(t);
    }
    if let Some(s) = v.get("scalar") {
        return match fixture::scalar(
            s,
            match v["kind"].as_str() {
                Some("float") => DType::F64,
                Some("bool") => DType::Bool,
                _ => DType::I64,
            },
        ) {
            Scalar::Float(f) => ArgValue::Float(f),
            Scalar::Bool(b) => ArgValue::Bool(b),
            Scalar::Int(i) => ArgValue::Int(i),
            Scalar::UInt(u) => ArgValue::Int(u as i64),
        };
    }
    match v {
        Value::Null => ArgValue::None,
        Value::Bool(b) => ArgValue::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) if !matches!(kind, Kind::F64) => ArgValue::Int(i),
            _ => ArgValue::Float(n.as_f64().expect("a number")),
        },
        Value::String(s) if matches!(kind, Kind::DType | Kind::OptDType) => ArgValue::DType(
            DType::from_name(s)
                .or_else(|| DType::from_rust_name(s))
                .unwrap_or_else(|| panic!("{s}: not a dtype")),
        ),
        Value::String(s) => ArgValue::Str(s.clone()),
        Value::Array(items)
            if items.iter().all(|i| i.get("input").is_some()) && !items.is_empty() =>
        {
            ArgValue::Tensors(items.iter().filter_map(input).collect())
        }
        Value::Array(items) if items.iter().all(Value::is_array) && !items.is_empty() => {
            ArgValue::Pairs(
                items
                    .iter()
                    .map(|p| {
                        (
                            p[0].as_i64().expect("an integer"),
                            p[1].as_i64().expect("an integer"),
                        )
                    })
                    .collect(),
            )
        }
        Value::Array(items)
            if items.iter().all(|i| i.as_i64().is_some()) && !matches!(kind, Kind::Floats) =>
        {
            ArgValue::Ints(items.iter().filter_map(Value::as_i64).collect())
        }
        Value::Array(items) => ArgValue::Floats(items.iter().filter_map(Value::as_f64).collect()),
        Value::Object(_) => panic!("{v}: not an argument"),
    }
}

/// Runs one case through the dispatcher; the outputs as lazy tensors. A case with a `seed`
/// draws from the process-wide stream restarted at it (taking its turn with the other tests
/// that draw), and is realized while it holds the turn.
fn run(c: &Case) -> Result<Vec<Lazy>, String> {
    if let Some(seed) = c.json.get("seed").and_then(Value::as_u64) {
        let _turn = GLOBAL_STREAM.lock().unwrap_or_else(|p| p.into_inner());
        DynTensor::manual_seed(seed as u32);
        let outs = call(c)?;
        tg_runtime::realize(&outs.iter().collect::<Vec<_>>()).map_err(|e| e.to_string())?;
        return Ok(outs);
    }
    call(c)
}

/// The case's op called through the dispatcher.
fn call(c: &Case) -> Result<Vec<Lazy>, String> {
    let inputs = tg_test_support::inputs(c);
    let op = c.json["op"].as_str().expect("op");
    let sig =
        dispatch::lookup(op).unwrap_or_else(|| panic!("{}: no op `{op}` in the table", c.name));
    let mut args = Vec::new();
    if let Some(obj) = c.json["args"].as_object() {
        for (k, v) in obj {
            let (_, p) = sig
                .param(k)
                .unwrap_or_else(|| panic!("{}: `{op}` has no parameter `{k}`", c.name));
            args.push((p.name, value(v, p.kind, &inputs)));
        }
    }
    dispatch::call_named(op, inputs.first(), &args)
        .map(|outs| outs.into_iter().map(DynTensor::into_lazy).collect())
        .map_err(|e| e.to_string())
}

#[test]
fn ops_by_name_match_numpy() {
    fixture::run_all_multi("ops_by_name.json", run);
}

/// Dropout keeps about `1 - p` of the values, each scaled by `1 / (1 - p)`, and zeroes the rest
/// (a fixed seed: the fraction is within 4 standard deviations of the mean).
#[test]
fn dropout_keeps_and_scales() {
    let _turn = GLOBAL_STREAM.lock().unwrap_or_else(|p| p.into_inner());
    DynTensor::manual_seed(2024);
    let n = 20_000;
    let x = DynTensor::from_slice(&[n], &vec![3.0f32; n]).unwrap();
    let p = 0.25;
    let y = dispatch::call("dropout", Some(&x), &[(None, ArgValue::Float(p))])
        .unwrap()
        .remove(0)
        .to_vec::<f32>()
        .unwrap();
    let kept = y.iter().filter(|&&v| v != 0.0).count() as f64;
    assert!(
        y.iter().all(|&v| v == 0.0 || v == 4.0),
        "kept values scale by 1 / (1 - p)"
    );
    let (mean, sd) = ((1.0 - p) * n as f64, (p * (1.0 - p) * n as f64).sqrt());
    assert!(
        (kept - mean).abs() < 4.0 * sd,
        "{kept} kept of {n}, expected {mean} +- {sd}"
    );
}
