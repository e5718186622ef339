//! `tg-bench-llm`: the quantized kernels and the language models against their baselines,
//! each pair timed in turn in one run (medians; wall time with the result synchronized).
//!
//! ```text
//! tg-bench-llm kernels                 matrix-vector products [1, K] x [N, K]^T per type and
//!                                      layout, as GB/s of weights, against tg's add of 16M f32:
//!                                      realized (a new graph each run: scheduled and lowered)
//!                                      and replayed from a recording (as a decode step runs)
//! tg-bench-llm model A.gguf [B.gguf..] prefill (-p, 64) and decode (-n, 32) tokens/s, medians
//!                                      of 3, and llama.cpp's llama-bench on the same file
//!                                      (target/llama.cpp/{vulkan,cpu}/bin, when built) back to back
//! ```

use std::process::{Command, ExitCode};
use std::time::Instant;

use tg_gguf::llm::bench::{self, median};
use tg_gguf::llm::model::Model;
use tg_gguf::{Error, GgmlType, GgufFile, Layout, QTensor, Result, TensorInfo};
use tg_ops::DynTensor;
use tg_runtime::DType;

fn rt(e: tg_runtime::Error) -> Error {
    Error::Runtime(e)
}

/// Seconds of `f` (which realizes its result), synchronized: median of `runs` after one warm-up
/// (the fastest run with `TG_BENCH_MIN=1`, steadier on a loaded machine).
fn time(runs: usize, mut f: impl FnMut(usize) -> Result<()>) -> Result<f64> {
    let mut t = Vec::new();
    for i in 0..=runs {
        let s = Instant::now();
        f(i)?;
        tg_runtime::synchronize().map_err(rt)?;
        if i > 0 {
            t.push(s.elapsed().as_secs_f64());
        }
    }
    if std::env::var("TG_BENCH_MIN").is_ok_and(|v| v == "1") {
        return Ok(t.iter().cloned().fold(f64::INFINITY, f64::min));
    }
    Ok(median(&t))
}

/// Random bytes of whole blocks of `ty` for `[n, k]`, with every f16 scale field set to a
/// finite value (random bytes would make some infinite).
fn weights(ty: GgmlType, n: usize, k: usize) -> (TensorInfo, Vec<u8>) {
    let (per, size) = ty.block();
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut bytes: Vec<u8> = (0..n * k / per * size)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    let halves: Vec<usize> = tg_gguf::layout::fields(ty)
        .iter()
        .filter_map(|f| match f {
            tg_gguf::layout::Field::Half(o) => Some(*o),
            _ => None,
        })
        .collect();
    for block in bytes.chunks_exact_mut(size) {
        for &o in &halves {
            block[o..o + 2].copy_from_slice(&half::f16::from_f32(0.01).to_bits().to_le_bytes());
        }
        if ty == GgmlType::F32 {
            block.copy_from_slice(&0.01f32.to_le_bytes());
        }
    }
    let info = TensorInfo {
        name: format!("{ty}"),
        ty,
        shape: vec![n, k],
        offset: 0,
        bytes: bytes.len(),
    };
    (info, bytes)
}

fn add_rate(runs: usize) -> Result<f64> {
    let n = 1 << 24;
    let a = DynTensor::full(&[n], 1.0f32, DType::F32)
        .map_err(rt)?
        .contiguous();
    let b = DynTensor::full(&[n], 2.0f32, DType::F32)
        .map_err(rt)?
        .contiguous();
    a.realize().map_err(rt)?;
    b.realize().map_err(rt)?;
    let s = time(runs, |i| {
        a.add(&b)
            .map_err(rt)?
            .add(i as f32)
            .map_err(rt)?
            .realize()
            .map_err(rt)?;
        Ok(())
    })?;
    Ok(12.0 * n as f64 / s / 1e9)
}

fn kernels(runs: usize) -> Result<()> {
    let (n, k) = (2048, 768);
    println!(
        "matrix-vector product [1, {k}] x [{n}, {k}]^T, f32 activations, tg's GB/s of weights read (wall, median of {runs}):"
    );
    let x = DynTensor::from_slice(&[1, k], &vec![0.5f32; k]).map_err(rt)?;
    for ty in [
        GgmlType::F32,
        GgmlType::F16,
        GgmlType::Q8_0,
        GgmlType::Q4_0,
        GgmlType::Q4K,
        GgmlType::Q6K,
    ] {
        for layout in [Layout::Planes, Layout::Blocks] {
            let (info, bytes) = weights(ty, n, k);
            let w = QTensor::new(&info, &bytes, layout)?;
            w.realize()?;
            let add = add_rate(runs)?;
            let s = time(runs, |i| {
                let xi = x.add(i as f32).map_err(rt)?;
                w.matmul_t(&xi)?.realize().map_err(rt)?;
                Ok(())
            })?;
            let rate = info.bytes as f64 / s / 1e9;
            // as a decode step runs it: recorded once, replayed (nothing scheduled or lowered)
            let wt = DynTensor::from_lazy(w.values()?.lazy().permute(&[1, 0]).map_err(rt)?);
            let (_, rec) =
                tg_runtime::record(&[x.lazy()], || Ok(vec![x.matmul(&wt)?.lazy().clone()]))
                    .map_err(rt)?;
            let replay = time(runs, |_| {
                rec.replay(&[x.lazy()]).map_err(rt)?;
                Ok(())
            })?;
            let replay_rate = info.bytes as f64 / replay / 1e9;
            println!(
                "  {:<5} {:<7} {:>8.3} ms  {:>6.2} GB/s   replayed {:>8.3} ms {:>6.2} GB/s   add 16M f32 in turn {:>6.2} GB/s   ratio {:.3}  replayed {:.3}",
                ty.name(),
                format!("{layout:?}"),
                s * 1e3,
                rate,
                replay * 1e3,
                replay_rate,
                add,
                rate / add,
                replay_rate / add
            );
        }
    }
    Ok(())
}

