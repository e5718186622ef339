//! Multi-output kernels (`schedule/multi.rs`): which elementwise kernels the scheduler packs
//! into one dispatch, within the device's bindings.

use tg_runtime::device::DeviceInfo;
use tg_runtime::kernel::Strategy;
use tg_runtime::realize::plan;
use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, UnaryOp};

use super::{data, lavapipe, names};
use crate::graphs::{self, adam_update, norm_statistics, product};

/// lavapipe with the storage buffers a kernel may bind set (Mesa 22.3 allows millions).
fn with_bindings(bindings: u32) -> DeviceInfo {
    DeviceInfo {
        max_storage_buffers: bindings,
        ..lavapipe()
    }
}

/// The m, v and p updates of `count` parameters of `shape` (each read from buffers of its
/// own: p, its gradient, m and v).
fn adam_step(count: usize, shape: &[usize]) -> Vec<Lazy> {
    let lr = Lazy::constant(0.01f32, DType::F32, shape).unwrap();
    (0..count)
        .flat_map(|_| adam_update(&data(shape), &data(shape), &data(shape), &data(shape), &lr))
        .collect()
}

/// An optimizer step over 12 vectors and 4 matrices: 48 kernels of one output each (m, v and p
/// per parameter) without packing; packed, a kernel takes the updates of 9 parameters of one
/// shape (27 outputs and 36 inputs within 64 bindings), so 3 dispatches.
#[test]
fn an_optimizer_step_over_many_parameters_is_a_few_dispatches() {
    let mut step = adam_step(12, &[64]);
    step.extend(adam_step(4, &[64, 64]));
    let targets: Vec<&Lazy> = step.iter().collect();
    let unpacked = plan(&targets, &with_bindings(0)).unwrap();
    assert_eq!(unpacked.len(), 48, "{:?}", names(&unpacked));
    let packed = plan(&targets, &with_bindings(1 << 20)).unwrap();
    assert_eq!(
        names(&packed),
        ["Ex27_64_float32", "Ex9_64_float32", "Ex12_64x64_float32"],
        "{:?}",
        names(&packed)
    );
    // each output has its binding and its store; p's update reads the new m and v in
    // registers (its inputs are p, g, m and v of each parameter, no output)
    let k = &packed[0];
    assert_eq!(k.kernel.also.len(), 26);
    assert_eq!(k.kernel.inputs.len(), 36);
    for j in 1..27 {
        assert!(k.source.contains(&format!(" o{j}[")), "{}", k.source);
    }
    assert!(!k.source.contains(" o27["), "{}", k.source);
}

/// Fewer bindings pack fewer kernels: with 8, one parameter's m, v and p (3 outputs, 4
/// inputs); with 4, nothing (m and v together take 2 outputs and 3 inputs).
#[test]
fn packing_stays_within_the_device_bindings() {
    let step = adam_step(4, &[64]);
    let targets: Vec<&Lazy> = step.iter().collect();
    let eight = plan(&targets, &with_bindings(8)).unwrap();
    assert_eq!(names(&eight), ["Ex3_64_float32"; 4]);
    assert!(
        eight
            .iter()
            .all(|k| 1 + k.kernel.also.len() + k.kernel.inputs.len() <= 8)
    );
    let four = plan(&targets, &with_bindings(4)).unwrap();
    assert!(
        four.iter()
            .all(|k| 1 + k.kernel.also.len() + k.kernel.inputs.len() <= 4),
        "{:?}",
        names(&four)
    );
    assert_eq!(four.len(), 12, "{:?}", names(&four));
}

/// Only kernels that read each other element for element share a dispatch: a value read
/// through a transpose keeps a kernel of its own; values of another shape are another
/// kernel; a reduction leads a group of its shape, and joins only one led by a reduction.
#[test]
fn only_elementwise_kernels_of_one_shape_pack() {
    let info = with_bindings(1 << 20);
    let x = data(&[8, 8]);
    let a = x.binary(BinaryOp::Mul, &x).unwrap().contiguous();
    let b = a.unary(UnaryOp::Exp2).unwrap().contiguous();
    let direct = plan(&[&a, &b], &info).unwrap();
    assert_eq!(names(&direct), ["Ex2_8x8_float32"]);
    let t = a
        .permute(&[1, 0])
        .unwrap()
        .unary(UnaryOp::Exp2)
        .unwrap()
        .contiguous();
    let through_view = plan(&[&a, &t], &info).unwrap();
    assert_eq!(names(&through_view), ["E_8x8_float32", "E_8x8_float32"]);
    let s = x.reduce(ReduceOp::Add, &[1]).unwrap();
    let y = data(&[8, 1]).unary(UnaryOp::Exp2).unwrap();
    let mixed = plan(&[&a, &s, &y], &info).unwrap();
    assert_eq!(names(&mixed), ["E_8x8_float32", "Rx2_8x1_float32"]);
    // an elementwise kernel before the reduction waits behind it and joins it
    let after = plan(&[&y, &s], &info).unwrap();
    assert_eq!(names(&after), ["Rx2_8x1_float32"]);
    // independent values of one shape pack, reading no member
    let c = data(&[8, 8]).unary(UnaryOp::Sqrt).unwrap();
    let independent = plan(&[&a, &c], &info).unwrap();
    assert_eq!(names(&independent), ["Ex2_8x8_float32"]);
}

