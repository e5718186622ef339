//! The template of a scan of runs (`Op::ScanRuns`): each invocation reads one run of a row in
//! order and writes the running sum, product or maximum (from the run's carry, where the scan
//! has them: `b1`, one a run), `O(n)` work where a scan composed of reductions reads each run
//! once per element. Rows hold `p[0]` elements, runs `p[1]`; the
//! arithmetic is the dtype's (tg's helpers, as rendered kernels compute it), and float sums
//! are compensated (`precise`, so no compiler reassociates them away).

use std::fmt::Write;

use super::alu;
use super::helpers::Helpers;
use super::types::{literal, needs_int64, reg};
use super::{Shader, Target, View, interface, invocation, preamble};
use crate::codegen::program::Program;
use crate::dtype::DType;
use crate::ops::{BinaryOp, ReduceOp};

/// The scan kernel of `p` (strategy `Scan { op }`).
pub fn render(p: &Program, op: ReduceOp, target: Target) -> Shader {
    let d = p.out_dtype;
    let mut src = preamble(needs_int64(d), d == DType::F64, target);
    // the values, and where the scan starts from carries, one a run
    let carried = p.inputs.len() == 2;
    let views: &[(usize, View)] = if carried {
        &[(0, View::Scalar), (1, View::Scalar)]
    } else {
        &[(0, View::Scalar)]
    };
    let (bindings, addresses) = interface(p, views, reg(d), &mut src);
    let mut h = Helpers::default();
    let bop = op.combine(d);
    // a float sum compensates each addition's rounding (Kahan): in order, the rounding of
    // a running total many times the size of each value would add up along the run; an
    // infinite or NaN total drops the compensation, so it propagates as a plain sum does
    let step = if d.is_float() && bop == BinaryOp::Add {
        let ty = reg(d);
        format!(
            "{ty} y = b0[i] - comp;\n    {ty} t = acc + y;\n    comp = (isinf(t) || isnan(t)) ? {ty}(0) : (t - acc) - y;\n    acc = t"
        )
    } else {
        format!("acc = {}", alu::binary(bop, "acc", "b0[i]", d, &mut h))
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
  for (uint i = start; i < stop; i++) {{
    {step};
    o[i] = acc;
  }}
}}",
        gid = invocation(threads),
        ty = reg(d),
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
