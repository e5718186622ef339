//! Typed convolutions. The weight's out-channel count is tied to the bias and to the output's
//! channel axis, and the batch axis to the input's, by trait bounds (`cargo check` errors
//! naming both dimensions); output spatial sizes depend on run-time options, so the caller
//! names the output shape `S2` (see [`conv_out_size`]), its rank is checked after
//! monomorphization, and its sizes by the run.

use crate::dtype::{Dtype, Float, Promote};
use crate::shape::axis::SelectAxis;
use crate::shape::ops::MatMul;
use crate::shape::{SameDim, Shape};
use crate::tensor::{Tensor, ok};
use crate::typed::reduce::SumDtype;
use crate::untyped::conv::Conv;
use tg_runtime::{Error, Result};

/// The dtype a convolution of `T` by `T2` returns: the operands' promoted dtype, summed as
/// `sum` sums it (`i8` gives `i32`, `f16` stays `f16`).
pub type ConvDtype<T, T2> = <<T as Promote<T2>>::Output as SumDtype>::Output;

/// The dim of axis `A` of `S`: the out-channel dim of a weight (`A = 0`) or an output
/// (`A = 1`).
pub type OutChannels<S, const A: isize = 0> = <S as SelectAxis<A>>::Dim;

/// The output size of one spatial axis of `conv2d`:
/// `(input + pad_before + pad_after - dilation * (kernel - 1) - 1) / stride + 1`.
///
/// ```
/// use tg_ops::prelude::*;
/// use tg_ops::typed::conv::conv_out_size;
/// let x = Tensor::<Rank4<1, 1, 5, 5>>::from_slice(&[1.0; 25]).unwrap();
/// let w = Tensor::<Rank4<2, 1, 3, 3>>::from_slice(&[1.0; 18]).unwrap();
/// const O: usize = conv_out_size(5, 3, 2, 1, 1, 1);
/// let y: Tensor<Rank4<1, 2, O, O>> = x.conv2d(&w, None, &Conv::new().stride(2).padding(1));
/// assert_eq!(y.dims(), vec![1, 2, 3, 3]);
/// ```
pub const fn conv_out_size(
    input: usize,
    kernel: usize,
    stride: usize,
    dilation: usize,
    pad_before: isize,
    pad_after: isize,
) -> usize {
    crate::typed::pool::pool_out_size(
        input, kernel, stride, dilation, pad_before, pad_after, false,
    )
}

/// The output size of one spatial axis of `conv_transpose2d`:
/// `(input - 1) * stride - pad_before - pad_after + dilation * (kernel - 1) + output_padding + 1`.
pub const fn conv_transpose_out_size(
    input: usize,
    kernel: usize,
    stride: usize,
    dilation: usize,
    pad_before: isize,
    pad_after: isize,
    output_padding: usize,
) -> usize {
    ((input as isize - 1) * stride as isize - pad_before - pad_after
        + (dilation * (kernel - 1) + output_padding + 1) as isize) as usize
}

const fn ranks_agree<S: Shape, W: Shape, S2: Shape>() {
    assert!(
        S::RANK == W::RANK && S::RANK == S2::RANK && S::RANK >= 3,
        "convolution: input, weight and output shape types need one rank, at least 3: (batch, channels, *spatial)"
    );
}

