//! The scheduler and codegen without a device: kernel counts, strategies and loop counts for
//! a described device (`realize::plan`), GLSL snapshots of representative kernels, and
//! lowering's passes one by one (`lowering`). No test here opens Vulkan; `scripts/test.sh`
//! runs this module (`device_free::`) with `VK_ICD_FILENAMES` pointing at no file to prove it.
//!
//! Snapshots live in `tests/snapshots/*.glsl`; `TG_BLESS=1` rewrites them after a reviewed
//! codegen change.

mod lowering;
mod multi;
mod texels;

use std::path::PathBuf;

use tg_fixture::described::{gpu, lavapipe};
use tg_runtime::device::DeviceInfo;
use tg_runtime::graph::node::Op;
use tg_runtime::kernel::Strategy;
use tg_runtime::ops::AttentionPass;
use tg_runtime::realize::{Planned, plan};
use tg_runtime::target::ClassDefaults;
use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, UnaryOp};

use crate::graphs;

/// A matmul of (n, k) by (k, m) as the ops write it: a multiply broadcast over (n, k, m),
/// summed over k.
fn matmul(n: usize, k: usize, m: usize) -> Lazy {
    let a = data(&[n, k]).reshape(&[n, k, 1]).unwrap();
    let b = data(&[k, m]).reshape(&[1, k, m]).unwrap();
    a.expand(&[n, k, m])
        .unwrap()
        .binary(BinaryOp::Mul, &b.expand(&[n, k, m]).unwrap())
        .unwrap()
        .reduce(ReduceOp::Add, &[1])
        .unwrap()
}

/// A CPU's tiles grow to 32 rows of 4 vectors where every core keeps a workgroup (see
/// `target::ClassDefaults`); a GPU's stay at 4 rows of a vector until one is measured. (How many
/// cores is this machine's: the big matmul plans alike up to 32; the small one takes the
/// class's tile for its cores, whose rule `target`'s own tests pin per core count.)
#[test]
fn tile_shapes_follow_the_device_class() {
    let tile = |info: &DeviceInfo, n, k, m| plan(&[&matmul(n, k, m)], info).unwrap()[0].strategy;
    let shape = |rows, cols| Strategy::Tile {
        rows,
        cols,
        threads: 256,
    };
    assert_eq!(tile(&lavapipe(), 1024, 1024, 1024), shape(32, 4));
    let small = tile(&lavapipe(), 64, 784, 128);
    assert_eq!(small, ClassDefaults::of(&lavapipe()).tile(&[64, 128]));
    assert!(matches!(small, Strategy::Tile { cols: 1, .. }), "{small:?}");
    assert_eq!(tile(&gpu(), 1024, 1024, 1024), shape(4, 1));
    // each step of four of the reduction loads a vector of A for each of the 32 rows and four
    // rows of 4 vectors of B, in pairs: 40 loads for 2048 multiply-adds (a GPU's tile: 8 for
    // 64)
    let p = plan(&[&matmul(1024, 1024, 1024)], &lavapipe()).unwrap();
    assert_eq!(p[0].loads, 32 + 8, "{}", p[0].source);
    let p = plan(&[&matmul(1024, 1024, 1024)], &gpu()).unwrap();
    assert_eq!(p[0].loads, 4 + 4, "{}", p[0].source);
}

/// A tiled kernel emits its epilogue (the ops after its sums) once per output of its tile:
/// a long one, 40 ops at a CPU tile's 512 outputs, is an elementwise kernel of its own, the
/// product's kernel storing its sums (`schedule/epilogue.rs`); a short one (a bias and a
/// ReLU) stays in the product's kernel, and so does the long one under a GPU's tile of 16
/// outputs. Nor does the long one join the product's kernel as a second output.
#[test]
fn a_tiled_products_long_epilogue_is_a_kernel_of_its_own() {
    let (n, m) = (1024, 1024);
    let long_after = |n: usize, m: usize| {
        (0..20).fold(matmul(n, 256, m), |y, _| {
            let e = y.unary(UnaryOp::Exp2).unwrap();
            y.binary(BinaryOp::Mul, &e).unwrap()
        })
    };
    let long = long_after(n, m);
    // a product small enough to lead a multi-output kernel keeps the epilogue's kernel out
    // of its own too (`multi.rs` counts a member's ops as the tile emits them)
    let packing = DeviceInfo {
        max_storage_buffers: 1 << 20,
        ..lavapipe()
    };
    let small = plan(&[&long_after(256, 256)], &packing).unwrap();
    assert_eq!(small.len(), 2, "{:?}", names(&small));
    let p = plan(&[&long], &lavapipe()).unwrap();
    assert_eq!(p.len(), 2, "{:?}", names(&p));
    assert!(
        matches!(p[0].strategy, Strategy::Tile { rows: 32, .. }),
        "{:?}",
        p[0].strategy
    );
    assert!(p[1].name.starts_with("E_"), "{:?}", names(&p));
    assert_eq!(plan(&[&long], &gpu()).unwrap().len(), 1);
    let short = matmul(n, 256, m)
        .binary(BinaryOp::Add, &data(&[1, 1, m]).expand(&[n, 1, m]).unwrap())
        .unwrap()
        .binary(
            BinaryOp::Max,
            &Lazy::constant(0.0f32, DType::F32, &[n, 1, m]).unwrap(),
        )
        .unwrap();
    let p = plan(&[&short], &lavapipe()).unwrap();
    assert_eq!(p.len(), 1, "{:?}", names(&p));
}

/// Base-2 softmax over the rows of a `[rows, cols]` input buffer.
fn softmax_like(rows: usize, cols: usize) -> Lazy {
    graphs::base2_softmax(&data(&[rows, cols]))
}

/// An input buffer (no host data: planning never touches it).
fn data(shape: &[usize]) -> Lazy {
    Lazy::empty_buffer(DType::F32, shape).unwrap()
}

fn ones(shape: &[usize]) -> Lazy {
    Lazy::constant(1.0f32, DType::F32, shape).unwrap()
}

fn names(p: &[Planned]) -> Vec<String> {
    p.iter().map(|k| k.name.clone()).collect()
}

/// A region that reads more buffers than a kernel may bind beside its output is cut (the
/// value reading the most that fit gets a buffer) until every kernel fits: a sum of 40
/// buffers on a device binding 32 is two kernels, one of at most 31 inputs, and the rest.
#[test]
fn no_kernel_reads_more_buffers_than_the_device_binds() {
    let xs: Vec<Lazy> = (0..40).map(|_| data(&[64])).collect();
    let mut sum = xs[0].clone();
    for x in &xs[1..] {
        sum = sum.binary(BinaryOp::Add, x).unwrap();
    }
    let bound = DeviceInfo {
        max_storage_buffers: 32,
        ..lavapipe()
    };
    let p = plan(&[&sum], &bound).unwrap();
    assert_eq!(p.len(), 2, "{:?}", names(&p));
    assert!(p.iter().all(|k| k.kernel.inputs.len() <= 31));
    // a device that names no limit (a described one) fuses all 40
    assert_eq!(plan(&[&sum], &lavapipe()).unwrap().len(), 1);
}

