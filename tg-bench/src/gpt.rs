//! What `tg-bench-gpt` times of examples/tinygpt (the `tinygpt` package's model and
//! `generate` module, so that the rows time the example's own code): generation from a one-id prompt, bucketed
//! (`generate.rs`) against a window of the exact length each token (the eager sample, which
//! compiles per length); the training step as the example's `#[kernel]` in CPU time against
//! numpy's forward, backward and AdamW of the same model (`scripts/bench_tinygpt_numpy.py`,
//! one BLAS thread); and `scaled_dot_product_attention` forward and backward against the same
//! attention composed of ops.

use tinygpt as model;
use tinygpt::generate;

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use tg::nn::Module;
use tg::optim::{AdamConfig, AdamW, decay_matrices};
use tg::prelude::*;

use crate::median;

/// The benchmark's model: vocab 76, context 64, width 64, 4 heads, 2 blocks.
pub const CONFIG: model::Config = model::Config {
    vocab: 76,
    context: 64,
    dim: 64,
    heads: 4,
    layers: 2,
};

/// One generation run: tokens, seconds, shaders compiled (memory and disk caches missed),
/// graphs scheduled besides the windows' uploads (kernel sets recorded, or built eagerly),
/// kernels dispatched.
#[derive(Clone, Copy, Debug)]
pub struct Generation {
    /// Tokens drawn.
    pub tokens: usize,
    /// Wall seconds for all of them.
    pub seconds: f64,
    /// Shaders compiled.
    pub compiles: u64,
    /// Graphs scheduled, less the uploads' own (each window is uploaded on its own first).
    pub graphs: u64,
    /// Kernels dispatched.
    pub kernels: u64,
}

/// A model of [`CONFIG`] with realized parameters, the same for the same seed.
pub fn gpt(seed: u32) -> model::Gpt {
    DynTensor::manual_seed(seed);
    let m = model::Gpt::new(&CONFIG).expect("gpt");
    let params = m.tensors().expect("tensors");
    tg::runtime::realize(&params.iter().map(|(_, t)| t.lazy()).collect::<Vec<_>>())
        .expect("realize");
    m
}

fn generation(tokens: usize, mut next: impl FnMut(&[i32]) -> i32) -> Generation {
    let before = tg::runtime::process_stats();
    let start = Instant::now();
    let mut ids = vec![1];
    for _ in 0..tokens {
        let id = next(&ids);
        ids.push(id);
    }
    let after = tg::runtime::process_stats();
    Generation {
        tokens,
        seconds: start.elapsed().as_secs_f64(),
        compiles: after.compiles - before.compiles,
        graphs: (after.schedules - before.schedules) - (after.uploads - before.uploads),
        kernels: after.kernels - before.kernels,
    }
}

/// `tokens` tokens from a one-id prompt with the window padded to its bucket
/// (`generate.rs`).
pub fn bucketed(m: &model::Gpt, tokens: usize) -> Generation {
    generation(tokens, |ids| {
        generate::next_padded(m, CONFIG.context, ids, 0.8)
            .expect("next")
            .1
    })
}

/// `tokens` tokens from a one-id prompt, each from the eager sample over the window of its
/// exact length (a graph of new shapes, so new kernels, for every length up to the context).
pub fn exact(m: &model::Gpt, tokens: usize) -> Generation {
    generation(tokens, |ids| {
        let w = &ids[ids.len().saturating_sub(CONFIG.context)..];
        let x = DynTensor::from_slice(&[1, w.len()], w).expect("ids");
        x.realize().expect("upload");
        m.sample(&x, 0.8)
            .expect("sample")
            .to_vec::<i32>()
            .expect("id")[0]
    })
}

/// User plus system CPU seconds of this process so far (every thread: lavapipe's too), from
/// `/proc/self/stat`; `None` where there is none.
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // the fields after the command name (which may hold spaces) in parentheses
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    // USER_HZ, 100 on Linux
    Some(ticks / 100.0)
}

/// The example's `#[kernel]` step over `steps` timed steps after two warm-up ones (the first
/// records and compiles): median wall ms per step, CPU ms per step (the timed steps' CPU time
/// over their count; `/proc`'s ticks are 10 ms, so an average), kernels per step, last loss.
pub fn step(steps: usize) -> (f64, Option<f64>, u64, f32) {
    let mut m = gpt(1);
    let mut opt =
        AdamW::with_groups(&mut m, AdamConfig::new(3e-3, 0.1), decay_matrices).expect("adamw");
    let mut walls = Vec::new();
    let mut kernels = 0;
    let mut loss = f32::NAN;
    let mut cpu_start = None;
    for k in 0..steps as u32 + 2 {
        if k == 2 {
            cpu_start = cpu_seconds();
        }
        let (x, y) = crate::train::gpt_batch(k, CONFIG.vocab as u32);
        let before = tg::runtime::thread_stats().kernels;
        let t = Instant::now();
        loss = model::train_step(&mut m, &mut opt, &x, &y)
            .to_vec()
            .expect("loss")[0];
        walls.push(t.elapsed().as_secs_f64() * 1e3);
        kernels = tg::runtime::thread_stats().kernels - before;
    }
    let cpu = cpu_start
        .zip(cpu_seconds())
        .map(|(a, b)| (b - a) * 1e3 / steps as f64);
    (median(walls.split_off(2)), cpu, kernels, loss)
}

