//! Scans and arg-reductions: cumsum, cumprod, cummax and cummin (values and indices),
//! logcumsumexp, argmax and argmin.
//!
//! Sums, products and maxima of 32- and 64-bit numbers (cumsum, which accumulates in such a
//! dtype, cumprod, cummax and cummin; float maxima through an order-preserving integer key,
//! with a derivative rule of their own) scan by the runtime's scan of runs
//! (`Lazy::scan_runs`): each run of 256 in order by one invocation, float sums compensated
//! (sums and maxima from each run's carry: the runs' totals reduced and scanned first;
//! products scanned, then joined with their predecessors' total), `O(n)` work (2^20 f32 on
//! lavapipe: 4-6 ms, where the reductions below took 33; cummax 5-7 against 39-42). Narrow
//! integers and bool scan so in 32 bits (wrapping to the same low bits), f16 maxima in f32.
//! f16 sums and products, which round at every step, take tinygrad's composition: a scan of
//! length `n` is a reduction of an `n x n` masked view, output `i` reducing the elements `k
//! <= i` with the others replaced by the identity (`_cumalu`), and axes longer than 512
//! take the two-stage split (`_split_cumalu`): a scan within chunks of 256, a scan of the
//! chunk totals, and one combining pass, so the work is `n * 256 + (n / 256)^2` rather than
//! `n^2`. cummax's and cummin's indices are a running maximum of the positions where the
//! running extreme changes (`O(n)`; tinygrad matches every value against every running
//! extreme, `n^2`); logcumsumexp compares every element with every running maximum within
//! chunks of 32 and combines the chunks with `logaddexp`, `n * 32` (tinygrad: `n^2` per
//! row). Index outputs are i32, as tinygrad's.

use super::sort::{float_from_order, float_order};
use super::stats::to_isize;
use super::{DynTensor, norm_axis, norm_axis_scalar_ok};
use tg_runtime::{BinaryOp, DType, Error, Lazy, ReduceOp, Result, Scalar, UnaryOp};

/// Chunk length of the two-stage scan; axes up to twice this scan in one stage.
const SPLIT: usize = 256;

/// Chunk length of logcumsumexp's stages: within a chunk every output takes a term of every
/// element before it (`n * LOG_CHUNK` exponentials), so chunks are short; the chunks' totals
/// scan the same way, in stages joined by `logaddexp` (rows of 1024 on lavapipe: 100-105 ms,
/// 478 with chunks of 256).
const LOG_CHUNK: usize = 32;

/// `[n, n]` bool, true where the column is after the row (`k > i`): the part of the square a
/// prefix ending at row `i` leaves out.
pub(crate) fn after_diagonal(n: usize) -> Result<Lazy> {
    let i = Lazy::arange_u32(n)?.reshape(&[n, 1])?.expand(&[n, n])?;
    let k = Lazy::arange_u32(n)?.reshape(&[1, n])?.expand(&[n, n])?;
    i.binary(BinaryOp::CmpLt, &k)
}

/// `x` (last axis `n`) seen as `[..., n, n]`: row `i` holds all of `x`'s last axis.
pub(crate) fn rows_of(x: &Lazy) -> Result<Lazy> {
    let (mut mid, n) = (x.shape().to_vec(), x.shape().last().copied().unwrap_or(1));
    mid.insert(mid.len() - 1, 1);
    let mut full = mid.clone();
    full[mid.len() - 2] = n;
    x.reshape(&mid)?.expand(&full)
}

/// `x` (last axis `n`) seen as `[..., n, n]`: column `k` holds all of `x`'s last axis, so
/// entry `(i, k)` is `x[i]`.
pub(crate) fn cols_of(x: &Lazy) -> Result<Lazy> {
    let (mut mid, n) = (x.shape().to_vec(), x.shape().last().copied().unwrap_or(1));
    mid.push(1);
    let mut full = mid.clone();
    full[mid.len() - 1] = n;
    x.reshape(&mid)?.expand(&full)
}

/// A `[n, n]` mask broadcast to `shape` (`[..., n, n]`).
pub(crate) fn square_mask(mask: &Lazy, shape: &[usize]) -> Result<Lazy> {
    let mut s = vec![1; shape.len() - 2];
    s.extend_from_slice(&shape[shape.len() - 2..]);
    mask.reshape(&s)?.expand(shape)
}

