//! Hand-written FNV-1a hashes. std's `DefaultHasher` may change between Rust releases, and these
//! hashes name files on disk and pipelines across processes, so they must never change.

const FNV64_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV64_PRIME: u64 = 0x0000_0100_0000_01b3;
const FNV128_OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
const FNV128_PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;

/// A stable 64-bit hash of a string (FNV-1a), used as pipeline keys.
///
/// ```
/// use tg_runtime::compile::stable_hash;
/// assert_eq!(stable_hash(""), 0xcbf2_9ce4_8422_2325);
/// assert_ne!(stable_hash("a"), stable_hash("b"));
/// ```
pub fn stable_hash(s: &str) -> u64 {
    fnv64(s.as_bytes())
}

/// FNV-1a over bytes, 64 bits.
pub(crate) fn fnv64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV64_OFFSET, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(FNV64_PRIME)
    })
}

/// FNV-1a, 128 bits, fed in parts. 128 bits because cache hits are trusted without comparing
/// sources, so collisions must be out of reach.
#[derive(Clone, Debug)]
pub(crate) struct Hash128(u128);

impl Hash128 {
    pub(crate) fn new() -> Self {
        Hash128(FNV128_OFFSET)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u128::from(b)).wrapping_mul(FNV128_PRIME);
        }
    }

    /// Adds a field, length first, so that ("ab", "c") and ("a", "bc") hash differently.
    pub(crate) fn field(mut self, bytes: &[u8]) -> Self {
        self.bytes(&(bytes.len() as u64).to_le_bytes());
        self.bytes(bytes);
        self
    }

    pub(crate) fn finish(&self) -> u128 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_vectors() {
        // Published FNV-1a test vectors.
        assert_eq!(fnv64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv64(b"foobar"), 0x8594_4171_f739_67e8);
        let mut h = Hash128::new();
        h.bytes(b"a");
        assert_eq!(h.finish(), 0xd228_cb69_6f1a_8caf_7891_2b70_4e4a_8964);
    }

    #[test]
    fn fields_are_delimited() {
        let a = Hash128::new().field(b"ab").field(b"c").finish();
        let b = Hash128::new().field(b"a").field(b"bc").finish();
        assert_ne!(a, b);
    }
}
