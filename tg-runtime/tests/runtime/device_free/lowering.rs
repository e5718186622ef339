//! Lowering's passes, each on a small program (`codegen::lower::PASSES`): what the program
//! holds with a pass and without it, and the choices the heuristic makes.

use tg_runtime::codegen::lower::{Choices, PASSES, Pass, lower, lower_with};
use tg_runtime::codegen::program::{Ins, Program, VarKind};
use tg_runtime::codegen::symbolic::Atom;
use tg_runtime::device::DeviceInfo;
use tg_runtime::kernel::{Kernel, LANES, Strategy, tile_axes};
use tg_runtime::realize::plan;
use tg_runtime::target::{Lowering, Target};
use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, TernaryOp, UnaryOp};

use super::{data, gpu, lavapipe};

/// The kernel a realize of `y` runs last on `info`, as the scheduler hands it to lowering,
/// and what `info`'s target lets lowering take.
fn last_kernel(y: &Lazy, info: &DeviceInfo) -> (Kernel, Lowering) {
    let planned = plan(&[y], info).unwrap();
    let k = planned.last().expect("a kernel").kernel.clone();
    (k, Target::of(info).lowering)
}

/// The placed instructions of `p` (in some block) that `f` picks.
fn placed(p: &Program, f: impl Fn(&Ins) -> bool) -> Vec<Ins> {
    p.blocks
        .iter()
        .flat_map(|b| &b.ins)
        .map(|&v| p.ins[v].clone())
        .filter(|i| f(i))
        .collect()
}

fn loads(p: &Program) -> Vec<Ins> {
    placed(p, |i| matches!(i, Ins::Load { .. }))
}

fn vector_loads(p: &Program, vectors: usize) -> usize {
    placed(
        p,
        |i| matches!(i, Ins::VecLoad { vectors: v, .. } if *v == vectors),
    )
    .len()
}

