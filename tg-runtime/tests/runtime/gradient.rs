//! Gradients of every primitive against central finite differences computed in f64 on the
//! device, and the rules around them: ties of max share the gradient, detach stops it, only
//! floats have gradients, a non-scalar needs a seed, and a gradient taken after the forward
//! pass was realized walks back through nodes that track gradients.

use tg_runtime::{BinaryOp, DType, Error, Lazy, ReduceOp, TernaryOp, UnaryOp};

/// Deterministic values in `lo..hi`, distinct, none at integers (where trunc jumps).
fn values(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    (0..n)
        .map(|i| {
            let h = (i as u64 * 2_654_435_761 + seed * 40_503) % 1000;
            lo + (hi - lo) * (h as f64 + 0.37) / 1000.0
        })
        .collect()
}

fn input(shape: &[usize], v: &[f64]) -> Lazy {
    Lazy::from_slice(shape, v).unwrap()
}

/// `sum(f(xs) * w)` for fixed weights `w`: a scalar whose gradient covers every output.
fn scalar(out: &Lazy) -> Lazy {
    let n = out.numel();
    let w = input(out.shape(), &values(n, 99, -1.5, 1.5));
    let axes: Vec<usize> = (0..out.ndim()).collect();
    out.binary(BinaryOp::Mul, &w)
        .unwrap()
        .reduce(ReduceOp::Add, &axes)
        .unwrap()
        .reshape(&[])
        .unwrap()
}

/// Checks the gradient of `sum(f(xs) * w)` against central differences, each input's values
/// drawn from its domain.
fn check(name: &str, inputs: &[(&[usize], (f64, f64))], f: impl Fn(&[Lazy]) -> Lazy) {
    check_with(name, inputs, 1e-6, 1e-6, f)
}

/// [`check`] with step `h` and relative tolerance `tol` (a graph that rounds through f32
/// needs a larger step than f64's).
fn check_with(
    name: &str,
    inputs: &[(&[usize], (f64, f64))],
    h: f64,
    tol: f64,
    f: impl Fn(&[Lazy]) -> Lazy,
) {
    let data: Vec<Vec<f64>> = inputs
        .iter()
        .enumerate()
        .map(|(k, (shape, (lo, hi)))| values(shape.iter().product(), k as u64 + 1, *lo, *hi))
        .collect();
    let xs: Vec<Lazy> = inputs
        .iter()
        .zip(&data)
        .map(|((shape, _), v)| input(shape, v))
        .collect();
    let loss = scalar(&f(&xs));
    let targets: Vec<&Lazy> = xs.iter().collect();
    let grads = loss.gradient(&targets, None).unwrap();
    let eval = |data: &[Vec<f64>]| -> f64 {
        let xs: Vec<Lazy> = inputs
            .iter()
            .zip(data)
            .map(|((shape, _), v)| input(shape, v))
            .collect();
        scalar(&f(&xs)).to_vec::<f64>().unwrap()[0]
    };
    for (k, g) in grads.iter().enumerate() {
        assert_eq!(
            g.shape(),
            xs[k].shape(),
            "{name}: gradient shape of input {k}"
        );
        let got = g.to_vec::<f64>().unwrap();
        for i in 0..data[k].len() {
            let mut up = data.clone();
            up[k][i] += h;
            let mut down = data.clone();
            down[k][i] -= h;
            let want = (eval(&up) - eval(&down)) / (2.0 * h);
            assert!(
                (got[i] - want).abs() <= tol * (1.0 + want.abs()),
                "{name}: d/dx{k}[{i}] = {}, finite differences {want}",
                got[i]
            );
        }
    }
}

fn un(op: UnaryOp) -> impl Fn(&[Lazy]) -> Lazy {
    move |x| x[0].unary(op).unwrap()
}

fn bin(op: BinaryOp) -> impl Fn(&[Lazy]) -> Lazy {
    move |x| x[0].binary(op, &x[1]).unwrap()
}

const S: &[usize] = &[2, 3];

