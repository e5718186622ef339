//! Every primitive op over every dtype against numpy (fixtures/runtime_*.json, gathers and
//! the merges and scans of runs included), built as graphs of `Lazy` nodes and realized on
//! the device.

use serde_json::Value;
use tg_fixture as fixture;
use tg_fixture::{Case, dtype, lazy, scalar, usizes};
use tg_runtime::{BinaryOp, Lazy, ReduceOp, UnaryOp};

fn unary_op(name: &str) -> UnaryOp {
    *UnaryOp::ALL
        .iter()
        .find(|o| o.name() == name)
        .unwrap_or_else(|| panic!("unary {name}"))
}

fn binary_op(name: &str) -> BinaryOp {
    *BinaryOp::ALL
        .iter()
        .find(|o| o.name() == name)
        .unwrap_or_else(|| panic!("binary {name}"))
}

fn reduce_op(name: &str) -> ReduceOp {
    match name {
        "add" => ReduceOp::Add,
        "mul" => ReduceOp::Mul,
        "max" => ReduceOp::Max,
        _ => panic!("reduce {name}"),
    }
}

fn pairs(v: &Value) -> Vec<(usize, usize)> {
    v.as_array()
        .expect("pairs")
        .iter()
        .map(|p| {
            (
                p[0].as_u64().unwrap() as usize,
                p[1].as_u64().unwrap() as usize,
            )
        })
        .collect()
}

/// Builds the case's graph from primitives; the last node is the result.
fn build(c: &Case) -> Result<Lazy, String> {
    let inputs: Vec<Lazy> = c.inputs.iter().map(lazy).collect();
    let mut nodes: Vec<Lazy> = Vec::new();
    for n in c.json["nodes"].as_array().expect("nodes") {
        let a = n.as_array().expect("node");
        let op = a[0].as_str().expect("op");
        let src = |k: usize| nodes[a[k].as_u64().expect("src") as usize].clone();
        let r = match op {
            "input" => Ok(inputs[a[1].as_u64().unwrap() as usize].clone()),
            "const" => {
                let d = dtype(&a[2]);
                Ok(Lazy::constant(scalar(&a[1], d), d, &usizes(&a[3])).unwrap())
            }
            "unary" => src(1).unary(unary_op(a[2].as_str().unwrap())),
            "binary" => src(1).binary(binary_op(a[3].as_str().unwrap()), &src(2)),
            "where" => src(1).where_(&src(2), &src(3)),
            "mulacc" => src(1).mulacc(&src(2), &src(3)),
            "cast" => Ok(src(1).cast(dtype(&a[2]))),
            "bitcast" => src(1).bitcast(dtype(&a[2])),
            "reduce" => src(1).reduce(reduce_op(a[2].as_str().unwrap()), &usizes(&a[3])),
            "reshape" => src(1).reshape(&usizes(&a[2])),
            "permute" => src(1).permute(&usizes(&a[2])),
            "expand" => src(1).expand(&usizes(&a[2])),
            "pad" => src(1).pad(&pairs(&a[2])),
            "shrink" => src(1).shrink(&pairs(&a[2])),
            "flip" => src(1).flip(&usizes(&a[2])),
            "contiguous" => Ok(src(1).contiguous()),
            "gather" => src(1).gather(a[3].as_u64().unwrap() as usize, &src(2)),
            "merge_runs" => src(1).merge_runs(a[2].as_u64().unwrap() as usize),
            "sort_runs" => src(1).sort_runs(a[2].as_u64().unwrap() as usize),
            "scan_runs" => src(1).scan_runs(
                reduce_op(a[2].as_str().unwrap()),
                a[3].as_u64().unwrap() as usize,
            ),
            // into a buffer of its own holding the target's values (a parameter)
            "assign_window" => Lazy::parameter(&src(1))
                .and_then(|t| t.assign_window(a[4].as_u64().unwrap() as usize, &src(3), &src(2))),
            _ => panic!("unknown node op {op}"),
        };
        nodes.push(r.map_err(|e| format!("building {op}: {e}"))?);
    }
    nodes.pop().ok_or_else(|| "empty graph".to_string())
}

#[test]
fn unary_ops_match_numpy() {
    fixture::run_all("runtime_unary.json", build);
}

#[test]
fn binary_ops_match_numpy() {
    fixture::run_all("runtime_binary.json", build);
}

#[test]
fn ternary_ops_match_numpy() {
    fixture::run_all("runtime_ternary.json", build);
}

#[test]
fn casts_and_bitcasts_match_numpy() {
    fixture::run_all("runtime_cast.json", build);
}

