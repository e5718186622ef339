//! The kernel interface: scalars are data (push constants), so a kernel that differs from
//! another only in a constant's value, or in a reduction's length, reuses its shader.
//! Counted in a child process with the disk cache off, so every new shader source is a
//! shaderc compile.

use crate::device_common::{child_value, run_child};
use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, thread_stats};

#[test]
fn changed_scalars_and_reduction_lengths_reuse_shaders() {
    let out = run_child("child_reuse", &[("TG_CACHE_DIR", "off")]);
    let scalars: u64 = child_value(&out, "SCALAR_COMPILES").parse().unwrap();
    let shapes: u64 = child_value(&out, "SHAPE_COMPILES").parse().unwrap();
    let keys: u64 = child_value(&out, "KEY_COMPILES").parse().unwrap();
    assert!(scalars <= 2, "200 scalars took {scalars} compiles");
    assert!(keys <= 2, "50 integers took {keys} compiles");
    assert!(shapes <= 10, "200 reduction lengths took {shapes} compiles");
}

#[test]
#[ignore = "run by changed_scalars_and_reduction_lengths_reuse_shaders"]
fn child_reuse() {
    let data: Vec<f32> = (0..1000).map(|i| i as f32 * 0.5).collect();
    let a = Lazy::from_slice(&[1000], &data).unwrap();
    a.realize().unwrap();

    let before = thread_stats().compiles;
    for i in 0..200 {
        let k = Lazy::constant(i as f32, DType::F32, &[1000]).unwrap();
        let sum = a.binary(BinaryOp::Add, &k).unwrap();
        let got = sum.to_vec::<f32>().unwrap();
        assert_eq!(got[7], 3.5 + i as f32, "a + {i}");
    }
    println!("SCALAR_COMPILES={}", thread_stats().compiles - before);

    // integers are data too: a random draw's key schedule differs every call, and one
    // kernel serves them all
    let ints: Vec<u32> = (0..1000).collect();
    let b = Lazy::from_slice(&[1000], &ints).unwrap();
    b.realize().unwrap();
    let before = thread_stats().compiles;
    for i in 0..50u32 {
        let key = 0x9e37_79b9u32.wrapping_mul(i + 1) | 0x0001_0000;
        let k = Lazy::constant(key, DType::U32, &[1000]).unwrap();
        let mixed = b.binary(BinaryOp::Xor, &k).unwrap();
        let got = mixed.to_vec::<u32>().unwrap();
        assert_eq!(got[7], 7 ^ key, "key {key:#x}");
    }
    println!("KEY_COMPILES={}", thread_stats().compiles - before);

    let before = thread_stats().compiles;
    for rows in 1..=200usize {
        let v: Vec<f32> = (0..rows * 64).map(|i| (i % 7) as f32).collect();
        let x = Lazy::from_slice(&[rows, 64], &v).unwrap();
        let s = x.reduce(ReduceOp::Add, &[0]).unwrap();
        let got = s.to_vec::<f32>().unwrap();
        let want: f32 = (0..rows).map(|r| ((r * 64 + 5) % 7) as f32).sum();
        assert_eq!(got[5], want, "sum over {rows} rows");
    }
    println!("SHAPE_COMPILES={}", thread_stats().compiles - before);
}

#[test]
fn realizes_return_once_submitted_and_reads_wait_for_them() {
    // a chain of realizes, each reading the last one's result, none read until the end
    let mut x = Lazy::from_slice(&[4096], &vec![0.0f32; 4096]).unwrap();
    let one = Lazy::constant(1.0f32, DType::F32, &[4096]).unwrap();
    let mut kept = Vec::new();
    for _ in 0..40 {
        x = x.binary(BinaryOp::Add, &one).unwrap();
        x.realize().unwrap();
        kept.push(x.clone());
    }
    // reading waits for the submission that wrote the buffer, and the ones before it
    assert_eq!(x.to_vec::<f32>().unwrap(), vec![40.0; 4096]);
    assert_eq!(kept[9].to_vec::<f32>().unwrap()[17], 10.0);
    tg_runtime::synchronize().unwrap();
}

#[test]
fn dropping_results_of_pending_work_is_safe() {
    let device = tg_runtime::device::Device::get().unwrap();
    for round in 0..30 {
        let x = Lazy::from_slice(&[1 << 16], &vec![round as f32; 1 << 16]).unwrap();
        let y = x
            .binary(
                BinaryOp::Mul,
                &Lazy::constant(2.0f32, DType::F32, &[1 << 16]).unwrap(),
            )
            .unwrap();
        y.realize().unwrap();
        // dropped while the kernel may still run: the submission holds the buffers
        drop((x, y));
    }
    tg_runtime::synchronize().unwrap();
    let z = Lazy::from_slice(&[3], &[1.0f32, 2.0, 3.0]).unwrap();
    assert_eq!(
        z.binary(BinaryOp::Add, &z)
            .unwrap()
            .to_vec::<f32>()
            .unwrap(),
        vec![2.0, 4.0, 6.0]
    );
    let _ = device.memory_stats();
}

#[test]
fn multiplying_by_a_constant_zero_keeps_ieee_semantics() {
    // constants are push-constant data, so no compiler folds `x * 0.0` to 0 (llvmpipe did
    // for literals): numpy gives NaN for inf * 0 and NaN * 0
    let x = Lazy::from_slice(&[4], &[f32::INFINITY, f32::NAN, f32::NEG_INFINITY, -3.0]).unwrap();
    let zero = Lazy::constant(0.0f32, DType::F32, &[4]).unwrap();
    let got = x
        .binary(BinaryOp::Mul, &zero)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert!(
        got[0].is_nan() && got[1].is_nan() && got[2].is_nan(),
        "{got:?}"
    );
    assert_eq!(got[3].to_bits(), (-0.0f32).to_bits(), "-3 * 0 is -0");
}
