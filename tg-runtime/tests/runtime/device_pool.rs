//! The buffer pool reuses freed memory. In a child process: the figures are process-wide.

use tg_runtime::device::Device;

use crate::device_common::run_child;

#[test]
fn pool_reuses_and_accounts() {
    run_child("child_pool_reuses_and_accounts", &[]);
}

#[test]
#[ignore = "run by pool_reuses_and_accounts"]
fn child_pool_reuses_and_accounts() {
    let device = Device::get().expect("device");
    let before = device.memory_stats();
    assert_eq!(before.live_buffers, 0);

    let a = device.alloc(10_000).unwrap();
    let after_first = device.memory_stats();
    assert_eq!(after_first.allocations, before.allocations + 1);
    assert_eq!(after_first.live_buffers, 1);
    assert!(after_first.live_bytes >= 10_000);
    let held = after_first.live_bytes;

    // A second handle keeps it alive; only the last drop returns it.
    let a2 = std::sync::Arc::clone(&a);
    drop(a);
    assert_eq!(device.memory_stats().live_buffers, 1);
    drop(a2);
    let pooled = device.memory_stats();
    assert_eq!((pooled.live_buffers, pooled.live_bytes), (0, 0));
    assert_eq!(pooled.pooled_bytes, held);

    // Same size, and a slightly different size of the same class: no new allocation.
    let b = device.alloc(10_000).unwrap();
    assert_eq!(device.memory_stats().allocations, after_first.allocations);
    assert_eq!(device.memory_stats().pooled_bytes, 0);
    drop(b);
    let c = device.alloc(9_990).unwrap();
    assert_eq!(device.memory_stats().allocations, after_first.allocations);

    // A live buffer is not handed out twice; another size is a new allocation.
    let d = device.alloc(9_990).unwrap();
    assert_ne!(c.id(), d.id());
    assert_eq!(
        device.memory_stats().allocations,
        after_first.allocations + 1
    );
    let e = device.alloc(100).unwrap();
    assert_eq!(
        device.memory_stats().allocations,
        after_first.allocations + 2
    );
    drop((c, d, e));

    // Zero bytes is a real, usable buffer.
    let z = device.alloc(0).unwrap();
    assert_eq!(z.size(), 0);
    drop(z);

    let end = device.memory_stats();
    assert_eq!((end.live_buffers, end.live_bytes), (0, 0));
    println!("{end:?}");
}
