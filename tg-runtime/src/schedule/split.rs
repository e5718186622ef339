//! Splits a long reduction over few outputs into two kernels, so that the first has enough
//! workgroups to fill the device: `sum(x[n])` becomes `sum(sum(x.reshape(s, n/s), 1))`.

use std::sync::Arc;

use crate::codegen::program::LANES;
use crate::graph::lazy::Lazy;
use crate::graph::node::{Node, Op};

/// Outputs below which a reduction is split, and the trip count above which it is.
const FEW_GROUPS: usize = 32;
const LONG_TRIP: usize = 1 << 15;

/// The (root, body) kernels that compute `n`: one, or a partial pass and a final pass.
pub fn split_reduce(n: &Arc<Node>) -> Vec<(Arc<Node>, Arc<Node>)> {
    let one = vec![(n.clone(), n.clone())];
    let Op::Reduce(op, axes) = n.op() else {
        return one;
    };
    let src = n.srcs()[0].clone();
    let trip: usize = axes.iter().map(|&a| src.shape()[a]).product();
    if n.numel().div_ceil(LANES) > FEW_GROUPS || trip < LONG_TRIP {
        return one;
    }
    // split the longest reduced axis by the largest factor in 16..=256 that divides it
    let Some(&axis) = axes.iter().max_by_key(|&&a| src.shape()[a]) else {
        return one;
    };
    let len = src.shape()[axis];
    let Some(s) = (16..=256usize)
        .rev()
        .find(|s| len.is_multiple_of(*s) && len / s >= 256)
    else {
        return one;
    };
    let mut shape = src.shape().to_vec();
    shape.splice(axis..=axis, [s, len / s]);
    let stage1_axes: Vec<usize> = axes
        .iter()
        .map(|&a| if a >= axis { a + 1 } else { a })
        .collect();
    let build = || -> crate::error::Result<(Lazy, Lazy)> {
        let partial = Lazy(src.clone())
            .reshape(&shape)?
            .reduce(*op, &stage1_axes)?
            .contiguous();
        let total = partial.reduce(*op, &[axis])?.reshape(n.shape())?;
        Ok((partial, total))
    };
    match build() {
        Ok((partial, total)) => {
            let partial_src = partial.node().srcs()[0].clone();
            vec![
                (partial.node().clone(), partial_src),
                (n.clone(), total.node().clone()),
            ]
        }
        Err(_) => one,
    }
}
