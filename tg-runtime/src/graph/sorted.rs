//! Compositions over sorted rows, built from the merge and gather primitives: a whole merge
//! sort, a binary search, the grouping of writes by the position they name, and running
//! combinations within groups, which tg-ops' writes through indices and scatter reductions
//! and the gather's gradient (a sum into positions) use.

use super::lazy::{Lazy, MAX_SORT_RUN, check_axis, shape_err};
use super::node::Op;
use crate::dtype::{DType, Scalar};
use crate::error::{Error, Result};
use crate::ops::{BinaryOp, ReduceOp, UnaryOp};

/// Each row's writes grouped by position (`Lazy::writes_by_position`): the writes in a stable
/// order of the positions they name, and for each position of the axis where its group ends.
pub struct PositionRuns {
    /// The input index (i32) of each write in sorted order; writes outside the axis last.
    pub order: Lazy,
    /// The position (i32) each sorted write names; the axis' length for writes outside it.
    pub sorted: Lazy,
    /// For each position of the axis, the index into `sorted` of the last write naming it
    /// (-1 or another position's write where none does: see `found`).
    pub end: Lazy,
    /// Whether any write names the position.
    pub found: Lazy,
}

/// Whether `index` can name positions of `values` along `axis`: an integer tensor of their
/// shape.
fn check_positions(op: &'static str, values: &Lazy, axis: usize, index: &Lazy) -> Result<()> {
    check_axis(op, axis, values.shape())?;
    if !index.dtype().is_int() {
        return Err(index.dtype_err(op, "the positions must be an integer tensor"));
    }
    if index.shape() != values.shape() {
        return Err(shape_err(
            op,
            format!(
                "the positions {:?} must have the values' shape {:?}",
                index.shape(),
                values.shape()
            ),
        ));
    }
    Ok(())
}

/// Whether a sum of `values` into `n` positions along `axis` (`k` values a row) costs less
/// as a one-hot mask summed (`k n` compares and adds, one reduction) than sorted and scanned
/// (about `(k + n) log2 k` steps, each a gather, and 15 kernels in all): up to
/// [`ONE_HOT_FACTOR`] times the steps. The position's compare needs `n - 1` in the index's
/// dtype, and the mask at most 2^31 elements (no larger one-hot reduction is tested).
fn one_hot_pays(values: &Lazy, axis: usize, n: usize, index: DType) -> bool {
    let k = values.shape()[axis];
    let mask = (values.numel() as u128) * (n as u128);
    let log = u128::from(usize::BITS - k.saturating_sub(1).leading_zeros()).max(1);
    let steps = (k as u128 + n as u128) * log;
    mask > 0
        && mask < 1 << 31
        && (n as i128 - 1) <= index.int_max()
        && (k as u128) * (n as u128) <= ONE_HOT_FACTOR * steps
}

/// Measured on lavapipe (`tg-bench`'s embedding gradient, 1024 ids into rows of 128): the
/// one-hot sum took 1.5, 3.1, 10.5, 37 and 152 ms into 128, 512, 2048, 8192 and 32768
/// rows, the sort and scan 16-24 ms at every size, so they cross near 4000 rows, where
/// `k n` is about 80 times `(k + n) log2 k`.
const ONE_HOT_FACTOR: u128 = 80;

/// Logical negation of a bool tensor.
fn not(b: &Lazy) -> Result<Lazy> {
    b.binary(BinaryOp::Xor, &b.constant_like(true, DType::Bool))
}

impl Lazy {
    /// The last axis, where rows lie; a rank-0 value has none (`Error::RankTooLow`).
    fn last_axis(&self, op: &'static str) -> Result<usize> {
        self.ndim().checked_sub(1).ok_or_else(|| Error::RankTooLow {
            op,
            min: 1,
            shape: Vec::new(),
        })
    }