/// `sum(None)`: a reduce under a reshape, split into a partial and a final pass; the reshape
/// shares the final pass's buffer.
#[test]
fn a_whole_tensor_sum_is_split_whatever_wraps_it() {
    let x = data(&[1 << 24]);
    let s = x.reduce(ReduceOp::Add, &[0]).unwrap().reshape(&[]).unwrap();
    for info in [lavapipe(), gpu()] {
        let p = plan(&[&s], &info).unwrap();
        assert_eq!(p.len(), 2, "{:?}", names(&p));
        assert!(p.iter().all(|k| k.loops <= 65_535), "{p:?}");
    }
}

/// A cooperative workgroup gives each subgroup a block of consecutive iterations, its lanes
/// side by side, with the subgroup size read at run time: the loop is the same whatever the
/// device's subgroup size (a bundle recorded where subgroups have 8 lanes serves a device
/// with 4; a subgroup as large as the workgroup, which takes the iterations round-robin so,
/// combines without shared memory, a source of its own).
#[test]
fn cooperative_loops_are_shared_out_in_subgroup_blocks() {
    let s = data(&[16, 4096]).reduce(ReduceOp::Add, &[1]).unwrap();
    let source = |subgroup_size| {
        let info = DeviceInfo {
            subgroup_size,
            ..gpu()
        };
        let p = plan(&[&s], &info).unwrap();
        assert!(
            matches!(p[0].strategy, Strategy::Cooperative { .. }),
            "{p:?}"
        );
        p[0].source.clone()
    };
    let src = source(32);
    for line in [
        "int sg1 = min(int(gl_SubgroupSize), 64);",
        "int first1 = (lid / sg1) * rounds1 * sg1 + lid % sg1;",
        "int r1 = first1 + t1 * sg1;",
    ] {
        assert!(src.contains(line), "{line}: {src}");
    }
    assert_eq!(source(4), src);
    assert_eq!(source(8), src);
    let no_arithmetic = DeviceInfo {
        subgroup_arithmetic: false,
        ..gpu()
    };
    let src = &plan(&[&s], &no_arithmetic).unwrap()[0].source;
    assert!(src.contains("GL_KHR_shader_subgroup_basic"), "{src}");
}

/// On a CPU driver an invocation of a kernel without loops computes 4 vectors, two pairs one
/// after another, each pair read and stored as one wide access, with its push constants read
/// once before them; a GPU keeps a vector an invocation, and so do small kernels (their
/// workgroups share out the cores) and kernels that loop already.
#[test]
fn cpus_compute_several_vectors_an_invocation() {
    let n = 1 << 20;
    let three = Lazy::constant(3.0f32, DType::F32, &[n]).unwrap();
    let y = data(&[n])
        .unary(UnaryOp::Exp2)
        .unwrap()
        .binary(BinaryOp::Mul, &three)
        .unwrap();
    let cpu = &plan(&[&y], &lavapipe()).unwrap()[0];
    let src = &cpu.source;
    let lp = src
        .find("for (uint vk = 0u; vk < 2u; vk++)")
        .unwrap_or_else(|| panic!("{src}"));
    assert!(src.find("pc.p[0]").is_some_and(|at| at < lp), "{src}");
    assert_eq!(src.matches("pc.p[0]").count(), 1, "{src}");
    assert!(src.contains("if (qv >= (pc.n + 7u) / 8u) return;"), "{src}");
    assert!(src.contains("buffer Out { u64vec4 o[]; }"), "{src}");
    assert!(
        src.contains("= tg_tx8(tb0, int(q));") && src.contains("o[q] = u64vec4("),
        "{src}"
    );
    assert_eq!(cpu.workgroups, (n / 4 / 256 / 4) as u64);
    // elements not a whole number of pairs: a vector a step, four an invocation
    let odd = data(&[n + 4]).unary(UnaryOp::Exp2).unwrap();
    let odd = &plan(&[&odd], &lavapipe()).unwrap()[0].source;
    assert!(odd.contains("vk < 4u") && odd.contains("vec4 o[]"), "{odd}");
    let gpu = &plan(&[&y], &gpu()).unwrap()[0];
    assert!(!gpu.source.contains("vk"), "{}", gpu.source);
    assert_eq!(gpu.workgroups, (n / 4 / 256) as u64);
    // 4096 vectors: 16 workgroups of one vector an invocation, 4 of four
    let small = data(&[1 << 14]).unary(UnaryOp::Exp2).unwrap();
    let small = &plan(&[&small], &lavapipe()).unwrap()[0];
    assert!(!small.source.contains("vk"), "{}", small.source);
    // a reduction's invocations loop over their reduced elements
    let sum = data(&[n, 16]).reduce(ReduceOp::Add, &[1]).unwrap();
    let sum = &plan(&[&sum], &lavapipe()).unwrap()[0];
    assert!(!sum.source.contains("vk"), "{}", sum.source);
}

/// A CPU reads two adjacent vectors as one wide load (a `u64vec4` of f32 pairs) and unrolls
/// reductions by 8 to read them so; a GPU, or a CPU without 64-bit integers, keeps vectors.
#[test]
fn cpus_read_pairs_of_vectors_as_one_load() {
    let s = data(&[16, 4096]).reduce(ReduceOp::Add, &[1]).unwrap();
    let narrow = DeviceInfo {
        shader_int64: false,
        ..lavapipe()
    };
    for (info, wide) in [(lavapipe(), true), (narrow, false), (gpu(), false)] {
        let p = plan(&[&s], &info).unwrap();
        let src = &p[0].source;
        // (a CPU reads through a texel buffer: a pair is two texels, a vector one)
        let pairs = src.contains("u64vec4 w0[]") || src.contains("= tg_tx8(tb0, ");
        let vectors =
            src.contains("vec4 v0[]") || src.contains("= uintBitsToFloat(texelFetch(tb0, ");
        assert_eq!(pairs, wide, "{src}");
        assert_eq!(vectors, !wide, "{src}");
        // a load a step for each of the invocation's 4 rows: 8 elements wide, 4 narrow
        assert_eq!(p[0].loads, 4, "{src}");
        let lanes = src.matches("unpackUint2x32(").count();
        assert_eq!(lanes, if wide { 4 * 8 } else { 0 }, "{src}");
    }
    // f16 pairs are a uvec4 of eight halves (no 64-bit words)
    let h = Lazy::empty_buffer(DType::F16, &[16, 4096])
        .unwrap()
        .reduce(ReduceOp::Add, &[1])
        .unwrap();
    let src = &plan(&[&h], &lavapipe()).unwrap()[0].source;
    assert!(src.contains("= texelFetch(tb0, "), "{src}");
    assert!(!src.contains("GL_ARB_gpu_shader_int64"), "{src}");
}

/// `split_last` pads the last axis to whole chunks and splits it; a scalar or chunks of 0
/// are errors naming it.
#[test]
fn the_last_axis_splits_into_padded_chunks() {
    let x = data(&[3, 10]);
    assert_eq!(x.split_last(4, 0).unwrap().shape(), &[3, 3, 4]);
    assert_eq!(
        x.split_last(5, f32::NEG_INFINITY).unwrap().shape(),
        &[3, 2, 5]
    );
    for bad in [
        data(&[]).split_last(4, 0).unwrap_err(),
        x.split_last(0, 0).unwrap_err(),
    ] {
        assert!(bad.to_string().contains("split_last"), "{bad}");
    }
}

