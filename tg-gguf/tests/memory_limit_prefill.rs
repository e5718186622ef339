//! A 64-token prompt of the tiny Q4_0 model (2.3 MB of tensors and cache) is recorded and
//! replayed under `TG_MEMORY_LIMIT=7M`. Its prefill dequantizes each layer's weights to f32
//! (12 MB over the 4 layers): the recording run recycles buffers past the budget's room as
//! any realize does, and the replays' arena holds one layer's at a time. Before, the
//! recording ran out of memory under 8M. Its own test binary: the limit is read when the
//! device opens.

use std::path::PathBuf;

use tg_gguf::llm::model::Model;
use tg_gguf::llm::sample::Sampler;
use tg_gguf::{GgufFile, Layout};

#[test]
fn a_long_prompt_is_recorded_and_replayed_within_a_small_memory_limit() {
    // SAFETY: set before any other thread of this binary reads the environment (this is the
    // binary's only test, and tg reads its variables when the device opens, below).
    unsafe { std::env::set_var("TG_MEMORY_LIMIT", "7M") };
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/gguf-models/tiny-q4_0.gguf");
    let file = GgufFile::open(&path).unwrap();
    let device = tg_runtime::device::Device::get().unwrap();
    assert_eq!(device.info().memory_budget, 7 << 20);
    let mut model = Model::load(&file, Some(80), Layout::Planes).unwrap();
    let vocab = model.config().vocab;
    let tokens: Vec<u32> = (0..64).map(|i| (i * 7 % vocab) as u32).collect();
    let s = Sampler::default();
    let recorded = model.prefill(&tokens, &s).unwrap();
    let replayed = model.prefill(&tokens, &s).unwrap();
    assert_eq!(recorded, replayed);
    // and a decode step after it
    model.decode_step(replayed, tokens.len(), &s).unwrap();
    device.synchronize().unwrap();
    assert!(device.memory_stats().live_bytes <= 7 << 20);
}
