//! tg's logits for the tiny test models against llama.cpp's (`scripts/gen_gguf_reference.py`:
//! its CPU backend over 64 token ids from position 0), and tg's decode step against its own
//! prefill. The models come from `scripts/gen_gguf_models.py tiny` (the test command runs it;
//! it is deterministic, and each file's SHA3-256 is checked against the one llama.cpp read).
//!
//! llama.cpp's CPU backend rounds the activations a quantized weight multiplies to 8 bits
//! (Q8_0 / Q8_K blocks) where tg multiplies them in f32, so for the quantized models the
//! logits differ by up to about 0.03 and the top token agrees only where the two best logits
//! are further apart than that; the mean KL divergence is the measure there.

use std::path::PathBuf;

use sha3::Digest;
use tg_gguf::llm::model::Model;
use tg_gguf::{GgufFile, Layout, npy};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

struct Reference {
    tokens: Vec<u32>,
    logits: Vec<f32>,
    file: GgufFile,
}

fn reference(ty: &str) -> Reference {
    reference_of(ty, "logits")
}

/// `key`: `logits` (llama.cpp's CPU backend) or `vulkan_logits` (its Vulkan backend on
/// lavapipe, for the quantized models).
fn reference_of(ty: &str, key: &str) -> Reference {
    let json: serde_json::Value = serde_json::from_slice(
        &std::fs::read(root().join("fixtures/gguf/reference.json")).unwrap(),
    )
    .unwrap();
    let tokens: Vec<u32> = json["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_u64().unwrap() as u32)
        .collect();
    let m = &json["models"][ty];
    let path = root().join(format!("target/gguf-models/tiny-{ty}.gguf"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; make the test models with `python3 scripts/gen_gguf_models.py tiny`",
            path.display()
        )
    });
    let sha = format!("{:x}", sha3::Sha3_256::digest(&bytes));
    assert_eq!(
        sha,
        m["sha3_256"].as_str().unwrap(),
        "{} is not the file llama.cpp's reference was made from (another numpy or gguf version?)",
        path.display()
    );
    let (shape, logits) = npy::from_npy(
        &std::fs::read(root().join("fixtures/gguf").join(m[key].as_str().unwrap())).unwrap(),
    )
    .unwrap();
    assert_eq!(shape, vec![tokens.len(), 512]);
    Reference {
        tokens,
        logits,
        file: GgufFile::open(&path).unwrap(),
    }
}

fn log_softmax(row: &[f32]) -> Vec<f64> {
    let m = row
        .iter()
        .fold(f64::NEG_INFINITY, |a, &b| a.max(f64::from(b)));
    let lse = row
        .iter()
        .map(|&x| (f64::from(x) - m).exp())
        .sum::<f64>()
        .ln();
    row.iter().map(|&x| f64::from(x) - m - lse).collect()
}

fn argmax(row: &[f32]) -> usize {
    (0..row.len()).fold(0, |b, i| if row[i] > row[b] { i } else { b })
}

/// (max abs difference, top-1 agreement, mean KL(llama.cpp || tg), agreement where llama.cpp's
/// best logit leads the second by more than `margin`).
fn compare(want: &[f32], got: &[f32], vocab: usize, margin: f32) -> (f32, f64, f64, f64) {
    let rows = want.len() / vocab;
    let (mut max, mut agree, mut kl, mut clear, mut clear_agree) = (0f32, 0, 0f64, 0, 0);
    for r in 0..rows {
        let (a, b) = (
            &want[r * vocab..(r + 1) * vocab],
            &got[r * vocab..(r + 1) * vocab],
        );
        for (x, y) in a.iter().zip(b) {
            max = max.max((x - y).abs());
        }
        let same = argmax(a) == argmax(b);
        agree += usize::from(same);
        let mut sorted = a.to_vec();
        sorted.sort_by(|x, y| y.total_cmp(x));
        if sorted[0] - sorted[1] > margin {
            clear += 1;
            clear_agree += usize::from(same);
        }
        let (pa, pb) = (log_softmax(a), log_softmax(b));
        kl += pa
            .iter()
            .zip(&pb)
            .map(|(p, q)| p.exp() * (p - q))
            .sum::<f64>();
    }
    (
        max,
        agree as f64 / rows as f64,
        kl / rows as f64,
        clear_agree as f64 / clear.max(1) as f64,
    )
}

fn tg_logits(r: &Reference, layout: Layout) -> Vec<f32> {
    let mut model = Model::load(&r.file, Some(r.tokens.len()), layout).unwrap();
    model
        .prefill_logits(&r.tokens)
        .unwrap()
        .to_vec::<f32>()
        .unwrap()
}

