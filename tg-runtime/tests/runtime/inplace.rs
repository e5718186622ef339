//! In-place writes: parameters (buffers of their own), `assign`, the order of kernels around
//! a write, and record/replay of steps that update parameters in place.

use tg_runtime::device::Device;
use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, record};

fn full(v: f32, shape: &[usize]) -> Lazy {
    Lazy::constant(v, DType::F32, shape).unwrap()
}

/// One SGD-like step on the host: w - 0.5 * (w * x).
fn host_step(w: &[f32], x: &[f32]) -> Vec<f32> {
    w.iter().zip(x).map(|(w, x)| w - 0.5 * (w * x)).collect()
}

fn step(w: &Lazy, x: &Lazy) -> Lazy {
    let g = w.binary(BinaryOp::Mul, x).unwrap();
    let upd = w
        .binary(
            BinaryOp::Add,
            &g.binary(BinaryOp::Mul, &full(-0.5, w.shape())).unwrap(),
        )
        .unwrap();
    w.assign(&upd).unwrap()
}

#[test]
fn equal_constants_are_one_node_and_parameters_are_distinct() {
    let a = full(0.0, &[8]);
    let b = full(0.0, &[8]);
    assert_eq!(a.id(), b.id(), "hash-consed");
    let p = Lazy::parameter(&a).unwrap();
    let q = Lazy::parameter(&b).unwrap();
    p.realize().unwrap();
    q.realize().unwrap();
    assert_ne!(
        p.node_buffer_id(),
        q.node_buffer_id(),
        "each parameter has a buffer of its own"
    );
    let p2 = p.assign(&full(3.0, &[8])).unwrap();
    p2.realize().unwrap();
    assert_eq!(p2.to_vec::<f32>().unwrap(), vec![3.0; 8]);
    assert_eq!(
        q.to_vec::<f32>().unwrap(),
        vec![0.0; 8],
        "the other is untouched"
    );
    assert_eq!(p2.node_buffer_id(), p.node_buffer_id(), "written in place");
    // only buffers of their own take writes
    assert!(a.assign(&b).is_err());
    assert!(p.assign(&full(1.0, &[4])).is_err());
}

#[test]
fn an_update_reads_the_old_value_and_writes_in_place() {
    let x: Vec<f32> = (0..1000).map(|i| (i % 3) as f32 * 0.25).collect();
    let lx = Lazy::from_slice(&[1000], &x).unwrap();
    let mut w = Lazy::parameter(&full(1.0, &[1000])).unwrap();
    w.realize().unwrap();
    let id = w.node_buffer_id();
    let mut host = vec![1.0f32; 1000];
    for _ in 0..5 {
        w = step(&w, &lx);
        w.realize().unwrap();
        host = host_step(&host, &x);
        assert_eq!(w.node_buffer_id(), id);
    }
    assert_eq!(w.to_vec::<f32>().unwrap(), host);
}

#[test]
fn a_write_that_reads_elsewhere_goes_through_a_copy() {
    // w = transpose(w) cannot be written element by element into w itself
    let v: Vec<f32> = (0..64 * 64).map(|i| i as f32).collect();
    let w = Lazy::parameter(&Lazy::from_slice(&[64, 64], &v).unwrap()).unwrap();
    let t = w.assign(&w.permute(&[1, 0]).unwrap()).unwrap();
    let got = t.to_vec::<f32>().unwrap();
    for i in 0..64 {
        for j in 0..64 {
            assert_eq!(got[i * 64 + j], v[j * 64 + i]);
        }
    }
    // a reduction of the target, broadcast back: also not element for element
    let w = Lazy::parameter(&Lazy::from_slice(&[4, 8], &v[..32]).unwrap()).unwrap();
    let s = w
        .reduce(ReduceOp::Add, &[1])
        .unwrap()
        .expand(&[4, 8])
        .unwrap();
    let got = w.assign(&s).unwrap().to_vec::<f32>().unwrap();
    for r in 0..4 {
        let want: f32 = v[r * 8..r * 8 + 8].iter().sum();
        assert!(got[r * 8..r * 8 + 8].iter().all(|&g| g == want));
    }
}

#[test]
fn readers_of_the_old_contents_run_before_the_write() {
    let w = Lazy::parameter(&full(2.0, &[256])).unwrap();
    w.realize().unwrap();
    let old = w.binary(BinaryOp::Mul, &full(10.0, &[256])).unwrap();
    let new = w.assign(&full(5.0, &[256])).unwrap();
    // one realize, the write listed first
    tg_runtime::realize(&[&new, &old]).unwrap();
    assert_eq!(old.to_vec::<f32>().unwrap(), vec![20.0; 256]);
    assert_eq!(new.to_vec::<f32>().unwrap(), vec![5.0; 256]);
}

