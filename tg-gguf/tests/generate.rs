//! Text generation on the tiny test models (`scripts/gen_gguf_models.py tiny`): sampling on
//! the device against the logits, seeded repeatability, the tokenizer, memory that stays flat
//! over a long generation, and two models on two devices in one process.

use std::path::PathBuf;

use tg_gguf::llm::generate::generate;
use tg_gguf::llm::model::Model;
use tg_gguf::llm::sample::Sampler;
use tg_gguf::llm::tokenizer::{Kind, Tokenizer};
use tg_gguf::{GgufFile, Layout, Metadata, Value};
use tg_runtime::device::Device;

fn model_file(ty: &str) -> GgufFile {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../target/gguf-models/tiny-{ty}.gguf"));
    GgufFile::open(&path).unwrap_or_else(|e| {
        panic!("{e}; make the test models with `python3 scripts/gen_gguf_models.py tiny`")
    })
}

fn argmax(v: &[f32]) -> u32 {
    (0..v.len()).fold(0, |b, i| if v[i] > v[b] { i } else { b }) as u32
}

const PROMPT: [u32; 6] = [1, 300, 17, 42, 99, 100];

#[test]
fn greedy_steps_take_the_argmax_of_the_logits() {
    let file = model_file("q8_0");
    let mut model = Model::load(&file, Some(64), Layout::Planes).unwrap();
    let logits = model
        .prefill_logits(&PROMPT)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let want = argmax(&logits[5 * 512..]);
    assert_eq!(model.prefill(&PROMPT, &Sampler::greedy()).unwrap(), want);
    let mut token = want;
    for pos in PROMPT.len()..PROMPT.len() + 4 {
        let l = model
            .decode_logits(token, pos)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        let next = model.decode_step(token, pos, &Sampler::greedy()).unwrap();
        assert_eq!(next, argmax(&l), "position {pos}");
        token = next;
    }
}

#[test]
fn top_k_1_and_a_tiny_top_p_are_greedy() {
    let file = model_file("q4_0");
    let mut model = Model::load(&file, Some(64), Layout::Planes).unwrap();
    let greedy = model.prefill(&PROMPT, &Sampler::greedy()).unwrap();
    for s in [
        Sampler {
            temperature: 1.5,
            top_k: Some(1),
            top_p: 1.0,
            seed: 3,
        },
        Sampler {
            temperature: 1.5,
            top_k: None,
            top_p: 1e-6,
            seed: 3,
        },
        Sampler {
            temperature: 1.5,
            top_k: Some(40),
            top_p: 1e-6,
            seed: 4,
        },
    ] {
        for _ in 0..3 {
            assert_eq!(model.prefill(&PROMPT, &s).unwrap(), greedy, "{s:?}");
        }
    }
}

#[test]
fn seeded_sampling_repeats_and_differs_by_seed() {
    let file = model_file("q4_k");
    let tok = Tokenizer::from_file(&file).unwrap();
    let mut model = Model::load(&file, Some(64), Layout::Planes).unwrap();
    let run = |model: &mut Model, seed: u32| {
        let s = Sampler {
            temperature: 1.0,
            top_k: Some(50),
            top_p: 0.95,
            seed,
        };
        generate(model, &tok, "the cat", 12, &s, |_| Ok(()))
            .unwrap()
            .tokens
    };
    let a = run(&mut model, 7);
    let b = run(&mut model, 7);

    let c = run(&mut model, 8);
    assert_eq!(a, b);
    assert_eq!(a.len(), 12);
    assert_ne!(a, c, "two seeds drew the same 12 tokens of 512");
    // the near-uniform random model: sampled tokens spread over the vocabulary
    let distinct: std::collections::HashSet<_> = a.iter().chain(&c).collect();
    assert!(distinct.len() > 8, "{a:?} {c:?}");
}