#[test]
fn f32_logits_match_llama_cpp() {
    let r = reference("f32");
    let (max, top1, kl, _) = compare(&r.logits, &tg_logits(&r, Layout::Planes), 512, 0.0);
    eprintln!("F32: max abs {max:e}, top-1 {top1}, KL {kl:e}");
    assert!(max < 1e-3, "max abs error {max}");
    assert_eq!(top1, 1.0);
}

/// The qwen2 variant (biases on q, k, v; RoPE over a head's halves, base 1e6; tied output).
#[test]
fn qwen2_logits_match_llama_cpp() {
    let r = reference("qwen2-f32");
    let (max, top1, kl, _) = compare(&r.logits, &tg_logits(&r, Layout::Planes), 512, 0.0);
    eprintln!("qwen2 F32: max abs {max:e}, top-1 {top1}, KL {kl:e}");
    assert!(max < 1e-3, "max abs error {max}");
    assert_eq!(top1, 1.0);
}

#[test]
fn f16_logits_match_llama_cpp() {
    let r = reference("f16");
    let (max, top1, kl, _) = compare(&r.logits, &tg_logits(&r, Layout::Planes), 512, 0.0);
    eprintln!("F16: max abs {max:e}, top-1 {top1}, KL {kl:e}");
    assert!(max < 2e-3 && kl < 1e-6, "max abs {max}, KL {kl}");
}

fn quantized(ty: &str, layout: Layout) {
    let r = reference(ty);
    let (max, top1, kl, clear) = compare(&r.logits, &tg_logits(&r, layout), 512, 0.05);
    eprintln!(
        "{ty} {layout:?}: max abs {max:e}, top-1 {top1}, KL {kl:e}, top-1 where llama.cpp's lead > 0.05: {clear}"
    );
    assert!(kl < 1e-3, "{ty}: mean KL {kl}");
    assert!(
        max < 0.05,
        "{ty}: max abs {max} (llama.cpp's 8-bit activations explain up to about 0.03)"
    );
    assert_eq!(
        clear, 1.0,
        "{ty}: the top token differs where llama.cpp's is clear"
    );
}

/// llama.cpp's Vulkan backend multiplies quantized weights with f32 activations (rounding
/// through f16 in places), so it sits closer to tg than its CPU backend: logits within 0.02,
/// KL below 1e-5. (Its two backends agree on the top token at 96.9% of these positions.)
#[test]
fn quantized_logits_match_llama_cpp_vulkan() {
    for ty in ["q8_0", "q4_0", "q4_k"] {
        let r = reference_of(ty, "vulkan_logits");
        let (max, top1, kl, clear) = compare(&r.logits, &tg_logits(&r, Layout::Planes), 512, 0.02);
        eprintln!(
            "{ty} against Vulkan: max abs {max:e}, top-1 {top1}, KL {kl:e}, top-1 where its lead > 0.02: {clear}"
        );
        assert!(max < 0.02 && kl < 1e-5, "{ty}: max abs {max}, KL {kl}");
        assert_eq!(clear, 1.0, "{ty}");
    }
}

#[test]
fn q8_0_logits_match_llama_cpp() {
    quantized("q8_0", Layout::Planes);
}

#[test]
fn q4_0_logits_match_llama_cpp() {
    quantized("q4_0", Layout::Planes);
}

#[test]
fn q4_k_logits_match_llama_cpp() {
    quantized("q4_k", Layout::Planes);
}

#[test]
fn the_block_layout_gives_the_same_logits() {
    let r = reference("q4_k");
    let planes = tg_logits(&r, Layout::Planes);
    let blocks = tg_logits(&r, Layout::Blocks);
    assert_eq!(planes, blocks);
}

/// Each decode step (one token at a position, reading the cache the steps before wrote)
/// gives the logits prefill gives at that position.
#[test]
fn decode_steps_match_prefill() {
    let r = reference("q8_0");
    let n = 12;
    let mut model = Model::load(&r.file, Some(32), Layout::Planes).unwrap();
    let full = model
        .prefill_logits(&r.tokens[..n])
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    model.prefill_logits(&r.tokens[..1]).unwrap();
    for p in 1..n {
        let step = model
            .decode_logits(r.tokens[p], p)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        let want = &full[p * 512..(p + 1) * 512];
        let max = step
            .iter()
            .zip(want)
            .map(|(a, b)| (a - b).abs())
            .fold(0f32, f32::max);
        assert!(max < 1e-4, "position {p}: max abs {max}");
    }
}
