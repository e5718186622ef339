//! Very deep graphs: dropping, scheduling, lowering and realizing one does not overflow the
//! stack, and compile time grows linearly with depth.

use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, UnaryOp};

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

fn long_tests() -> bool {
    tg_runtime::config::switch(tg_runtime::config::Var::LongTests)
}

/// Realizes `x = x + 1` repeated `n` times on a thread with the main thread's usual 8 MiB
/// stack: lowering is iterative and kernels are capped in size, so depth costs neither stack
/// nor superlinear compile time. Returns the kernels it took.
fn add_chain(n: usize) -> u64 {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            let before = tg_runtime::thread_stats().kernels;
            let mut x = Lazy::from_slice(&[4], &[0.5f32, 1.5, 2.5, 3.5]).unwrap();
            let one = Lazy::constant(1.0f32, DType::F32, &[4]).unwrap();
            for _ in 0..n {
                x = x.binary(tg_runtime::BinaryOp::Add, &one).unwrap();
            }
            let want: Vec<f32> = [0.5f32, 1.5, 2.5, 3.5]
                .iter()
                .map(|v| v + n as f32)
                .collect();
            assert_eq!(x.to_vec::<f32>().unwrap(), want);
            tg_runtime::thread_stats().kernels - before
        })
        .unwrap()
        .join()
        .expect("no stack overflow")
}

#[test]
fn a_deep_chain_realizes_on_a_normal_stack() {
    // 7,000 ops overflowed the stack when lowering recursed once per op
    let kernels = add_chain(20_000);
    // the kernel-size cap splits the chain; its pieces share one structure
    assert!(kernels > 1, "{kernels} kernel(s)");
}

#[test]
fn chains_of_a_hundred_thousand_and_a_million_ops_realize() {
    if !long_tests() {
        return;
    }
    let start = std::time::Instant::now();
    add_chain(100_000);
    println!("100,000-op chain: {:.1} s", start.elapsed().as_secs_f64());
    let start = std::time::Instant::now();
    add_chain(1_000_000);
    println!("1,000,000-op chain: {:.1} s", start.elapsed().as_secs_f64());
}

/// Reductions nested deeper than a u128 can count: before the scheduler gives them buffers,
/// the one region holding them all evaluates the innermost value 64^25 times per output
/// (past 2^128; the count overflowed, a panic in debug builds). They schedule and realize.
#[test]
fn reductions_nested_past_u128_evaluations_realize() {
    let mut x = Lazy::from_slice(&[64], &[1.0f32; 64]).unwrap();
    let scale = Lazy::constant(1.0f32 / 64.0, DType::F32, &[64, 64]).unwrap();
    for _ in 0..24 {
        x = x
            .reshape(&[1, 64])
            .unwrap()
            .expand(&[64, 64])
            .unwrap()
            .binary(BinaryOp::Mul, &scale)
            .unwrap()
            .reduce(ReduceOp::Add, &[1])
            .unwrap()
            .reshape(&[64])
            .unwrap();
    }
    assert_eq!(x.to_vec::<f32>().unwrap(), vec![1.0; 64]);
}
