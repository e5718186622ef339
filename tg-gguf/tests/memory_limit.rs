//! A model that does not fit `TG_MEMORY_LIMIT` is `Error::OutOfMemory` before anything is
//! uploaded. Its own test binary: the limit is read when the device opens.

use std::path::PathBuf;

use tg_gguf::llm::model::Model;
use tg_gguf::{Error, GgufFile, Layout};

#[test]
fn too_little_memory_fails_before_loading() {
    // SAFETY: set before any other thread of this binary reads the environment (this is the
    // binary's only test, and tg reads its variables when the device opens, below).
    unsafe { std::env::set_var("TG_MEMORY_LIMIT", "1M") };
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/gguf-models/tiny-q4_0.gguf");
    let file = GgufFile::open(&path).unwrap();
    let device = tg_runtime::device::Device::get().unwrap();
    assert_eq!(device.info().memory_budget, 1 << 20);
    let err = Model::load(&file, Some(64), Layout::Planes)
        .err()
        .expect("1M cannot hold the model");
    match err {
        Error::Runtime(tg_runtime::Error::OutOfMemory { bytes, heap, .. }) => {
            assert!(bytes as usize > file.tensor_bytes_total());
            assert_eq!(heap, 1 << 20);
        }
        other => panic!("expected OutOfMemory, got {other}"),
    }
    assert_eq!(
        device.memory_stats().live_bytes,
        0,
        "something was uploaded"
    );
}
