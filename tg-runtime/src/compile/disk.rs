//! The on-disk SPIR-V cache format (with the compiler only: without it, bundles are the cache).
//!
//! A file is `MAGIC | key (16 bytes) | word count (8) | FNV-64 of the words (8) | words`, all
//! little-endian. Anything that does not check out (another tg's format, a truncated write, a
//! flipped bit) is treated as a miss and overwritten, never trusted. Files are written private
//! to this user (0600) and read only when they are regular files of this user (see
//! [`super::dir::trusted_file`]).

use std::path::{Path, PathBuf};

use super::files::{read_trusted, write_atomic};
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
    decode(&read_trusted(path)?, key)
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

    #[cfg(unix)]
    mod unix {
        use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};

        use super::*;
        use crate::compile::dir::Scratch;

        #[test]
        fn written_files_are_private() {
            let root = Scratch::new("private");
            std::fs::create_dir(&root.0).unwrap();
            let path = path_for(&root.0, 5);
            store(&path, 5, &WORDS).unwrap();
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
            assert_eq!(load(&path, 5).as_deref(), Some(&WORDS[..]));
        }

        #[test]
        fn a_symlinked_cache_file_is_not_followed() {
            let root = Scratch::new("symlink");
            std::fs::create_dir(&root.0).unwrap();
            let elsewhere = root.0.join("elsewhere");
            std::fs::write(&elsewhere, encode(5, &WORDS)).unwrap();
            let path = path_for(&root.0, 5);
            symlink(&elsewhere, &path).unwrap();
            assert_eq!(
                load(&path, 5),
                None,
                "an intact file behind a link is not read"
            );

            let other = [SPIRV_MAGIC, 9];
            store(&path, 5, &other).unwrap();
            assert!(std::fs::symlink_metadata(&path).unwrap().is_file());
            assert_eq!(load(&path, 5).as_deref(), Some(&other[..]));
            assert_eq!(
                decode(&std::fs::read(&elsewhere).unwrap(), 5).as_deref(),
                Some(&WORDS[..]),
                "the link's target is not written through"
            );
        }

        #[test]
        fn another_users_cache_file_is_not_read() {
            let root = Scratch::new("foreign-file");
            std::fs::create_dir(&root.0).unwrap();
            let path = path_for(&root.0, 5);
            store(&path, 5, &WORDS).unwrap();
            let me = std::fs::metadata(&path).unwrap().uid();
            if me != 0 {
                eprintln!("skipped: only root can give a file to another user");
                return;
            }
            std::os::unix::fs::chown(&path, Some(1), None).unwrap();
            assert_eq!(read_trusted(&path), None);
            assert_eq!(load(&path, 5), None);
        }
    }
}
