//! End-to-end checks small enough for an emulated ARM CPU (`scripts/aarch64.sh` runs them
//! under qemu on arm64 lavapipe, from a bundle made on the build machine): the README's first
//! examples, a `tensor!` expression and a `#[kernel]` function that records and replays.
//! Every test installs the embedded bundle first; in a build without the compiler (or with
//! `TG_BUNDLE_ONLY=1`) a kernel missing from it fails the test that needed it.

use tg::prelude::*;
use tg::runtime::{BinaryOp, Lazy, ReduceOp, thread_stats};

fn setup() -> usize {
    tg_smoke::install_embedded().expect("the embedded bundle")
}

#[test]
fn smoke_device() {
    let embedded = setup();
    let device = tg::runtime::device::Device::get().expect("a Vulkan device");
    // the line scripts/aarch64.sh shows
    println!(
        "smoke: {} on {}, compiler {}, {embedded} kernel(s) embedded",
        std::env::consts::ARCH,
        device.info().name,
        if tg::runtime::compile::HAS_COMPILER {
            "in"
        } else {
            "out"
        },
    );
}

#[test]
fn readme_taste() {
    setup();
    let a = Tensor::<Rank2<2, 3>>::from_slice(&[1., 2., 3., 4., 5., 6.]).unwrap();
    let n: Vec<f32> = a.to_vec().unwrap();
    assert_eq!(n, [1., 2., 3., 4., 5., 6.]);

    let a = Lazy::from_slice(&[16, 40], &vec![1.0f32; 640]).unwrap();
    let s = a
        .binary(BinaryOp::Add, &a)
        .unwrap()
        .binary(BinaryOp::Mul, &a)
        .unwrap()
        .reduce(ReduceOp::Add, &[1])
        .unwrap();
    let before = thread_stats().kernels;
    assert_eq!(s.to_vec::<f32>().unwrap(), vec![80.0; 16]);
    assert_eq!(thread_stats().kernels - before, 1, "one fused kernel");
}

#[test]
fn tensor_expression() {
    setup();
    let x: Tensor<Rank2<2, 3>> = tensor!([[1., 2., 3.], [4., 5., 6.]]);
    let w: Tensor<Rank2<3, 2>> = tensor!([[1., 0.], [0., 1.], [1., 1.]]);
    let b: Tensor<Rank1<2>> = tensor!([10., 20.]);
    let y: Tensor<Rank2<2, 2>> = tensor!(x @ w * 2.0 + b);
    assert_eq!(y.to_vec().unwrap(), [18., 30., 30., 42.]);
}

/// The README's `#[kernel]` example (its reshape written as a flatten): a convolution, a
/// pool, a matmul and a softmax, the kernels a phone runs from the embedded bundle.
#[kernel]
fn classify<const B: usize>(
    images: Tensor<shape![B, 1, 28, 28]>,
    filters: Tensor<shape![8, 1, 3, 3]>,
    head: Tensor<shape![1352, 10]>,
) -> Tensor<shape![B, 10]> {
    let pooled = images.conv2d(filters).relu().max_pool2d(2);
    pooled.flatten(1).matmul(head).softmax(-1)
}

fn ramp<S: Shape + StaticShape>(n: usize, scale: f32) -> Tensor<S> {
    let v: Vec<f32> = (0..n).map(|i| ((i * 37) % 101) as f32 * scale).collect();
    Tensor::from_slice(&v).unwrap()
}

#[test]
fn kernel_records_and_replays() {
    setup();
    let x = ramp::<Rank4<2, 1, 28, 28>>(2 * 28 * 28, 0.01);
    let w = ramp::<Rank4<8, 1, 3, 3>>(72, 0.002);
    let fc = ramp::<Rank2<1352, 10>>(13520, 0.0001);
    let first = classify(x.clone(), w.clone(), fc.clone()).to_vec().unwrap();
    for row in first.chunks(10) {
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-4, "{row:?}");
    }
    let replayed = classify(x, w, fc).to_vec().unwrap();
    assert_eq!(first, replayed);
}

#[test]
fn embedded_kernels_need_no_compiler() {
    let embedded = setup();
    if embedded == 0 {
        // The recording run (with the compiler: without it, setup fails on an empty bundle).
        return;
    }
    // Every kernel of this binary is in the bundle, so nothing compiles in this process, even
    // where the compiler is present (a kernel the bundle lacked would be compiled and counted).
    let a = Tensor::<Rank2<2, 3>>::from_slice(&[1., 2., 3., 4., 5., 6.]).unwrap();
    assert_eq!(a.to_vec().unwrap(), [1., 2., 3., 4., 5., 6.]);
    assert_eq!(tg::runtime::compile::compile_count(), 0);
}
