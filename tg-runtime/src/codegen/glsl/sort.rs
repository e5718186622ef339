//! The template of a sort of runs (`Op::SortRuns`): each invocation loads one run of a row's
//! records into registers (a row's last run may be shorter: the missing records are all
//! ones, which sort last and are not written), sorts them by Batcher's odd-even merge
//! network (`run` a power of two: 63 compare-exchanges for 16 records, 191 for 32), and
//! writes them back. No branch depends on the data, so a SIMD device keeps its lanes
//! together: on lavapipe, runs of 32 of 2^20 two-word records take 4.2 ms where the five
//! merge levels they replace take about 30.

use std::fmt::Write;

use super::merge::records;
use super::{GlslFeatures, Shader, View, interface, invocation, preamble};
use crate::codegen::program::Program;

/// The sort kernel of `p` (strategy `Sort { words, run }`).
pub fn render(p: &Program, words: usize, run: usize) -> Shader {
    let mut src = preamble(false, false, GlslFeatures::default());
    let (bindings, addresses) = interface(p, &[(0, View::Scalar)], "uint", &mut src);
    src.push_str(&records(words));
    src.push_str(
        "void tg_exchange(inout uvec4 a, inout uvec4 b) {\n  bool swap = tg_before(b, a);\n  uvec4 first = swap ? b : a;\n  b = swap ? a : b;\n  a = first;\n}\n",
    );
    let threads = p.threads();
    writeln!(
        src,
        r"void main() {{
{gid}  uint len = pc.p[0];
  uint runs = (len + {run}u - 1u) / {run}u;
  uint row = gid / runs;
  if (row >= pc.n / {words}u / len) return;
  uint start = row * len + (gid - row * runs) * {run}u;
  uint count = min({run}u, row * len + len - start);",
        gid = invocation(threads),
    )
    .ok();
    for i in 0..run {
        writeln!(
            src,
            "  uvec4 r{i} = {i}u < count ? tg_record(start + {i}u) : uvec4(0xffffffffu);"
        )
        .ok();
    }
    for (i, j) in network(run) {
        writeln!(src, "  tg_exchange(r{i}, r{j});").ok();
    }
    for i in 0..run {
        let stores: Vec<String> = ["x", "y", "z", "w"]
            .iter()
            .enumerate()
            .take(words)
            .map(|(w, lane)| format!("o[(start + {i}u) * {words}u + {w}u] = r{i}.{lane};"))
            .collect();
        writeln!(src, "  if ({i}u < count) {{ {} }}", stores.join(" ")).ok();
    }
    src.push_str("}\n");
    Shader {
        source: src,
        bindings,
        addresses,
        threads,
        loops: 0,
    }
}

/// The compare-exchanges of Batcher's odd-even merge sort of `n` (a power of two) elements,
/// in order: each pair `(i, j)`, `i < j`, leaves the smaller at `i`. Merges sorted halves of
/// 1, 2, 4 .. elements, each merge comparing elements `k` apart for `k` halving from the
/// half's length.
pub fn network(n: usize) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    let mut p = 1;
    while p < n {
        let mut k = p;
        while k >= 1 {
            for j in (k % p..n - k).step_by(2 * k) {
                for i in 0..k.min(n - j - k) {
                    if (i + j) / (2 * p) == (i + j + k) / (2 * p) {
                        pairs.push((i + j, i + j + k));
                    }
                }
            }
            k /= 2;
        }
        p *= 2;
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::network;

    /// A network sorts every input iff it sorts every input of 0s and 1s (Knuth's 0-1
    /// principle): all 2^n of them, up to 16 elements.
    #[test]
    fn the_network_sorts_every_input() {
        for n in [2usize, 4, 8, 16] {
            let net = network(n);
            for bits in 0u32..1 << n {
                let mut v: Vec<u32> = (0..n).map(|i| bits >> i & 1).collect();
                for &(i, j) in &net {
                    if v[j] < v[i] {
                        v.swap(i, j);
                    }
                }
                assert!(v.windows(2).all(|w| w[0] <= w[1]), "{n}: {bits:b}");
            }
        }
        assert_eq!(network(16).len(), 63);
        assert_eq!(network(32).len(), 191);
        // 32: random inputs (2^32 of 0s and 1s are too many)
        let mut x = 12345u64;
        let net = network(32);
        for _ in 0..20000 {
            let mut v: Vec<u64> = (0..32)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    x >> 59
                })
                .collect();
            for &(i, j) in &net {
                if v[j] < v[i] {
                    v.swap(i, j);
                }
            }
            assert!(v.windows(2).all(|w| w[0] <= w[1]));
        }
    }
}