/// Temperature sampling draws token `i` with probability softmax(logits / T)_i: 600 draws
/// (600 seeds) at one position, counted against the probabilities (each count within 5
/// standard deviations).
#[test]
fn temperature_sampling_follows_the_softmax() {
    let file = model_file("f32");
    let mut model = Model::load(&file, Some(16), Layout::Planes).unwrap();
    let t = 0.05f32;
    let logits = model
        .prefill_logits(&PROMPT)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let row = &logits[5 * 512..];
    let m = row.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
    let w: Vec<f64> = row.iter().map(|&x| f64::from((x - m) / t).exp()).collect();
    let z: f64 = w.iter().sum();
    let p: Vec<f64> = w.iter().map(|x| x / z).collect();
    let n = 600;
    let mut counts = vec![0usize; 512];
    for seed in 0..n as u32 {
        let s = Sampler {
            temperature: t,
            top_k: None,
            top_p: 1.0,
            seed,
        };
        counts[model.prefill(&PROMPT, &s).unwrap() as usize] += 1;
    }
    for i in 0..512 {
        let expect = p[i] * n as f64;
        let sd = (n as f64 * p[i] * (1.0 - p[i])).sqrt().max(1.0);
        assert!(
            (counts[i] as f64 - expect).abs() <= 5.0 * sd,
            "token {i}: drawn {} times, expected {expect:.1} (p {:.4})",
            counts[i],
            p[i]
        );
    }
}

#[test]
fn sentencepiece_text_round_trips() {
    let file = model_file("f32");
    let tok = Tokenizer::from_file(&file).unwrap();
    assert_eq!(tok.kind(), Kind::SentencePiece);
    for text in [
        "the cat sat on the mat",
        "Hello, world!",
        "naïve café 42",
        "  two  spaces",
    ] {
        let ids = tok.encode(text).unwrap();
        assert_eq!(ids[0], 1, "BOS first");
        assert_eq!(tok.decode(&ids).unwrap(), text);
    }
    // the best-scored pair merges first: "▁t" (an earlier, higher-scored piece) before "th",
    // then "he"; "▁th" is not a piece of the tiny vocabulary. "é" falls back to its two bytes.
    let ids = tok.encode("the").unwrap();
    let pieces: Vec<&str> = ids[1..].iter().map(|&i| tok.piece(i).unwrap()).collect();
    assert_eq!(pieces, vec!["\u{2581}t", "he"]);
    let ids = tok.encode("é").unwrap();
    assert_eq!(
        ids.iter()
            .filter(|&&i| tok.piece(i).is_some_and(|p| p.starts_with("<0x")))
            .count(),
        2
    );
}

#[test]
fn gpt2_bpe_merges_by_rank() {
    let chars = |s: &str| Value::String(s.to_string());
    // a byte-level vocabulary: every printable ASCII byte, and merges to "hello" and "Ġworld"
    let mut tokens: Vec<Value> = (33u8..=126)
        .map(|b| chars(&(b as char).to_string()))
        .collect();
    for t in [
        "Ġ", "he", "ll", "hell", "hello", "Ġw", "or", "Ġwor", "ld", "Ġworld", "<|end|>",
    ] {
        tokens.push(chars(t));
    }
    let merges = [
        "h e", "l l", "he ll", "hell o", "Ġ w", "o r", "Ġw or", "l d", "Ġwor ld",
    ];
    let m = Metadata::from_entries(vec![
        ("tokenizer.ggml.model".into(), chars("gpt2")),
        ("tokenizer.ggml.tokens".into(), Value::Array(tokens.clone())),
        (
            "tokenizer.ggml.merges".into(),
            Value::Array(merges.iter().map(|s| chars(s)).collect()),
        ),
        (
            "tokenizer.ggml.eos_token_id".into(),
            Value::U32(tokens.len() as u32 - 1),
        ),
    ]);
    let tok = Tokenizer::from_metadata(&m).unwrap();
    assert_eq!(tok.kind(), Kind::Bpe);
    let ids = tok.encode("hello world!").unwrap();
    let pieces: Vec<&str> = ids.iter().map(|&i| tok.piece(i).unwrap()).collect();
    assert_eq!(pieces, vec!["hello", "Ġworld", "!"]);
    assert_eq!(tok.decode(&ids).unwrap(), "hello world!");
}

