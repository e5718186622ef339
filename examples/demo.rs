//! tg's demo: k-means clustering of 8192 points on the default Vulkan device.
//!
//! Each Lloyd step is one `#[kernel]` function: the macro checks its shapes while compiling,
//! the first call records its kernels, and every later call replays them on the new
//! centroids. Run with `TG_DEBUG=1` to see every realize, `TG_DEVICE` to pick a device.

use std::time::Instant;

use tg::prelude::*;

const N: usize = 8192;
const K: usize = 4;

/// One Lloyd step: assign each point to its nearest centroid, then move every centroid to the
/// mean of its points. Also returns the inertia (sum of squared distances) before the move.
#[kernel]
fn lloyd_step<const N: usize>(
    x: Tensor<shape![N, 2]>,
    c: Tensor<shape![4, 2]>,
) -> (Tensor<shape![4, 2]>, Tensor<shape![]>) {
    let diff = x.reshape([N, 1, 2]) - c.reshape([1, 4, 2]); // [N, 4, 2] by broadcasting
    let dist = (diff * diff).sum(2); // [N, 4]
    let nearest = dist.argmin(1); // [N]
    let onehot = nearest.one_hot(4).cast(f32); // [N, 4]
    let counts = onehot.sum(0).reshape([4, 1]);
    let means = onehot.t().matmul(x) / counts.maximum(1.0);
    (means, dist.min(1).sum())
}

/// Points around four centers, from a seeded generator so every run is the same.
fn blobs(centers: &[[f32; 2]; K]) -> Vec<f32> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut uniform = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    };
    let mut out = Vec::with_capacity(N * 2);
    for i in 0..N {
        let c = centers[i % K];
        // Box-Muller: two standard normals
        let (u, v) = (uniform(), uniform());
        let r = (-2.0 * u.ln()).sqrt() * 0.6;
        let t = std::f64::consts::TAU * v;
        out.push(c[0] + (r * t.cos()) as f32);
        out.push(c[1] + (r * t.sin()) as f32);
    }
    out
}

fn main() -> tg::Result<()> {
    let device = tg::runtime::device::Device::get()?;
    println!("tg demo: k-means on {}", device.info());

    let centers = [[-4.0, -3.0], [5.0, -2.0], [-1.0, 6.0], [3.5, 4.5]];
    let x = Tensor::<Rank2<N, 2>>::from_vec(blobs(&centers))?;
    // start from the first four points, one from each blob
    let mut c: Tensor<Rank2<K, 2>> = tensor!(x[0:4]);
    c.realize()?;

    for step in 0..12 {
        let before = tg::runtime::thread_stats();
        let t = Instant::now();
        let (next, inertia) = lloyd_step(x.clone(), c);
        let inertia = inertia.item()?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let after = tg::runtime::thread_stats();
        println!(
            "step {step:>2}: inertia {inertia:>10.2}  {ms:>7.2} ms  {} kernel(s), {} compiled, {}",
            after.kernels - before.kernels,
            after.compiles - before.compiles,
            if after.schedules > before.schedules {
                "recorded"
            } else {
                "replayed"
            },
        );
        c = next;
    }
    let found = c.to_vec()?;
    println!("centroids found (true centers in brackets):");
    for (k, f) in found.chunks(2).enumerate() {
        let nearest = centers
            .iter()
            .min_by(|a, b| {
                let d = |p: &[f32; 2]| (p[0] - f[0]).powi(2) + (p[1] - f[1]).powi(2);
                d(a).total_cmp(&d(b))
            })
            .expect("four centers");
        println!(
            "  {k}: ({:>6.3}, {:>6.3})  [{:>5.2}, {:>5.2}]",
            f[0], f[1], nearest[0], nearest[1]
        );
    }
    println!("as a tg tensor:\n{c}");
    Ok(())
}
