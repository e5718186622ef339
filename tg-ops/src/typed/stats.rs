//! Typed statistics: var_mean, std_mean and logsumexp over the whole tensor, one axis removed
//! (`_axis::<A>`) or kept as 1 (`_keepdim::<A>`); softmax, log_softmax, softmin and normalize
//! along one axis (var and std are generated from tg-core's op table: `typed/generated.rs`).
//! Axes are checked by `cargo check`; results are [`FloatOf`] the element type (integers give
//! f32), or the `_as` forms' float type.

use crate::dtype::Float;
use crate::shape::Shape;
use crate::shape::axis::{KeepAxis, RemoveAxis, SelectAxis};
use crate::tensor::{Tensor, ok};
use crate::typed::elementwise::FloatOf;

/// The float type of a statistic of `T`.
type F<T> = <T as FloatOf>::Output;

macro_rules! stat_mean_forms {
    ($name:ident, $axis:ident, $what:literal) => {
        impl<S: Shape, T: FloatOf> Tensor<S, T> {
            #[doc = concat!("The ", $what, " and the mean of all elements, rank 0.")]
            ///
            /// ```
            /// use tg_ops::prelude::*;
            /// let t = Tensor::<Rank1<2>, i32>::from_slice(&[1, 3]).unwrap();
            #[doc = concat!("let (s, m) = t.", stringify!($name), "(0.0);")]
            /// assert_eq!((s.item().unwrap(), m.item().unwrap()), (1.0, 2.0));
            /// ```
            pub fn $name(&self, correction: f64) -> (Tensor<(), F<T>>, Tensor<(), F<T>>) {
                let (s, m) = ok(self.as_dyn().$name(None, false, correction));
                (Tensor::from_dyn(s), Tensor::from_dyn(m))
            }

            #[doc = concat!("The ", $what, " and the mean over axis `A`, which is removed.")]
            ///
            /// ```
            /// use tg_ops::prelude::*;
            /// let t = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 3.0, 2.0, 2.0]).unwrap();
            #[doc = concat!("let (s, m) = t.", stringify!($axis), "::<1>(0.0);")]
            /// assert_eq!((s.to_vec().unwrap(), m.to_vec().unwrap()), (vec![1.0, 0.0], vec![2.0, 2.0]));
            /// ```
            #[allow(clippy::type_complexity)]
            pub fn $axis<const A: isize>(
                &self,
                correction: f64,
            ) -> (
                Tensor<<S as RemoveAxis<A>>::Output, F<T>>,
                Tensor<<S as RemoveAxis<A>>::Output, F<T>>,
            )
            where
                S: RemoveAxis<A>,
            {
                let (s, m) = ok(self.as_dyn().$name(Some(&[A]), false, correction));
                (Tensor::from_dyn(s), Tensor::from_dyn(m))
            }
        }
    };
}

stat_mean_forms!(var_mean, var_mean_axis, "variance");
stat_mean_forms!(std_mean, std_mean_axis, "standard deviation");

impl<S: Shape, T: FloatOf> Tensor<S, T> {
    /// `log(sum(exp(x)))` of all elements, stable for large inputs and `-inf` (see
    /// [`DynTensor::logsumexp`](crate::DynTensor::logsumexp)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1000.0, 1000.0]).unwrap();
    /// assert_eq!(t.logsumexp().item().unwrap(), 1000.0 + 2.0f32.ln());
    /// ```
    pub fn logsumexp(&self) -> Tensor<(), F<T>> {
        Tensor::from_dyn(ok(self.as_dyn().logsumexp(None, false)))
    }

