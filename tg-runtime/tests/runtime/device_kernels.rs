//! Kernels compiled from GLSL and run through `Device::execute`.

use std::sync::Arc;

use crate::device_common::*;
use tg_runtime::Error;
use tg_runtime::device::{Device, Dispatch};

fn add_dispatch(
    a: &Arc<tg_runtime::device::Buffer>,
    b: &Arc<tg_runtime::device::Buffer>,
    c: &Arc<tg_runtime::device::Buffer>,
    n: usize,
) -> Dispatch {
    Dispatch {
        pipeline: kernel(ADD, 3, 4).expect("add kernel"),
        bindings: vec![bind(a, false), bind(b, false), bind(c, true)],
        push_constants: (n as u32).to_le_bytes().to_vec(),
        groups: groups(n),
    }
}

#[test]
fn add_1000_floats() {
    let n = 1000;
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| 0.5 * i as f32 - 3.0).collect();
    let (ba, bb) = (upload(&a).unwrap(), upload(&b).unwrap());
    let bc = upload(&vec![-1.0; n]).unwrap();
    let report = Device::get()
        .unwrap()
        .execute(&[add_dispatch(&ba, &bb, &bc, n)], false)
        .expect("execute");
    assert_eq!(report.dispatches, 1);
    assert_eq!(report.kernel_ns, None);
    let c = download(&bc).unwrap();
    for i in 0..n {
        assert_eq!(c[i], a[i] + b[i], "c[{i}]");
    }
}

#[test]
fn chain_of_three_dependent_dispatches() {
    let n = 4099;
    let p = kernel(AXPB, 2, 12).unwrap();
    let x: Vec<f32> = (0..n).map(|i| (i % 97) as f32).collect();
    let bx = upload(&x).unwrap();
    let device = Device::get().unwrap();
    let y: Vec<_> = (0..3)
        .map(|_| device.alloc(4 * n as u64).unwrap())
        .collect();
    let chain = [
        axpb(&p, &bx, &y[0], n, 2.0, 1.0),
        axpb(&p, &y[0], &y[1], n, 3.0, -1.0),
        axpb(&p, &y[1], &y[2], n, 0.5, 4.0),
    ];
    let report = device.execute(&chain, false).expect("execute");
    assert_eq!(report.dispatches, 3);
    let out = download(&y[2]).unwrap();
    for i in 0..n {
        let want = ((x[i] * 2.0 + 1.0) * 3.0 - 1.0) * 0.5 + 4.0;
        assert_eq!(out[i], want, "y3[{i}]");
    }
}

#[test]
fn write_after_read_and_in_place() {
    // 1 reads a into b; 2 overwrites a (must wait for 1); 3 updates b in place from b.
    let n = 300;
    let p = kernel(AXPB, 2, 12).unwrap();
    let a = upload(&vec![2.0; n]).unwrap();
    let b = upload(&vec![0.0; n]).unwrap();
    let c = upload(&vec![5.0; n]).unwrap();
    let device = Device::get().unwrap();
    let mut in_place = axpb(&p, &b, &b, n, 10.0, 0.0);
    in_place.bindings[0].writes = true;
    device
        .execute(
            &[
                axpb(&p, &a, &b, n, 1.0, 1.0),
                axpb(&p, &c, &a, n, 1.0, 0.0),
                in_place,
            ],
            false,
        )
        .expect("execute");
    assert_eq!(download(&b).unwrap(), vec![30.0; n]);
    assert_eq!(download(&a).unwrap(), vec![5.0; n]);
}

