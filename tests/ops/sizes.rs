//! Results at and past the sizes where device limits bite, against numpy's (fixtures/sizes.json,
//! made by scripts/gen_sizes.py): whole-tensor and long-axis reductions, the softmax family and
//! cumsum over 2^24, 2^24 + 3 and 2^25 elements and over rows of 2^21 and 2^22, sorting, and
//! gathers reading every position of such tensors; and products big enough for a CPU's
//! biggest register-blocked tiles.
//!
//! On lavapipe every one of these passes the driver's loop budget (65,535 back-edges per
//! invocation) unless the scheduler splits the work, and a kernel over the budget returns a
//! partial result without an error. The default run takes the cases marked `short`;
//! `TG_LONG_TESTS=1` runs them all.

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::Value;
use tg::prelude::*;

fn long_tests() -> bool {
    tg::runtime::config::switch(tg::runtime::config::Var::LongTests)
}

fn fixture() -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/sizes.json");
    let text = std::fs::read_to_string(&path).expect("fixtures/sizes.json");
    let json: Value = serde_json::from_str(&text).expect("valid JSON");
    json["cases"].as_array().expect("cases").clone()
}

/// The f32 values of a fixture `pattern` (scripts/fixtures_common.py), made directly rather
/// than through the general fixture reader: these inputs have up to 2^25 elements.
fn pattern(spec: &Value) -> (Vec<usize>, Vec<f32>) {
    let shape: Vec<usize> = spec["shape"]
        .as_array()
        .expect("shape")
        .iter()
        .map(|d| d.as_u64().expect("dim") as usize)
        .collect();
    let p = &spec["pattern"];
    let seed = p["seed"].as_u64().expect("seed");
    let (lo, hi) = (p["lo"].as_f64().expect("lo"), p["hi"].as_f64().expect("hi"));
    let n: usize = shape.iter().product();
    let values = (0..n as u64)
        .map(|i| {
            let h = i.wrapping_mul(2654435761).wrapping_add(seed * 40503) % (1u64 << 32);
            (lo + (hi - lo) * (h as f64 / 4294967296.0)) as f32
        })
        .collect();
    (shape, values)
}

/// Runs `op` as the fixture names it (`y`: the second operand of a product).
fn run(op: &str, x: &DynTensor, y: Option<&DynTensor>, axis: Option<isize>) -> Result<DynTensor> {
    let other = || y.expect("a product's second operand");
    let axes = axis.map(|a| [a]);
    let axes = axes.as_ref().map(|a| &a[..]);
    let last = axis.unwrap_or(-1);
    match op {
        "sum" => x.sum(axes, false),
        "prod" => x.prod(axes, false),
        "max" => x.max(axes, false),
        "min" => x.min(axes, false),
        "mean" => x.mean(axes, false),
        "var" => x.var(axes, false, 1.0),
        "argmax" => x.argmax(axis, false),
        "argmin" => x.argmin(axis, false),
        "logsumexp" => x.logsumexp(axes, false),
        "softmax" => x.softmax(last, None),
        "log_softmax" => x.log_softmax(last, None),
        "cumsum" => x.cumsum(last),
        "cummax" => Ok(x.cummax(last)?.0),
        "sort" => Ok(x.sort(last, false)?.0),
        "argsort" => x.argsort(last, false),
        "topk_values" => Ok(x.topk(16, last, true)?.0),
        "exp" => x.exp(),
        "scale_shift" => x.mul(3.0f32)?.add(0.5f32),
        "topk_indices" => Ok(x.topk(16, last, true)?.1),
        "gather_reverse" | "gather_scattered" => {
            let n = x.numel() as i64;
            let i = DynTensor::arange(0, n, 1, Some(DType::I64))?;
            let at = if op == "gather_reverse" {
                i.neg()?.add(n - 1)?
            } else {
                i.mul(40503)?.fmod(n)?
            };
            x.gather(0, &at)
        }
        "scatter_sum" => {
            let n = x.numel() as i64;
            let at = DynTensor::arange(0, n, 1, Some(DType::I64))?
                .mul(40503)?
                .fmod(n / 2)?;
            DynTensor::zeros(&[n as usize / 2], DType::F32)?.scatter_reduce(
                0,
                &at,
                x,
                ScatterReduce::Sum,
                true,
            )
        }
        "matmul" => x.matmul(other()),
        "matmul_t" => x.transpose(-1, -2)?.matmul(other()),
        "conv2d" => x.conv2d(other(), None, &Conv::new().padding(1)),
        other => panic!("no op {other} in the size tests"),
    }
}