#[test]
fn a_replayed_step_updates_parameters_like_eager_steps() {
    // a device of its own: its memory statistics count this test's buffers only, not those of
    // the tests running beside it on the default device
    let index = Device::get().unwrap().info().index;
    let device = Device::open(&index.to_string()).unwrap();
    device.scope(|| {
        let x: Vec<f32> = (0..4096).map(|i| ((i * 7) % 5) as f32 * 0.1).collect();
        let lx = Lazy::from_slice(&[4096], &x).unwrap();
        // eager: 100 steps
        let mut eager = Lazy::parameter(&full(1.0, &[4096])).unwrap();
        for _ in 0..100 {
            eager = step(&eager, &lx);
            eager.realize().unwrap();
        }
        // recorded once, replayed 99 times: the parameter is captured, written in place each
        // time
        let w = Lazy::parameter(&full(1.0, &[4096])).unwrap();
        w.realize().unwrap();
        let (first, rec) = record(&[&lx], || Ok(vec![step(&w, &lx)])).unwrap();
        let mut memory = Vec::new();
        let mut last = first[0].clone();
        for _ in 0..99 {
            last = rec.replay(&[&lx]).unwrap().remove(0);
            tg_runtime::synchronize().unwrap();
            memory.push(device.memory_stats().live_bytes);
        }
        assert_eq!(
            last.to_vec::<f32>().unwrap(),
            eager.to_vec::<f32>().unwrap()
        );
        assert_eq!(w.to_vec::<f32>().unwrap(), eager.to_vec::<f32>().unwrap());
        // device memory is flat from the second replay on
        assert!(
            memory.windows(2).skip(1).all(|m| m[0] == m[1]),
            "{memory:?}"
        );
    });
}

#[test]
fn a_replay_rebinds_vars_without_compiling() {
    let x: Vec<f32> = (0..512).map(|i| i as f32).collect();
    let lx = Lazy::from_slice(&[512], &x).unwrap();
    let body = |lr: f32| {
        let v = Lazy::var(7, lr, DType::F32, &[512]).unwrap();
        vec![lx.binary(BinaryOp::Mul, &v).unwrap()]
    };
    let (first, rec) = record(&[&lx], || Ok(body(0.5))).unwrap();
    assert_eq!(rec.vars(), vec![7]);
    assert_eq!(first[0].to_vec::<f32>().unwrap()[3], 1.5);
    let compiles = tg_runtime::thread_stats().compiles;
    for i in 0..50 {
        let lr = i as f32 * 0.25;
        let out = rec
            .replay_with(&[&lx], &[(7, tg_runtime::Scalar::Float(lr as f64))])
            .unwrap();
        let got = out[0].to_vec::<f32>().unwrap();
        assert_eq!(got[3], 3.0 * lr, "lr {lr}");
    }
    // unbound, a var keeps its recorded value
    assert_eq!(
        rec.replay(&[&lx]).unwrap()[0].to_vec::<f32>().unwrap()[4],
        2.0
    );
    assert_eq!(
        tg_runtime::thread_stats().compiles,
        compiles,
        "nothing compiled"
    );
}

/// Writes `new` (`[2, 1, 8]`, broadcast) into the rows of `cache` (`[2, 10, 8]`) where `pick`
/// holds, keeping the rest: `assign(where(pick, new, cache))`.
fn write_where(cache: &Lazy, new: &Lazy, pick: &Lazy) -> Lazy {
    let value = pick
        .where_(&new.expand(&[2, 10, 8]).unwrap(), cache)
        .unwrap();
    cache.assign(&value).unwrap()
}

