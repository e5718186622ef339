//! Static-shape rules of the movement ops that stable Rust cannot state as trait bounds
//! (dimension arithmetic), checked after monomorphization.
//!
//! Each rule is an associated const that panics with a message that starts with the user's
//! shapes, then names the op and the rule (`[2, 3] -> [4, 2]: reshape keeps the element count,
//! 6 vs 8 ...`), since rustc shows it under an "evaluation of `...check::Static<..>` failed"
//! line that points here, into tg. A typed op and its `try_` form both name the same const
//! (`let () = Static::<S, S2>::RESHAPE;`), so a wrong call is one error, and the compiler's
//! "encountered while instantiating" note points at the user's line. Such an error appears when
//! the crate is built (`cargo build`, `cargo test`), not under `cargo check`, which does not
//! monomorphize; `#[kernel]` checks the same rules while it expands. Dynamic dims pass here;
//! the run checks them.

use std::marker::PhantomData;

use crate::shape::Shape;
use crate::shape::axis::{InsertAxis, SelectAxis};
use crate::shape::ops::{PermuteAxes, is_permutation};

/// A message built at compile time: const panics take a `&str`, not format arguments.
struct Msg {
    buf: [u8; 512],
    len: usize,
}

impl Msg {
    const fn new() -> Self {
        Msg {
            buf: [0; 512],
            len: 0,
        }
    }

