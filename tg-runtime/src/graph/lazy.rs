//! `Lazy`: the runtime's handle on a graph node, with the primitive ops as checked builders.
//! Shapes here are dynamic (`Vec<usize>`); the typed front end lives in tg-ops.

use std::sync::Arc;

use super::node::{ConstValue, Node, Op, Placement};
use crate::device::Device;
use crate::dtype::{DType, Element, Scalar};
use crate::error::{Error, Result, checked_numel};
use crate::ops::{
    AttentionDropout, AttentionMask, AttentionPass, BinaryOp, ReduceOp, TernaryOp, UnaryOp,
};

/// A lazily evaluated array: a node of the primitive-op graph. Cloning is cheap.
#[derive(Clone)]
pub struct Lazy(pub(crate) Arc<Node>);

/// The most words a record of [`Lazy::merge_runs`] has (a 64-bit key and its index take 3).
pub const MERGE_WORDS: usize = 4;

/// The longest run [`Lazy::sort_runs`] sorts: an invocation holds it in its registers, and
/// its network takes `O(run log² run)` compare-exchanges.
pub const MAX_SORT_RUN: usize = 32;

/// The longest run [`Lazy::scan_runs`] takes: one invocation loops over it, within
/// llvmpipe's 65,535 back-edges.
pub const MAX_SCAN_RUN: usize = 1 << 14;

/// The most queries or keys [`Lazy::attention`] takes: an invocation loops over one row's
/// keys (or, for the keys' gradient, a column's queries), within llvmpipe's 65,535
/// back-edges.
pub const MAX_ATTENTION_LEN: usize = 1 << 14;

/// The widest query, key or value row [`Lazy::attention`] takes: an invocation holds a
/// query row and its output row in registers.
pub const MAX_ATTENTION_WIDTH: usize = 128;

pub(super) fn shape_err(op: &'static str, message: String) -> Error {
    Error::Shape { op, message }
}

pub(super) fn check_axis(op: &'static str, axis: usize, shape: &[usize]) -> Result<()> {
    if axis >= shape.len() {
        return Err(Error::AxisOutOfRange {
            op,
            axis: axis as isize,
            shape: shape.to_vec(),
        });
    }
    Ok(())
}

/// Checks that `axes` are in range and distinct.
fn check_axes(op: &'static str, axes: &[usize], shape: &[usize]) -> Result<()> {
    for (i, &a) in axes.iter().enumerate() {
        check_axis(op, a, shape)?;
        if axes[..i].contains(&a) {
            return Err(Error::DuplicateAxis {
                op,
                axis: a as isize,
                axes: axes.iter().map(|&x| x as isize).collect(),
            });
        }
    }
    Ok(())
}

/// Checks that a new shape's element count and byte size fit in memory arithmetic: every
/// node's shape passes this, so `numel()` and byte sizes are plain arithmetic everywhere else.
pub(crate) fn check_shape(op: &'static str, shape: &[usize], dtype: DType) -> Result<usize> {
    let numel = checked_numel(op, shape)?;
    numel
        .checked_mul(dtype.size())
        .filter(|&b| b <= isize::MAX as usize)
        .ok_or_else(|| Error::SizeOverflow {
            op,
            shape: shape.to_vec(),
        })?;
    Ok(numel)
}

impl Lazy {
    pub(crate) fn node(&self) -> &Arc<Node> {
        &self.0
    }

    /// The sizes.
    pub fn shape(&self) -> &[usize] {
        self.0.shape()
    }
    /// The element type.
    pub fn dtype(&self) -> DType {
        self.0.dtype()
    }
    /// The number of axes.
    pub fn ndim(&self) -> usize {
        self.0.shape().len()
    }
    /// The element count.
    pub fn numel(&self) -> usize {
        self.0.numel()
    }
    /// Identifies the graph node; equal ids mean the same computation.
    pub fn id(&self) -> u64 {
        self.0.id()
    }
    /// The primitive op of the node.
    pub fn op(&self) -> &Op {
        self.0.op()
    }
    /// The node's sources (none once realized).
    pub fn srcs(&self) -> Vec<Lazy> {
        self.0.srcs().into_iter().map(Lazy).collect()
    }
    /// Whether the node holds a computed buffer.
    pub fn is_realized(&self) -> bool {
        self.0.is_realized()
    }

    /// Where the value is computed.
    pub fn placement(&self) -> Placement {
        self.0.placement()
    }

    /// The device a realize of this value runs on: its own, or for a constant the current
    /// one (the thread's `Device::scope`, else the default).
    pub fn device(&self) -> Result<Device> {
        device_of(&[self])
    }

    /// Host data not yet uploaded, placed where `other` is (no copy); anything else as it is.
    /// For tables and index lists an op makes from host values to combine with `other`.
    pub fn beside(&self, other: &Lazy) -> Lazy {
        let there = other.placement();
        match self.0.pending_host() {
            Some(bytes) if there != Placement::Any && there != self.placement() => {
                Lazy(Node::new_buffer(
                    self.dtype(),
                    self.shape().to_vec(),
                    None,
                    Some(bytes),
                    there,
                ))
            }
            _ => self.clone(),
        }
    }

    /// The value on `device`. Host data not yet uploaded is placed there (no copy); a
    /// constant is computed there; a value of another device is computed there and copied
    /// through the host (waiting for it).
    pub fn to(&self, device: &Device) -> Result<Lazy> {
        let target = Placement::On(device.id());
        let here = self.placement();
        if here != Placement::Any && here.join(target, "to").is_ok() {
            return Ok(self.clone());
        }
        let host = match here {
            Placement::Any => {
                return Ok(Lazy(Node::intern_at(
                    Op::Contiguous,
                    self.dtype(),
                    self.shape().to_vec(),
                    vec![self.0.clone()],
                    target,
                )));
            }
            _ => match self.0.pending_host() {
                Some(bytes) => bytes,
                None => self.to_bytes()?.into(),
            },
        };
        Ok(Lazy(Node::new_buffer(
            self.dtype(),
            self.shape().to_vec(),
            None,
            Some(host),
            target,
        )))
    }

    /// The id of the device buffer holding the value, once realized (two tensors with one id
    /// share memory).
    pub fn node_buffer_id(&self) -> Option<u64> {
        self.0.buffer().map(|b| b.id())
    }

    /// A buffer filled from little-endian host bytes; uploaded when first realized.
    pub fn from_bytes(dtype: DType, shape: &[usize], bytes: Vec<u8>) -> Result<Lazy> {
        let numel = check_shape("from_bytes", shape, dtype)?;
        if bytes.len() != numel * dtype.size() {
            return Err(shape_err(
                "from_bytes",
                format!(
                    "{} bytes given for shape {shape:?} of {dtype} ({} bytes needed)",
                    bytes.len(),
                    numel * dtype.size()
                ),
            ));
        }
        Ok(Lazy(Node::new_buffer(
            dtype,
            shape.to_vec(),
            None,
            Some(bytes.into()),
            Placement::current(),
        )))
    }

    /// A buffer holding `data`.
    pub fn from_slice<T: Element>(shape: &[usize], data: &[T]) -> Result<Lazy> {
        let numel = check_shape("from_slice", shape, T::DTYPE)?;
        if data.len() != numel {
            return Err(Error::NumelMismatch {
                op: "from_slice",
                from: vec![data.len()],
                to: shape.to_vec(),
            });
        }
        let mut bytes = Vec::with_capacity(numel * T::DTYPE.size());
        for &v in data {
            v.write_le(&mut bytes);
        }
        Lazy::from_bytes(T::DTYPE, shape, bytes)
    }

    /// `value` (converted to `dtype`) everywhere in `shape`; a shape whose size overflows is
    /// [`Error::SizeOverflow`].
    pub fn constant(value: impl Into<Scalar>, dtype: DType, shape: &[usize]) -> Result<Lazy> {
        check_shape("constant", shape, dtype)?;
        Ok(Lazy::constant_unchecked(value.into(), dtype, shape))
    }

    /// `value` everywhere in this node's shape, as `dtype` (a shape that exists is valid).
    pub fn constant_like(&self, value: impl Into<Scalar>, dtype: DType) -> Lazy {
        Lazy::constant_unchecked(value.into(), dtype, self.shape())
    }

    fn constant_unchecked(value: Scalar, dtype: DType, shape: &[usize]) -> Lazy {
        Lazy(Node::intern(
            Op::Const(ConstValue(value.cast(dtype))),
            dtype,
            shape.to_vec(),
            vec![],
        ))
    }