/// A write that keeps its target wherever a condition fails stores only where it holds
/// (`Program::kept_where`): a row at a position rebound each replay, as a KV cache's, and a
/// condition that differs within a stored vector (each column its own), which stores every
/// element. The other rows keep their values step after step.
#[test]
fn a_write_kept_where_a_condition_fails_keeps_the_rest() {
    let init: Vec<f32> = (0..160).map(|i| i as f32).collect();
    let cache = Lazy::parameter(&Lazy::from_slice(&[2, 10, 8], &init).unwrap()).unwrap();
    let rows = Lazy::arange_u32(10)
        .unwrap()
        .cast(DType::I32)
        .reshape(&[1, 10, 1])
        .unwrap()
        .expand(&[2, 10, 8])
        .unwrap();
    // the parameter's own copy of its init runs now, not in every replay
    tg_runtime::realize(&[&cache]).unwrap();
    let new = Lazy::from_slice(&[2, 1, 8], &[-1.0f32; 16]).unwrap();
    let (_, rec) = record(&[&new], || {
        let at = Lazy::var(901, 3i32, DType::I32, &[2, 10, 8]).unwrap();
        Ok(vec![write_where(
            &cache,
            &new,
            &rows.binary(BinaryOp::CmpEq, &at).unwrap(),
        )])
    })
    .unwrap();
    let mut want = init.clone();
    let write = |want: &mut Vec<f32>, row: usize, v: f32| {
        for h in 0..2 {
            for c in 0..8 {
                want[(h * 10 + row) * 8 + c] = v;
            }
        }
    };
    write(&mut want, 3, -1.0);
    for (step, row) in [7usize, 0, 9].into_iter().enumerate() {
        let v = -(step as f32) - 2.0;
        let new = Lazy::from_slice(&[2, 1, 8], &[v; 16]).unwrap();
        rec.replay_with(&[&new], &[(901, tg_runtime::Scalar::Int(row as i64))])
            .unwrap();
        write(&mut want, row, v);
    }
    // read what the buffer holds now (a fresh node over the parameter's buffer)
    let now = cache
        .binary(BinaryOp::Add, &full(0.0, &[2, 10, 8]))
        .unwrap();
    assert_eq!(now.to_vec::<f32>().unwrap(), want);

    // the columns' own condition: every other column of every row
    let cols = Lazy::arange_u32(8)
        .unwrap()
        .reshape(&[1, 1, 8])
        .unwrap()
        .expand(&[2, 10, 8])
        .unwrap();
    let odd = cols
        .binary(
            BinaryOp::Mod,
            &Lazy::constant(2u32, DType::U32, &[2, 10, 8]).unwrap(),
        )
        .unwrap()
        .binary(
            BinaryOp::CmpEq,
            &Lazy::constant(1u32, DType::U32, &[2, 10, 8]).unwrap(),
        )
        .unwrap();
    let new = Lazy::from_slice(&[2, 1, 8], &[5.0f32; 16]).unwrap();
    let got = write_where(&cache, &new, &odd).to_vec::<f32>().unwrap();
    for (i, w) in want.iter_mut().enumerate() {
        if i % 2 == 1 {
            *w = 5.0;
        }
    }
    assert_eq!(got, want);
}

/// `target[:, s:s + T, :] = value` on the host, rows past the end dropped.
fn host_window(target: &mut [f32], shape: [usize; 3], value: &[f32], rows: usize, s: usize) {
    let [outer, cap, inner] = shape;
    for o in 0..outer {
        for t in 0..rows.min(cap.saturating_sub(s)) {
            let to = (o * cap + s + t) * inner;
            let from = (o * rows + t) * inner;
            target[to..to + inner].copy_from_slice(&value[from..from + inner]);
        }
    }
}

/// A window write at a position rebound each replay (a KV cache's row) writes that row and
/// keeps the rest, past the end nothing, compiling nothing new; a value that reads the
/// target (its own first rows, doubled) is computed before the write; a kernel of the same
/// realize that reads the old contents runs before it.
#[test]
fn a_window_write_at_a_rebound_position_writes_that_row() {
    let shape = [2usize, 10, 8];
    let init: Vec<f32> = (0..160).map(|i| i as f32).collect();
    let cache = Lazy::parameter(&Lazy::from_slice(&shape, &init).unwrap()).unwrap();
    tg_runtime::realize(&[&cache]).unwrap();
    let new = Lazy::from_slice(&[2, 1, 8], &[-1.0f32; 16]).unwrap();
    let (_, rec) = record(&[&new], || {
        let at = Lazy::var(902, 3i32, DType::I32, &[]).unwrap();
        Ok(vec![cache.assign_window(1, &at, &new).unwrap()])
    })
    .unwrap();
    let mut want = init.clone();
    host_window(&mut want, shape, &[-1.0; 16], 1, 3);
    let compiles = tg_runtime::thread_stats().compiles;
    for (step, row) in [7usize, 0, 9, 10, 12].into_iter().enumerate() {
        let v = -(step as f32) - 2.0;
        let new = Lazy::from_slice(&[2, 1, 8], &[v; 16]).unwrap();
        rec.replay_with(&[&new], &[(902, tg_runtime::Scalar::Int(row as i64))])
            .unwrap();
        host_window(&mut want, shape, &[v; 16], 1, row);
    }
    assert_eq!(
        tg_runtime::thread_stats().compiles,
        compiles,
        "nothing compiled"
    );
    let now = |c: &Lazy| c.binary(BinaryOp::Add, &full(0.0, &shape)).unwrap();
    assert_eq!(now(&cache).to_vec::<f32>().unwrap(), want);

    // rows 0..3 doubled, written at row 8 (the last dropped), with the old total beside it
    let doubled = cache
        .shrink(&[(0, 2), (0, 3), (0, 8)])
        .unwrap()
        .binary(BinaryOp::Mul, &full(2.0, &[2, 3, 8]))
        .unwrap();
    let old_total = cache.reduce(ReduceOp::Add, &[0, 1, 2]).unwrap();
    let at = Lazy::constant(8i32, DType::I32, &[1]).unwrap();
    let written = cache.assign_window(1, &at, &doubled).unwrap();
    tg_runtime::realize(&[&old_total, &written]).unwrap();
    assert_eq!(
        old_total.to_vec::<f32>().unwrap()[0],
        want.iter().sum::<f32>()
    );
    let rows: Vec<f32> = (0..2)
        .flat_map(|o| want[o * 80..o * 80 + 24].to_vec())
        .map(|x| 2.0 * x)
        .collect();
    host_window(&mut want, shape, &rows, 3, 8);
    assert_eq!(written.to_vec::<f32>().unwrap(), want);
}