/// Elementwise kernels of one size pack whatever their shapes (a `[8, 32]` and a `[32, 8]`
/// weight's updates, a `[256]` one's), each stored at its element's row-major place; a
/// group a reduction leads keeps its shape, so one of the same size stays apart.
#[test]
fn elementwise_kernels_of_one_size_pack_whatever_their_shapes() {
    let info = with_bindings(1 << 20);
    let exp = |shape: &[usize]| data(shape).unary(UnaryOp::Exp2).unwrap();
    let (a, b, c) = (exp(&[8, 32]), exp(&[32, 8]), exp(&[256]));
    let packed = plan(&[&a, &b, &c], &info).unwrap();
    assert_eq!(names(&packed), ["Ex3_8x32_float32"]);
    // the `[32, 8]` member's place `8 i + j` of the group's `[8, 32]` index
    assert_eq!(packed[0].kernel.also[0].shape(), [32, 8]);
    let sums = data(&[8, 32, 4]).reduce(ReduceOp::Add, &[2]).unwrap();
    let led = plan(&[&sums, &b], &info).unwrap();
    assert_eq!(names(&led), ["R_8x32x1_float32", "E_32x8_float32"]);
}

/// A kernel between two of one shape that reads the first's output keeps the order: the
/// first is dispatched before it, not packed with the third. (Rows of 8: a row of 64 is one
/// row kernel writing all three, `row_outputs.rs`.)
#[test]
fn a_reader_in_between_closes_the_group() {
    let info = with_bindings(1 << 20);
    let x = data(&[8]);
    let a = x.unary(UnaryOp::Exp2).unwrap().contiguous();
    // a reduction of a, then a value of a's shape reading the reduction
    let s = a.reduce(ReduceOp::Add, &[0]).unwrap().contiguous();
    let c = s
        .expand(&[8])
        .unwrap()
        .binary(BinaryOp::Add, &x)
        .unwrap()
        .contiguous();
    let p = plan(&[&a, &s, &c], &info).unwrap();
    assert_eq!(p.len(), 3, "{:?}", names(&p));
    assert!(
        p.iter().all(|k| k.kernel.also.is_empty()),
        "{:?}",
        names(&p)
    );
}

/// Members share a var's push-constant words: twenty kernels scaling by one learning rate
/// (a var a replay rebinds) are one dispatch, though twenty vars would not fit lavapipe's
/// 128 bytes of push constants.
#[test]
fn kernels_reading_one_var_share_its_words() {
    let lr = Lazy::var(3, 0.5f32, DType::F32, &[4]).unwrap();
    let scaled: Vec<Lazy> = (0..20)
        .map(|_| data(&[4]).binary(BinaryOp::Mul, &lr).unwrap())
        .collect();
    let p = plan(&scaled.iter().collect::<Vec<_>>(), &with_bindings(1 << 20)).unwrap();
    assert_eq!(names(&p), ["Ex20_4_float32"]);
    assert!(p[0].params <= 31, "{} words", p[0].params);
}

/// Large kernels keep their own dispatch (their work amortizes its cost, and their fresh
/// buffers are recycled one by one): two independent values of 2^19 elements are two
/// kernels, of 2^18 one.
#[test]
fn large_kernels_are_not_packed() {
    let info = with_bindings(1 << 20);
    let two = |n: usize| {
        let a = data(&[n]).unary(UnaryOp::Exp2).unwrap();
        let b = data(&[n]).unary(UnaryOp::Sqrt).unwrap();
        plan(&[&a, &b], &info).unwrap().len()
    };
    assert_eq!(two(1 << 19), 2);
    assert_eq!(two(1 << 18), 1);
}