/// Typed convolutions refuse an accumulation dtype other than their output type.
fn check_acc<U: Dtype>(op: &'static str, c: &Conv) -> Result<()> {
    match c.acc {
        Some(dt) if dt != U::DTYPE => Err(Error::DType {
            op,
            dtype: dt,
            message: format!(
                "the typed {op} returns {}; use DynTensor::{op} for another accumulation dtype",
                U::DTYPE
            ),
        }),
        _ => Ok(()),
    }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// The convolution of `self` `(batch, channels, *spatial)` with `weight` `(out_channels,
    /// channels / groups, *kernel)` plus `bias`, giving `S2` `(batch, out_channels,
    /// *out_spatial)`; see `DynTensor::conv2d` (any number of spatial axes, every padding
    /// form, Winograd and IMAGE algorithms). `c.acc` must be `None` or the output dtype.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = Tensor::<Rank3<1, 1, 4>>::from_slice(&[1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let w = Tensor::<Rank3<1, 1, 2>>::from_slice(&[1.0, -1.0]).unwrap();
    /// let b = Tensor::<Rank1<1>>::from_slice(&[10.0]).unwrap();
    /// let y: Tensor<Rank3<1, 1, 3>> = x.conv2d(&w, Some(&b), &Conv::new());
    /// assert_eq!(y.to_vec().unwrap(), vec![9.0, 9.0, 9.0]);
    /// ```
    #[track_caller]
    pub fn conv2d<S2, W, T2: Dtype>(
        &self,
        weight: &Tensor<W, T2>,
        bias: Option<&Tensor<(OutChannels<W>,), T2>>,
        c: &Conv,
    ) -> Tensor<S2, ConvDtype<T, T2>>
    where
        T: Promote<T2>,
        <T as Promote<T2>>::Output: SumDtype,
        W: SelectAxis<0>,
        S: SelectAxis<0>,
        S2: SelectAxis<0> + SelectAxis<1>,
        <S2 as SelectAxis<0>>::Dim: SameDim<<S as SelectAxis<0>>::Dim>,
        <S2 as SelectAxis<1>>::Dim: SameDim<OutChannels<W>>,
    {
        ok(self.try_conv2d(weight, bias, c))
    }

    /// `conv2d`, returning an error where the options or dynamic sizes do not fit.
    pub fn try_conv2d<S2, W, T2: Dtype>(
        &self,
        weight: &Tensor<W, T2>,
        bias: Option<&Tensor<(OutChannels<W>,), T2>>,
        c: &Conv,
    ) -> Result<Tensor<S2, ConvDtype<T, T2>>>
    where
        T: Promote<T2>,
        <T as Promote<T2>>::Output: SumDtype,
        W: SelectAxis<0>,
        S: SelectAxis<0>,
        S2: SelectAxis<0> + SelectAxis<1>,
        <S2 as SelectAxis<0>>::Dim: SameDim<<S as SelectAxis<0>>::Dim>,
        <S2 as SelectAxis<1>>::Dim: SameDim<OutChannels<W>>,
    {
        const { ranks_agree::<S, W, S2>() };
        check_acc::<ConvDtype<T, T2>>("conv2d", c)?;
        Tensor::try_from_dyn(
            self.as_dyn()
                .conv2d(weight.as_dyn(), bias.map(Tensor::as_dyn), c)?,
        )
    }

    /// The transposed convolution of `self` `(batch, channels, *spatial)` with `weight`
    /// `(channels, out_channels / groups, *kernel)` plus `bias` (of `S2`'s channel dim), giving `S2`
    /// (see [`conv_transpose_out_size`] and `DynTensor::conv_transpose2d`). The input's
    /// channel axis must match the weight's first axis.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = Tensor::<Rank3<1, 1, 2>>::from_slice(&[1.0, 2.0]).unwrap();
    /// let w = Tensor::<Rank3<1, 1, 2>>::from_slice(&[1.0, 10.0]).unwrap();
    /// let y: Tensor<Rank3<1, 1, 4>> = x.conv_transpose2d(&w, None, &Conv::new().stride(2));
    /// assert_eq!(y.to_vec().unwrap(), vec![1.0, 10.0, 2.0, 20.0]);
    /// ```
    #[track_caller]
    pub fn conv_transpose2d<S2, W, T2: Dtype>(
        &self,
        weight: &Tensor<W, T2>,
        bias: Option<&Tensor<(OutChannels<S2, 1>,), T2>>,
        c: &Conv,
    ) -> Tensor<S2, ConvDtype<T, T2>>
    where
        T: Promote<T2>,
        <T as Promote<T2>>::Output: SumDtype,
        W: SelectAxis<0>,
        S: SelectAxis<0> + SelectAxis<1>,
        S2: SelectAxis<0> + SelectAxis<1>,
        <S as SelectAxis<1>>::Dim: SameDim<OutChannels<W>>,
        <S2 as SelectAxis<0>>::Dim: SameDim<<S as SelectAxis<0>>::Dim>,
    {
        ok(self.try_conv_transpose2d(weight, bias, c))
    }

    /// `conv_transpose2d`, returning an error where the options or dynamic sizes do not fit.
    pub fn try_conv_transpose2d<S2, W, T2: Dtype>(
        &self,
        weight: &Tensor<W, T2>,
        bias: Option<&Tensor<(OutChannels<S2, 1>,), T2>>,
        c: &Conv,
    ) -> Result<Tensor<S2, ConvDtype<T, T2>>>
    where
        T: Promote<T2>,
        <T as Promote<T2>>::Output: SumDtype,
        W: SelectAxis<0>,
        S: SelectAxis<0> + SelectAxis<1>,
        S2: SelectAxis<0> + SelectAxis<1>,
        <S as SelectAxis<1>>::Dim: SameDim<OutChannels<W>>,
        <S2 as SelectAxis<0>>::Dim: SameDim<<S as SelectAxis<0>>::Dim>,
    {
        const { ranks_agree::<S, W, S2>() };
        check_acc::<ConvDtype<T, T2>>("conv_transpose2d", c)?;
        Tensor::try_from_dyn(self.as_dyn().conv_transpose2d(
            weight.as_dyn(),
            bias.map(Tensor::as_dyn),
            c,
        )?)
    }

    /// `self @ w` through tinygrad's IMAGE layout (a 1x1 `image_conv2d`); the result equals
    /// `matmul`'s. Floats only; `w`'s batch axes must be the trailing batch axes of `self`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = Tensor::<Rank2<1, 2>>::from_slice(&[1.0, 2.0]).unwrap();
    /// let b = Tensor::<Rank2<2, 2>>::from_slice(&[5.0, 6.0, 7.0, 8.0]).unwrap();
    /// let c: Tensor<Rank2<1, 2>> = a.image_dot(&b);
    /// assert_eq!(c.to_vec().unwrap(), vec![19.0, 22.0]);
    /// ```
    #[track_caller]
    pub fn image_dot<S2: Shape, T2: Float>(
        &self,
        w: &Tensor<S2, T2>,
    ) -> Tensor<<S as MatMul<S2>>::Output, <T as Promote<T2>>::Output>
    where
        T: Float + Promote<T2>,
        S: MatMul<S2>,
    {
        ok(self.try_image_dot(w))
    }

    /// `image_dot`, returning an error where the batch axes do not fit the IMAGE form.
    pub fn try_image_dot<S2: Shape, T2: Float>(
        &self,
        w: &Tensor<S2, T2>,
    ) -> Result<Tensor<<S as MatMul<S2>>::Output, <T as Promote<T2>>::Output>>
    where
        T: Float + Promote<T2>,
        S: MatMul<S2>,
    {
        Tensor::try_from_dyn(self.as_dyn().image_dot(w.as_dyn(), None)?)
    }
}
