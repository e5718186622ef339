//! Tensor indices (advanced indexing).
//!
//! With the view `x` of shape `P` (after basic indices) and tensor indices at axes `D` of `P`
//! broadcasting to shape `B`, each index tuple names one flat position of the `D` axes (`-1`
//! where an index is outside its axis). A read gathers `x`'s flattened `D` axes at those
//! positions (the gather primitive: work in the output's size). A write gives each flat
//! position its last write, found by a binary search over the writes sorted by position
//! (`O((|B| + |D|) log |B|)`, where tinygrad's one-hot mask of every write against every
//! position takes `|B| |D|`).

use tg_runtime::{DType, Result};

use super::parse::{Kind, Parsed, value_err};
use super::select::index_dtype;
use crate::untyped::gather::last_writers;
use crate::untyped::{DynTensor, broadcast_shapes};

pub(crate) struct Advanced {
    /// Axes of the view `x` that tensor indices address, ascending.
    dims: Vec<usize>,
    /// The broadcast shape of the index tensors.
    big: Vec<usize>,
    /// Each index tensor, negative positions wrapped (`i32`, or `i64` for 64-bit ones), in
    /// its own shape.
    positions: Vec<DynTensor>,
    /// The view's shape `P`.
    view: Vec<usize>,
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
        let mut positions = Vec::with_capacity(tensors.len());
        for (d, t) in &tensors {
            let size = x.shape()[*d];
            let dt = index_dtype(t.dtype());
            // an index list made from host positions goes where `x` is
            let t = DynTensor::wrap(t.lazy().beside(x.lazy())).cast(dt);
            positions.push(t.lt(0)?.where_(&t.add(size as i64)?, &t)?);
        }
        let consecutive = dims.windows(2).all(|w| w[1] == w[0] + 1);
        Ok(Some(Advanced {
            permuted: !consecutive && dims[0] != 0,
            dims,
            big,
            positions,
            view: x.shape().to_vec(),
        }))
    }

    /// The order that moves the index axes first (numpy's rule for non-adjacent indices).
    fn front_order(&self, rank: usize) -> Vec<usize> {
        let (d0, b) = (self.dims[0], self.big.len());
        (d0..d0 + b).chain(0..d0).chain(d0 + b..rank).collect()
    }

    /// Each index tuple's flat position in the `D` axes of `x` (row-major), `-1` where any
    /// index is outside its axis; shape `B`.
    fn flat_positions(&self) -> Result<DynTensor> {
        let sizes: Vec<usize> = self.dims.iter().map(|&d| self.view[d]).collect();
        let total: usize = sizes.iter().product();
        let wide = total > i32::MAX as usize || self.positions.iter().any(|t| t.dtype().is_64bit());
        let dt = if wide { DType::I64 } else { DType::I32 };
        let mut flat: Option<DynTensor> = None;
        let mut inside: Option<DynTensor> = None;
        for (t, &size) in self.positions.iter().zip(&sizes) {
            let t = t.cast(dt).broadcast_to(&self.big)?;
            let ok = t.ge(0)?.logical_and(&t.lt(size as i64)?)?;
            flat = Some(match flat {
                Some(f) => f.mul(size as i64)?.add(&t)?,
                None => t,
            });
            inside = Some(match inside {
                Some(i) => i.logical_and(&ok)?,
                None => ok,
            });
        }
        let (flat, inside) = (flat.expect("an index"), inside.expect("an index"));
        inside.where_(&flat, -1)
    }

    /// `x[indices]`: shape `P[..d0] + B + P[d0..]` without the `D` axes (`B` first if
    /// permuted).
    pub(crate) fn gather(&self, x: &DynTensor) -> Result<DynTensor> {
        let (n, b) = (self.view.len(), self.big.len());
        let rest: Vec<usize> = (0..n).filter(|a| !self.dims.contains(a)).collect();
        let rest_shape: Vec<usize> = rest.iter().map(|&a| self.view[a]).collect();
        let total: usize = self.dims.iter().map(|&d| self.view[d]).product();
        // x as [1 (B times), flat D, rest...], read along the flat axis
        let order: Vec<usize> = self.dims.iter().chain(&rest).copied().collect();
        let mut src_shape = vec![1usize; b];
        src_shape.push(total);
        src_shape.extend_from_slice(&rest_shape);
        let mut full = self.big.clone();
        full.push(total);
        full.extend_from_slice(&rest_shape);
        let src = x
            .lazy()
            .permute(&order)?
            .reshape(&src_shape)?
            .expand(&full)?;
        let mut at_shape = self.big.clone();
        at_shape.extend(std::iter::repeat_n(1, 1 + rest.len()));
        full[b] = 1;
        let at = self
            .flat_positions()?
            .lazy()
            .reshape(&at_shape)?
            .expand(&full)?;
        let mut out_shape = self.big.clone();
        out_shape.extend_from_slice(&rest_shape);
        let y = src.gather(b, &at)?.reshape(&out_shape)?;
        // B goes where the index axes were when they are next to each other
        let d0 = self.dims[0];
        let consecutive = self.dims.windows(2).all(|w| w[1] == w[0] + 1);
        if !consecutive || d0 == 0 {
            return Ok(DynTensor::wrap(y));
        }
        let r = rest.len();
        let perm: Vec<usize> = (b..b + d0).chain(0..b).chain(b + d0..b + r).collect();
        Ok(DynTensor::wrap(y.permute(&perm)?))
    }

    /// `x` (the view, shape `P`) with the elements the tensor indices name replaced by
    /// `value` broadcast to the shape `gather` gives; the last write wins. Each position of
    /// the flattened `D` axes finds its last write by a binary search over the writes sorted
    /// by position (`last_writers`), and takes that write's values.
    pub(crate) fn merge(&self, x: &DynTensor, value: &DynTensor) -> Result<DynTensor> {
        let gathered = self.gathered_shape(x.shape());
        let v = value
            .broadcast_to(&gathered)
            .map_err(|_| value_err(value.shape(), &gathered))?;
        let (n, b, d0) = (self.view.len(), self.big.len(), self.dims[0]);
        let rest: Vec<usize> = (0..n).filter(|a| !self.dims.contains(a)).collect();
        let rest_shape: Vec<usize> = rest.iter().map(|&a| self.view[a]).collect();
        let r = rest.len();
        // the values as [B..., R...] (B where the index axes were when they are adjacent)
        let consecutive = self.dims.windows(2).all(|w| w[1] == w[0] + 1);
        let v = if consecutive && d0 != 0 {
            let perm: Vec<usize> = (d0..d0 + b).chain(0..d0).chain(d0 + b..b + r).collect();
            v.lazy().permute(&perm)?
        } else {
            v.lazy().clone()
        };
        let writes: usize = self.big.iter().product();
        let mut rows = vec![writes];
        rows.extend_from_slice(&rest_shape);
        let v = v.reshape(&rows)?;
        // x as [flat D, R...], each flat position taking its last write's values
        let total: usize = self.dims.iter().map(|&d| self.view[d]).product();
        let order: Vec<usize> = self.dims.iter().chain(&rest).copied().collect();
        let mut flat_shape = vec![total];
        flat_shape.extend_from_slice(&rest_shape);
        let xr = x.lazy().permute(&order)?.reshape(&flat_shape)?;
        let at = self.flat_positions()?.reshape(&[-1])?.cast(DType::I32);
        let (found, which) = last_writers(&at, total)?;
        let mut col = vec![total];
        col.extend(std::iter::repeat_n(1, r));
        let spread = |t: &DynTensor| -> Result<DynTensor> {
            Ok(DynTensor::wrap(
                t.lazy().reshape(&col)?.expand(&flat_shape)?,
            ))
        };
        let picked = DynTensor::wrap(v.gather(0, spread(&which)?.lazy())?);
        let merged = spread(&found)?.where_(&picked, DynTensor::wrap(xr))?;
        // back to the view's layout
        let mut split: Vec<usize> = self.dims.iter().map(|&d| self.view[d]).collect();
        split.extend_from_slice(&rest_shape);
        let mut inverse = vec![0; n];
        for (i, &o) in order.iter().enumerate() {
            inverse[o] = i;
        }
        Ok(DynTensor::wrap(
            merged.lazy().reshape(&split)?.permute(&inverse)?,
        ))
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
