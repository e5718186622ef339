//! tg on an application's Vulkan device: the application makes the instance, device, queue,
//! buffers and semaphores with ash; tg computes on its buffers in place and hands out its own,
//! the two ordered by semaphores; closing tg leaves the device as the application made it,
//! which the validation layer checks when the application destroys it.

use tg::runtime::ash::vk;
use tg::runtime::ash::vk::Handle;
use tg::runtime::device::{Device, Semaphore, SemaphoreSync};
use tg::runtime::{BinaryOp, DType, Lazy};

// the application's side as the example makes it: its instance, device, queue, command pool
// and host-visible buffers, and the validation messages of its own messenger
use vulkan_app::App;

#[test]
fn tg_computes_on_the_applications_device_and_buffers() {
    let app = App::new().unwrap();
    // SAFETY: the handles live until `app` drops, after `close` below succeeded; the test
    // submits to the shared queue only through `with_queue`.
    let dev = unsafe { Device::from_raw(app.raw()) }.unwrap();
    assert!(dev.info().timeline_semaphores);
    assert!(
        !dev.info().shader_float16,
        "only what the application enabled"
    );

    let n = 256;
    let mut input = app.buffer(n, true).unwrap();
    for (i, v) in input.host().iter_mut().enumerate() {
        *v = i as f32;
    }
    let mut output = app.buffer(n, true).unwrap();
    let mut copy = app.buffer(n, true).unwrap();

    // SAFETY: the buffers are the device's, made with the usages tg needs, and outlive the
    // tensors over them (dropped before `free`).
    let (in_buf, out_buf) = unsafe {
        (
            dev.import_buffer(input.raw, 0, (n * 4) as u64).unwrap(),
            dev.import_buffer(output.raw, 0, (n * 4) as u64).unwrap(),
        )
    };
    let x = Lazy::from_buffer(in_buf, DType::F32, &[n]).unwrap();
    assert_eq!(x.device().unwrap().id(), dev.id());
    let two = Lazy::constant(2.0f32, DType::F32, &[n]).unwrap();
    let one = Lazy::constant(1.0f32, DType::F32, &[n]).unwrap();
    let y = x
        .binary(BinaryOp::Mul, &two)
        .unwrap()
        .binary(BinaryOp::Add, &one)
        .unwrap();

    // tg writes y into the application's output buffer in place, and also hands out y's own
    // buffer, which the application copies with a command buffer of its own that waits, on
    // the device, for tg's signal
    let sem = app.timeline().unwrap();
    let target = Lazy::from_buffer(out_buf, DType::F32, &[n]).unwrap();
    let sync = SemaphoreSync {
        wait: vec![],
        signal: vec![Semaphore::timeline(sem, 1)],
    };
    let written = dev
        .synced(&sync, || {
            let w = target.assign(&y)?;
            tg::runtime::realize(&[&w, &y])?;
            Ok(w)
        })
        .unwrap();
    let tg_buffer = y.buffer().unwrap();
    assert!(!tg_buffer.is_external());
    // SAFETY: the application's objects, used as the spec allows (its submission waits for
    // tg's signal on the shared queue, under tg's lock), destroyed after the fence (the
    // command buffer with the application's pool, in `finish`).
    unsafe {
        let cmd = app
            .device
            .allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(app.pool)
                    .command_buffer_count(1),
            )
            .unwrap()[0];
        app.device
            .begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
            .unwrap();
        let region = [vk::BufferCopy {
            src_offset: tg_buffer.offset(),
            dst_offset: 0,
            size: (n * 4) as u64,
        }];
        app.device
            .cmd_copy_buffer(cmd, tg_buffer.raw(), copy.raw, &region);
        let host = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        app.device.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::HOST,
            vk::DependencyFlags::empty(),
            &host,
            &[],
            &[],
        );
        app.device.end_command_buffer(cmd).unwrap();
        let fence = app
            .device
            .create_fence(&vk::FenceCreateInfo::default(), None)
            .unwrap();
        let cmds = [cmd];
        let waits = [sem];
        let values = [1u64];
        let stages = [vk::PipelineStageFlags::TRANSFER];
        let mut timeline =
            vk::TimelineSemaphoreSubmitInfo::default().wait_semaphore_values(&values);
        let submit = vk::SubmitInfo::default()
            .command_buffers(&cmds)
            .wait_semaphores(&waits)
            .wait_dst_stage_mask(&stages)
            .push_next(&mut timeline);
        dev.with_queue(|q| app.device.queue_submit(q, &[submit], fence))
            .unwrap();
        app.device
            .wait_for_fences(&[fence], true, u64::MAX)
            .unwrap();
        app.device.destroy_fence(fence, None);
    }
    let want: Vec<f32> = (0..n).map(|i| i as f32 * 2.0 + 1.0).collect();
    assert_eq!(
        copy.host(),
        &want[..],
        "tg's buffer, read by the application"
    );
    // the fence above came after tg's signal, so the in-place write is done too
    assert_eq!(
        output.host(),
        &want[..],
        "tg's write into the application's buffer"
    );
    assert_eq!(written.to_vec::<f32>().unwrap(), want);

    drop((x, y, written, target, tg_buffer));
    dev.close().unwrap();
    // SAFETY: no pending work uses the semaphore.
    unsafe { app.device.destroy_semaphore(sem, None) };
    for b in [input, output, copy] {
        app.free(b);
    }
    let validated = app.messenger.is_some();
    let messages = app.finish();
    assert!(messages.is_empty(), "validation: {messages:#?}");
    if std::env::var("TG_VALIDATION").is_ok_and(|v| v == "1") {
        assert!(validated);
    }
}

#[test]
fn bad_imports_are_refused() {
    let dev = Device::get().unwrap();
    let a = dev.info().window_alignment;
    // SAFETY: every call below is refused before the (null or bogus) handle is used.
    unsafe {
        assert!(dev.import_buffer(vk::Buffer::null(), 0, 64).is_err());
        let fake = vk::Buffer::from_raw(1);
        assert!(dev.import_buffer(fake, a / 2 + 1, 64).is_err());
        assert!(dev.import_buffer(fake, 0, 12).is_err());
        assert!(matches!(
            dev.import_buffer(
                fake,
                0,
                (dev.info().max_storage_buffer_range + 16).next_multiple_of(16)
            ),
            Err(tg::runtime::Error::BufferTooLarge { .. })
        ));
    }
}