#[test]
fn unary_primitives() {
    check("exp2", &[(S, (-2.0, 2.0))], un(UnaryOp::Exp2));
    check("log2", &[(S, (0.2, 3.0))], un(UnaryOp::Log2));
    check("sin", &[(S, (-3.0, 3.0))], un(UnaryOp::Sin));
    check("sqrt", &[(S, (0.2, 3.0))], un(UnaryOp::Sqrt));
    check("recip", &[(S, (0.5, 3.0))], un(UnaryOp::Recip));
    check("neg", &[(S, (-2.0, 2.0))], un(UnaryOp::Neg));
    check("trunc", &[(S, (-2.0, 2.0))], un(UnaryOp::Trunc));
}

#[test]
fn binary_and_ternary_primitives() {
    let two = [(S, (-2.0, 2.0)), (S, (-2.0, 2.0))];
    check("add", &two, bin(BinaryOp::Add));
    check("mul", &two, bin(BinaryOp::Mul));
    check("max", &two, bin(BinaryOp::Max));
    check(
        "pow",
        &[(S, (0.3, 2.5)), (S, (-1.5, 2.0))],
        bin(BinaryOp::Pow),
    );
    check("where", &two, |x| {
        x[0].binary(BinaryOp::CmpLt, &x[1])
            .unwrap()
            .where_(&x[0], &x[1])
            .unwrap()
    });
    check("mulacc", &[two[0], two[1], (S, (-1.0, 1.0))], |x| {
        x[0].mulacc(&x[1], &x[2]).unwrap()
    });
    check_with("cast through f32", &[(S, (-2.0, 2.0))], 1e-2, 1e-3, |x| {
        x[0].cast(DType::F32)
            .unary(UnaryOp::Exp2)
            .unwrap()
            .cast(DType::F64)
    });
}

#[test]
fn reductions_and_movement() {
    let s: &[usize] = &[2, 3, 4];
    check("sum", &[(s, (-2.0, 2.0))], |x| {
        x[0].reduce(ReduceOp::Add, &[1]).unwrap()
    });
    check("max", &[(s, (-2.0, 2.0))], |x| {
        x[0].reduce(ReduceOp::Max, &[0, 2]).unwrap()
    });
    check("prod", &[(s, (0.5, 1.5))], |x| {
        x[0].reduce(ReduceOp::Mul, &[2]).unwrap()
    });
    check("reshape", &[(s, (-2.0, 2.0))], |x| {
        x[0].reshape(&[6, 4]).unwrap().unary(UnaryOp::Sin).unwrap()
    });
    check("expand", &[(&[2, 1, 4], (-2.0, 2.0))], |x| {
        x[0].expand(&[2, 3, 4])
            .unwrap()
            .unary(UnaryOp::Sin)
            .unwrap()
    });
    check("permute", &[(s, (-2.0, 2.0))], |x| {
        x[0].permute(&[2, 0, 1])
            .unwrap()
            .unary(UnaryOp::Exp2)
            .unwrap()
    });
    check("pad", &[(s, (-2.0, 2.0))], |x| {
        x[0].pad(&[(1, 0), (0, 2), (1, 1)]).unwrap()
    });
    check("shrink", &[(s, (-2.0, 2.0))], |x| {
        x[0].shrink(&[(0, 1), (1, 3), (0, 4)]).unwrap()
    });
    check("flip", &[(s, (-2.0, 2.0))], |x| {
        x[0].flip(&[0, 2]).unwrap().unary(UnaryOp::Sin).unwrap()
    });
    check("contiguous", &[(s, (-2.0, 2.0))], |x| {
        x[0].unary(UnaryOp::Sin).unwrap().contiguous()
    });
    check("contiguous_backward", &[(s, (-2.0, 2.0))], |x| {
        x[0].contiguous_backward().unary(UnaryOp::Sin).unwrap()
    });
    // positions repeated (their gradients add up), missed, and out of range on both sides;
    // u8 positions past 255 values would wrap if compared in their own dtype
    let along_1 = [[2i32, 0, 2, -1, 3, 2], [1, 1, 9, 0, 2, 2]];
    let pos: Vec<i32> = (0..2).flat_map(|i| along_1[i].repeat(4)).collect();
    let pos = Lazy::from_slice(&[2, 6, 4], &pos).unwrap();
    check("gather", &[(s, (-2.0, 2.0))], |x| {
        x[0].gather(1, &pos).unwrap().unary(UnaryOp::Sin).unwrap()
    });
    // runs that do not divide the row: the reverse scan pads to whole runs
    check("scan_runs add", &[(&[2, 7], (-2.0, 2.0))], |x| {
        x[0].scan_runs(ReduceOp::Add, 3).unwrap()
    });
    check("scan_runs mul", &[(&[2, 7], (0.5, 1.5))], |x| {
        x[0].scan_runs(ReduceOp::Mul, 3).unwrap()
    });
    // from carries: each run's carry takes the gradient of the whole run
    check(
        "scan_runs_from add",
        &[(&[2, 7], (-2.0, 2.0)), (&[2, 3], (-1.0, 1.0))],
        |x| x[0].scan_runs_from(ReduceOp::Add, 3, &x[1]).unwrap(),
    );
    let wide: Vec<u8> = (0..6 * 3 * 4)
        .map(|i| [299u32, 3, 0, 1][i % 4] as u8)
        .collect();
    let wide = Lazy::from_slice(&[6, 3, 4], &wide).unwrap();
    check("gather_u8_positions", &[(&[300, 3, 4], (-2.0, 2.0))], |x| {
        x[0].gather(0, &wide).unwrap()
    });
}