    /// `0, 1, ..., n - 1` as u32, computed on the device without a buffer: the sum of one
    /// binary digit per axis of a `[2, 2, ..., 2]` view, flattened and cut to `n`: the
    /// positions selections compare against, the indices sort records carry.
    pub fn arange_u32(n: usize) -> Result<Lazy> {
        let bits = (usize::BITS - n.saturating_sub(1).leading_zeros()) as usize;
        let full = vec![2usize; bits];
        let mut acc = Lazy::constant(0u32, DType::U32, &full)?;
        for p in 0..bits {
            let mut axis = vec![1usize; bits];
            axis[p] = 2;
            let weight = 1u64 << (bits - 1 - p);
            // [0, weight] along axis p
            let digit = Lazy::constant(weight, DType::U32, &[1])?
                .pad(&[(1, 0)])?
                .reshape(&axis)?
                .expand(&full)?;
            acc = acc.binary(BinaryOp::Add, &digit)?;
        }
        acc.reshape(&[1usize << bits])?.shrink(&[(0, n)])
    }

    /// A scalar named `id` with `value` (as `dtype`) everywhere in `shape`: a constant whose
    /// value a [`crate::Recording`] replay can rebind (`replay_with`), as kernels read it
    /// from their push constants. Equal ids with equal values are one node.
    pub fn var(id: u64, value: impl Into<Scalar>, dtype: DType, shape: &[usize]) -> Result<Lazy> {
        check_shape("var", shape, dtype)?;
        let v = value.into().cast(dtype);
        Ok(Lazy(Node::intern(
            Op::Var(id, ConstValue(v)),
            dtype,
            shape.to_vec(),
            vec![],
        )))
    }

    /// The value of a `Const` node.
    pub fn const_value(&self) -> Option<Scalar> {
        match self.op() {
            Op::Const(ConstValue(v)) => Some(*v),
            _ => None,
        }
    }

    fn same_shape(&self, op: &'static str, other: &Lazy) -> Result<()> {
        if self.shape() != other.shape() {
            return Err(shape_err(
                op,
                format!("shapes {:?} and {:?} differ", self.shape(), other.shape()),
            ));
        }
        Ok(())
    }

    pub(super) fn dtype_err(&self, op: &'static str, message: &str) -> Error {
        Error::DType {
            op,
            dtype: self.dtype(),
            message: message.to_string(),
        }
    }

    /// A unary primitive (float-only ones need a float tensor).
    pub fn unary(&self, op: UnaryOp) -> Result<Lazy> {
        if op.float_only() && !self.dtype().is_float() {
            return Err(self.dtype_err(op.name(), "this primitive takes floats; cast first"));
        }
        Ok(Lazy(Node::intern(
            Op::Unary(op),
            self.dtype(),
            self.shape().to_vec(),
            vec![self.0.clone()],
        )))
    }

    /// A binary primitive of two tensors of one shape and dtype (shift amounts may be any integer).
    pub fn binary(&self, op: BinaryOp, rhs: &Lazy) -> Result<Lazy> {
        self.same_shape(op.name(), rhs)?;
        if self.dtype() != rhs.dtype() {
            return Err(Error::DTypeMismatch {
                op: op.name(),
                lhs: self.dtype(),
                rhs: rhs.dtype(),
                message: "operands must have one dtype; cast first".into(),
            });
        }
        let dt = self.dtype();
        match op {
            BinaryOp::Shl | BinaryOp::Shr if !dt.is_int() => {
                return Err(self.dtype_err(op.name(), "shifts take integers"));
            }
            BinaryOp::And | BinaryOp::Or | BinaryOp::Xor if dt.is_float() => {
                return Err(self.dtype_err(op.name(), "bitwise ops take integers or bool"));
            }
            BinaryOp::Idiv if !dt.is_int() => {
                return Err(self.dtype_err(
                    op.name(),
                    "integer division takes integers; divide floats by multiplying with recip",
                ));
            }
            BinaryOp::Pow if dt.is_bool() => {
                return Err(self.dtype_err(op.name(), "not defined on bool"));
            }
            BinaryOp::Mod if !dt.is_int() => {
                return Err(self.dtype_err(
                    op.name(),
                    "the remainder primitive takes integers; float remainders are composed from division",
                ));
            }
            _ => {}
        }
        let out = if op.is_comparison() { DType::Bool } else { dt };
        let placement = Placement::of(&[&self.0, &rhs.0], op.name())?;
        Ok(Lazy(Node::intern_at(
            Op::Binary(op),
            out,
            self.shape().to_vec(),
            vec![self.0.clone(), rhs.0.clone()],
            placement,
        )))
    }

    /// `self ? a : b`, elementwise; `self` is bool.
    pub fn where_(&self, a: &Lazy, b: &Lazy) -> Result<Lazy> {
        if self.dtype() != DType::Bool {
            return Err(self.dtype_err("where", "the condition must be bool"));
        }
        self.same_shape("where", a)?;
        self.same_shape("where", b)?;
        if a.dtype() != b.dtype() {
            return Err(Error::DTypeMismatch {
                op: "where",
                lhs: a.dtype(),
                rhs: b.dtype(),
                message: "both branches must have one dtype".into(),
            });
        }
        let placement = Placement::of(&[&self.0, &a.0, &b.0], "where")?;
        Ok(Lazy(Node::intern_at(
            Op::Ternary(TernaryOp::Where),
            a.dtype(),
            self.shape().to_vec(),
            vec![self.0.clone(), a.0.clone(), b.0.clone()],
            placement,
        )))
    }

    /// `self * b + c`, elementwise.
    pub fn mulacc(&self, b: &Lazy, c: &Lazy) -> Result<Lazy> {
        self.same_shape("mulacc", b)?;
        self.same_shape("mulacc", c)?;
        if self.dtype() != b.dtype() || self.dtype() != c.dtype() {
            return Err(self.dtype_err("mulacc", "operands must have one dtype"));
        }
        let placement = Placement::of(&[&self.0, &b.0, &c.0], "mulacc")?;
        Ok(Lazy(Node::intern_at(
            Op::Ternary(TernaryOp::MulAcc),
            self.dtype(),
            self.shape().to_vec(),
            vec![self.0.clone(), b.0.clone(), c.0.clone()],
            placement,
        )))
    }

    /// Converts values: integers wrap, floats saturate into integers (NaN -> 0), f16 rounds to
    /// nearest even, anything -> bool is `!= 0`.
    pub fn cast(&self, dtype: DType) -> Lazy {
        if dtype == self.dtype() {
            return self.clone();
        }
        if let Some(v) = self.const_value() {
            return self.constant_like(v, dtype);
        }
        Lazy(Node::intern(
            Op::Cast,
            dtype,
            self.shape().to_vec(),
            vec![self.0.clone()],
        ))
    }

    /// Reinterprets the bits of each element; both dtypes must have one size.
    pub fn bitcast(&self, dtype: DType) -> Result<Lazy> {
        if dtype.size() != self.dtype().size() || dtype.is_bool() || self.dtype().is_bool() {
            return Err(Error::DTypeMismatch {
                op: "bitcast",
                lhs: self.dtype(),
                rhs: dtype,
                message: "bitcast needs two non-bool dtypes of one size".into(),
            });
        }
        if dtype == self.dtype() {
            return Ok(self.clone());
        }
        Ok(Lazy(Node::intern(
            Op::Bitcast,
            dtype,
            self.shape().to_vec(),
            vec![self.0.clone()],
        )))
    }

    /// Reduces `axes` to size 1 (the rank is kept).
    pub fn reduce(&self, op: ReduceOp, axes: &[usize]) -> Result<Lazy> {
        check_axes(op.name(), axes, self.shape())?;
        if self.dtype().is_bool() && op != ReduceOp::Max {
            return Err(self.dtype_err(op.name(), "reduce bool with max (any), or cast first"));
        }
        let mut axes = axes.to_vec();
        axes.retain(|&a| self.shape()[a] != 1 || self.numel() == 0);
        axes.sort_unstable();
        if axes.is_empty() {
            return Ok(self.clone());
        }
        let mut shape = self.shape().to_vec();
        for &a in &axes {
            shape[a] = 1;
        }
        // a constant's sum is the constant times the count, its max the constant (as
        // tinygrad folds them): counting a mask of `full(true)` takes no kernel
        let count: u64 = axes.iter().map(|&a| self.shape()[a] as u64).product();
        if let Some(v) = self.const_value()
            && count > 0
        {
            let folded = match op {
                ReduceOp::Max => Some(v),
                ReduceOp::Add if self.dtype().is_float() => {
                    Some(Scalar::Float(v.as_f64() * count as f64))
                }
                // integers wrap, as a kernel's sum does
                ReduceOp::Add => Some(Scalar::Int(
                    v.as_i128().wrapping_mul(i128::from(count)) as i64
                )),
                ReduceOp::Mul => None,
            };
            if let Some(f) = folded {
                return Ok(Lazy::constant_unchecked(f, self.dtype(), &shape));
            }
        }
        Ok(Lazy(Node::intern(
            Op::Reduce(op, axes),
            self.dtype(),
            shape,
            vec![self.0.clone()],
        )))
    }