#[test]
fn every_kernel_fits_the_loop_budget() {
    let cases: Vec<(&str, Lazy)> = vec![
        (
            "sum of 2^25",
            data(&[1 << 25]).reduce(ReduceOp::Add, &[0]).unwrap(),
        ),
        (
            "row sums of [1024, 2^20]",
            data(&[1024, 1 << 20]).reduce(ReduceOp::Add, &[1]).unwrap(),
        ),
        (
            "column sums of [2^22, 4]",
            data(&[1 << 22, 4]).reduce(ReduceOp::Add, &[0]).unwrap(),
        ),
        ("softmax-like row of 2^22", softmax_like(1, 1 << 22)),
        // enough rows for an invocation each on a CPU, too long for one invocation's budget
        (
            "softmax-like 8192 rows of 2^17",
            softmax_like(8192, 1 << 17),
        ),
    ];
    for (name, out) in cases {
        let p = plan(&[&out], &lavapipe()).unwrap();
        assert!(
            p.iter().all(|k| k.loops <= 65_535),
            "{name}: {:?}",
            p.iter()
                .map(|k| (k.name.clone(), k.loops))
                .collect::<Vec<_>>()
        );
        // a device with no budget needs no more kernels than one with it
        assert!(plan(&[&out], &gpu()).unwrap().len() <= p.len(), "{name}");
    }
}

#[test]
fn strategies_and_fusion() {
    // a 20-op elementwise chain: one serial kernel
    let mut x = data(&[4096]);
    for _ in 0..20 {
        x = x.unary(UnaryOp::Sin).unwrap();
    }
    let p = plan(&[&x], &gpu()).unwrap();
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].strategy, Strategy::Serial);
    // softmax over rows of 1024: one row kernel
    let soft = softmax_like(64, 1024);
    let p = plan(&[&soft], &gpu()).unwrap();
    assert_eq!(p.len(), 1, "{:?}", names(&p));
    assert!(matches!(
        p[0].strategy,
        Strategy::Row {
            row: 1024,
            threads: 64,
            rows: 1
        }
    ));
    // few rows of 1024 on a CPU: a subgroup a row all the same (each invocation keeps its 32
    // vectors of the row in registers), a workgroup for every core; rows of 4096 (128
    // vectors an invocation) a workgroup a row
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(
        plan(&[&soft], &lavapipe()).unwrap()[0].strategy,
        Strategy::Row {
            threads: 8,
            row: 1024,
            rows: (64 / cores).clamp(1, 8) as u32
        }
    );
    let long = softmax_like(64, 4096);
    assert_eq!(
        plan(&[&long], &lavapipe()).unwrap()[0].strategy,
        Strategy::Row {
            threads: 64,
            row: 4096,
            rows: 1
        }
    );
    // 65,536 rows keep a CPU busy (up to 256 cores) with a subgroup each, 8 rows a
    // workgroup; a GPU keeps a workgroup per row
    let soft = softmax_like(65536, 64);
    let row = |info: &DeviceInfo| plan(&[&soft], info).unwrap()[0].strategy;
    assert_eq!(
        row(&lavapipe()),
        Strategy::Row {
            threads: 8,
            row: 64,
            rows: 8
        }
    );
    assert_eq!(
        row(&gpu()),
        Strategy::Row {
            threads: 64,
            row: 64,
            rows: 1
        }
    );
    // the exponentials the row's sum computed are kept for the output loop (softmax computes
    // each once), each invocation keeping its own rounds' elements
    for (info, step) in [(lavapipe(), 8), (gpu(), 4)] {
        let src = plan(&[&soft], &info).unwrap()[0].source.clone();
        // in the sum's loop alone, a step's elements an iteration (a CPU's pair of vectors)
        assert_eq!(src.matches("tg_exp2_f(x").count(), step, "{src}");
        assert!(src.contains("float s0["), "{src}");
    }
    // a subgroup a row combines with subgroup operations alone; a workgroup of several
    // subgroups through shared memory
    let kept = plan(&[&soft], &lavapipe()).unwrap()[0].source.clone();
    assert!(kept.contains("float s0[1][8];"), "{kept}");
    assert!(kept.contains("local_size_x = 64"), "{kept}");
    assert!(
        kept.contains("uint gid = wg * 8u + gl_LocalInvocationID.x / 8u;"),
        "{kept}"
    );
    assert!(
        !kept.contains("barrier()") && !kept.contains("shared "),
        "{kept}"
    );
    let shared = plan(&[&soft], &gpu()).unwrap()[0].source.clone();
    assert!(shared.contains("barrier()"), "{shared}");
    // f64 combines through shared memory, which is the workgroup's: a row a workgroup
    let wide = Lazy::empty_buffer(DType::F64, &[65536, 64]).unwrap();
    let wide = graphs::base2_softmax(&wide);
    assert_eq!(
        plan(&[&wide], &lavapipe()).unwrap()[0].strategy,
        Strategy::Row {
            threads: 8,
            row: 64,
            rows: 1
        }
    );
    // without subgroup arithmetic, a CPU runs an invocation a row, 256 rows a workgroup
    let plain = DeviceInfo {
        subgroup_arithmetic: false,
        ..lavapipe()
    };
    assert_eq!(
        row(&plain),
        Strategy::Row {
            threads: 1,
            row: 64,
            rows: 256
        }
    );
    // a matmul: the rows of an invocation's tile share the loads of B's columns
    let a = data(&[128, 64])
        .reshape(&[128, 64, 1])
        .unwrap()
        .expand(&[128, 64, 128])
        .unwrap();
    let b = data(&[64, 128])
        .reshape(&[1, 64, 128])
        .unwrap()
        .expand(&[128, 64, 128])
        .unwrap();
    let c = a
        .binary(BinaryOp::Mul, &b)
        .unwrap()
        .reduce(ReduceOp::Add, &[1])
        .unwrap();
    let c = c.reshape(&[128, 128]).unwrap();
    let p = plan(&[&c], &gpu()).unwrap();
    assert_eq!(p.len(), 1);
    assert_eq!(
        p[0].strategy,
        Strategy::Tile {
            rows: 4,
            cols: 1,
            threads: 256
        }
    );
    // an MLP layer's matmul, 64 x 784 x 128, kept as (64, 128, 1) as a gradient needs it: a
    // reduction long enough to be cooperative, but 512 tiles fill two workgroups, and the
    // trailing axis of 1 changes no layout
    let x = data(&[64, 784])
        .reshape(&[64, 1, 784])
        .unwrap()
        .expand(&[64, 128, 784])
        .unwrap();
    let w = data(&[128, 784])
        .reshape(&[1, 128, 784])
        .unwrap()
        .expand(&[64, 128, 784])
        .unwrap();
    let h = x
        .binary(BinaryOp::Mul, &w)
        .unwrap()
        .reduce(ReduceOp::Add, &[2])
        .unwrap();
    assert_eq!(h.shape(), &[64, 128, 1]);
    let p = plan(&[&h], &gpu()).unwrap();
    assert_eq!(
        p[0].strategy,
        Strategy::Tile {
            rows: 4,
            cols: 1,
            threads: 256
        }
    );
    // a reduction that shares nothing between outputs stays one row per invocation
    let s = data(&[32, 256, 256]).reduce(ReduceOp::Add, &[0]).unwrap();
    assert_eq!(plan(&[&s], &gpu()).unwrap()[0].strategy, Strategy::Serial);
    // a long reduction over few outputs: cooperative
    let s = data(&[8, 4096]).reduce(ReduceOp::Add, &[1]).unwrap();
    let p = plan(&[&s], &gpu()).unwrap();
    assert!(matches!(p[0].strategy, Strategy::Cooperative { .. }));
}

