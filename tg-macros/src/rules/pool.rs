//! Pooling: `max_pool2d`, `avg_pool2d`, `max_pool2d_with_indices` (any number of spatial
//! axes, the last `kernel.len()` of the input) and `max_unpool2d`. The output sizes are
//! tg-core's window rule (`shape::window::pool`), as tg-ops computes them.

use proc_macro2::Span;
use quote::quote;
use syn::{Error, Result};
use tg_core::DType;
use tg_core::shape::window::{self, Window};

use super::args::{self, Input};
use super::ops;
use super::window::{
    arg_span, keyword_sizes, pads_code, pads_in_range, positive, sizes_code, sizes_not_negative,
    usizes_code,
};
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val, show_shape};
use crate::sym::Poly;

ops! {
    /// The pooling ops.
    pub enum PoolOp {
        MaxPool2d = "max_pool2d",
        AvgPool2d = "avg_pool2d",
        MaxPool2dWithIndices = "max_pool2d_with_indices",
        MaxUnpool2d = "max_unpool2d",
    }
}

pub fn apply(ctx: &mut Ctx, op: PoolOp, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let (shape, dtype, code) = args::tensor(op.name(), &recv)?;
    let (shape, code) = (shape.to_vec(), code.clone());
    let x = (shape.as_slice(), dtype, &code);
    match op {
        PoolOp::MaxPool2d => pool(ctx, Pooling::Max, x, args, span),
        PoolOp::AvgPool2d => pool(ctx, Pooling::Avg, x, args, span),
        PoolOp::MaxPool2dWithIndices => pool(ctx, Pooling::MaxWithIndices, x, args, span),
        PoolOp::MaxUnpool2d => max_unpool2d(ctx, x, &recv, args, span),
    }
}

/// What a pooling window gives.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Pooling {
    Max,
    Avg,
    MaxWithIndices,
}

impl Pooling {
    fn name(self) -> &'static str {
        match self {
            Pooling::Max => PoolOp::MaxPool2d.name(),
            Pooling::Avg => PoolOp::AvgPool2d.name(),
            Pooling::MaxWithIndices => PoolOp::MaxPool2dWithIndices.name(),
        }
    }
}

