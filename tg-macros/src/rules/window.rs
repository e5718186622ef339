//! The arguments of the sliding-window ops (conv and pool): sizes given once or per spatial
//! axis, padding, and the dtype a convolution computes in. The window arithmetic itself is
//! tg-core's (`shape::window`).

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Error, Result};
use tg_core::DType;

use super::args;
use crate::kernel::value::Arg;
use crate::sym::Poly;

/// `Vec<usize>` code for literal sizes.
pub(super) fn sizes_code(v: &[i64]) -> TokenStream {
    let items = v.iter().map(|&x| quote!(#x as usize));
    quote!(::std::vec![#(#items),*])
}

/// `::tg::Padding::Pairs` code.
pub(super) fn pads_code(v: &[(i64, i64)]) -> TokenStream {
    let items = v.iter().map(|&(a, b)| quote!((#a as isize, #b as isize)));
    quote!(::tg::Padding::Pairs(::std::vec![#(#items),*]))
}

/// A convolution's dtype: products in the operands' dtype, summed as `sum` sums (integers in
/// their accumulation dtype), then the bias added (which promotes).
pub(super) fn conv_dtype(meet: DType, bias: Option<DType>) -> DType {
    let out = if meet.is_float() {
        meet
    } else {
        meet.sum_dtype()
    };
    bias.map_or(out, |b| out.least_upper(b))
}

/// The largest kernel, stride or size a literal may give: far beyond any real tensor, and
/// small enough that the size arithmetic cannot overflow.
pub(super) const MAX_SIZE: i64 = i32::MAX as i64;

/// Window sizes, strides and dilations are at least 1 (tg-ops rejects a zero; a negative
/// would wrap in the emitted `as usize`).
pub(super) fn positive(op: &str, what: &str, v: &[i64], span: Span) -> Result<()> {
    in_range(op, what, v, 1, span)
}

/// Each of `v` in `min..=MAX_SIZE`.
pub(super) fn in_range(op: &str, what: &str, v: &[i64], min: i64, span: Span) -> Result<()> {
    if let Some(x) = v.iter().find(|&&x| x < min || x > MAX_SIZE) {
        return Err(Error::new(
            span,
            format!("`{op}`: {what} {v:?} has {x}; each must be in {min}..={MAX_SIZE}"),
        ));
    }
    Ok(())
}

/// Padding amounts within `±MAX_SIZE`, so that the size arithmetic cannot overflow.
pub(super) fn pads_in_range(op: &str, pads: &[(i64, i64)], span: Span) -> Result<()> {
    if pads
        .iter()
        .any(|&(a, b)| a.abs() > MAX_SIZE || b.abs() > MAX_SIZE)
    {
        return Err(Error::new(
            span,
            format!("`{op}`: padding {pads:?} is out of range"),
        ));
    }
    Ok(())
}

/// The span of keyword argument `name`, or `span`.
pub(super) fn arg_span(kw: &[Arg], name: &str, span: Span) -> Span {
    args::pick(kw, &[], name, usize::MAX).map_or(span, |a| a.span)
}

/// The keyword argument `name`: one size for every spatial axis or one per axis, each `>= min`.
pub(super) fn keyword_sizes(
    op: &str,
    kw: &[Arg],
    name: &str,
    default: i64,
    min: i64,
    dims: usize,
    span: Span,
) -> Result<Vec<i64>> {
    let sizes = args::sizes(
        op,
        args::pick_once(op, kw, &[], name, usize::MAX)?,
        default,
        dims,
    )?;
    in_range(op, name, &sizes, min, arg_span(kw, name, span))?;
    Ok(sizes)
}

/// `&[usize]` code for (possibly symbolic) sizes.
pub(super) fn usizes_code(v: &[Poly]) -> TokenStream {
    let items = v.iter().map(|p| {
        let c = p.to_tokens(&|_| quote!(0usize));
        quote!((#c) as usize)
    });
    quote!(&[#(#items),*])
}

/// Sizes that must not be negative: an error for a negative constant.
pub(super) fn sizes_not_negative(op: &str, what: &str, v: &[Poly], span: Span) -> Result<()> {
    if let Some(x) = v
        .iter()
        .filter_map(Poly::as_const)
        .find(|&x| !(0..=MAX_SIZE).contains(&x))
    {
        return Err(Error::new(
            span,
            format!(
                "`{op}`: {what} [{}] has {x}; sizes must be in 0..={MAX_SIZE}",
                v.iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    Ok(())
}

/// Literal sizes as tg-core's `Sizes` (checked non-negative by `positive`/`in_range` first).
pub(super) fn sizes(v: &[i64]) -> tg_core::shape::window::Sizes {
    tg_core::shape::window::Sizes(v.iter().map(|&x| x.max(0) as usize).collect())
}

/// Literal pads as tg-core's `Padding` (checked in range by `pads_in_range` first).
pub(super) fn padding(pads: &[(i64, i64)]) -> tg_core::shape::window::Padding {
    tg_core::shape::window::Padding::Pairs(
        pads.iter()
            .map(|&(a, b)| (a as isize, b as isize))
            .collect(),
    )
}
