//! The templates of a fused attention's three passes (`Op::Attention`, FlashAttention-2's
//! algorithm with one invocation a row): no pass stores an `L x S` matrix of scores or
//! weights, each recomputes the scores it needs from the rows it reads.
//!
//! - Forward: an invocation holds its query row (scaled by `log2(e) / sqrt(D)`, so the
//!   softmax is base 2) and loops over the row's keys (`0..=i` where causal) with an online
//!   softmax: the running maximum `m`, the running sum `l` of `2^(s - m)`, and the output
//!   row's accumulator, both rescaled by `2^(m_old - m)` when the maximum grows. It writes
//!   `acc / l`, then the row's natural logsumexp `(m + log2 l) ln 2`.
//! - `GradQ`: a query row again, each weight recomputed as `2^(s - lse log2(e))`;
//!   `dq = sum_j P_ij (dO_i . v_j - delta_i) k_j / sqrt(D)`.
//! - `GradKV`: a key row, looping over its queries (`j..L` where causal), accumulating
//!   `dv = sum_i P_ij dO_i` and `dk = sum_i P_ij (dO_i . v_j - delta_i) q_i / sqrt(D)`.
//!
//! Rows are held as `vec4` registers (the widths are the strategy's, unrolled: one shader a
//! pair of widths, the lengths push constants), named apart from the buffers (`o`, `b0`,
//! `v0`, ..): `q0`, `k0`, `val0`, `g0` (the output's gradient), `acc0`, `dq0`, ...; a row of
//! whole vectors is read as vectors.

use std::fmt::Write;

use super::types::literal;
use super::{GlslFeatures, Shader, View, interface, invocation, preamble};
use crate::codegen::program::Program;
use crate::dtype::{DType, Scalar};
use crate::ops::AttentionPass;

/// Input indices of the passes' sources (the forward has the first three).
const Q: usize = 0;
const K: usize = 1;
const V: usize = 2;
const OUT: usize = 3;
const GRAD: usize = 4;
const DELTA: usize = 5;