    /// `logsumexp` over axis `A`, which is removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>>::from_slice(&[0.0, 0.0, f32::NEG_INFINITY, f32::NEG_INFINITY]).unwrap();
    /// let r: Tensor<Rank1<2>> = t.logsumexp_axis::<1>();
    /// assert_eq!(r.to_vec().unwrap(), vec![2.0f32.ln(), f32::NEG_INFINITY]);
    /// ```
    pub fn logsumexp_axis<const A: isize>(&self) -> Tensor<<S as RemoveAxis<A>>::Output, F<T>>
    where
        S: RemoveAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().logsumexp(Some(&[A]), false)))
    }

    /// `logsumexp` over axis `A`, which is kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>, i32>::from_slice(&[0, 0, 1, 1]).unwrap();
    /// let r: Tensor<Rank2<1, 2>> = t.logsumexp_keepdim::<0>();
    /// assert!((r.to_vec().unwrap()[0] - 1.3132616).abs() < 1e-6);
    /// ```
    pub fn logsumexp_keepdim<const A: isize>(&self) -> Tensor<<S as KeepAxis<A>>::Output, F<T>>
    where
        S: KeepAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().logsumexp(Some(&[A]), true)))
    }

    /// Softmax along axis `A` (see [`DynTensor::softmax`](crate::DynTensor::softmax)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<1, 2>>::from_slice(&[1.0, 1.0]).unwrap();
    /// assert_eq!(t.softmax::<-1>().to_vec().unwrap(), vec![0.5, 0.5]);
    /// ```
    pub fn softmax<const A: isize>(&self) -> Tensor<S, F<T>>
    where
        S: SelectAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().softmax(A, None)))
    }

    /// Softmax along axis `A` with `x - max` converted to the float type `U` first, which is
    /// the result's type (tinygrad's `softmax(dtype=...)`, e.g. f16 in, f32 out).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, f16>::from_slice(&[f16::ZERO, f16::ZERO]).unwrap();
    /// let s: Tensor<Rank1<2>, f32> = t.softmax_as::<0, f32>();
    /// assert_eq!(s.to_vec().unwrap(), vec![0.5, 0.5]);
    /// ```
    pub fn softmax_as<const A: isize, U: Float>(&self) -> Tensor<S, U>
    where
        S: SelectAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().softmax(A, Some(U::DTYPE))))
    }

    /// Log-softmax along axis `A` (see [`DynTensor::log_softmax`](crate::DynTensor::log_softmax)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1000.0]).unwrap();
    /// assert_eq!(t.log_softmax::<0>().to_vec().unwrap(), vec![-1000.0, 0.0]);
    /// ```
    pub fn log_softmax<const A: isize>(&self) -> Tensor<S, F<T>>
    where
        S: SelectAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().log_softmax(A, None)))
    }

    /// Log-softmax along axis `A`, computed and returned in the float type `U`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, f16>::from_slice(&[f16::ZERO, f16::ZERO]).unwrap();
    /// let s: Tensor<Rank1<2>, f32> = t.log_softmax_as::<0, f32>();
    /// assert_eq!(s.to_vec().unwrap(), vec![-2.0f32.ln(); 2]);
    /// ```
    pub fn log_softmax_as<const A: isize, U: Float>(&self) -> Tensor<S, U>
    where
        S: SelectAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().log_softmax(A, Some(U::DTYPE))))
    }

    /// Softmin (`softmax(-x)`) along axis `A`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, u8>::from_slice(&[0, 200]).unwrap();
    /// assert_eq!(t.softmin::<0>().to_vec().unwrap(), vec![1.0f32, 0.0]);
    /// ```
    pub fn softmin<const A: isize>(&self) -> Tensor<S, F<T>>
    where
        S: SelectAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().softmin(A, None)))
    }

    /// Softmin along axis `A`, computed and returned in the float type `U`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, f16>::from_slice(&[f16::ONE, f16::ONE]).unwrap();
    /// let s: Tensor<Rank1<2>, f32> = t.softmin_as::<0, f32>();
    /// assert_eq!(s.to_vec().unwrap(), vec![0.5, 0.5]);
    /// ```
    pub fn softmin_as<const A: isize, U: Float>(&self) -> Tensor<S, U>
    where
        S: SelectAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().softmin(A, Some(U::DTYPE))))
    }

    /// `x / max(||x||_p, eps)` along axis `A`; `p = 0` counts nonzeros, `p = ±inf` takes the
    /// largest or smallest magnitude (see [`DynTensor::normalize`](crate::DynTensor::normalize)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<1, 2>, i32>::from_slice(&[1, -3]).unwrap();
    /// assert_eq!(t.normalize::<1>(1.0, 1e-12).to_vec().unwrap(), vec![0.25, -0.75]);
    /// ```
    pub fn normalize<const A: isize>(&self, p: f64, eps: f64) -> Tensor<S, F<T>>
    where
        S: SelectAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().normalize(p, A, eps)))
    }
}
