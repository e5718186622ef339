//! The on-disk SPIR-V cache format and atomic file writes.
//!
//! A file is `MAGIC | key (16 bytes) | word count (8) | FNV-64 of the words (8) | words`, all
//! little-endian. Anything that does not check out (another tg's format, a truncated write, a
//! flipped bit) is treated as a miss and overwritten, never trusted.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::hash::fnv64;

const MAGIC: [u8; 8] = *b"TGSPIRV\x01";
const HEADER: usize = 8 + 16 + 8 + 8;
const SPIRV_MAGIC: u32 = 0x0723_0203;

/// The cache file for `key` in `dir`.
pub(crate) fn path_for(dir: &Path, key: u128) -> PathBuf {
    dir.join(format!("{key:032x}.spv"))
}

/// The SPIR-V stored in `path` under `key`, or `None` if it is absent or not intact.
pub(crate) fn load(path: &Path, key: u128) -> Option<Vec<u32>> {
    decode(&std::fs::read(path).ok()?, key)
}

/// Stores `words` under `key`, atomically.
pub(crate) fn store(path: &Path, key: u128, words: &[u32]) -> std::io::Result<()> {
    write_atomic(path, &encode(key, words))
}

fn encode(key: u128, words: &[u32]) -> Vec<u8> {
    let body: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut out = Vec::with_capacity(HEADER + body.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&key.to_le_bytes());
    out.extend_from_slice(&(words.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv64(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

fn decode(bytes: &[u8], key: u128) -> Option<Vec<u32>> {
    let (header, body) = bytes.split_at_checked(HEADER)?;
    let field = |at: usize, len: usize| &header[at..at + len];
    let stored_key = u128::from_le_bytes(field(8, 16).try_into().ok()?);
    let count = u64::from_le_bytes(field(24, 8).try_into().ok()?);
    let sum = u64::from_le_bytes(field(32, 8).try_into().ok()?);
    if field(0, 8) != MAGIC
        || stored_key != key
        || count.checked_mul(4) != Some(body.len() as u64)
        || fnv64(body) != sum
    {
        return None;
    }
    let words: Vec<u32> = body
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    (words.first() == Some(&SPIRV_MAGIC)).then_some(words)
}

/// Writes `bytes` to a temporary file next to `path`, then renames it over `path`, so readers
/// (other threads, other processes) see the old file or the whole new one, never a part.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(
        ".tmp-{}-{}",
        std::process::id(),
        SEQ.fetch_add(1, Ordering::Relaxed)
    ));
    let tmp = PathBuf::from(tmp);
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes))
        .and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORDS: [u32; 3] = [SPIRV_MAGIC, 0x0001_0500, 7];

    #[test]
    fn round_trip() {
        assert_eq!(decode(&encode(5, &WORDS), 5).as_deref(), Some(&WORDS[..]));
    }

    #[test]
    fn rejects_damage() {
        let good = encode(5, &WORDS);
        assert!(decode(&good, 6).is_none(), "other key");
        for cut in [0, 10, HEADER, good.len() - 1] {
            assert!(decode(&good[..cut], 5).is_none(), "truncated to {cut}");
        }
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(decode(&flipped, 5).is_none(), "bit flip");
        let mut long = good.clone();
        long.push(0);
        assert!(decode(&long, 5).is_none(), "trailing byte");
        assert!(decode(&encode(5, &[1, 2]), 5).is_none(), "not SPIR-V");
    }
}