/// `x.max_pool2d(kernel = [2, 2], stride =, padding =, dilation =, ceil_mode =)`, and
/// `avg_pool2d` (with `count_include_pad`), `max_pool2d_with_indices` (also the flat i32
/// indices of the maxima).
fn pool(
    ctx: &mut Ctx,
    op: Pooling,
    (shape, dtype, code): Input,
    args: Vec<Arg>,
    span: Span,
) -> Result<Val> {
    let name = op.name();
    let known: &[&str] = if op == Pooling::Avg {
        &[
            "kernel",
            "stride",
            "padding",
            "dilation",
            "ceil_mode",
            "count_include_pad",
        ]
    } else {
        &["kernel", "stride", "padding", "dilation", "ceil_mode"]
    };
    let (pos, kw) = args::split(name, args, known, 1, span)?;
    // a single size means both axes of the 2-D window, as tinygrad's make_tuple(k, 2)
    let kernel = match args::pick(&kw, &pos, "kernel", 0) {
        Some(a) if !matches!(a.val, Val::List(_)) => vec![args::int(name, a)?; 2],
        Some(a) => args::ints(name, a)?,
        None => vec![2, 2],
    };
    let dims = kernel.len();
    let kspan = args::pick(&kw, &pos, "kernel", 0).map_or(span, |a| a.span);
    if dims == 0 {
        return Err(Error::new(
            kspan,
            format!("`{name}`: the kernel needs at least one spatial axis"),
        ));
    }
    let stride = match args::pick(&kw, &[], "stride", usize::MAX) {
        Some(a) => args::sizes(name, Some(a), 1, dims)?,
        None => kernel.clone(),
    };
    let dilation = args::sizes(name, args::pick(&kw, &[], "dilation", usize::MAX), 1, dims)?;
    let pads = args::padding(name, args::pick(&kw, &[], "padding", usize::MAX), dims)?;
    positive(name, "kernel", &kernel, kspan)?;
    positive(name, "stride", &stride, arg_span(&kw, "stride", span))?;
    positive(name, "dilation", &dilation, arg_span(&kw, "dilation", span))?;
    pads_in_range(name, &pads, arg_span(&kw, "padding", span))?;
    let ceil = args::pick(&kw, &[], "ceil_mode", usize::MAX)
        .map(|a| args::boolean(name, a))
        .transpose()?
        .unwrap_or(false);
    let cip = args::pick(&kw, &[], "count_include_pad", usize::MAX)
        .map(|a| args::boolean(name, a))
        .transpose()?
        .unwrap_or(true);
    let usizes = |v: &[i64]| v.iter().map(|&x| x as usize).collect::<Vec<usize>>();
    let out = ctx.rule(span, |ck| {
        let w = Window::new(name, usizes(&kernel), usizes(&stride), usizes(&dilation))?;
        let pads: Vec<(isize, isize)> = pads
            .iter()
            .map(|&(a, b)| (a as isize, b as isize))
            .collect();
        window::pool(ck, name, shape, &w, &pads, ceil)
    })?;
    let lead = shape.len() - dims;
    let (k, st, dl, pd) = (
        sizes_code(&kernel),
        sizes_code(&stride),
        sizes_code(&dilation),
        pads_code(&pads),
    );
    let options =
        quote!(&::tg::Pool::new(#k).stride(#st).dilation(#dl).padding(#pd).ceil_mode(#ceil));
    match op {
        Pooling::MaxWithIndices => {
            // the indices are flat over the spatial axes, as i32
            let n = Poly::product(&shape[lead..]);
            if n.as_const().is_some_and(|n| n > i32::MAX as i64) {
                return Err(Error::new(
                    span,
                    format!(
                        "`{name}`: the spatial axes of {} have {n} elements, too many for i32 indices",
                        show_shape(shape)
                    ),
                ));
            }
            Ok(ctx.bind_pair(
                (out.clone(), dtype),
                (out, DType::I32),
                quote!(#code.max_pool2d_with_indices(#options)),
            ))
        }
        Pooling::Avg => Ok(ctx.bind(
            out,
            dtype.float_of(),
            quote!(#code.avg_pool2d(#options.count_include_pad(#cip))),
        )),
        Pooling::Max => Ok(ctx.bind(out, dtype, quote!(#code.max_pool2d(#options)))),
    }
}

/// `v.max_unpool2d(indices, kernel, stride =, padding =, dilation =, output_size =)`: the
/// values and indices of `max_pool2d_with_indices` placed in a zero tensor of the pooled
/// input's spatial size (the pool's arithmetic inverted, or the last entries of
/// `output_size`). Values are summed, so the dtype is `sum`'s.
fn max_unpool2d(
    ctx: &mut Ctx,
    (shape, dtype, code): Input,
    recv: &Arg,
    args: Vec<Arg>,
    span: Span,
) -> Result<Val> {
    const OP: &str = "max_unpool2d";
    let (pos, kw) = args::split(
        OP,
        args,
        &[
            "indices",
            "kernel",
            "stride",
            "padding",
            "dilation",
            "output_size",
        ],
        2,
        span,
    )?;
    if shape.len() < 3 {
        return Err(Error::new(
            recv.span,
            format!(
                "`max_unpool2d` needs values (N, C, spatial..), got shape {}",
                show_shape(shape)
            ),
        ));
    }
    let ia = args::pick_once(OP, &kw, &pos, "indices", 0)?.ok_or_else(|| {
        Error::new(
            span,
            "`max_unpool2d` needs the indices from `max_pool2d_with_indices`",
        )
    })?;
    let (is, idt, ic) = args::tensor(OP, ia)?;
    let (is, ic) = (is.to_vec(), ic.clone());
    if is.len() != shape.len() {
        return Err(Error::new(
            ia.span,
            format!(
                "`max_unpool2d`: indices of shape {} for values of shape {}",
                show_shape(&is),
                show_shape(shape)
            ),
        ));
    }
    for (a, (x, y)) in is.iter().zip(shape).enumerate() {
        ctx.require_equal(x, y, ia.span, || {
            format!(
                "`max_unpool2d`: indices of shape {} for values of shape {}: axis {a} is {x}, not {y}",
                show_shape(&is),
                show_shape(shape)
            )
        })?;
    }
    if !idt.is_int() {
        return Err(Error::new(
            ia.span,
            format!(
                "`max_unpool2d` takes integer indices, not {}",
                idt.rust_name()
            ),
        ));
    }
    let dims = shape.len() - 2;
    let kspan = arg_span(&kw, "kernel", pos.get(1).map_or(span, |a| a.span));
    let kernel = args::sizes(OP, args::pick_once(OP, &kw, &pos, "kernel", 1)?, 2, dims)?;
    positive(OP, "kernel", &kernel, kspan)?;
    let stride = match args::pick_once(OP, &kw, &[], "stride", usize::MAX)? {
        Some(a) => args::sizes(OP, Some(a), 1, dims)?,
        None => kernel.clone(),
    };
    positive(OP, "stride", &stride, arg_span(&kw, "stride", span))?;
    let dilation = keyword_sizes(OP, &kw, "dilation", 1, 1, dims, span)?;
    let pads = args::padding(
        OP,
        args::pick_once(OP, &kw, &[], "padding", usize::MAX)?,
        dims,
    )?;
    pads_in_range(OP, &pads, arg_span(&kw, "padding", span))?;
    let mut out = shape[..2].to_vec();
    let size_code = match args::pick_once(OP, &kw, &[], "output_size", usize::MAX)? {
        Some(a) => {
            let sz = args::polys(OP, a)?;
            if sz.len() < dims {
                return Err(Error::new(
                    a.span,
                    format!(
                        "`max_unpool2d`: output_size has {} entries, fewer than the {dims} spatial axes of {}",
                        sz.len(),
                        show_shape(shape)
                    ),
                ));
            }
            sizes_not_negative(OP, "output_size", &sz, a.span)?;
            out.extend(sz[sz.len() - dims..].iter().cloned());
            let c = usizes_code(&sz);
            quote!(Some(#c))
        }
        None => {
            for a in 0..dims {
                let extent = dilation[a] * (kernel[a] - 1) + 1;
                let size = shape[2 + a]
                    .sub(&Poly::constant(1))
                    .scale(stride[a])
                    .add(&Poly::constant(extent - pads[a].0 - pads[a].1));
                if let Some(n) = size.as_const()
                    && n < 0
                {
                    return Err(Error::new(
                        span,
                        format!(
                            "`max_unpool2d`: kernel {kernel:?}, stride {stride:?} and padding {pads:?} give a negative size {n} on spatial axis {} of {}",
                            2 + a,
                            show_shape(shape)
                        ),
                    ));
                }
                out.push(size);
            }
            quote!(None)
        }
    };
    let (k, st, dl, pd) = (
        sizes_code(&kernel),
        sizes_code(&stride),
        sizes_code(&dilation),
        pads_code(&pads),
    );
    Ok(ctx.bind(
        out,
        dtype.sum_dtype(),
        quote!(#code.max_unpool2d(&#ic, &::tg::Pool::new(#k).stride(#st).dilation(#dl).padding(#pd), #size_code)),
    ))
}
