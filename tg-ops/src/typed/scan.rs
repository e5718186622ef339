//! Typed scans along a static axis `A` (same shape out: cumsum, cumprod, cummax, cummin,
//! logcumsumexp) and arg-reductions (argmax, argmin: whole tensor, axis removed, axis kept).
//! Indices are i32; cumsum returns the [`SumDtype`] of the element type, as `sum` does.

use crate::dtype::Dtype;
use crate::shape::Shape;
use crate::shape::axis::{KeepAxis, RemoveAxis, SelectAxis};
use crate::tensor::{Tensor, ok};
use crate::typed::elementwise::FloatOf;
use crate::typed::reduce::SumDtype;
use tg_runtime::Result;

/// Whether the static size of axis `axis` of `dims` may be nonzero.
const fn may_be_nonempty(dims: &[Option<usize>], axis: usize) -> bool {
    !matches!(dims[axis], Some(0))
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// The running sum along axis `A`, in the dtype `sum` returns (i8 gives i32, u8 u32).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>, i8>::from_slice(&[100, 100, 1, 2]).unwrap();
    /// let c: Tensor<Rank2<2, 2>, i32> = t.cumsum::<1>();
    /// assert_eq!(c.to_vec().unwrap(), vec![100, 200, 1, 3]);
    /// ```
    pub fn cumsum<const A: isize>(&self) -> Tensor<S, <T as SumDtype>::Output>
    where
        S: SelectAxis<A>,
        T: SumDtype,
    {
        Tensor::from_dyn(ok(self.as_dyn().cumsum(A)))
    }

    /// The running product along axis `A`, in the element type (integers wrap).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>, i32>::from_slice(&[2, 3, 4]).unwrap();
    /// assert_eq!(t.cumprod::<0>().to_vec().unwrap(), vec![2, 6, 24]);
    /// ```
    pub fn cumprod<const A: isize>(&self) -> Tensor<S, T>
    where
        S: SelectAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().cumprod(A)))
    }

    /// The running maximum along axis `A` and the index where each first occurs.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<4>>::from_slice(&[1.0, 0.0, 2.0, 2.0]).unwrap();
    /// let (v, i) = t.cummax::<-1>();
    /// assert_eq!((v.to_vec().unwrap(), i.to_vec().unwrap()), (vec![1.0, 1.0, 2.0, 2.0], vec![0, 0, 2, 2]));
    /// ```
    pub fn cummax<const A: isize>(&self) -> (Tensor<S, T>, Tensor<S, i32>)
    where
        S: SelectAxis<A>,
    {
        let (v, i) = ok(self.as_dyn().cummax(A));
        (Tensor::from_dyn(v), Tensor::from_dyn(i))
    }

    /// The running minimum along axis `A` and the index where each first occurs.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>, u8>::from_slice(&[5, 7, 1]).unwrap();
    /// let (v, i) = t.cummin::<0>();
    /// assert_eq!((v.to_vec().unwrap(), i.to_vec().unwrap()), (vec![5, 5, 1], vec![0, 0, 2]));
    /// ```
    pub fn cummin<const A: isize>(&self) -> (Tensor<S, T>, Tensor<S, i32>)
    where
        S: SelectAxis<A>,
    {
        let (v, i) = ok(self.as_dyn().cummin(A));
        (Tensor::from_dyn(v), Tensor::from_dyn(i))
    }

    /// `log(cumsum(exp(x)))` along axis `A`, stable for large inputs and `-inf`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 0.0]).unwrap();
    /// assert_eq!(t.logcumsumexp::<0>().to_vec().unwrap(), vec![0.0, 2.0f32.ln()]);
    /// ```
    pub fn logcumsumexp<const A: isize>(&self) -> Tensor<S, <T as FloatOf>::Output>
    where
        S: SelectAxis<A>,
        T: FloatOf,
    {
        Tensor::from_dyn(ok(self.as_dyn().logcumsumexp(A)))
    }
}