fn close(got: f64, want: f64, rtol: f64, atol: f64) -> bool {
    (got - want).abs() <= atol + rtol * want.abs() || got == want
}

/// Checks one case; returns a description of what is wrong.
fn check(case: &Value, x: &DynTensor, y: Option<&DynTensor>) -> std::result::Result<(), String> {
    let name = case["name"].as_str().expect("name");
    let op = case["op"].as_str().expect("op");
    let axis = case["axis"].as_i64().map(|a| a as isize);
    let (rtol, atol) = (
        case["rtol"].as_f64().expect("rtol"),
        case["atol"].as_f64().expect("atol"),
    );
    let out = run(op, x, y, axis).map_err(|e| format!("{name}: {e}"))?;
    let shape: Vec<usize> = case["shape"]
        .as_array()
        .expect("shape")
        .iter()
        .map(|d| d.as_u64().expect("dim") as usize)
        .collect();
    if out.shape() != shape.as_slice() {
        return Err(format!("{name}: shape {:?}, want {shape:?}", out.shape()));
    }
    // read back in the result's own dtype: a cast on the device would double the buffer
    let got: Vec<f64> = match out.dtype() {
        DType::I32 => out
            .to_vec::<i32>()
            .map(|v| v.into_iter().map(f64::from).collect()),
        _ => out
            .to_vec::<f32>()
            .map(|v| v.into_iter().map(f64::from).collect()),
    }
    .map_err(|e| format!("{name}: {e}"))?;
    if let Some(values) = case["values"].as_array() {
        for (i, (g, w)) in got.iter().zip(values).enumerate() {
            let w = w.as_f64().expect("value");
            if !close(*g, w, rtol, atol) {
                return Err(format!("{name}: [{i}] = {g}, want {w}"));
            }
        }
        return Ok(());
    }
    for s in case["samples"].as_array().expect("samples") {
        let (i, w) = (
            s[0].as_u64().expect("at") as usize,
            s[1].as_f64().expect("v"),
        );
        if !close(got[i], w, rtol, atol) {
            return Err(format!("{name}: [{i}] = {}, want {w}", got[i]));
        }
    }
    let sum: f64 = got.iter().sum();
    let want = case["sum"].as_f64().expect("sum");
    let tol = rtol * case["abs_sum"].as_f64().expect("abs_sum") + atol * got.len() as f64;
    if (sum - want).abs() > tol {
        return Err(format!("{name}: sum {sum}, want {want} (within {tol})"));
    }
    Ok(())
}