#[test]
fn long_chains_are_cut_into_kernels_of_one_structure() {
    let mut x = data(&[4]);
    let one = ones(&[4]);
    for _ in 0..10_000 {
        x = x.binary(BinaryOp::Add, &one).unwrap();
    }
    let p = plan(&[&x], &gpu()).unwrap();
    assert!(p.len() >= 5, "{} kernels", p.len());
    // the pieces share a few sources: compile time does not grow with the chain
    let mut sources: Vec<&String> = p.iter().map(|k| &k.source).collect();
    sources.sort();
    sources.dedup();
    assert!(sources.len() <= 3, "{} distinct shaders", sources.len());
}

#[test]
fn scalars_and_trip_counts_are_data() {
    let a = data(&[1000]);
    let src = |k: f32| {
        let out = a
            .binary(
                BinaryOp::Add,
                &Lazy::constant(k, DType::F32, &[1000]).unwrap(),
            )
            .unwrap();
        plan(&[&out], &gpu()).unwrap()[0].source.clone()
    };
    assert_eq!(src(1.0), src(-7.25), "one shader for every scalar");
    let sum_rows = |rows: usize| {
        let s = data(&[rows, 64]).reduce(ReduceOp::Add, &[0]).unwrap();
        plan(&[&s], &gpu()).unwrap()[0].source.clone()
    };
    assert_eq!(
        sum_rows(100),
        sum_rows(200),
        "one shader for reductions of other lengths"
    );
}

#[test]
fn big_buffers_are_reached_by_address() {
    let x = data(&[(1 << 25) + 4]);
    let y = x.binary(BinaryOp::Add, &x).unwrap();
    let p = plan(&[&y], &lavapipe()).unwrap();
    assert!(p[0].source.contains("buffer_reference"), "{}", p[0].source);
    let small = data(&[1024]);
    let p = plan(
        &[&small.binary(BinaryOp::Add, &small).unwrap()],
        &lavapipe(),
    )
    .unwrap();
    assert!(!p[0].source.contains("buffer_reference"));
}

/// `x` less its rows' maxima (a softmax's shift): a row kernel that keeps its row.
fn less_row_max(x: &Lazy) -> Lazy {
    let shape = x.shape().to_vec();
    let m = x
        .reduce(ReduceOp::Max, &[shape.len() - 1])
        .unwrap()
        .expand(&shape)
        .unwrap();
    x.binary(BinaryOp::Add, &m.unary(UnaryOp::Neg).unwrap())
        .unwrap()
}

fn snapshot(name: &str, source: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.glsl"));
    if tg_runtime::config::is_on(&std::env::var("TG_BLESS").unwrap_or_default()) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, source).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "no snapshot {}; run with TG_BLESS=1 to write it",
            path.display()
        )
    });
    assert_eq!(
        source, want,
        "{name}: the GLSL changed; review it and run with TG_BLESS=1"
    );
}

#[test]
fn glsl_snapshots() {
    let a = data(&[1024]);
    let k = Lazy::constant(0.5f32, DType::F32, &[1024]).unwrap();
    let axpb = a
        .binary(BinaryOp::Mul, &k)
        .unwrap()
        .binary(BinaryOp::Add, &a)
        .unwrap();
    snapshot("elementwise", &plan(&[&axpb], &gpu()).unwrap()[0].source);
    let s = data(&[16, 4096]).reduce(ReduceOp::Add, &[1]).unwrap();
    snapshot("cooperative_sum", &plan(&[&s], &gpu()).unwrap()[0].source);
    let shifted = less_row_max(&data(&[64, 1024]));
    snapshot("row_kernel", &plan(&[&shifted], &gpu()).unwrap()[0].source);
    let w = Lazy::parameter(&data(&[1024])).unwrap();
    let upd = w.assign(&w.binary(BinaryOp::Mul, &k).unwrap()).unwrap();
    let p = plan(&[&upd], &gpu()).unwrap();
    snapshot("in_place", &p.last().unwrap().source);
}

/// A bundle key hashes the rendered GLSL, so what codegen takes from the device (here subgroup
/// arithmetic and float controls) makes another key: a bundle recorded on a device without a
/// feature misses on one with it instead of serving the wrong shader. (A kernel that renders
/// the same on two devices, as a plain pass does on lavapipe and a GPU, shares its key, and
/// its SPIR-V serves both.)
#[test]
fn bundle_keys_follow_device_features() {
    use tg_runtime::bundle::key;
    use tg_runtime::compile::Opt;
    // one cooperative kernel (a split sum's partial pass, short chunks over many outputs,
    // runs serially on a CPU)
    let x = data(&[1 << 12]).reduce(ReduceOp::Add, &[0]).unwrap();
    let keys = |info: &DeviceInfo| -> Vec<u128> {
        plan(&[&x], info)
            .unwrap()
            .iter()
            .map(|k| key(&k.source, Opt::Zero))
            .collect()
    };
    let base = lavapipe();
    assert_eq!(keys(&base), keys(&lavapipe()), "same device, same keys");
    let variants = [
        DeviceInfo {
            subgroup_arithmetic: false,
            ..lavapipe()
        },
        DeviceInfo {
            preserve_inf_nan_f32: !base.preserve_inf_nan_f32,
            ..lavapipe()
        },
    ];
    for info in variants {
        let (a, b) = (keys(&base), keys(&info));
        assert!(
            a.iter().all(|k| !b.contains(k)),
            "{info:?}: a key of lavapipe's kernels serves this device too"
        );
    }
}

/// The gradient of an MLP's first weight, `x^T @ (g * (pre > 0))`, reads each element of the
/// masked gradient once per input feature: computing the mask once into a buffer beats
/// recomputing it in every tile. A product whose operand is one op away from a buffer stays
/// fused.
#[test]
fn values_a_reduction_reads_many_times_over_get_a_buffer() {
    let weight_gradient = |masked: Lazy| {
        let x = data(&[64, 784])
            .reshape(&[64, 1, 784])
            .unwrap()
            .expand(&[64, 128, 784])
            .unwrap();
        let m = masked
            .reshape(&[64, 128, 1])
            .unwrap()
            .expand(&[64, 128, 784])
            .unwrap();
        let dw = x
            .binary(BinaryOp::Mul, &m)
            .unwrap()
            .reduce(ReduceOp::Add, &[0])
            .unwrap();
        plan(&[&dw], &gpu()).unwrap()
    };
    let (g, pre) = (data(&[64, 128]), data(&[64, 128]));
    let mask = ones(&[64, 128])
        .binary(BinaryOp::CmpLt, &pre)
        .unwrap()
        .cast(DType::F32);
    let masked = g.binary(BinaryOp::Mul, &mask).unwrap();
    let p = weight_gradient(masked);
    assert_eq!(names(&p).len(), 2, "{:?}", names(&p));
    assert_eq!(
        p[1].strategy,
        Strategy::Tile {
            rows: 4,
            cols: 1,
            threads: 256
        }
    );
    let scaled = g.binary(BinaryOp::Mul, &ones(&[64, 128])).unwrap();
    assert_eq!(weight_gradient(scaled).len(), 1);
}