/// A gather from an axis of one value is a select of the broadcast values: its gradient is
/// the output's summed over the positions that read 0 (those outside read nothing), with no
/// sort of the positions, checked against the host.
#[test]
fn gather_from_one_value_sums_the_positions_that_read_it() {
    let (rows, k) = (3usize, 7usize);
    let table = input(&[rows, 1], &[0.5, -1.0, 2.0]);
    let ids: Vec<i32> = (0..rows * k)
        .map(|i| [0, -1, 0, 1, 5, 0, i32::MIN][i % 7])
        .collect();
    let pos = Lazy::from_slice(&[rows, k], &ids).unwrap();
    let out = table.gather(1, &pos).unwrap();
    assert!(
        !matches!(out.op(), tg_runtime::graph::node::Op::Gather(_)),
        "{:?}",
        out.op()
    );
    let seed = values(rows * k, 3, -1.0, 1.0);
    let g = out
        .gradient(&[&table], Some(&input(&[rows, k], &seed)))
        .unwrap()[0]
        .to_vec::<f64>()
        .unwrap();
    let got = out.to_vec::<f64>().unwrap();
    for r in 0..rows {
        let mut want = 0.0;
        for j in 0..k {
            let first = ids[r * k + j] == 0;
            let v = if first { [0.5, -1.0, 2.0][r] } else { 0.0 };
            assert_eq!(got[r * k + j], v, "value at ({r}, {j})");
            if first {
                want += seed[r * k + j];
            }
        }
        assert!((g[r] - want).abs() <= 1e-12, "row {r}: {} vs {want}", g[r]);
    }
}

/// The gather's gradient sums into positions through a sort of them: checked against sums
/// made on the host, for many writes per position, positions outside the axis (negative,
/// past it, 64-bit), rows of their own and an index expanded along the other axis (one sort
/// shared by the columns).
#[test]
fn gather_gradient_sums_into_positions_like_the_host() {
    let (n, k, cols) = (300usize, 2000usize, 3usize);
    let table = input(&[n, cols], &values(n * cols, 5, -1.0, 1.0));
    let ids: Vec<i64> = (0..k)
        .map(|i| match i % 97 {
            0 => -1,
            1 => n as i64,
            2 => 1 << 40,
            _ => ((i * i * 7 + 3 * i) % (n + 11)) as i64,
        })
        .collect();
    let seed = values(k * cols, 8, -1.0, 1.0);
    let host = |pos: &dyn Fn(usize, usize) -> i64| -> Vec<f64> {
        let mut out = vec![0.0; n * cols];
        for i in 0..k {
            for c in 0..cols {
                let p = pos(i, c);
                if (0..n as i64).contains(&p) {
                    out[p as usize * cols + c] += seed[i * cols + c];
                }
            }
        }
        out
    };
    let expanded = Lazy::from_slice(&[k, 1], &ids)
        .unwrap()
        .expand(&[k, cols])
        .unwrap();
    let own: Vec<i64> = (0..k * cols)
        .map(|j| ids[(j / cols + 17 * (j % cols)) % k])
        .collect();
    let own_rows = Lazy::from_slice(&[k, cols], &own).unwrap();
    let cases: [(&str, Lazy, Vec<f64>); 2] = [
        ("expanded", expanded, host(&|i, _| ids[i])),
        ("per column", own_rows, host(&|i, c| own[i * cols + c])),
    ];
    for (name, pos, want) in cases {
        let out = table.gather(0, &pos).unwrap();
        let g = out
            .gradient(&[&table], Some(&input(&[k, cols], &seed)))
            .unwrap();
        let got = g[0].to_vec::<f64>().unwrap();
        for (i, (a, b)) in got.iter().zip(&want).enumerate() {
            assert!(
                (a - b).abs() <= 1e-12 * (1.0 + b.abs()),
                "{name}: slot {i}: {a} vs {b}"
            );
        }
    }
}

