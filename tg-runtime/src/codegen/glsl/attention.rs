//! The templates of a fused attention's three passes (`Op::Attention`, FlashAttention-2's
//! algorithm with one invocation a row): no pass stores an `L x S` matrix of scores or
//! weights, each recomputes the scores it needs from the rows it reads.
//!
//! - Forward: an invocation holds its query row (scaled by `log2(e) / sqrt(D)`, so the
//!   softmax is base 2) and loops over the row's keys (`0..=i` where causal, `0..=e_i`
//!   under ends; an additive mask's values, times `log2(e)`, join each score) with an
//!   online softmax: the running maximum `m`, the running sum `l` of `2^(s - m)`, and the
//!   output row's accumulator, both rescaled by `2^(m_old - m)` when the maximum grows. It
//!   writes `acc / l`, then the row's natural logsumexp `(m + log2 l) ln 2`. Under an
//!   additive mask the maximum starts at the lowest finite float, not at key 0's score (key
//!   0 may be hidden), so a hidden key's `2^(-inf - m)` is 0 and never `2^NaN`; a row with
//!   every key hidden ends with `l` 0, its output NaN as the composed softmax's.
//! - `GradQ`: a query row again, each weight recomputed as `2^(s - lse log2(e))`:
//!   `delta_i = dO_i . O_i` (less the logsumexp's gradient where it has one) first, then
//!   `dq = sum_j P_ij (dO_i . v_j - delta_i) k_j / sqrt(D)`; it writes `dq`, then `delta_i`,
//!   which `GradKV` reads (so no kernel of its own computes it).
//! - `GradKV`: a key row, looping over its queries (`j..L` where causal; under ends every
//!   query, those whose end is before the key adding nothing), accumulating
//!   `dv = sum_i P_ij dO_i` and `dk = sum_i P_ij (dO_i . v_j - delta_i) q_i / sqrt(D)`.
//!
//! Rows are held as `vec4` registers (the widths are the strategy's, unrolled: one shader a
//! pair of widths, the lengths push constants), named apart from the buffers (`o`, `b0`,
//! `v0`, ..): `q0`, `k0`, `val0`, `g0` (the output's gradient), `acc0`, `dq0`, ...; a row of
//! whole vectors is read as vectors, one of whole pairs as pairs where the target loads
//! pairs. An input the program reads through texels (`Program::texels`, a CPU's) is read as
//! vectors or elements of its texel buffer instead.

use std::cell::RefCell;
use std::fmt::Write;

use super::helpers::Helpers;
use super::types::literal;
use super::{GlslFeatures, Shader, View, interface, invocation, preamble, texel};
use crate::codegen::program::Program;
use crate::dtype::{DType, Scalar};
use crate::ops::{AttentionDropout, AttentionMask, AttentionPass};

/// Input indices of the passes' sources (the forward has the first three).
const Q: usize = 0;
const K: usize = 1;
const V: usize = 2;
const OUT: usize = 3;
const GRAD: usize = 4;
/// `GradQ`'s sixth source, where it has one: the logsumexp's gradient.
const LSE_GRAD: usize = 5;
/// `GradKV`'s sixth source: `GradQ`'s output, `delta` its last column.
const DELTA: usize = 5;