/// Every f16 bit pattern (zeros, subnormals, normals, infinities, NaN with their payloads)
/// widens to the f32 bits the host's `half` gives, and a NaN to numpy's: its sign and
/// payload as they are (`half` quiets a signaling NaN; numpy, as tg, keeps its bits). The
/// device's `tg_h2f` where f16 is emulated, its own conversion where not. (numpy's fixtures
/// hold a sample of the patterns.)
#[test]
fn every_f16_widens_exactly() {
    let bits: Vec<u8> = (0..=u16::MAX).flat_map(u16::to_le_bytes).collect();
    let wide = Lazy::from_bytes(tg_runtime::DType::U16, &[1 << 16], bits)
        .unwrap()
        .bitcast(tg_runtime::DType::F16)
        .unwrap()
        .cast(tg_runtime::DType::F32)
        .to_vec::<f32>()
        .unwrap();
    for (h, got) in (0..=u16::MAX).zip(wide) {
        let want = match half::f16::from_bits(h) {
            x if x.is_nan() => {
                (u32::from(h & 0x8000) << 16) | 0x7f80_0000 | (u32::from(h & 0x3ff) << 13)
            }
            x => x.to_f32().to_bits(),
        };
        assert_eq!(got.to_bits(), want, "f16 {h:#06x}");
    }
}

#[test]
fn reductions_match_numpy() {
    fixture::run_all("runtime_reduce.json", build);
}

#[test]
fn views_and_fusion_match_numpy() {
    fixture::run_all("runtime_movement.json", build);
}

#[test]
fn gathers_match_numpy() {
    fixture::run_all("runtime_gather.json", build);
}

/// Window writes: numpy's slice assignment on a copy, the start read on the device.
#[test]
fn window_writes_match_numpy() {
    fixture::run_all("runtime_window.json", build);
}

#[test]
fn merges_and_scans_of_runs_match_numpy() {
    fixture::run_all("runtime_runs.json", build);
}

/// A constant's sum folds to the constant times the count and its max to the constant, with
/// no reduction kernel; each equals what a kernel computes over the same values held in a buffer (an
/// integer sum wrapping as the kernel's does: eight 2^30 in i32 are 0).
#[test]
fn a_constants_sum_and_max_equal_a_kernels() {
    use tg_runtime::{DType, realize_report};
    // (dtype, value, shape, op, axes)
    type Folded = (DType, f64, &'static [usize], ReduceOp, &'static [usize]);
    let cases: [Folded; 5] = [
        (DType::F32, 0.5, &[3, 1000], ReduceOp::Add, &[1]),
        (DType::F32, -2.25, &[16, 64], ReduceOp::Max, &[0, 1]),
        (DType::I32, (1u64 << 30) as f64, &[8], ReduceOp::Add, &[0]),
        (DType::I32, 1.0, &[16, 64], ReduceOp::Add, &[0, 1]),
        (DType::U32, 7.0, &[5, 4], ReduceOp::Max, &[1]),
    ];
    for (dt, v, shape, op, axes) in cases {
        let folded = Lazy::constant(v, dt, shape)
            .unwrap()
            .reduce(op, axes)
            .unwrap();
        let n: usize = shape.iter().product();
        let held = match dt {
            DType::F32 => Lazy::from_slice(shape, &vec![v as f32; n]),
            DType::I32 => Lazy::from_slice(shape, &vec![v as i64 as i32; n]),
            _ => Lazy::from_slice(shape, &vec![v as u32; n]),
        }
        .unwrap()
        .reduce(op, axes)
        .unwrap();
        // a constant, filled by an elementwise kernel: no reduction runs
        assert!(folded.const_value().is_some(), "{dt:?} {op:?}");
        let report = realize_report(&[&folded], false).unwrap();
        assert!(
            report.kernels.iter().all(|k| k.starts_with('E')),
            "{dt:?} {op:?}: {:?}",
            report.kernels
        );
        let (got, want) = match dt {
            DType::F32 => (folded.to_vec::<f32>(), held.to_vec::<f32>()),
            DType::I32 => (
                folded
                    .to_vec::<i32>()
                    .map(|v| v.iter().map(|&x| x as f32).collect()),
                held.to_vec::<i32>()
                    .map(|v| v.iter().map(|&x| x as f32).collect()),
            ),
            _ => (
                folded
                    .to_vec::<u32>()
                    .map(|v| v.iter().map(|&x| x as f32).collect()),
                held.to_vec::<u32>()
                    .map(|v| v.iter().map(|&x| x as f32).collect()),
            ),
        };
        assert_eq!(
            got.unwrap(),
            want.unwrap(),
            "{dt:?} {op:?} of {v} over {shape:?}"
        );
    }
}
