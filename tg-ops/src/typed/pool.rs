//! Typed pooling. Output sizes are arithmetic of the input sizes and the run-time options,
//! which stable Rust cannot compute in a type: the caller names the output shape `S2` (a
//! `usize` dim takes whatever the op gives), a post-monomorphization assert checks the rank,
//! and the run checks the sizes. [`pool_out_size`] computes a static size for a shape type:
//! `Const<{ pool_out_size(28, 2, 2, 1, 0, 0, false) }>`.

use crate::dtype::{Dtype, Int};
use crate::shape::Shape;
use crate::tensor::{Tensor, ok};
use crate::typed::reduce::{MeanDtype, SumDtype};
use crate::untyped::pool::Pool;
use tg_runtime::Result;

/// The output size of one spatial axis of a pool (and of a convolution, with `ceil_mode`
/// false): `(input + pads - dilation * (kernel - 1) - 1) / stride + 1`, rounded up in ceil
/// mode except for a last window that would start in the end padding.
///
/// ```
/// use tg_ops::typed::pool::pool_out_size;
/// assert_eq!(pool_out_size(5, 2, 2, 1, 0, 0, false), 2);
/// assert_eq!(pool_out_size(5, 2, 2, 1, 0, 0, true), 3);
/// assert_eq!(pool_out_size(5, 2, 2, 1, 1, 1, true), 3); // a fourth window would start in the padding
/// ```
pub const fn pool_out_size(
    input: usize,
    kernel: usize,
    stride: usize,
    dilation: usize,
    pad_before: isize,
    pad_after: isize,
    ceil_mode: bool,
) -> usize {
    let extent = (dilation * (kernel - 1) + 1) as isize;
    let span = input as isize + pad_before + pad_after - extent;
    let s = stride as isize;
    if span < 0 {
        return 0;
    }
    if !ceil_mode {
        return (span / s + 1) as usize;
    }
    let last_start = s * ((span + s - 1) / s);
    let past = last_start - (pad_before + input as isize - 1);
    let back = if past > 0 { past } else { 0 };
    ((last_start - back) / s + 1) as usize
}

/// The output rank must be the input rank.
const fn same_rank<S: Shape, S2: Shape>() {
    assert!(
        S::RANK == S2::RANK,
        "pooling keeps the rank: the output shape type needs the input's rank"
    );
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// The mean of each window of the last `p.kernel.len()` axes, giving `S2`; see
    /// `DynTensor::avg_pool2d`. Integer inputs give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<1, 2, 2>>::from_slice(&[1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let a: Tensor<Rank3<1, 1, 1>> = t.avg_pool2d(&Pool::new([2, 2]));
    /// assert_eq!(a.to_vec().unwrap(), vec![2.5]);
    /// ```
    #[track_caller]
    pub fn avg_pool2d<S2: Shape>(&self, p: &Pool) -> Tensor<S2, <T as MeanDtype>::Output>
    where
        T: MeanDtype,
    {
        ok(self.try_avg_pool2d(p))
    }

    /// `avg_pool2d`, returning an error for bad options or a result that does not fit `S2`.
    pub fn try_avg_pool2d<S2: Shape>(
        &self,
        p: &Pool,
    ) -> Result<Tensor<S2, <T as MeanDtype>::Output>>
    where
        T: MeanDtype,
    {
        const { same_rank::<S, S2>() };
        Tensor::try_from_dyn(self.as_dyn().avg_pool2d(p)?)
    }

    /// The maximum of each window of the last `p.kernel.len()` axes, giving `S2`; see
    /// `DynTensor::max_pool2d`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<1, 4>, i32>::from_slice(&[1, 5, 2, 7]).unwrap();
    /// let m: Tensor<Rank2<1, 2>, i32> = t.max_pool2d(&Pool::new([2]));
    /// assert_eq!(m.to_vec().unwrap(), vec![5, 7]);
    /// ```
    #[track_caller]
    pub fn max_pool2d<S2: Shape>(&self, p: &Pool) -> Tensor<S2, T> {
        ok(self.try_max_pool2d(p))
    }

    /// `max_pool2d`, returning an error for bad options or a result that does not fit `S2`.
    pub fn try_max_pool2d<S2: Shape>(&self, p: &Pool) -> Result<Tensor<S2, T>> {
        const { same_rank::<S, S2>() };
        Tensor::try_from_dyn(self.as_dyn().max_pool2d(p)?)
    }

    /// `max_pool2d` and the i32 flat spatial index of each window's first maximum; see
    /// `DynTensor::max_pool2d_with_indices`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<1, 1, 4>>::from_slice(&[1.0, 5.0, 7.0, 2.0]).unwrap();
    /// let (m, i) = t.max_pool2d_with_indices::<Rank3<1, 1, 2>>(&Pool::new([2]));
    /// assert_eq!(m.to_vec().unwrap(), vec![5.0, 7.0]);
    /// assert_eq!(i.to_vec().unwrap(), vec![1, 2]);
    /// ```
    #[track_caller]
    pub fn max_pool2d_with_indices<S2: Shape>(&self, p: &Pool) -> (Tensor<S2, T>, Tensor<S2, i32>) {
        ok(self.try_max_pool2d_with_indices(p))
    }

    /// `max_pool2d_with_indices`, returning an error for bad options or a result that does not
    /// fit `S2`.
    pub fn try_max_pool2d_with_indices<S2: Shape>(
        &self,
        p: &Pool,
    ) -> Result<(Tensor<S2, T>, Tensor<S2, i32>)> {
        const { same_rank::<S, S2>() };
        let (m, i) = self.as_dyn().max_pool2d_with_indices(p)?;
        Ok((Tensor::try_from_dyn(m)?, Tensor::try_from_dyn(i)?))
    }

    /// Places each value at its index from `max_pool2d_with_indices` in a zero tensor of shape
    /// `S2` (`(batch, channels, *spatial)`); see `DynTensor::max_unpool2d`. The output sizes
    /// come from `p`, or from `S2` where all its spatial dims are static. Values are summed
    /// where indices repeat, so the dtype is the sum's (`i8` gives `i32`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let v = Tensor::<Rank3<1, 1, 2>>::from_slice(&[5.0, 7.0]).unwrap();
    /// let i = Tensor::<Rank3<1, 1, 2>, i32>::from_slice(&[1, 2]).unwrap();
    /// let u: Tensor<Rank3<1, 1, 4>> = v.max_unpool2d(&i, &Pool::new([2]));
    /// assert_eq!(u.to_vec().unwrap(), vec![0.0, 5.0, 7.0, 0.0]);
    /// ```
    #[track_caller]
    pub fn max_unpool2d<S2: Shape, I: Int>(
        &self,
        indices: &Tensor<S, I>,
        p: &Pool,
    ) -> Tensor<S2, <T as SumDtype>::Output>
    where
        T: SumDtype,
    {
        ok(self.try_max_unpool2d(indices, p))
    }

    /// `max_unpool2d`, returning an error for bad options or a result that does not fit `S2`.
    pub fn try_max_unpool2d<S2: Shape, I: Int>(
        &self,
        indices: &Tensor<S, I>,
        p: &Pool,
    ) -> Result<Tensor<S2, <T as SumDtype>::Output>>
    where
        T: SumDtype,
    {
        const { same_rank::<S, S2>() };
        let statics: Option<Vec<usize>> = S2::DIMS.iter().skip(2).copied().collect();
        let out = statics.filter(|s| !s.is_empty());
        Tensor::try_from_dyn(
            self.as_dyn()
                .max_unpool2d(indices.as_dyn(), p, out.as_deref())?,
        )
    }
}