    /// `out[.., i, ..] = self[.., index[.., i, ..], ..]` along `axis`: the values at the
    /// positions `index` (an integer tensor) holds; positions outside `0..self.shape()[axis]`
    /// read 0. `index` has `self`'s shape except along `axis`, and gives the result's shape.
    ///
    /// From an axis of one value it is a select of the broadcast values (`index == 0`).
    /// Otherwise the kernel computing it reads `self` at positions known only when it runs, so a
    /// reduction feeding `self` gets a buffer of its own; the positions fuse like any
    /// operand. Its gradient sums into the positions through a sort of them (there is no
    /// scatter primitive; see `graph/sorted.rs`): `O((k + n) log k)` per row of `k` positions
    /// into an axis of `n`.
    pub fn gather(&self, axis: usize, index: &Lazy) -> Result<Lazy> {
        check_axis("gather", axis, self.shape())?;
        if !index.dtype().is_int() {
            return Err(index.dtype_err("gather", "the positions must be an integer tensor"));
        }
        let other_axes_match = index.ndim() == self.ndim()
            && (0..self.ndim()).all(|a| a == axis || index.shape()[a] == self.shape()[a]);
        if !other_axes_match {
            return Err(shape_err(
                "gather",
                format!(
                    "the positions {:?} must have the shape of the values {:?} except along axis {axis}",
                    index.shape(),
                    self.shape()
                ),
            ));
        }
        let placement = Placement::of(&[&self.0, &index.0], "gather")?;
        if self.shape()[axis] == 0 || index.numel() == 0 {
            // nothing to read: every position is out of range
            return Ok(Lazy::constant_unchecked(
                Scalar::Int(0).cast(self.dtype()),
                self.dtype(),
                index.shape(),
            ));
        }
        if let Some(n) = iota_along(index, axis)
            && n <= self.shape()[axis]
        {
            // the positions `0..n` in order (an embedding of a sequence's positions): the
            // first `n` values, a window that fuses as a view and differentiates as a pad,
            // where a gather's gradient sums a one-hot product
            return self.narrow(axis, 0, n);
        }
        if self.shape()[axis] == 1 {
            // one position to read: the values broadcast where the position is 0, a select
            // that fuses with no indexed load (a decode step's one new cache row) and
            // differentiates as a broadcast, not through a sort of the positions
            let first = index.binary(BinaryOp::CmpEq, &index.constant_like(0, index.dtype()))?;
            let none = index.constant_like(Scalar::Int(0).cast(self.dtype()), self.dtype());
            return first.where_(&self.expand(index.shape())?, &none);
        }
        Ok(Lazy(Node::intern_at(
            Op::Gather(axis),
            self.dtype(),
            index.shape().to_vec(),
            vec![self.0.clone(), index.0.clone()],
            placement,
        )))
    }

    /// Merges each row's sorted runs of `run` records in pairs (see [`Op::MergeRuns`]): `self`
    /// is u32 of shape `[.., n, W]`, records of `W` (1 to 4) words compared word by word.
    /// Runs of one record are always sorted, so `ceil(log2 n)` merges with `run = 1, 2, 4 ..`
    /// sort each row, stably, in `O(n log n)` work.
    pub fn merge_runs(&self, run: usize) -> Result<Lazy> {
        self.records("merge_runs")?;
        let shape = self.shape();
        let rank = shape.len();
        if run == 0 {
            return Err(Error::Argument {
                op: "merge_runs",
                message: "runs hold at least one record".into(),
            });
        }
        if run >= shape[rank - 2] || self.numel() == 0 {
            // one run per row: already sorted
            return Ok(self.clone());
        }
        Ok(Lazy(Node::intern(
            Op::MergeRuns(run),
            DType::U32,
            shape.to_vec(),
            vec![self.0.clone()],
        )))
    }

    /// Sorts each row's consecutive runs of `run` records (see [`Op::SortRuns`]): `self` as for
    /// [`Lazy::merge_runs`], `run` a power of two up to [`MAX_SORT_RUN`]. Merges from runs of
    /// `run` on then sort each row.
    pub fn sort_runs(&self, run: usize) -> Result<Lazy> {
        self.records("sort_runs")?;
        if !run.is_power_of_two() || run > MAX_SORT_RUN {
            return Err(Error::Argument {
                op: "sort_runs",
                message: format!("runs are a power of two up to {MAX_SORT_RUN} records, not {run}"),
            });
        }
        let shape = self.shape();
        if run == 1 || shape[shape.len() - 2] < 2 || self.numel() == 0 {
            // runs of one record: already sorted
            return Ok(self.clone());
        }
        Ok(Lazy(Node::intern(
            Op::SortRuns(run),
            DType::U32,
            shape.to_vec(),
            vec![self.0.clone()],
        )))
    }

    /// Checks that `self` holds rows of u32 records for `op`: `[.., n, W]`, `W` 1 to
    /// [`MERGE_WORDS`].
    fn records(&self, op: &'static str) -> Result<()> {
        if self.dtype() != DType::U32 {
            return Err(self.dtype_err(op, "records are u32 words"));
        }
        let (rank, shape) = (self.ndim(), self.shape());
        if rank < 2 || !(1..=MERGE_WORDS).contains(&shape[rank - 1]) {
            return Err(shape_err(
                op,
                format!(
                    "the records must be a last axis of 1 to {MERGE_WORDS} words after an axis of records: {shape:?}"
                ),
            ));
        }
        Ok(())
    }

    /// The inclusive scan with `op` (in this dtype's arithmetic) of each run of `run` elements
    /// along the last axis (see [`Op::ScanRuns`]): a running sum, product or (of integers)
    /// maximum that restarts at positions `0, run, 2 run, ..` of each row. Takes 32- and
    /// 64-bit numbers; `run` is at most [`MAX_SCAN_RUN`] (one invocation scans a run, and a
    /// driver's loop budget bounds its loop).
    pub fn scan_runs(&self, op: ReduceOp, run: usize) -> Result<Lazy> {
        self.check_scan(op, run)?;
        if run == 1 || self.numel() == 0 {
            return Ok(self.clone());
        }
        Ok(Lazy(Node::intern(
            Op::ScanRuns(op, run),
            self.dtype(),
            self.shape().to_vec(),
            vec![self.0.clone()],
        )))
    }

    /// [`Lazy::scan_runs`] with each run starting from its carry instead of the identity:
    /// `carry` has one value a run (the last axis `ceil(n / run)` long) in this dtype, and
    /// element `i` of run `r` combines `carry[r]` and the run's elements up to `i`. A long
    /// scan whose runs' carries come from a reduction and a scan of the runs' totals is then
    /// one pass over the elements where joining each run's scan with its carry afterwards is
    /// another. Sums and maxima.
    pub fn scan_runs_from(&self, op: ReduceOp, run: usize, carry: &Lazy) -> Result<Lazy> {
        self.check_scan(op, run)?;
        if op == ReduceOp::Mul {
            return Err(Error::Argument {
                op: "scan_runs",
                message: "a scan starts from a carry for sums and maxima".into(),
            });
        }
        let last = self.ndim() - 1;
        let mut want = self.shape().to_vec();
        want[last] = want[last].div_ceil(run);
        if carry.dtype() != self.dtype() {
            return Err(carry.dtype_err("scan_runs", "the carries take the scan's dtype"));
        }
        if carry.shape() != want {
            return Err(shape_err(
                "scan_runs",
                format!(
                    "the carries of {:?} by runs of {run} must be {want:?}, one a run: {:?}",
                    self.shape(),
                    carry.shape()
                ),
            ));
        }
        if self.numel() == 0 {
            return Ok(self.clone());
        }
        let placement = Placement::of(&[&self.0, &carry.0], "scan_runs")?;
        Ok(Lazy(Node::intern_at(
            Op::ScanRuns(op, run),
            self.dtype(),
            self.shape().to_vec(),
            vec![self.0.clone(), carry.0.clone()],
            placement,
        )))
    }