/// One case at a time: each holds up to a few hundred MiB of device memory, and lavapipe's
/// heap is 2 GiB.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn run_cases(select: impl Fn(&Value) -> bool) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let cases: Vec<Value> = fixture()
        .into_iter()
        .filter(|c| (long_tests() || c["short"].as_bool() == Some(true)) && select(c))
        .collect();
    assert!(!cases.is_empty(), "no cases selected");
    // one upload per input pattern
    let mut inputs: HashMap<String, DynTensor> = HashMap::new();
    let mut failures = Vec::new();
    let mut input = |spec: &Value| {
        inputs
            .entry(spec.to_string())
            .or_insert_with(|| {
                let (shape, values) = pattern(spec);
                let t = DynTensor::from_slice(&shape, &values).expect("input");
                t.realize().expect("upload");
                t
            })
            .clone()
    };
    for case in &cases {
        let x = input(&case["input"]);
        let y = case.get("other").map(&mut input);
        if let Err(e) = check(case, &x, y.as_ref()) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn is_elementwise(c: &Value) -> bool {
    matches!(c["op"].as_str(), Some("exp" | "scale_shift"))
}

fn is_sorting(c: &Value) -> bool {
    let op = c["op"].as_str().unwrap_or_default();
    op.contains("sort") || op.starts_with("topk")
}

fn is_gather(c: &Value) -> bool {
    let op = c["op"].as_str().unwrap_or_default();
    op.starts_with("gather") || op.starts_with("scatter")
}

fn is_product(c: &Value) -> bool {
    !c["other"].is_null()
}

fn is_whole(c: &Value) -> bool {
    c["axis"].is_null() && !is_sorting(c) && !is_gather(c) && !is_product(c) && !is_elementwise(c)
}

/// Elementwise kernels, which take 4 vectors an invocation on a CPU, in pairs read and
/// written as one where the count is a multiple of 8: ragged counts (the last invocation
/// stops at the end), 2^24 elements, and (long) past one binding, in vectors and in pairs.
#[test]
fn elementwise_at_large_sizes() {
    run_cases(is_elementwise);
}

#[test]
fn whole_tensor_reductions_past_the_loop_budget() {
    run_cases(|c| is_whole(c) && c["samples"].is_null());
}

#[test]
fn whole_tensor_softmax_and_scans_past_the_loop_budget() {
    // a 1-D softmax or cumsum of 2^24 elements is one row as long as the tensor; the short
    // run has such rows in `long_rows_past_the_loop_budget`
    if !long_tests() {
        return;
    }
    run_cases(|c| is_whole(c) && !c["samples"].is_null());
}

/// Sorting at large sizes: a merge sort of 2^14 and 2^20 values (and 2^24 + 3 indices in the
/// long run), topk's partial network over 2^14 (2^20 in the long run).
#[test]
fn sorting_at_large_sizes() {
    run_cases(is_sorting);
}

/// Every position of 2^24, 2^24 + 3 and 2^25 values read once through the gather primitive,
/// in reverse and scattered by 64-bit positions: values past one 128 MiB binding are read by
/// device address at positions the kernel computes. And 2^20 + 3 values (2^24 + 3 in the long
/// run) summed into half as many slots by 64-bit positions, through a sort of them.
#[test]
fn gathers_past_the_buffer_limits() {
    run_cases(is_gather);
}

/// Matmuls (plain, batched, of a transposed view) with outputs of 512 x 512 and a direct
/// convolution with 8 x 32 x 60 x 60: on a CPU they take tiles of up to 32 rows of 4 vectors
/// (the convolution's runs of vectors cross rows of its 60 columns), which smaller tests
/// never reach (a tile is that big only where enough invocations remain).
#[test]
fn products_in_big_tiles() {
    run_cases(is_product);
}

#[test]
fn long_rows_past_the_loop_budget() {
    run_cases(|c| c["axis"].as_i64() == Some(1));
}

#[test]
fn long_leading_axis_past_the_loop_budget() {
    run_cases(|c| c["axis"].as_i64() == Some(0));
}

#[test]
fn overflowing_shapes_are_errors() {
    let huge = [1usize << 40, 1 << 40];
    for made in [
        DynTensor::zeros(&huge, DType::F32),
        DynTensor::ones(&huge, DType::I8),
        DynTensor::full(&huge, 2.0, DType::F16),
        DynTensor::empty(&huge, DType::Bool),
    ] {
        assert!(
            matches!(made, Err(Error::SizeOverflow { .. })),
            "{:?}",
            made.err()
        );
    }
    let x = DynTensor::ones(&[1 << 40, 1], DType::F32).unwrap();
    assert!(matches!(
        x.expand(&[1 << 40, 1 << 40]),
        Err(Error::SizeOverflow { .. })
    ));
}