/// Drops the size-1 last axis a keepdim reduction left.
fn drop_last(x: Lazy) -> Result<Lazy> {
    let s = x.shape();
    x.reshape(&s[..s.len() - 1])
}

/// The inclusive scan of `x`'s last axis in one stage: `out[i] = op(x[0..=i])`.
fn scan_direct(x: &Lazy, op: ReduceOp) -> Result<Lazy> {
    let n = x.shape()[x.ndim() - 1];
    let view = rows_of(x)?;
    let skip = square_mask(&after_diagonal(n)?, view.shape())?;
    let fill = Lazy::constant(op.identity(x.dtype()), x.dtype(), view.shape())?;
    drop_last(skip.where_(&fill, &view)?.reduce(op, &[x.ndim()])?)
}

/// Elements each invocation of the runtime's scan template takes in turn (`Lazy::scan_runs`).
const RUN: usize = 256;

/// The inclusive scan of `x`'s last axis: by the runtime's scan of runs where it takes the op
/// and dtype (sums and products of 32- and 64-bit numbers, maxima of such integers), else
/// composed of reductions.
fn scan_last(x: &Lazy, op: ReduceOp) -> Result<Lazy> {
    let dt = x.dtype();
    if dt.size() < 4 || dt.is_bool() {
        // narrow integers and bool scan in 32 bits, exactly: sums and products wrap to the
        // same low bits, maxima are the same values; f16 maxima likewise in f32 (its sums and
        // products round at every step, which f32 would not)
        let wide = match dt {
            DType::F16 if op == ReduceOp::Max => DType::F32,
            DType::F16 => return scan_reduced(x, op),
            _ if dt.is_unsigned() => DType::U32,
            _ => DType::I32,
        };
        return Ok(scan_last(&x.cast(wide), op)?.cast(dt));
    }
    if op == ReduceOp::Max && dt.is_float() {
        return float_running_max(x);
    }
    scan_by_runs(x, op)
}

/// The running maximum of 32- or 64-bit floats along the last axis, by the scan of runs over
/// the sort's order-preserving keys (`float_order`: `-0 < +0`, every NaN the largest, so NaN
/// propagates), the keys' running maximum read back as floats. `O(n)`, where the masked reductions take
/// `n * 256` (2^20 f32 on lavapipe: 39-42 ms). Differentiated as the max reductions of
/// tinygrad's composition are (`running_max_gradient`).
fn float_running_max(x: &Lazy) -> Result<Lazy> {
    let x0 = x.clone();
    Ok(running_max_values(x)?.with_gradient(&[x], move |g| {
        // the values again: the same graph, so the same node, kept by no rule
        let y = running_max_values(&x0)?;
        Ok(vec![Some(running_max_gradient(&x0, &y, g)?)])
    }))
}

/// The values of [`float_running_max`].
fn running_max_values(x: &Lazy) -> Result<Lazy> {
    let bits = if x.dtype() == DType::F64 {
        DType::U64
    } else {
        DType::U32
    };
    let key = float_order(x, bits)?;
    float_from_order(&scan_by_runs(&key, ReduceOp::Max)?, x.dtype())
}