/// A gather is one kernel with its positions: an embedding lookup reads each row of the table
/// at the position its id holds, four columns to a vector load. A reduction under the values
/// gets a kernel of its own (a loop cannot open at a position read from data); one over the
/// gathered values keeps the read in its loop.
#[test]
fn gathers_read_at_positions_from_data() {
    let table = data(&[1000, 64]);
    let ids = Lazy::empty_buffer(DType::I32, &[32])
        .unwrap()
        .reshape(&[32, 1])
        .unwrap()
        .expand(&[32, 64])
        .unwrap();
    let rows = table.gather(0, &ids).unwrap();
    let p = plan(&[&rows], &lavapipe()).unwrap();
    assert_eq!(p.len(), 1, "{:?}", names(&p));
    snapshot("gather_rows", &p[0].source);

    let scaled = table
        .binary(
            BinaryOp::Mul,
            &table
                .reduce(ReduceOp::Add, &[0])
                .unwrap()
                .expand(&[1000, 64])
                .unwrap(),
        )
        .unwrap();
    let p = plan(&[&scaled.gather(0, &ids).unwrap()], &lavapipe()).unwrap();
    assert_eq!(p.len(), 2, "{:?}", names(&p));

    let summed = rows.reduce(ReduceOp::Add, &[1]).unwrap();
    let p = plan(&[&summed], &lavapipe()).unwrap();
    assert_eq!(p.len(), 1, "{:?}", names(&p));
}

/// A merge sort of rows of records is a sort of runs of 32 (from the sort template, a
/// network in registers), then one kernel per merge level, each from the merge template
/// (one shader for every level: the run length is a push constant); records computed from
/// other values get a kernel of their own first. A CPU gives an invocation 256 records where
/// that keeps its cores busy, a GPU 8.
#[test]
fn merges_of_sorted_runs_are_a_kernel_per_level() {
    let keys = Lazy::empty_buffer(DType::U32, &[4, 1000, 2]).unwrap();
    let x = keys
        .binary(BinaryOp::Xor, &keys)
        .unwrap()
        .merge_sort()
        .unwrap();
    let p = plan(&[&x], &lavapipe()).unwrap();
    // the records, a sort of runs of 32, merges of 32, 64, .. 512
    assert_eq!(p.len(), 7, "{:?}", names(&p));
    assert_eq!(p[1].strategy, Strategy::Sort { words: 2, run: 32 });
    assert_eq!(p[1].loops, 0);
    // 191 compare-exchanges of Batcher's network for 32
    assert_eq!(p[1].source.matches("  tg_exchange(").count(), 191);
    snapshot("sort", &p[1].source);
    assert!(
        p[2..]
            .iter()
            .all(|k| k.source == p[2].source && k.loops <= 65_535)
    );
    assert!(matches!(p[2].strategy, Strategy::Merge { words: 2, .. }));
    snapshot("merge", &p[2].source);
    let on_gpu = plan(&[&x], &gpu()).unwrap();
    assert_eq!(on_gpu[2].strategy, Strategy::Merge { words: 2, per: 8 });
}

/// A scan of runs is a kernel of its own from the scan template, an invocation per run, its
/// loop as long as the run; a float sum is compensated. Where rows and runs are whole vectors
/// it reads and writes vectors, a vector's prefixes apart from the carried total, so one
/// compensated step joins each vector to the next; products fold in order.
#[test]
fn scans_of_runs_are_a_kernel_from_their_template() {
    let x = data(&[64, 1000]);
    let s = x.scan_runs(ReduceOp::Add, 256).unwrap();
    let p = plan(&[&s], &lavapipe()).unwrap();
    assert_eq!(p.len(), 1, "{:?}", names(&p));
    assert_eq!(p[0].strategy, Strategy::Scan { op: ReduceOp::Add });
    assert_eq!(p[0].loops, 257);
    let src = &p[0].source;
    assert!(src.contains("buffer Out { vec4 o[]; }"), "{src}");
    assert!(src.contains("precise float p3 = (p2 + x[3]);"), "{src}");
    assert!(src.contains("r[2] = acc + (p2 - comp);"), "{src}");
    assert!(src.contains("o[j] = r;"), "{src}");
    // the Kahan step: once a vector, once an element of the tail
    assert_eq!(src.matches("comp = (isinf(t)").count(), 2, "{src}");
    assert!(src.contains("o[i >> 2u][i & 3u] = acc;"), "{src}");
    snapshot("scan", src);

    let prod = x.scan_runs(ReduceOp::Mul, 256).unwrap();
    let p = plan(&[&prod], &lavapipe()).unwrap();
    let src = &p[0].source;
    assert!(!src.contains(" p1 "), "{src}");
    assert_eq!(src.matches("acc = (acc * x[").count(), 4, "{src}");
    assert!(src.contains("o[j] = r;"), "{src}");
}

/// A row kernel reads its row from memory once: the first reduction keeps the values it
/// loads in the invocation's array (each invocation sharing the row keeps its own rounds'
/// elements), and the later loops (the variance's, the output's) read them back from it. A
/// layernorm's shape of graph: a subgroup a row on a CPU, a workgroup on a GPU.
#[test]
fn a_row_kernel_reads_its_row_once() {
    let (rows, cols) = (4096, 1024);
    let x = data(&[rows, cols]);
    let mean = |t: &Lazy| {
        t.reduce(ReduceOp::Add, &[1])
            .unwrap()
            .binary(
                BinaryOp::Mul,
                &Lazy::constant(1.0 / cols as f32, DType::F32, &[rows, 1]).unwrap(),
            )
            .unwrap()
            .expand(&[rows, cols])
            .unwrap()
    };
    let d = x
        .binary(BinaryOp::Add, &mean(&x).unary(UnaryOp::Neg).unwrap())
        .unwrap();
    let var = mean(&d.binary(BinaryOp::Mul, &d).unwrap());
    let y = d
        .binary(
            BinaryOp::Mul,
            &var.unary(UnaryOp::Sqrt)
                .unwrap()
                .unary(UnaryOp::Recip)
                .unwrap(),
        )
        .unwrap();
    // (a CPU's loops take a pair of vectors a step, read as one wide load)
    for (info, threads, kept, step, load) in [
        (lavapipe(), 8, 128, 8, "= tg_tx8(tb0, "),
        (gpu(), 64, 16, 4, "= v0["),
    ] {
        let p = plan(&[&y], &info).unwrap();
        assert_eq!(p.len(), 1, "{:?}", names(&p));
        let rows = if threads == 8 { 8 } else { 1 };
        assert_eq!(
            p[0].strategy,
            Strategy::Row {
                threads,
                row: cols,
                rows
            }
        );
        // an invocation's arrays are declared as rows of a step's elements,
        // `float s<slot>[len / step][step]` (workgroup memory: `shared`), indexed by the round
        let src = &p[0].source;
        assert_eq!(src.matches(load).count(), 1, "{src}");
        assert!(
            src.contains(&format!("float s1[{}][{step}];", kept / step)),
            "{src}"
        );
    }
}

/// Invocations sharing a row each keep their own rounds' elements, so a read of the row at
/// another element than the loop's own (a flip) loads it: the element is another
/// invocation's. An invocation a row keeps the whole row and reads it back.
#[test]
fn a_shared_row_reads_back_only_its_own_elements() {
    let (rows, cols) = (4096, 1024);
    let x = data(&[rows, cols]);
    let total = x
        .reduce(ReduceOp::Add, &[1])
        .unwrap()
        .expand(&[rows, cols])
        .unwrap();
    let y = x.flip(&[1]).unwrap().binary(BinaryOp::Add, &total).unwrap();
    let p = plan(&[&y], &lavapipe()).unwrap();
    assert_eq!(p.len(), 1, "{:?}", names(&p));
    assert_eq!(
        p[0].strategy,
        Strategy::Row {
            threads: 8,
            row: cols,
            rows: 8
        }
    );
    let src = &p[0].source;
    assert_eq!(src.matches("= tg_tx8(tb0, ").count(), 2, "{src}");
}

