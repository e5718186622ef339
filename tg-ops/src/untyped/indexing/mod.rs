//! Indexing: `index` (numpy's and tinygrad's `x[...]`) and `setitem` / `assign_index`
//! (`x[...] = v`), with integers, slices with steps, new axes, an ellipsis and integer tensors.
//!
//! An index is a list of [`Index`]es, most easily written with the [`idx!`](crate::idx)
//! macro. Basic indices (integers, slices, new axes, the ellipsis) are views: shrink, flip, and
//! a pad-and-reshape for steps, so they cost nothing until realized. Tensor indices (advanced
//! indexing) read through the gather primitive at each index tuple's flat position; an index
//! out of range reads 0 instead of failing (tinygrad's one-hot masks give the same). Assignment is functional
//! over the lazy graph: the result is the old tensor with the selected elements replaced
//! (basic indices select by masks, so it fuses with what reads it; tensor indices by a
//! search of the writes sorted by position); where tensor indices repeat, the last write
//! wins.

mod advanced;
mod index;
mod parse;
mod position;
pub(crate) mod select;
mod view;

pub use index::{Index, SliceRange};

use tg_runtime::{Error, Result};

use crate::untyped::DynTensor;
use crate::untyped::elementwise::Operand;
use parse::{parse, value_err};

impl DynTensor {
    /// `self[indices]`, numpy's and tinygrad's indexing (see [`Index`] and [`idx!`](crate::idx)).
    ///
    /// Basic indices give a view. Tensor indices broadcast together; their axes go where the
    /// first of them was, or first if they are not next to each other (numpy's rule, judged
    /// after integer indices removed their axes, as tinygrad does). Deviations from numpy,
    /// as tinygrad: a tensor index out of range (after negative values count from the end)
    /// reads 0 instead of failing, and bool tensors are not accepted as masks.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[3, 4], &(0..12).collect::<Vec<i32>>()).unwrap();
    /// assert_eq!(t.index(&idx![1, 2]).unwrap().to_vec::<i32>().unwrap(), vec![6]);
    /// assert_eq!(t.index(&idx![0..2, ..;2]).unwrap().to_vec::<i32>().unwrap(), vec![0, 2, 4, 6]);
    /// let r = DynTensor::from_slice(&[3], &[2i32, 0, 1]).unwrap();
    /// let c = DynTensor::from_slice(&[3], &[1i32, 2, 3]).unwrap();
    /// assert_eq!(t.index(&idx![&r, &c]).unwrap().to_vec::<i32>().unwrap(), vec![9, 2, 7]);
    /// ```
    pub fn index(&self, indices: &[Index]) -> Result<DynTensor> {
        let parsed = parse(self.shape(), indices)?;
        let x = view::apply(self, &parsed)?;
        match advanced::Advanced::new(&x, &parsed)? {
            Some(adv) => adv.gather(&x),
            None => Ok(x),
        }
    }

    /// `self[indices] = value`, functionally: a tensor equal to `self` but for the selected
    /// elements, which take `value` (broadcast to the selection). A tensor value must have
    /// `self`'s dtype (as tinygrad); a scalar is converted to it. Where tensor indices name
    /// one element more than once, the last write wins (tinygrad's rule; numpy leaves it
    /// unspecified). Tensor indices out of range write nothing.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::zeros(&[2, 3], DType::I32).unwrap();
    /// let u = t.setitem(&idx![.., 1..;1], 7).unwrap();
    /// assert_eq!(u.to_vec::<i32>().unwrap(), vec![0, 7, 7, 0, 7, 7]);
    /// let at = DynTensor::from_slice(&[3], &[0i32, 2, 0]).unwrap();
    /// let v = DynTensor::from_slice(&[3], &[1i32, 2, 3]).unwrap();
    /// let w = t.setitem(&idx![1, &at], &v).unwrap(); // position 0 written twice: 3 wins
    /// assert_eq!(w.to_vec::<i32>().unwrap(), vec![0, 0, 0, 3, 0, 2]);
    /// ```
    pub fn setitem<'a>(
        &self,
        indices: &[Index],
        value: impl Into<Operand<'a>>,
    ) -> Result<DynTensor> {
        let value = match value.into() {
            s @ (Operand::Scalar(_) | Operand::Var(..)) => s.to_tensor(&[], self.dtype())?,
            Operand::Tensor(t) => {
                if t.dtype() != self.dtype() {
                    return Err(Error::DTypeMismatch {
                        op: "setitem",
                        lhs: self.dtype(),
                        rhs: t.dtype(),
                        message: "the value must have the tensor's dtype (cast it first)".into(),
                    });
                }
                t.into_owned()
            }
        };
        let parsed = parse(self.shape(), indices)?;
        let x = view::apply(self, &parsed)?;
        let selected = match advanced::Advanced::new(&x, &parsed)? {
            Some(adv) => adv.merge(&x, &value)?,
            None => value
                .broadcast_to(x.shape())
                .map_err(|_| value_err(value.shape(), x.shape()))?,
        };
        view::place(self, &parsed, &selected)
    }

    /// `self[indices] = value` in place: replaces this tensor's graph with
    /// [`setitem`](DynTensor::setitem)'s result (other clones keep the old values).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let mut t = DynTensor::zeros(&[4], DType::F32).unwrap();
    /// t.assign_index(&idx![..;-2], 1.5).unwrap();
    /// assert_eq!(t.to_vec::<f32>().unwrap(), vec![0.0, 1.5, 0.0, 1.5]);
    /// ```
    pub fn assign_index<'a>(
        &mut self,
        indices: &[Index],
        value: impl Into<Operand<'a>>,
    ) -> Result<()> {
        *self = self.setitem(indices, value)?;
        Ok(())
    }
}
