//! Movement ops: views (reshape, permute, ...), padding, joins and splits, repeats and the
//! diagonal. Each output shape is tg-core's movement rule applied to the symbolic dims, as
//! tg-ops applies it at run time; what it cannot decide while expanding is asserted after
//! monomorphization or checked by the run.

mod join;
mod pad;
mod repeat;
mod view;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::{Error, Result};
use tg_core::DType;

use super::{args, ops};
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val};
use crate::sym::Poly;

ops! {
    /// The movement ops.
    pub enum MovementOp {
        Reshape = "reshape",
        Permute = "permute",
        Transpose = "transpose",
        T = "t",
        Expand = "expand",
        BroadcastTo = "broadcast_to",
        Squeeze = "squeeze",
        Unsqueeze = "unsqueeze",
        Flatten = "flatten",
        Unflatten = "unflatten",
        Flip = "flip",
        Pad = "pad",
        PadWith = "pad_with",
        PadFlat = "pad_flat",
        PadTo = "pad_to",
        Shrink = "shrink",
        Repeat = "repeat",
        RepeatInterleave = "repeat_interleave",
        Roll = "roll",
        Diagonal = "diagonal",
        Cat = "cat",
        Stack = "stack",
        Chunk = "chunk",
        Split = "split",
    }
}

/// The receiver of a movement op, and the op's arguments.
pub(super) struct Call {
    op: &'static str,
    shape: Vec<Poly>,
    dtype: DType,
    code: TokenStream,
    recv: Arg,
    args: Vec<Arg>,
    span: Span,
}

impl Call {
    /// The span of argument `i`, or the call's.
    fn at(&self, i: usize) -> Span {
        self.args.get(i).map_or(self.span, |a| a.span)
    }

    /// Checks the argument count.
    fn count(&self, min: usize, max: usize) -> Result<()> {
        args::count(self.op, &self.args, min, max, self.span)
    }

    /// Literal integer argument `i`, or `default`.
    fn int_or(&self, i: usize, default: isize) -> Result<isize> {
        self.args
            .get(i)
            .map_or(Ok(default), |a| args::isize_arg(self.op, a))
    }
}

pub fn apply(ctx: &mut Ctx, op: MovementOp, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let name = op.name();
    let (shape, dtype, code) = args::tensor(name, &recv)?;
    let c = Call {
        op: name,
        shape: shape.to_vec(),
        dtype,
        code: code.clone(),
        recv: recv.clone(),
        args,
        span,
    };
    match op {
        MovementOp::Reshape => view::reshape(ctx, c),
        MovementOp::Permute => view::permute(ctx, c),
        MovementOp::Transpose => view::transpose(ctx, c),
        MovementOp::T => view::t(ctx, c),
        MovementOp::Expand => view::expand(ctx, c, false),
        MovementOp::BroadcastTo => view::expand(ctx, c, true),
        MovementOp::Squeeze => view::squeeze(ctx, c),
        MovementOp::Unsqueeze => view::unsqueeze(ctx, c),
        MovementOp::Flatten => view::flatten(ctx, c),
        MovementOp::Unflatten => view::unflatten(ctx, c),
        MovementOp::Flip => view::flip(ctx, c),
        MovementOp::Pad => pad::pad(ctx, c),
        MovementOp::PadWith => pad::pad_with(ctx, c),
        MovementOp::PadFlat => pad::pad_flat(ctx, c),
        MovementOp::PadTo => pad::pad_to(ctx, c),
        MovementOp::Shrink => pad::shrink(ctx, c),
        MovementOp::Repeat => repeat::repeat(ctx, c),
        MovementOp::RepeatInterleave => repeat::repeat_interleave(ctx, c),
        MovementOp::Roll => repeat::roll(ctx, c),
        MovementOp::Diagonal => repeat::diagonal(ctx, c),
        MovementOp::Cat => join::cat(ctx, c, false),
        MovementOp::Stack => join::cat(ctx, c, true),
        MovementOp::Chunk => join::chunk(ctx, c),
        MovementOp::Split => join::split(ctx, c),
    }
}

/// `usize` code for a dim: a plain literal when it is one, else the polynomial.
fn usize_code(p: &Poly) -> TokenStream {
    match p.as_const() {
        Some(n) => {
            let l = proc_macro2::Literal::usize_suffixed(n.max(0) as usize);
            quote!(#l)
        }
        None => p.to_tokens(&|_| quote!(0usize)),
    }
}

/// `(before, after)` pairs as tg-ops takes them.
fn pairs(op: &str, a: &Arg) -> Result<Vec<(isize, isize)>> {
    args::pairs(op, a)?
        .into_iter()
        .map(|(b, e)| {
            let f = |v: i64| {
                isize::try_from(v)
                    .map_err(|_| Error::new(a.span, format!("`{op}`: {v} is out of range")))
            };
            Ok((f(b)?, f(e)?))
        })
        .collect()
}

/// `&[(isize, isize)]` code.
fn pairs_code(v: &[(isize, isize)]) -> TokenStream {
    let items = v.iter().map(|&(b, a)| {
        let (b, a) = (b as i64, a as i64);
        quote!((#b as isize, #a as isize))
    });
    quote!(&[#(#items),*])
}

/// The most tensors one `chunk` or `split` may give: each becomes a local of the kernel.
const MAX_PIECES: usize = 1024;

/// An error when a split gives more than `MAX_PIECES` tensors.
fn few_pieces(op: &str, n: usize, span: Span) -> Result<()> {
    if n > MAX_PIECES {
        return Err(Error::new(
            span,
            format!(
                "`{op}` would give {n} tensors; a kernel takes at most {MAX_PIECES} from one split"
            ),
        ));
    }
    Ok(())
}

/// Binds a `Result<Vec<DynTensor>>` expression once and each piece to a fresh local: a list
/// value, so `let (a, b) = x.split(..)` and `.0` work as for pairs.
fn bind_list(ctx: &mut Ctx, shapes: Vec<Vec<Poly>>, dtype: DType, code: TokenStream) -> Val {
    // `stmts` grows with every binding, so its length names this one uniquely
    let parts = format_ident!("__parts{}", ctx.stmts.len());
    ctx.stmts
        .push(quote!(let #parts: ::std::vec::Vec<::tg::DynTensor> = #code?;));
    Val::List(
        shapes
            .into_iter()
            .enumerate()
            .map(|(i, s)| ctx.bind(s, dtype, quote!(Ok::<_, ::tg::Error>(#parts[#i].clone()))))
            .collect(),
    )
}