    /// Sorts each row of u32 records (`[.., n, W]`, records compared word by word, see
    /// [`Lazy::merge_runs`]): runs of [`MAX_SORT_RUN`] sorted in registers
    /// ([`Lazy::sort_runs`]), then merged in pairs until a run is the row: `ceil(log2 n) - 5`
    /// merge kernels of `O(n)` work each. Stable: records are distinct or equal in every
    /// word.
    pub fn merge_sort(&self) -> Result<Lazy> {
        let n = self.shape().get(self.ndim().wrapping_sub(2)).copied();
        let mut records = self.sort_runs(MAX_SORT_RUN)?;
        let mut run = MAX_SORT_RUN;
        while run < n.unwrap_or(0) {
            records = records.merge_runs(run)?;
            run *= 2;
        }
        Ok(records)
    }

    /// For each of `targets` (i32, rows along the last axis): the first index `i` of the same
    /// row of `self` (ascending i32, rows of length `n`, the same leading axes) where
    /// `self[i] >= target`, or `n` where there is none. A binary search of
    /// `ceil(log2(n + 1))` halving steps over `[lo, hi)`, each reading `self` at the
    /// midpoints (a gather): `log n` reads per target, where comparing with every element
    /// takes `n`.
    pub fn lower_bound(&self, targets: &Lazy) -> Result<Lazy> {
        let last = self.last_axis("lower_bound")?;
        let n = self.shape()[last];
        let mut lo = targets.constant_like(0, DType::I32);
        let mut hi = targets.constant_like(n as i64, DType::I32);
        let one = targets.constant_like(1, DType::I32);
        for _ in 0..usize::BITS - n.leading_zeros() {
            let open = lo.binary(BinaryOp::CmpLt, &hi)?;
            // lo + (hi - lo) / 2: lo + hi would pass i32 past 2^30 elements
            let half = hi
                .binary(BinaryOp::Add, &lo.unary(UnaryOp::Neg)?)?
                .binary(BinaryOp::Shr, &one)?;
            let mid = lo.binary(BinaryOp::Add, &half)?;
            let below = self.gather(last, &mid)?.binary(BinaryOp::CmpLt, targets)?;
            let step_up = open.binary(BinaryOp::And, &below)?;
            let step_down = open.binary(BinaryOp::And, &not(&below)?)?;
            lo = step_up.where_(&mid.binary(BinaryOp::Add, &one)?, &lo)?;
            hi = step_down.where_(&mid, &hi)?;
        }
        Ok(lo)
    }

    /// Groups each row's writes (`self`: integer positions, rows along the last axis; those
    /// outside `0..n` write nothing) by the position of an axis of `n` they name: a stable
    /// merge sort of (position, input index) records, then per position a binary search for
    /// the end of its group. `O((k + n) log k)` for `k` writes a row, where comparing every
    /// write with every position takes `k n`.
    pub fn writes_by_position(&self, n: usize) -> Result<PositionRuns> {
        let last = self.last_axis("writes_by_position")?;
        let k = self.shape()[last];
        // compared where `n` fits (u8 positions into an axis of 300); u32 positions past i32
        // wrap negative, outside as they were
        let pos = self.cast(self.dtype().position_dtype());
        let inside = not(&pos.binary(BinaryOp::CmpLt, &pos.constant_like(0, pos.dtype()))?)?
            .binary(
                BinaryOp::And,
                &pos.binary(BinaryOp::CmpLt, &pos.constant_like(n as i64, pos.dtype()))?,
            )?;
        let key = inside
            .where_(&pos, &pos.constant_like(n as i64, pos.dtype()))?
            .cast(DType::U32);
        let mut row = vec![1; self.ndim()];
        row[last] = k;
        let index = Lazy::arange_u32(k)?.reshape(&row)?.expand(self.shape())?;
        let word = |w: &Lazy, before: usize| -> Result<Lazy> {
            let mut shape = w.shape().to_vec();
            shape.push(1);
            let mut pads = vec![(0, 0); self.ndim()];
            pads.push((before, 1 - before));
            w.reshape(&shape)?.pad(&pads)
        };
        let records = word(&key, 0)?
            .binary(BinaryOp::Or, &word(&index, 1)?)?
            .merge_sort()?;
        let field = |w: usize| -> Result<Lazy> {
            let mut cut: Vec<(usize, usize)> = records.shape().iter().map(|&d| (0, d)).collect();
            cut[last + 1] = (w, w + 1);
            records
                .shrink(&cut)?
                .reshape(self.shape())?
                .bitcast(DType::I32)
        };
        let (sorted, order) = (field(0)?, field(1)?);
        let mut shape = self.shape().to_vec();
        shape[last] = n;
        let mut along = vec![1; self.ndim()];
        along[last] = n;
        let p = Lazy::arange_u32(n)?
            .bitcast(DType::I32)?
            .reshape(&along)?
            .expand(&shape)?;
        let one = p.constant_like(1, DType::I32);
        let end = sorted
            .lower_bound(&p.binary(BinaryOp::Add, &one)?)?
            .binary(BinaryOp::Add, &one.unary(UnaryOp::Neg)?)?;
        let found = not(&end.binary(BinaryOp::CmpLt, &end.constant_like(0, DType::I32))?)?.binary(
            BinaryOp::And,
            &sorted.gather(last, &end)?.binary(BinaryOp::CmpEq, &p)?,
        )?;
        Ok(PositionRuns {
            order,
            sorted,
            end,
            found,
        })
    }

