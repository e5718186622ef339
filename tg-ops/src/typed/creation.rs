//! Typed creation and random tensors: the shape comes from the type (`zeros()`), or from a
//! shape value when some dims are dynamic (`zeros_shape((Const, n))`); each calls one
//! `DynTensor` op.

use crate::dtype::{Dtype, Float, Int};
use crate::shape::{Shape, StaticShape};
use crate::tensor::{Tensor, ok};
use crate::untyped::DynTensor;
use tg_runtime::Result;

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// Zeros of shape `shape`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<shape![2, _], i32>::zeros_shape((Const, 3));
    /// assert_eq!(t.to_vec().unwrap(), vec![0; 6]);
    /// ```
    pub fn zeros_shape(shape: S) -> Self {
        Tensor::from_dyn(ok(DynTensor::zeros(&shape.dims(), T::DTYPE)))
    }

    /// Ones of shape `shape` (`true` for bool).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<shape![_], bool>::ones_shape((2,));
    /// assert_eq!(t.to_vec().unwrap(), vec![true, true]);
    /// ```
    pub fn ones_shape(shape: S) -> Self {
        Tensor::from_dyn(ok(DynTensor::ones(&shape.dims(), T::DTYPE)))
    }

    /// `value` everywhere in shape `shape`; no memory until realized.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<shape![_, 2]>::full_shape((2, Const), 0.5);
    /// assert_eq!(t.to_vec().unwrap(), vec![0.5; 4]);
    /// ```
    pub fn full_shape(shape: S, value: T) -> Self {
        Tensor::from_dyn(ok(DynTensor::full(
            &shape.dims(),
            value.to_scalar(),
            T::DTYPE,
        )))
    }

    /// A tensor whose contents will be overwritten: tinygrad leaves them uninitialised; tg's
    /// are zeros (a lazy constant, free until used).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// assert_eq!(Tensor::<shape![_]>::empty_shape((4,)).dims(), vec![4]);
    /// ```
    pub fn empty_shape(shape: S) -> Self {
        Tensor::from_dyn(ok(DynTensor::empty(&shape.dims(), T::DTYPE)))
    }

    /// A tensor of shape `shape` taking `data` in row-major order; the length must match.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<shape![_], u16>::from_vec_shape((3,), vec![1, 2, 3]).unwrap();
    /// assert_eq!(t.to_vec().unwrap(), vec![1, 2, 3]);
    /// ```
    pub fn from_vec_shape(shape: S, data: Vec<T>) -> Result<Self> {
        Tensor::try_from_dyn(DynTensor::from_vec(&shape.dims(), data)?)
    }

    /// Zeros of this tensor's shape and type.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[3.0, 4.0]).unwrap();
    /// assert_eq!(t.zeros_like().to_vec().unwrap(), vec![0.0, 0.0]);
    /// ```
    pub fn zeros_like(&self) -> Self {
        Tensor::from_dyn(self.as_dyn().zeros_like())
    }

    /// Ones of this tensor's shape and type.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, u8>::from_slice(&[3, 4]).unwrap();
    /// assert_eq!(t.ones_like().to_vec().unwrap(), vec![1, 1]);
    /// ```
    pub fn ones_like(&self) -> Self {
        Tensor::from_dyn(self.as_dyn().ones_like())
    }

    /// `value` in this tensor's shape.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, i8>::from_slice(&[3, 4]).unwrap();
    /// assert_eq!(t.full_like(-7).to_vec().unwrap(), vec![-7, -7]);
    /// ```
    pub fn full_like(&self, value: T) -> Self {
        Tensor::from_dyn(self.as_dyn().full_like(value.to_scalar()))
    }

    /// `empty` of this tensor's shape and type.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>>::zeros().empty_like();
    /// assert_eq!(t.dims(), vec![2, 2]);
    /// ```
    pub fn empty_like(&self) -> Self {
        Tensor::from_dyn(self.as_dyn().empty_like())
    }
}