/// The gradient of `y`, the running maximum of `x` along the last axis, given `g`: output
/// `i`'s gradient shared equally by the elements `j <= i` equal to `y_i`, as a max reduction
/// shares it among ties. They lie in `i`'s plateau (the run of equal running maxima around
/// it) where the maximum is attained (`x_j == y_j`), so `dx_j` is, for an attaining `j`, the
/// sum over the plateau's `i >= j` of `g_i / c_i`, `c_i` counting the attaining elements of
/// the plateau up to `i` (integer running counts, exact). Plateaus are numbered by a running
/// count of where `y` changes; the sum over the plateau's later outputs runs within them
/// (`Lazy::group_scan` over the flipped axis: sums in a tree, no difference of prefix sums).
fn running_max_gradient(x: &Lazy, y: &Lazy, g: &Lazy) -> Result<Lazy> {
    let last = x.ndim() - 1;
    let add = |a: &Lazy, b: &Lazy| a.binary(BinaryOp::Add, b);
    // a plateau starts where `y` differs from the one before (NaN before the first, and
    // each NaN, differ from everything)
    let starts = y.binary(BinaryOp::CmpNe, &previous(y, Scalar::Float(f64::NAN))?)?;
    let plateau = add(
        &scan_by_runs(&starts.cast(DType::I32), ReduceOp::Add)?,
        &Lazy::constant(-1, DType::I32, x.shape())?,
    )?;
    let attain = x.binary(BinaryOp::CmpEq, y)?;
    // the attaining elements up to each within its plateau, exactly (integers): the running
    // count less the count before the plateau's start (a running maximum, counts only grow)
    let hits = attain.cast(DType::I32);
    let running = scan_by_runs(&hits, ReduceOp::Add)?;
    let before_start = add(&running, &hits.unary(UnaryOp::Neg)?)?;
    let base = scan_by_runs(
        &starts.where_(&before_start, &before_start.constant_like(0, DType::I32))?,
        ReduceOp::Max,
    )?;
    let count = add(&running, &base.unary(UnaryOp::Neg)?)?.cast(g.dtype());
    let zero = g.constant_like(0.0, g.dtype());
    // (no attaining element: a NaN's plateau, whose gradient is 0 as a max reduction's)
    let share = zero.binary(BinaryOp::CmpLt, &count)?.where_(
        &g.binary(BinaryOp::Mul, &count.unary(UnaryOp::Recip)?)?,
        &zero,
    )?;
    let flip = |l: &Lazy| l.flip(&[last]);
    let after = flip(&flip(&share)?.group_scan(&flip(&plateau)?, &add)?)?;
    attain.where_(&after, &zero)
}

/// The inclusive scan of `x`'s last axis by runs of [`RUN`], each run scanned in order by one
/// invocation (float sums compensated). Sums and maxima: each run's total first (a reduction,
/// which reads the runs as vectors), the totals scanned the same way (in stages again past
/// `RUN` runs), and one scan of the elements from each run's carry (the totals' scan shifted
/// by one): the elements are read twice and written once (16M f32: 47-51 -> 34-36 ms GPU
/// time on lavapipe, where scanning the runs and then joining each with its predecessors'
/// total wrote them twice; the totals' plain sums round more than a compensated scan's last
/// value: the largest error against float64 went from 2.4e-7 to 4.0e-4, about 1.6 ulp of
/// running sums near 2400). Products scan the runs, then combine (a carry's
/// gradient would divide by it). `O(n)` work.
fn scan_by_runs(x: &Lazy, op: ReduceOp) -> Result<Lazy> {
    let rank = x.ndim();
    let n = x.shape()[rank - 1];
    if n <= RUN {
        return x.scan_runs(op, n);
    }
    if op == ReduceOp::Mul {
        return in_stages(
            x,
            &Stages::of(op, x.dtype(), RUN),
            &|chunks| chunks.scan_runs(op, RUN),
            &|totals| scan_by_runs(totals, op),
        );
    }
    let identity = op.identity(x.dtype());
    let totals = drop_last(x.split_last(RUN, identity)?.reduce(op, &[rank])?)?;
    let carry = previous(&scan_by_runs(&totals, op)?, identity)?;
    x.scan_runs_from(op, RUN, &carry)
}

/// The inclusive scan of `x`'s last axis composed of reductions, in two stages where the
/// axis is long.
fn scan_reduced(x: &Lazy, op: ReduceOp) -> Result<Lazy> {
    if x.shape()[x.ndim() - 1] <= 2 * SPLIT {
        return scan_direct(x, op);
    }
    // (in stages again past 512 chunks)
    in_stages(
        x,
        &Stages::of(op, x.dtype(), SPLIT),
        &|chunks| scan_direct(chunks, op),
        &|totals| scan_reduced(totals, op),
    )
}

/// A scan of a function of a lazy value.
type Scan<'a> = dyn Fn(&Lazy) -> Result<Lazy> + 'a;

/// How a chunk's scan (first) and its predecessors' total (second) combine.
type Join<'a> = dyn Fn(&Lazy, &Lazy) -> Result<Lazy> + 'a;

