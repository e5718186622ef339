//! Devices as values: two devices at once from two threads, tensors that know their device,
//! moving values between devices, scopes, the errors of mixing and of closed devices,
//! recordings bound to their device, and semaphores around tg's work.

use tg_runtime::ash::vk;
use tg_runtime::device::{Device, Semaphore, SemaphoreSync};
use tg_runtime::graph::node::Placement;
use tg_runtime::{BinaryOp, DType, Error, Lazy, ReduceOp, record};

/// A second logical device of the default's physical device (the one lavapipe device).
fn second() -> Device {
    let index = Device::get().unwrap().info().index;
    Device::open(&index.to_string()).unwrap()
}

fn iota(n: usize, k: f32) -> Vec<f32> {
    (0..n).map(|i| (i % 97) as f32 * k).collect()
}

#[test]
fn two_devices_compute_at_once_from_two_threads() {
    let a = Device::get().unwrap().clone();
    let b = second();
    assert_ne!(a.id(), b.id());
    let work = |dev: Device, k: f32| {
        std::thread::spawn(move || {
            dev.scope(|| {
                for step in 0..12 {
                    let data = iota(4096, k + step as f32);
                    let x = Lazy::from_slice(&[4096], &data).unwrap();
                    assert_eq!(x.placement(), Placement::On(dev.id()));
                    let y = x
                        .binary(BinaryOp::Mul, &x)
                        .unwrap()
                        .reduce(ReduceOp::Add, &[0])
                        .unwrap();
                    assert_eq!(y.buffer().unwrap().device_id(), dev.id());
                    let want: f64 = data.iter().map(|&v| f64::from(v) * f64::from(v)).sum();
                    let got = f64::from(y.to_vec::<f32>().unwrap()[0]);
                    assert!((got - want).abs() <= want * 1e-5, "{got} vs {want}");
                }
            })
        })
    };
    let (ta, tb) = (work(a.clone(), 0.5), work(b.clone(), 0.25));
    ta.join().unwrap();
    tb.join().unwrap();
    // each device has its own pool: the second one allocated its own buffers
    assert!(b.memory_stats().allocations > 0);
}

