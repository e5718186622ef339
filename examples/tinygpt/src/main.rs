//! A character-level GPT (2 pre-LN blocks, 4-head causal attention, GELU MLP, tied
//! embedding, width 64, context 64, batch 16: 109k parameters) learns a licence text
//! that ships with Debian, then writes 200 characters of its own, drawn with `multinomial`.
//!
//! The model is tg-nn's layers in a struct with `#[derive(Module)]` (the package's library,
//! `src/lib.rs`). Its whole training step, forward, gradients and AdamW (parameter groups: no
//! decay for biases and norms), is one `#[kernel]` of three lines taking the model and the
//! optimizer by `&mut`: recorded on the first call, replayed after, the optimizer advanced
//! each call. Generation starts from a one-character prompt; its window grows to the context,
//! then slides, padded to a few sizes with the length bound at run time
//! (`src/generate.rs`), so it compiles a few kernel sets.
//!
//! `cargo run --release -p tinygpt -- [TEXT] [STEPS]`: TEXT defaults to
//! `/usr/share/common-licenses/GPL-3`, STEPS to 300. `TG_DEBUG=1` shows every realize and
//! replay. On lavapipe (2 cores) the first step takes about 20 s (recording and compiling), a
//! replayed step about 0.13 s.

use std::time::Instant;

use tg::nn::Module;
use tg::optim::{AdamConfig, AdamW, decay_matrices};
use tg::prelude::*;
use tinygpt::{Config, Gpt, generate, train_step};

const B: usize = 16;
const T: usize = 64;

/// A xorshift generator for the batches' offsets (the host's, not tg's stream).
struct Offsets(u64);

impl Offsets {
    fn next(&mut self, below: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % below as u64) as usize
    }
}

fn main() -> tg::Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "/usr/share/common-licenses/GPL-3".into());
    let steps: usize = args.next().map_or(300, |s| s.parse().expect("STEPS"));
    let text = std::fs::read_to_string(&path).map_err(|e| tg::Error::Argument {
        op: "tinygpt",
        message: format!("reading {path}: {e}"),
    })?;
    let mut chars: Vec<char> = text.chars().collect();
    chars.sort_unstable();
    chars.dedup();
    let id = |c: char| chars.binary_search(&c).expect("a character of the text") as i32;
    let ids: Vec<i32> = text.chars().map(id).collect();
    let config = Config {
        vocab: chars.len(),
        context: T,
        dim: 64,
        heads: 4,
        layers: 2,
    };
    DynTensor::manual_seed(0);
    let mut model = Gpt::new(&config)?;
    let params: usize = model.parameters()?.iter().map(|(_, p)| p.numel()).sum();
    println!(
        "{path}: {} characters, {} distinct; {params} parameters on {}",
        ids.len(),
        chars.len(),
        tg::runtime::device::Device::get()?.info().name
    );
    let mut opt = AdamW::with_groups(&mut model, AdamConfig::new(3e-3, 0.1), decay_matrices)?;
    let mut offsets = Offsets(0x9e37_79b9_7f4a_7c15);
    let start = Instant::now();
    for step in 1..=steps {
        let (mut xs, mut ys) = (Vec::with_capacity(B * T), Vec::with_capacity(B * T));
        for _ in 0..B {
            let o = offsets.next(ids.len() - T - 1);
            xs.extend_from_slice(&ids[o..o + T]);
            ys.extend_from_slice(&ids[o + 1..o + T + 1]);
        }
        let x = Tensor::<Rank2<B, T>, i32>::from_slice(&xs)?;
        let y = Tensor::<Rank2<B, T>, i32>::from_slice(&ys)?;
        let loss = train_step(&mut model, &mut opt, &x, &y);
        if step == 1 || step % 50 == 0 || step == steps {
            let loss = loss.to_vec()?[0];
            let per_step = start.elapsed().as_secs_f64() * 1e3 / step as f64;
            println!("step {step:>4}: loss {loss:.4} ({per_step:.1} ms a step so far)");
        }
    }
    // one character: the text's first letter or digit
    let first = text.chars().position(char::is_alphanumeric).unwrap_or(0);
    let prompt = &ids[first..first + 1];
    let before = tg::runtime::thread_stats();
    let written: String = generate::generate(&model, T, prompt, 200, 0.8)?
        .into_iter()
        .map(|id| chars[id as usize])
        .collect();
    // graphs scheduled besides the windows' uploads: the kernel sets recorded
    let after = tg::runtime::thread_stats();
    let recorded = (after.schedules - before.schedules) - (after.uploads - before.uploads);
    println!(
        "--- prompt ---\n{}\n--- 200 characters of its own ({recorded} kernel sets recorded) ---\n{written}",
        chars[prompt[0] as usize]
    );
    Ok(())
}
