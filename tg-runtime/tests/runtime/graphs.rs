//! Graphs several test modules build: kept here once.

use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, UnaryOp};

/// `x - v` with `v` (`[rows, 1]`) broadcast over the rows of `x` (`[rows, cols]`).
fn minus_rows(x: &Lazy, v: &Lazy) -> Lazy {
    x.binary(
        BinaryOp::Add,
        &v.expand(x.shape()).unwrap().unary(UnaryOp::Neg).unwrap(),
    )
    .unwrap()
}

/// The row maxima of `x` (`[rows, cols]`, kept as `[rows, 1]`) and `2^(x - max)`: the shared
/// first steps of softmax and logsumexp, in base 2 so that they use the primitive `exp2`.
pub fn base2_shifted_exps(x: &Lazy) -> (Lazy, Lazy) {
    let m = x.reduce(ReduceOp::Max, &[1]).unwrap();
    let e = minus_rows(x, &m).unary(UnaryOp::Exp2).unwrap();
    (m, e)
}

/// `2^(x - max) / sum(2^(x - max))` over the rows of `x` (`[rows, cols]`): softmax's shape of
/// graph.
pub fn base2_softmax(x: &Lazy) -> Lazy {
    let (_, e) = base2_shifted_exps(x);
    let t = e
        .reduce(ReduceOp::Add, &[1])
        .unwrap()
        .expand(x.shape())
        .unwrap();
    e.binary(BinaryOp::Mul, &t.unary(UnaryOp::Recip).unwrap())
        .unwrap()
}

/// Adam's update of one parameter as an optimizer step writes it, each value assigned in place:
/// `m = b1 m + (1 - b1) g`, `v = b2 v + (1 - b2) g^2`, `p = p - lr m / (sqrt(v) + eps)` (no
/// bias corrections; `lr` a tensor of `p`'s shape, a var where a replay rebinds it). Returns
/// the new m, v and p; the update of p reads the new m and v.
pub fn adam_update(p: &Lazy, g: &Lazy, m: &Lazy, v: &Lazy, lr: &Lazy) -> [Lazy; 3] {
    let c = |x: f32| Lazy::constant(x, p.dtype(), p.shape()).unwrap();
    let mul = |a: &Lazy, b: &Lazy| a.binary(BinaryOp::Mul, b).unwrap();
    let add = |a: &Lazy, b: &Lazy| a.binary(BinaryOp::Add, b).unwrap();
    let m2 = m.assign(&add(&mul(m, &c(0.9)), &mul(g, &c(0.1)))).unwrap();
    let v2 = v
        .assign(&add(&mul(v, &c(0.999)), &mul(&mul(g, g), &c(0.001))))
        .unwrap();
    let denom = add(&v2.unary(UnaryOp::Sqrt).unwrap(), &c(1e-8));
    let step = mul(&mul(&m2, &denom.unary(UnaryOp::Recip).unwrap()), lr);
    let p2 = p
        .assign(&add(p, &step.unary(UnaryOp::Neg).unwrap()))
        .unwrap();
    [m2, v2, p2]
}

/// `1 / sqrt(var + 1e-5)`: a layer norm's reciprocal deviation from its variance.
pub fn reciprocal_deviation(var: &Lazy) -> Lazy {
    let eps = Lazy::constant(1e-5f32, DType::F32, var.shape()).unwrap();
    var.binary(BinaryOp::Add, &eps)
        .unwrap()
        .unary(UnaryOp::Sqrt)
        .unwrap()
        .unary(UnaryOp::Recip)
        .unwrap()
}

/// `x [M, K] @ w [K, N]` as a broadcast product summed over K: `[M, N, 1]`.
pub fn product(x: &Lazy, w: &Lazy) -> Lazy {
    let (m, k) = (x.shape()[0], x.shape()[1]);
    let n = w.shape()[1];
    let xs = x.reshape(&[m, 1, k]).unwrap().expand(&[m, n, k]).unwrap();
    let ws = w
        .permute(&[1, 0])
        .unwrap()
        .reshape(&[1, n, k])
        .unwrap()
        .expand(&[m, n, k])
        .unwrap();
    xs.binary(BinaryOp::Mul, &ws)
        .unwrap()
        .reduce(ReduceOp::Add, &[2])
        .unwrap()
}

/// A layer norm of `x` `[rows, cols]` over each row as its ops write it: the mean
/// (`[rows, 1]`), the reciprocal deviation `1 / sqrt(var + 1e-5)` (`[rows, 1]`) and the
/// normalized rows, the three values a training step keeps (its backward reads the first
/// two).
pub fn layer_norm(x: &Lazy) -> (Lazy, Lazy, Lazy) {
    let (rows, cols) = (x.shape()[0], x.shape()[1]);
    let per_row = |v: &Lazy| {
        v.reduce(ReduceOp::Add, &[1])
            .unwrap()
            .binary(
                BinaryOp::Mul,
                &Lazy::constant(1.0 / cols as f32, DType::F32, &[rows, 1]).unwrap(),
            )
            .unwrap()
    };
    let mean = per_row(x);
    let centered = minus_rows(x, &mean);
    let var = per_row(&centered.binary(BinaryOp::Mul, &centered).unwrap());
    let rstd = reciprocal_deviation(&var);
    let normalized = centered
        .binary(BinaryOp::Mul, &rstd.expand(&[rows, cols]).unwrap())
        .unwrap();
    (mean, rstd, normalized)
}

/// A softmax of `x` `[rows, cols]` over each row from its maxima and logsumexps (base e,
/// `[rows, 1]` each), and a loss (`[1, 1]`) summing the logsumexps, built before the
/// softmax: (maxima, logsumexps, loss, softmax).
pub fn softmax_and_loss(x: &Lazy) -> (Lazy, Lazy, Lazy, Lazy) {
    let (rows, cols) = (x.shape()[0], x.shape()[1]);
    let log2e = Lazy::constant(std::f32::consts::LOG2_E, DType::F32, &[rows, cols]).unwrap();
    let ln2 = Lazy::constant(std::f32::consts::LN_2, DType::F32, &[rows, 1]).unwrap();
    let m = x.reduce(ReduceOp::Max, &[1]).unwrap();
    let lse = minus_rows(x, &m)
        .binary(BinaryOp::Mul, &log2e)
        .unwrap()
        .unary(UnaryOp::Exp2)
        .unwrap()
        .reduce(ReduceOp::Add, &[1])
        .unwrap()
        .unary(UnaryOp::Log2)
        .unwrap()
        .binary(BinaryOp::Mul, &ln2)
        .unwrap()
        .binary(BinaryOp::Add, &m)
        .unwrap();
    let loss = lse.reduce(ReduceOp::Add, &[0]).unwrap();
    let soft = minus_rows(x, &lse)
        .binary(BinaryOp::Mul, &log2e)
        .unwrap()
        .unary(UnaryOp::Exp2)
        .unwrap();
    (m, lse, loss, soft)
}

/// The sum of squares of `x` `[rows, cols]` over each row (a variance, `[rows, 1]`), its
/// [`reciprocal_deviation`], and another reader of it (`var * x`): the variance is read by two
/// kernels.
pub fn norm_statistics(x: &Lazy) -> (Lazy, Lazy, Lazy) {
    let var = x
        .binary(BinaryOp::Mul, x)
        .unwrap()
        .reduce(ReduceOp::Add, &[1])
        .unwrap();
    let rstd = reciprocal_deviation(&var);
    let scaled = var
        .expand(x.shape())
        .unwrap()
        .binary(BinaryOp::Mul, x)
        .unwrap();
    (var, rstd, scaled)
}