/// The attention kernel of `p` (strategy `Attention { pass, mask, d, dv, rows, dropout }`).
pub fn render(
    p: &Program,
    pass: AttentionPass,
    mask: AttentionMask,
    dropout: Option<AttentionDropout>,
    d: usize,
    dv: usize,
    rows: usize,
) -> Shader {
    let causal = mask == AttentionMask::Causal;
    // keys seen up to a place: a row's own (causal) or one read from the ends
    let ends = matches!(mask, AttentionMask::Ends { .. });
    let bounded = causal || ends;
    // the rows of whole vectors are read as vectors (the queries', keys', values' and the
    // values' gradient's), those of whole pairs as pairs where the target reads pairs as one
    // load (lavapipe loads lane by lane: a pair costs what a vector does, and each load site
    // is a loop LLVM compiles; a decode step's attention compiled in 360 ms instead of 590);
    // the forward's rows (a value row and the logsumexp), `GradQ`'s (a gradient row and
    // `delta`) and the logsumexp's gradient element by element
    // through texels, a texel is a vector: pairs gain nothing
    let texels = |input: usize| p.reads_texels(input);
    let view = |input: usize, w: usize| {
        if p.wide_loads && w.is_multiple_of(8) && !texels(input) {
            View::Wide
        } else if w.is_multiple_of(4) {
            View::Vector
        } else {
            View::Scalar
        }
    };
    let mut rows_read = vec![(Q, d), (K, d), (V, dv)];
    if pass != AttentionPass::Forward {
        rows_read.push((GRAD, dv));
    }
    let mut views: Vec<(usize, View)> = rows_read
        .into_iter()
        .map(|(input, w)| (input, view(input, w)))
        .collect();
    let wide = views.iter().any(|(_, v)| *v == View::Wide);
    let mut src = preamble(wide, false, GlslFeatures::default());
    match pass {
        AttentionPass::Forward => {}
        AttentionPass::GradQ { lse_grad } => {
            views.push((OUT, View::Scalar));
            if lse_grad {
                views.push((LSE_GRAD, View::Scalar));
            }
        }
        AttentionPass::GradKV => views.extend([(OUT, View::Scalar), (DELTA, View::Scalar)]),
    }
    // an additive mask or the ends are the pass's last source (`Op::Attention`), before a
    // dropout's kept bits
    let bits_in = p.inputs.len().saturating_sub(1);
    let m_in = bits_in - usize::from(dropout.is_some());
    if let AttentionMask::Add { .. } | AttentionMask::Ends { .. } = mask {
        views.push((m_in, View::Scalar));
    }
    if dropout.is_some() {
        views.push((bits_in, View::Scalar));
    }
    // an input's reads: an element, vector or pair of its storage view, or what its texel
    // buffer holds there
    let helpers = RefCell::new(Helpers::default());
    let at = |input: usize, view: View, index: &str| match texels(input) {
        true => texel::read(
            p.inputs[input],
            view,
            &View::Texel.array(input),
            index,
            &mut helpers.borrow_mut(),
        ),
        false => format!("{}[{index}]", view.array(input)),
    };
    let declared: Vec<(usize, View)> = views
        .iter()
        .map(|&(input, v)| (input, if texels(input) { View::Texel } else { v }))
        .collect();
    let (bindings, addresses) = interface(p, &declared, "float", &mut src);
    let f = |x: f64| literal(Scalar::Float(x), DType::F32);
    let scale = 1.0 / (d as f64).sqrt();
    let (log2e, ln2) = (std::f64::consts::LOG2_E, std::f64::consts::LN_2);
    // the scores in base 2: `q . k * log2(e) / sqrt(D)`
    let base2 = f(log2e * scale);
    let row = |input: usize, name: &str, base: &str, w: usize| {
        load(&at, input, name, base, w, view(input, w))
    };
    // the forward's output rows: the values, then the logsumexp
    let width = dv + 1;
    // an invocation's rows: `rows` consecutive ones of a head (`lq` queries or `ls` keys),
    // the last block's missing rows reading the head's last row and storing nothing
    let (length, out_width) = match pass {
        AttentionPass::Forward => ("lq", width),
        AttentionPass::GradQ { .. } => ("lq", d + 1),
        AttentionPass::GradKV => ("ls", d + dv),
    };
    let mut body = String::new();
    writeln!(
        body,
        "  uint blocks = ({length} + {}u) / {rows}u;
  if (gid >= pc.n / {out_width}u / {length} * blocks) return;
  uint head = gid / blocks;
  uint r0 = (gid - head * blocks) * {rows}u;",
        rows - 1
    )
    .ok();
    for r in 0..rows {
        writeln!(
            body,
            "  uint row{r} = head * {length} + min(r0 + {r}u, {length} - 1u);"
        )
        .ok();
    }
    // under dropout, `kept` declares `name`, the factor of the weight of query row `row` (of
    // the whole tensor) and key `key`: its scale where the weight's bit is set, else 0
    // (`AttentionDropout`); `times` takes a value by such a factor. Without dropout, nothing
    // is declared and values stay as they are.
    if dropout.is_some() {
        body.push_str("  uint words = (ls + 31u) / 32u;\n");
    }
    let kept = |indent: &str, name: &str, row: &str, key: &str| match dropout {
        Some(dr) => format!(
            "{indent}float {name} = ((({} >> (({key}) & 31u)) & 1u) != 0u ? {} : 0.0);\n",
            at(
                bits_in,
                View::Scalar,
                &format!("({row}) * words + (({key}) >> 5u)")
            ),
            f(f64::from(dr.scale()))
        ),
        None => String::new(),
    };
    let times = |x: &str, name: &str| match dropout {
        Some(_) => format!("({x}) * {name}"),
        None => x.to_string(),
    };
    // an additive mask's value (in base 2) for query row `r` of the block and key `key`
    // (forward, `GradQ`), or for key row `r` and query `i` (`GradKV`), after its
    // `mrow{r}` (or `mq`) offsets
    let log2e_lit = f(log2e);
    let added = |r: usize, other: &str| match mask {
        AttentionMask::Add { .. } => match pass {
            AttentionPass::GradKV => {
                let m = at(m_in, View::Scalar, &format!("mq + min(r0 + {r}u, ls - 1u)"));
                format!(" + {m} * {log2e_lit}")
            }
            _ => {
                let m = at(m_in, View::Scalar, &format!("mrow{r} + {other}"));
                format!(" + {m} * {log2e_lit}")
            }
        },
        _ => String::new(),
    };
    // the offset of a head's mask or ends (when it has its own), and of a query's row in it
    let (mask_head, mask_row) = match mask {
        AttentionMask::Add { heads, rows } | AttentionMask::Ends { heads, rows } => (
            match (heads, rows) {
                (false, _) => "0u",
                (true, true) => "head * lq",
                (true, false) => "head",
            },
            rows,
        ),
        _ => ("0u", false),
    };
    if let AttentionMask::Add { .. } = mask
        && pass != AttentionPass::GradKV
    {
        for r in 0..rows {
            let row = match mask_row {
                true => format!("min(r0 + {r}u, lq - 1u)"),
                false => "0u".into(),
            };
            writeln!(body, "  uint mrow{r} = ({mask_head} + {row}) * ls;").ok();
        }
    }
    // the ends of a query block's rows (below 0 read as 0)
    let end_of = |row: &str| {
        let e = at(m_in, View::Scalar, &format!("{mask_head} + {row}"));
        format!("uint(max({e}, 0.0))")
    };
    if ends && pass != AttentionPass::GradKV {
        for r in 0..rows {
            let row = match mask_row {
                true => format!("min(r0 + {r}u, lq - 1u)"),
                false => "0u".into(),
            };
            writeln!(body, "  uint e{r} = {};", end_of(&row)).ok();
        }
    }
    // the causal mask (or the ends) of a query block against key `j`, or of a key block
    // against query `i` (whose end is `ei`)
    let seen = |r: usize, other: &str| match (pass, ends) {
        (AttentionPass::GradKV, false) => format!("{other} >= r0 + {r}u"),
        (AttentionPass::GradKV, true) => format!("r0 + {r}u <= ei"),
        (_, false) => format!("{other} <= r0 + {r}u"),
        (_, true) => format!("{other} <= e{r}"),
    };
    // a query block's keys (the forward's and dq's loop): the head's first key, and how many
    // the block's last query sees
    let keys_seen = format!(
        "  uint first = head * ls;\n  uint end = {};\n",
        if causal {
            format!("min(r0 + {rows}u, ls)")
        } else if ends {
            let most = (1..rows).fold("e0".to_string(), |m, r| format!("max({m}, e{r})"));
            format!("min({most} + 1u, ls)")
        } else {
            "ls".into()
        },
    );
    // query row `r` of the block, scaled into base-2 scores
    let query = |r: usize| {
        row(Q, &format!("q{r}_"), &format!("row{r} * {d}u"), d)
            + &scaled(&format!("q{r}_"), d, &base2)
    };
    match pass {
        AttentionPass::Forward => {
            body.push_str(&keys_seen);
            for r in 0..rows {
                body.push_str(&query(r));
            }
            // key 0, which every query sees, starts each row's maximum
            body.push_str(&row(K, "k_", &format!("first * {d}u"), d));
            body.push_str(&row(V, "val_", &format!("first * {dv}u"), dv));
            for r in 0..rows {
                let s0 = dot(&format!("q{r}_"), "k_", d);
                if let AttentionMask::Add { .. } = mask {
                    // key 0 may be hidden: the maximum starts finite, at least the lowest
                    writeln!(
                        body,
                        "  float s0_{r} = {s0}{};\n  float m{r} = max(s0_{r}, {});\n  float l{r} = exp2(s0_{r} - m{r});",
                        added(r, "0u"),
                        f(f64::from(f32::MIN))
                    )
                    .ok();
                    body.push_str(&kept("  ", &format!("z0_{r}"), &format!("row{r}"), "0u"));
                    let w = times(&format!("l{r}"), &format!("z0_{r}"));
                    for t in 0..dv.div_ceil(4) {
                        writeln!(body, "  vec4 acc{r}_{t} = val_{t} * {w};").ok();
                    }
                } else {
                    writeln!(body, "  float m{r} = {s0};\n  float l{r} = 1.0;").ok();
                    body.push_str(&kept("  ", &format!("z0_{r}"), &format!("row{r}"), "0u"));
                    for t in 0..dv.div_ceil(4) {
                        let v = times(&format!("val_{t}"), &format!("z0_{r}"));
                        writeln!(body, "  vec4 acc{r}_{t} = {v};").ok();
                    }
                }
            }
            body.push_str("  for (uint j = 1u; j < end; j++) {\n    uint key = first + j;\n");
            body.push_str(&indent(&row(K, "k_", &format!("key * {d}u"), d)));
            body.push_str(&indent(&row(V, "val_", &format!("key * {dv}u"), dv)));
            for r in 0..rows {
                let q = format!("q{r}_");
                // a key the query does not see leaves its row as it was
                let (s, p) = if bounded {
                    let seen = seen(r, "j");
                    (
                        format!("{seen} ? {} : m{r}", dot(&q, "k_", d)),
                        format!("{seen} ? exp2(s - mx) : 0.0"),
                    )
                } else {
                    (
                        format!("{}{}", dot(&q, "k_", d), added(r, "j")),
                        "exp2(s - mx)".into(),
                    )
                };
                writeln!(
                    body,
                    "    {{
      float s = {s};
      float mx = max(m{r}, s);
      float c = exp2(m{r} - mx);
      float p = {p};
      l{r} = l{r} * c + p;
      m{r} = mx;"
                )
                .ok();
                // the sum is of every weight; the values take the kept ones
                body.push_str(&kept("      ", "z", &format!("row{r}"), "j"));
                let pz = times("p", "z");
                for t in 0..dv.div_ceil(4) {
                    writeln!(body, "      acc{r}_{t} = acc{r}_{t} * c + {pz} * val_{t};").ok();
                }
                body.push_str("    }\n");
            }
            body.push_str("  }\n");
            for r in 0..rows {
                writeln!(
                    body,
                    "  if (r0 + {r}u < lq) {{\n    uint at = row{r} * {width}u;"
                )
                .ok();
                body.push_str(&indent(&store(
                    &format!("acc{r}_"),
                    "at",
                    dv,
                    &format!(" / l{r}"),
                )));
                writeln!(
                    body,
                    "    o[at + {dv}u] = (m{r} + log2(l{r})) * {};\n  }}",
                    f(ln2)
                )
                .ok();
            }
        }
        AttentionPass::GradQ { lse_grad } => {
            body.push_str(&keys_seen);
            for r in 0..rows {
                body.push_str(&query(r));
                body.push_str(&row(
                    GRAD,
                    &format!("g{r}_"),
                    &format!("row{r} * {dv}u"),
                    dv,
                ));
                body.push_str(&load(
                    &at,
                    OUT,
                    &format!("o{r}_"),
                    &format!("row{r} * {width}u"),
                    dv,
                    View::Scalar,
                ));
                let less = match lse_grad {
                    true => format!(" - {}", at(LSE_GRAD, View::Scalar, &format!("row{r}"))),
                    false => String::new(),
                };
                writeln!(
                    body,
                    "  float lse{r} = {} * {};\n  float delta{r} = {}{less};",
                    at(OUT, View::Scalar, &format!("row{r} * {width}u + {dv}u")),
                    f(log2e),
                    dot(&format!("g{r}_"), &format!("o{r}_"), dv),
                )
                .ok();
                body.push_str(&zeros(&format!("dq{r}_"), d));
            }
            body.push_str("  for (uint j = 0u; j < end; j++) {\n    uint key = first + j;\n");
            body.push_str(&indent(&row(K, "k_", &format!("key * {d}u"), d)));
            body.push_str(&indent(&row(V, "val_", &format!("key * {dv}u"), dv)));
            for r in 0..rows {
                let mut p = format!(
                    "exp2({}{} - lse{r})",
                    dot(&format!("q{r}_"), "k_", d),
                    added(r, "j")
                );
                if bounded {
                    p = format!("{} ? {p} : 0.0", seen(r, "j"));
                }
                // a dropped weight passes nothing back to its score
                let z = kept("      ", "z", &format!("row{r}"), "j");
                let dp = times(&dot(&format!("g{r}_"), "val_", dv), "z");
                writeln!(
                    body,
                    "    {{\n      float p = {p};\n{z}      float ds = p * ({dp} - delta{r});"
                )
                .ok();
                for t in 0..d.div_ceil(4) {
                    writeln!(body, "      dq{r}_{t} += ds * k_{t};").ok();
                }
                body.push_str("    }\n");
            }
            body.push_str("  }\n");
            for r in 0..rows {
                writeln!(body, "  if (r0 + {r}u < lq) {{").ok();
                body.push_str(&indent(&store(
                    &format!("dq{r}_"),
                    &format!("row{r} * {}u", d + 1),
                    d,
                    &format!(" * {}", f(scale)),
                )));
                writeln!(body, "    o[row{r} * {}u + {d}u] = delta{r};\n  }}", d + 1).ok();
            }
        }
        AttentionPass::GradKV => {
            for r in 0..rows {
                body.push_str(&row(K, &format!("k{r}_"), &format!("row{r} * {d}u"), d));
                body.push_str(&scaled(&format!("k{r}_"), d, &base2));
                body.push_str(&row(V, &format!("val{r}_"), &format!("row{r} * {dv}u"), dv));
                body.push_str(&zeros(&format!("dk{r}_"), d));
                body.push_str(&zeros(&format!("dv{r}_"), dv));
            }
            writeln!(
                body,
                "  uint first = head * lq;\n  for (uint i = {start}; i < lq; i++) {{\n    uint query = first + i;",
                start = if causal { "r0" } else { "0u" }
            )
            .ok();
            body.push_str(&indent(&row(Q, "q_", &format!("query * {d}u"), d)));
            body.push_str(&indent(&row(GRAD, "g_", &format!("query * {dv}u"), dv)));
            writeln!(
                body,
                "    float lse = {} * {};\n    float delta = {};",
                at(OUT, View::Scalar, &format!("query * {width}u + {dv}u")),
                f(log2e),
                at(DELTA, View::Scalar, &format!("query * {}u + {d}u", d + 1)),
            )
            .ok();
            let row = if mask_row { "i" } else { "0u" };
            match mask {
                AttentionMask::Add { .. } => {
                    writeln!(body, "    uint mq = ({mask_head} + {row}) * ls;").ok();
                }
                AttentionMask::Ends { .. } => {
                    writeln!(body, "    uint ei = {};", end_of(row)).ok();
                }
                AttentionMask::Full | AttentionMask::Causal => {}
            }
            for r in 0..rows {
                let mut p = format!(
                    "exp2({}{} - lse)",
                    dot("q_", &format!("k{r}_"), d),
                    added(r, "i")
                );
                if bounded {
                    p = format!("{} ? {p} : 0.0", seen(r, "i"));
                }
                // a dropped weight passes nothing back to its score or its value
                let z = kept("      ", "z", "query", &format!("min(r0 + {r}u, ls - 1u)"));
                let dp = times(&dot("g_", &format!("val{r}_"), dv), "z");
                writeln!(
                    body,
                    "    {{\n      float p = {p};\n{z}      float ds = p * ({dp} - delta);"
                )
                .ok();
                let pz = times("p", "z");
                for t in 0..dv.div_ceil(4) {
                    writeln!(body, "      dv{r}_{t} += {pz} * g_{t};").ok();
                }
                for t in 0..d.div_ceil(4) {
                    writeln!(body, "      dk{r}_{t} += ds * q_{t};").ok();
                }
                body.push_str("    }\n");
            }
            body.push_str("  }\n");
            for r in 0..rows {
                let at = format!("row{r} * {}u", d + dv);
                writeln!(body, "  if (r0 + {r}u < ls) {{").ok();
                body.push_str(&indent(&store(
                    &format!("dk{r}_"),
                    &at,
                    d,
                    &format!(" * {}", f(scale)),
                )));
                body.push_str(&indent(&store(
                    &format!("dv{r}_"),
                    &format!("{at} + {d}u"),
                    dv,
                    "",
                )));
                body.push_str("  }\n");
            }
        }
    }
    let threads = p.threads();
    src.push_str(&helpers.borrow().render());
    writeln!(
        src,
        "void main() {{\n{gid}  uint lq = pc.p[0];\n  uint ls = pc.p[1];\n{body}}}",
        gid = invocation(threads),
    )
    .ok();
    Shader {
        source: src,
        bindings,
        addresses,
        threads,
        // one loop over a query's keys (or a key's queries), and its exit
        loops: u64::from(match pass {
            AttentionPass::Forward | AttentionPass::GradQ { .. } => p.params[1],
            AttentionPass::GradKV => p.params[0],
        }) + 1,
    }
}