/// A layer norm's statistics: the variance is read by two kernels, so it gets a buffer, and
/// `1 / sqrt(var + eps)` beside it is computed in the variance's own kernel, a second
/// output, rather than in a dispatch of its own. (Rows of 32, too short for a row kernel:
/// rows of 64 are one row kernel writing the variance and its reciprocal deviation beside
/// the scaled rows, `row_outputs.rs`.)
#[test]
fn an_elementwise_kernel_joins_the_reduction_it_reads() {
    let (_, rstd, scaled) = norm_statistics(&data(&[16, 64]));
    let p = plan(&[&rstd, &scaled], &with_bindings(1 << 20)).unwrap();
    assert_eq!(names(&p), ["Rrx3_16x64_float32"]);
    let (var, rstd, scaled) = norm_statistics(&data(&[16, 32]));
    let p = plan(&[&rstd, &scaled], &with_bindings(1 << 20)).unwrap();
    assert_eq!(p.len(), 2, "{:?}", names(&p));
    let led = p
        .iter()
        .find(|k| !k.kernel.also.is_empty())
        .expect("a led kernel");
    assert_eq!(led.kernel.root.id(), var.id(), "{:?}", names(&p));
    assert_eq!(led.kernel.also[0].id(), rstd.id());
    // no room for a second output: three kernels
    assert_eq!(plan(&[&rstd, &scaled], &with_bindings(2)).unwrap().len(), 3);
}

/// Products of one input with three weights (attention's query, key and value projections)
/// are three reductions of one shape and strategy: the first leads, the others join, one
/// dispatch. Tiled products of three inputs stay three (`shares_loads`).
#[test]
fn reductions_of_one_strategy_share_a_kernel() {
    let x = data(&[16, 64]);
    let products: Vec<Lazy> = (0..3).map(|_| product(&x, &data(&[64, 64]))).collect();
    let targets: Vec<&Lazy> = products.iter().collect();
    let p = plan(&targets, &with_bindings(1 << 20)).unwrap();
    assert_eq!(p.len(), 1, "{:?}", names(&p));
    assert_eq!(p[0].kernel.also.len(), 2);
    assert_eq!(plan(&targets, &with_bindings(0)).unwrap().len(), 3);
    // tiles of products that share no operand gain nothing but a dispatch: three kernels
    let unrelated: Vec<Lazy> = (0..3)
        .map(|_| product(&data(&[16, 64]), &data(&[64, 64])))
        .collect();
    let p = plan(
        &unrelated.iter().collect::<Vec<_>>(),
        &with_bindings(1 << 20),
    )
    .unwrap();
    assert_eq!(names(&p), ["Rt_16x64x1_float32"; 3]);
}

/// An optimizer step over three parameters whose gradients are sums computed in the step, in
/// the order autograd builds it (a sum, then the update reading it): the updates wait behind
/// the sums, where each sum's reader closed its group (four dispatches). A sum keeps its
/// reduced axis (`[1, 64]`), its update is `[64]`: the same elements at the same index, so
/// the updates join the sums' kernel and read them in registers, one dispatch with one loop.
#[test]
fn updates_join_the_sums_they_read() {
    let lr = Lazy::constant(0.01f32, DType::F32, &[64]).unwrap();
    let step: Vec<Lazy> = (0..3)
        .flat_map(|_| {
            let g = data(&[16, 64])
                .reduce(ReduceOp::Add, &[0])
                .unwrap()
                .reshape(&[64])
                .unwrap();
            adam_update(&data(&[64]), &g, &data(&[64]), &data(&[64]), &lr)
        })
        .collect();
    let targets: Vec<&Lazy> = step.iter().collect();
    let p = plan(&targets, &with_bindings(1 << 20)).unwrap();
    assert_eq!(names(&p), ["Rx12_1x64_float32"], "{:?}", names(&p));
    assert_eq!(p[0].source.matches("for (").count(), 1, "{}", p[0].source);
    // each sum is an output, and no input (read in registers)
    assert!(
        p[0].kernel
            .inputs
            .iter()
            .all(|i| i.shape() == [16, 64] || i.shape() == [64])
    );
}

/// Where the device has a loop budget, a led kernel stays within it: two sums of one shape
/// over rows of different lengths (each its own loop) pack under lavapipe's budget, and stay
/// two kernels under a budget that the longer one's loops fit and the packed kernel's do not.
#[test]
fn a_led_kernel_over_the_loop_budget_stays_unpacked() {
    let sums: Vec<Lazy> = [256, 512]
        .iter()
        .map(|&rows| data(&[rows, 64]).reduce(ReduceOp::Add, &[0]).unwrap())
        .collect();
    let targets: Vec<&Lazy> = sums.iter().collect();
    let single = plan(&targets, &with_bindings(0)).unwrap();
    let packed = plan(&targets, &with_bindings(1 << 20)).unwrap();
    assert_eq!(packed.len(), 1, "{:?}", names(&packed));
    let one = single.iter().map(|k| k.loops).max().unwrap();
    assert!(packed[0].loops > one, "{} vs {one}", packed[0].loops);
    let tight = DeviceInfo {
        loop_budget: Some(one),
        ..with_bindings(1 << 20)
    };
    let p = plan(&targets, &tight).unwrap();
    assert_eq!(p.len(), 2, "{:?}", names(&p));
    assert!(p.iter().all(|k| k.loops <= one));
}