    /// Running combinations (`combine`: associative, like a sum, product, maximum) of `self`
    /// within runs of equal `keys` along the last axis (`keys`: non-negative i32 whose equal
    /// values are contiguous, as `PositionRuns::sorted`, of `self`'s shape or broadcast to
    /// it): Hillis-Steele doubling,
    /// each step combining the value `d` back where its key is the same, `ceil(log2 k)` steps.
    /// A run's total ends at its last element, combined in a tree (for sums: no long chain of
    /// roundings, and no difference of prefix sums). Computed into a buffer: it is read at a
    /// position per slot, and slots often outnumber the writes (a vocabulary against a batch
    /// of ids), where recomputing the last steps per read would multiply the work.
    pub fn group_scan(
        &self,
        keys: &Lazy,
        combine: &dyn Fn(&Lazy, &Lazy) -> Result<Lazy>,
    ) -> Result<Lazy> {
        let last = self.last_axis("group_scan")?;
        let len = self.shape()[last];
        let shifted = |t: &Lazy, d: usize| -> Result<Lazy> {
            let mut pads = vec![(0, 0); t.ndim()];
            pads[last] = (d, 0);
            let keep: Vec<(usize, usize)> = t.shape().iter().map(|&s| (0, s)).collect();
            t.pad(&pads)?.shrink(&keep)
        };
        // keys + 1, so that the shift's padding (0) matches none
        let keys = keys.binary(BinaryOp::Add, &keys.constant_like(1, keys.dtype()))?;
        let mut acc = self.clone();
        let mut d = 1;
        while d < len {
            let same = keys
                .binary(BinaryOp::CmpEq, &shifted(&keys, d)?)?
                .expand(self.shape())?;
            acc = same.where_(&combine(&acc, &shifted(&acc, d)?)?, &acc)?;
            d *= 2;
        }
        Ok(acc.contiguous())
    }

    /// Each value summed into the position `index` (an integer tensor of this shape) holds
    /// along `axis`, in an axis of `n` (positions outside `0..n` add nothing): the transpose
    /// of [`Lazy::gather`], and its gradient. Two ways, by size (`one_hot_pays`): a one-hot
    /// mask of every value against every position, summed (one reduction, `k n` per row of `k`
    /// values), or [`Lazy::combine_at`] with a sum, 0 where nothing lands (a sort and a scan,
    /// `O((k + n) log k)` per row, about a dozen kernels: an embedding table's gradient as a
    /// one-hot product has the vocabulary as a side).
    pub fn sum_at(&self, axis: usize, index: &Lazy, n: usize) -> Result<Lazy> {
        check_positions("sum_at", self, axis, index)?;
        if one_hot_pays(self, axis, n, index.dtype()) {
            return self.one_hot_sum_at(axis, index, n);
        }
        let (sums, found) =
            self.grouped_at("sum_at", axis, index, n, &|a, b| a.binary(BinaryOp::Add, b))?;
        found.where_(&sums, &sums.constant_like(0, self.dtype()))
    }