/// An f16 matmul as tg-ops composes it (f16 operands widened to f32, products and their sum
/// in f32, the result rounded to f16) renders the same GLSL whether or not the device has
/// `shaderFloat16`, `shaderInt8` and 16-bit storage: f16 is stored two to a 32-bit word and
/// computed in f32 on every device (`tg_h2f` unpacks, `tg_f2h` packs), so a device without
/// those features runs exactly what lavapipe, which has them, runs and is tested on.
#[test]
fn f16_matmul_renders_without_16_bit_features() {
    let half = |shape: &[usize]| Lazy::empty_buffer(DType::F16, shape).unwrap();
    let (n, k, m) = (64, 1024, 32);
    let a = half(&[n, k]).cast(DType::F32).reshape(&[n, k, 1]).unwrap();
    let b = half(&[k, m]).cast(DType::F32).reshape(&[1, k, m]).unwrap();
    let mm = a
        .expand(&[n, k, m])
        .unwrap()
        .binary(BinaryOp::Mul, &b.expand(&[n, k, m]).unwrap())
        .unwrap()
        .reduce(ReduceOp::Add, &[1])
        .unwrap()
        .cast(DType::F16);
    let with = |on: bool, base: DeviceInfo| DeviceInfo {
        shader_float16: on,
        shader_int8: on,
        storage_16bit: on,
        storage_8bit: on,
        shader_int16: on,
        ..base
    };
    for base in [lavapipe(), gpu()] {
        let have = plan(&[&mm], &with(true, base.clone())).unwrap();
        let lack = plan(&[&mm], &with(false, base)).unwrap();
        assert_eq!(have.len(), 1, "{:?}", names(&have));
        assert_eq!(have[0].source, lack[0].source);
        let src = &lack[0].source;
        for native in [
            "float16_t",
            "f16vec",
            "16bit_storage",
            "explicit_arithmetic_types",
        ] {
            assert!(!src.contains(native), "{native} in\n{src}");
        }
        for emulated in ["tg_h2f(", "tg_f2h(", "float acc"] {
            assert!(src.contains(emulated), "no {emulated} in\n{src}");
        }
    }
}

/// RMSNorm as the ops write it, over the last axis of `x` (`x * rsqrt(mean(x^2) + eps) * w`).
fn rms_norm(x: &Lazy, w: &Lazy) -> Lazy {
    let shape = x.shape().to_vec();
    let d = *shape.last().unwrap();
    let mut row = shape.clone();
    *row.last_mut().unwrap() = 1;
    let scalar = |v: f32| Lazy::constant(v, DType::F32, &row).unwrap();
    let ms = x
        .binary(BinaryOp::Mul, x)
        .unwrap()
        .reduce(ReduceOp::Add, &[shape.len() - 1])
        .unwrap()
        .binary(BinaryOp::Mul, &scalar(1.0 / d as f32))
        .unwrap();
    let r = ms
        .binary(BinaryOp::Add, &scalar(1e-5))
        .unwrap()
        .unary(UnaryOp::Sqrt)
        .unwrap()
        .unary(UnaryOp::Recip)
        .unwrap();
    x.binary(BinaryOp::Mul, &r.expand(&shape).unwrap())
        .unwrap()
        .binary(
            BinaryOp::Mul,
            &w.reshape(&[1, d]).unwrap().expand(&shape).unwrap(),
        )
        .unwrap()
}

/// A language model's decode step normalizes one token's vector and multiplies it by a
/// weight matrix: every row of the product reads the whole norm. The norm gets its buffer as
/// one row kernel (its reduction, the scalar after it and the scaling together, where each
/// once had a kernel of its own), also where two kernels read the product (a KV cache's keys
/// and values). On a CPU the product's 1280 outputs run serially: they fill every core's
/// SIMD lanes, and a cooperative workgroup's combines only cost there.
#[test]
fn a_norm_read_by_every_row_of_a_product_is_one_row_kernel() {
    let x = data(&[1, 768]);
    let y = rms_norm(&x, &data(&[768]));
    let w = data(&[1280, 768]);
    let product = matvec(&y, &w);
    let keys = product
        .shrink(&[(0, 256)])
        .unwrap()
        .unary(UnaryOp::Exp2)
        .unwrap();
    let values = product
        .shrink(&[(256, 512)])
        .unwrap()
        .unary(UnaryOp::Neg)
        .unwrap();
    for info in [lavapipe(), gpu()] {
        let p = plan(&[&product], &info).unwrap();
        assert_eq!(p.len(), 2, "{:?}", names(&p));
        assert!(matches!(p[0].strategy, Strategy::Row { .. }), "{:?}", p[0]);
        let both = plan(&[&keys, &values], &info).unwrap();
        assert!(
            matches!(both[0].strategy, Strategy::Row { .. }) && both.len() == 4,
            "{:?}",
            names(&both)
        );
    }
    let p = plan(&[&product], &lavapipe()).unwrap();
    assert_eq!(p[1].strategy, Strategy::Serial, "{:?}", names(&p));
    let p = plan(&[&product], &gpu()).unwrap();
    assert!(
        matches!(p[1].strategy, Strategy::Cooperative { .. }),
        "{:?}",
        names(&p)
    );
}

/// The product of a `[1, 768]` vector and a `[1280, 768]` matrix's rows, `[1280]`, as a
/// language model's decode step forms it (the vector broadcast over the rows, summed).
fn matvec(x: &Lazy, w: &Lazy) -> Lazy {
    x.reshape(&[1, 1, 768])
        .unwrap()
        .expand(&[1, 1280, 768])
        .unwrap()
        .binary(BinaryOp::Mul, &w.reshape(&[1, 1280, 768]).unwrap())
        .unwrap()
        .reduce(ReduceOp::Add, &[2])
        .unwrap()
        .reshape(&[1280])
        .unwrap()
}