    /// What a scan of runs takes: 32- and 64-bit numbers (a running maximum, integers), a
    /// last axis, runs of 1 to [`MAX_SCAN_RUN`].
    fn check_scan(&self, op: ReduceOp, run: usize) -> Result<()> {
        let dt = self.dtype();
        if dt.size() < 4 || dt.is_bool() {
            return Err(self.dtype_err("scan_runs", "scans take 32- and 64-bit numbers"));
        }
        if op == ReduceOp::Max && dt.is_float() {
            // (no derivative rule for it: tg-ops scans floats' order-preserving integer keys
            // and gives the running maximum a rule of its own)
            return Err(self.dtype_err("scan_runs", "a running maximum takes integers"));
        }
        if self.ndim() == 0 {
            return Err(Error::RankTooLow {
                op: "scan_runs",
                min: 1,
                shape: vec![],
            });
        }
        if run == 0 || run > MAX_SCAN_RUN {
            return Err(Error::Argument {
                op: "scan_runs",
                message: format!("runs hold 1 to {MAX_SCAN_RUN} elements, not {run}"),
            });
        }
        Ok(())
    }

    /// The fused scaled dot-product attention of queries `self` `(.., L, D)`, keys `k`
    /// `(.., S, D)` and values `v` `(.., S, Dv)` (f32, the same batch axes): each query row's
    /// `softmax(q k^T / sqrt(D) + mask) v` over its keys (keys `0..=i` for query `i` where
    /// `causal`), then the row's logsumexp of the scores, as `(.., L, Dv + 1)` (see
    /// [`Op::Attention`]). `mask` is an additive f32 mask (`-inf` hides a key), `(.., L, S)`
    /// or `(.., 1, S)` with the queries' batch axes or ones in their place: what a kernel
    /// reads, so a mask shared by every head or every row is stored once. No `L x S` scores
    /// are stored, forward or backward (its gradient is two more passes, [`AttentionPass`];
    /// a mask's own gradient is composed of ops, computed only where asked for). `L` and `S`
    /// are 1 to [`MAX_ATTENTION_LEN`], `D` and `Dv` 1 to [`MAX_ATTENTION_WIDTH`].
    pub fn attention(&self, k: &Lazy, v: &Lazy, causal: bool, mask: Option<&Lazy>) -> Result<Lazy> {
        self.attention_masked("attention", k, v, causal, mask, None)
    }

    /// [`Lazy::attention`] with dropout of the weights after the softmax: weight `(i, j)` is
    /// kept, scaled by `1 / (1 - p)`, where bit `j % 32` of word `j / 32` of `keep`'s row `i`
    /// is set, and dropped where it is clear. `keep` is u32 `(.., L, ceil(S / 32))` with the
    /// queries' batch axes ([`AttentionDropout`]): a bit a weight where the composition
    /// stores an f32 one, and the same bits for the forward and both backward passes, which
    /// recompute the weights. `p` is in `[0, 1)`; the bits have no gradient.
    pub fn attention_dropout(
        &self,
        k: &Lazy,
        v: &Lazy,
        causal: bool,
        mask: Option<&Lazy>,
        keep: &Lazy,
        p: f64,
    ) -> Result<Lazy> {
        const OP: &str = "attention_dropout";
        if !(0.0..1.0).contains(&p) {
            return Err(Error::Argument {
                op: OP,
                message: format!("p = {p} is not in [0, 1)"),
            });
        }
        self.check_attention(OP, k, v)?;
        let r = self.ndim();
        let (l, s) = (self.shape()[r - 2], k.shape()[r - 2]);
        let mut want = self.shape()[..r - 2].to_vec();
        want.extend([l, s.div_ceil(32)]);
        if keep.dtype() != DType::U32 {
            return Err(keep.dtype_err(OP, "the kept weights are bits in u32 words"));
        }
        if keep.shape() != want {
            return Err(shape_err(
                OP,
                format!(
                    "kept bits {:?} for queries {:?} and keys {:?} need {want:?} (a bit a key, 32 a word)",
                    keep.shape(),
                    self.shape(),
                    k.shape()
                ),
            ));
        }
        self.attention_masked(
            OP,
            k,
            v,
            causal,
            mask,
            Some((keep, AttentionDropout::of(p))),
        )
    }

    /// [`Lazy::attention`] and [`Lazy::attention_dropout`]: the checks of the queries, keys,
    /// values and mask, then the forward node.
    fn attention_masked(
        &self,
        op: &'static str,
        k: &Lazy,
        v: &Lazy,
        causal: bool,
        mask: Option<&Lazy>,
        dropout: Option<(&Lazy, AttentionDropout)>,
    ) -> Result<Lazy> {
        if let Some(m) = mask
            && m.dtype() != DType::F32
        {
            return Err(m.dtype_err(op, "the fused attention takes f32"));
        }
        self.check_attention(op, k, v)?;
        let r = self.ndim();
        let masking = match (causal, mask) {
            (true, Some(_)) => {
                return Err(Error::Argument {
                    op,
                    message: "a causal attention takes no mask".into(),
                });
            }
            (true, None) => AttentionMask::Causal,
            (false, None) => AttentionMask::Full,
            (false, Some(m)) => added_mask(self.shape(), k.shape()[r - 2], m.shape())
                .ok_or_else(|| {
                    let (batch, l, s) = (
                        &self.shape()[..r - 2],
                        self.shape()[r - 2],
                        k.shape()[r - 2],
                    );
                    shape_err(
                        op,
                        format!(
                            "a mask {:?} for queries {:?} and keys {:?} needs (.., {l} or 1, {s}) with the batch axes {batch:?} or ones",
                            m.shape(),
                            self.shape(),
                            k.shape()
                        ),
                    )
                })?,
        };
        self.attention_node(op, k, v, masking, mask, dropout)
    }

    /// [`Lazy::attention`] where query `i` sees keys `0..=ends[i]` alone (a causal mask whose
    /// ends are data; an end below 0 is read as 0, one past the keys as the last): `ends` is
    /// an integer or float tensor of whole numbers, `(.., L)` or `(.., 1)` with the queries'
    /// batch axes or ones in their place ([`AttentionMask::Ends`]). A step of a few query
    /// rows attending a cache up to each row's position loops over the keys its rows see,
    /// where an additive mask hiding the rest loops over, and loads a value for, every key.
    /// The ends have no gradient.
    pub fn attention_ends(&self, k: &Lazy, v: &Lazy, ends: &Lazy) -> Result<Lazy> {
        const OP: &str = "attention_ends";
        self.check_attention(OP, k, v)?;
        let (q, r) = (self.shape(), self.ndim());
        let (batch, l) = (&q[..r - 2], q[r - 2]);
        let e = ends.shape();
        // the ends are read as a mask over one key is: (.., L or 1), batch axes or ones
        let column: Vec<usize> = e.iter().copied().chain([1]).collect();
        let Some(AttentionMask::Add { heads, rows }) = added_mask(q, 1, &column) else {
            return Err(shape_err(
                OP,
                format!(
                    "ends {e:?} for queries {q:?} need (.., {l} or 1) with the batch axes {batch:?} or ones"
                ),
            ));
        };
        if ends.dtype() == DType::Bool {
            return Err(ends.dtype_err(OP, "the ends are key positions, not a mask"));
        }
        let masking = AttentionMask::Ends { heads, rows };
        // the kernel reads f32 rows (positions up to MAX_ATTENTION_LEN are exact)
        let ends = ends.cast(DType::F32);
        self.attention_node(OP, k, v, masking, Some(&ends), None)
    }

    /// Checks the queries `self`, keys `k` and values `v` of a fused attention.
    fn check_attention(&self, op: &'static str, k: &Lazy, v: &Lazy) -> Result<()> {
        for t in [self, k, v] {
            if t.dtype() != DType::F32 {
                return Err(t.dtype_err(op, "the fused attention takes f32"));
            }
        }
        let (q, r) = (self, self.ndim());
        let fits = |n: usize, max: usize| (1..=max).contains(&n);
        let ok = r >= 2
            && k.ndim() == r
            && v.ndim() == r
            && q.shape()[..r - 2] == k.shape()[..r - 2]
            && q.shape()[..r - 2] == v.shape()[..r - 2]
            && k.shape()[r - 2] == v.shape()[r - 2]
            && q.shape()[r - 1] == k.shape()[r - 1]
            && fits(q.shape()[r - 2], MAX_ATTENTION_LEN)
            && fits(k.shape()[r - 2], MAX_ATTENTION_LEN)
            && fits(q.shape()[r - 1], MAX_ATTENTION_WIDTH)
            && fits(v.shape()[r - 1], MAX_ATTENTION_WIDTH);
        if !ok {
            return Err(shape_err(
                op,
                format!(
                    "queries {:?}, keys {:?} and values {:?} need (.., L, D), (.., S, D) and (.., S, Dv) with the same batch axes, L and S 1 to {MAX_ATTENTION_LEN}, D and Dv 1 to {MAX_ATTENTION_WIDTH}",
                    q.shape(),
                    k.shape(),
                    v.shape()
                ),
            ));
        }
        Ok(())
    }

