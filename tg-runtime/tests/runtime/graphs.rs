//! Graphs several test modules build: kept here once.

use tg_runtime::{BinaryOp, Lazy, ReduceOp, UnaryOp};

/// The row maxima of `x` (`[rows, cols]`, kept as `[rows, 1]`) and `2^(x - max)`: the shared
/// first steps of softmax and logsumexp, in base 2 so that they use the primitive `exp2`.
pub fn base2_shifted_exps(x: &Lazy) -> (Lazy, Lazy) {
    let m = x.reduce(ReduceOp::Max, &[1]).unwrap();
    let e = x
        .binary(
            BinaryOp::Add,
            &m.expand(x.shape()).unwrap().unary(UnaryOp::Neg).unwrap(),
        )
        .unwrap()
        .unary(UnaryOp::Exp2)
        .unwrap();
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