/// After the first tokens, generating more allocates nothing: the decode replays its
/// recording into the same buffers. 1,000 tokens with `TG_LONG_TESTS=1`, 120 otherwise. On a
/// device of its own, so the other tests' buffers do not count.
#[test]
fn memory_is_flat_while_generating() {
    let device = Device::open("0").unwrap();
    device.clone().scope(|| flat_memory(&device));
}

fn flat_memory(device: &Device) {
    let long = std::env::var("TG_LONG_TESTS").is_ok_and(|v| !v.is_empty() && v != "0");
    let n = if long { 1000 } else { 120 };
    let file = model_file("q4_0");
    let tok = Tokenizer::from_file(&file).unwrap();
    let mut model = Model::load(&file, Some(n + 16), Layout::Planes).unwrap();
    let s = Sampler {
        temperature: 0.8,
        top_k: Some(40),
        top_p: 0.9,
        seed: 1,
    };
    let mut after_first = None;
    let mut count = 0;
    let g = generate(&mut model, &tok, "the", n, &s, |_| {
        count += 1;
        if count == 3 {
            device.synchronize().unwrap();
            after_first = Some(device.memory_stats());
        }
        Ok(())
    })
    .unwrap();
    device.synchronize().unwrap();
    let end = device.memory_stats();
    let first = after_first.unwrap();
    assert!(
        g.tokens.len() == n || g.tokens.last() == tok.eos.as_ref(),
        "{} tokens",
        g.tokens.len()
    );
    assert_eq!(
        end.live_bytes,
        first.live_bytes,
        "live bytes grew over {} tokens",
        g.tokens.len()
    );
    assert_eq!(
        end.allocations,
        first.allocations,
        "new buffers over {} tokens",
        g.tokens.len()
    );
}

/// A long prompt runs in steps of 32 rows, each decoding the weights inside its products'
/// tiles (32 reads of a weight stay under the 64 from which the scheduler stores a value in
/// a buffer of its own), and the recordings' arenas are planned by lifetime, so no weight is
/// stored in f32 (a whole prompt in one step held one layer's, 1.2-1.5x the file's tensor
/// bytes plus the cache for the small models at 64 and 512 tokens; in steps they are at
/// 1.04-1.08x, within the issue's 10%). This tiny model's weights are small beside 32 rows'
/// activations (3 recordings' arenas, among them the gate and up product's `[32, 2 FFN]`
/// sums that the SiLU reads in a kernel of its own: 19% over), so the bound here is three
/// quarters of its FFN weight in f32, which its FFN's weights stored in f32 would cross
/// (the gate and up weights, stacked, are twice that). What the recording runs freed goes
/// back to the driver. On a device of its own, so the other tests' buffers do not count.
#[test]
fn a_long_prompt_stores_no_weight_in_f32() {
    let device = Device::open("0").unwrap();
    device.clone().scope(|| {
        let file = model_file("q4_0");
        let ctx = 120;
        let mut model = Model::load(&file, Some(ctx), Layout::Planes).unwrap();
        let config = model.config().clone();
        // three steps of 32 rows and one of 4 (3 of them prompt rows)
        let tokens: Vec<u32> = (0..99).map(|i| (i * 7 % config.vocab) as u32).collect();
        let s = Sampler::default();
        // recorded, then replayed (the replay allocates the arena)
        let first = model.prefill(&tokens, &s).unwrap();
        let again = model.prefill(&tokens, &s).unwrap();
        assert_eq!(first, again);
        model.decode_step(first, tokens.len(), &s).unwrap();
        device.synchronize().unwrap();
        let stats = device.memory_stats();
        let needed =
            tg_gguf::llm::model::device_bytes_needed(&file, &config, model.context()) as u64;
        let largest = (config.ffn * config.dim * 4) as u64;
        assert!(
            stats.live_bytes <= needed + largest * 3 / 4,
            "{} bytes live for {needed} of tensors and cache (the FFN weight in f32: {largest})",
            stats.live_bytes
        );
        assert!(
            stats.pooled_bytes < largest,
            "{} bytes pooled after the recording",
            stats.pooled_bytes
        );
    });
}

