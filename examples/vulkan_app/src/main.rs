//! tg inside a Vulkan application.
//!
//! The application creates its own instance and device with ash, fills a buffer with a compute
//! shader of its own, hands that buffer to a `#[kernel]` function (no copy), and reads tg's
//! output buffer in a second shader of its own. Neither side waits on the host between them:
//! one timeline semaphore orders the fill (value 1), tg's kernels (2) and the read (3). Closing
//! tg leaves the device as the application made it, which the validation layer checks when the
//! application destroys it: run with `TG_VALIDATION=1` to have every message fail the run.
//!
//! `cargo run -p vulkan_app`

use std::error::Error;

use tg::prelude::*;
use tg::runtime::ash::vk;
use tg::runtime::device::{Device, Semaphore, SemaphoreSync};
use vulkan_app::App;

/// Elements of the application's buffers (a multiple of four: tg's kernels move whole vec4s).
const N: usize = 4096;

/// The application's first shader: `data[i] = 3 sin(i / 50) + 1`.
const FILL: &str = "#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform Push { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) data[i] = 3.0 * sin(float(i) / 50.0) + 1.0;
}
";

/// The application's second shader: it reads tg's output, `out[i] = 100 y[i]`.
const READ: &str = "#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float y[]; };
layout(set = 0, binding = 1) buffer Out { float o[]; };
layout(push_constant) uniform Push { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) o[i] = 100.0 * y[i];
}
";

/// tg's part: scale to zero mean and unit RMS, then squash.
#[kernel]
fn standardize<const L: usize>(x: Tensor<shape![L]>) -> Tensor<shape![L]> {
    let centered = x - x.mean();
    let rms = (centered * centered).mean().sqrt();
    (centered / rms).tanh()
}

fn main() -> Result<(), Box<dyn Error>> {
    let app = App::new()?;
    // SAFETY: every handle in `raw` lives until `app.finish`, after `close` below succeeded;
    // the application submits to the shared queue only inside `with_queue`.
    let tg_device = unsafe { Device::from_raw(app.raw())? };
    println!("tg on the application's device: {}", tg_device.info().name);

    let input = app.buffer(N, false)?;
    let mut output = app.buffer(N, true)?;
    let sem = app.timeline()?;
    let fill = app.pipeline(FILL, 1)?;
    let read = app.pipeline(READ, 2)?;

    // 1. the application fills `input` and signals 1
    let bytes = (N * 4) as u64;
    app.dispatch(
        &tg_device,
        &fill,
        N as u32,
        &[(input.raw, 0, bytes)],
        sem,
        (None, 1),
    )?;

    // 2. tg waits for 1, runs `standardize` on the application's buffer, signals 2
    // SAFETY: `input` is a storage buffer of this device with transfer usage, alive until
    // `app.free` below, after the tensors over it were dropped and tg closed.
    let x = Tensor::<shape![N]>::from_device_buffer(unsafe {
        tg_device.import_buffer(input.raw, 0, bytes)?
    })?;
    let sync = SemaphoreSync {
        wait: vec![Semaphore::timeline(sem, 1)],
        signal: vec![Semaphore::timeline(sem, 2)],
    };
    let y = tg_device.synced(&sync, || {
        let y = standardize(x.clone());
        y.realize()?;
        Ok(y)
    })?;
    let y_buffer = y.device_buffer()?;
    println!(
        "tg's output: {} bytes at offset {} of its buffer",
        y_buffer.size(),
        y_buffer.offset()
    );

    // 3. the application waits for 2, reads tg's buffer in its own shader, signals 3
    app.dispatch(
        &tg_device,
        &read,
        N as u32,
        &[
            (y_buffer.raw(), y_buffer.offset(), bytes),
            (output.raw, 0, bytes),
        ],
        sem,
        (Some(2), 3),
    )?;
    app.wait(sem, 3)?;

    // the host checks the application's output against its own arithmetic
    let xs: Vec<f64> = (0..N)
        .map(|i| 3.0 * (i as f64 / 50.0).sin() + 1.0)
        .collect();
    let mean = xs.iter().sum::<f64>() / N as f64;
    let rms = (xs.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / N as f64).sqrt();
    let got = output.host().to_vec();
    let worst = xs
        .iter()
        .zip(&got)
        .map(|(v, g)| (100.0 * ((v - mean) / rms).tanh() - *g as f64).abs())
        .fold(0.0, f64::max);
    println!("first values read back by the application: {:?}", &got[..4]);
    println!("largest error against the host's arithmetic: {worst:.2e} (of values up to 100)");

    drop((x, y, y_buffer));
    tg_device.close()?;
    app.idle()?;
    app.free(input);
    app.free(output);
    app.destroy(fill, sem);
    app.destroy(read, vk::Semaphore::null());
    let messages = app.finish();
    if !messages.is_empty() {
        return Err(format!("validation messages: {messages:#?}").into());
    }
    if worst > 1e-2 {
        return Err(format!("wrong result: error {worst}").into());
    }
    println!("ok: tg closed, the application destroyed its device with nothing left on it");
    Ok(())
}