#[test]
fn timing_gives_one_time_per_dispatch() {
    let device = Device::get().unwrap();
    let n = 1 << 16;
    let p = kernel(AXPB, 2, 12).unwrap();
    let x = upload(&vec![1.0; n]).unwrap();
    let y = device.alloc(4 * n as u64).unwrap();
    let z = device.alloc(4 * n as u64).unwrap();
    let mut empty = axpb(&p, &x, &z, n, 1.0, 0.0);
    empty.groups = [0, 1, 1];
    let ds = [
        axpb(&p, &x, &y, n, 2.0, 0.0),
        empty,
        axpb(&p, &y, &z, n, 2.0, 0.0),
    ];
    let report = device.execute(&ds, true).expect("execute");
    println!("{report:?}");
    assert_eq!(report.dispatches, 2);
    if device.info().timestamps {
        let times = report.kernel_ns.expect("kernel times");
        assert_eq!(times.len(), 3);
        assert_eq!(times[1], 0, "skipped dispatch");
        assert!(times[0] > 0 && times[2] > 0, "{times:?}");
        assert!(
            times.iter().sum::<u64>() <= report.wall_ns,
            "{times:?} vs {}",
            report.wall_ns
        );
    } else {
        assert_eq!(report.kernel_ns, None);
    }
    assert_eq!(download(&z).unwrap(), vec![4.0; n]);
}

#[test]
fn empty_execute_submits_nothing() {
    let device = Device::get().unwrap();
    assert_eq!(device.execute(&[], false).unwrap().dispatches, 0);
    let p = kernel(AXPB, 2, 12).unwrap();
    let x = upload(&[1.0]).unwrap();
    let y = upload(&[7.0]).unwrap();
    let mut d = axpb(&p, &x, &y, 1, 1.0, 0.0);
    d.groups = [1, 0, 1];
    assert_eq!(device.execute(&[d], true).unwrap().dispatches, 0);
    assert_eq!(download(&y).unwrap(), [7.0]);
}

#[test]
fn the_same_buffer_in_two_bindings() {
    let n = 64;
    let a = upload(&(0..n).map(|i| i as f32).collect::<Vec<_>>()).unwrap();
    let c = Device::get().unwrap().alloc(4 * n as u64).unwrap();
    Device::get()
        .unwrap()
        .execute(&[add_dispatch(&a, &a, &c, n)], false)
        .expect("execute");
    assert_eq!(
        download(&c).unwrap(),
        (0..n).map(|i| 2.0 * i as f32).collect::<Vec<_>>()
    );
}

#[test]
fn mismatched_dispatches_are_errors() {
    let device = Device::get().unwrap();
    let a = upload(&[1.0]).unwrap();
    let mut d = add_dispatch(&a, &a, &a, 1);
    d.bindings.pop();
    assert!(matches!(
        device.execute(&[d.clone()], false),
        Err(Error::Argument { .. })
    ));
    let mut d = add_dispatch(&a, &a, &a, 1);
    d.push_constants.push(0);
    assert!(matches!(
        device.execute(&[d], false),
        Err(Error::Argument { .. })
    ));
    let mut d = add_dispatch(&a, &a, &a, 1);
    d.groups = [u32::MAX, 1, 1];
    assert!(matches!(
        device.execute(&[d], false),
        Err(Error::Argument { .. })
    ));
    let p = kernel(ADD, 3, 4).unwrap();
    let spirv = tg_runtime::compile::compile_glsl(ADD).unwrap();
    let other = tg_runtime::device::KernelLayout {
        bindings: 2,
        texels: 0,
        push_constant_bytes: 4,
    };
    assert!(matches!(
        device.pipeline(p.key(), &spirv, other),
        Err(Error::Argument { .. })
    ));
    assert!(matches!(
        device.pipeline(1, &[1, 2, 3], other),
        Err(Error::Argument { .. })
    ));
}

/// Copies 16-byte texels of a uniform texel buffer (binding 1, after the storage output).
const TEXEL_COPY: &str = "#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform PC { uint n; } pc;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uvec4 o[]; };
layout(set = 0, binding = 1) uniform usamplerBuffer t;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < pc.n) o[i] = texelFetch(t, int(i));
}
";