// The bounds are on each method, not the impl: a call with the wrong shape or dtype then
// fails with the bound's own message (E0277) instead of "method exists but its trait
// bounds were not satisfied" (E0599).
impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// Zeros of the static shape `S`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::zeros();
    /// assert_eq!(t.to_vec().unwrap(), vec![0.0; 6]);
    /// ```
    pub fn zeros() -> Self
    where
        S: StaticShape,
    {
        Self::zeros_shape(S::default())
    }

    /// Ones of the static shape `S`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>, i64>::ones();
    /// assert_eq!(t.to_vec().unwrap(), vec![1, 1, 1]);
    /// ```
    pub fn ones() -> Self
    where
        S: StaticShape,
    {
        Self::ones_shape(S::default())
    }

    /// `value` everywhere in the static shape `S`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<1, 2>, u8>::full(9);
    /// assert_eq!(t.to_vec().unwrap(), vec![9, 9]);
    /// ```
    pub fn full(value: T) -> Self
    where
        S: StaticShape,
    {
        Self::full_shape(S::default(), value)
    }

    /// `empty` of the static shape `S` (zeros in tg).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// assert_eq!(Tensor::<Rank1<5>, f16>::empty().dims(), vec![5]);
    /// ```
    pub fn empty() -> Self
    where
        S: StaticShape,
    {
        Self::empty_shape(S::default())
    }

    /// A tensor of the static shape `S` taking `data`; the length must match.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>>::from_vec(vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// assert_eq!(t.item().is_err(), true);
    /// ```
    pub fn from_vec(data: Vec<T>) -> Result<Self>
    where
        S: StaticShape,
    {
        Self::from_vec_shape(S::default(), data)
    }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// Uniform on `[0, 1)` from the process-wide stream (tinygrad's threefry stream; see
    /// `tg_ops::untyped::random`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<shape![_, 2], f16>::rand_shape((3, Const));
    /// assert!(t.to_vec().unwrap().iter().all(|x| x.to_f32() >= 0.0 && x.to_f32() < 1.0));
    /// ```
    pub fn rand_shape(shape: S) -> Self
    where
        T: Float,
    {
        Tensor::from_dyn(ok(DynTensor::rand(&shape.dims(), T::DTYPE)))
    }

    /// Standard normal values (Box-Muller over `rand`, as tinygrad).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// assert_eq!(Tensor::<shape![_]>::randn_shape((4,)).dims(), vec![4]);
    /// ```
    pub fn randn_shape(shape: S) -> Self
    where
        T: Float,
    {
        Tensor::from_dyn(ok(DynTensor::randn(&shape.dims(), T::DTYPE)))
    }

    /// Uniform on `[low, high)`; panics unless `low < high` (`try_uniform_shape` returns the
    /// error).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<shape![_]>::uniform_shape((4,), -1.0, 1.0);
    /// assert!(t.to_vec().unwrap().iter().all(|&x| (-1.0..1.0).contains(&x)));
    /// ```
    #[track_caller]
    pub fn uniform_shape(shape: S, low: f64, high: f64) -> Self
    where
        T: Float,
    {
        ok(Self::try_uniform_shape(shape, low, high))
    }

    /// `uniform_shape`, returning an argument error instead of panicking.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// assert!(Tensor::<shape![_]>::try_uniform_shape((4,), 1.0, 1.0).is_err());
    /// ```
    pub fn try_uniform_shape(shape: S, low: f64, high: f64) -> Result<Self>
    where
        T: Float,
    {
        Tensor::try_from_dyn(DynTensor::uniform(&shape.dims(), low, high, T::DTYPE)?)
    }

    /// Normal values of mean `mean`, standard deviation `std`; panics if `std < 0`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<shape![_]>::normal_shape((2,), 3.0, 0.0);
    /// assert_eq!(t.to_vec().unwrap(), vec![3.0, 3.0]);
    /// ```
    #[track_caller]
    pub fn normal_shape(shape: S, mean: f64, std: f64) -> Self
    where
        T: Float,
    {
        ok(Self::try_normal_shape(shape, mean, std))
    }

    /// `normal_shape`, returning an argument error instead of panicking.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// assert!(Tensor::<shape![_]>::try_normal_shape((2,), 0.0, -1.0).is_err());
    /// ```
    pub fn try_normal_shape(shape: S, mean: f64, std: f64) -> Result<Self>
    where
        T: Float,
    {
        Tensor::try_from_dyn(DynTensor::normal(&shape.dims(), mean, std, T::DTYPE)?)
    }

    /// He-uniform initialisation: bound `sqrt(6 / (1 + a^2) / fan_in)`, fan-in the product of
    /// the dims after the first (tinygrad's default `a` is 0.01).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// assert_eq!(Tensor::<shape![_, 3]>::kaiming_uniform_shape((2, Const), 0.01).dims(), vec![2, 3]);
    /// ```
    pub fn kaiming_uniform_shape(shape: S, a: f64) -> Self
    where
        T: Float,
    {
        Tensor::from_dyn(ok(DynTensor::kaiming_uniform(&shape.dims(), a, T::DTYPE)))
    }

    /// Glorot-uniform initialisation: bound `sqrt(6 / (fan_out + fan_in))`, fan-out the first
    /// dim. Rank 0 has no fan-out: it panics (and the static `glorot_uniform` refuses it at
    /// compile time).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// assert_eq!(Tensor::<shape![_, 3]>::glorot_uniform_shape((2, Const)).dims(), vec![2, 3]);
    /// ```
    pub fn glorot_uniform_shape(shape: S) -> Self
    where
        T: Float,
    {
        Tensor::from_dyn(ok(DynTensor::glorot_uniform(&shape.dims(), T::DTYPE)))
    }

    /// Uniform on `[0, 1)` in this tensor's shape and type.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::zeros().rand_like();
    /// assert_eq!(t.dims(), vec![3]);
    /// ```
    pub fn rand_like(&self) -> Self
    where
        T: Float,
    {
        Tensor::from_dyn(ok(self.as_dyn().rand_like()))
    }

    /// Standard normal values in this tensor's shape and type.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>, f64>::zeros().randn_like();
    /// assert_eq!(t.dims(), vec![3]);
    /// ```
    pub fn randn_like(&self) -> Self
    where
        T: Float,
    {
        Tensor::from_dyn(ok(self.as_dyn().randn_like()))
    }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// Uniform on `[0, 1)` of the static shape `S`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// DynTensor::manual_seed(3);
    /// let a = Tensor::<Rank2<2, 2>>::rand();
    /// DynTensor::manual_seed(3);
    /// assert_eq!(a.to_vec().unwrap(), Tensor::<Rank2<2, 2>>::rand().to_vec().unwrap());
    /// ```
    pub fn rand() -> Self
    where
        S: StaticShape,
        T: Float,
    {
        Self::rand_shape(S::default())
    }

    /// Standard normal values of the static shape `S`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// assert_eq!(Tensor::<Rank1<4>, f16>::randn().dims(), vec![4]);
    /// ```
    pub fn randn() -> Self
    where
        S: StaticShape,
        T: Float,
    {
        Self::randn_shape(S::default())
    }

    /// Uniform on `[low, high)` of the static shape `S`; panics unless `low < high`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<8>>::uniform(5.0, 6.0);
    /// assert!(t.to_vec().unwrap().iter().all(|&x| (5.0..6.0).contains(&x)));
    /// ```
    #[track_caller]
    pub fn uniform(low: f64, high: f64) -> Self
    where
        S: StaticShape,
        T: Float,
    {
        Self::uniform_shape(S::default(), low, high)
    }

    /// Normal values of the static shape `S`; panics if `std < 0`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// assert_eq!(Tensor::<Rank1<2>>::normal(1.0, 0.0).to_vec().unwrap(), vec![1.0, 1.0]);
    /// ```
    #[track_caller]
    pub fn normal(mean: f64, std: f64) -> Self
    where
        S: StaticShape,
        T: Float,
    {
        Self::normal_shape(S::default(), mean, std)
    }

    /// He-uniform initialisation of the static shape `S`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let w = Tensor::<Rank2<8, 6>>::kaiming_uniform(0.01);
    /// let b = (6.0f32 / 1.0001 / 6.0).sqrt();
    /// assert!(w.to_vec().unwrap().iter().all(|&x| -b <= x && x < b));
    /// ```
    pub fn kaiming_uniform(a: f64) -> Self
    where
        S: StaticShape,
        T: Float,
    {
        Self::kaiming_uniform_shape(S::default(), a)
    }

    /// Glorot-uniform initialisation of the static shape `S` (rank 1 or more).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let w = Tensor::<Rank2<3, 3>>::glorot_uniform();
    /// assert!(w.to_vec().unwrap().iter().all(|&x| x.abs() <= 1.0));
    /// ```
    pub fn glorot_uniform() -> Self
    where
        S: StaticShape,
        T: Float,
    {
        const {
            assert!(
                S::RANK >= 1,
                "glorot_uniform needs a shape of rank >= 1: its first dim is the fan-out"
            )
        };
        Self::glorot_uniform_shape(S::default())
    }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// Integers uniform on `[low, high)` (tinygrad's `randint`: f32 uniforms truncated);
    /// panics unless `low < high` (`try_randint_shape` returns the error).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<shape![_], u8>::randint_shape((16,), 250, 256);
    /// assert!(t.to_vec().unwrap().iter().all(|&x| x >= 250));
    /// ```
    #[track_caller]
    pub fn randint_shape(shape: S, low: i64, high: i64) -> Self
    where
        T: Int,
    {
        ok(Self::try_randint_shape(shape, low, high))
    }

    /// `randint_shape`, returning an argument error instead of panicking.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// assert!(Tensor::<shape![_], i32>::try_randint_shape((3,), 5, 2).is_err());
    /// ```
    pub fn try_randint_shape(shape: S, low: i64, high: i64) -> Result<Self>
    where
        T: Int,
    {
        Tensor::try_from_dyn(DynTensor::randint(&shape.dims(), low, high, T::DTYPE)?)
    }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// Integers uniform on `[low, high)` of the static shape `S`; panics unless `low < high`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>, i32>::randint(-2, 3);
    /// assert!(t.to_vec().unwrap().iter().all(|&x| (-2..3).contains(&x)));
    /// ```
    #[track_caller]
    pub fn randint(low: i64, high: i64) -> Self
    where
        S: StaticShape,
        T: Int,
    {
        Self::randint_shape(S::default(), low, high)
    }
}
