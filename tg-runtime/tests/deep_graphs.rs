//! Very deep graphs: dropping one unrealized does not overflow the stack.

use tg_runtime::{DType, Lazy, UnaryOp};

#[test]
fn dropping_a_deep_unrealized_graph_does_not_recurse() {
    // run on a small stack so that recursion per level would certainly overflow
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let mut x = Lazy::constant(1.0f32, DType::F32, &[4])
                .unwrap()
                .contiguous();
            for _ in 0..200_000 {
                x = x.unary(UnaryOp::Neg).unwrap();
            }
            drop(x);
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
}
