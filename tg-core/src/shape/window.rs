//! Sliding windows (convolution and pooling): the arguments given once for every spatial axis
//! or once per axis, padding in tinygrad's forms, and each spatial axis's output size
//! `(input + pads - dilation * (kernel - 1) - 1) / stride + 1` (rounded up with `ceil_mode`,
//! without a window that starts in the padding alone).

use crate::check::Checker;
use crate::dim::Dim;
use crate::dtype::DType;
use crate::error::{RuleError, argument_error, shape_error};
use crate::ops::{At, Fault, OpError, Place};

use super::{overflow, show, times};

/// Sizes given once for every spatial axis or once per axis (strides, dilations).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sizes(pub Vec<usize>);

impl Sizes {
    /// One size per spatial axis.
    pub fn resolve<D>(
        &self,
        op: &'static str,
        what: &str,
        dims: usize,
    ) -> Result<Vec<usize>, RuleError<D>> {
        match self.0.len() {
            1 => Ok(vec![self.0[0]; dims]),
            n if n == dims => Ok(self.0.clone()),
            n => Err(argument_error(
                op,
                format!("{what} {:?} has {n} values for {dims} spatial axes", self.0),
            )),
        }
    }
}

impl From<usize> for Sizes {
    fn from(v: usize) -> Self {
        Sizes(vec![v])
    }
}

impl From<&[usize]> for Sizes {
    fn from(v: &[usize]) -> Self {
        Sizes(v.to_vec())
    }
}

impl<const N: usize> From<[usize; N]> for Sizes {
    fn from(v: [usize; N]) -> Self {
        Sizes(v.to_vec())
    }
}

impl<const N: usize> From<&[usize; N]> for Sizes {
    fn from(v: &[usize; N]) -> Self {
        Sizes(v.to_vec())
    }
}

impl From<Vec<usize>> for Sizes {
    fn from(v: Vec<usize>) -> Self {
        Sizes(v)
    }
}

/// Padding of the spatial axes, in tinygrad's forms. A negative amount cuts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Padding {
    /// The same amount before and after every spatial axis.
    Uniform(isize),
    /// One amount per spatial axis, before and after.
    PerAxis(Vec<isize>),
    /// torch's flat form: `(before, after)` from the last spatial axis backwards.
    Flat(Vec<isize>),
    /// `(before, after)` per spatial axis, in order.
    Pairs(Vec<(isize, isize)>),
}

impl Default for Padding {
    fn default() -> Self {
        Padding::Uniform(0)
    }
}

impl Padding {
    /// One `(before, after)` pair per spatial axis.
    pub fn resolve<D>(
        &self,
        op: &'static str,
        dims: usize,
    ) -> Result<Vec<(isize, isize)>, RuleError<D>> {
        let wrong = |n: usize, want: usize| {
            argument_error(
                op,
                format!("padding {self:?} has {n} values; {dims} spatial axes need {want}"),
            )
        };
        Ok(match self {
            Padding::Uniform(p) => vec![(*p, *p); dims],
            Padding::PerAxis(v) if v.len() == dims => v.iter().map(|&p| (p, p)).collect(),
            Padding::PerAxis(v) => return Err(wrong(v.len(), dims)),
            Padding::Flat(v) if v.len() == 2 * dims => {
                v.chunks(2).rev().map(|c| (c[0], c[1])).collect()
            }
            Padding::Flat(v) => return Err(wrong(v.len(), 2 * dims)),
            Padding::Pairs(v) if v.len() == dims => v.clone(),
            Padding::Pairs(v) => return Err(wrong(v.len(), dims)),
        })
    }
}

impl From<isize> for Padding {
    fn from(p: isize) -> Self {
        Padding::Uniform(p)
    }
}

impl From<i32> for Padding {
    fn from(p: i32) -> Self {
        Padding::Uniform(p as isize)
    }
}

impl From<usize> for Padding {
    fn from(p: usize) -> Self {
        Padding::Uniform(p as isize)
    }
}

impl From<Vec<(isize, isize)>> for Padding {
    fn from(p: Vec<(isize, isize)>) -> Self {
        Padding::Pairs(p)
    }
}

impl<const N: usize> From<[(isize, isize); N]> for Padding {
    fn from(p: [(isize, isize); N]) -> Self {
        Padding::Pairs(p.to_vec())
    }
}

