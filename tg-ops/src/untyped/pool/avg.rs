//! Average pooling.

use super::{Pool, ceil_mode_pads, last_axes};
use crate::untyped::DynTensor;
use tg_core::decide;
use tg_core::shape::window;
use tg_runtime::Result;

impl DynTensor {
    /// The mean of each window of the last `p.kernel.len()` axes (any number of spatial axes,
    /// as tinygrad; torch's `avg_pool2d` takes two).
    ///
    /// Padding is zeros. With `count_include_pad` (the default) a window's padding counts in
    /// its divisor, except the extra padding `ceil_mode` adds at the end (torch's rule);
    /// without it the divisor is the number of input elements in the window. The result is
    /// float: the input's float dtype, f32 for integers and bool (tinygrad's `mean`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[1, 1, 2, 3], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let a = t.avg_pool2d(&Pool::new([2, 2]).stride(1)).unwrap();
    /// assert_eq!(a.to_vec::<f32>().unwrap(), vec![3.0, 4.0]);
    /// let c = t.avg_pool2d(&Pool::new([2, 2]).ceil_mode(true)).unwrap();
    /// assert_eq!(c.to_vec::<f32>().unwrap(), vec![3.0, 4.5]); // the partial window averages 2 values
    /// let p = t.avg_pool2d(&Pool::new([1, 2]).padding(Padding::PerAxis(vec![0, 1])).count_include_pad(false)).unwrap();
    /// assert_eq!(p.to_vec::<f32>().unwrap(), vec![1.0, 2.5, 4.0, 5.5]);
    /// ```
    pub fn avg_pool2d(&self, p: &Pool) -> Result<DynTensor> {
        const OP: &str = "avg_pool2d";
        let w = p.window(OP)?;
        let dims = w.kernel.len();
        let reg = p.padding.resolve(OP, dims)?;
        decide(|ck| window::pool(ck, OP, self.shape(), &w, &reg, p.ceil_mode))?;
        let sizes = self.shape()[self.ndim() - dims..].to_vec();
        let pads = if p.ceil_mode {
            ceil_mode_pads(&sizes, &reg, &w)
        } else {
            reg.clone()
        };
        let axes = last_axes(dims);
        let window_sum = |x: &DynTensor, pads: &[(isize, isize)]| {
            x.pad_spatial(pads, 0)?
                .pool_window(OP, &w)?
                .sum(Some(&axes), false)
        };
        if !p.count_include_pad {
            return window_sum(self, &pads)?.div(&window_sum(&self.ones_like(), &pads)?);
        }
        if !p.ceil_mode {
            return self
                .pad_spatial(&pads, 0)?
                .pool_window(OP, &w)?
                .mean(Some(&axes), false);
        }
        // count the regular padding, not what ceil mode adds beyond it
        let extra: Vec<(isize, isize)> = pads
            .iter()
            .zip(&reg)
            .map(|(c, r)| (c.0 - r.0, c.1 - r.1))
            .collect();
        let counted = self.pad_spatial(&reg, 0)?.ones_like();
        window_sum(self, &pads)?.div(&window_sum(&counted, &extra)?)
    }
}