#[test]
fn ties_share_the_gradient_and_detach_stops_it() {
    let a = input(&[4], &[1.0, 2.0, 3.0, 3.0]);
    let b = input(&[4], &[1.0, 5.0, 0.0, 3.0]);
    let m = a.binary(BinaryOp::Max, &b).unwrap();
    let loss = m.reduce(ReduceOp::Add, &[0]).unwrap().reshape(&[]).unwrap();
    let g = loss.gradient(&[&a, &b], None).unwrap();
    assert_eq!(g[0].to_vec::<f64>().unwrap(), vec![0.5, 0.0, 1.0, 0.5]);
    assert_eq!(g[1].to_vec::<f64>().unwrap(), vec![0.5, 1.0, 0.0, 0.5]);
    // reduce-max: the two maxima of a row share it
    let x = input(&[2, 3], &[4.0, 1.0, 4.0, 0.0, 7.0, 2.0]);
    let loss = x
        .reduce(ReduceOp::Max, &[1])
        .unwrap()
        .reduce(ReduceOp::Add, &[0, 1])
        .unwrap()
        .reshape(&[])
        .unwrap();
    let g = loss.gradient(&[&x], None).unwrap();
    assert_eq!(
        g[0].to_vec::<f64>().unwrap(),
        vec![0.5, 0.0, 0.5, 0.0, 1.0, 0.0]
    );
    // x * detach(x): the detached factor is a constant
    let x = input(&[3], &[1.0, 2.0, 3.0]);
    let loss = x
        .binary(BinaryOp::Mul, &x.detach())
        .unwrap()
        .reduce(ReduceOp::Add, &[0])
        .unwrap()
        .reshape(&[])
        .unwrap();
    let g = loss.gradient(&[&x], None).unwrap();
    assert_eq!(g[0].to_vec::<f64>().unwrap(), vec![1.0, 2.0, 3.0]);
}

/// A value with its own derivative rule: the gradient goes to the rule's inputs as it says,
/// not through the ops (here a rule that scales, so it is told apart from the ops' own),
/// also past the value and from several consumers, and a rule is dropped with the sources.
#[test]
fn a_value_with_its_own_derivative_rule() {
    let x = input(&[3], &[1.0, 2.0, 3.0]);
    let y = input(&[3], &[4.0, 5.0, 6.0]);
    // x * y, whose rule says d/dx = 10 g and gives y nothing
    let p = x.binary(BinaryOp::Mul, &y).unwrap();
    let ten = x.constant_like(10.0, DType::F64);
    let p = p.with_gradient(&[&x, &y], move |g| {
        Ok(vec![Some(g.binary(BinaryOp::Mul, &ten)?), None])
    });
    // read twice: through an exp2 (its gradient ln2 2^p g) and plainly
    let e = p.unary(UnaryOp::Exp2).unwrap();
    let loss = e
        .binary(BinaryOp::Add, &p)
        .unwrap()
        .reduce(ReduceOp::Add, &[0])
        .unwrap()
        .reshape(&[])
        .unwrap();
    let g = loss.gradient(&[&x, &y], None).unwrap();
    let want: Vec<f64> = [4.0f64, 10.0, 18.0]
        .iter()
        .map(|&v| 10.0 * (1.0 + std::f64::consts::LN_2 * v.exp2()))
        .collect();
    let got = g[0].to_vec::<f64>().unwrap();
    assert!(
        got.iter()
            .zip(&want)
            .all(|(a, b)| (a - b).abs() <= 1e-9 * b.abs()),
        "{got:?} vs {want:?}"
    );
    assert_eq!(g[1].to_vec::<f64>().unwrap(), vec![0.0; 3]);
    // realized without tracking, the node drops its sources and its rule: no path is left
    p.realize().unwrap();
    let again = p
        .reduce(ReduceOp::Add, &[0])
        .unwrap()
        .reshape(&[])
        .unwrap()
        .gradient(&[&x], None);
    assert!(matches!(again, Err(Error::Argument { .. })), "{again:?}");
}

