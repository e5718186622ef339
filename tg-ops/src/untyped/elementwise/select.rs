//! Ops that choose or mix values: where, clamp, lerp.

use tg_runtime::{DType, Error, Result};

use super::dtype_error;
use super::expr::V;
use super::operand::{Operand, meet_dtype, meet_shape, meet3};
use crate::untyped::DynTensor;

impl DynTensor {
    /// `x` where `self` is true, else `y`, elementwise. `self` is converted to bool (`!= 0`);
    /// the three broadcast like numpy, and `x`, `y` meet in one dtype as a binary op's
    /// operands do (two scalars: f32 if either is a float, else i32, else bool).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let c = DynTensor::from_slice(&[3], &[true, false, true]).unwrap();
    /// let x = DynTensor::from_slice(&[3], &[1.0f32, 2.0, 3.0]).unwrap();
    /// assert_eq!(c.where_(&x, 0).unwrap().to_vec::<f32>().unwrap(), vec![1.0, 0.0, 3.0]);
    /// assert_eq!(c.where_(1, 3).unwrap().to_vec::<i32>().unwrap(), vec![1, 3, 1]);
    /// ```
    pub fn where_<'a, 'b>(
        &self,
        x: impl Into<Operand<'a>>,
        y: impl Into<Operand<'b>>,
    ) -> Result<DynTensor> {
        let (x, y) = (x.into(), y.into());
        let dt = meet_dtype(&[&x, &y]);
        let shape = meet_shape("where", &[self.shape()], &[&x, &y])?;
        let c = self.cast(DType::Bool).broadcast_to(&shape)?;
        let (a, b) = (x.to_tensor(&shape, dt)?, y.to_tensor(&shape, dt)?);
        Ok(DynTensor::wrap(c.lazy().where_(a.lazy(), b.lazy())?))
    }

    /// Limits the values to `[min, max]` (either bound optional, scalar or tensor), as
    /// tinygrad: `x < min` gives `min`, then `> max` gives `max` (so `max` wins when
    /// `min > max`); NaN stays NaN. The result has the dtype the tensor and the bounds meet in.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[4], &[-3.0f32, 0.5, 2.0, f32::NAN]).unwrap();
    /// let y = x.clamp(Some((-1.0).into()), Some(1.0.into())).unwrap().to_vec::<f32>().unwrap();
    /// assert_eq!(&y[..3], &[-1.0, 0.5, 1.0]);
    /// assert!(y[3].is_nan());
    /// let z = x.clamp(None, Some(0.into())).unwrap().to_vec::<f32>().unwrap();
    /// assert_eq!(&z[..3], &[-3.0, 0.0, 0.0]);
    /// ```
    pub fn clamp(&self, min: Option<Operand>, max: Option<Operand>) -> Result<DynTensor> {
        if min.is_none() && max.is_none() {
            return Err(Error::Argument {
                op: "clamp",
                message: "needs a min or a max bound (got neither)".into(),
            });
        }
        let me = Operand::from(self);
        let ops: Vec<&Operand> = [Some(&me), min.as_ref(), max.as_ref()]
            .into_iter()
            .flatten()
            .collect();
        let dt = meet_dtype(&ops);
        let shape = meet_shape("clamp", &[], &ops)?;
        let mut x = V::of(&me.to_tensor(&shape, dt)?);
        if let Some(lo) = &min {
            let lo = V::of(&lo.to_tensor(&shape, dt)?);
            x = x.lt(&lo).select(&lo, &x);
        }
        if let Some(hi) = &max {
            let hi = V::of(&hi.to_tensor(&shape, dt)?);
            x = x.gt(&hi).select(&hi, &x);
        }
        x.done()
    }

    /// Alias of [`DynTensor::clamp`].
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-2i32, 0, 9]).unwrap();
    /// assert_eq!(x.clip(Some(0.into()), Some(5.into())).unwrap().to_vec::<i32>().unwrap(), vec![0, 0, 5]);
    /// ```
    pub fn clip(&self, min: Option<Operand>, max: Option<Operand>) -> Result<DynTensor> {
        self.clamp(min, max)
    }

    /// Linear interpolation `self + (end - self) * weight`; the three broadcast and meet in
    /// one dtype (an integer tensor with a float weight gives f32). tinygrad's fixed-point
    /// path for u8 tensors with a tensor weight is not reproduced: u8 lerps like any integer.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = DynTensor::from_slice(&[2], &[1.0f32, 2.0]).unwrap();
    /// let b = DynTensor::from_slice(&[2], &[3.0f32, 6.0]).unwrap();
    /// assert_eq!(a.lerp(&b, 0.25).unwrap().to_vec::<f32>().unwrap(), vec![1.5, 3.0]);
    /// ```
    pub fn lerp<'a, 'b>(
        &self,
        end: impl Into<Operand<'a>>,
        weight: impl Into<Operand<'b>>,
    ) -> Result<DynTensor> {
        let (a, e, w) = meet3(
            "lerp",
            &Operand::from(self),
            &end.into(),
            &weight.into(),
            None,
        )?;
        if a.dtype().is_bool() {
            return Err(dtype_error(
                "lerp",
                DType::Bool,
                "not defined on bool; cast to a number type first",
            ));
        }
        let a = V::of(&a);
        (&a + (V::of(&e) - &a) * V::of(&w)).done()
    }
}
