//! numpy broadcasting and dtype promotion of operands.

use super::DynTensor;
use tg_runtime::{DType, Error, Result};

/// The numpy broadcast of shapes: align from the right, sizes equal or 1.
pub fn broadcast_shapes(op: &'static str, shapes: &[&[usize]]) -> Result<Vec<usize>> {
    let rank = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = vec![1usize; rank];
    for s in shapes {
        for (i, &d) in s.iter().enumerate() {
            let o = &mut out[rank - s.len() + i];
            if *o == 1 {
                *o = d;
            } else if d != 1 && d != *o {
                let list: Vec<String> = shapes.iter().map(|s| format!("{s:?}")).collect();
                return Err(Error::Shape {
                    op,
                    message: format!(
                        "shapes {} do not broadcast: dimension {} is {} in one and {} in another",
                        list.join(" and "),
                        i as isize - s.len() as isize,
                        *o,
                        d
                    ),
                });
            }
        }
    }
    Ok(out)
}

impl DynTensor {
    /// Broadcasts to `shape` (numpy rules: new axes on the left, size-1 axes stretch).
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<DynTensor> {
        if self.shape() == shape {
            return Ok(self.clone());
        }
        let target = broadcast_shapes("broadcast_to", &[self.shape(), shape])?;
        if target != shape {
            return Err(Error::Shape {
                op: "broadcast_to",
                message: format!("cannot broadcast {:?} to {shape:?}", self.shape()),
            });
        }
        let mut padded = vec![1usize; shape.len() - self.ndim()];
        padded.extend_from_slice(self.shape());
        Ok(DynTensor::wrap(self.lazy.reshape(&padded)?.expand(shape)?))
    }

    /// Both operands broadcast to one shape and cast to one dtype (`dtype`, or their least
    /// upper dtype).
    pub fn align(
        op: &'static str,
        a: &DynTensor,
        b: &DynTensor,
        dtype: Option<DType>,
    ) -> Result<(DynTensor, DynTensor)> {
        let shape = broadcast_shapes(op, &[a.shape(), b.shape()])?;
        let dt = dtype.unwrap_or_else(|| a.dtype().least_upper(b.dtype()));
        Ok((
            a.cast(dt).broadcast_to(&shape)?,
            b.cast(dt).broadcast_to(&shape)?,
        ))
    }
}