    /// The forward attention node over checked sources, its mask (additive or ends), then
    /// its dropout's kept bits, last.
    fn attention_node(
        &self,
        op: &'static str,
        k: &Lazy,
        v: &Lazy,
        masking: AttentionMask,
        mask: Option<&Lazy>,
        dropout: Option<(&Lazy, AttentionDropout)>,
    ) -> Result<Lazy> {
        let r = self.ndim();
        let mut shape = self.shape().to_vec();
        shape[r - 1] = v.shape()[r - 1] + 1;
        let mut srcs = vec![self.0.clone(), k.0.clone(), v.0.clone()];
        srcs.extend(mask.map(|m| m.0.clone()));
        srcs.extend(dropout.map(|(keep, _)| keep.0.clone()));
        let placement = Placement::of(&srcs.iter().collect::<Vec<_>>(), op)?;
        Ok(Lazy(Node::intern_at(
            Op::Attention(AttentionPass::Forward, masking, dropout.map(|(_, d)| d)),
            DType::F32,
            shape,
            srcs,
            placement,
        )))
    }

    /// Bools `(.., n)` packed a bit each into u32 words, `(.., ceil(n / 32))`: bit `j % 32` of
    /// word `j / 32` holds element `j` (the kept weights of [`Lazy::attention_dropout`]).
    pub fn pack_bits(&self) -> Result<Lazy> {
        if self.dtype() != DType::Bool || self.ndim() == 0 {
            return Err(self.dtype_err("pack_bits", "packs bools along their last axis"));
        }
        let r = self.ndim();
        let n = self.shape()[r - 1];
        let words = n.div_ceil(32);
        let mut pads = vec![(0, 0); r];
        pads[r - 1] = (0, words * 32 - n);
        let mut lanes = self.shape().to_vec();
        lanes[r - 1] = words;
        lanes.push(32);
        let bits = self
            .cast(DType::U32)
            .pad(&pads)?
            .reshape(&lanes)?
            .binary(BinaryOp::Shl, &lane_shifts(&lanes)?)?
            .reduce(ReduceOp::Add, &[r])?;
        lanes.pop();
        bits.reshape(&lanes)
    }

    /// [`Lazy::pack_bits`]'s words `(.., w)` back to bools `(.., n)`, `n <= 32 w`.
    pub fn unpack_bits(&self, n: usize) -> Result<Lazy> {
        if self.dtype() != DType::U32 || self.ndim() == 0 {
            return Err(self.dtype_err("unpack_bits", "unpacks u32 words along their last axis"));
        }
        let r = self.ndim();
        let words = self.shape()[r - 1];
        if n > 32 * words {
            return Err(shape_err(
                "unpack_bits",
                format!("{n} bools do not fit words {:?}", self.shape()),
            ));
        }
        let mut lanes = self.shape().to_vec();
        lanes.push(32);
        let mut one = self.shape().to_vec();
        one.push(1);
        let shifts = lane_shifts(&lanes)?;
        let set = self
            .reshape(&one)?
            .expand(&lanes)?
            .binary(BinaryOp::Shr, &shifts)?
            .binary(BinaryOp::And, &shifts.constant_like(1u32, DType::U32))?;
        let mut flat = self.shape()[..r - 1].to_vec();
        flat.push(words * 32);
        let set = set.reshape(&flat)?.narrow(r - 1, 0, n)?;
        set.binary(BinaryOp::CmpNe, &set.constant_like(0u32, DType::U32))
    }

    /// The gradients of the sources of `out`, a forward attention ([`Lazy::attention`]):
    /// the queries, keys and values, then a mask's, given `g`, the gradient of `out` (of its
    /// values and its logsumexp): FlashAttention-2's backward. With `P` the weights,
    /// `dP = dO v^T` and `dS = P (dP - delta)`, where `delta_i = rowsum(dO_i O_i) - dL_i` (a
    /// row's logsumexp has the gradient `P` with respect to its scores),
    /// `dq = dS k / sqrt(D)`, `dk = dS^T q / sqrt(D)` and `dv = P^T dO`: one pass a query row
    /// (`delta`, then `dq`, written side by side) and one a key row (`dk` and `dv`, reading
    /// `delta` from the first), each weight recomputed from the row's logsumexp. A mask's
    /// gradient is `dS` itself, summed over the axes it broadcasts: composed of ops, `L x S`
    /// a head, so it costs nothing unless realized.
    pub(crate) fn attention_grads(out: &Lazy, g: &Lazy) -> Result<Vec<Option<Lazy>>> {
        let Op::Attention(AttentionPass::Forward, masking, dropout) = *out.op() else {
            return Err(Error::internal(
                "attention",
                format!("{:?} is not a forward attention", out.0),
            ));
        };
        let mut srcs: Vec<Lazy> = out.0.srcs().into_iter().map(Lazy).collect();
        // the dropout's kept bits come last
        let keep = dropout.and_then(|_| srcs.pop());
        let (q, k, v, mask) = match (&srcs[..], masking) {
            ([q, k, v], AttentionMask::Full | AttentionMask::Causal) => (q, k, v, None),
            ([q, k, v, m], AttentionMask::Add { .. } | AttentionMask::Ends { .. }) => {
                (q, k, v, Some(m))
            }
            _ => {
                return Err(Error::internal(
                    "attention",
                    format!("{:?} has {} sources for {masking:?}", out.0, srcs.len()),
                ));
            }
        };
        let r = out.ndim();
        let (d, dv) = (q.shape()[r - 1], v.shape()[r - 1]);
        let columns = |x: &Lazy, from: usize, to: usize| x.narrow(r - 1, from, to);
        // the values' gradient and the logsumexp's, apart: where `out` was narrowed to its
        // values, `g` is their gradient padded with zeros, the first its own buffer and the
        // second no source at all
        let dout = columns(g, 0, dv)?;
        let dlse = columns(g, dv, dv + 1)?;
        let lse_grad = dlse.const_value().is_none_or(|c| c.as_f64() != 0.0);
        let mut sources = vec![
            q.0.clone(),
            k.0.clone(),
            v.0.clone(),
            out.0.clone(),
            dout.0.clone(),
        ];
        let tail = |sources: &mut Vec<Arc<Node>>| {
            sources.extend(mask.map(|m| m.0.clone()));
            sources.extend(keep.as_ref().map(|b| b.0.clone()));
        };
        let pass = |pass: AttentionPass, rows: &Lazy, width: usize, sources: Vec<Arc<Node>>| {
            let placement = Placement::of(&sources.iter().collect::<Vec<_>>(), "attention")?;
            let mut shape = rows.shape().to_vec();
            shape[r - 1] = width;
            Ok::<_, Error>(Lazy(Node::intern_at(
                Op::Attention(pass, masking, dropout),
                DType::F32,
                shape,
                sources,
                placement,
            )))
        };
        let mut q_sources = sources.clone();
        q_sources.extend(lse_grad.then(|| dlse.0.clone()));
        tail(&mut q_sources);
        let dq_delta = pass(AttentionPass::GradQ { lse_grad }, q, d + 1, q_sources)?;
        sources.push(dq_delta.0.clone());
        tail(&mut sources);
        let dkv = pass(AttentionPass::GradKV, k, d + dv, sources)?;
        let dq = columns(&dq_delta, 0, d)?;
        let delta = columns(&dq_delta, d, d + 1)?;
        let mut grads = vec![
            Some(dq),
            Some(columns(&dkv, 0, d)?),
            Some(columns(&dkv, d, d + dv)?),
        ];
        match (masking, mask) {
            // key positions carry no gradient
            (AttentionMask::Ends { .. }, _) => grads.push(None),
            (_, Some(m)) => {
                let kept = keep
                    .as_ref()
                    .zip(dropout)
                    .map(|(bits, d)| kept_weights(bits, k.shape()[r - 2], d))
                    .transpose()?;
                grads.push(Some(mask_gradient(
                    q,
                    k,
                    v,
                    m,
                    out,
                    g,
                    &delta,
                    kept.as_ref(),
                )?))
            }
            (_, None) => {}
        }
        // the kept bits carry no gradient
        if keep.is_some() {
            grads.push(None);
        }
        Ok(grads)
    }