/// A decode step's q/k/v product (of a decoded weight) read by the queries and two KV-cache
/// writes, each broadcasting its slice over every cached row (`where(row == position, new,
/// cache)` over 512 rows): the product is one reduction kernel over the weights, never its
/// `[1280, 768]` elementwise products stored first. Reached from several kernels, the
/// reduction is "repeated", and its products looked like a value read 512 times an element
/// on their own account to the values' write; they were stored (a kernel of a million
/// products a token) from about 400 cached rows on.
#[test]
fn a_product_two_cache_writes_broadcast_keeps_its_products_fused() {
    let x = data(&[1, 768]);
    // a weight decoded as the product reads it (scales times codes, as a quantized one)
    let w = data(&[1280, 768])
        .unary(UnaryOp::Trunc)
        .unwrap()
        .binary(BinaryOp::Mul, &data(&[1280, 768]))
        .unwrap();
    let product = matvec(&x, &w);
    let rows = 512;
    let position = Lazy::var(7, 3u32, DType::U32, &[rows, 1]).unwrap();
    let row = Lazy::arange_u32(rows).unwrap().reshape(&[rows, 1]).unwrap();
    let at = row.binary(BinaryOp::CmpEq, &position).unwrap();
    // the keys rotated (an op of their own), the values as the product leaves them
    let write = |from: usize, rotated: bool| {
        let slice = product.shrink(&[(from, from + 256)]).unwrap();
        let slice = match rotated {
            true => slice.unary(UnaryOp::Exp2).unwrap(),
            false => slice,
        };
        let new = slice
            .reshape(&[1, 256])
            .unwrap()
            .expand(&[rows, 256])
            .unwrap();
        at.expand(&[rows, 256])
            .unwrap()
            .where_(&new, &data(&[rows, 256]))
            .unwrap()
    };
    let (keys, values) = (write(768, true), write(1024, false));
    // the queries, read once an element (by the attention)
    let queries = product
        .shrink(&[(0, 768)])
        .unwrap()
        .unary(UnaryOp::Neg)
        .unwrap();
    for info in [lavapipe(), gpu()] {
        let p = plan(&[&queries, &keys, &values], &info).unwrap();
        let stored = |k: &Planned| {
            std::iter::once(&k.kernel.root)
                .chain(&k.kernel.also)
                .map(|n| n.numel())
                .max()
                .unwrap_or(0)
        };
        assert!(p.iter().all(|k| stored(k) < 1280 * 768), "{:?}", names(&p));
        // the product, the queries, the rotated keys, the two writes
        assert!(p.len() <= 5, "{:?}", names(&p));
    }
}

/// `assign(where(c, x, target))` into a buffer stores only where `c` holds when every lane of
/// a store shares `c` (a KV cache's row at a position: the store is guarded, the cache's
/// other rows neither read nor written), and stores every lane where `c` differs within a
/// stored vector, or where the kept value is not the target's.
#[test]
fn a_write_kept_where_a_condition_fails_stores_only_where_it_holds() {
    let shape = [4, 100, 64];
    let cache = data(&shape);
    let index_along = |axis: usize| {
        let mut one = vec![1; 3];
        one[axis] = shape[axis];
        Lazy::arange_u32(shape[axis])
            .unwrap()
            .cast(DType::I32)
            .reshape(&one)
            .unwrap()
            .expand(&shape)
            .unwrap()
    };
    let pos = Lazy::var(999_001, 5i32, DType::I32, &shape).unwrap();
    let new = data(&[4, 1, 64]).expand(&shape).unwrap();
    let store = |target: &Lazy, pick: &Lazy, kept: &Lazy| {
        let w = target.assign(&pick.where_(&new, kept).unwrap()).unwrap();
        let p = plan(&[&w], &lavapipe()).unwrap();
        let source = &p.last().unwrap().source;
        source
            .lines()
            .find(|l| l.contains("o[") && l.contains("] = "))
            .unwrap_or_else(|| panic!("no store in {source}"))
            .trim()
            .to_string()
    };
    let row = index_along(1).binary(BinaryOp::CmpEq, &pos).unwrap();
    let col = index_along(2).binary(BinaryOp::CmpEq, &pos).unwrap();
    let guarded = store(&cache, &row, &cache);
    assert!(
        guarded.starts_with("if (x"),
        "guarded by the row: {guarded}"
    );
    for (what, s) in [
        ("each lane its own condition", store(&cache, &col, &cache)),
        ("another buffer kept", store(&cache, &row, &data(&shape))),
    ] {
        assert!(s.starts_with("o["), "{what}: {s}");
    }
}

