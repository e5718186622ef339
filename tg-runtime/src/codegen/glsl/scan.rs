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
use super::{Shader, Target, View, interface, invocation, preamble};
use crate::codegen::program::Program;
use crate::dtype::DType;
use crate::ops::{BinaryOp, ReduceOp};

/// The scan kernel of `p` (strategy `Scan { op }`).
pub fn render(p: &Program, op: ReduceOp, target: Target) -> Shader {
    let d = p.out_dtype;
    let mut src = preamble(needs_int64(d), d == DType::F64, target);
    // the values, and where the scan starts from carries, one a run; values of 32 bits or
    // more are read a vector at a time too, where rows and runs are whole vectors (lavapipe
    // loads a varying address lane by lane: a cumsum of 16M f32's scan pass 108 -> 92 ms;
    // storing vectors too gained nothing measurable, 89 ms)
    let carried = p.inputs.len() == 2;
    let vector = d.size() >= 4;
    let mut views = vec![(0, View::Scalar)];
    if vector {
        views.push((0, View::Vector));
    }
    if carried {
        views.push((1, View::Scalar));
    }
    let (bindings, addresses) = interface(p, &views, reg(d), &mut src);
    let mut h = Helpers::default();
    let bop = op.combine(d);
    // a float sum compensates each addition's rounding (Kahan): in order, the rounding of
    // a running total many times the size of each value would add up along the run; an
    // infinite or NaN total drops the compensation, so it propagates as a plain sum does
    let ty = reg(d);
    let mut step = |value: &str, pad: &str| {
        let fold = if d.is_float() && bop == BinaryOp::Add {
            format!(
                "{{ {ty} y = {value} - comp; {ty} t = acc + y; comp = (isinf(t) || isnan(t)) ? {ty}(0) : (t - acc) - y; acc = t; }}"
            )
        } else {
            format!("acc = {};", alu::binary(bop, "acc", value, d, &mut h))
        };
        format!("{pad}{fold}\n")
    };
    let scalar = format!("{}    o[i] = acc;\n", step("b0[i]", "    "));
    let vectors = if vector {
        let lanes: String = (0..4)
            .map(|k| {
                format!(
                    "{}      o[4u * j + {k}u] = acc;\n",
                    step(&format!("x[{k}]"), "      ")
                )
            })
            .collect();
        let vt = vector_storage(d);
        format!(
            "  if ((len & 3u) == 0u && (run & 3u) == 0u) {{\n    for (uint j = start >> 2; j < stop >> 2; j++) {{\n      {vt} x = v0[j];\n{lanes}    }}\n    return;\n  }}\n"
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