/// `Pass::Outputs` rewrites a movement's index into its source's: a reshape's split and
/// flatten cancel back into affine reads, a flip reads `n - 1 - i`, a pad reads under a
/// condition (a plain load reads zero outside it, so no select wraps it).
#[test]
fn outputs_index_movements_as_arithmetic() {
    let outputs_only = |y: &Lazy| {
        let (k, lowering) = last_kernel(y, &gpu());
        lower_with(&k, lowering, Choices::plain(k.strategy), &[Pass::Outputs])
    };
    let affine = |i: &Ins| match i {
        Ins::Load { index, .. } => index.terms().iter().all(|(a, _)| matches!(a, Atom::Var(_))),
        _ => false,
    };
    let y = data(&[4, 8])
        .reshape(&[32])
        .unwrap()
        .unary(UnaryOp::Exp2)
        .unwrap();
    let p = outputs_only(&y);
    assert_eq!(loads(&p).len(), 4);
    assert!(loads(&p).iter().all(affine), "{:?}", loads(&p));

    let y = data(&[32])
        .flip(&[0])
        .unwrap()
        .unary(UnaryOp::Exp2)
        .unwrap();
    let p = outputs_only(&y);
    let firsts: Vec<i64> = loads(&p)
        .iter()
        .map(|i| match i {
            Ins::Load { index, .. } => index.constant_part(),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(
        firsts,
        [31, 30, 29, 28],
        "lane l of group q reads 31 - 4q - l"
    );

    let y = data(&[30])
        .pad(&[(1, 1)])
        .unwrap()
        .unary(UnaryOp::Exp2)
        .unwrap();
    let p = outputs_only(&y);
    // the first lane's read is below the start for the first group, the last's past the end
    // for the last group; the middle lanes' conditions fold away
    let guarded = |i: &Ins| matches!(i, Ins::Load { valid, .. } if !valid.is_always());
    assert_eq!(
        loads(&p).iter().filter(|i| guarded(i)).count(),
        2,
        "{:?}",
        loads(&p)
    );
    assert!(placed(&p, |i| matches!(i, Ins::Ternary(..))).is_empty());
}

/// `Pass::Outputs` makes a reduction a loop of its own trip count, unrolled by 4 (8 where
/// loads pair), with an accumulator for each output lane; reductions of one trip count share
/// the loop.
#[test]
fn reductions_become_loops_that_reductions_share() {
    let y = data(&[64, 256]).reduce(ReduceOp::Add, &[1]).unwrap();
    for (info, steps) in [(gpu(), 64), (lavapipe(), 32)] {
        let (k, lowering) = last_kernel(&y, &info);
        let p = lower_with(&k, lowering, Choices::plain(Strategy::Serial), &PASSES);
        let loops: Vec<_> = p.blocks.iter().filter_map(|b| b.loop_var).collect();
        assert_eq!(loops.len(), 1, "{}", info.name);
        assert_eq!(loops[0].1, steps, "{}", info.name);
        assert_eq!(
            p.blocks[1].accs.len(),
            LANES,
            "an accumulator an output lane"
        );
    }
    // a variance's two sums: one loop, two accumulators a lane
    let x = data(&[16, 64]);
    let s = x.reduce(ReduceOp::Add, &[1]).unwrap();
    let ss = x
        .binary(BinaryOp::Mul, &x)
        .unwrap()
        .reduce(ReduceOp::Add, &[1])
        .unwrap();
    let y = s.binary(BinaryOp::Add, &ss).unwrap();
    let (k, lowering) = last_kernel(&y, &gpu());
    let p = lower_with(&k, lowering, Choices::plain(Strategy::Serial), &PASSES);
    let loops: Vec<_> = p.blocks.iter().filter(|b| b.loop_var.is_some()).collect();
    assert_eq!(loops.len(), 1);
    assert_eq!(loops[0].accs.len(), 2 * LANES);
}

/// `Pass::Outputs` reads a gather's values at its position, checked and clamped into the
/// axis, as an index variable of its own (so the values' reads stay plain index arithmetic).
#[test]
fn gathers_read_at_a_position_variable() {
    let values = data(&[10, 4]);
    let index = Lazy::empty_buffer(DType::I32, &[6, 4]).unwrap();
    let y = values.gather(0, &index).unwrap();
    let (k, lowering) = last_kernel(&y, &gpu());
    let p = lower_with(&k, lowering, Choices::plain(k.strategy), &PASSES);
    let positions = p
        .vars
        .iter()
        .filter(|v| matches!(v, VarKind::Value(_)))
        .count();
    assert_eq!(positions, LANES, "a position per lane: {:?}", p.vars);
    // each lane: inside the axis (negative, or past its end), the clamp, zero outside
    let selects = placed(&p, |i| matches!(i, Ins::Ternary(TernaryOp::Where, ..))).len();
    assert_eq!(selects, 3 * LANES);
}

/// `Pass::UnreadStashes`: a layernorm's row kernel keeps what each of its reductions folds,
/// but its output reads only the deviations, so the squares' array goes.
#[test]
fn unread_stashes_are_dropped() {
    let x = data(&[64, 256]);
    let inv = |t: &Lazy| {
        t.binary(
            BinaryOp::Mul,
            &Lazy::constant(1.0 / 256.0, DType::F32, t.shape()).unwrap(),
        )
        .unwrap()
        .expand(x.shape())
        .unwrap()
    };
    let mean = inv(&x.reduce(ReduceOp::Add, &[1]).unwrap());
    let d = x
        .binary(BinaryOp::Add, &mean.unary(UnaryOp::Neg).unwrap())
        .unwrap();
    let var = inv(&d
        .binary(BinaryOp::Mul, &d)
        .unwrap()
        .reduce(ReduceOp::Add, &[1])
        .unwrap());
    let y = d
        .binary(BinaryOp::Mul, &var.unary(UnaryOp::Recip).unwrap())
        .unwrap();
    let (k, lowering) = last_kernel(&y, &lavapipe());
    assert!(
        matches!(k.strategy, Strategy::Row { .. }),
        "{:?}",
        k.strategy
    );
    let choices = Choices::plain(k.strategy);
    // the arrays kept (`Ins::Stash`) that no instruction reads back (`Ins::Unstash`)
    let unread = |p: &Program| {
        let slots = |stash: bool| -> Vec<usize> {
            placed(p, |_| true)
                .iter()
                .filter_map(|i| match i {
                    Ins::Stash { slot, .. } if stash => Some(*slot),
                    Ins::Unstash { slot, .. } if !stash => Some(*slot),
                    _ => None,
                })
                .collect()
        };
        let read = slots(false);
        slots(true).iter().filter(|s| !read.contains(s)).count()
    };
    let without: Vec<Pass> = PASSES
        .into_iter()
        .filter(|&p| p != Pass::UnreadStashes)
        .collect();
    assert!(unread(&lower_with(&k, lowering, choices, &without)) > 0);
    let p = lower_with(&k, lowering, choices, &PASSES);
    assert_eq!(unread(&p), 0);
    assert!(
        p.stashes.iter().any(|&(_, len)| len == 0),
        "{:?}",
        p.stashes
    );
}

/// `Pass::VectorLoads` reads four consecutive elements as one vector, and `Pass::PairedLoads`
/// two adjacent vectors as one wide load (where the target loads pairs).
#[test]
fn loads_become_vectors_then_pairs() {
    let y = data(&[64]).binary(BinaryOp::Add, &data(&[64])).unwrap();
    let (k, lowering) = last_kernel(&y, &lavapipe());
    let choices = Choices {
        out_vectors: 2,
        ..Choices::plain(Strategy::Serial)
    };
    let p = lower_with(&k, lowering, choices, &[Pass::Outputs]);
    assert_eq!((loads(&p).len(), vector_loads(&p, 1)), (16, 0));
    let p = lower_with(&k, lowering, choices, &[Pass::Outputs, Pass::VectorLoads]);
    assert_eq!((loads(&p).len(), vector_loads(&p, 1)), (0, 4));
    let p = lower_with(&k, lowering, choices, &PASSES);
    assert_eq!((vector_loads(&p, 1), vector_loads(&p, 2)), (0, 2));
    // a GPU's target reads vectors, not pairs
    let gpu = Target::of(&gpu()).lowering;
    let p = lower_with(&k, gpu, choices, &PASSES);
    assert_eq!((vector_loads(&p, 1), vector_loads(&p, 2)), (4, 0));
}

/// The heuristic keeps the tile axis with the fewest loads, and on a CPU pairs the stores of
/// a kernel without loops and gives an invocation several vectors.
#[test]
fn the_heuristic_makes_lowerings_choices() {
    // a batch of matmuls, (8, 16, 32) by (8, 32, 64): its rows may run along the batch or
    // the rows of each product
    let a = data(&[8, 16, 32, 1]).expand(&[8, 16, 32, 64]).unwrap();
    let b = data(&[8, 1, 32, 64]).expand(&[8, 16, 32, 64]).unwrap();
    let y = a
        .binary(BinaryOp::Mul, &b)
        .unwrap()
        .reduce(ReduceOp::Add, &[2])
        .unwrap();
    let (k, lowering) = last_kernel(&y, &gpu());
    let Strategy::Tile { rows, cols, .. } = k.strategy else {
        panic!("{:?}", k.strategy)
    };
    let axes = tile_axes(k.root.shape(), rows, cols);
    assert!(axes.len() > 1, "{axes:?}");
    let by_axis: Vec<usize> = axes
        .iter()
        .map(|&tile_axis| {
            let choices = Choices {
                tile_axis,
                ..Choices::plain(k.strategy)
            };
            lower_with(&k, lowering, choices, &PASSES).loads()
        })
        .collect();
    // along the batch, each row of A is loaded for itself: more loads
    assert!(by_axis.iter().min() < by_axis.iter().max(), "{by_axis:?}");
    assert_eq!(
        lower(&k, lowering).loads(),
        *by_axis.iter().min().unwrap(),
        "{by_axis:?}"
    );

    let y = data(&[1 << 16]).unary(UnaryOp::Exp2).unwrap();
    for (info, pairs) in [(lavapipe(), (2, 2)), (gpu(), (1, 1))] {
        let (k, lowering) = last_kernel(&y, &info);
        let p = lower(&k, lowering);
        assert_eq!((p.out_vectors, p.vectors), pairs, "{}", info.name);
    }
}

/// A serial reduction reading an operand in blocks (a quantized weight's per-block scale:
/// one value per 32 elements of the reduction, so the plain loop of 8-element steps loads it
/// again at every step) unrolls by four steps, so the block's scale is one load an
/// iteration and its weights a run of wide loads; a plain matrix-vector product keeps its
/// steps (deeper unrolling would save it no load).
#[test]
fn a_blocked_operand_unrolls_the_reduction_by_its_block() {
    let (rows, blocks, per) = (64, 24, 32);
    let k_len = blocks * per;
    let x = data(&[1, 1, k_len]).expand(&[1, rows, k_len]).unwrap();
    let product = |w: Lazy| {
        x.binary(BinaryOp::Mul, &w.reshape(&[1, rows, k_len]).unwrap())
            .unwrap()
            .reduce(ReduceOp::Add, &[2])
            .unwrap()
    };
    let scale = data(&[rows, blocks, 1])
        .expand(&[rows, blocks, per])
        .unwrap();
    let blocked = product(
        data(&[rows, blocks, per])
            .binary(BinaryOp::Mul, &scale)
            .unwrap(),
    );
    let plain = product(data(&[rows, blocks, per]));
    let trip = |p: &Program| -> Vec<i64> {
        p.blocks
            .iter()
            .filter_map(|b| b.loop_var.map(|v| v.1))
            .collect()
    };
    for (y, deep) in [(&blocked, true), (&plain, false)] {
        let (mut k, lowering) = last_kernel(y, &lavapipe());
        // (the scheduler makes it serial where the outputs keep a CPU's cores busy)
        k.strategy = Strategy::Serial;
        let usual = lower_with(&k, lowering, Choices::plain(Strategy::Serial), &PASSES);
        let chosen = lower(&k, lowering);
        // steps of 8 elements (two vectors a wide load) usually, of 32 where it pays
        assert_eq!(trip(&usual), vec![(k_len / 8) as i64]);
        let want = if deep { k_len / 32 } else { k_len / 8 };
        assert_eq!(trip(&chosen), vec![want as i64], "deep {deep}");
        if deep {
            // an iteration loads x (4 pairs), 4 rows' weights (4 pairs each) and 4 scales
            // where 4 plain iterations loaded x (4), weights (4 x 4) and scales (4 x 4)
            assert!(
                chosen.loads() < 4 * usual.loads(),
                "{} {}",
                chosen.loads(),
                usual.loads()
            );
        }
    }
}

/// A product over weights unpacked from words by shifts that an iota makes (a quantized
/// matmul's, as `tg-gguf` builds it): the iota's digits are pads of constants, and however
/// often the tile reads them they stay in its kernel (no kernel computes the shifts into a
/// buffer for the tile to load); the shift amounts are computed once, before its loop.
#[test]
fn unpacking_shifts_stay_in_the_product() {
    let (m, n, k) = (32, 4096, 768);
    let words = Lazy::empty_buffer(DType::U32, &[n, k / 4, 1])
        .unwrap()
        .expand(&[n, k / 4, 4])
        .unwrap();
    let shifts = Lazy::arange_u32(4)
        .unwrap()
        .binary(
            BinaryOp::Mul,
            &Lazy::constant(8u32, DType::U32, &[4]).unwrap(),
        )
        .unwrap()
        .reshape(&[1, 1, 4])
        .unwrap()
        .expand(&[n, k / 4, 4])
        .unwrap();
    let weights = words
        .binary(BinaryOp::Shr, &shifts)
        .unwrap()
        .cast(DType::U8)
        .bitcast(DType::I8)
        .unwrap()
        .cast(DType::F32)
        .binary(
            BinaryOp::Mul,
            &Lazy::constant(0.5f32, DType::F32, &[n, k / 4, 4]).unwrap(),
        )
        .unwrap()
        .reshape(&[1, n, k])
        .unwrap()
        .expand(&[m, n, k])
        .unwrap();
    let x = data(&[m, 1, k]).expand(&[m, n, k]).unwrap();
    let y = x
        .binary(BinaryOp::Mul, &weights)
        .unwrap()
        .reduce(ReduceOp::Add, &[2])
        .unwrap();
    let planned = plan(&[&y], &lavapipe()).unwrap();
    let names: Vec<&str> = planned.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names.len(), 1, "{names:?}");
    let (kernel, lowering) = last_kernel(&y, &lavapipe());
    let p = lower(&kernel, lowering);
    // the packed words are its only integer input; every shift's amount is in the root block
    assert_eq!(
        kernel
            .inputs
            .iter()
            .filter(|i| i.dtype() == DType::U32)
            .count(),
        1
    );
    let root_params = p.blocks[Program::ROOT]
        .ins
        .iter()
        .filter(|&&v| {
            matches!(
                p.ins[v],
                Ins::Param {
                    dtype: DType::U32,
                    ..
                }
            )
        })
        .count();
    let all_params = placed(&p, |i| {
        matches!(
            i,
            Ins::Param {
                dtype: DType::U32,
                ..
            }
        )
    })
    .len();
    assert!(
        root_params > 0 && root_params == all_params,
        "{root_params} of {all_params}"
    );
}

/// A reshape flattens and re-splits only the axes whose grouping it changes
/// (`kernel::reshape_groups`): rows stored block by block and grouped by their remainder mod
/// 4 (`[blocks, 4, rows / 4, words]`, as tg-gguf stores a quantized plane for CPU kernels),
/// viewed as `[rows, blocks, words, 1]` and reduced over the blocks and words, load at
/// affine indices. With the whole middle of the reshape flattened, the block index came back
/// as `(b + 24 i) mod 24` and the like, since the loop counter's bound is a push constant
/// the shader does not know.
#[test]
fn a_reshape_re_splits_only_the_axes_it_regroups() {
    use tg_runtime::kernel::reshape_groups;
    assert_eq!(
        reshape_groups(&[256, 4, 24, 8], &[1024, 24, 8, 1]),
        [(0..2, 0..1), (2..3, 1..2), (3..4, 2..3), (4..4, 3..4)]
    );
    assert_eq!(reshape_groups(&[6, 4], &[4, 6]), [(0..2, 0..2)]);
    // a unit axis inside a group joins it; one at a group's start is its own
    assert_eq!(reshape_groups(&[2, 1, 3], &[6]), [(0..3, 0..1)]);
    assert_eq!(reshape_groups(&[1, 6], &[6]), [(0..1, 0..0), (1..2, 0..1)]);
    assert_eq!(reshape_groups(&[0, 3], &[3, 0]), [(0..2, 0..2)]);

    let (rows, blocks, words) = (1024, 24, 8);
    let w = Lazy::empty_buffer(DType::U32, &[blocks, 4, rows / 4, words])
        .unwrap()
        .permute(&[2, 1, 0, 3])
        .unwrap()
        .reshape(&[rows, blocks, words, 1])
        .unwrap()
        .cast(DType::F32);
    let y = w.reduce(ReduceOp::Add, &[1, 2, 3]).unwrap();
    let (kernel, lowering) = last_kernel(&y, &lavapipe());
    let p = lower(&kernel, lowering);
    let index_of = |i: &Ins| match i {
        Ins::Load { index, .. } => Some(index.clone()),
        Ins::VecLoad { vindex, .. } => Some(vindex.clone()),
        _ => None,
    };
    let indices: Vec<_> = placed(&p, |i| index_of(i).is_some())
        .iter()
        .filter_map(index_of)
        .collect();
    assert!(!indices.is_empty());
    for index in &indices {
        assert!(
            index
                .terms()
                .iter()
                .all(|(a, _)| !matches!(a, Atom::Div(..) | Atom::Mod(..))),
            "{index:?}"
        );
    }
}

/// A window write (`Lazy::assign_window`) whose rows are whole vectors runs over its rows
/// alone: a decode step's one row of a `[heads, 2048, 64]` cache is 256 elements a kernel,
/// each vector stored at an index holding the start (a position variable read from the push
/// constants), only where its row lies inside the cache. Rows of 3 elements are not whole
/// vectors: that write covers its whole target, each element keeping its value outside the
/// window.
#[test]
fn a_window_write_covers_its_rows() {
    let write = |shape: &[usize], rows: usize| {
        let mut value = shape.to_vec();
        value[1] = rows;
        let cache = Lazy::empty_buffer(DType::F32, shape).unwrap();
        let new = Lazy::empty_buffer(DType::F32, &value).unwrap();
        let start = Lazy::var(77, 5i32, DType::I32, &[]).unwrap();
        let y = cache.assign_window(1, &start, &new).unwrap();
        let (kernel, lowering) = last_kernel(&y, &lavapipe());
        lower(&kernel, lowering)
    };
    let p = write(&[4, 2048, 64], 1);
    assert_eq!(p.numel, 4 * 64);
    assert_eq!(vector_loads(&p, 1), 1, "the row is read as vectors");
    let position = |v: u32| matches!(p.vars[v as usize], VarKind::Value(_));
    assert!(
        p.out_index[0]
            .terms()
            .iter()
            .any(|(a, _)| matches!(a, Atom::Var(v) if position(v.id))),
        "{:?}",
        p.out_index
    );
    let kept = &p.kept_where[0];
    assert_eq!(kept.len(), LANES);
    let first = kept[0].expect("a kept condition").0;
    assert!(kept.iter().all(|k| k.is_some_and(|(c, _)| c == first)));

    let p = write(&[2, 10, 3], 4);
    assert_eq!(p.numel, 2 * 10 * 3, "the whole target");
    assert!(p.kept_where[0].iter().all(Option::is_some));
}