/// The attention kernel of `p` (strategy `Attention { pass, causal, d, dv }`).
pub fn render(p: &Program, pass: AttentionPass, causal: bool, d: usize, dv: usize) -> Shader {
    let mut src = preamble(false, false, GlslFeatures::default());
    // the rows of whole vectors are read as vectors; the forward's rows (a value row and the
    // logsumexp) and each delta element by element
    let vector = |w: usize| w.is_multiple_of(4);
    let mut views: Vec<(usize, View)> = [(Q, d), (K, d), (V, dv)]
        .into_iter()
        .map(|(input, w)| match vector(w) {
            true => (input, View::Vector),
            false => (input, View::Scalar),
        })
        .collect();
    if pass != AttentionPass::Forward {
        views.extend([
            (OUT, View::Scalar),
            (GRAD, View::Scalar),
            (DELTA, View::Scalar),
        ]);
    }
    let (bindings, addresses) = interface(p, &views, "float", &mut src);
    let f = |x: f64| literal(Scalar::Float(x), DType::F32);
    let scale = 1.0 / (d as f64).sqrt();
    let (log2e, ln2) = (std::f64::consts::LOG2_E, std::f64::consts::LN_2);
    // the scores in base 2: `q . k * log2(e) / sqrt(D)`
    let base2 = f(log2e * scale);
    let row =
        |input: usize, name: &str, base: &str, w: usize| load(input, name, base, w, vector(w));
    let threads = p.threads();
    let mut body = String::new();
    match pass {
        AttentionPass::Forward => {
            let width = dv + 1;
            writeln!(
                body,
                "  if (gid >= pc.n / {width}u) return;
  uint head = gid / lq;
  uint i = gid - head * lq;
  uint first = head * ls;
  uint end = {end};",
                end = if causal { "min(i + 1u, ls)" } else { "ls" },
            )
            .ok();
            body.push_str(&row(Q, "q", &format!("gid * {d}u"), d));
            body.push_str(&scaled("q", d, &base2));
            body.push_str(&row(K, "k", &format!("first * {d}u"), d));
            writeln!(body, "  float m = {};\n  float l = 1.0;", dot("q", "k", d)).ok();
            body.push_str(&row(V, "acc", &format!("first * {dv}u"), dv));
            writeln!(
                body,
                "  for (uint j = 1u; j < end; j++) {{\n    uint key = first + j;"
            )
            .ok();
            body.push_str(&indent(&row(K, "k", &format!("key * {d}u"), d)));
            writeln!(
                body,
                "    float s = {};
    float mx = max(m, s);
    float c = exp2(m - mx);
    float p = exp2(s - mx);
    l = l * c + p;
    m = mx;",
                dot("q", "k", d)
            )
            .ok();
            body.push_str(&indent(&row(V, "val", &format!("key * {dv}u"), dv)));
            for t in 0..dv.div_ceil(4) {
                writeln!(body, "    acc{t} = acc{t} * c + p * val{t};").ok();
            }
            body.push_str("  }\n");
            writeln!(body, "  uint at = gid * {width}u;").ok();
            body.push_str(&store("acc", "at", dv, " / l"));
            writeln!(body, "  o[at + {dv}u] = (m + log2(l)) * {};", f(ln2)).ok();
        }
        AttentionPass::GradQ => {
            let width = dv + 1;
            writeln!(
                body,
                "  if (gid >= pc.n / {d}u) return;
  uint head = gid / lq;
  uint i = gid - head * lq;
  uint first = head * ls;
  uint end = {end};
  float lse = b{OUT}[gid * {width}u + {dv}u] * {log2e};
  float delta = b{DELTA}[gid];",
                end = if causal { "min(i + 1u, ls)" } else { "ls" },
                log2e = f(log2e),
            )
            .ok();
            body.push_str(&row(Q, "q", &format!("gid * {d}u"), d));
            body.push_str(&scaled("q", d, &base2));
            body.push_str(&load(GRAD, "g", &format!("gid * {width}u"), dv, false));
            body.push_str(&zeros("dq", d));
            body.push_str("  for (uint j = 0u; j < end; j++) {\n    uint key = first + j;\n");
            body.push_str(&indent(&row(K, "k", &format!("key * {d}u"), d)));
            body.push_str(&indent(&row(V, "val", &format!("key * {dv}u"), dv)));
            writeln!(
                body,
                "    float p = exp2({} - lse);\n    float ds = p * ({} - delta);",
                dot("q", "k", d),
                dot("g", "val", dv)
            )
            .ok();
            for t in 0..d.div_ceil(4) {
                writeln!(body, "    dq{t} += ds * k{t};").ok();
            }
            body.push_str("  }\n");
            body.push_str(&store(
                "dq",
                &format!("gid * {d}u"),
                d,
                &format!(" * {}", f(scale)),
            ));
        }
        AttentionPass::GradKV => {
            let width = dv + 1;
            writeln!(
                body,
                "  if (gid >= pc.n / {out}u) return;
  uint head = gid / ls;
  uint j = gid - head * ls;
  uint first = head * lq;",
                out = d + dv,
            )
            .ok();
            body.push_str(&row(K, "k", &format!("gid * {d}u"), d));
            body.push_str(&scaled("k", d, &base2));
            body.push_str(&row(V, "val", &format!("gid * {dv}u"), dv));
            body.push_str(&zeros("dk", d));
            body.push_str(&zeros("dv", dv));
            writeln!(
                body,
                "  for (uint i = {start}; i < lq; i++) {{\n    uint query = first + i;",
                start = if causal { "j" } else { "0u" }
            )
            .ok();
            body.push_str(&indent(&row(Q, "q", &format!("query * {d}u"), d)));
            body.push_str(&indent(&load(
                GRAD,
                "g",
                &format!("query * {width}u"),
                dv,
                false,
            )));
            writeln!(
                body,
                "    float p = exp2({} - b{OUT}[query * {width}u + {dv}u] * {});
    float ds = p * ({} - b{DELTA}[query]);",
                dot("q", "k", d),
                f(log2e),
                dot("g", "val", dv)
            )
            .ok();
            for t in 0..dv.div_ceil(4) {
                writeln!(body, "    dv{t} += p * g{t};").ok();
            }
            for t in 0..d.div_ceil(4) {
                writeln!(body, "    dk{t} += ds * q{t};").ok();
            }
            body.push_str("  }\n");
            let at = format!("gid * {}u", d + dv);
            body.push_str(&store("dk", &at, d, &format!(" * {}", f(scale))));
            body.push_str(&store("dv", &format!("{at} + {d}u"), dv, ""));
        }
    }
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
        // one loop over a row's keys (or a key's queries), and its exit
        loops: u64::from(p.params[0].max(p.params[1])) + 1,
    }
}

/// Declares `name0..` (`vec4`s) holding the `w` floats of input `input` from `base`: whole
/// vectors from its vector view where `vector` (`base` then a multiple of 4), else element
/// by element, the last vector's missing lanes 0.
fn load(input: usize, name: &str, base: &str, w: usize, vector: bool) -> String {
    let mut src = String::new();
    for t in 0..w.div_ceil(4) {
        let value = if vector {
            format!("v{input}[({base}) / 4u + {t}u]")
        } else {
            let lanes: Vec<String> = (0..4)
                .map(|u| match 4 * t + u {
                    c if c < w => format!("b{input}[{base} + {c}u]"),
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