/// How a scan runs in two stages: the chunks' length, what pads a row to whole chunks and
/// precedes the first chunk (the identity), and how a chunk's predecessors' total joins its
/// own scan.
struct Stages<'a> {
    chunk: usize,
    identity: Scalar,
    join: Box<Join<'a>>,
}

impl Stages<'_> {
    /// The stages of a scan with reduction `op` over `dt`.
    fn of(op: ReduceOp, dt: DType, chunk: usize) -> Self {
        Stages {
            chunk,
            identity: op.identity(dt),
            join: Box::new(move |inner, before| inner.binary(op.combine(dt), before)),
        }
    }
}

/// The inclusive scan of `x`'s last axis in two stages: the axis padded with the identity to
/// whole chunks and split (`[.., chunks, chunk]`), `within` scanning each chunk, `across`
/// scanning the chunks' totals, and each chunk's predecessors (the totals' scan shifted by
/// one) joined in.
fn in_stages(x: &Lazy, st: &Stages<'_>, within: &Scan<'_>, across: &Scan<'_>) -> Result<Lazy> {
    let (rank, chunk) = (x.ndim(), st.chunk);
    let n = x.shape()[rank - 1];
    let inner = within(&x.split_last(chunk, st.identity)?)?;
    // `[.., chunks, chunk]`, as split
    let chunks = inner.shape()[rank - 1];
    let mut last: Vec<(usize, usize)> = inner.shape().iter().map(|&d| (0, d)).collect();
    last[rank] = (chunk - 1, chunk);
    let totals = drop_last(inner.shrink(&last)?)?;
    let before = previous(&across(&totals)?, st.identity)?;
    let mut col = before.shape().to_vec();
    col.push(1);
    let before = before.reshape(&col)?.expand(inner.shape())?;
    let joined = (st.join)(&inner, &before)?;
    let mut flat = x.shape().to_vec();
    flat[rank - 1] = chunks * chunk;
    let mut keep: Vec<(usize, usize)> = x.shape().iter().map(|&d| (0, d)).collect();
    keep[rank - 1] = (0, n);
    joined.reshape(&flat)?.shrink(&keep)
}

/// `log(cumsum(exp(x)))` along the last axis, stable: each output subtracts the running
/// maximum up to it before the exponentials, comparing every element with every running
/// maximum (tinygrad's composition, `n^2` per row), in one stage up to `2 * LOG_CHUNK`;
/// longer rows take chunks of `LOG_CHUNK` that way, the chunks' totals in stages again, and
/// join each chunk's predecessors with `logaddexp` (`n * LOG_CHUNK` work).
fn log_scan(x: &Lazy) -> Result<Lazy> {
    if x.shape()[x.ndim() - 1] <= 2 * LOG_CHUNK {
        return log_scan_direct(x);
    }
    let stages = Stages {
        chunk: LOG_CHUNK,
        identity: Scalar::Float(f64::NEG_INFINITY),
        join: Box::new(|inner, before| {
            Ok(DynTensor::wrap(inner.clone())
                .logaddexp(DynTensor::wrap(before.clone()))?
                .lazy)
        }),
    };
    in_stages(x, &stages, &log_scan_direct, &log_scan)
}

/// [`log_scan`] in one stage: `n^2` per row.
fn log_scan_direct(x: &Lazy) -> Result<Lazy> {
    let n = x.shape()[x.ndim() - 1];
    let m = DynTensor::wrap(scan_last(x, ReduceOp::Max)?);
    let m = m.isinf(true, true)?.where_(0.0, &m)?;
    let diff = DynTensor::wrap(rows_of(x)?).sub(DynTensor::wrap(cols_of(&m.lazy)?))?;
    let skip = DynTensor::wrap(square_mask(&after_diagonal(n)?, diff.shape())?);
    let total = skip
        .where_(f64::NEG_INFINITY, &diff)?
        .exp()?
        .sum(Some(&[-1]), false)?;
    Ok(total.log()?.add(&m)?.lazy)
}

/// The order-reversing bijection of tinygrad's `_inverse`: `-x` for floats, `!x` for integers
/// (bitwise) and bool (logical).
pub(crate) fn inverse(x: &Lazy) -> Result<Lazy> {
    if x.dtype().is_float() {
        return x.unary(UnaryOp::Neg);
    }
    let ones = Lazy::constant(
        if x.dtype().is_bool() { 1 } else { -1 },
        x.dtype(),
        x.shape(),
    )?;
    x.binary(BinaryOp::Xor, &ones)
}

