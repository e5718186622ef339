//! Tensor indices (advanced indexing).
//!
//! With the view `x` of shape `P` (after basic indices) and tensor indices at axes `D` of `P`
//! broadcasting to shape `B`, each index tuple names one flat position of the `D` axes (`-1`
//! where an index is outside its axis). A read gathers `x`'s flattened `D` axes at those
//! positions (the gather primitive: work in the output's size). A write gives each flat
//! position its last write, found by a binary search over the writes sorted by position
//! (`O((|B| + |D|) log |B|)`, where tinygrad's one-hot mask of every write against every
//! position takes `|B| |D|`).

use tg_core::shape::index;
use tg_core::shape::movement::inverse_permutation;
use tg_runtime::{DType, Result};

use super::parse::{Kind, Parsed, value_err};
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
    /// The view's other axes (`R`), ascending.
    rest: Vec<usize>,
    /// From `[B..., R...]` to numpy's layout where `B` goes where the index axes were (they
    /// are next to each other and not first); `None` where `B` goes first.
    placed: Option<Vec<usize>>,
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
            let dt = t.dtype().position_dtype();
            // an index list made from host positions goes where `x` is
            let t = DynTensor::wrap(t.lazy().beside(x.lazy())).cast(dt);
            positions.push(t.lt(0)?.where_(&t.add(size as i64)?, &t)?);
        }
        let rest: Vec<usize> = (0..x.ndim()).filter(|a| !dims.contains(a)).collect();
        let (d0, b, r) = (dims[0], big.len(), rest.len());
        let placed = (!index::tensors_first(&dims))
            .then(|| (b..b + d0).chain(0..b).chain(b + d0..b + r).collect());
        Ok(Some(Advanced {
            dims,
            big,
            positions,
            view: x.shape().to_vec(),
            rest,
            placed,
        }))
    }

    /// The sizes of the other axes (`R`).
    fn rest_shape(&self) -> Vec<usize> {
        self.rest.iter().map(|&a| self.view[a]).collect()
    }

    /// The view's axes with the indexed ones first (`D` then `R`): `x` permuted so, its `D`
    /// axes flatten into one.
    fn d_first(&self) -> Vec<usize> {
        self.dims.iter().chain(&self.rest).copied().collect()
    }

    /// How many positions the flattened `D` axes have.
    fn total(&self) -> usize {
        self.dims.iter().map(|&d| self.view[d]).product()
    }

    /// Each index tuple's flat position in the `D` axes of `x` (row-major), `-1` where any
    /// index is outside its axis; shape `B`.
    fn flat_positions(&self) -> Result<DynTensor> {
        let sizes: Vec<usize> = self.dims.iter().map(|&d| self.view[d]).collect();
        let total = self.total();
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

    /// `x[indices]`: shape `P[..d0] + B + P[d0..]` without the `D` axes (`B` first if the
    /// index axes are not next to each other).
    pub(crate) fn gather(&self, x: &DynTensor) -> Result<DynTensor> {
        let (b, rest_shape, total) = (self.big.len(), self.rest_shape(), self.total());
        // x as [1 (B times), flat D, rest...], read along the flat axis
        let mut src_shape = vec![1usize; b];
        src_shape.push(total);
        src_shape.extend_from_slice(&rest_shape);
        let mut full = self.big.clone();
        full.push(total);
        full.extend_from_slice(&rest_shape);
        let src = x
            .lazy()
            .permute(&self.d_first())?
            .reshape(&src_shape)?
            .expand(&full)?;
        let mut at_shape = self.big.clone();
        at_shape.extend(std::iter::repeat_n(1, 1 + rest_shape.len()));
        full[b] = 1;
        let at = self
            .flat_positions()?
            .lazy()
            .reshape(&at_shape)?
            .expand(&full)?;
        let mut out_shape = self.big.clone();
        out_shape.extend_from_slice(&rest_shape);
        let y = src.gather(b, &at)?.reshape(&out_shape)?;
        Ok(DynTensor::wrap(match &self.placed {
            Some(perm) => y.permute(perm)?,
            None => y,
        }))
    }

    /// `x` (the view, shape `P`) with the elements the tensor indices name replaced by
    /// `value` broadcast to the shape `gather` gives; the last write wins. Each position of
    /// the flattened `D` axes finds its last write by a binary search over the writes sorted
    /// by position (`last_writers`), and takes that write's values.
    pub(crate) fn merge(&self, x: &DynTensor, value: &DynTensor) -> Result<DynTensor> {
        let (rest_shape, total) = (self.rest_shape(), self.total());
        let mut bare = self.big.clone();
        bare.extend_from_slice(&rest_shape);
        let gathered = match &self.placed {
            Some(perm) => perm.iter().map(|&p| bare[p]).collect(),
            None => bare,
        };
        let v = value
            .broadcast_to(&gathered)
            .map_err(|_| value_err(value.shape(), &gathered))?;
        // the values as [B..., R...], then one row per write
        let v = match &self.placed {
            Some(perm) => v.lazy().permute(&inverse_permutation(perm))?,
            None => v.lazy().clone(),
        };
        let mut rows = vec![self.big.iter().product()];
        rows.extend_from_slice(&rest_shape);
        let v = v.reshape(&rows)?;
        // x as [flat D, R...], each flat position taking its last write's values
        let order = self.d_first();
        let mut flat_shape = vec![total];
        flat_shape.extend_from_slice(&rest_shape);
        let xr = x.lazy().permute(&order)?.reshape(&flat_shape)?;
        let at = self.flat_positions()?.reshape(&[-1])?;
        let (found, which) = last_writers(&at, total)?;
        let mut col = vec![total];
        col.extend(std::iter::repeat_n(1, rest_shape.len()));
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
        Ok(DynTensor::wrap(
            merged
                .lazy()
                .reshape(&split)?
                .permute(&inverse_permutation(&order))?,
        ))
    }
}