/// A window write names what is wrong: a target that is not a buffer of its own, an axis
/// past the rank, a value that is not a window of the target (another shape elsewhere, more
/// rows than the axis), another dtype, a start that is not one integer.
#[test]
fn a_window_write_refuses_what_it_cannot_write() {
    use tg_runtime::Error;
    let cache = Lazy::empty_buffer(DType::F32, &[2, 10, 8]).unwrap();
    let row = Lazy::empty_buffer(DType::F32, &[2, 1, 8]).unwrap();
    let at = Lazy::constant(0i32, DType::I32, &[]).unwrap();
    let computed = cache
        .binary(BinaryOp::Add, &full(1.0, &[2, 10, 8]))
        .unwrap();
    let err = |r: tg_runtime::Result<Lazy>| r.expect_err("refused");
    assert!(matches!(
        err(computed.assign_window(1, &at, &row)),
        Error::Argument {
            op: "assign_window",
            ..
        }
    ));
    assert!(matches!(
        err(cache.assign_window(3, &at, &row)),
        Error::AxisOutOfRange {
            op: "assign_window",
            ..
        }
    ));
    for shape in [[2usize, 1, 4], [2, 11, 8]] {
        let value = Lazy::empty_buffer(DType::F32, &shape).unwrap();
        let e = err(cache.assign_window(1, &at, &value));
        assert!(
            matches!(e, Error::Shape { op: "assign_window", ref message } if message.contains(&format!("{shape:?}"))),
            "{e}"
        );
    }
    let ints = Lazy::empty_buffer(DType::I32, &[2, 1, 8]).unwrap();
    assert!(matches!(
        err(cache.assign_window(1, &at, &ints)),
        Error::DTypeMismatch {
            op: "assign_window",
            ..
        }
    ));
    let float_at = Lazy::constant(0.0f32, DType::F32, &[]).unwrap();
    assert!(matches!(
        err(cache.assign_window(1, &float_at, &row)),
        Error::DType {
            op: "assign_window",
            dtype: DType::F32,
            ..
        }
    ));
    let two = Lazy::constant(0i32, DType::I32, &[2]).unwrap();
    assert!(matches!(
        err(cache.assign_window(1, &two, &row)),
        Error::Shape {
            op: "assign_window",
            ..
        }
    ));
}

/// Two window writes at one start (a layer's keys and values) are one kernel storing both;
/// each target gets its own rows.
#[test]
fn window_writes_at_one_start_write_both_targets() {
    let shape = [2usize, 6, 4];
    let zeros = vec![0.0f32; 48];
    let keys = Lazy::parameter(&Lazy::from_slice(&shape, &zeros).unwrap()).unwrap();
    let values = Lazy::parameter(&Lazy::from_slice(&shape, &zeros).unwrap()).unwrap();
    tg_runtime::realize(&[&keys, &values]).unwrap();
    let k_rows: Vec<f32> = (0..16).map(|i| i as f32 + 1.0).collect();
    let v_rows: Vec<f32> = (0..16).map(|i| -(i as f32) - 1.0).collect();
    let at = Lazy::var(903, 4i32, DType::I32, &[]).unwrap();
    let k = keys
        .assign_window(1, &at, &Lazy::from_slice(&[2, 2, 4], &k_rows).unwrap())
        .unwrap();
    let v = values
        .assign_window(1, &at, &Lazy::from_slice(&[2, 2, 4], &v_rows).unwrap())
        .unwrap();
    let report = tg_runtime::realize_report(&[&k, &v], false).unwrap();
    assert_eq!(report.kernels.len(), 1, "{report:?}");
    let (mut want_k, mut want_v) = (zeros.clone(), zeros);
    host_window(&mut want_k, shape, &k_rows, 2, 4);
    host_window(&mut want_v, shape, &v_rows, 2, 4);
    assert_eq!(k.to_vec::<f32>().unwrap(), want_k);
    assert_eq!(v.to_vec::<f32>().unwrap(), want_v);
}
