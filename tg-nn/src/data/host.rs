//! `HostArray`: samples in host memory, a first (batch) axis and any dtype, from which batches
//! are copied out row by row.

use tg_ops::DynTensor;
use tg_runtime::{DType, Element, Error, Lazy, Result};

/// An array in host memory whose first axis counts samples: what a [`DataLoader`](crate::data::DataLoader)
/// (super::DataLoader) batches. The samples stay on the host: each batch's rows are copied out
/// and uploaded, one copy per sample and epoch, and device memory holds only the batch.
#[derive(Clone, Debug)]
pub struct HostArray {
    dtype: DType,
    shape: Vec<usize>,
    bytes: Vec<u8>,
}

impl HostArray {
    /// An array of `shape` holding `data` in row-major order. The shape needs at least one
    /// axis (the samples), and `data` its element count.
    pub fn new<T: Element>(shape: &[usize], data: &[T]) -> Result<HostArray> {
        let mut bytes = Vec::with_capacity(std::mem::size_of_val(data));
        for &v in data {
            v.write_le(&mut bytes);
        }
        HostArray::from_bytes(T::DTYPE, shape, bytes)
    }

    /// An array of `dtype` and `shape` from little-endian bytes, tg's host layout.
    pub fn from_bytes(dtype: DType, shape: &[usize], bytes: Vec<u8>) -> Result<HostArray> {
        if shape.is_empty() {
            return Err(Error::Shape {
                op: "HostArray",
                message: "needs a first axis of samples; got a rank-0 shape".into(),
            });
        }
        let numel = tg_runtime::error::checked_numel("HostArray", shape)?;
        if numel.checked_mul(dtype.size()) != Some(bytes.len()) {
            return Err(Error::NumelMismatch {
                op: "HostArray",
                from: vec![bytes.len() / dtype.size()],
                to: shape.to_vec(),
            });
        }
        Ok(HostArray {
            dtype,
            shape: shape.to_vec(),
            bytes,
        })
    }

    /// A tensor's values, read back from the device once.
    pub fn from_tensor(t: &DynTensor) -> Result<HostArray> {
        HostArray::from_bytes(t.dtype(), t.shape(), t.lazy().to_bytes()?)
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The shape, samples first.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The number of samples (the first axis).
    pub fn len(&self) -> usize {
        self.shape[0]
    }

    /// Whether there are no samples.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes per sample.
    fn row_bytes(&self) -> usize {
        self.shape[1..].iter().product::<usize>() * self.dtype.size()
    }

    /// The samples at `rows` (each below `len()`), in that order, as one tensor with
    /// `rows.len()` as its first axis.
    pub fn gather(&self, rows: &[usize]) -> Result<DynTensor> {
        let n = self.row_bytes();
        let mut bytes = Vec::with_capacity(rows.len() * n);
        for &r in rows {
            if r >= self.len() {
                return Err(Error::Argument {
                    op: "HostArray::gather",
                    message: format!("row {r} of an array of {} samples", self.len()),
                });
            }
            bytes.extend_from_slice(&self.bytes[r * n..(r + 1) * n]);
        }
        let mut shape = self.shape.clone();
        shape[0] = rows.len();
        Ok(DynTensor::from_lazy(Lazy::from_bytes(
            self.dtype, &shape, bytes,
        )?))
    }
}