/// Declares `name0..` (`vec4`s) holding the `w` floats of input `input` from `base`, as its
/// `view` reads them: whole pairs of vectors from its wide view (`w` and `base` multiples of
/// 8; `namep0..` the pairs, 32-bit lanes in 64-bit words) or whole vectors from its vector
/// view (multiples of 4), else element by element, the last vector's missing lanes 0; `at`
/// makes each read.
fn load(
    at: &dyn Fn(usize, View, &str) -> String,
    input: usize,
    name: &str,
    base: &str,
    w: usize,
    view: View,
) -> String {
    let mut src = String::new();
    if view == View::Wide {
        for t in 0..w / 8 {
            let half = |a: &str, b: &str| {
                format!(
                    "uintBitsToFloat(unpackUint2x32({name}p{t}.{a})), uintBitsToFloat(unpackUint2x32({name}p{t}.{b}))"
                )
            };
            writeln!(
                src,
                "  u64vec4 {name}p{t} = {};\n  vec4 {name}{} = vec4({});\n  vec4 {name}{} = vec4({});",
                at(input, View::Wide, &format!("({base}) / 8u + {t}u")),
                2 * t,
                half("x", "y"),
                2 * t + 1,
                half("z", "w")
            )
            .ok();
        }
        return src;
    }
    for t in 0..w.div_ceil(4) {
        let value = if view == View::Vector {
            at(input, View::Vector, &format!("({base}) / 4u + {t}u"))
        } else {
            let lanes: Vec<String> = (0..4)
                .map(|u| match 4 * t + u {
                    c if c < w => at(input, View::Scalar, &format!("{base} + {c}u")),
                    _ => "0.0".into(),
                })
                .collect();
            format!("vec4({})", lanes.join(", "))
        };
        writeln!(src, "  vec4 {name}{t} = {value};").ok();
    }
    src
}