/// The gradients of `count` parameters `[64, 64]`, each a sum over the batch of an
/// intermediate `[16, 64, 64]` of its own (256 KiB, stored: `contiguous`), with Adam's update
/// reading it; and, where `peak`, a value reading every intermediate at once before.
fn sums_of_intermediates(count: usize, peak: bool) -> Vec<Lazy> {
    let lr = Lazy::constant(0.01f32, DType::F32, &[64, 64]).unwrap();
    let acts: Vec<Lazy> = (0..count)
        .map(|_| {
            data(&[16, 64, 64])
                .unary(UnaryOp::Exp2)
                .unwrap()
                .contiguous()
        })
        .collect();
    let mut targets = Vec::new();
    if peak {
        let all = acts[1..]
            .iter()
            .fold(acts[0].clone(), |s, a| s.binary(BinaryOp::Add, a).unwrap());
        targets.push(all);
    }
    for a in &acts {
        let g = a
            .reduce(ReduceOp::Add, &[0])
            .unwrap()
            .reshape(&[64, 64])
            .unwrap();
        let p = data(&[64, 64]);
        targets.extend(adam_update(&p, &g, &data(&[64, 64]), &data(&[64, 64]), &lr));
    }
    targets
}

/// A group holds what its members read until its dispatch, so grouping may not raise the
/// schedule's peak of live intermediates by more than 1 MiB (`live.rs`). Six gradients'
/// sums of intermediates all live at once anyway (a training step's activations at its
/// backward's start) are one kernel with their updates, 1.5 MiB held; computed one after the
/// other, each intermediate dead after its sum, holding them all would raise the peak
/// sixfold: a group holds five (one live anyway, four in the slack), the sixth sum is
/// another kernel.
#[test]
fn groups_hold_values_only_within_the_schedules_peak() {
    let info = with_bindings(1 << 20);
    let live_anyway = sums_of_intermediates(6, true);
    let p = plan(&live_anyway.iter().collect::<Vec<_>>(), &info).unwrap();
    assert_eq!(
        names(&p),
        [
            "Ex6_16x64x64_float32",
            "E_16x64x64_float32",
            "Rx24_1x64x64_float32"
        ],
        "{:?}",
        names(&p)
    );
    let one_by_one = sums_of_intermediates(6, false);
    let q = plan(&one_by_one.iter().collect::<Vec<_>>(), &info).unwrap();
    let sums: Vec<String> = names(&q)
        .into_iter()
        .filter(|n| n.starts_with('R'))
        .collect();
    assert_eq!(
        sums,
        ["Rx20_1x64x64_float32", "Rx4_1x64x64_float32"],
        "{:?}",
        names(&q)
    );
}

/// A layer norm whose mean and reciprocal deviation are kept (a training step's backward
/// reads them) is one row kernel writing all three (`row_outputs.rs`): the normalized rows
/// at their outputs, the mean and the deviation once a row. Without room for the further
/// outputs it is the kernels planning gives.
#[test]
fn a_row_kernel_writes_the_row_values_it_computes() {
    let (mean, rstd, normalized) = graphs::layer_norm(&data(&[16, 64]));
    let p = plan(&[&mean, &rstd, &normalized], &with_bindings(1 << 20)).unwrap();
    assert_eq!(names(&p), ["Rrx3_16x64_float32"]);
    let k = &p[0].kernel;
    assert_eq!(k.root.id(), normalized.id());
    let mut also: Vec<u64> = k.also.iter().map(|n| n.id()).collect();
    also.sort_unstable();
    let mut want = [mean.id(), rstd.id()];
    want.sort_unstable();
    assert_eq!(also, want);
    assert!(matches!(p[0].strategy, Strategy::Row { row: 64, .. }));
    // each value of a row is stored once, by its first invocation, after the row's loops
    assert_eq!(
        p[0].source.matches("o1[q] = ").count(),
        1,
        "{}",
        p[0].source
    );
    assert_eq!(
        p[0].source.matches("o2[q] = ").count(),
        1,
        "{}",
        p[0].source
    );
    let apart = plan(&[&mean, &rstd, &normalized], &with_bindings(2)).unwrap();
    assert!(apart.len() > 1, "{:?}", names(&apart));
}