#[test]
fn rules_of_the_seed() {
    let x = input(&[3], &[1.0, 2.0, 3.0]);
    // a non-scalar needs the gradient of the result
    let y = x.unary(UnaryOp::Sin).unwrap();
    assert!(matches!(
        y.gradient(&[&x], None),
        Err(Error::Shape { op: "gradient", .. })
    ));
    let seed = input(&[3], &[1.0, 0.0, -1.0]);
    let g = y.gradient(&[&x], Some(&seed)).unwrap();
    let got = g[0].to_vec::<f64>().unwrap();
    assert!((got[0] - 1f64.cos()).abs() < 1e-12 && got[1] == 0.0);
    // only floats
    let i = Lazy::from_slice(&[3], &[1i32, 2, 3]).unwrap();
    let s = i.reduce(ReduceOp::Add, &[0]).unwrap().reshape(&[]).unwrap();
    assert!(matches!(
        s.gradient(&[&i], None),
        Err(Error::DType {
            op: "gradient",
            dtype: DType::I32,
            ..
        })
    ));
    // a target the value does not depend on: zeros
    let other = input(&[2], &[5.0, 6.0]);
    let loss = y.reduce(ReduceOp::Add, &[0]).unwrap().reshape(&[]).unwrap();
    let g = loss.gradient(&[&other], None).unwrap();
    assert_eq!(g[0].to_vec::<f64>().unwrap(), vec![0.0, 0.0]);
    // integer paths carry nothing: the gradient through a comparison is zero
    let w = x
        .binary(BinaryOp::CmpLt, &input(&[3], &[2.0, 2.0, 2.0]))
        .unwrap()
        .cast(DType::F64)
        .binary(BinaryOp::Mul, &x)
        .unwrap();
    let loss = w.reduce(ReduceOp::Add, &[0]).unwrap().reshape(&[]).unwrap();
    let g = loss.gradient(&[&x], None).unwrap();
    assert_eq!(g[0].to_vec::<f64>().unwrap(), vec![1.0, 0.0, 0.0]);
    let _ = TernaryOp::Where;
}

#[test]
fn a_gradient_after_the_forward_pass_was_realized() {
    let sum_of_exp2 = |x: &Lazy| {
        x.unary(UnaryOp::Exp2)
            .unwrap()
            .reduce(ReduceOp::Add, &[0])
            .unwrap()
            .reshape(&[])
            .unwrap()
    };
    // untracked: realizing frees the graph, and the gradient says so
    let x = input(&[3], &[1.0, 2.0, 3.0]);
    let loss = sum_of_exp2(&x);
    loss.realize().unwrap();
    assert!(matches!(
        loss.gradient(&[&x], None),
        Err(Error::Argument { op: "gradient", .. })
    ));
    // tracked: the forward pass keeps its sources, so the loss can be read first
    let x = input(&[3], &[1.0, 2.0, 3.0]).track_gradient();
    let loss = sum_of_exp2(&x);
    assert_eq!(loss.to_vec::<f64>().unwrap(), vec![14.0]);
    let g = loss.gradient(&[&x], None).unwrap();
    let ln2 = std::f64::consts::LN_2;
    assert_eq!(
        g[0].to_vec::<f64>().unwrap(),
        vec![2.0 * ln2, 4.0 * ln2, 8.0 * ln2]
    );
}

#[test]
fn a_million_op_chain_differentiates_without_recursion() {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            let x = input(&[2], &[1.0, 2.0]);
            let mut y = x.clone();
            let k = Lazy::constant(1.0f64, DType::F64, &[2]).unwrap();
            for _ in 0..200_000 {
                y = y.binary(BinaryOp::Add, &k).unwrap();
            }
            let loss = y.reduce(ReduceOp::Add, &[0]).unwrap().reshape(&[]).unwrap();
            let g = loss.gradient(&[&x], None).unwrap();
            assert_eq!(g[0].to_vec::<f64>().unwrap(), vec![1.0, 1.0]);
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
}