/// A CPU's fused attention takes 8 rows an invocation (sharing each key's loads; at most
/// 256 floats of rows) while the invocations still fill every core's SIMD lanes: a language
/// model's prefill step (4 key heads of 96 query rows of 64 over a 529-row cache) takes 2, a
/// decode step's 12 rows one each, and rows of 16 take 8. Halving stopped at a workgroup of
/// 256 a core before, which gave the prefill step one.
#[test]
fn attention_rows_an_invocation_fill_the_lanes() {
    let rows_of = |heads: usize, l: usize, d: usize| {
        let q = data(&[heads, l, d]);
        let kv = data(&[heads, 529, d]);
        let ends = Lazy::constant(100.0f32, DType::F32, &[1, l]).unwrap();
        let out = q.attention_ends(&kv, &kv, &ends).unwrap();
        let p = plan(&[&out], &lavapipe()).unwrap();
        match p.last().unwrap().kernel.strategy {
            Strategy::Attention { rows, .. } => rows,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(rows_of(4, 96, 64), 2);
    assert_eq!(rows_of(4, 3, 64), 1);
    assert_eq!(rows_of(4, 96, 16), 8);
    assert_eq!(rows_of(1, 24, 16), 1);
}

/// The backward of a fused attention whose values a model reads (`out` narrowed to them, as
/// `scaled_dot_product_attention` does): the values' gradient is read from its own buffer
/// (the narrowed pad of it folds away, so no kernel pads it with the logsumexp's zero
/// column) and `delta` is `GradQ`'s last column (no reduction kernel computes it). Beside
/// the forward, `GradQ` and `GradKV`, the gradients are only copies out of the passes'
/// outputs (the targets are views of them).
#[test]
fn an_attention_backward_is_its_two_passes() {
    let [q, k, v] = [0, 1, 2].map(|_| Lazy::parameter(&data(&[2, 37, 8])).unwrap());
    let r = data(&[2, 37, 8]);
    let out = q.attention(&k, &v, true, None).unwrap();
    let values = out.narrow(2, 0, 8).unwrap();
    let grads = values.gradient(&[&q, &k, &v], Some(&r)).unwrap();
    let p = plan(&grads.iter().collect::<Vec<_>>(), &lavapipe()).unwrap();
    let pass = |k: &Planned| match k.kernel.strategy {
        Strategy::Attention { pass, .. } => Some(pass),
        _ => None,
    };
    let passes: Vec<AttentionPass> = p.iter().filter_map(pass).collect();
    assert_eq!(
        passes,
        [
            AttentionPass::Forward,
            AttentionPass::GradQ { lse_grad: false },
            AttentionPass::GradKV
        ],
        "{:?}",
        names(&p)
    );
    for k in p.iter().filter(|k| pass(k).is_none()) {
        assert!(k.name.starts_with('E'), "{:?}", names(&p));
    }
    // the values' gradient is `r` itself; `GradKV` reads `GradQ`'s output
    let at = |want: AttentionPass| &p.iter().find(|k| pass(k) == Some(want)).unwrap().kernel;
    let grad_q = at(AttentionPass::GradQ { lse_grad: false });
    assert_eq!(grad_q.inputs[4].id(), r.id());
    assert_eq!(grad_q.root.shape(), [2, 37, 9]);
    assert_eq!(at(AttentionPass::GradKV).inputs[5].id(), grad_q.root.id());
    // a gradient of the logsumexp too is `GradQ`'s sixth source
    let seed = data(&[2, 37, 9]);
    let grads = out.gradient(&[&q], Some(&seed)).unwrap();
    let p = plan(&[&grads[0]], &lavapipe()).unwrap();
    let with_lse = p
        .iter()
        .find(|k| pass(k) == Some(AttentionPass::GradQ { lse_grad: true }))
        .unwrap_or_else(|| panic!("{:?}", names(&p)));
    assert_eq!(with_lse.kernel.inputs.len(), 6);
}

/// A fused attention reads the rows that are whole pairs of vectors as pairs where the
/// target loads pairs (a CPU driver with 64-bit integers reading storage buffers: lavapipe
/// loads lane by lane, so a pair costs what a vector does), rows of whole vectors as vectors,
/// and a GPU's as vectors. (A CPU reads them through texels: `texels.rs`.)
#[test]
fn an_attention_reads_its_rows_in_pairs_on_a_cpu() {
    let lavapipe = || DeviceInfo {
        storage_reads: true,
        ..lavapipe()
    };
    let source = |d: usize, info: &DeviceInfo| {
        let q = data(&[2, 37, d]);
        let v = data(&[2, 37, 8]);
        let out = q.attention(&q, &v, true, None).unwrap();
        let p = plan(&[&out], info).unwrap();
        let k = p
            .iter()
            .find(|k| matches!(k.kernel.strategy, Strategy::Attention { .. }))
            .unwrap_or_else(|| panic!("{:?}", names(&p)));
        k.source.clone()
    };
    // queries and keys of 16, values of 8: every row read in pairs
    let s = source(16, &lavapipe());
    assert!(
        s.contains("{ u64vec4 w0[]; }") && s.contains("{ u64vec4 w2[]; }"),
        "{s}"
    );
    assert!(!s.contains("vec4 v0[]"), "{s}");
    // queries and keys of 12 (three vectors) as vectors, values still in pairs
    let s = source(12, &lavapipe());
    assert!(
        s.contains("{ vec4 v0[]; }") && s.contains("{ u64vec4 w2[]; }"),
        "{s}"
    );
    let s = source(16, &gpu());
    assert!(!s.contains("u64vec4"), "{s}");
}

/// Mesa unrolls a loop of literal trips, which a row kernel needs only where a later loop
/// reads back the part of the row it kept in an array: a row kernel that keeps nothing
/// (an RMS norm reads the row again, not its squares) asks for its loops to stay loops,
/// which lavapipe compiles in a third of the time.
#[test]
fn only_a_kept_row_has_its_loops_unrolled() {
    let x = data(&[64, 1024]);
    let mean_square = x
        .binary(BinaryOp::Mul, &x)
        .unwrap()
        .reduce(ReduceOp::Add, &[1])
        .unwrap()
        .expand(&[64, 1024])
        .unwrap();
    let scaled = x.binary(BinaryOp::Mul, &mean_square).unwrap();
    let p = plan(&[&scaled], &lavapipe()).unwrap();
    assert_eq!(p.len(), 1, "{:?}", names(&p));
    let s = &p[0].source;
    assert!(!s.contains(" s0["), "{s}");
    assert_eq!(s.matches("[[dont_unroll]] for").count(), 2, "{s}");
    assert!(s.contains("GL_EXT_control_flow_attributes"), "{s}");
    // a softmax's shift keeps its row: its loops index the kept array
    let p = plan(&[&less_row_max(&x)], &lavapipe()).unwrap();
    assert!(!p[0].source.contains("dont_unroll"), "{}", p[0].source);
}

/// A window of a zero padding is a window of what was padded where it lies inside it, zeros
/// where it lies in the padding on some axis, and a shrink of the pad where it straddles.
#[test]
fn a_window_of_a_padding_folds() {
    let x = data(&[3, 5]);
    let padded = x.pad(&[(1, 2), (0, 3)]).unwrap();
    let inside = padded.shrink(&[(1, 3), (2, 5)]).unwrap();
    assert_eq!(inside.id(), x.shrink(&[(0, 2), (2, 5)]).unwrap().id());
    assert_eq!(padded.shrink(&[(1, 4), (0, 5)]).unwrap().id(), x.id());
    let zeros = padded.shrink(&[(0, 4), (5, 8)]).unwrap();
    assert_eq!(zeros.const_value().map(|v| v.as_f64()), Some(0.0));
    assert_eq!(zeros.shape(), [4, 3]);
    let straddling = padded.shrink(&[(0, 2), (0, 5)]).unwrap();
    assert!(
        matches!(straddling.op(), Op::Shrink(_)),
        "{:?}",
        straddling.op()
    );
}

/// A value read through many views (12 windows of it) gets a buffer when it computes from
/// data (`fanout.rs`: each view would compute it again), and stays fused when it is made of
/// constants and index arithmetic alone (an iota's shift amounts, `8 * i`); past 64 views
/// such a value gets one too.
#[test]
fn index_values_read_through_many_views_stay_fused() {
    let windows = |v: &Lazy, n: usize| {
        (0..n)
            .map(|i| v.shrink(&[(i, i + 4)]).unwrap())
            .reduce(|a, b| a.binary(BinaryOp::Add, &b).unwrap())
            .unwrap()
    };
    let data_value = data(&[80]).unary(UnaryOp::Exp2).unwrap();
    let p = plan(&[&windows(&data_value, 12)], &lavapipe()).unwrap();
    assert_eq!(p.len(), 2, "{:?}", names(&p));
    let iota = Lazy::arange_u32(80)
        .unwrap()
        .binary(
            BinaryOp::Mul,
            &Lazy::constant(8u32, DType::U32, &[80]).unwrap(),
        )
        .unwrap();
    let p = plan(&[&windows(&iota, 12)], &lavapipe()).unwrap();
    assert_eq!(p.len(), 1, "{:?}", names(&p));
    let p = plan(&[&windows(&iota, 65)], &lavapipe()).unwrap();
    assert_eq!(p.len(), 2, "{:?}", names(&p));
}

/// The positions `0..n` in order (an embedding of a sequence's positions: `arange` cast to
/// i32, times 1 plus 0, as `DynTensor::arange` makes it, laid along the rows and broadcast
/// along the columns) gather the table's first `n` rows as a window, whose gradient is a pad:
/// no kernel sums a one-hot product. Other positions stay a gather.
#[test]
fn a_gather_of_the_positions_in_order_is_a_window() {
    let k = |v: i32, shape: &[usize]| Lazy::constant(v, DType::I32, shape).unwrap();
    let positions = Lazy::arange_u32(6)
        .unwrap()
        .cast(DType::I32)
        .binary(BinaryOp::Mul, &k(1, &[6]))
        .unwrap()
        .binary(BinaryOp::Add, &k(0, &[6]))
        .unwrap()
        .reshape(&[6, 1])
        .unwrap()
        .expand(&[6, 4])
        .unwrap();
    let table = Lazy::parameter(&data(&[10, 4])).unwrap();
    let rows = table.gather(0, &positions).unwrap();
    assert_eq!(rows.id(), table.narrow(0, 0, 6).unwrap().id());
    let grads = rows.gradient(&[&table], Some(&data(&[6, 4]))).unwrap();
    let p = plan(&[&grads[0]], &lavapipe()).unwrap();
    assert_eq!(names(&p), ["E_10x4_float32"]);
    // one position later, reversed, or along the other axis: gathers
    let later = positions.binary(BinaryOp::Add, &k(1, &[6, 4])).unwrap();
    let reversed = positions.flip(&[0]).unwrap();
    let across = Lazy::arange_u32(4)
        .unwrap()
        .cast(DType::I32)
        .reshape(&[1, 4])
        .unwrap()
        .expand(&[6, 4])
        .unwrap();
    for (what, index, axis) in [
        ("later", &later, 0),
        ("reversed", &reversed, 0),
        ("across", &across, 0),
    ] {
        let g = table.gather(axis, index).unwrap();
        assert!(matches!(g.op(), Op::Gather(_)), "{what}: {:?}", g.op());
    }
}