/// A kernel in between that reads a row value (a sum of the means) keeps that value's kernel
/// where it is: the row kernel reads its buffer, and takes in only what may move.
#[test]
fn a_reader_in_between_keeps_a_row_value_apart() {
    let (mean, rstd, normalized) = graphs::layer_norm(&data(&[16, 64]));
    let total = mean.reduce(ReduceOp::Add, &[0]).unwrap();
    let shifted = normalized
        .binary(BinaryOp::Add, &total.expand(&[16, 64]).unwrap())
        .unwrap();
    let p = plan(&[&mean, &total, &rstd, &shifted], &with_bindings(1 << 20)).unwrap();
    let row = p
        .iter()
        .find(|k| matches!(k.strategy, Strategy::Row { .. }))
        .expect("a row kernel");
    assert!(
        row.kernel.also.iter().all(|n| n.id() != mean.id()),
        "{:?}",
        names(&p)
    );
    assert!(
        row.kernel.also.iter().any(|n| n.id() == rstd.id()),
        "{:?}",
        names(&p)
    );
    assert!(
        p.iter().any(|k| k.kernel.root.id() == mean.id()),
        "{:?}",
        names(&p)
    );
}

/// A kernel between the row values and the row kernel that reads one of them but is not read
/// by it (a loss summing the logsumexps) moves after the row kernel, which takes in the
/// maxima and logsumexps: two kernels, the loss last.
#[test]
fn a_reader_the_row_kernel_does_not_need_moves_after_it() {
    let (m, lse, loss, soft) = graphs::softmax_and_loss(&data(&[32, 76]));
    let p = plan(&[&m, &lse, &loss, &soft], &with_bindings(1 << 20)).unwrap();
    assert_eq!(names(&p).len(), 2, "{:?}", names(&p));
    assert_eq!(p[0].kernel.root.id(), soft.id(), "{:?}", names(&p));
    assert_eq!(p[0].kernel.also.len(), 2, "{:?}", names(&p));
    assert_eq!(p[1].kernel.root.id(), loss.id(), "{:?}", names(&p));
}

/// A layer norm over rows too long for one invocation's loops on lavapipe (2^22: the budget
/// of 65,535 back-edges, `fit.rs`) keeps its reductions split: no row kernel takes the split
/// parts back in, and every kernel stays within the budget.
#[test]
fn row_values_past_the_loop_budget_stay_apart() {
    let (mean, rstd, normalized) = graphs::layer_norm(&data(&[4, 1 << 22]));
    let p = plan(&[&mean, &rstd, &normalized], &with_bindings(1 << 20)).unwrap();
    assert!(p.len() > 1, "{:?}", names(&p));
    assert!(p.iter().all(|k| k.loops <= 65_535), "{:?}", names(&p));
    assert!(
        p.iter()
            .all(|k| !matches!(k.strategy, Strategy::Row { .. })),
        "{:?}",
        names(&p)
    );
}

/// A layer's key and value cache writes (window writes of one window at one start) pack
/// into one kernel, each row stored at the same index; writes at another start, or of
/// another window, do not join them.
#[test]
fn window_writes_of_one_window_pack() {
    let cache = || Lazy::empty_buffer(DType::F32, &[4, 2048, 64]).unwrap();
    let row = || data(&[4, 1, 64]);
    let at = Lazy::var(5, 3i32, DType::I32, &[]).unwrap();
    let other = Lazy::var(6, 3i32, DType::I32, &[]).unwrap();
    let k = cache().assign_window(1, &at, &row()).unwrap();
    let v = cache().assign_window(1, &at, &row()).unwrap();
    let packed = plan(&[&k, &v], &with_bindings(1 << 20)).unwrap();
    let writes: Vec<_> = packed
        .iter()
        .filter(|p| p.kernel.root.id() == k.id() || p.kernel.root.id() == v.id())
        .collect();
    assert_eq!(writes.len(), 1, "{:?}", names(&packed));
    assert_eq!(writes[0].kernel.also.len(), 1);

    let elsewhere = cache().assign_window(1, &other, &row()).unwrap();
    let longer = cache().assign_window(1, &at, &data(&[4, 2, 64])).unwrap();
    let apart = plan(&[&k, &elsewhere, &longer], &with_bindings(1 << 20)).unwrap();
    assert!(
        apart.iter().all(|p| p.kernel.also.is_empty()),
        "{:?}",
        names(&apart)
    );
}
