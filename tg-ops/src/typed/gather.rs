//! Typed gather, scatter, masked_select, nonzero and interpolate. Axes are const generics
//! checked by `cargo check`; a gather's result has the index's shape; data-dependent lengths
//! (masked_select, nonzero) are a dynamic dim; the sizes of scatter operands and of an
//! interpolation, which stable Rust cannot compare in types, are checked after
//! monomorphization where static and by the run.

use crate::dtype::{Dtype, Int};
use crate::shape::axis::SelectAxis;
use crate::shape::{Const, Dim, SameShape, Shape};
use crate::tensor::{Tensor, ok};
use crate::typed::reduce::{MeanDtype, SumDtype};
use crate::untyped::gather::{Interpolation, ScatterReduce};
use tg_runtime::Result;

/// The rank of a shape as a static dimension (the width of `nonzero`'s rows).
pub trait RankDim: Shape {
    /// The rank as `Const<RANK>`.
    type Dim: Dim;
}

macro_rules! rank_dim {
    ($n:literal; $($d:ident),*) => {
        impl<$($d: Dim),*> RankDim for ($($d,)*) {
            type Dim = Const<$n>;
        }
    };
}

rank_dim!(0;);
rank_dim!(1; A0);
rank_dim!(2; A0, A1);
rank_dim!(3; A0, A1, A2);
rank_dim!(4; A0, A1, A2, A3);
rank_dim!(5; A0, A1, A2, A3, A4);
rank_dim!(6; A0, A1, A2, A3, A4, A5);

/// Whether `small` has `big`'s rank and no larger static size except at axis `skip`.
const fn fits_within(small: &[Option<usize>], big: &[Option<usize>], skip: usize) -> bool {
    if small.len() != big.len() {
        return false;
    }
    let mut i = 0;
    while i < small.len() {
        if i != skip
            && let (Some(s), Some(b)) = (small[i], big[i])
            && s > b
        {
            return false;
        }
        i += 1;
    }
    true
}

/// Checks the static shapes of a scatter: the index within the input (but on the axis) and
/// within the source.
const fn scatter_fits(
    input: &[Option<usize>],
    index: &[Option<usize>],
    src: &[Option<usize>],
    axis: usize,
) -> bool {
    fits_within(index, input, axis) && fits_within(index, src, usize::MAX)
}