/// The logits of a prompt's positions do not depend on how the prompt is cut into prefill
/// steps or padded: 37 tokens (32 + 5 in a step of 8) against the first 37 rows of 70 (32 +
/// 32 + 6 in a step of 8), and the decode steps after the prompt against them.
#[test]
fn prefill_steps_give_the_logits_of_one_pass() {
    let file = model_file("q8_0");
    let vocab = 512;
    let tokens: Vec<u32> = (0..70).map(|i| (i * 31 + 5) % vocab as u32).collect();
    let mut model = Model::load(&file, Some(80), Layout::Planes).unwrap();
    let all = model
        .prefill_logits(&tokens)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(all.len(), 70 * vocab);
    let part = model
        .prefill_logits(&tokens[..37])
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(part.len(), 37 * vocab);
    let max_diff = |a: &[f32], b: &[f32]| {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).abs())
            .fold(0f32, f32::max)
    };
    let max = max_diff(&part, &all[..37 * vocab]);
    assert!(
        max < 1e-4,
        "37 tokens against the first 37 of 70: max abs {max}"
    );
    for p in 37..40 {
        let step = model
            .decode_logits(tokens[p], p)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        let max = max_diff(&step, &all[p * vocab..(p + 1) * vocab]);
        assert!(max < 1e-4, "decode at {p}: max abs {max}");
    }
}

/// Two models, each on a device of its own (on lavapipe: two logical devices), give the
/// logits each gives alone.
#[test]
fn two_models_on_two_devices() {
    let (fa, fb) = (model_file("q8_0"), model_file("q4_k"));
    let alone_a = Model::load(&fa, Some(8), Layout::Planes)
        .unwrap()
        .prefill_logits(&PROMPT)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let alone_b = Model::load(&fb, Some(8), Layout::Planes)
        .unwrap()
        .prefill_logits(&PROMPT)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let (da, db) = (Device::open("0").unwrap(), Device::open("0").unwrap());
    let mut a = da
        .scope(|| Model::load(&fa, Some(8), Layout::Planes))
        .unwrap();
    let mut b = db
        .scope(|| Model::load(&fb, Some(8), Layout::Planes))
        .unwrap();
    let la = a.prefill_logits(&PROMPT).unwrap();
    let lb = b.prefill_logits(&PROMPT).unwrap();
    assert_eq!(la.to_vec::<f32>().unwrap(), alone_a);
    assert_eq!(lb.to_vec::<f32>().unwrap(), alone_b);
    let next = a.decode_step(5, PROMPT.len(), &Sampler::greedy()).unwrap();
    assert!(next < 512);
}

/// A damaged model file fails with an error naming what is wrong, before anything loads.
#[test]
fn damaged_model_files_fail_cleanly() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/gguf-models/tiny-q4_0.gguf");
    let bytes = std::fs::read(path).unwrap();
    // cut inside the last tensor's data
    let e = GgufFile::from_bytes(bytes[..bytes.len() - 100].to_vec()).unwrap_err();
    assert!(matches!(e, tg_gguf::Error::TensorOutOfBounds { .. }), "{e}");
    // a tensor the model needs renamed in the table
    let name = b"blk.1.ffn_up.weight";
    let at = bytes.windows(name.len()).position(|w| w == name).unwrap();
    let mut renamed = bytes.clone();
    renamed[at + 6] = b'X';
    let file = GgufFile::from_bytes(renamed).unwrap();
    let e = Model::load(&file, Some(8), Layout::Planes).err().unwrap();
    assert!(
        matches!(&e, tg_gguf::Error::MissingTensor { tensor } if tensor == "blk.1.ffn_up.weight"),
        "{e}"
    );
    // a hyperparameter of the wrong type
    let key = b"llama.block_count";
    let at = bytes.windows(key.len()).position(|w| w == key).unwrap() + key.len();
    let mut typed = bytes.clone();
    typed[at..at + 4].copy_from_slice(&6u32.to_le_bytes()); // u32 -> f32
    let file = GgufFile::from_bytes(typed).unwrap();
    let e = Model::load(&file, Some(8), Layout::Planes).err().unwrap();
    assert!(
        matches!(&e, tg_gguf::Error::BadValue { key, .. } if key == "llama.block_count"),
        "{e}"
    );
}