    fn movement(&self, op: Op, shape: Vec<usize>) -> Lazy {
        if let Some(v) = self.const_value()
            && !matches!(op, Op::Pad(_))
        {
            return Lazy::constant_unchecked(v, self.dtype(), &shape);
        }
        // a var is one value everywhere too: a view of it is the var in the view's shape
        if let Op::Var(id, v) = self.op()
            && !matches!(op, Op::Pad(_))
        {
            return Lazy(Node::intern(Op::Var(*id, *v), self.dtype(), shape, vec![]));
        }
        Lazy(Node::intern(op, self.dtype(), shape, vec![self.0.clone()]))
    }

    /// Same elements in row-major order, another shape.
    pub fn reshape(&self, shape: &[usize]) -> Result<Lazy> {
        let numel = checked_numel("reshape", shape)?;
        if numel != self.numel() {
            return Err(Error::NumelMismatch {
                op: "reshape",
                from: self.shape().to_vec(),
                to: shape.to_vec(),
            });
        }
        if shape == self.shape() {
            return Ok(self.clone());
        }
        // reshape(reshape(x)) is one reshape of x
        if matches!(self.op(), Op::Reshape)
            && let Some(src) = self.0.srcs().into_iter().next()
        {
            return Lazy(src).reshape(shape);
        }
        Ok(self.movement(Op::Reshape, shape.to_vec()))
    }

    /// Reorders the axes: output axis `i` is input axis `perm[i]`.
    pub fn permute(&self, perm: &[usize]) -> Result<Lazy> {
        if perm.len() != self.ndim() {
            return Err(shape_err(
                "permute",
                format!(
                    "permutation {perm:?} does not match rank {} of {:?}",
                    self.ndim(),
                    self.shape()
                ),
            ));
        }
        check_axes("permute", perm, self.shape())?;
        if perm.iter().enumerate().all(|(i, &p)| i == p) {
            return Ok(self.clone());
        }
        let shape = perm.iter().map(|&p| self.shape()[p]).collect();
        Ok(self.movement(Op::Permute(perm.to_vec()), shape))
    }

    /// Broadcasts size-1 axes to `shape` (same rank).
    pub fn expand(&self, shape: &[usize]) -> Result<Lazy> {
        if shape.len() != self.ndim()
            || self
                .shape()
                .iter()
                .zip(shape)
                .any(|(&s, &n)| s != n && s != 1)
        {
            return Err(Error::Broadcast {
                op: "expand",
                lhs: self.shape().to_vec(),
                rhs: shape.to_vec(),
            });
        }
        if shape == self.shape() {
            return Ok(self.clone());
        }
        check_shape("expand", shape, self.dtype())?;
        Ok(self.movement(Op::Expand, shape.to_vec()))
    }

    /// Pads with zeros: `(before, after)` per axis.
    pub fn pad(&self, pads: &[(usize, usize)]) -> Result<Lazy> {
        if pads.len() != self.ndim() {
            return Err(shape_err(
                "pad",
                format!(
                    "{} pad pairs given for shape {:?}",
                    pads.len(),
                    self.shape()
                ),
            ));
        }
        if pads.iter().all(|&(b, a)| b == 0 && a == 0) {
            return Ok(self.clone());
        }
        let shape: Vec<usize> = self
            .shape()
            .iter()
            .zip(pads)
            .map(|(&s, &(b, a))| s.checked_add(b)?.checked_add(a))
            .collect::<Option<_>>()
            .ok_or_else(|| Error::SizeOverflow {
                op: "pad",
                shape: self.shape().to_vec(),
            })?;
        check_shape("pad", &shape, self.dtype())?;
        Ok(self.movement(Op::Pad(pads.to_vec()), shape))
    }

    /// Pads with `value`: `(before, after)` per axis. Zero is a plain [`Lazy::pad`]; another
    /// value selects it where the padding is (a mask of the original region, padded).
    pub fn pad_with(&self, pads: &[(usize, usize)], value: impl Into<Scalar>) -> Result<Lazy> {
        let base = self.pad(pads)?;
        let value = value.into().cast(self.dtype());
        let zero = Scalar::Int(0).cast(self.dtype());
        if value.key_bits() == zero.key_bits() || base.shape() == self.shape() {
            return Ok(base);
        }
        let inside = Lazy::constant(true, DType::Bool, self.shape())?.pad(pads)?;
        inside.where_(&base, &Lazy::constant(value, self.dtype(), base.shape())?)
    }

    /// The last axis padded with `fill` to whole chunks of `chunk` and split: `[.., n] ->
    /// [.., chunks, chunk]`. Staged scans and their gradients cut rows this way.
    pub fn split_last(&self, chunk: usize, fill: impl Into<Scalar>) -> Result<Lazy> {
        let last = self
            .ndim()
            .checked_sub(1)
            .ok_or_else(|| shape_err("split_last", "a scalar has no last axis to split".into()))?;
        if chunk == 0 {
            return Err(shape_err("split_last", "chunks of 0 elements".into()));
        }
        let n = self.shape()[last];
        let chunks = n.div_ceil(chunk);
        let mut pads = vec![(0, 0); self.ndim()];
        pads[last] = (0, chunks * chunk - n);
        let mut split = self.shape().to_vec();
        split[last] = chunks;
        split.push(chunk);
        self.pad_with(&pads, fill)?.reshape(&split)
    }

    /// Elements `from..to` along `axis`, the other axes whole (a [`Lazy::shrink`] of one
    /// axis).
    pub fn narrow(&self, axis: usize, from: usize, to: usize) -> Result<Lazy> {
        let mut keep: Vec<(usize, usize)> = self.shape().iter().map(|&n| (0, n)).collect();
        match keep.get_mut(axis) {
            Some(range) => *range = (from, to),
            None => {
                return Err(shape_err(
                    "narrow",
                    format!("axis {axis} of {:?}", self.shape()),
                ));
            }
        }
        self.shrink(&keep)
    }

    /// Keeps `start..end` of every axis.
    pub fn shrink(&self, ranges: &[(usize, usize)]) -> Result<Lazy> {
        if ranges.len() != self.ndim()
            || ranges
                .iter()
                .zip(self.shape())
                .any(|(&(s, e), &n)| s > e || e > n)
        {
            return Err(shape_err(
                "shrink",
                format!("ranges {ranges:?} do not fit shape {:?}", self.shape()),
            ));
        }
        if ranges
            .iter()
            .zip(self.shape())
            .all(|(&(s, e), &n)| s == 0 && e == n)
        {
            return Ok(self.clone());
        }
        let shape: Vec<usize> = ranges.iter().map(|&(s, e)| e - s).collect();
        // a window of a zero padding that lies inside the padded tensor on every axis is a
        // window of that tensor, and one outside it on some axis is zeros: the gradient of a
        // narrowed tensor (a pad) narrowed again, as the fused attention's backward reads its
        // values' gradient apart from its logsumexp's
        if let Op::Pad(pads) = self.op() {
            let src = Lazy(self.0.srcs()[0].clone());
            // each axis's window within the padded tensor's own elements, or `None` where it
            // reaches into the padding
            let mut within = Vec::with_capacity(ranges.len());
            let mut zeros = false;
            for (&(s, e), (&(before, _), &n)) in ranges.iter().zip(pads.iter().zip(src.shape())) {
                zeros |= e <= before || s >= before + n;
                within.push((s >= before && e <= before + n).then(|| (s - before, e - before)));
            }
            if zeros {
                return Lazy::constant(0u32, self.dtype(), &shape);
            }
            if let Some(within) = within.into_iter().collect::<Option<Vec<_>>>() {
                return src.shrink(&within);
            }
        }
        Ok(self.movement(Op::Shrink(ranges.to_vec()), shape))
    }

    /// Reverses the listed axes.
    pub fn flip(&self, axes: &[usize]) -> Result<Lazy> {
        check_axes("flip", axes, self.shape())?;
        let mut axes: Vec<usize> = axes
            .iter()
            .copied()
            .filter(|&a| self.shape()[a] > 1)
            .collect();
        axes.sort_unstable();
        if axes.is_empty() {
            return Ok(self.clone());
        }
        Ok(self.movement(Op::Flip(axes), self.shape().to_vec()))
    }

