//! The window functions (Hann, Hamming, Blackman): computed on the host from the size, in
//! f64, and rounded once to the output dtype.

use std::f64::consts::PI;

use tg_onnx_format::{HostTensor, OpType, Result};

use crate::value::{NodeCtx, Value};

pub(crate) fn window(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let size = c.scalar_i64(0)?;
    let code = c.node.int_or("output_datatype", 1)?;
    let dtype = tg_onnx_format::dtype::from_onnx(code as i32, &c.node.name)?;
    // a negative size, or one past tg's element limit, is refused before the host loop
    let n = c.node.checked_shape(&[size], dtype)?[0];
    let periodic = c.node.int_or("periodic", 1)? != 0;
    let denom = if periodic {
        n as f64
    } else {
        n.saturating_sub(1) as f64
    };
    let v: Vec<f64> = (0..n)
        .map(|i| {
            let t = 2.0 * PI * i as f64 / denom;
            match c.node.op {
                OpType::HannWindow => 0.5 - 0.5 * t.cos(),
                OpType::HammingWindow => 25.0 / 46.0 - (21.0 / 46.0) * t.cos(),
                _ => 0.42 - 0.5 * t.cos() + 0.08 * (2.0 * t).cos(),
            }
        })
        .collect();
    Ok(vec![Value::Host(HostTensor::from_f64s(dtype, &[n], &v))])
}