/// A window's kernel, stride and dilation per spatial axis, each at least 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    /// Kernel size per spatial axis.
    pub kernel: Vec<usize>,
    /// Step between windows per spatial axis.
    pub stride: Vec<usize>,
    /// Step between a window's elements per spatial axis.
    pub dilation: Vec<usize>,
}

impl Window {
    /// Checks the sizes: one kernel size at least, all of one length, none zero, and every
    /// window's extent countable.
    pub fn new<D>(
        op: &'static str,
        kernel: Vec<usize>,
        stride: Vec<usize>,
        dilation: Vec<usize>,
    ) -> Result<Window, RuleError<D>> {
        if kernel.is_empty() {
            return Err(argument_error(
                op,
                "the kernel needs at least one spatial axis",
            ));
        }
        if stride.len() != kernel.len() || dilation.len() != kernel.len() {
            return Err(argument_error(
                op,
                format!(
                    "kernel {kernel:?}, stride {stride:?} and dilation {dilation:?} differ in length"
                ),
            ));
        }
        for (what, v) in [
            ("kernel", &kernel),
            ("stride", &stride),
            ("dilation", &dilation),
        ] {
            if v.contains(&0) {
                return Err(argument_error(op, format!("{what} {v:?} has a zero")));
            }
        }
        let w = Window {
            kernel,
            stride,
            dilation,
        };
        if w.checked_extent().is_none() {
            return Err(argument_error(
                op,
                format!(
                    "kernel {:?} with dilation {:?} spans more elements than 64 bits count",
                    w.kernel, w.dilation
                ),
            ));
        }
        Ok(w)
    }

    fn checked_extent(&self) -> Option<Vec<usize>> {
        self.kernel
            .iter()
            .zip(&self.dilation)
            .map(|(&k, &d)| d.checked_mul(k - 1)?.checked_add(1))
            .collect()
    }

    /// The elements one window spans per axis: `dilation * (kernel - 1) + 1`.
    pub fn extent(&self) -> Vec<usize> {
        // `new` checked that this does not overflow
        self.checked_extent().unwrap_or_default()
    }

    /// The number of spatial axes.
    pub fn dims(&self) -> usize {
        self.kernel.len()
    }
}

/// tinygrad's `ceil_mode`: the `after` pad that makes the floor rule give the ceiling output,
/// without a last window that starts in the padding alone. `input` is the axis size, `pad`
/// its pads, `extent` and `stride` the window's.
pub fn ceil_mode_after(input: usize, pad: (isize, isize), extent: usize, stride: usize) -> isize {
    let (i, (pb, pa)) = (input as i64, (pad.0 as i64, pad.1 as i64));
    let (s, e) = (stride as i64, extent as i64);
    // ceil((i + pads - e) / s) + 1
    let o = -(-(i + pb + pa - e)).div_euclid(s) + 1;
    let last_start = s * (o - 1);
    let past = (last_start - (pb + i - 1)).max(0);
    (last_start + e - i - pb - past) as isize
}

/// The output size of one spatial axis of `shape` (axis `axis`) under window `w` (its axis
/// `k`), padded by `pad`.
#[allow(clippy::too_many_arguments)]
fn axis_out<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    axis: usize,
    w: &Window,
    k: usize,
    pad: (isize, isize),
    ceil: bool,
) -> Result<D, RuleError<D>> {
    let input = &shape[axis];
    let extent = w.extent()[k];
    let (stride, kernel, dilation) = (w.stride[k], w.kernel[k], w.dilation[k]);
    let pads = (pad.0 as i64)
        .checked_add(pad.1 as i64)
        .ok_or_else(|| argument_error(op, format!("padding {pad:?} is out of range")))?;
    let too_small = || {
        shape_error(
            op,
            format!(
                "the window of {extent} (kernel {kernel}, dilation {dilation}) does not fit axis {axis} of size {input} with padding {pad:?} (input {})",
                show(shape)
            ),
        )
    };
    let padded = input.offset(pads).ok_or_else(too_small)?;
    ck.at_most(&D::lit(extent), &padded, too_small)?;
    let span = padded.offset(-(extent as i64)).ok_or_else(too_small)?;
    if ceil {
        let Some(i) = input.known() else {
            return Err(shape_error(
                op,
                format!("ceil_mode needs a literal size on axis {axis} (it is {input})"),
            ));
        };
        let after = ceil_mode_after(i, pad, extent, stride);
        let n = (i as i64 + pad.0 as i64 + after as i64 - extent as i64).max(0) as usize;
        return Ok(D::lit(n / stride + 1));
    }
    span.div_floor(stride)
        .checked_add(&D::lit(1))
        .ok_or_else(too_small)
}

