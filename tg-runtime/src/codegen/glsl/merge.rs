//! The template of a merge of sorted runs (`Op::MergeRuns`): the one kernel whose body is not
//! rendered from a `Program`'s instructions, because each invocation reads its sources in
//! an order the data decides.
//!
//! Records are `words` u32 words, compared word by word; rows hold `p[0]` records, whose runs
//! of `p[1]` records are sorted. Invocation `g` writes records `per g .. per (g + 1)` of the
//! flat output: for the first it finds where its merged pair of runs (A then B) stands by a
//! binary search along the merge path (how many of the first `k` outputs come from A: A's record
//! `m` is among them when it does not come after B's record `k - m - 1`, ties going to A), then
//! takes each next record from A or B with one comparison of the two heads it holds,
//! starting afresh at a pair's or a row's start. Work `O(n)` per merge where a sorting
//! network's steps take `O(n log n)`.

use std::fmt::Write;

use super::{GlslFeatures, Shader, View, interface, invocation, preamble};
use crate::codegen::program::Program;

/// A record of `words` words as a uvec4 (`tg_record(r)`, unused words 0), and the order of
/// two, word by word (`tg_before(a, b)`: `a` sorts before `b`), as one expression, so a
/// SIMD device evaluates it without branches.
pub(super) fn records(words: usize) -> String {
    let lanes = ["x", "y", "z", "w"];
    let mut src = String::from("uvec4 tg_record(uint r) {\n  uvec4 v = uvec4(0u);\n");
    for (w, lane) in lanes.iter().enumerate().take(words) {
        writeln!(src, "  v.{lane} = b0[r * {words}u + {w}u];").ok();
    }
    // a.x < b.x || a.x == b.x && (a.y < b.y || a.y == b.y && ...)
    let mut order = format!("a.{0} < b.{0}", lanes[words - 1]);
    for lane in lanes.iter().take(words - 1).rev() {
        order = format!("a.{lane} < b.{lane} || a.{lane} == b.{lane} && ({order})");
    }
    writeln!(
        src,
        "  return v;\n}}\nbool tg_before(uvec4 a, uvec4 b) {{\n  return {order};\n}}"
    )
    .ok();
    src
}

/// The merge kernel of `p` (strategy `Merge { words, per }`).
pub fn render(p: &Program, words: usize, per: usize) -> Shader {
    let mut src = preamble(false, false, GlslFeatures::default());
    let (bindings, addresses) = interface(p, &[(0, View::Scalar)], "uint", &mut src);
    src.push_str(&records(words));
    let threads = p.threads();
    writeln!(
        src,
        r"void main() {{
{gid}  uint total = pc.n / {words}u;
  uint first = gid * {per}u;
  if (first >= total) return;
  uint len = pc.p[0];
  uint run = pc.p[1];
  uint base = (first / len) * len;
  uint at = first - base;
  uint pair = at - at % (2u * run);
  uint a0 = base + pair;
  uint la = min(run, len - pair);
  uint b0_ = a0 + la;
  uint lb = min(run, len - pair - la);
  uint k = at - pair;
  uint lo = k > lb ? k - lb : 0u;
  uint hi = min(k, la);
  while (lo < hi) {{
    uint mid = (lo + hi) >> 1u;
    if (tg_before(tg_record(b0_ + k - mid - 1u), tg_record(a0 + mid))) {{ hi = mid; }} else {{ lo = mid + 1u; }}
  }}
  uint a = lo;
  uint b = k - lo;
  uvec4 ha = a < la ? tg_record(a0 + a) : uvec4(0u);
  uvec4 hb = b < lb ? tg_record(b0_ + b) : uvec4(0u);
  // the first record past this pair: where the next pair starts (pairs end at a row's end)
  uint end = b0_ + lb;
  for (uint j = 0u; j < {per}u; j++) {{
    uint g = first + j;
    if (g >= total) break;
    if (g == end) {{
      if (g - base >= len) {{ base = g; }}
      at = g - base;
      a0 = g;
      la = min(run, len - at);
      b0_ = a0 + la;
      lb = min(run, len - at - la);
      end = b0_ + lb;
      a = 0u;
      b = 0u;
      ha = tg_record(a0);
      hb = lb > 0u ? tg_record(b0_) : uvec4(0u);
    }}
    bool from_a = b >= lb || (a < la && !tg_before(hb, ha));
    uvec4 r = from_a ? ha : hb;",
        gid = invocation(threads),
    )
    .ok();
    for (w, lane) in ["x", "y", "z", "w"].iter().enumerate().take(words) {
        writeln!(src, "    o[g * {words}u + {w}u] = r.{lane};").ok();
    }
    src.push_str(
        "    if (from_a) {\n      a++;\n      if (a < la) ha = tg_record(a0 + a);\n    } else {\n      b++;\n      if (b < lb) hb = tg_record(b0_ + b);\n    }\n  }\n}\n",
    );
    Shader {
        source: src,
        bindings,
        addresses,
        threads,
        // the search halves a range of at most 2^31, then one iteration per record, each
        // loop with its exit
        loops: 32 + 1 + per as u64 + 1,
    }
}
