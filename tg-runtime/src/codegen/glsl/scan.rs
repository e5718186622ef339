//! The template of a scan of runs (`Op::ScanRuns`): each invocation reads one run of a row in
//! order and writes the running sum, product or maximum (from the run's carry, where the scan
//! has them: `b1`, one a run), `O(n)` work where a scan composed of reductions reads each run
//! once per element. Rows hold `p[0]` elements, runs `p[1]`; the
//! arithmetic is the dtype's (tg's helpers, as rendered kernels compute it), and float sums
//! are compensated (`precise`, so no compiler reassociates them away).

use std::fmt::Write;

use super::alu;
use super::helpers::Helpers;
use super::types::{literal, needs_int64, reg, vector_storage};
use super::{GlslFeatures, Shader, View, interface, invocation, preamble};
use crate::codegen::program::Program;
use crate::dtype::DType;
use crate::ops::{BinaryOp, ReduceOp};

/// The scan kernel of `p` (strategy `Scan { op }`).
pub fn render(p: &Program, op: ReduceOp, target: GlslFeatures) -> Shader {
    let d = p.out_dtype;
    let mut src = preamble(needs_int64(d), d == DType::F64, target);
    // the values, and where the scan starts from carries, one a run; values of 32 bits or
    // more are read and written a vector at a time too, where rows and runs are whole
    // vectors (lavapipe loads a varying address lane by lane: a cumsum of 16M f32's scan
    // pass 108 -> 92 ms), the output then declared as vectors and its tail written by
    // component
    let carried = p.inputs.len() == 2;
    let vector = d.size() >= 4;
    let mut views = vec![(0, View::Scalar)];
    if vector {
        views.push((0, View::Vector));
    }
    if carried {
        views.push((1, View::Scalar));
    }
    let vt = vector_storage(d);
    let out_ty = if vector { vt } else { reg(d) };
    let (bindings, addresses) = interface(p, &views, out_ty, &mut src);
    let mut h = Helpers::default();
    let bop = op.combine(d);
    let ty = reg(d);
    let pr = if d.is_float() { "precise " } else { "" };
    let store = if vector { "o[i >> 2u][i & 3u]" } else { "o[i]" };
    let scalar = format!(
        "    {}\n    {store} = acc;\n",
        fold(bop, d, "b0[i]", &mut h)
    );
    let vectors = if vector {
        // a vector's own prefixes do not depend on the carried total, so the chain from one
        // vector to the next is one step, not four (lavapipe runs a subgroup's lanes in
        // lockstep with nothing to overlap a chain's latency: 16M f32's scan pass 16.4-17.2
        // -> 13.5-14.3 ms, with the vector stores, in turn): exact for integers and maxima,
        // compensated for float sums; products stay in order, since a product of a vector's
        // values may overflow where the running one does not
        let mut body = String::new();
        if bop == BinaryOp::Mul {
            for k in 0..4 {
                let value = format!("x[{k}]");
                writeln!(
                    body,
                    "      {}\n      r[{k}] = acc;",
                    fold(bop, d, &value, &mut h)
                )
                .ok();
            }
        } else {
            writeln!(body, "      {pr}{ty} p0 = x[0];").ok();
            for k in 1..4 {
                let prefix =
                    alu::binary(bop, &format!("p{}", k - 1), &format!("x[{k}]"), d, &mut h);
                writeln!(body, "      {pr}{ty} p{k} = {prefix};").ok();
            }
            for k in 0..3 {
                writeln!(
                    body,
                    "      r[{k}] = {};",
                    peek(bop, d, &format!("p{k}"), &mut h)
                )
                .ok();
            }
            writeln!(
                body,
                "      {}\n      r[3] = acc;",
                fold(bop, d, "p3", &mut h)
            )
            .ok();
        }
        format!(
            "  if ((len & 3u) == 0u && (run & 3u) == 0u) {{\n    for (uint j = start >> 2; j < stop >> 2; j++) {{\n      {vt} x = v0[j];\n      {pr}{vt} r;\n{body}      o[j] = r;\n    }}\n    return;\n  }}\n"
        )
    } else {
        String::new()
    };
    src.push_str(&h.render());
    let threads = p.threads();
    writeln!(
        src,
        r"void main() {{
{gid}  uint len = pc.p[0];
  uint run = pc.p[1];
  uint runs = (len + run - 1u) / run;
  uint row = gid / runs;
  if (row >= pc.n / len) return;
  uint start = row * len + (gid - row * runs) * run;
  uint stop = min(start + run, row * len + len);
  precise {ty} acc = {from};
  precise {ty} comp = {ty}(0);
{vectors}  for (uint i = start; i < stop; i++) {{
{scalar}  }}
}}",
        gid = invocation(threads),
        from = if carried {
            "b1[gid]".to_string()
        } else {
            literal(op.identity(d), d)
        },
    )
    .ok();
    Shader {
        source: src,
        bindings,
        addresses,
        threads,
        // one iteration per element of the run, and the exit
        loops: u64::from(p.params[1]) + 1,
    }
}

/// Whether the scan's running value is compensated (Kahan): a float sum's is, since in order
/// the rounding of a running total many times the size of each value would add up along
/// the run.
fn compensated(bop: BinaryOp, d: DType) -> bool {
    d.is_float() && bop == BinaryOp::Add
}

/// The statement that folds `value` into the running `acc` (and `comp`, where
/// [`compensated`]: an infinite or NaN total drops the compensation, so it propagates as a
/// plain sum does).
fn fold(bop: BinaryOp, d: DType, value: &str, h: &mut Helpers) -> String {
    let ty = reg(d);
    if compensated(bop, d) {
        format!(
            "{{ {ty} y = {value} - comp; {ty} t = acc + y; comp = (isinf(t) || isnan(t)) ? {ty}(0) : (t - acc) - y; acc = t; }}"
        )
    } else {
        format!("acc = {};", alu::binary(bop, "acc", value, d, h))
    }
}

/// The running value `fold` would leave after `value`, without keeping it.
fn peek(bop: BinaryOp, d: DType, value: &str, h: &mut Helpers) -> String {
    if compensated(bop, d) {
        format!("acc + ({value} - comp)")
    } else {
        alu::binary(bop, "acc", value, d, h)
    }
}
