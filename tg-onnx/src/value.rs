//! A value flowing through the graph, and what a node's implementation sees: its inputs, its
//! attributes, and errors that name it.

use tg_onnx_format::{DType, Error, Exotic, HostTensor, Node, Result};
use tg_ops::DynTensor;
use tg_runtime::Lazy;

/// A value of the graph: known on the host (constants, shapes and what is computed from them
/// alone), or a tensor of the device graph.
#[derive(Clone)]
pub(crate) enum Value {
    /// Known without running anything.
    Host(HostTensor),
    /// A device tensor; `dynamic` when it depends on the values of the model's inputs (not
    /// only on their shapes), so that reading it on the host makes the run data-dependent.
    Dev {
        /// The tensor.
        t: DynTensor,
        /// Whether it depends on input values.
        dynamic: bool,
        /// The exotic ONNX type `t` stores (see `tg_onnx_format::exotic`).
        exotic: Option<Exotic>,
    },
    /// A sequence of values.
    Seq(Vec<Value>),
    /// An optional value.
    Opt(Option<Box<Value>>),
}

impl Value {
    /// A tensor's shape (`[]` for sequences and optionals).
    pub fn shape(&self) -> &[usize] {
        match self {
            Value::Host(h) => &h.shape,
            Value::Dev { t, .. } => t.shape(),
            Value::Seq(_) | Value::Opt(_) => &[],
        }
    }

    /// A tensor's dtype (for sequences and optionals, that of their first tensor, else
    /// f32: what an empty one would hold).
    pub fn dtype(&self) -> DType {
        match self {
            Value::Host(h) => h.dtype,
            Value::Dev { t, .. } => t.dtype(),
            Value::Seq(v) => v.first().map(Value::dtype).unwrap_or(DType::F32),
            Value::Opt(v) => v.as_ref().map(|v| v.dtype()).unwrap_or(DType::F32),
        }
    }

    /// Whether the value depends on the inputs' values.
    pub fn dynamic(&self) -> bool {
        match self {
            Value::Host(_) => false,
            Value::Dev { dynamic, .. } => *dynamic,
            Value::Seq(v) => v.iter().any(Value::dynamic),
            Value::Opt(v) => v.as_ref().is_some_and(|v| v.dynamic()),
        }
    }

    /// A device value of a tg dtype.
    pub fn dev(t: DynTensor, dynamic: bool) -> Value {
        Value::Dev {
            t,
            dynamic,
            exotic: None,
        }
    }

    /// The exotic ONNX type the value's dtype stores, if any.
    pub fn exotic(&self) -> Option<Exotic> {
        match self {
            Value::Host(h) => h.exotic,
            Value::Dev { exotic, .. } => *exotic,
            Value::Seq(_) | Value::Opt(_) => None,
        }
    }
}

/// A host tensor as a device tensor: a single value becomes a constant (free to fuse, no
/// buffer), anything else a buffer uploaded when first realized.
pub(crate) fn upload(h: &HostTensor) -> std::result::Result<DynTensor, tg_runtime::Error> {
    if let (1, Some(f), Some(i)) = (h.numel(), h.get_f64(0), h.get_i64(0)) {
        let s = if h.dtype.is_float() {
            tg_runtime::Scalar::Float(f)
        } else if h.dtype == DType::Bool {
            tg_runtime::Scalar::Bool(i != 0)
        } else if h.dtype == DType::U64 {
            tg_runtime::Scalar::UInt(i as u64)
        } else {
            tg_runtime::Scalar::Int(i)
        };
        return DynTensor::full(&h.shape, s, h.dtype);
    }
    Ok(DynTensor::from_lazy(Lazy::from_bytes(
        h.dtype,
        &h.shape,
        h.data.clone(),
    )?))
}

/// Reads a device tensor back to the host.
pub(crate) fn download(t: &DynTensor) -> std::result::Result<HostTensor, tg_runtime::Error> {
    let data = t.lazy().to_bytes()?;
    Ok(HostTensor {
        dtype: t.dtype(),
        shape: t.shape().to_vec(),
        data,
        exotic: None,
    })
}

/// One node's run: the node, its inputs, and whether reading a value on the host made the
/// run depend on input data.
pub(crate) struct NodeCtx<'a> {
    pub node: &'a Node,
    pub ins: Vec<Option<Value>>,
    /// Set when an input-dependent value was read on the host: the run cannot be replayed.
    pub data_dependent: &'a mut bool,
}

impl<'a> NodeCtx<'a> {
    fn shapes(&self) -> Vec<Vec<usize>> {
        self.ins
            .iter()
            .map(|v| v.as_ref().map(|v| v.shape().to_vec()).unwrap_or_default())
            .collect()
    }

    fn dtypes(&self) -> Vec<DType> {
        self.ins.iter().flatten().map(Value::dtype).collect()
    }

    /// A tg error of this node, with its inputs' shapes and dtypes.
    pub fn op_error(&self, e: tg_runtime::Error) -> Error {
        Error::Op {
            node: self.node.name.clone(),
            op_type: self.node.op.name().to_string(),
            shapes: self.shapes(),
            dtypes: self.dtypes(),
            source: Box::new(e),
        }
    }

