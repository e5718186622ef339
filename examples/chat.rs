//! A chat loop over a GGUF language model, the way a Vulkan application would embed one:
//! load the file, tokenize what the user types, feed it through the recorded decode step,
//! and stream the reply token by token (only each sampled id comes back from the device).
//!
//! ```sh
//! python3 scripts/gen_gguf_models.py tiny        # or any llama/mistral/qwen2 GGUF file
//! cargo run --release --example chat -- target/gguf-models/tiny-q4_0.gguf
//! ```
//! Lines typed on standard input are the user's turns; an empty line or end of input ends it.
//! Options after the model: `-n N` tokens a reply (default 48), `--temp T` (0.8), `--seed S`.

use std::io::{BufRead, Write};

use tg::gguf::llm::model::Model;
use tg::gguf::llm::sample::Sampler;
use tg::gguf::llm::tokenizer::Tokenizer;
use tg::gguf::{GgufFile, Layout};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .ok_or("usage: chat MODEL.gguf [-n N] [--temp T] [--seed S]")?;
    let opt = |name: &str, default: &str| -> String {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
            .unwrap_or_else(|| default.to_string())
    };
    let per_reply: usize = opt("-n", "48").parse()?;
    let sampler = Sampler {
        temperature: opt("--temp", "0.8").parse()?,
        top_k: Some(40),
        top_p: 0.95,
        seed: opt("--seed", "0").parse()?,
    };

    let file = GgufFile::open(path)?;
    let tokenizer = Tokenizer::from_file(&file)?;
    let mut model = Model::load(&file, Some(1024), Layout::Planes)?;
    eprintln!(
        "{}: {} layers, {} wide, context {}",
        path,
        model.config().layers,
        model.config().dim,
        model.context()
    );

    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut pos = 0usize; // positions the KV cache holds
    let mut next = None; // the token sampled after the last position
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            break;
        }
        let mut ids = tokenizer.encode(&line)?;
        if pos > 0 {
            ids.retain(|&t| Some(t) != tokenizer.bos); // one BOS, at the start
        }
        if pos + ids.len() + per_reply >= model.context() {
            eprintln!("(context full)");
            break;
        }
        // the user's turn: a prefill at the start, then one decode step a token
        let mut token = if pos == 0 {
            let t = model.prefill(&ids, &sampler)?;
            pos = ids.len();
            t
        } else {
            let mut t = next.unwrap_or(ids[0]);
            for &id in &ids {
                t = model.decode_step(id, pos, &sampler)?;
                pos += 1;
            }
            t
        };
        // the reply, streamed
        let mut bytes = Vec::new();
        for _ in 0..per_reply {
            if Some(token) == tokenizer.eos {
                break;
            }
            bytes.extend(tokenizer.token_bytes(token)?);
            let valid = std::str::from_utf8(&bytes).map_or_else(|e| e.valid_up_to(), str::len);
            out.write_all(&bytes[..valid])?;
            out.flush()?;
            bytes.drain(..valid);
            token = model.decode_step(token, pos, &sampler)?;
            pos += 1;
        }
        next = Some(token);
        writeln!(out)?;
    }
    Ok(())
}