#[test]
fn mixing_devices_is_an_error_naming_both() {
    let b = second();
    let x = Lazy::from_slice(&[4], &[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    let y = x.to(&b).unwrap();
    let err = x.binary(BinaryOp::Add, &y).unwrap_err();
    let Error::DeviceMismatch { op, first, second } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(*op, "add");
    assert!(
        first.contains('#') && second.contains(&format!("#{}", b.id().0)),
        "{err}"
    );
    assert_ne!(first, second);
    // where and in-place writes check too
    let cond = Lazy::constant(true, DType::Bool, &[4]).unwrap();
    assert!(matches!(
        cond.where_(&x, &y),
        Err(Error::DeviceMismatch { op: "where", .. })
    ));
    let p = Lazy::parameter(&y).unwrap();
    assert!(matches!(
        p.assign(&x),
        Err(Error::DeviceMismatch { op: "assign", .. })
    ));
    // realizing values of two devices together is refused too
    let z = x.binary(BinaryOp::Mul, &x).unwrap();
    assert!(matches!(
        tg_runtime::realize(&[&z, &y]),
        Err(Error::DeviceMismatch { op: "realize", .. })
    ));
}

#[test]
fn to_moves_host_data_constants_and_computed_values() {
    let b = second();
    let data = iota(1000, 0.5);
    // host data not yet uploaded: placed on b
    let x = Lazy::from_slice(&[1000], &data).unwrap();
    let xb = x.to(&b).unwrap();
    assert_eq!(xb.placement(), Placement::On(b.id()));
    assert_eq!(xb.to_vec::<f32>().unwrap(), data);
    assert!(!x.is_realized(), "the default device's copy was never made");
    // a computed value of the default device: computed there, copied to b
    let y = x.binary(BinaryOp::Add, &x).unwrap();
    let yb = y.to(&b).unwrap();
    let twice: Vec<f32> = data.iter().map(|v| v * 2.0).collect();
    assert_eq!(yb.buffer().unwrap().device_id(), b.id());
    assert_eq!(yb.to_vec::<f32>().unwrap(), twice);
    // a constant: computed on b
    let c = Lazy::constant(3.0f32, DType::F32, &[5])
        .unwrap()
        .to(&b)
        .unwrap();
    assert_eq!(c.buffer().unwrap().device_id(), b.id());
    assert_eq!(c.to_vec::<f32>().unwrap(), vec![3.0; 5]);
    // moving to the device it is on is the same tensor
    assert_eq!(xb.to(&b).unwrap().id(), xb.id());
}

#[test]
fn constants_combine_with_any_device() {
    let b = second();
    let x = b.scope(|| Lazy::from_slice(&[3], &[1.0f32, 2.0, 3.0]).unwrap());
    // a constant realized on the default device first: hash-consing shares it, and a realize
    // on b copies its buffer
    let c = Lazy::constant(10.0f32, DType::F32, &[3])
        .unwrap()
        .contiguous();
    c.realize().unwrap();
    assert_eq!(c.buffer().unwrap().device_id(), Device::get().unwrap().id());
    let y = x.binary(BinaryOp::Add, &c).unwrap();
    assert_eq!(y.placement(), Placement::On(b.id()));
    assert_eq!(y.to_vec::<f32>().unwrap(), vec![11.0, 12.0, 13.0]);
    // constants realized alone inside a scope run on the scope's device
    let z = b.scope(|| {
        let z = Lazy::constant(7i32, DType::I32, &[2]).unwrap().contiguous();
        z.realize().unwrap();
        z
    });
    assert_eq!(z.buffer().unwrap().device_id(), b.id());
}

#[test]
fn a_closed_device_fails_clearly() {
    let c = second();
    let name = c.info().name.clone();
    let x = c.scope(|| Lazy::from_slice(&[4], &[1.0f32; 4]).unwrap());
    let y = x.binary(BinaryOp::Add, &x).unwrap();
    y.realize().unwrap();
    // a realized tensor holds the device: closing says so, and the device stays usable
    let held = c.clone();
    let err = c.close().unwrap_err();
    assert!(
        matches!(&err, Error::DeviceInUse { device, handles: 1, .. } if device.starts_with(&name)),
        "{err:?}"
    );
    drop(held);
    // the handles are gone: what is realized can still be read, new work cannot run
    assert_eq!(y.to_vec::<f32>().unwrap(), vec![2.0; 4]);
    let z = x.binary(BinaryOp::Mul, &x).unwrap();
    assert!(
        matches!(z.realize(), Err(Error::DeviceClosed { .. })),
        "{:?}",
        z.realize()
    );
    drop((x, y, z));
    // a device with nothing left closes cleanly
    second().close().unwrap();
}

#[test]
fn recordings_replay_on_their_device() {
    let b = second();
    let x = b.scope(|| Lazy::from_slice(&[4], &[1.0f32, 2.0, 3.0, 4.0]).unwrap());
    let (outs, rec) = record(&[&x], || {
        Ok(vec![
            x.binary(BinaryOp::Mul, &x)?.binary(BinaryOp::Add, &x)?,
        ])
    })
    .unwrap();
    assert_eq!(outs[0].to_vec::<f32>().unwrap(), vec![2.0, 6.0, 12.0, 20.0]);
    let x2 = b.scope(|| Lazy::from_slice(&[4], &[2.0f32; 4]).unwrap());
    let again = rec.replay(&[&x2]).unwrap();
    assert_eq!(again[0].buffer().unwrap().device_id(), b.id());
    assert_eq!(again[0].to_vec::<f32>().unwrap(), vec![6.0; 4]);
    let elsewhere = Lazy::from_slice(&[4], &[2.0f32; 4]).unwrap();
    assert!(matches!(
        rec.replay(&[&elsewhere]),
        Err(Error::DeviceMismatch { op: "replay", .. })
    ));
}

#[test]
fn semaphores_order_tg_work_between_the_applications() {
    let dev = second();
    if !dev.info().timeline_semaphores {
        eprintln!("skipped: no timeline semaphores on {}", dev.info());
        return;
    }
    let vkd = dev.raw_device().clone();
    let mut kind = vk::SemaphoreTypeCreateInfo::default()
        .semaphore_type(vk::SemaphoreType::TIMELINE)
        .initial_value(0);
    // SAFETY: a semaphore of tg's device, destroyed below after its last use completed.
    let sem = unsafe {
        vkd.create_semaphore(
            &vk::SemaphoreCreateInfo::default().push_next(&mut kind),
            None,
        )
    }
    .unwrap();
    let x = dev.scope(|| Lazy::from_slice(&[256], &iota(256, 1.0)).unwrap());
    x.realize().unwrap();
    let sync = SemaphoreSync {
        wait: vec![Semaphore::timeline(sem, 1)],
        signal: vec![Semaphore::timeline(sem, 2)],
    };
    let y = dev
        .synced(&sync, || {
            let y = x.binary(BinaryOp::Add, &x)?;
            y.realize()?;
            Ok(y)
        })
        .unwrap();
    // tg's work waits, on the device, for value 1, which the "application" signals later
    // SAFETY: a query of a live semaphore.
    let value = || unsafe { vkd.get_semaphore_counter_value(sem) }.unwrap();
    assert_eq!(value(), 0);
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert_eq!(value(), 0, "tg's work ran before its wait was signalled");
    // A host wait for `target`, bounded so a value that never comes fails instead of hanging.
    let reaches = |target: u64| {
        let sems = [sem];
        let values = [target];
        let info = vk::SemaphoreWaitInfo::default()
            .semaphores(&sems)
            .values(&values);
        // SAFETY: a wait on a live semaphore of tg's device.
        unsafe { vkd.wait_semaphores(&info, 10_000_000_000) }.is_ok()
    };
    // SAFETY: a host signal of a value the semaphore has not reached.
    unsafe {
        vkd.signal_semaphore(&vk::SemaphoreSignalInfo::default().semaphore(sem).value(1))
            .unwrap();
    }
    assert!(reaches(2), "tg's work never signalled 2");
    let want: Vec<f32> = iota(256, 2.0);
    assert_eq!(y.to_vec::<f32>().unwrap(), want);
    // a scope with no work still waits and signals, in order
    let sync = SemaphoreSync {
        wait: vec![Semaphore::timeline(sem, 2)],
        signal: vec![Semaphore::timeline(sem, 3)],
    };
    dev.synced(&sync, || Ok(())).unwrap();
    dev.synchronize().unwrap();
    // The driver may retire the submission's fence a moment before the timeline value it
    // signals becomes visible to the host, so wait for the value instead of reading it once.
    assert!(reaches(3), "the empty scope never signalled 3");
    assert_eq!(value(), 3);
    // SAFETY: nothing pending uses the semaphore.
    unsafe { vkd.destroy_semaphore(sem, None) };
}

/// Two threads building the same pipeline at once (a realize prepares its kernels on several
/// threads, and two kernels may share a shader) both get the one the device keeps, and the
/// spare is destroyed with the device: the layer reports no object left at `vkDestroyDevice`.
#[test]
fn a_pipeline_built_twice_at_once_is_kept_once_and_destroyed() {
    use tg_runtime::compile::{compile_glsl, stable_hash};
    use tg_runtime::device::KernelLayout;
    let dev = second();
    let spirv = compile_glsl(crate::device_common::AXPB).unwrap();
    let layout = KernelLayout {
        bindings: 2,
        texels: 0,
        push_constant_bytes: 12,
    };
    for round in 0..6u64 {
        let key = stable_hash(crate::device_common::AXPB) ^ (round << 56) ^ dev.id().0;
        let barrier = std::sync::Barrier::new(2);
        let built: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..2)
                .map(|_| {
                    s.spawn(|| {
                        barrier.wait();
                        dev.pipeline(key, &spirv, layout).unwrap()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(
            std::sync::Arc::ptr_eq(&built[0], &built[1]),
            "round {round}"
        );
    }
    // the layer's objects left at vkDestroyDevice fail the close
    dev.close().unwrap();
}
