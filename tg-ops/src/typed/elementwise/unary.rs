//! Typed unary ops written by hand: bitcast and bitwise_not. Float math and activations, the
//! ops that keep the dtype and the bool tests are generated from tg-core's op table
//! (`typed/generated.rs`).

use super::SameSize;
use crate::dtype::{Bitwise, Dtype};
use crate::shape::Shape;
use crate::tensor::{Tensor, ok};

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// Reinterprets each element's bits as `U`, a type of the same size (checked by
    /// [`SameSize`]).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.0, -2.0]).unwrap();
    /// assert_eq!(t.bitcast::<u32>().to_vec().unwrap(), vec![0x3f80_0000, 0xc000_0000]);
    /// ```
    pub fn bitcast<U: Dtype>(&self) -> Tensor<S, U>
    where
        T: SameSize<U>,
    {
        Tensor::from_dyn(ok(self.as_dyn().bitcast(U::DTYPE)))
    }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// `~x`: every bit flipped (logical not for bool); the `!` operator.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, u8>::from_slice(&[0, 0b1010]).unwrap();
    /// assert_eq!(t.bitwise_not().to_vec().unwrap(), vec![255, 0b1111_0101]);
    /// ```
    pub fn bitwise_not(&self) -> Tensor<S, T>
    where
        T: Bitwise,
    {
        Tensor::from_dyn(ok(self.as_dyn().bitwise_not()))
    }
}