    const fn str(mut self, s: &str) -> Self {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() && self.len < self.buf.len() {
            self.buf[self.len] = b[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    const fn num(mut self, mut n: usize) -> Self {
        let mut digits = [0u8; 20];
        let mut k = 0;
        loop {
            digits[k] = b'0' + (n % 10) as u8;
            k += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        while k > 0 && self.len < self.buf.len() {
            k -= 1;
            self.buf[self.len] = digits[k];
            self.len += 1;
        }
        self
    }

    /// A shape as `[2, _, 3]` (`_` for a dynamic dim).
    const fn dims(mut self, dims: &[Option<usize>]) -> Self {
        self = self.str("[");
        let mut i = 0;
        while i < dims.len() {
            if i > 0 {
                self = self.str(", ");
            }
            self = match dims[i] {
                Some(n) => self.num(n),
                None => self.str("_"),
            };
            i += 1;
        }
        self.str("]")
    }

    const fn axes(mut self, axes: &[usize]) -> Self {
        self = self.str("[");
        let mut i = 0;
        while i < axes.len() {
            if i > 0 {
                self = self.str(", ");
            }
            self = self.num(axes[i]);
            i += 1;
        }
        self.str("]")
    }

    /// `<src> -> <dst>: <op><rule>`: the user's shapes first, the common form of the
    /// messages below.
    const fn shapes(op: &str, src: &[Option<usize>], rule: &str, dst: &[Option<usize>]) -> Self {
        Msg::new()
            .dims(src)
            .str(" -> ")
            .dims(dst)
            .str(": ")
            .str(op)
            .str(rule)
    }

    /// The end of every message: where the rule is checked, and the way around.
    const fn built(self) -> Self {
        self.str(" (checked when the crate is built; a #[kernel] body reports it in `cargo check`)")
    }

    const fn as_str(&self) -> &str {
        let (text, _) = self.buf.split_at(self.len);
        match std::str::from_utf8(text) {
            Ok(s) => s,
            Err(_) => "a static shape check failed",
        }
    }
}

/// Fails the const evaluation with a message. A macro, not a function, so that the panic is in
/// the rule's const item and the compiler's note shows no frames of this module.
macro_rules! fail {
    ($msg:expr) => {
        panic!("{}", $msg.as_str())
    };
}

const fn numel(dims: &[Option<usize>]) -> Option<usize> {
    crate::shape::numel_of(dims)
}

/// Whether two static element counts agree (unknown ones always do).
const fn numel_agree(a: &[Option<usize>], b: &[Option<usize>]) -> bool {
    match (numel(a), numel(b)) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    }
}

/// Whether two static-dims lists agree wherever both are static, except at `skip`.
const fn agree_except(a: &[Option<usize>], b: &[Option<usize>], skip: usize) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if i != skip
            && let (Some(x), Some(y)) = (a[i], b[i])
            && x != y
        {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `src` broadcasts to `dst` wherever both dims are static (aligned from the right).
const fn broadcast_agree(src: &[Option<usize>], dst: &[Option<usize>]) -> bool {
    if src.len() > dst.len() {
        return false;
    }
    let lead = dst.len() - src.len();
    let mut i = 0;
    while i < src.len() {
        if let (Some(s), Some(d)) = (src[i], dst[lead + i])
            && s != 1
            && s != d
        {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether each static dim of `a` is `<=` (or, with `grow` false, `>=`) that of `b`.
const fn sizes_ordered(a: &[Option<usize>], b: &[Option<usize>], grow: bool) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if let (Some(x), Some(y)) = (a[i], b[i])
            && ((grow && x > y) || (!grow && x < y))
        {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `out` is `src` with axis `axis` `n` times as long, wherever both are static.
const fn cat_agrees(src: &[Option<usize>], out: &[Option<usize>], axis: usize, n: usize) -> bool {
    if !agree_except(src, out, axis) {
        return false;
    }
    match (src[axis], out[axis]) {
        (Some(s), Some(o)) => s * n == o,
        _ => true,
    }
}

const fn numel_msg(op: &str, src: &[Option<usize>], dst: &[Option<usize>]) -> Msg {
    Msg::shapes(op, src, " keeps the element count: ", dst)
        .num(unwrap_or_zero(numel(src)))
        .str(" elements, not ")
        .num(unwrap_or_zero(numel(dst)))
        .built()
}

const fn unwrap_or_zero(n: Option<usize>) -> usize {
    match n {
        Some(n) => n,
        None => 0,
    }
}

const fn broadcast_msg(op: &str, src: &[Option<usize>], dst: &[Option<usize>]) -> Msg {
    Msg::shapes(
        op,
        src,
        " stretches only dims of 1 to the target's (aligned from the right)",
        dst,
    )
    .built()
}

const fn rank_msg(op: &str, src: &[Option<usize>], dst: &[Option<usize>]) -> Msg {
    Msg::shapes(op, src, " keeps the rank", dst).built()
}

/// The rules between a source shape `S` and a target shape `S2`.
pub(crate) struct Static<S, S2>(PhantomData<(S, S2)>);

impl<S: Shape, S2: Shape> Static<S, S2> {
    pub(crate) const RESHAPE: () = if !numel_agree(S::DIMS, S2::DIMS) {
        fail!(numel_msg("reshape", S::DIMS, S2::DIMS))
    };
    pub(crate) const RESHAPE_TO: () = if !numel_agree(S::DIMS, S2::DIMS) {
        fail!(numel_msg("reshape_to", S::DIMS, S2::DIMS))
    };

    pub(crate) const SQUEEZE_ALL: () = {
        if S2::RANK > S::RANK {
            fail!(Msg::shapes("squeeze_all", S::DIMS, " cannot add axes", S2::DIMS).built())
        }
        if !numel_agree(S::DIMS, S2::DIMS) {
            fail!(numel_msg("squeeze_all", S::DIMS, S2::DIMS))
        }
    };

    pub(crate) const FLATTEN_TO: () = {
        if S2::RANK < 1 || (S2::RANK > S::RANK && S::RANK != 0) {
            fail!(
                Msg::shapes(
                    "flatten_to",
                    S::DIMS,
                    " needs a target of 1 to as many axes",
                    S2::DIMS,
                )
                .built()
            )
        }
        if !numel_agree(S::DIMS, S2::DIMS) {
            fail!(numel_msg("flatten_to", S::DIMS, S2::DIMS))
        }
    };

    pub(crate) const UNFLATTEN_TO: () = {
        if S::RANK < 1 || S2::RANK < S::RANK {
            fail!(
                Msg::shapes(
                    "unflatten_to",
                    S::DIMS,
                    " needs a target of at least as many axes",
                    S2::DIMS,
                )
                .built()
            )
        }
        if !numel_agree(S::DIMS, S2::DIMS) {
            fail!(numel_msg("unflatten_to", S::DIMS, S2::DIMS))
        }
    };

    pub(crate) const BROADCAST_TO: () = if !broadcast_agree(S::DIMS, S2::DIMS) {
        fail!(broadcast_msg("broadcast_to", S::DIMS, S2::DIMS))
    };
    pub(crate) const EXPAND: () = if !broadcast_agree(S::DIMS, S2::DIMS) {
        fail!(broadcast_msg("expand", S::DIMS, S2::DIMS))
    };
    pub(crate) const EXPAND_TO: () = if !broadcast_agree(S::DIMS, S2::DIMS) {
        fail!(broadcast_msg("expand_to", S::DIMS, S2::DIMS))
    };

    pub(crate) const PAD: () = if S::RANK != S2::RANK {
        fail!(rank_msg("pad", S::DIMS, S2::DIMS))
    };
    pub(crate) const SHRINK: () = if S::RANK != S2::RANK {
        fail!(rank_msg("shrink", S::DIMS, S2::DIMS))
    };

    pub(crate) const PAD_TO: () = if !sizes_ordered(S::DIMS, S2::DIMS, true) {
        fail!(
            Msg::shapes(
                "pad_to",
                S::DIMS,
                " needs the same rank and no smaller dim",
                S2::DIMS
            )
            .built()
        )
    };

    pub(crate) const SHRINK_TO: () = if !sizes_ordered(S::DIMS, S2::DIMS, false) {
        fail!(
            Msg::shapes(
                "shrink_to",
                S::DIMS,
                " needs the same rank and no larger dim",
                S2::DIMS
            )
            .built()
        )
    };

    pub(crate) const REPEAT: () = if S2::RANK < S::RANK {
        fail!(Msg::shapes("repeat", S::DIMS, " cannot remove axes", S2::DIMS).built())
    };
}

/// The rules of ops along an existing axis `A` of `S`.
pub(crate) struct AlongAxis<S, S2, const A: isize>(PhantomData<(S, S2)>);

impl<S: SelectAxis<A>, S2: Shape, const A: isize> AlongAxis<S, S2, A> {
    pub(crate) const CAT: () = if !cat_agrees(S::DIMS, S2::DIMS, <S as SelectAxis<A>>::AXIS, 2) {
        fail!(
            Msg::shapes("cat", S::DIMS, " of two sources doubles axis ", S2::DIMS)
                .num(<S as SelectAxis<A>>::AXIS)
                .str(" and keeps the others")
                .built()
        )
    };

    pub(crate) const CONCAT: () = if !agree_except(S::DIMS, S2::DIMS, <S as SelectAxis<A>>::AXIS) {
        fail!(
            Msg::shapes("concat", S::DIMS, " keeps every axis but ", S2::DIMS)
                .num(<S as SelectAxis<A>>::AXIS)
                .built()
        )
    };

    pub(crate) const REPEAT_INTERLEAVE: () =
        if !agree_except(S::DIMS, S2::DIMS, <S as SelectAxis<A>>::AXIS) {
            fail!(
                Msg::shapes(
                    "repeat_interleave",
                    S::DIMS,
                    " keeps every axis but ",
                    S2::DIMS
                )
                .num(<S as SelectAxis<A>>::AXIS)
                .str(", the repeated one")
                .built()
            )
        };
}

impl<S: InsertAxis<A>, S2: Shape, const A: isize> AlongAxis<S, S2, A> {
    pub(crate) const STACK: () = if !agree_except(
        <S as InsertAxis<A>>::Output::DIMS,
        S2::DIMS,
        <S as InsertAxis<A>>::AXIS,
    ) {
        fail!(
            Msg::shapes("stack", S::DIMS, " adds one axis, at ", S2::DIMS)
                .num(<S as InsertAxis<A>>::AXIS)
                .str(", to the sources' shape")
                .built()
        )
    };
}

/// The rule of `permute::<P>()`: no axis twice (the range is a trait bound).
pub(crate) struct Permutation<S, P>(PhantomData<(S, P)>);

impl<S: PermuteAxes<P>, P> Permutation<S, P> {
    pub(crate) const DISTINCT: () = if !is_permutation(<S as PermuteAxes<P>>::ORDER) {
        fail!(
            Msg::new()
                .dims(S::DIMS)
                .str(" permuted by ")
                .axes(<S as PermuteAxes<P>>::ORDER)
                .str(": permute names an axis twice")
                .built()
        )
    };
}