macro_rules! scatter_reduction {
    ($(#[$doc:meta])* $name:ident, $try_name:ident, $op:ident, $out:ty $(, $bound:path)?) => {
        $(#[$doc])*
        #[track_caller]
        pub fn $name<const A: isize, S2: Shape, I: Int, S3: Shape>(
            &self,
            index: &Tensor<S2, I>,
            src: &Tensor<S3, T>,
            include_self: bool,
        ) -> Tensor<S, $out>
        where
            S: SelectAxis<A>,
            $(T: $bound,)?
        {
            ok(self.$try_name::<A, S2, I, S3>(index, src, include_self))
        }

        #[doc = concat!("`", stringify!($name), "`, returning the error.")]
        pub fn $try_name<const A: isize, S2: Shape, I: Int, S3: Shape>(
            &self,
            index: &Tensor<S2, I>,
            src: &Tensor<S3, T>,
            include_self: bool,
        ) -> Result<Tensor<S, $out>>
        where
            S: SelectAxis<A>,
            $(T: $bound,)?
        {
            const {
                assert!(
                    scatter_fits(S::DIMS, S2::DIMS, S3::DIMS, <S as SelectAxis<A>>::AXIS),
                    "scatter: the index must have the input's rank and fit within the input (but on the axis) and the source"
                )
            };
            Tensor::try_from_dyn(self.as_dyn().scatter_reduce(A, index.as_dyn(), src.as_dyn(), ScatterReduce::$op, include_self)?)
        }
    };
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// Values along axis `A` read at the positions `index` holds (see
    /// [`DynTensor::gather`](crate::DynTensor::gather)); the result has the index's shape.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>, i32>::from_slice(&[1, 2, 3, 4]).unwrap();
    /// let i = Tensor::<Rank2<2, 1>, i32>::from_slice(&[1, 0]).unwrap();
    /// assert_eq!(t.gather::<1, _, _>(&i).to_vec().unwrap(), vec![2, 3]);
    /// ```
    #[track_caller]
    pub fn gather<const A: isize, S2: Shape, I: Int>(&self, index: &Tensor<S2, I>) -> Tensor<S2, T>
    where
        S: SelectAxis<A>,
    {
        ok(self.try_gather::<A, S2, I>(index))
    }

    /// `gather`, returning an error where dynamic sizes do not fit.
    pub fn try_gather<const A: isize, S2: Shape, I: Int>(
        &self,
        index: &Tensor<S2, I>,
    ) -> Result<Tensor<S2, T>>
    where
        S: SelectAxis<A>,
    {
        const {
            assert!(
                fits_within(S2::DIMS, S::DIMS, <S as SelectAxis<A>>::AXIS),
                "gather: the index must have the input's rank and no larger sizes but on the gathered axis"
            )
        };
        Tensor::try_from_dyn(self.as_dyn().gather(A, index.as_dyn())?)
    }

    /// `src` written along axis `A` at the positions `index` holds; the last write wins (see
    /// [`DynTensor::scatter`](crate::DynTensor::scatter)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let z = Tensor::<Rank1<4>, i32>::zeros();
    /// let i = Tensor::<Rank1<2>, i32>::from_slice(&[3, 1]).unwrap();
    /// let s = Tensor::<Rank1<2>, i32>::from_slice(&[7, 8]).unwrap();
    /// assert_eq!(z.scatter::<0, _, _, _>(&i, &s).to_vec().unwrap(), vec![0, 8, 0, 7]);
    /// ```
    #[track_caller]
    pub fn scatter<const A: isize, S2: Shape, I: Int, S3: Shape>(
        &self,
        index: &Tensor<S2, I>,
        src: &Tensor<S3, T>,
    ) -> Tensor<S, T>
    where
        S: SelectAxis<A>,
    {
        ok(self.try_scatter::<A, S2, I, S3>(index, src))
    }

    /// `scatter`, returning an error where dynamic sizes do not fit.
    pub fn try_scatter<const A: isize, S2: Shape, I: Int, S3: Shape>(
        &self,
        index: &Tensor<S2, I>,
        src: &Tensor<S3, T>,
    ) -> Result<Tensor<S, T>>
    where
        S: SelectAxis<A>,
    {
        const {
            assert!(
                scatter_fits(S::DIMS, S2::DIMS, S3::DIMS, <S as SelectAxis<A>>::AXIS),
                "scatter: the index must have the input's rank and fit within the input (but on the axis) and the source"
            )
        };
        Tensor::try_from_dyn(
            self.as_dyn()
                .scatter(A, index.as_dyn(), src.as_dyn(), None)?,
        )
    }

    /// `value` written along axis `A` at the positions `index` holds.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let z = Tensor::<Rank2<2, 2>>::zeros();
    /// let i = Tensor::<Rank2<2, 1>, i64>::from_slice(&[1, 0]).unwrap();
    /// assert_eq!(z.scatter_value::<1, _, _>(&i, 5.0).to_vec().unwrap(), vec![0.0, 5.0, 5.0, 0.0]);
    /// ```
    #[track_caller]
    pub fn scatter_value<const A: isize, S2: Shape, I: Int>(
        &self,
        index: &Tensor<S2, I>,
        value: T,
    ) -> Tensor<S, T>
    where
        S: SelectAxis<A>,
    {
        ok(self.try_scatter_value::<A, S2, I>(index, value))
    }

    /// `scatter_value`, returning an error where dynamic sizes do not fit.
    pub fn try_scatter_value<const A: isize, S2: Shape, I: Int>(
        &self,
        index: &Tensor<S2, I>,
        value: T,
    ) -> Result<Tensor<S, T>>
    where
        S: SelectAxis<A>,
    {
        const {
            assert!(
                fits_within(S2::DIMS, S::DIMS, <S as SelectAxis<A>>::AXIS),
                "scatter: the index must have the input's rank and fit within the input but on the axis"
            )
        };
        Tensor::try_from_dyn(
            self.as_dyn()
                .scatter(A, index.as_dyn(), value.to_scalar(), None)?,
        )
    }

    scatter_reduction!(
        /// `src` summed along axis `A` into the positions `index` holds (with the element's own
        /// value if `include_self`); the result has the sum's dtype ([`SumDtype`]).
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let t = Tensor::<Rank1<2>, i8>::from_slice(&[1, 1]).unwrap();
        /// let i = Tensor::<Rank1<3>, i32>::from_slice(&[0, 0, 1]).unwrap();
        /// let s = Tensor::<Rank1<3>, i8>::from_slice(&[100, 100, 5]).unwrap();
        /// let r: Tensor<Rank1<2>, i32> = t.scatter_sum::<0, _, _, _>(&i, &s, true);
        /// assert_eq!(r.to_vec().unwrap(), vec![201, 6]);
        /// ```
        scatter_sum, try_scatter_sum, Sum, <T as SumDtype>::Output, SumDtype
    );
    scatter_reduction!(
        /// `src` multiplied along axis `A` into the positions `index` holds.
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let t = Tensor::<Rank1<2>>::from_slice(&[2.0, 3.0]).unwrap();
        /// let i = Tensor::<Rank1<2>, i32>::from_slice(&[1, 1]).unwrap();
        /// let s = Tensor::<Rank1<2>>::from_slice(&[4.0, 5.0]).unwrap();
        /// assert_eq!(t.scatter_prod::<0, _, _, _>(&i, &s, false).to_vec().unwrap(), vec![2.0, 20.0]);
        /// ```
        scatter_prod, try_scatter_prod, Prod, T
    );
    scatter_reduction!(
        /// The mean of the values landing on each position (and the element's own if
        /// `include_self`); the result has the mean's dtype ([`MeanDtype`]).
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let t = Tensor::<Rank1<2>>::zeros();
        /// let i = Tensor::<Rank1<2>, i32>::from_slice(&[0, 0]).unwrap();
        /// let s = Tensor::<Rank1<2>>::from_slice(&[1.0, 2.0]).unwrap();
        /// assert_eq!(t.scatter_mean::<0, _, _, _>(&i, &s, false).to_vec().unwrap(), vec![1.5, 0.0]);
        /// ```
        scatter_mean, try_scatter_mean, Mean, <T as MeanDtype>::Output, MeanDtype
    );
    scatter_reduction!(
        /// The maximum of the values landing on each position (and the element's own if
        /// `include_self`).
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let t = Tensor::<Rank1<2>, i32>::from_slice(&[5, 5]).unwrap();
        /// let i = Tensor::<Rank1<2>, i32>::from_slice(&[0, 1]).unwrap();
        /// let s = Tensor::<Rank1<2>, i32>::from_slice(&[1, 9]).unwrap();
        /// assert_eq!(t.scatter_amax::<0, _, _, _>(&i, &s, true).to_vec().unwrap(), vec![5, 9]);
        /// ```
        scatter_amax, try_scatter_amax, Amax, T
    );
    scatter_reduction!(
        /// The minimum of the values landing on each position (and the element's own if
        /// `include_self`).
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let t = Tensor::<Rank1<2>, i32>::from_slice(&[5, 5]).unwrap();
        /// let i = Tensor::<Rank1<2>, i32>::from_slice(&[0, 1]).unwrap();
        /// let s = Tensor::<Rank1<2>, i32>::from_slice(&[1, 9]).unwrap();
        /// assert_eq!(t.scatter_amin::<0, _, _, _>(&i, &s, false).to_vec().unwrap(), vec![1, 9]);
        /// ```
        scatter_amin, try_scatter_amin, Amin, T
    );

    /// The elements where `mask` is true, in row-major order; the length is the data's (the
    /// count is read back first).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>, i32>::from_slice(&[4, 5, 6]).unwrap();
    /// let m = Tensor::<Rank1<3>, bool>::from_slice(&[true, false, true]).unwrap();
    /// let s: Tensor<shape![_], i32> = t.masked_select(&m);
    /// assert_eq!(s.to_vec().unwrap(), vec![4, 6]);
    /// ```
    #[track_caller]
    pub fn masked_select<S2: Shape>(&self, mask: &Tensor<S2, bool>) -> Tensor<(usize,), T>
    where
        S: SameShape<S2>,
    {
        ok(self.try_masked_select(mask))
    }

    /// `masked_select`, returning an error where dynamic sizes differ or the read fails.
    pub fn try_masked_select<S2: Shape>(
        &self,
        mask: &Tensor<S2, bool>,
    ) -> Result<Tensor<(usize,), T>>
    where
        S: SameShape<S2>,
    {
        Tensor::try_from_dyn(self.as_dyn().masked_select(mask.as_dyn())?)
    }

    /// `masked_select` into exactly `N` elements, cut off or filled with `fill`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>, i32>::from_slice(&[4, 5, 6]).unwrap();
    /// let m = Tensor::<Rank1<3>, bool>::from_slice(&[false, false, true]).unwrap();
    /// assert_eq!(t.masked_select_sized::<2, _>(&m, -1).to_vec().unwrap(), vec![6, -1]);
    /// ```
    #[track_caller]
    pub fn masked_select_sized<const N: usize, S2: Shape>(
        &self,
        mask: &Tensor<S2, bool>,
        fill: T,
    ) -> Tensor<(Const<N>,), T>
    where
        S: SameShape<S2>,
    {
        Tensor::from_dyn(ok(self.as_dyn().masked_select_sized(
            mask.as_dyn(),
            N,
            fill.to_scalar(),
        )))
    }

    /// The positions of the nonzero elements, one row of coordinates each (i32); the number
    /// of rows is the data's (the count is read back first).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>>::from_slice(&[0.0, 1.0, 1.0, 0.0]).unwrap();
    /// let nz: Tensor<shape![_, 2], i32> = t.nonzero();
    /// assert_eq!(nz.to_vec().unwrap(), vec![0, 1, 1, 0]);
    /// ```
    #[track_caller]
    pub fn nonzero(&self) -> Tensor<(usize, <S as RankDim>::Dim), i32>
    where
        S: RankDim,
    {
        Tensor::from_dyn(ok(self.as_dyn().nonzero()))
    }

    /// `nonzero` into exactly `N` rows, cut off or filled with `fill`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>, u8>::from_slice(&[0, 0, 3]).unwrap();
    /// assert_eq!(t.nonzero_sized::<2>(-1).to_vec().unwrap(), vec![2, -1]);
    /// ```
    pub fn nonzero_sized<const N: usize>(
        &self,
        fill: i32,
    ) -> Tensor<(Const<N>, <S as RankDim>::Dim), i32>
    where
        S: RankDim,
    {
        Tensor::from_dyn(ok(self.as_dyn().nonzero_sized(N, fill)))
    }

    /// Resizes the last `size.len()` axes to `size` (see
    /// [`DynTensor::interpolate`](crate::DynTensor::interpolate)), giving the shape type `S2`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<1, 2>>::from_slice(&[0.0, 3.0]).unwrap();
    /// let u: Tensor<Rank2<1, 4>> = t.interpolate(&[4], Interpolation::Linear, true);
    /// assert_eq!(u.to_vec().unwrap(), vec![0.0, 1.0, 2.0, 3.0]);
    /// ```
    #[track_caller]
    pub fn interpolate<S2: Shape>(
        &self,
        size: &[usize],
        mode: Interpolation,
        align_corners: bool,
    ) -> Tensor<S2, T> {
        ok(self.try_interpolate(size, mode, align_corners))
    }

    /// `interpolate`, returning an error for bad sizes or a result that does not fit `S2`.
    pub fn try_interpolate<S2: Shape>(
        &self,
        size: &[usize],
        mode: Interpolation,
        align_corners: bool,
    ) -> Result<Tensor<S2, T>> {
        const {
            assert!(
                S2::RANK == S::RANK,
                "interpolate: the target must have the source's rank"
            )
        };
        Tensor::try_from_dyn(self.as_dyn().interpolate(size, mode, align_corners)?)
    }
}
