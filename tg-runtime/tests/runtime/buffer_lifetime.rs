//! A buffer lives while a tensor or a pending kernel refers to it, and returns to the pool
//! after; intermediates of a realize are not kept. In a child process: memory stats are the
//! process's.

use tg_runtime::device::Device;
use tg_runtime::{BinaryOp, DType, Lazy, UnaryOp};

use crate::device_common::run_child;

#[test]
fn buffers_are_released_when_nothing_refers_to_them() {
    run_child("child_buffers_are_released", &[]);
}

#[test]
#[ignore = "run by buffers_are_released_when_nothing_refers_to_them"]
fn child_buffers_are_released() {
    let dev = Device::get().unwrap();
    let base = dev.memory_stats().live_buffers;
    {
        let n = 1 << 16;
        let a = Lazy::constant(2.0f32, DType::F32, &[n])
            .unwrap()
            .contiguous();
        // a chain of realized steps: each step's input is dropped by the graph once realized
        let mut x = a.clone();
        for _ in 0..5 {
            x = x
                .unary(UnaryOp::Sqrt)
                .unwrap()
                .binary(BinaryOp::Add, &a)
                .unwrap()
                .contiguous();
            x.realize().unwrap();
        }
        // pending kernels hold their buffers until they complete
        tg_runtime::synchronize().unwrap();
        // a, x, and nothing else: intermediates died with the nodes that held them
        assert_eq!(dev.memory_stats().live_buffers, base + 2);
        let v = x.to_vec::<f32>().unwrap();
        let want = (0..5).fold(2.0f32, |x, _| x.sqrt() + 2.0);
        assert!((v[0] - want).abs() < 1e-5, "{} vs {want}", v[0]);
    }
    assert_eq!(dev.memory_stats().live_buffers, base, "all released");
    // the pool serves the next allocation of that size without a new device allocation
    let allocations = dev.memory_stats().allocations;
    let y = Lazy::constant(1.0f32, DType::F32, &[1 << 16])
        .unwrap()
        .contiguous();
    y.realize().unwrap();
    assert_eq!(dev.memory_stats().allocations, allocations);
    // the process exits after this test: lavapipe's threads must not still run the last
    // submission when it does (LLVM's teardown then reports "out of memory" and the child
    // fails after its test passed)
    tg_runtime::synchronize().unwrap();
}