    /// A tensor over an existing buffer or window (no copy), e.g. a range of a bigger buffer
    /// that other work also uses. Kernels read and write whole vectors of four elements, so
    /// the buffer must hold `shape`'s elements rounded up to a multiple of four; an in-place
    /// write ([`Lazy::assign`]) may change those padding elements.
    pub fn from_buffer(
        buffer: Arc<crate::device::Buffer>,
        dtype: DType,
        shape: &[usize],
    ) -> Result<Lazy> {
        let numel = check_shape("from_buffer", shape, dtype)?;
        let need = (numel.div_ceil(4) * 4 * dtype.size()) as u64;
        if buffer.size() < need {
            return Err(Error::Argument {
                op: "from_buffer",
                message: format!(
                    "{shape:?} of {dtype} needs {need} bytes (whole vectors of four elements), \
                     the buffer holds {}",
                    buffer.size()
                ),
            });
        }
        let placement = Placement::On(buffer.device_id());
        Ok(Lazy(Node::new_buffer(
            dtype,
            shape.to_vec(),
            Some(buffer),
            None,
            placement,
        )))
    }

    /// A buffer of `shape` that no one else holds, allocated when first realized: the target
    /// of in-place writes. Its contents are undefined until assigned. It is placed on the
    /// current device (the thread's `Device::scope`, else the default).
    pub fn empty_buffer(dtype: DType, shape: &[usize]) -> Result<Lazy> {
        Lazy::empty_buffer_at(dtype, shape, Placement::current())
    }

    fn empty_buffer_at(dtype: DType, shape: &[usize], placement: Placement) -> Result<Lazy> {
        check_shape("empty_buffer", shape, dtype)?;
        Ok(Lazy(Node::new_buffer(
            dtype,
            shape.to_vec(),
            None,
            None,
            placement,
        )))
    }

    /// A parameter: `init` computed into a buffer of its own, which later updates write in
    /// place ([`Lazy::assign`]). Unlike a value built from the same graph, which hash-consing
    /// may share with others, a parameter never aliases another tensor, so an update of one
    /// changes nothing else. It lives on `init`'s device (the current one if `init` is a
    /// constant).
    pub fn parameter(init: &Lazy) -> Result<Lazy> {
        let placement = match init.placement() {
            Placement::Any => Placement::current(),
            p => p,
        };
        Lazy::empty_buffer_at(init.dtype(), init.shape(), placement)?.assign(init)
    }

    /// Writes `value` into this tensor's buffer in place, when realized; the result stands
    /// for the new contents (use it, not `self`, from here on). `self` must be a buffer node
    /// (host data, an empty buffer, a parameter) or an earlier assign: a buffer hash-consing
    /// or aliasing may share is refused. Within one realize, kernels that read the old
    /// contents run before the write; a graph built from the old value and realized after the
    /// write reads the new contents, as in tinygrad.
    pub fn assign(&self, value: &Lazy) -> Result<Lazy> {
        if !matches!(self.op(), Op::Buffer) && !self.op().writes_in_place() {
            return Err(Error::Argument {
                op: "assign",
                message: format!(
                    "the target {:?} is not a buffer of its own; make it with Lazy::parameter",
                    self.0
                ),
            });
        }
        if self.shape() != value.shape() {
            return Err(shape_err(
                "assign",
                format!(
                    "the value's shape {:?} differs from the target's {:?}",
                    value.shape(),
                    self.shape()
                ),
            ));
        }
        if self.dtype() != value.dtype() {
            return Err(Error::DTypeMismatch {
                op: "assign",
                lhs: self.dtype(),
                rhs: value.dtype(),
                message: "the value must have the target's dtype; cast first".into(),
            });
        }
        let placement = Placement::of(&[&self.0, &value.0], "assign")?;
        // every assign is a write of its own, never hash-consed with an equal one
        Ok(Lazy(Node::unique(
            Op::Assign,
            self.dtype(),
            self.shape().to_vec(),
            vec![self.0.clone(), value.0.clone()],
            placement,
        )))
    }

    /// Writes `value`'s rows into a window of this tensor's buffer in place, when realized:
    /// along `axis`, `value`'s `T` rows land at positions `start..start + T` (numpy's
    /// `target[.., start:start + T, ..] = value`), the rest of the buffer kept; the result
    /// stands for the new contents. `start` is a one-element integer tensor read when the
    /// kernel runs (a [`Lazy::var`], so one recording serves every position: a KV cache's
    /// rows at the step's position), taken as unsigned: rows that land at or past the axis's
    /// end are dropped, so a negative start writes nothing. `value` has the target's shape
    /// but along `axis`, where it has at most as many rows. Targets as for [`Lazy::assign`].
    /// Its kernel covers the window, not the target, where a row is a multiple of four
    /// elements (`kernel::window`); elsewhere the whole target.
    pub fn assign_window(&self, axis: usize, start: &Lazy, value: &Lazy) -> Result<Lazy> {
        const OP: &str = "assign_window";
        if !matches!(self.op(), Op::Buffer) && !self.op().writes_in_place() {
            return Err(Error::Argument {
                op: OP,
                message: format!(
                    "the target {:?} is not a buffer of its own; make it with Lazy::parameter",
                    self.0
                ),
            });
        }
        // the shapes and the start by tg-core's rule, as tg-ops and `#[kernel]` check them
        let start_value = tg_core::ops::Value::Tensor(start.shape().to_vec(), start.dtype());
        tg_core::shape::gather::window_write(
            &mut tg_core::Checker::new(),
            OP,
            self.shape(),
            axis as isize,
            &start_value,
            value.shape(),
        )
        .map_err(|f| match f.error {
            tg_core::ops::OpError::Rule(r) => Error::from(r),
            e => Error::Internal {
                context: OP,
                message: e.to_string(),
            },
        })?;
        if self.dtype() != value.dtype() {
            return Err(Error::DTypeMismatch {
                op: OP,
                lhs: self.dtype(),
                rhs: value.dtype(),
                message: "the value must have the target's dtype; cast first".into(),
            });
        }
        let start = start.reshape(&[])?;
        let placement = Placement::of(&[&self.0, &value.0, &start.0], OP)?;
        Ok(Lazy(Node::unique(
            Op::AssignWindow(axis),
            self.dtype(),
            self.shape().to_vec(),
            vec![self.0.clone(), value.0.clone(), start.0.clone()],
            placement,
        )))
    }

    /// The same values, through which no gradient flows.
    pub fn detach(&self) -> Lazy {
        if matches!(self.op(), Op::Detach) {
            return self.clone();
        }
        Lazy(Node::intern(
            Op::Detach,
            self.dtype(),
            self.shape().to_vec(),
            vec![self.0.clone()],
        ))
    }

    /// The same values; a gradient flowing back through it is computed into a buffer of its
    /// own (tinygrad's `contiguous_backward`).
    pub fn contiguous_backward(&self) -> Lazy {
        Lazy(Node::intern(
            Op::ContiguousBackward,
            self.dtype(),
            self.shape().to_vec(),
            vec![self.0.clone()],
        ))
    }

    /// Makes every node built from this one from now on keep its sources when realized, so a
    /// gradient taken after the forward pass was realized (say, after printing the loss)
    /// still walks back to this node: tinygrad's `requires_grad`. Tracking passes through
    /// every op but `detach` (and an assign keeps its target tracked, not its sources);
    /// nodes built before keep dropping theirs.
    pub fn track_gradient(&self) -> Lazy {
        self.0.track();
        self.clone()
    }

    /// Does this node track gradients (see [`Lazy::track_gradient`])?
    pub fn tracks_gradient(&self) -> bool {
        self.0.tracks()
    }

    /// Gives this value a derivative rule of its own: a gradient reaching it goes to
    /// `inputs` as `rule` computes them from the value's gradient (one entry per input, `None`
    /// for none), instead of back through the ops that compute it. For compositions whose
    /// derivative through their ops schedules badly (conv2d's input gradient is a transposed
    /// convolution). The rule must be the derivative of the same function of `inputs`; it
    /// applies wherever this node is reached (identical nodes are one node), until the node
    /// drops its sources (realized without `track_gradient`).
    pub fn with_gradient(
        &self,
        inputs: &[&Lazy],
        rule: impl Fn(&Lazy) -> Result<Vec<Option<Lazy>>> + Send + Sync + 'static,
    ) -> Lazy {
        self.0.set_backward(super::gradient::Backward {
            inputs: inputs.iter().map(|&l| l.clone()).collect(),
            rule: Box::new(rule),
        });
        self.clone()
    }