/// `a == b`, also true where both are NaN.
pub(crate) fn same(a: &Lazy, b: &Lazy) -> Result<Lazy> {
    let eq = a.binary(BinaryOp::CmpEq, b)?;
    if !a.dtype().is_float() {
        return Ok(eq);
    }
    let both_nan = a
        .binary(BinaryOp::CmpNe, a)?
        .binary(BinaryOp::And, &b.binary(BinaryOp::CmpNe, b)?)?;
    eq.binary(BinaryOp::Or, &both_nan)
}

impl DynTensor {
    /// `self` with `axis` swapped to the last place, the normalized axis, and whether the
    /// tensor is rank 0 (a rank-0 tensor takes axis 0 or -1 and scans nothing).
    fn scan_axis(&self, op: &'static str, axis: isize) -> Result<(DynTensor, usize)> {
        let a = norm_axis_scalar_ok(op, axis, self.shape())?;
        if self.ndim() == 0 {
            return Ok((self.clone(), 0));
        }
        Ok((self.transpose(a as isize, -1)?, a))
    }

    /// Applies `f` to `self` with `axis` last, and swaps it back; empty and rank-0 tensors
    /// are returned as they are.
    fn along(
        &self,
        op: &'static str,
        axis: isize,
        f: impl FnOnce(&Lazy) -> Result<Lazy>,
    ) -> Result<DynTensor> {
        let (x, a) = self.scan_axis(op, axis)?;
        if self.ndim() == 0 || self.numel() == 0 {
            return Ok(self.clone());
        }
        DynTensor::wrap(f(&x.lazy)?).transpose(a as isize, -1)
    }

    /// The running sum along `axis`, accumulated and returned in the dtype `sum` uses
    /// (tinygrad's: i8, i16 and bool give i32, u8 and u16 u32; numpy gives i64), f16 summed
    /// in f32 and rounded once. Long axes scan in two stages (see the module docs).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 3], &[1i8, 2, 3, 100, 100, 100]).unwrap();
    /// let c = t.cumsum(1).unwrap();
    /// assert_eq!(c.dtype(), DType::I32);
    /// assert_eq!(c.to_vec::<i32>().unwrap(), vec![1, 3, 6, 100, 200, 300]);
    /// ```
    pub fn cumsum(&self, axis: isize) -> Result<DynTensor> {
        let acc = self.dtype().sum_acc_dtype();
        let out = self
            .cast(acc)
            .along("cumsum", axis, |x| scan_last(x, ReduceOp::Add))?;
        Ok(if self.dtype() == DType::F16 {
            out.cast(DType::F16)
        } else {
            out
        })
    }

    /// The running product along `axis`, in the tensor's dtype (integers wrap, as `prod`);
    /// for bool, the running logical and.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[4], &[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    /// assert_eq!(t.cumprod(0).unwrap().to_vec::<f32>().unwrap(), vec![1.0, 2.0, 6.0, 24.0]);
    /// ```
    pub fn cumprod(&self, axis: isize) -> Result<DynTensor> {
        if self.dtype().is_bool() {
            // all(x[..=i]) = !any(!x[..=i])
            return self.along("cumprod", axis, |x| {
                inverse(&scan_last(&inverse(x)?, ReduceOp::Max)?)
            });
        }
        self.along("cumprod", axis, |x| scan_last(x, ReduceOp::Mul))
    }

    /// The running maximum along `axis` and, as i32, the index where each running maximum
    /// first occurs (tinygrad's rule; torch gives the last index of equal values). NaN
    /// propagates; its index is that of the first NaN (numpy's and torch's; tinygrad's
    /// equality test never matches NaN and gives the axis length).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[5], &[1i32, 3, 2, 3, 5]).unwrap();
    /// let (v, i) = t.cummax(0).unwrap();
    /// assert_eq!(v.to_vec::<i32>().unwrap(), vec![1, 3, 3, 3, 5]);
    /// assert_eq!(i.to_vec::<i32>().unwrap(), vec![0, 1, 1, 1, 4]);
    /// ```
    pub fn cummax(&self, axis: isize) -> Result<(DynTensor, DynTensor)> {
        self.cum_extreme("cummax", axis, false)
    }