/// numpy's figures for the same step: `(wall ms, CPU ms, last loss, numpy's version)`, or why
/// there are none (no python3, no numpy, the script failed).
pub fn numpy_step(steps: usize) -> Result<(f64, f64, f64, String), String> {
    let threads = [
        ("OPENBLAS_NUM_THREADS", "1"),
        ("MKL_NUM_THREADS", "1"),
        ("OMP_NUM_THREADS", "1"),
    ];
    let text = peer_script("bench_tinygpt_numpy.py", &[&steps.to_string()], &threads)?;
    let num = |name: &str| -> Result<f64, String> {
        json_field(&text, name)?
            .parse()
            .map_err(|e| format!("{name} in {text}: {e}"))
    };
    Ok((
        num("wall_ms")?,
        num("cpu_ms")?,
        num("loss")?,
        json_field(&text, "numpy")?,
    ))
}

/// The kernels tinygrad's scheduler makes of the same training step
/// (`scripts/tinygrad_gpt_kernels.py`, on tinygrad's NULL device), and tinygrad's version;
/// an error where python3 or tinygrad is missing.
pub fn tinygrad_step_kernels() -> Result<(u64, String), String> {
    let text = peer_script("tinygrad_gpt_kernels.py", &[], &[("DEV", "NULL")])?;
    let kernels = json_field(&text, "kernels")?
        .parse()
        .map_err(|e| format!("kernels in {text}: {e}"))?;
    Ok((kernels, json_field(&text, "tinygrad")?))
}

/// The standard output of python3 running `scripts/{script}` with `args` and `envs`, or why
/// there is none (no python3, or the script failed: its last line of errors).
fn peer_script(script: &str, args: &[&str], envs: &[(&str, &str)]) -> Result<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scripts")
        .join(script);
    let out = Command::new("python3")
        .arg(&path)
        .args(args)
        .envs(envs.iter().copied())
        .output()
        .map_err(|e| format!("python3 did not run ({e})"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err.lines().last().unwrap_or("").to_string();
        return Err(format!("{} failed: {last}", path.display()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The value of field `name` in a flat JSON object printed by one of the peer scripts.
fn json_field(text: &str, name: &str) -> Result<String, String> {
    let at = text
        .find(&format!("\"{name}\": "))
        .ok_or_else(|| format!("no {name} in {text}"))?;
    let rest = &text[at + name.len() + 4..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    Ok(rest[..end].trim().trim_matches('"').to_string())
}

/// `scaled_dot_product_attention` of `(b, h, t, d)` inputs, causal or (`padded`) with a
/// key-padding mask (`(b, 1, 1, t)` bools: batch entry `i` sees its first `t - (i % 4) t / 8`
/// keys), with dropout of probability `dropout` (0: none), forward or forward and backward,
/// against the composition dropout(softmax(q k^T / sqrt(d) + mask)) v of ops with the same
/// mask as 0 and -inf: median ms of each, timed in turn.
pub fn attention(
    b: usize,
    h: usize,
    t: usize,
    d: usize,
    backward: bool,
    padded: bool,
    dropout: f64,
) -> (f64, f64) {
    let shape = [b, h, t, d];
    let q = crate::input(&shape, 1);
    let k = crate::input(&shape, 2);
    let v = crate::input(&shape, 3);
    let keep: Vec<bool> = (0..b * t)
        .map(|i| i % t < t - (i / t % 4) * t / 8)
        .collect();
    let padding = DynTensor::from_slice(&[b, 1, 1, t], &keep).expect("padding");
    let mask = if padded {
        padding
            .where_(0.0f32, f32::NEG_INFINITY)
            .expect("additive padding")
    } else {
        DynTensor::full(&[t, t], f32::NEG_INFINITY, DType::F32)
            .expect("mask")
            .triu(1)
            .expect("triu")
    };
    mask.realize().expect("mask");
    let run = |fused: bool| {
        let (q, k, v) = if backward {
            (q.requires_grad(), k.requires_grad(), v.requires_grad())
        } else {
            (q.clone(), k.clone(), v.clone())
        };
        let t0 = Instant::now();
        let out = if fused {
            match padded {
                true => q.scaled_dot_product_attention(&k, &v, Some(&padding), dropout, false),
                false => q.scaled_dot_product_attention(&k, &v, None, dropout, true),
            }
            .expect("sdpa")
        } else {
            q.matmul(&k.transpose(-1, -2).expect("t"))
                .and_then(|s| s.div((d as f64).sqrt()))
                .and_then(|s| s.add(&mask))
                .and_then(|s| s.softmax(-1, None))
                .and_then(|p| p.dropout(dropout))
                .and_then(|p| p.matmul(&v))
                .expect("composition")
        };
        let mut outs = vec![out.lazy().clone()];
        if backward {
            let loss = out.sum(None, false).expect("sum");
            let g = loss.gradient(&[&q, &k, &v], None).expect("gradient");
            outs = g.iter().map(|g| g.lazy().clone()).collect();
        }
        tg::runtime::realize(&outs.iter().collect::<Vec<_>>()).expect("realize");
        tg::runtime::synchronize().expect("sync");
        t0.elapsed().as_secs_f64() * 1e3
    };
    run(true);
    run(false);
    let (mut a, mut c) = (Vec::new(), Vec::new());
    for _ in 0..crate::runs() {
        a.push(run(true));
        c.push(run(false));
    }
    (median(a), median(c))
}