/// The output shape of a pooling window over the trailing `w.dims()` axes of `shape` (the
/// leading axes are kept).
pub fn pool<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    w: &Window,
    pads: &[(isize, isize)],
    ceil: bool,
) -> Result<Vec<D>, RuleError<D>> {
    let dims = w.dims();
    if shape.len() < dims {
        return Err(shape_error(
            op,
            format!(
                "a {dims}-D window on a tensor of shape {} (kernel {:?}): too few axes",
                show(shape),
                w.kernel
            ),
        ));
    }
    if pads.len() != dims {
        return Err(argument_error(
            op,
            format!("{} padding pairs for {dims} spatial axes", pads.len()),
        ));
    }
    let lead = shape.len() - dims;
    let mut out = shape[..lead].to_vec();
    for (k, &pad) in pads.iter().enumerate() {
        out.push(axis_out(ck, op, shape, lead + k, w, k, pad, ceil)?);
    }
    Ok(out)
}

/// A convolution's channels: `x` is `(batch, channels, *spatial)`, `weight` is `(out_channels,
/// channels / groups, *kernel)` of the same rank (at least 3), and the output channels split
/// into `groups`.
pub fn conv_channels<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    x: &[D],
    weight: &[D],
    groups: usize,
) -> Result<(), RuleError<D>> {
    if x.len() < 3 || weight.len() != x.len() {
        return Err(shape_error(
            op,
            format!(
                "the input {} and the weight {} must have one rank of at least 3 ((N, C, spatial..) and (Cout, C/groups, kernel..))",
                show(x),
                show(weight)
            ),
        ));
    }
    if groups == 0 {
        return Err(argument_error(op, "groups must be at least 1"));
    }
    let cin = weight[1]
        .checked_mul(&D::lit(groups))
        .ok_or_else(|| super::overflow(op, weight))?;
    ck.equal(&x[1], &cin, || {
        shape_error(
            op,
            format!(
                "the input {} has {} channels (axis 1), the weight {} takes {} x {groups} group(s) = {cin}",
                show(x),
                x[1],
                show(weight),
                weight[1]
            ),
        )
    })?;
    if let Some(co) = weight[0].known()
        && !co.is_multiple_of(groups)
    {
        return Err(shape_error(
            op,
            format!("{co} output channels do not split into {groups} groups"),
        ));
    }
    Ok(())
}

/// A convolution's bias: one value per output channel (`out` of them).
pub fn conv_bias<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    out: &D,
    bias: &[D],
) -> Result<(), RuleError<D>> {
    if bias.len() != 1 {
        return Err(shape_error(
            op,
            format!(
                "the bias is one value per output channel, not {}",
                show(bias)
            ),
        ));
    }
    ck.equal(&bias[0], out, || {
        shape_error(
            op,
            format!("the bias has {} values for {out} output channels", bias[0]),
        )
    })
}

/// A convolution's output shape, its channels checked: `(batch, out_channels, *windows)`,
/// one window count per spatial axis. The kernel sizes must be known.
pub fn conv_windows<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    x: &[D],
    weight: &[D],
    stride: &Sizes,
    dilation: &Sizes,
    padding: &Padding,
) -> Result<Vec<D>, RuleError<D>> {
    let dims = x.len().saturating_sub(2);
    let kernel = weight
        .get(2..)
        .unwrap_or_default()
        .iter()
        .map(|k| k.known())
        .collect::<Option<Vec<usize>>>()
        .ok_or_else(|| {
            shape_error(
                op,
                format!(
                    "kernel sizes must be literal, the weight is {}",
                    show(weight)
                ),
            )
        })?;
    let w = Window::new(
        op,
        kernel,
        stride.resolve(op, "stride", dims)?,
        dilation.resolve(op, "dilation", dims)?,
    )?;
    let pads = padding.resolve(op, dims)?;
    let mut out = vec![x[0].clone(), weight[0].clone()];
    for (k, &pad) in pads.iter().enumerate() {
        out.push(axis_out(ck, op, x, 2 + k, &w, k, pad, false)?);
    }
    Ok(out)
}

