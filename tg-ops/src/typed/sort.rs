//! Typed sorting along a static axis `A`: sort and argsort keep the shape; topk returns the
//! caller-named shape `S2` (the input's with axis `A` cut to `k`), checked where static when
//! the code is built and by the run otherwise. Indices are i32.

use crate::dtype::Dtype;
use crate::shape::Shape;
use crate::shape::axis::SelectAxis;
use crate::tensor::{Tensor, ok};
use tg_runtime::{Error, Result};

/// Whether `out` can be `src` with axis `axis` cut short, wherever both are static.
const fn topk_fits(src: &[Option<usize>], out: &[Option<usize>], axis: usize) -> bool {
    if src.len() != out.len() {
        return false;
    }
    let mut i = 0;
    while i < src.len() {
        if let (Some(n), Some(m)) = (src[i], out[i])
            && (if i == axis { m > n } else { m != n })
        {
            return false;
        }
        i += 1;
    }
    true
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// Sorts along axis `A` (stable: equal values keep their order; NaN last ascending,
    /// first descending), returning the values and their input indices.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<1, 4>, i32>::from_slice(&[3, 1, 3, 2]).unwrap();
    /// let (v, i) = t.sort::<-1>(true);
    /// assert_eq!((v.to_vec().unwrap(), i.to_vec().unwrap()), (vec![3, 3, 2, 1], vec![0, 2, 3, 1]));
    /// ```
    pub fn sort<const A: isize>(&self, descending: bool) -> (Tensor<S, T>, Tensor<S, i32>)
    where
        S: SelectAxis<A>,
    {
        let (v, i) = ok(self.as_dyn().sort(A, descending));
        (Tensor::from_dyn(v), Tensor::from_dyn(i))
    }

    /// The input indices that sort along axis `A` (stable).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<4>>::from_slice(&[2.0, 3.0, 4.0, 1.0]).unwrap();
    /// assert_eq!(t.argsort::<0>(false).to_vec().unwrap(), vec![3, 0, 1, 2]);
    /// ```
    pub fn argsort<const A: isize>(&self, descending: bool) -> Tensor<S, i32>
    where
        S: SelectAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().argsort(A, descending)))
    }

    /// The `k` largest (or smallest) values along axis `A`, in order, with their indices;
    /// `S2` is the input's shape with axis `A` of size `k` (static or `usize`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[0.1, 0.5, 0.3, 2.0, 1.0, 3.0]).unwrap();
    /// let (v, i) = t.topk::<1, Rank2<2, 2>>(2, true);
    /// assert_eq!(v.to_vec().unwrap(), vec![0.5, 0.3, 3.0, 2.0]);
    /// assert_eq!(i.to_vec().unwrap(), vec![1, 2, 2, 0]);
    /// ```
    #[track_caller]
    pub fn topk<const A: isize, S2: Shape>(
        &self,
        k: usize,
        largest: bool,
    ) -> (Tensor<S2, T>, Tensor<S2, i32>)
    where
        S: SelectAxis<A>,
    {
        ok(self.try_topk::<A, S2>(k, largest))
    }

    /// `topk`, returning an error where `k` is too large or does not fit `S2`.
    pub fn try_topk<const A: isize, S2: Shape>(
        &self,
        k: usize,
        largest: bool,
    ) -> Result<(Tensor<S2, T>, Tensor<S2, i32>)>
    where
        S: SelectAxis<A>,
    {
        const {
            assert!(
                topk_fits(S::DIMS, S2::DIMS, <S as SelectAxis<A>>::AXIS),
                "topk: the target is not the source with the axis cut short"
            )
        };
        if let Some(want) = S2::DIMS[<S as SelectAxis<A>>::AXIS]
            && want != k
        {
            return Err(Error::Shape {
                op: "topk",
                message: format!(
                    "k = {k}, but the target shape {} has {want} along axis {A}",
                    std::any::type_name::<S2>()
                ),
            });
        }
        let (v, i) = self.as_dyn().topk(k, A, largest)?;
        Ok((Tensor::try_from_dyn(v)?, Tensor::try_from_dyn(i)?))
    }
}
