//! Graphs several test binaries build: kept here once.

use tg_runtime::{BinaryOp, Lazy, ReduceOp, UnaryOp};

/// `2^(x - max) / sum(2^(x - max))` over the rows of `x` (`[rows, cols]`): softmax's shape of
/// graph, in base 2 so that it uses the primitive `exp2`.
pub fn base2_softmax(x: &Lazy) -> Lazy {
    let shape = x.shape().to_vec();
    let m = x
        .reduce(ReduceOp::Max, &[1])
        .unwrap()
        .expand(&shape)
        .unwrap();
    let e = x
        .binary(BinaryOp::Add, &m.unary(UnaryOp::Neg).unwrap())
        .unwrap()
        .unary(UnaryOp::Exp2)
        .unwrap();
    let t = e
        .reduce(ReduceOp::Add, &[1])
        .unwrap()
        .expand(&shape)
        .unwrap();
    e.binary(BinaryOp::Mul, &t.unary(UnaryOp::Recip).unwrap())
        .unwrap()
}