    /// The gradients of this value with respect to `targets` (see [`super::gradient`]):
    /// `seed` is the gradient of some result with respect to this value (1 by default,
    /// which needs a scalar).
    pub fn gradient(&self, targets: &[&Lazy], seed: Option<&Lazy>) -> Result<Vec<Lazy>> {
        super::gradient::gradient(self, targets, seed)
    }

    /// Marks the value to be computed into a buffer of its own rather than fused into its users.
    pub fn contiguous(&self) -> Lazy {
        if matches!(self.op(), Op::Buffer | Op::Contiguous) {
            return self.clone();
        }
        Lazy(Node::intern(
            Op::Contiguous,
            self.dtype(),
            self.shape().to_vec(),
            vec![self.0.clone()],
        ))
    }
}

impl std::fmt::Debug for Lazy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lazy({:?})", self.0)
    }
}

/// The device a realize of `targets` runs on: theirs (one device, else
/// [`Error::DeviceMismatch`]), or the current device when all are constants.
pub fn device_of(targets: &[&Lazy]) -> Result<Device> {
    let nodes: Vec<&Arc<Node>> = targets.iter().map(|t| t.node()).collect();
    match Placement::of(&nodes, "realize")? {
        Placement::Any => crate::device::current_device(),
        Placement::Default => Device::get().cloned(),
        Placement::On(id) => crate::device::lookup(id),
    }
}

/// The gradient of an attention's additive mask `m`: `dS = P (dO v^T - delta)` with
/// `P = exp(q k^T / sqrt(D) + m - lse)`, summed over the axes `m` broadcasts along (its
/// batch axes or its row). Composed of ops: the fused passes never hold `dS`.
#[allow(clippy::too_many_arguments)]
fn mask_gradient(
    q: &Lazy,
    k: &Lazy,
    v: &Lazy,
    m: &Lazy,
    out: &Lazy,
    g: &Lazy,
    delta: &Lazy,
    kept: Option<&Lazy>,
) -> Result<Lazy> {
    let r = out.ndim();
    let (l, s, d, dv) = (
        q.shape()[r - 2],
        k.shape()[r - 2],
        q.shape()[r - 1],
        v.shape()[r - 1],
    );
    let mut scores_shape = q.shape()[..r - 2].to_vec();
    scores_shape.extend([l, s]);
    // `a (.., L, w) . b (.., S, w)` for every pair of rows: `(.., L, S)`
    let pairs = |a: &Lazy, b: &Lazy, w: usize| -> Result<Lazy> {
        let mut wide = scores_shape.clone();
        wide.push(w);
        let at = |x: &Lazy, axis: usize| -> Result<Lazy> {
            let mut shape = x.shape().to_vec();
            shape.insert(axis, 1);
            x.reshape(&shape)?.expand(&wide)
        };
        let prod = at(a, r - 1)?.binary(BinaryOp::Mul, &at(b, r - 2)?)?;
        prod.reduce(ReduceOp::Add, &[r])?.reshape(&scores_shape)
    };
    let column = |x: &Lazy, from: usize, to: usize| x.narrow(r - 1, from, to);
    let scale = pairs(q, k, d)?;
    let scores = scale
        .binary(
            BinaryOp::Mul,
            &scale.constant_like(1.0 / (d as f64).sqrt(), DType::F32),
        )?
        .binary(BinaryOp::Add, &m.expand(&scores_shape)?)?;
    let lse = column(out, dv, dv + 1)?.expand(&scores_shape)?;
    let weights = scores
        .binary(BinaryOp::Add, &lse.unary(UnaryOp::Neg)?)?
        .binary(
            BinaryOp::Mul,
            &lse.constant_like(std::f64::consts::LOG2_E, DType::F32),
        )?
        .unary(UnaryOp::Exp2)?;
    let mut dp = pairs(&column(g, 0, dv)?, v, dv)?;
    if let Some(z) = kept {
        // a dropped weight passes no gradient to its score
        dp = dp.binary(BinaryOp::Mul, z)?;
    }
    let ds = weights.binary(
        BinaryOp::Mul,
        &dp.binary(
            BinaryOp::Add,
            &delta.expand(&scores_shape)?.unary(UnaryOp::Neg)?,
        )?,
    )?;
    let axes: Vec<usize> = (0..r)
        .filter(|&a| m.shape()[a] == 1 && scores_shape[a] != 1)
        .collect();
    ds.reduce(ReduceOp::Add, &axes)
}

/// The factor each weight of a dropout attention takes, `(.., L, S)` f32: its scale where
/// its bit in `bits` (`(.., L, ceil(S / 32))` u32) is set, else 0 ([`AttentionDropout`]).
fn kept_weights(bits: &Lazy, s: usize, dropout: AttentionDropout) -> Result<Lazy> {
    let z = bits.unpack_bits(s)?.cast(DType::F32);
    z.binary(
        BinaryOp::Mul,
        &z.constant_like(f64::from(dropout.scale()), DType::F32),
    )
}

/// `0..32` along the last axis of `lanes` (`(.., 32)`): each lane's bit.
fn lane_shifts(lanes: &[usize]) -> Result<Lazy> {
    let mut one = vec![1usize; lanes.len()];
    one[lanes.len() - 1] = 32;
    Lazy::arange_u32(32)?.reshape(&one)?.expand(lanes)
}

/// The length `n` of the axis `axis` of `index` where `index[.., i, ..] == i` everywhere
/// (`0..n` laid along `axis` and broadcast over the other axes), as far as its graph shows:
/// [`Lazy::arange_u32`], cast to another integer type that holds `n - 1`, times 1 or plus 0,
/// reshaped onto `axis` and expanded. `None` where it is not, or not visibly.
fn iota_along(index: &Lazy, axis: usize) -> Option<usize> {
    let n = index.shape()[axis];
    // the broadcast over the other axes, then the reshape of a row of `n` onto `axis`
    let mut x = index.clone();
    if let Op::Expand = x.op() {
        let src = Lazy(x.0.srcs()[0].clone());
        if src.shape()[axis] != n {
            return None;
        }
        x = src;
    }
    if let Op::Reshape = x.op() {
        let along = x
            .shape()
            .iter()
            .enumerate()
            .all(|(a, &s)| a == axis || s == 1);
        if !along {
            return None;
        }
        x = Lazy(x.0.srcs()[0].clone());
    }
    (x.shape() == [n] && is_iota(&x)).then_some(n)
}

/// Whether `x`, of shape `[n]`, holds `0..n` (see [`iota_along`]).
fn is_iota(x: &Lazy) -> bool {
    let n = x.shape()[0];
    let is_const = |v: &Arc<Node>, c: i128| {
        Lazy(v.clone())
            .const_value()
            .is_some_and(|s| s.as_f64() == c as f64)
    };
    match x.op() {
        Op::Cast if x.dtype().is_int() && x.dtype().max_f64() >= (n as f64 - 1.0) => {
            let src = Lazy(x.0.srcs()[0].clone());
            src.dtype().is_int() && is_iota(&src)
        }
        Op::Binary(op @ (BinaryOp::Mul | BinaryOp::Add)) => {
            // times 1 or plus 0
            let unit = i128::from(*op == BinaryOp::Mul);
            let srcs = x.0.srcs();
            match (is_const(&srcs[0], unit), is_const(&srcs[1], unit)) {
                (_, true) => is_iota(&Lazy(srcs[0].clone())),
                (true, false) => is_iota(&Lazy(srcs[1].clone())),
                (false, false) => false,
            }
        }
        _ => x.dtype() == DType::U32 && Lazy::arange_u32(n).is_ok_and(|a| a.id() == x.id()),
    }
}

/// How a fused attention of queries `q` `(.., L, D)` and `s` keys reads an additive mask of
/// shape `m`, or `None` where it cannot: `(.., L or 1, S)`, its batch axes the queries' or
/// all 1 (`AttentionMask::Add`'s flags). The scheduler's split of an attention over the loop
/// budget asks the same of each chunk's mask.
pub(crate) fn added_mask(q: &[usize], s: usize, m: &[usize]) -> Option<AttentionMask> {
    let r = q.len();
    let (batch, l) = (&q[..r - 2], q[r - 2]);
    let ok = m.len() == r
        && m[r - 1] == s
        && (m[r - 2] == 1 || m[r - 2] == l)
        && (&m[..r - 2] == batch || m[..r - 2].iter().all(|&n| n == 1));
    ok.then(|| AttentionMask::Add {
        heads: m[..r - 2] == *batch && batch.iter().any(|&n| n != 1),
        rows: m[r - 2] == l && l != 1,
    })
}