/// A kernel's texel buffers bind after its storage buffers and are read through the
/// buffer's view; one a dispatch would write, or an application's buffer, is refused.
#[test]
fn texel_bindings_read_and_refuse_writes() {
    let device = Device::get().unwrap();
    let spirv = tg_runtime::compile::compile_glsl(TEXEL_COPY).unwrap();
    let layout = tg_runtime::device::KernelLayout {
        bindings: 1,
        texels: 1,
        push_constant_bytes: 4,
    };
    let p = device
        .pipeline(tg_runtime::compile::stable_hash(TEXEL_COPY), &spirv, layout)
        .unwrap();
    let n = 100;
    let values: Vec<f32> = (0..4 * n).map(|i| i as f32 * 0.5).collect();
    let input = upload(&values).unwrap();
    let out = device.alloc(16 * n as u64).unwrap();
    let copy = |writes: bool| tg_runtime::device::Dispatch {
        pipeline: p.clone(),
        bindings: vec![bind(&out, true), bind(&input, writes)],
        push_constants: (n as u32).to_le_bytes().to_vec(),
        groups: [(n as u32).div_ceil(64), 1, 1],
    };
    device.execute(&[copy(false)], false).unwrap();
    assert_eq!(download(&out).unwrap(), values);
    assert!(matches!(
        device.execute(&[copy(true)], false),
        Err(Error::Argument { .. })
    ));
}

#[test]
fn eight_threads_at_once() {
    let threads: Vec<_> = (0..8)
        .map(|t| {
            std::thread::spawn(move || {
                let device = Device::get().unwrap();
                let p = kernel(AXPB, 2, 12).unwrap();
                for round in 0..10 {
                    let n = 1000 + 37 * t + round;
                    let x: Vec<f32> = (0..n).map(|i| (i + t) as f32).collect();
                    let bx = upload(&x).unwrap();
                    let y = device.alloc(4 * n as u64).unwrap();
                    let z = device.alloc(4 * n as u64).unwrap();
                    let k = t as f32 + 1.0;
                    device
                        .execute(
                            &[axpb(&p, &bx, &y, n, k, 1.0), axpb(&p, &y, &z, n, 1.0, -1.0)],
                            round % 2 == 0,
                        )
                        .unwrap();
                    let out = download(&z).unwrap();
                    for i in 0..n {
                        assert_eq!(out[i], x[i] * k, "thread {t} round {round} [{i}]");
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("thread panicked");
    }
}

/// A prepared kernel's dispatch takes a buffer for each output and each input its shader
/// binds; a caller inside tg that hands fewer gets `Error::Internal`, not an index panic.
#[test]
fn a_dispatch_without_its_buffers_is_an_internal_error() {
    let dev = Device::get().unwrap();
    let a = tg_runtime::Lazy::from_slice(&[64], &[1.0f32; 64]).unwrap();
    let b = tg_runtime::Lazy::from_slice(&[64], &[2.0f32; 64]).unwrap();
    let sum = a.binary(tg_runtime::BinaryOp::Add, &b).unwrap();
    let planned = tg_runtime::realize::plan(&[&sum], dev.info()).unwrap();
    let (p, _) = tg_runtime::prepare::prepare(dev, &planned[0].kernel).unwrap();
    let out = dev.alloc(256).unwrap();
    let input = dev.alloc(256).unwrap();
    let inputs = [input.clone(), input.clone()];
    for (outs, ins) in [
        (&[][..], &inputs[..]),
        (&[out.clone(), out.clone()][..], &inputs[..]),
        (std::slice::from_ref(&out), &inputs[..1]),
    ] {
        assert!(matches!(
            tg_runtime::prepare::dispatch(dev, &p, outs, ins),
            Err(Error::Internal {
                context: "dispatch",
                ..
            })
        ));
    }
    assert!(tg_runtime::prepare::dispatch(dev, &p, std::slice::from_ref(&out), &inputs).is_ok());
}
