//! Typed reductions: sum, prod, max, min, mean, any, all, each in five forms: over the whole
//! tensor (`sum()`, rank 0), over one static axis removed (`sum_axis::<A>()`) or kept as 1
//! (`sum_keepdim::<A>()`), and over two static axes removed (`sum_axes::<A, B>()`) or kept
//! (`sum_axes_keepdim::<A, B>()`). Axes are checked by `cargo check`; the output dtype comes
//! from the tables below (tinygrad's rules).

use crate::dtype::Dtype;
use crate::shape::Shape;
use crate::shape::axis::{KeepAxis, RemoveAxis};
use crate::shape::ops::RemoveAxes2;
use crate::tensor::{Tensor, ok};

/// The dtype a sum returns (tinygrad's `sum_acc_dtype`): bool, i8, i16, i32 sum to i32;
/// u8, u16, u32 to u32; i64, u64, f32, f64 to themselves; f16 accumulates in f32 and returns
/// f16.
pub trait SumDtype: Dtype {
    /// The dtype of the sum.
    type Output: Dtype;
}

/// The dtype a mean returns: floats keep theirs, integers and bool give f32.
pub trait MeanDtype: Dtype {
    /// The dtype of the mean.
    type Output: Dtype;
}

// The impls of `SumDtype` and `MeanDtype` are generated from tg-core's rules: `dtype_impls.rs`.

/// The output type of a two-axis reduction that keeps the axes.
type Keep2<S, const A: isize, const B: isize> = <<S as KeepAxis<A>>::Output as KeepAxis<B>>::Output;

macro_rules! reduction {
    ($name:ident, $axis:ident, $keep:ident, $axes:ident, $axes_keep:ident,
     out = $out:ty, bound = ($($bound:tt)*), what = $what:literal, example = $example:literal) => {
        impl<S: Shape, T: Dtype> Tensor<S, T> {
            #[doc = concat!("The ", $what, " of all elements, as a rank-0 tensor (see `DynTensor::", stringify!($name), "`).")]
            ///
            /// ```
            /// use tg_ops::prelude::*;
            /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
            #[doc = concat!("let r = t.", stringify!($name), "();")]
            #[doc = concat!("assert_eq!(r.item().unwrap(), ", $example, ");")]
            /// ```
            pub fn $name(&self) -> Tensor<(), $out>
            where
                $($bound)*
            {
                Tensor::from_dyn(ok(self.as_dyn().$name(None, false)))
            }

            #[doc = concat!("The ", $what, " over axis `A`, which is removed.")]
            ///
            /// ```
            /// use tg_ops::prelude::*;
            /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
            #[doc = concat!("let r = t.", stringify!($axis), "::<-1>();")]
            /// assert_eq!(r.dims(), vec![2]);
            /// ```
            pub fn $axis<const A: isize>(&self) -> Tensor<<S as RemoveAxis<A>>::Output, $out>
            where
                S: RemoveAxis<A>,
                $($bound)*
            {
                Tensor::from_dyn(ok(self.as_dyn().$name(Some(&[A]), false)))
            }

            #[doc = concat!("The ", $what, " over axis `A`, which is kept with size 1.")]
            ///
            /// ```
            /// use tg_ops::prelude::*;
            /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
            #[doc = concat!("let r = t.", stringify!($keep), "::<0>();")]
            /// assert_eq!(r.dims(), vec![1, 3]);
            /// ```
            pub fn $keep<const A: isize>(&self) -> Tensor<<S as KeepAxis<A>>::Output, $out>
            where
                S: KeepAxis<A>,
                $($bound)*
            {
                Tensor::from_dyn(ok(self.as_dyn().$name(Some(&[A]), true)))
            }

            #[doc = concat!("The ", $what, " over the two distinct axes `A` and `B`, which are removed.")]
            ///
            /// ```
            /// use tg_ops::prelude::*;
            /// let t = Tensor::<Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
            #[doc = concat!("let r = t.", stringify!($axes), "::<0, -1>();")]
            /// assert_eq!(r.dims(), vec![3]);
            /// ```
            pub fn $axes<const A: isize, const B: isize>(&self) -> Tensor<<S as RemoveAxes2<A, B>>::Output, $out>
            where
                S: RemoveAxes2<A, B>,
                $($bound)*
            {
                Tensor::from_dyn(ok(self.as_dyn().$name(Some(&[A, B]), false)))
            }

            #[doc = concat!("The ", $what, " over the two distinct axes `A` and `B`, which are kept with size 1.")]
            ///
            /// ```
            /// use tg_ops::prelude::*;
            /// let t = Tensor::<Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
            #[doc = concat!("let r = t.", stringify!($axes_keep), "::<0, 1>();")]
            /// assert_eq!(r.dims(), vec![1, 1, 1]);
            /// ```
            pub fn $axes_keep<const A: isize, const B: isize>(&self) -> Tensor<Keep2<S, A, B>, $out>
            where
                S: RemoveAxes2<A, B> + KeepAxis<A>,
                <S as KeepAxis<A>>::Output: KeepAxis<B>,
                $($bound)*
            {
                Tensor::from_dyn(ok(self.as_dyn().$name(Some(&[A, B]), true)))
            }
        }
    };
}

reduction!(sum, sum_axis, sum_keepdim, sum_axes, sum_axes_keepdim,
    out = <T as SumDtype>::Output, bound = (T: SumDtype,),
    what = "sum (accumulated in a wide type: see `SumDtype`)", example = "21.0");
reduction!(
    prod,
    prod_axis,
    prod_keepdim,
    prod_axes,
    prod_axes_keepdim,
    out = T,
    bound = (),
    what = "product (integers wrap; bool gives `all`)",
    example = "720.0"
);
reduction!(
    max,
    max_axis,
    max_keepdim,
    max_axes,
    max_axes_keepdim,
    out = T,
    bound = (),
    what = "maximum (NaN propagates)",
    example = "6.0"
);
reduction!(
    min,
    min_axis,
    min_keepdim,
    min_axes,
    min_axes_keepdim,
    out = T,
    bound = (),
    what = "minimum (NaN propagates)",
    example = "1.0"
);
reduction!(mean, mean_axis, mean_keepdim, mean_axes, mean_axes_keepdim,
    out = <T as MeanDtype>::Output, bound = (T: MeanDtype,),
    what = "mean (f32 for integers: see `MeanDtype`; NaN over nothing)", example = "3.5");
reduction!(
    any,
    any_axis,
    any_keepdim,
    any_axes,
    any_axes_keepdim,
    out = bool,
    bound = (),
    what = "logical or (nonzero elements are true)",
    example = "true"
);
reduction!(
    all,
    all_axis,
    all_keepdim,
    all_axes,
    all_axes_keepdim,
    out = bool,
    bound = (),
    what = "logical and (nonzero elements are true; true over nothing)",
    example = "true"
);