    /// An input this op cannot take.
    pub fn bad(&self, message: impl Into<String>) -> Error {
        Error::NodeInput {
            node: self.node.name.clone(),
            op_type: self.node.op.name().to_string(),
            message: message.into(),
            shapes: self.shapes(),
            dtypes: self.dtypes(),
        }
    }

    /// Whether input `i` is given.
    pub fn has(&self, i: usize) -> bool {
        matches!(self.ins.get(i), Some(Some(_)))
    }

    /// Input `i`, required.
    pub fn value(&self, i: usize) -> Result<&Value> {
        self.ins
            .get(i)
            .and_then(Option::as_ref)
            .ok_or_else(|| self.node.arity(format!("input {i} is required")))
    }

    /// Input `i` as a device tensor, required.
    pub fn t(&self, i: usize) -> Result<DynTensor> {
        match self.value(i)? {
            Value::Host(h) => upload(h).map_err(|e| self.op_error(e)),
            Value::Dev { t, .. } => Ok(t.clone()),
            Value::Seq(_) | Value::Opt(_) => Err(self.bad(format!("input {i} must be a tensor"))),
        }
    }

    /// Input `i` as a sequence, required.
    pub fn seq(&self, i: usize) -> Result<Vec<Value>> {
        match self.value(i)? {
            Value::Seq(v) => Ok(v.clone()),
            _ => Err(self.bad(format!("input {i} must be a sequence"))),
        }
    }

    /// Input `i` as a device tensor, if given.
    pub fn opt_t(&self, i: usize) -> Result<Option<DynTensor>> {
        if self.has(i) {
            self.t(i).map(Some)
        } else {
            Ok(None)
        }
    }

    /// Input `i` on the host, required; reading an input-dependent device value marks the run
    /// data-dependent.
    pub fn host(&mut self, i: usize) -> Result<HostTensor> {
        let v = self.value(i)?.clone();
        match v {
            Value::Seq(_) | Value::Opt(_) => Err(self.bad(format!("input {i} must be a tensor"))),
            Value::Host(h) => Ok(h),
            Value::Dev { t, dynamic, exotic } => {
                if dynamic {
                    *self.data_dependent = true;
                }
                let mut h = download(&t).map_err(|e| self.op_error(e))?;
                h.exotic = exotic;
                Ok(h)
            }
        }
    }

    /// Input `i` on the host, if given.
    pub fn opt_host(&mut self, i: usize) -> Result<Option<HostTensor>> {
        if self.has(i) {
            self.host(i).map(Some)
        } else {
            Ok(None)
        }
    }

    /// Input `i`'s values as integers, if given.
    pub fn opt_ints(&mut self, i: usize) -> Result<Option<Vec<i64>>> {
        Ok(self.opt_host(i)?.map(|h| h.to_i64s()))
    }

    /// Input `j`'s values as integers, required.
    pub fn ints(&mut self, j: usize) -> Result<Vec<i64>> {
        Ok(self.host(j)?.to_i64s())
    }

    /// Input `j`'s one element (a scalar such as CumSum's axis or TopK's `k`) as i64,
    /// required; an empty or longer tensor is [`Error::ElementCount`] naming this node.
    pub fn scalar_i64(&mut self, j: usize) -> Result<i64> {
        let h = self.host(j)?;
        self.node.scalar_i64(j, &h)
    }

    /// Input `j`'s one element as f64, required (see [`NodeCtx::scalar_i64`]).
    pub fn scalar_f64(&mut self, j: usize) -> Result<f64> {
        let h = self.host(j)?;
        self.node.scalar_f64(j, &h)
    }

    /// Input `j`'s one element as i64, if given.
    pub fn opt_scalar_i64(&mut self, j: usize) -> Result<Option<i64>> {
        match self.opt_host(j)? {
            Some(h) => self.node.scalar_i64(j, &h).map(Some),
            None => Ok(None),
        }
    }

    /// Input `j`'s one element as f64, if given.
    pub fn opt_scalar_f64(&mut self, j: usize) -> Result<Option<f64>> {
        match self.opt_host(j)? {
            Some(h) => self.node.scalar_f64(j, &h).map(Some),
            None => Ok(None),
        }
    }

    /// A device result of this node: dynamic when any input is.
    pub fn out(&self, t: DynTensor) -> Value {
        Value::dev(t, self.ins.iter().flatten().any(Value::dynamic))
    }
}

/// Maps a tg error into this node's error.
pub(crate) trait At<T> {
    /// The value, or the error as one of `ctx`'s node.
    fn at(self, ctx: &NodeCtx) -> Result<T>;
}

impl<T> At<T> for std::result::Result<T, tg_runtime::Error> {
    fn at(self, ctx: &NodeCtx) -> Result<T> {
        self.map_err(|e| ctx.op_error(e))
    }
}

/// A host tensor as a device buffer (never folded into a constant): what a model input must
/// be, since a recording replays on its inputs' buffers.
pub(crate) fn upload_buffer(h: &HostTensor) -> std::result::Result<DynTensor, tg_runtime::Error> {
    Ok(DynTensor::from_lazy(Lazy::from_bytes(
        h.dtype,
        &h.shape,
        h.data.clone(),
    )?))
}