    /// [`Lazy::sum_at`] as one reduction: a new axis of the `n` positions before `axis`, each
    /// summing the values whose index names it.
    fn one_hot_sum_at(&self, axis: usize, index: &Lazy, n: usize) -> Result<Lazy> {
        let shape = self.shape();
        let mut lifted = shape.to_vec();
        lifted.insert(axis, 1);
        let mut wide = shape.to_vec();
        wide.insert(axis, n);
        let mut slot_shape = vec![1; wide.len()];
        slot_shape[axis] = n;
        let slots = Lazy::arange_u32(n)?
            .cast(index.dtype())
            .reshape(&slot_shape)?
            .expand(&wide)?;
        let hit = index
            .reshape(&lifted)?
            .expand(&wide)?
            .binary(BinaryOp::CmpEq, &slots)?;
        let values = self.reshape(&lifted)?.expand(&wide)?;
        let mut out = shape.to_vec();
        out[axis] = n;
        hit.where_(&values, &values.constant_like(0, self.dtype()))?
            .reduce(ReduceOp::Add, &[axis + 1])?
            .reshape(&out)
    }

    /// The values landing on each position of an axis of `n` (the positions `index`, an
    /// integer tensor of this shape, holds along `axis`; those outside `0..n` land nowhere)
    /// combined with `combine` (associative), and whether any lands there (where none does,
    /// the first holds no meaning). Each row's positions grouped by position
    /// ([`Lazy::writes_by_position`]), the values combined within each group in that order
    /// ([`Lazy::group_scan`]) and read at the group's end. Axes `index` is an expand along (an
    /// embedding's columns) share one sort.
    pub fn combine_at(
        &self,
        axis: usize,
        index: &Lazy,
        n: usize,
        combine: &dyn Fn(&Lazy, &Lazy) -> Result<Lazy>,
    ) -> Result<(Lazy, Lazy)> {
        self.grouped_at("combine_at", axis, index, n, combine)
    }

    /// [`Lazy::combine_at`], its errors naming `op`.
    fn grouped_at(
        &self,
        op: &'static str,
        axis: usize,
        index: &Lazy,
        n: usize,
        combine: &dyn Fn(&Lazy, &Lazy) -> Result<Lazy>,
    ) -> Result<(Lazy, Lazy)> {
        check_positions(op, self, axis, index)?;
        let mut shape = self.shape().to_vec();
        shape[axis] = n;
        if self.numel() == 0 || n == 0 {
            return Ok((
                Lazy::constant(Scalar::Int(0).cast(self.dtype()), self.dtype(), &shape)?,
                Lazy::constant(false, DType::Bool, &shape)?,
            ));
        }
        // the axis last
        let r = self.ndim();
        let mut perm: Vec<usize> = (0..r).filter(|&a| a != axis).collect();
        perm.push(axis);
        let positions = match index.node().op() {
            Op::Expand if index.node().srcs()[0].shape()[axis] == index.shape()[axis] => {
                Lazy(index.node().srcs()[0].clone())
            }
            _ => index.clone(),
        };
        let runs = positions.permute(&perm)?.writes_by_position(n)?;
        let values = self.permute(&perm)?;
        let last = r - 1;
        let mut combined_shape = values.shape().to_vec();
        combined_shape[last] = n;
        let at = values
            .gather(last, &runs.order.expand(values.shape())?)?
            .group_scan(&runs.sorted, combine)?
            .gather(last, &runs.end.expand(&combined_shape)?)?;
        let back = tg_core::shape::movement::inverse_permutation(&perm);
        Ok((
            at.permute(&back)?,
            runs.found.expand(&combined_shape)?.permute(&back)?,
        ))
    }
}