/// The output shape of a convolution of `x` (`(batch, channels, *spatial)`) with weights
/// `weight` (`(out_channels, channels / groups, *kernel)`): channels, bias and windows.
#[allow(clippy::too_many_arguments)]
pub fn conv<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    x: &[D],
    weight: &[D],
    bias: Option<&[D]>,
    groups: usize,
    stride: &Sizes,
    dilation: &Sizes,
    padding: &Padding,
) -> Result<Vec<D>, RuleError<D>> {
    conv_channels(ck, op, x, weight, groups)?;
    if let Some(b) = bias {
        conv_bias(ck, op, &weight[0], b)?;
    }
    conv_windows(ck, op, x, weight, stride, dilation, padding)
}

/// A window's sizes per spatial axis, as a call gives them once resolved.
#[derive(Clone, Copy, Debug)]
pub struct PerAxis<'a> {
    /// The kernel (pools).
    pub kernel: &'a [usize],
    /// The step between windows.
    pub stride: &'a [usize],
    /// The step between a window's elements.
    pub dilation: &'a [usize],
    /// `(before, after)` padding.
    pub pads: &'a [(isize, isize)],
    /// A transposed convolution's extra size at the end.
    pub out_pad: &'a [usize],
}

/// conv_transpose2d: input `(N, Cin, spatial..)` and weight `(Cin, Cout / groups, kernel..)`
/// of one rank, at least 3.
pub fn conv_transpose_ranks<D: Dim>(op: &'static str, x: &[D], w: &[D]) -> Result<(), Fault<D>> {
    if x.len() < 3 || w.len() != x.len() {
        return Err(Fault::new(
            At::Param("weight"),
            shape_error(
                op,
                format!(
                    "the input {} and the weight {} must have one rank of at least 3 ((N, Cin, spatial..) and (Cin, Cout/groups, kernel..))",
                    show(x),
                    show(w)
                ),
            ),
        ));
    }
    Ok(())
}

/// conv_transpose2d's output: `(N, Cout, ..)`, each spatial axis
/// `(i - 1) * stride - pads + dilation * (k - 1) + output_padding + 1`; the bias one value per
/// output channel.
pub fn conv_transpose<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    (x, w, bias): (&[D], &[D], Option<&[D]>),
    groups: usize,
    sizes: PerAxis<'_>,
) -> Result<Vec<D>, Fault<D>> {
    let PerAxis {
        stride,
        dilation,
        pads,
        out_pad,
        ..
    } = sizes;
    let weight = At::Param("weight");
    if let Some(cin) = w[0].known()
        && cin % groups.max(1) != 0
    {
        return Err(Fault::new(
            weight,
            shape_error(
                op,
                format!(
                    "the weight {} has {cin} input channels (axis 0), which do not split into {groups} groups",
                    show(w)
                ),
            ),
        ));
    }
    ck.equal(&x[1], &w[0], || {
        shape_error(
            op,
            format!(
                "the input {} has {} channels (axis 1), the weight {} takes {} (axis 0)",
                show(x),
                x[1],
                show(w),
                w[0]
            ),
        )
    })
    .at(weight)?;
    let cout = times(op, &w[1], groups, w).at(weight)?;
    let mut out = vec![x[0].clone(), cout.clone()];
    for a in 0..x.len() - 2 {
        let (i, k) = (&x[2 + a], &w[2 + a]);
        let (s, d, (pb, pa), opad) = (stride[a], dilation[a], pads[a], out_pad[a]);
        if i.is(0) {
            return Err(Fault::new(
                At::Call,
                shape_error(
                    op,
                    format!("the input {} is empty on spatial axis {}", show(x), 2 + a),
                ),
            ));
        }
        if let Some(kc) = k.known()
            && !(1..=i32::MAX as usize).contains(&kc)
        {
            return Err(Fault::new(
                weight,
                shape_error(
                    op,
                    format!(
                        "the weight {} has kernel size {kc} on axis {}",
                        show(w),
                        2 + a
                    ),
                ),
            ));
        }
        // the zero-interleaved input, padded by (reach - pb, reach - pa + op), slid over by the
        // kernel's reach + 1
        let no_output = |size: String| {
            Fault::new(
                At::Param("padding"),
                shape_error(
                    op,
                    format!(
                        "padding {:?} leaves no output on spatial axis {} of the input {} (kernel {}, stride {s}, dilation {d}, output_padding {opad}: size {size})",
                        (pb, pa),
                        2 + a,
                        show(x),
                        w[2 + a]
                    ),
                ),
            )
        };
        let overflow = || Fault::new(At::Call, overflow(op, x));
        let reach = k
            .offset(-1)
            .and_then(|r| r.checked_mul(&D::lit(d)))
            .ok_or_else(overflow)?;
        let grown = i
            .offset(-1)
            .and_then(|v| v.checked_mul(&D::lit(s)))
            .and_then(|v| v.checked_add(&reach))
            .ok_or_else(overflow)?;
        let tail = opad as i64 + 1 - pb as i64 - pa as i64;
        let size = grown
            .offset(tail)
            .ok_or_else(|| no_output(format!("{grown} + {tail}")))?;
        if let (Some(i), Some(r), Some(o)) = (i.known(), reach.known(), size.known()) {
            let (i, r, o) = (i as i64, r as i64, o as i64);
            let spaced = (i - 1) * s as i64 + 1;
            let (before, after) = (r - pb as i64, r - pa as i64 + opad as i64);
            if (-before).max(0) > (spaced + after).min(spaced) || o < 1 {
                return Err(no_output(o.to_string()));
            }
        }
        out.push(size);
    }
    if let Some(bs) = bias {
        let at = At::Param("bias");
        if bs.len() != 1 {
            return Err(Fault::new(
                at,
                shape_error(
                    op,
                    format!("the bias is one value per output channel, not {}", show(bs)),
                ),
            ));
        }
        ck.equal(&bs[0], &cout, || {
            shape_error(
                op,
                format!(
                    "the bias has {} values for {cout} output channels (weight {} axis 1 x {groups} group(s))",
                    bs[0],
                    show(w)
                ),
            )
        })
        .at(at)?;
    }
    Ok(out)
}

