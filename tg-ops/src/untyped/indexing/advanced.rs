//! Tensor indices (advanced indexing): reads and writes through one-hot masks.
//!
//! With the view `x` of shape `P` (after basic indices) and tensor indices at axes `D` of `P`
//! broadcasting to shape `B`, the mask has shape `P[..d0] + B + P[d0..]` (d0 the first of
//! `D`): position (b, p) holds where every index tensor at b names p along its axis. A read
//! sums `x` under the mask over the `D` axes; a write finds, for each p, the last b that
//! names it.

use tg_runtime::Result;

use super::parse::{Kind, Parsed, value_err};
use super::select::{index_dtype, last_wins, one_hot_along, pick};
use crate::untyped::{DynTensor, broadcast_shapes};

pub(crate) struct Advanced {
    /// Axes of the view `x` that tensor indices address, ascending.
    dims: Vec<usize>,
    /// The broadcast shape of the index tensors.
    big: Vec<usize>,
    /// Shape `P[..d0] + big + P[d0..]` (size-1 axes broadcast).
    mask: DynTensor,
    /// Whether the index axes are not next to each other (then `big` goes first).
    permuted: bool,
}

impl Advanced {
    /// The tensor-index part of `parsed` against the view `x`, or `None` if there is none.
    pub(crate) fn new(x: &DynTensor, parsed: &[Parsed]) -> Result<Option<Advanced>> {
        let kept: Vec<&Parsed> = parsed.iter().filter(|p| !p.collapse).collect();
        let tensors: Vec<(usize, &DynTensor)> = kept
            .iter()
            .enumerate()
            .filter_map(|(d, p)| match &p.kind {
                Kind::Tensor(t) => Some((d, t)),
                _ => None,
            })
            .collect();
        if tensors.is_empty() {
            return Ok(None);
        }
        let dims: Vec<usize> = tensors.iter().map(|(d, _)| *d).collect();
        let shapes: Vec<&[usize]> = tensors.iter().map(|(_, t)| t.shape()).collect();
        // tensor indices that do not broadcast together: Error::Broadcast naming "index"
        let big = broadcast_shapes("index", &shapes)?;
        let (n, d0, b) = (x.ndim(), dims[0], big.len());
        let rank = n + b;
        let mut mask: Option<DynTensor> = None;
        for (d, t) in &tensors {
            let size = x.shape()[*d];
            let dt = index_dtype(t.dtype());
            // an index list made from host positions goes where `x` is
            let t = DynTensor::wrap(t.lazy().beside(x.lazy())).cast(dt);
            let t = t.lt(0)?.where_(&t.add(size as i64)?, &t)?;
            let mut shape = vec![1usize; d0 + b - t.ndim()];
            shape.extend_from_slice(t.shape());
            shape.extend(std::iter::repeat_n(1, n - d0));
            let t = DynTensor::wrap(t.lazy().reshape(&shape)?);
            let m = one_hot_along(&t, size, b + d, rank)?;
            mask = Some(match mask {
                Some(acc) => acc.logical_and(&m)?,
                None => m,
            });
        }
        let mask = mask.expect("at least one tensor index");
        let consecutive = dims.windows(2).all(|w| w[1] == w[0] + 1);
        Ok(Some(Advanced {
            permuted: !consecutive && d0 != 0,
            dims,
            big,
            mask,
        }))
    }

    fn reduce_axes(&self) -> Vec<usize> {
        self.dims.iter().map(|d| d + self.big.len()).collect()
    }

    /// The order that moves the index axes first (numpy's rule for non-adjacent indices).
    fn front_order(&self, rank: usize) -> Vec<usize> {
        let (d0, b) = (self.dims[0], self.big.len());
        (d0..d0 + b).chain(0..d0).chain(d0 + b..rank).collect()
    }

    /// `x[indices]`: shape `P[..d0] + B + P[d0..]` without the `D` axes (`B` first if
    /// permuted).
    pub(crate) fn gather(&self, x: &DynTensor) -> Result<DynTensor> {
        let (d0, b) = (self.dims[0], self.big.len());
        let mut shape = x.shape()[..d0].to_vec();
        shape.extend(std::iter::repeat_n(1, b));
        shape.extend_from_slice(&x.shape()[d0..]);
        let xr = DynTensor::wrap(x.lazy().reshape(&shape)?);
        let axes = self.reduce_axes();
        let picked = pick(&self.mask, &xr, &axes)?;
        let out: Vec<usize> = picked
            .shape()
            .iter()
            .enumerate()
            .filter(|(i, _)| !axes.contains(i))
            .map(|(_, &s)| s)
            .collect();
        let mut y = picked.lazy().reshape(&out)?;
        if self.permuted {
            y = y.permute(&self.front_order(out.len()))?;
        }
        Ok(DynTensor::wrap(y))
    }

    /// `x` (the view, shape `P`) with the elements the tensor indices name replaced by
    /// `value` broadcast to the shape `gather` gives; the last write wins.
    pub(crate) fn merge(&self, x: &DynTensor, value: &DynTensor) -> Result<DynTensor> {
        let gathered = self.gathered_shape(x.shape());
        let mut v = value
            .broadcast_to(&gathered)
            .map_err(|_| value_err(value.shape(), &gathered))?;
        let (d0, b) = (self.dims[0], self.big.len());
        if self.permuted {
            // back from B-first to B at d0
            let order = self.front_order(gathered.len());
            let mut inverse = vec![0; order.len()];
            for (i, &o) in order.iter().enumerate() {
                inverse[o] = i;
            }
            v = DynTensor::wrap(v.lazy().permute(&inverse)?);
        }
        // insert the D axes (size 1), then merge the B axes into one
        let mut full = v.shape().to_vec();
        for a in self.reduce_axes() {
            full.insert(a, 1);
        }
        let j: usize = self.big.iter().product();
        let flat = |t: &DynTensor, full: &[usize]| -> Result<DynTensor> {
            let mut s = full[..d0].to_vec();
            s.push(j);
            s.extend_from_slice(&full[d0 + b..]);
            Ok(DynTensor::wrap(t.lazy().reshape(&s)?))
        };
        let v = flat(&v, &full)?;
        let mask = flat(&self.mask, self.mask.shape())?;
        let (any, val) = last_wins(&mask, &v, d0)?;
        let drop = |t: &DynTensor| -> Result<DynTensor> {
            let mut s = t.shape().to_vec();
            s.remove(d0);
            Ok(DynTensor::wrap(t.lazy().reshape(&s)?))
        };
        drop(&any)?.where_(&drop(&val)?, x)
    }

    fn gathered_shape(&self, p: &[usize]) -> Vec<usize> {
        let d0 = self.dims[0];
        let rest: Vec<usize> = (d0..p.len())
            .filter(|d| !self.dims.contains(d))
            .map(|d| p[d])
            .collect();
        let mut s = p[..d0].to_vec();
        s.extend_from_slice(&self.big);
        s.extend(rest);
        if self.permuted {
            let order = self.front_order(s.len());
            s = order.iter().map(|&o| s[o]).collect();
        }
        s
    }
}