macro_rules! arg_forms {
    ($name:ident, $axis:ident, $keep:ident, $try:ident, $try_axis:ident, $what:literal, $whole:literal, $rows:literal) => {
        impl<S: Shape, T: Dtype> Tensor<S, T> {
            #[doc = concat!("The flat index (i32, rank 0) of the first ", $what, " (see [`DynTensor::", stringify!($name), "`](crate::DynTensor::", stringify!($name), ")); an empty tensor fails to build where static, and panics otherwise.")]
            ///
            /// ```
            /// use tg_ops::prelude::*;
            /// let t = Tensor::<Rank2<2, 2>>::from_slice(&[3.0, 9.0, 1.0, 9.0]).unwrap();
            #[doc = concat!("assert_eq!(t.", stringify!($name), "().item().unwrap(), ", $whole, ");")]
            /// ```
            #[track_caller]
            pub fn $name(&self) -> Tensor<(), i32> {
                ok(self.$try())
            }

            #[doc = concat!("`", stringify!($name), "`, returning the error of an empty tensor.")]
            pub fn $try(&self) -> Result<Tensor<(), i32>> {
                const { assert!(!matches!(S::NUMEL, Some(0)), concat!(stringify!($name), ": the tensor is empty")) };
                Tensor::try_from_dyn(self.as_dyn().$name(None, false)?)
            }

            #[doc = concat!("The index (i32) of the first ", $what, " along axis `A`, which is removed.")]
            ///
            /// ```
            /// use tg_ops::prelude::*;
            /// let t = Tensor::<Rank2<2, 2>>::from_slice(&[3.0, 9.0, 1.0, 9.0]).unwrap();
            #[doc = concat!("let i: Tensor<Rank1<2>, i32> = t.", stringify!($axis), "::<1>();")]
            #[doc = concat!("assert_eq!(i.to_vec().unwrap(), ", $rows, ");")]
            /// ```
            #[track_caller]
            pub fn $axis<const A: isize>(&self) -> Tensor<<S as RemoveAxis<A>>::Output, i32>
            where
                S: RemoveAxis<A>,
            {
                ok(self.$try_axis::<A>())
            }

            #[doc = concat!("`", stringify!($axis), "`, returning the error of an empty axis.")]
            pub fn $try_axis<const A: isize>(&self) -> Result<Tensor<<S as RemoveAxis<A>>::Output, i32>>
            where
                S: RemoveAxis<A>,
            {
                const {
                    assert!(
                        may_be_nonempty(S::DIMS, <S as RemoveAxis<A>>::AXIS),
                        concat!(stringify!($name), ": the axis is empty")
                    )
                };
                Tensor::try_from_dyn(self.as_dyn().$name(Some(A), false)?)
            }

            #[doc = concat!("The index (i32) of the first ", $what, " along axis `A`, which is kept with size 1.")]
            ///
            /// ```
            /// use tg_ops::prelude::*;
            /// let t = Tensor::<Rank2<2, 2>>::from_slice(&[3.0, 9.0, 1.0, 9.0]).unwrap();
            #[doc = concat!("let i: Tensor<Rank2<2, 1>, i32> = t.", stringify!($keep), "::<-1>();")]
            #[doc = concat!("assert_eq!(i.to_vec().unwrap(), ", $rows, ");")]
            /// ```
            #[track_caller]
            pub fn $keep<const A: isize>(&self) -> Tensor<<S as KeepAxis<A>>::Output, i32>
            where
                S: KeepAxis<A>,
            {
                const {
                    assert!(
                        may_be_nonempty(S::DIMS, <S as KeepAxis<A>>::AXIS),
                        concat!(stringify!($name), ": the axis is empty")
                    )
                };
                Tensor::from_dyn(ok(self.as_dyn().$name(Some(A), true)))
            }
        }
    };
}

arg_forms!(
    argmax,
    argmax_axis,
    argmax_keepdim,
    try_argmax,
    try_argmax_axis,
    "maximum (NaN counts as the maximum)",
    "1",
    "vec![1, 1]"
);
arg_forms!(
    argmin,
    argmin_axis,
    argmin_keepdim,
    try_argmin,
    try_argmin_axis,
    "minimum (NaN counts as the minimum)",
    "2",
    "vec![0, 0]"
);