    /// The running minimum along `axis` and the index where each first occurs: the running
    /// maximum of the order-reversed values (`-x`, or `!x` for integers), reversed back.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[4], &[3u8, 1, 2, 0]).unwrap();
    /// let (v, i) = t.cummin(0).unwrap();
    /// assert_eq!(v.to_vec::<u8>().unwrap(), vec![3, 1, 1, 0]);
    /// assert_eq!(i.to_vec::<i32>().unwrap(), vec![0, 1, 1, 3]);
    /// ```
    pub fn cummin(&self, axis: isize) -> Result<(DynTensor, DynTensor)> {
        self.cum_extreme("cummin", axis, true)
    }

    fn cum_extreme(
        &self,
        op: &'static str,
        axis: isize,
        reversed: bool,
    ) -> Result<(DynTensor, DynTensor)> {
        let (x, a) = self.scan_axis(op, axis)?;
        if self.ndim() == 0 || self.numel() == 0 {
            return Ok((self.clone(), DynTensor::zeros(self.shape(), DType::I32)?));
        }
        let key = if reversed {
            inverse(&x.lazy)?
        } else {
            x.lazy.clone()
        };
        let values = scan_last(&key, ReduceOp::Max)?;
        let index = first_positions(&key, &values)?;
        let values = if reversed { inverse(&values)? } else { values };
        let back = |l: Lazy| DynTensor::wrap(l).transpose(a as isize, -1);
        Ok((back(values)?, back(index)?))
    }

    /// `log(cumsum(exp(x)))` along `axis`, stable for large inputs: output `i` subtracts the
    /// running maximum up to `i` before the exponentials (tinygrad's composition). As in
    /// `logsumexp`, an infinite running maximum is replaced by 0, so leading `-inf` give
    /// `-inf` (tinygrad gives NaN). Integers give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[3], &[f32::NEG_INFINITY, 1000.0, 1000.0]).unwrap();
    /// let y = t.logcumsumexp(0).unwrap().to_vec::<f32>().unwrap();
    /// assert_eq!(y, vec![f32::NEG_INFINITY, 1000.0, 1000.0 + 2.0f32.ln()]);
    /// ```
    pub fn logcumsumexp(&self, axis: isize) -> Result<DynTensor> {
        let x = self.cast(self.dtype().float_of());
        x.along("logcumsumexp", axis, log_scan)
    }

    /// The index (i32) of the first maximum along `axis`, removed unless `keepdim`; with
    /// `None`, of the flattened tensor (a rank-0 result; `keepdim` is ignored, as in
    /// tinygrad). NaN counts as the maximum (numpy's rule; tinygrad's equality test never
    /// matches it). An empty axis has no maximum: an error (numpy's; tinygrad returns 0).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 3], &[1.0f32, 5.0, 5.0, 7.0, 0.0, 7.0]).unwrap();
    /// assert_eq!(t.argmax(Some(1), false).unwrap().to_vec::<i32>().unwrap(), vec![1, 0]);
    /// assert_eq!(t.argmax(None, false).unwrap().to_vec::<i32>().unwrap(), vec![3]);
    /// ```
    pub fn argmax(&self, axis: Option<isize>, keepdim: bool) -> Result<DynTensor> {
        self.arg_extreme("argmax", axis, keepdim, false)
    }

    /// The index (i32) of the first minimum along `axis` (or of the flattened tensor): the
    /// argmax of the order-reversed values. NaN counts as the minimum (numpy's rule).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 2], &[4u8, 1, 0, 0]).unwrap();
    /// assert_eq!(t.argmin(Some(-1), true).unwrap().to_vec::<i32>().unwrap(), vec![1, 0]);
    /// ```
    pub fn argmin(&self, axis: Option<isize>, keepdim: bool) -> Result<DynTensor> {
        self.arg_extreme("argmin", axis, keepdim, true)
    }