fn tg_model(path: &str, p: usize, n: usize, runs: usize) -> Result<(f64, f64, f64, f64)> {
    let file = GgufFile::open(path)?;
    let cold = Instant::now();
    let mut model = Model::load(&file, Some(p + n + 1), Layout::Planes)?;
    let load = cold.elapsed().as_secs_f64();
    let r = bench::run(&mut model, p, n, runs)?;
    let dec = median(&r.decode);
    Ok((
        median(&r.prefill),
        dec,
        dec * model.weight_bytes() as f64 / 1e9,
        load + r.first_token,
    ))
}

/// llama-bench's prefill and decode tokens/s for `path` (`None` where it is not built).
fn llama_bench(kind: &str, path: &str, p: usize, n: usize, runs: usize) -> Option<(f64, f64)> {
    let bin = format!("target/llama.cpp/{kind}/bin/llama-bench");
    if !std::path::Path::new(&bin).exists() {
        return None;
    }
    let mut cmd = Command::new(&bin);
    cmd.args([
        "-m",
        path,
        "-p",
        &p.to_string(),
        "-n",
        &n.to_string(),
        "-r",
        &runs.to_string(),
        "-o",
        "jsonl",
    ]);
    if kind == "vulkan" {
        cmd.args(["-ngl", "99"]).env("GGML_VK_VISIBLE_DEVICES", "0");
    } else {
        cmd.args(["-ngl", "0", "-dev", "none"]);
    }
    let out = cmd.output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let rate = |key: &str| -> Option<f64> {
        text.lines().find(|l| l.contains(key)).and_then(|l| {
            let i = l.find("\"avg_ts\":")? + 9;
            l[i..].split([',', '}']).next()?.trim().parse().ok()
        })
    };
    Some((
        rate(&format!("\"n_prompt\": {p}, \"n_gen\": 0"))?,
        rate(&format!("\"n_prompt\": 0, \"n_gen\": {n}"))?,
    ))
}

fn models(paths: &[String], p: usize, n: usize, runs: usize) -> Result<()> {
    for path in paths {
        let add = add_rate(runs)?;
        let (pre, dec, bw, first) = tg_model(path, p, n, runs)?;
        println!("{path}:");
        println!(
            "  tg (lavapipe)        prefill {p}: {pre:>8.2} tokens/s   decode {n}: {dec:>7.2} tokens/s   first token (load + record + compile) {first:.2} s"
        );
        println!(
            "  tg decode weight bandwidth {bw:.2} GB/s; tg's add of 16M f32 in the same run {add:.2} GB/s ({:.3}x)",
            bw / add
        );
        for kind in ["vulkan", "cpu"] {
            match llama_bench(kind, path, p, n, runs) {
                Some((lp, ld)) => println!(
                    "  llama.cpp {kind:<7}     prefill {p}: {lp:>8.2} tokens/s   decode {n}: {ld:>7.2} tokens/s   tg/llama.cpp: prefill {:.2}x, decode {:.2}x",
                    pre / lp,
                    dec / ld
                ),
                None => println!(
                    "  llama.cpp {kind}: not built (bash scripts/build_llama_cpp.sh) or failed"
                ),
            }
        }
    }
    Ok(())
}

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str, default: usize| -> usize {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let runs = opt("-r", 3);
    match args.first().map(String::as_str) {
        Some("kernels") => kernels(runs.max(5)),
        Some("model") => {
            let paths: Vec<String> = args[1..]
                .iter()
                .take_while(|a| !a.starts_with('-'))
                .cloned()
                .collect();
            models(&paths, opt("-p", 64), opt("-n", 32), runs)
        }
        _ => Err(Error::Argument {
            op: "tg-bench-llm",
            message:
                "usage: tg-bench-llm kernels | model A.gguf [B.gguf ...] [-p 64] [-n 32] [-r 3]"
                    .into(),
        }),
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tg-bench-llm: {e}");
            ExitCode::FAILURE
        }
    }
}
