//! `tg-llm`: run GGUF language models on tg.
//!
//! ```text
//! tg-llm generate MODEL.gguf --prompt TEXT [-n N] [--temp T] [--top-k K] [--top-p P] [--seed S]
//! tg-llm logits MODEL.gguf --tokens 1,5,9 --out FILE.npy
//! tg-llm bench MODEL.gguf [-p 64] [-n 32]
//! tg-llm info MODEL.gguf
//! ```
//! Common options: `--ctx N` (KV cache positions; by default what the command needs: the
//! prompt and `-n` for `generate`, the tokens for `logits`, `-p` and `-n` for `bench`),
//! `--layout planes|blocks`.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use tg_gguf::llm::bench::{self, median};
use tg_gguf::llm::config::Config;
use tg_gguf::llm::generate::generate;
use tg_gguf::llm::model::{Model, device_bytes_needed};
use tg_gguf::llm::sample::Sampler;
use tg_gguf::llm::tokenizer::Tokenizer;
use tg_gguf::{Error, GgufFile, Layout, Result};

struct Args {
    command: String,
    model: String,
    opts: Vec<(String, String)>,
}

fn usage() -> Error {
    Error::Argument {
        op: "tg-llm",
        message:
            "usage: tg-llm generate|logits|bench|info MODEL.gguf [options] (see the crate docs)"
                .into(),
    }
}

impl Args {
    fn parse() -> Result<Args> {
        let mut it = std::env::args().skip(1);
        let command = it.next().ok_or_else(usage)?;
        let model = it.next().ok_or_else(usage)?;
        let mut opts = Vec::new();
        while let Some(k) = it.next() {
            let v = it.next().ok_or_else(|| Error::Argument {
                op: "tg-llm",
                message: format!("{k} needs a value"),
            })?;
            opts.push((k, v));
        }
        Ok(Args {
            command,
            model,
            opts,
        })
    }

    fn get(&self, names: &[&str]) -> Option<&str> {
        self.opts
            .iter()
            .rev()
            .find(|(k, _)| names.contains(&k.as_str()))
            .map(|(_, v)| v.as_str())
    }

    fn num<T: std::str::FromStr>(&self, names: &[&str], default: T) -> Result<T> {
        match self.get(names) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| Error::Argument {
                op: "tg-llm",
                message: format!("{}: {v:?} is not a number", names[0]),
            }),
        }
    }

    fn layout(&self) -> Result<Layout> {
        match self.get(&["--layout"]).unwrap_or("planes") {
            "planes" => Ok(Layout::Planes),
            "blocks" => Ok(Layout::Blocks),
            other => Err(Error::Argument {
                op: "tg-llm",
                message: format!("--layout {other:?}: planes or blocks"),
            }),
        }
    }

    fn ctx(&self) -> Result<Option<usize>> {
        Ok(match self.get(&["--ctx"]) {
            None => None,
            Some(_) => Some(self.num(&["--ctx"], 0)?),
        })
    }
}

/// The bandwidth of tg's own add of two 16M f32 tensors (reads 2, writes 1), median of `reps`
/// after a warm-up: the yardstick of the decode's weight bandwidth.
fn add_bandwidth(reps: usize) -> Result<f64> {
    use tg_ops::DynTensor;
    let n = 1 << 24;
    let a = DynTensor::full(&[n], 1.0f32, tg_runtime::DType::F32)
        .map_err(Error::Runtime)?
        .contiguous();
    let b = DynTensor::full(&[n], 2.0f32, tg_runtime::DType::F32)
        .map_err(Error::Runtime)?
        .contiguous();
    let rt = |e| Error::Runtime(e);
    a.realize().map_err(rt)?;
    b.realize().map_err(rt)?;
    let mut rates = Vec::new();
    for i in 0..=reps {
        let s = Instant::now();
        // a new constant each run: a new node (an equal graph would be the realized one)
        let c = a.add(&b).map_err(rt)?.add(i as f32).map_err(rt)?;
        c.realize().map_err(rt)?;
        tg_runtime::synchronize().map_err(rt)?;
        if i > 0 {
            rates.push(3.0 * 4.0 * n as f64 / s.elapsed().as_secs_f64() / 1e9);
        }
    }
    Ok(median(&rates))
}

