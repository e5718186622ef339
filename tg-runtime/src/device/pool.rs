//! Size classes and free lists for device buffers: allocating device memory is slow, and a
//! realize frees and allocates buffers of the same few sizes over and over.

use std::collections::HashMap;

/// Small buffers are rounded to this step. At least 32 bytes: kernels write whole 16- and 32-byte
/// vectors past a buffer's logical end.
const SMALL_STEP: u64 = 256;
const SMALL_MAX: u64 = 4096;

/// The capacity a request of `bytes` gets: a multiple of 256 bytes up to 4 KiB, then steps of a
/// quarter power of two, so no more than a quarter is wasted and sizes that differ a little
/// still share a class. `limit` (the largest bindable range) caps the rounding.
pub(crate) fn class_size(bytes: u64, limit: u64) -> u64 {
    let b = bytes.max(1);
    let class = if b <= SMALL_MAX {
        b.next_multiple_of(SMALL_STEP)
    } else {
        let k = 63 - (b - 1).leading_zeros(); // 2^k < b <= 2^(k+1)
        b.next_multiple_of(1 << (k - 2))
    };
    if class > limit {
        b.next_multiple_of(32)
    } else {
        class
    }
}

/// Free items by capacity, holding at most `cap` bytes.
pub(crate) struct FreeLists<T> {
    free: HashMap<u64, Vec<T>>,
    held: u64,
    cap: u64,
}

impl<T> FreeLists<T> {
    pub(crate) fn new(cap: u64) -> Self {
        FreeLists {
            free: HashMap::new(),
            held: 0,
            cap,
        }
    }

    /// Bytes held for reuse.
    pub(crate) fn held(&self) -> u64 {
        self.held
    }

    pub(crate) fn take(&mut self, capacity: u64) -> Option<T> {
        let item = self.free.get_mut(&capacity)?.pop()?;
        self.held -= capacity;
        Some(item)
    }

    /// Keeps `item` for reuse, or hands it back when the pool is full.
    pub(crate) fn put(&mut self, capacity: u64, item: T) -> Option<T> {
        if self.held + capacity > self.cap {
            return Some(item);
        }
        self.held += capacity;
        self.free.entry(capacity).or_default().push(item);
        None
    }

    /// Everything held, to be freed (when an allocation runs out of memory).
    pub(crate) fn drain(&mut self) -> Vec<T> {
        self.held = 0;
        self.free.drain().flat_map(|(_, v)| v).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_LIMIT: u64 = u64::MAX;

    #[test]
    fn classes() {
        let c = |b| class_size(b, NO_LIMIT);
        assert_eq!(c(0), 256);
        assert_eq!(c(1), 256);
        assert_eq!(c(257), 512);
        assert_eq!(c(4096), 4096);
        assert_eq!(c(4097), 5120);
        assert_eq!(c(8192), 8192);
        assert_eq!(c(8193), 10240);
        assert_eq!(c(4000 * 1000), 4 << 20);
        for b in [
            1u64,
            33,
            1000,
            4097,
            12345,
            1 << 20,
            (1 << 27) + 1,
            3_000_000_007,
        ] {
            let s = c(b);
            assert!(
                s >= b && s % 32 == 0 && s - b <= b / 4 + SMALL_STEP,
                "{b} -> {s}"
            );
        }
    }

    #[test]
    fn limit_caps_rounding() {
        let limit = u64::from(u32::MAX);
        assert_eq!(
            class_size(limit - 100, limit),
            (limit - 100).next_multiple_of(32)
        );
        assert_eq!(class_size(1 << 27, 1 << 27), 1 << 27);
    }

    #[test]
    fn free_lists_respect_cap() {
        let mut f = FreeLists::new(1000);
        assert_eq!(f.put(600, 'a'), None);
        assert_eq!(f.put(600, 'b'), Some('b'));
        assert_eq!(f.held(), 600);
        assert_eq!(f.take(500), None);
        assert_eq!(f.take(600), Some('a'));
        assert_eq!(f.held(), 0);
        f.put(10, 'c');
        assert_eq!(f.drain(), vec!['c']);
        assert_eq!(f.held(), 0);
    }
}