    fn arg_extreme(
        &self,
        op: &'static str,
        axis: Option<isize>,
        keepdim: bool,
        reversed: bool,
    ) -> Result<DynTensor> {
        let Some(axis) = axis else {
            return self
                .flatten(0, -1)?
                .arg_extreme(op, Some(0), false, reversed);
        };
        if self.ndim() == 0 {
            norm_axis_scalar_ok(op, axis, self.shape())?;
            return DynTensor::zeros(&[], DType::I32);
        }
        let a = norm_axis(op, axis, self.shape())?;
        let n = self.shape()[a];
        if n == 0 {
            return Err(Error::Shape {
                op,
                message: format!(
                    "axis {axis} of shape {:?} is empty: it has no extreme value",
                    self.shape()
                ),
            });
        }
        let x = self.transpose(a as isize, -1)?;
        let key = if reversed {
            inverse(&x.lazy)?
        } else {
            x.lazy.clone()
        };
        let best = DynTensor::wrap(key.reduce(ReduceOp::Max, &[key.ndim() - 1])?);
        let best = best.lazy.expand(key.shape())?;
        let hit = same(&key, &best)?;
        let mut index = DynTensor::wrap(first_index(&hit, None, n)?).transpose(a as isize, -1)?;
        if !keepdim {
            let mut dims = to_isize(index.shape());
            dims.remove(a);
            index = index.reshape(&dims)?;
        }
        Ok(index)
    }
}

/// Each element's predecessor along the last axis, `fill` before the first.
fn previous(x: &Lazy, fill: Scalar) -> Result<Lazy> {
    let mut shift = vec![(0isize, 0isize); x.ndim()];
    shift[x.ndim() - 1] = (1, -1);
    Ok(DynTensor::wrap(x.clone()).pad(&shift, fill)?.lazy)
}

/// Where each running maximum `values` of `key` (along the last axis) first occurs, as i32:
/// the last position up to each where the running maximum changed (the first element, one
/// above the maximum before it, or the first NaN), a running maximum of those positions by
/// the scan of runs. `O(n)` work, where matching every value against every running maximum
/// takes `n^2`.
fn first_positions(key: &Lazy, values: &Lazy) -> Result<Lazy> {
    let last = key.ndim() - 1;
    let n = key.shape()[last];
    let before = previous(values, ReduceOp::Max.identity(key.dtype()))?;
    let mut changed = before.binary(BinaryOp::CmpLt, key)?;
    if key.dtype().is_float() {
        let first_nan = key
            .binary(BinaryOp::CmpNe, key)?
            .binary(BinaryOp::And, &before.binary(BinaryOp::CmpEq, &before)?)?;
        changed = changed.binary(BinaryOp::Or, &first_nan)?;
    }
    let mut row = vec![1; key.ndim()];
    row[last] = n;
    let k = Lazy::arange_u32(n)?
        .cast(DType::I32)
        .reshape(&row)?
        .expand(key.shape())?;
    // the first element always starts a maximum (its position, 0, is the identity's floor)
    let at = changed.where_(&k, &k.constant_like(0, DType::I32))?;
    scan_by_runs(&at, ReduceOp::Max)
}

/// For `hit` (and `skip`) of shape `[..., n]` (bool), the first `k` along the last axis
/// where `hit` holds (and `skip` does not), as i32, keeping the axis as size 1: tinygrad's
/// `n - max(hit * (n - k))`.
fn first_index(hit: &Lazy, skip: Option<&Lazy>, n: usize) -> Result<Lazy> {
    let shape = hit.shape().to_vec();
    let mut row = vec![1; shape.len() - 1];
    row.push(n);
    // n - k, so the largest weight is the first index
    let k = Lazy::arange_u32(n)?
        .cast(DType::I32)
        .reshape(&row)?
        .expand(&shape)?;
    let weight = Lazy::constant(n as i64, DType::I32, &shape)?
        .binary(BinaryOp::Add, &k.unary(UnaryOp::Neg)?)?;
    let zero = Lazy::constant(0, DType::I32, &shape)?;
    let mut w = hit.where_(&weight, &zero)?;
    if let Some(skip) = skip {
        w = skip.where_(&zero, &w)?;
    }
    let best = w.reduce(ReduceOp::Max, &[shape.len() - 1])?;
    let top = Lazy::constant(n as i64, DType::I32, best.shape())?;
    top.binary(BinaryOp::Add, &best.unary(UnaryOp::Neg)?)
}