/// max_unpool2d's values `(N, C, spatial..)` and integer indices of the same shape.
pub fn unpool_inputs<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    x: &[D],
    (is, idt): (&[D], DType),
) -> Result<(), Fault<D>> {
    if x.len() < 3 {
        return Err(Fault::new(
            At::Receiver,
            OpError::Needs {
                op,
                what: format!("values (N, C, spatial..), got shape {}", show(x)),
            },
        ));
    }
    let at = At::Param("indices");
    if is.len() != x.len() {
        return Err(Fault::new(
            at,
            shape_error(
                op,
                format!(
                    "indices of shape {} for values of shape {}",
                    show(is),
                    show(x)
                ),
            ),
        ));
    }
    for (a, (i, v)) in is.iter().zip(x).enumerate() {
        ck.equal(i, v, || {
            shape_error(
                op,
                format!(
                    "indices of shape {} for values of shape {}: axis {a} is {i}, not {v}",
                    show(is),
                    show(x)
                ),
            )
        })
        .at(at)?;
    }
    if !idt.is_int() {
        return Err(Fault::new(at, OpError::IndexDType { op, dtype: idt }));
    }
    Ok(())
}

/// max_unpool2d's output: `(N, C)` and the last entries of `output_size`, or each spatial axis
/// `(i - 1) * stride + dilation * (kernel - 1) + 1 - pads`.
pub fn unpool<D: Dim>(
    op: &'static str,
    x: &[D],
    window: PerAxis<'_>,
    output_size: Option<&[D]>,
) -> Result<Vec<D>, Fault<D>> {
    let PerAxis {
        kernel,
        stride,
        dilation,
        pads,
        ..
    } = window;
    let dims = x.len() - 2;
    let mut out = x[..2].to_vec();
    if let Some(sz) = output_size {
        if sz.len() < dims {
            return Err(Fault::new(
                At::Param("output_size"),
                argument_error(
                    op,
                    format!(
                        "output_size has {} entries, fewer than the {dims} spatial axes of {}",
                        sz.len(),
                        show(x)
                    ),
                ),
            ));
        }
        out.extend(sz[sz.len() - dims..].iter().cloned());
        return Ok(out);
    }
    for a in 0..dims {
        let extent = (dilation[a] * (kernel[a] - 1) + 1) as i64;
        let negative = || {
            Fault::new(
                At::Call,
                argument_error(
                    op,
                    format!(
                        "kernel {kernel:?}, stride {stride:?} and padding {pads:?} give a negative size on spatial axis {} of {}",
                        2 + a,
                        show(x)
                    ),
                ),
            )
        };
        let size = x[2 + a]
            .offset(-1)
            .and_then(|v| v.checked_mul(&D::lit(stride[a])))
            .and_then(|v| v.offset(extent - pads[a].0 as i64 - pads[a].1 as i64))
            .ok_or_else(negative)?;
        out.push(size);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::decide;

    #[test]
    fn pooling_sizes() {
        let w =
            |k: Vec<usize>, s: Vec<usize>| Window::new::<usize>("pool", k, s, vec![1, 1]).unwrap();
        let p = |shape: &[usize], w: &Window, pads: &[(isize, isize)], ceil| {
            decide(|ck| pool(ck, "max_pool2d", shape, w, pads, ceil))
        };
        let w22 = w(vec![2, 2], vec![2, 2]);
        assert_eq!(
            p(&[2, 3, 9, 8], &w22, &[(0, 0), (0, 0)], false),
            Ok(vec![2, 3, 4, 4])
        );
        let w33 = w(vec![3, 3], vec![2, 2]);
        assert_eq!(
            p(&[2, 3, 10, 9], &w33, &[(1, 1), (1, 1)], true),
            Ok(vec![2, 3, 6, 5])
        );
        assert_eq!(
            p(&[1, 5, 5], &w33, &[(0, 0), (0, 0)], true),
            Ok(vec![1, 2, 2])
        );
        assert!(p(&[1, 2, 2], &w33, &[(0, 0), (0, 0)], false).is_err());
        assert!(p(&[2], &w22, &[(0, 0), (0, 0)], false).is_err());
        assert!(Window::new::<usize>("pool", vec![2, 0], vec![1, 1], vec![1, 1]).is_err());
        assert!(Window::new::<usize>("pool", vec![], vec![], vec![]).is_err());
        assert!(Window::new::<usize>("pool", vec![usize::MAX], vec![1], vec![2]).is_err());
    }

    #[test]
    fn ceil_mode_matches_torch() {
        // torch: L=10, k=3, s=2, p=1, ceil -> floor((10+2-3+1)/2)+1 = 6; L=5,k=2,s=2 -> 3
        assert_eq!(ceil_mode_after(10, (1, 1), 3, 2), 2);
        assert_eq!(
            (5 + ceil_mode_after(5, (0, 0), 2, 2) as usize - 2) / 2 + 1,
            3
        );
        // a last window that would start in the padding alone is dropped: L=4, k=2, s=3, p=1
        let n = (4 + 1 + ceil_mode_after(4, (1, 1), 2, 3) as usize - 2) / 3 + 1;
        assert_eq!(n, 2);
    }

    #[test]
    fn convolution_sizes() {
        let c = |x: &[usize], w: &[usize], b: Option<&[usize]>, g, s: usize, p: isize| {
            decide(|ck| {
                conv(
                    ck,
                    "conv2d",
                    x,
                    w,
                    b,
                    g,
                    &Sizes::from(s),
                    &Sizes::from(1),
                    &Padding::from(p),
                )
            })
        };
        assert_eq!(
            c(&[2, 3, 9, 8], &[4, 3, 3, 3], None, 1, 1, 0),
            Ok(vec![2, 4, 7, 6])
        );
        assert_eq!(
            c(&[2, 3, 9, 8], &[4, 3, 3, 3], Some(&[4]), 1, 2, 1),
            Ok(vec![2, 4, 5, 4])
        );
        assert_eq!(c(&[2, 3, 7], &[4, 3, 3], None, 1, 1, 0), Ok(vec![2, 4, 5]));
        assert!(c(&[1, 4, 9, 8], &[6, 3, 3, 3], None, 1, 1, 0).is_err());
        assert_eq!(
            c(&[1, 4, 9, 8], &[6, 2, 3, 3], None, 2, 1, 0),
            Ok(vec![1, 6, 7, 6])
        );
        assert!(c(&[1, 4, 9, 8], &[5, 2, 3, 3], None, 2, 1, 0).is_err());
        assert!(c(&[2, 3, 9, 8], &[4, 3, 3, 3], Some(&[3]), 1, 1, 0).is_err());
        assert!(c(&[1, 1, 2, 2], &[1, 1, 3, 3], None, 1, 1, 0).is_err());
        assert!(c(&[1, 1, 2, 2], &[1, 1, 3, 3], None, 0, 1, 0).is_err());
    }
}