/// Multiplies the row `name0..` of `w` floats by `by`.
fn scaled(name: &str, w: usize, by: &str) -> String {
    (0..w.div_ceil(4))
        .map(|t| format!("  {name}{t} *= {by};\n"))
        .collect()
}

/// Declares the row `name0..` of `w` floats, zeros.
fn zeros(name: &str, w: usize) -> String {
    (0..w.div_ceil(4))
        .map(|t| format!("  vec4 {name}{t} = vec4(0.0);\n"))
        .collect()
}

/// The dot product of rows `a0..` and `b0..` of `w` floats (the missing lanes are 0 in
/// both).
fn dot(a: &str, b: &str, w: usize) -> String {
    let terms: Vec<String> = (0..w.div_ceil(4))
        .map(|t| format!("dot({a}{t}, {b}{t})"))
        .collect();
    terms.join(" + ")
}

/// Writes the `w` floats of row `name0..` to the output from `at`, each followed by `then`
/// (a division or a scale).
fn store(name: &str, at: &str, w: usize, then: &str) -> String {
    (0..w)
        .map(|c| format!("  o[{at} + {c}u] = {name}{}[{}]{then};\n", c / 4, c % 4))
        .collect()
}

/// `src`'s lines indented one more level (two spaces).
fn indent(src: &str) -> String {
    src.lines().map(|l| format!("  {l}\n")).collect()
}