fn run() -> Result<()> {
    let args = Args::parse()?;
    let file = GgufFile::open(&args.model)?;
    match args.command.as_str() {
        "info" => {
            let m = file.metadata();
            println!(
                "{}: GGUF v{}, {} tensors, {} metadata keys",
                args.model,
                file.version(),
                file.tensors().len(),
                m.entries().len()
            );
            for (k, v) in m.entries() {
                println!("  {k} = {v}");
            }
            let mut by_type: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
            for t in file.tensors() {
                let e = by_type.entry(t.ty.name()).or_default();
                e.0 += 1;
                e.1 += t.bytes;
            }
            for (ty, (n, bytes)) in by_type {
                println!("  {n} tensors of {ty}: {bytes} bytes");
            }
            if let Ok(c) = Config::from_file(&file) {
                let ctx = args.ctx()?.unwrap_or(c.context).min(c.context);
                println!(
                    "memory: {} bytes of tensors + {} bytes of KV cache ({ctx} positions) = {} bytes",
                    file.tensor_bytes_total(),
                    c.kv_bytes(ctx),
                    device_bytes_needed(&file, &c, ctx)
                );
            }
        }
        "logits" => {
            let tokens: Vec<u32> = args
                .get(&["--tokens"])
                .ok_or_else(|| Error::Argument {
                    op: "logits",
                    message: "--tokens 1,5,9 is needed".into(),
                })?
                .split(',')
                .map(|s| {
                    s.trim().parse::<u32>().map_err(|_| Error::Argument {
                        op: "logits",
                        message: format!("{s:?} is not a token id"),
                    })
                })
                .collect::<Result<_>>()?;
            let out = args.get(&["--out"]).ok_or_else(|| Error::Argument {
                op: "logits",
                message: "--out FILE.npy is needed".into(),
            })?;
            let mut model = Model::load(&file, args.ctx()?.or(Some(tokens.len())), args.layout()?)?;
            let logits = model.prefill_logits(&tokens)?;
            let v = logits.to_vec::<f32>().map_err(Error::Runtime)?;
            std::fs::write(out, tg_gguf::npy::to_npy(logits.shape(), &v)).map_err(|e| {
                Error::Io {
                    path: out.into(),
                    message: e.to_string(),
                }
            })?;
        }
        "generate" => {
            let prompt = args.get(&["--prompt"]).unwrap_or("Once upon a time");
            let n = args.num(&["-n"], 32usize)?;
            let sampler = Sampler {
                temperature: args.num(&["--temp"], 0.0f32)?,
                top_k: args
                    .get(&["--top-k"])
                    .map(|_| args.num(&["--top-k"], 0usize))
                    .transpose()?,
                top_p: args.num(&["--top-p"], 1.0f32)?,
                seed: args.num(&["--seed"], 0u32)?,
            };
            let tokenizer = Tokenizer::from_file(&file)?;
            // a cache of the positions the run takes (the prompt's and `n`), not the model's
            // whole context: a decode step's cache writes cover the cache (they store its new
            // row alone), so at the small model's 2,048 positions they took 15-25% of a
            // token's time, and at a real model's 32,768 the cache itself would take gigabytes
            let needed = tokenizer.encode(prompt)?.len() + n;
            let mut model =
                Model::load(&file, Some(args.ctx()?.unwrap_or(needed)), args.layout()?)?;
            let mut out = std::io::stdout();
            let mut pending = Vec::new();
            let g = generate(&mut model, &tokenizer, prompt, n, &sampler, |id| {
                pending.extend(tokenizer.token_bytes(id)?);
                // write whole characters as they complete
                let valid = match std::str::from_utf8(&pending) {
                    Ok(s) => s.len(),
                    Err(e) => e.valid_up_to(),
                };
                let _ = out.write_all(&pending[..valid]);
                let _ = out.flush();
                pending.drain(..valid);
                Ok(())
            })?;
            println!();
            eprintln!(
                "{} prompt tokens in {:.3} s ({:.1} tokens/s); {} tokens generated, decode {:.2} tokens/s",
                g.prompt.len(),
                g.prefill.as_secs_f64(),
                g.prompt.len() as f64 / g.prefill.as_secs_f64(),
                g.tokens.len(),
                g.decode_tokens_per_second()
            );
        }
        "bench" => {
            let p = args.num(&["-p"], 64usize)?;
            let n = args.num(&["-n"], 32usize)?;
            let reps = args.num(&["-r"], 3usize)?;
            let mut model = Model::load(
                &file,
                Some(args.ctx()?.unwrap_or(p + n + 1)),
                args.layout()?,
            )?;
            // `--eager 1`: build every step anew (so TG_DEBUG=2 times each kernel)
            model.eager = args.num(&["--eager"], 0u8)? == 1;
            let r = bench::run(&mut model, p, n, reps)?;
            println!(
                "first token (recording and compiling the prefill): {:.2} s",
                r.first_token
            );
            println!("first decode step (recording): {:.2} s", r.first_decode);
            let (pre, dec) = (r.prefill, r.decode);
            tg_runtime::synchronize().map_err(Error::Runtime)?;
            let stats = model.device().memory_stats();
            let needed = device_bytes_needed(&file, model.config(), model.context());
            println!(
                "device memory: {} bytes live ({} pooled), {:.3}x the file's tensor bytes + the KV cache ({needed})",
                stats.live_bytes,
                stats.pooled_bytes,
                stats.live_bytes as f64 / needed as f64
            );
            println!(
                "prefill {p}: {:.2} tokens/s (median of {reps}: {pre:.2?})",
                median(&pre)
            );
            println!(
                "decode {n}: {:.2} tokens/s (median of {reps}: {dec:.2?})",
                median(&dec)
            );
            let weights = median(&dec) * model.weight_bytes() as f64 / 1e9;
            // the baseline needs 192 MiB beside the model, which a TG_MEMORY_LIMIT may not leave
            match add_bandwidth(reps) {
                Ok(add) => println!(
                    "decode weight bandwidth: {weights:.2} GB/s ({} bytes of weights a token); tg's add of 16M f32 in the same run: {add:.2} GB/s ({:.2}x)",
                    model.weight_bytes(),
                    weights / add
                ),
                Err(Error::Runtime(e @ tg_runtime::Error::OutOfMemory { .. })) => println!(
                    "decode weight bandwidth: {weights:.2} GB/s ({} bytes of weights a token); tg's add of 16M f32 not measured: {e}",
                    model.weight_bytes()
                ),
                Err(e) => return Err(e),
            }
        }
        other => {
            return Err(Error::Argument {
                op: "tg-llm",
                message: format!("unknown command {other:?}: generate, logits, bench or info"),
            });
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tg-llm: {e}");
            ExitCode::FAILURE
        }
    }
}
