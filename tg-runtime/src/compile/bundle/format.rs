//! The bundle file, byte for byte.
//!
//! ```text
//! "TGBUNDLE" | version u32 | entry count u32 | body length u64 | FNV-64 of the body u64 | body
//! body: per entry, in key order: key u128 | name length u32 | name (UTF-8)
//!                                | word count u32 | SPIR-V words (u32 each)
//! ```
//!
//! All little-endian. The checksum catches a truncated copy or a flipped bit before the driver
//! is handed garbage; it is not a signature (an app embeds its bundle, so whoever can change
//! the bundle can change the app). Keys are what [`super::key`] computes.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::Entry;
use crate::compile::fnv64;
use crate::{Error, Result};

/// The first eight bytes of every bundle.
pub const MAGIC: [u8; 8] = *b"TGBUNDLE";
/// The format this tg reads and writes; another version is [`Error::BundleVersion`].
pub const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 4 + 8 + 8;
const SPIRV_MAGIC: u32 = 0x0723_0203;

/// The bytes of a bundle holding `entries`.
pub(super) fn encode(entries: &BTreeMap<u128, Entry>) -> Vec<u8> {
    let mut body = Vec::new();
    for (key, entry) in entries {
        body.extend_from_slice(&key.to_le_bytes());
        body.extend_from_slice(&(entry.name.len() as u32).to_le_bytes());
        body.extend_from_slice(entry.name.as_bytes());
        body.extend_from_slice(&(entry.words.len() as u32).to_le_bytes());
        body.extend(entry.words.iter().flat_map(|w| w.to_le_bytes()));
    }
    let mut out = Vec::with_capacity(HEADER + body.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv64(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// The entries of a bundle, or what is wrong with `bytes` (`origin` names them in the error).
pub(super) fn decode(bytes: &[u8], origin: &str) -> Result<BTreeMap<u128, Entry>> {
    let invalid = |reason: String| Error::BundleInvalid {
        origin: origin.to_string(),
        reason,
    };
    if bytes.len() < 8 || bytes[..8] != MAGIC {
        return Err(invalid("it does not start with TGBUNDLE".into()));
    }
    let mut r = Reader { bytes, at: 8 };
    let short = |what: &str| invalid(format!("it ends inside the {what}"));
    let version = r.u32().ok_or_else(|| short("header"))?;
    if version != VERSION {
        return Err(Error::BundleVersion {
            origin: origin.to_string(),
            found: version,
            supported: VERSION,
        });
    }
    let count = r.u32().ok_or_else(|| short("header"))?;
    let length = r.u64().ok_or_else(|| short("header"))?;
    let sum = r.u64().ok_or_else(|| short("header"))?;
    let body = &bytes[HEADER..];
    if body.len() as u64 != length {
        return Err(invalid(format!(
            "the header promises {length} bytes of entries, the file has {}",
            body.len()
        )));
    }
    if fnv64(body) != sum {
        return Err(invalid(
            "the checksum does not match (a damaged copy)".into(),
        ));
    }
    let mut entries = BTreeMap::new();
    for i in 0..count {
        let entry = |what: &str| invalid(format!("entry {i} of {count}: {what}"));
        let key = r.u128().ok_or_else(|| entry("cut short"))?;
        let name_len = r.u32().ok_or_else(|| entry("cut short"))? as usize;
        let name = r.take(name_len).ok_or_else(|| entry("cut short"))?;
        let name = std::str::from_utf8(name).map_err(|_| entry("name is not UTF-8"))?;
        let words = r.u32().ok_or_else(|| entry("cut short"))? as usize;
        let words: Vec<u32> = r
            .take(words.checked_mul(4).ok_or_else(|| entry("too long"))?)
            .ok_or_else(|| entry("cut short"))?
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if words.first() != Some(&SPIRV_MAGIC) {
            return Err(entry("not SPIR-V"));
        }
        let words: Arc<[u32]> = words.into();
        let name = name.to_string();
        if entries.insert(key, Entry { name, words }).is_some() {
            return Err(entry("a key given twice"));
        }
    }
    if r.at != bytes.len() {
        return Err(invalid(format!(
            "{} bytes after the last entry",
            bytes.len() - r.at
        )));
    }
    Ok(entries)
}

/// Reads little-endian fields from the front of a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let out = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(out)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn u128(&mut self) -> Option<u128> {
        Some(u128::from_le_bytes(self.take(16)?.try_into().ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two() -> BTreeMap<u128, Entry> {
        let entry = |name: &str, words: &[u32]| Entry {
            name: name.into(),
            words: words.into(),
        };
        BTreeMap::from([
            (7, entry("E_4", &[SPIRV_MAGIC, 1, 2])),
            (u128::MAX, entry("r_süm", &[SPIRV_MAGIC])),
        ])
    }

    fn names(entries: &BTreeMap<u128, Entry>) -> Vec<(u128, String, Vec<u32>)> {
        entries
            .iter()
            .map(|(k, e)| (*k, e.name.clone(), e.words.to_vec()))
            .collect()
    }

    #[test]
    fn round_trip() {
        let bytes = encode(&two());
        assert_eq!(names(&decode(&bytes, "t").unwrap()), names(&two()));
        assert_eq!(names(&decode(&encode(&BTreeMap::new()), "t").unwrap()), []);
    }

    fn reason(bytes: &[u8]) -> String {
        match decode(bytes, "t") {
            Err(Error::BundleInvalid { origin, reason }) => {
                assert_eq!(origin, "t");
                reason
            }
            other => panic!("expected BundleInvalid, got {other:?}"),
        }
    }

    #[test]
    fn damage_is_invalid() {
        let good = encode(&two());
        assert!(reason(b"TGSPIRV\x01").contains("TGBUNDLE"));
        assert!(reason(&good[..12]).contains("header"));
        for cut in [HEADER, HEADER + 5, good.len() - 1] {
            assert!(reason(&good[..cut]).contains("promises"), "cut at {cut}");
        }
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(reason(&flipped).contains("checksum"));
        let mut long = good.clone();
        long.push(0);
        assert!(reason(&long).contains("promises"));
    }

    #[test]
    fn entries_are_checked_past_the_checksum() {
        // A bundle whose checksum is right but whose entry is not SPIR-V: made by hand, not by
        // encode, so only decode's own checks stand between it and the driver.
        let mut bad = two();
        bad.get_mut(&7).unwrap().words = vec![1, 2].into();
        assert!(reason(&encode(&bad)).contains("entry 0 of 2: not SPIR-V"));
    }

    #[test]
    fn another_version_is_named() {
        let mut bytes = encode(&two());
        bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
        match decode(&bytes, "old.tgb") {
            Err(Error::BundleVersion {
                origin,
                found,
                supported,
            }) => assert_eq!((origin.as_str(), found, supported), ("old.tgb", 2, VERSION)),
            other => panic!("expected BundleVersion, got {other:?}"),
        }
    }
}
