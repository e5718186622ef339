//! A small seeded PRNG (splitmix64) and the permutations the loader and the digits split
//! draw from it. Reproducible on every platform and Rust version, which is the point: the same
//! seed gives the same batches everywhere, with no `rand` dependency.

/// splitmix64 (Steele, Lea, Flood 2014): a 64-bit counter stepped by the golden-ratio
/// constant, each step hashed by a 64-bit finalizer. Good statistical quality for shuffling,
/// not for cryptography.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

/// The counter's step: 2^64 / φ, odd.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's finalizer: a bijection of u64 that mixes every input bit into every output
/// bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// A generator for one `stream` (an epoch, a purpose) of `seed`: both are hashed, so
    /// neighbouring streams do not overlap the way neighbouring counter starts would.
    pub fn stream(seed: u64, stream: u64) -> SplitMix64 {
        SplitMix64::new(mix(seed) ^ mix(stream ^ GOLDEN_GAMMA).rotate_left(17))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        mix(self.state)
    }

    /// A uniform integer in `0..n` (`n > 0`), without modulo bias (Lemire's multiply-shift
    /// with rejection).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0) has no values to draw");
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }
}

/// A uniformly random permutation of `0..n` drawn from `rng` (Fisher-Yates).
pub fn permutation(n: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        p.swap(i, j);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_outputs() {
        // the reference C implementation seeded with 1234567
        let mut r = SplitMix64::new(1234567);
        let want = [
            6457827717110365317u64,
            3203168211198807973,
            9817491932198370423,
            4593380528125082431,
            16408922859458223821,
        ];
        for w in want {
            assert_eq!(r.next_u64(), w);
        }
    }

    #[test]
    fn below_stays_in_range_and_covers_it_evenly() {
        let mut r = SplitMix64::new(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[r.below(6) as usize] += 1;
        }
        // each of 6 values 10,000 times expected; 5 standard deviations is about 460
        assert!(
            counts.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn permutations_are_permutations_and_depend_on_the_stream() {
        let a = permutation(100, &mut SplitMix64::stream(42, 0));
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
        assert_eq!(a, permutation(100, &mut SplitMix64::stream(42, 0)));
        assert_ne!(a, permutation(100, &mut SplitMix64::stream(42, 1)));
        assert_ne!(a, permutation(100, &mut SplitMix64::stream(43, 0)));
        assert!(permutation(0, &mut SplitMix64::new(1)).is_empty());
    }
}
