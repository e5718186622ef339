//! Reading tensors back for people: nested values, and printing as numpy prints arrays.
//!
//! `Display` is numpy's `str(array)`: `[[1. 2.]\n [3. 4.]]`, with numpy's float rules
//! (shortest digits that identify each value, at most 8 after the point, one layout for the
//! whole array, scientific notation when values span more than 1000x or leave `[1e-4, c)`,
//! `c` being 1e3 for f16, 1e6 for f32, 1e8 for f64, as numpy 2 decides), `nan`/`inf`,
//! ` True`/`False`, lines wrapped at 75 columns, and arrays of more than 1000 elements
//! summarised to 3 items at each edge of every long axis. A rank-0 tensor prints as numpy
//! prints the scalar (`1.0`). `Debug` is `np.array2string(a, separator=", ")` between tg's name
//! and the shape and dtype, as numpy's `repr` lays it out (the suffix narrows the lines):
//! `Tensor([[1., 2.],\n        [3., 4.]], shape=[2, 2], dtype=float32)`.
//! A failed read prints `<error: ...>` instead of panicking. Summaries are cut on the device,
//! so printing a large tensor reads back only what is shown.
//!
//! ```
//! use tg_ops::prelude::*;
//! let t = Tensor::<Rank1<2>, i32>::from_slice(&[1, -2]).unwrap();
//! assert_eq!(t.to_string(), "[ 1 -2]");
//! assert_eq!(format!("{t:?}"), "Tensor([ 1, -2], shape=[2], dtype=int32)");
//! ```

use std::fmt;

use crate::dtype::Dtype;
use crate::shape::Shape;
use crate::tensor::Tensor;
use crate::untyped::DynTensor;
use half::f16;
use tg_runtime::{DType, Element, Lazy, Result, Scalar};

/// Values nested as the tensor's axes nest them: `Item` at rank 0, a `List` per axis.
#[derive(Clone, Debug, PartialEq)]
pub enum Nested<T> {
    /// One value.
    Item(T),
    /// The rows of one more axis.
    List(Vec<Nested<T>>),
}

impl<T: Clone> Nested<T> {
    /// Nests row-major `values` by `shape` (their counts agree: both come from one tensor).
    pub(crate) fn from_flat(values: &[T], shape: &[usize]) -> Nested<T> {
        match shape.split_first() {
            None => Nested::Item(values[0].clone()),
            Some((&n, rest)) => {
                let step: usize = rest.iter().product();
                Nested::List(
                    (0..n)
                        .map(|i| Nested::from_flat(&values[i * step..(i + 1) * step], rest))
                        .collect(),
                )
            }
        }
    }
}

/// numpy's print options that tg follows (`np.set_printoptions` defaults).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintOptions {
    /// Most digits after the decimal point (or after the first digit, in scientific notation).
    pub precision: usize,
    /// Arrays with more elements than this are summarised.
    pub threshold: usize,
    /// Items shown at each end of a summarised axis.
    pub edgeitems: usize,
    /// Columns before a row wraps.
    pub linewidth: usize,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            precision: 8,
            threshold: 1000,
            edgeitems: 3,
            linewidth: 75,
        }
    }
}

impl DynTensor {
    /// The values nested by axis, each as a `Scalar` of the tensor's dtype.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::typed::display::Nested;
    /// let t = DynTensor::from_slice(&[2, 1], &[1i32, 2]).unwrap();
    /// let Nested::List(rows) = t.to_nested().unwrap() else { panic!() };
    /// assert_eq!(rows.len(), 2);
    /// ```
    pub fn to_nested(&self) -> Result<Nested<Scalar>> {
        Ok(Nested::from_flat(&read_scalars(&self.lazy)?, self.shape()))
    }

    /// The tensor as numpy's `str` would print it, with these options.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::typed::display::PrintOptions;
    /// let t = DynTensor::from_slice(&[3], &[1.0f32, 2.5, -3.0]).unwrap();
    /// assert_eq!(t.to_string_with(&PrintOptions::default()).unwrap(), "[ 1.   2.5 -3. ]");
    /// ```
    pub fn to_string_with(&self, options: &PrintOptions) -> Result<String> {
        if self.ndim() == 0 {
            let v = read_scalars(&self.lazy)?;
            return Ok(scalar_str(v[0], self.dtype()));
        }
        array_to_string(self, options, " ", "", "")
    }

    /// numpy's `repr` layout: `prefix` opens it, the shape and dtype close it.
    fn repr_with(&self, prefix: &str, options: &PrintOptions) -> String {
        let suffix = format!(", shape={:?}, dtype={})", self.shape(), self.dtype());
        match array_to_string(self, options, ", ", prefix, &suffix) {
            Ok(body) => format!("{prefix}{body}{suffix}"),
            Err(e) => format!("{prefix}<error: {e}>{suffix}"),
        }
    }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// The values nested by axis.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::typed::display::Nested;
    /// let t = Tensor::<Rank2<1, 2>, u8>::from_slice(&[5, 6]).unwrap();
    /// let row = Nested::List(vec![Nested::Item(5u8), Nested::Item(6)]);
    /// assert_eq!(t.to_nested().unwrap(), Nested::List(vec![row]));
    /// ```
    pub fn to_nested(&self) -> Result<Nested<T>> {
        Ok(Nested::from_flat(&self.to_vec()?, &self.dims()))
    }

    /// The tensor as numpy's `str` would print it, with these options.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::typed::display::PrintOptions;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.0 / 3.0, 1.0]).unwrap();
    /// let short = PrintOptions { precision: 3, ..PrintOptions::default() };
    /// assert_eq!(t.to_string_with(&short).unwrap(), "[0.333 1.   ]");
    /// ```
    pub fn to_string_with(&self, options: &PrintOptions) -> Result<String> {
        self.as_dyn().to_string_with(options)
    }
}

/// numpy's `str`.
///
/// ```
/// use tg_ops::prelude::*;
/// let t = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 2.0, 3.0, 4.0]).unwrap();
/// assert_eq!(t.to_string(), "[[1. 2.]\n [3. 4.]]");
/// let b = Tensor::<Rank1<2>, bool>::from_slice(&[true, false]).unwrap();
/// assert_eq!(b.to_string(), "[ True False]");
/// ```
impl fmt::Display for DynTensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_string_with(&PrintOptions::default()) {
            Ok(s) => f.write_str(&s),
            Err(e) => write!(f, "<error: {e}>"),
        }
    }
}

impl<S: Shape, T: Dtype> fmt::Display for Tensor<S, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_dyn(), f)
    }
}

/// `Debug` of a typed tensor: values, shape and dtype.
pub(crate) fn debug_typed(t: &DynTensor, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str(&t.repr_with("Tensor(", &PrintOptions::default()))
}

/// `Debug` of an untyped tensor.
pub(crate) fn debug_dyn(t: &DynTensor, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str(&t.repr_with("DynTensor(", &PrintOptions::default()))
}

/// The values as scalars of the tensor's own dtype (no conversion loses anything).
fn read_scalars(lazy: &Lazy) -> Result<Vec<Scalar>> {
    fn read<T: Element>(lazy: &Lazy) -> Result<Vec<Scalar>> {
        Ok(lazy.to_vec::<T>()?.into_iter().map(T::to_scalar).collect())
    }
    match lazy.dtype() {
        DType::Bool => read::<bool>(lazy),
        DType::I8 => read::<i8>(lazy),
        DType::U8 => read::<u8>(lazy),
        DType::I16 => read::<i16>(lazy),
        DType::U16 => read::<u16>(lazy),
        DType::I32 => read::<i32>(lazy),
        DType::U32 => read::<u32>(lazy),
        DType::I64 => read::<i64>(lazy),
        DType::U64 => read::<u64>(lazy),
        DType::F16 => read::<f16>(lazy),
        DType::F32 => read::<f32>(lazy),
        DType::F64 => read::<f64>(lazy),
    }
}

/// The first and last `edge` items of every axis longer than `2 * edge`, cut on the device
/// (numpy's `_leading_trailing`), and which axes were cut.
fn leading_trailing(lazy: &Lazy, edge: usize) -> Result<(Lazy, Vec<bool>)> {
    let mut x = lazy.clone();
    let mut cut = vec![false; lazy.ndim()];
    for axis in 0..lazy.ndim() {
        let n = x.shape()[axis];
        if n <= 2 * edge {
            continue;
        }
        cut[axis] = true;
        let ranges = |r: (usize, usize)| -> Vec<(usize, usize)> {
            x.shape()
                .iter()
                .enumerate()
                .map(|(i, &d)| if i == axis { r } else { (0, d) })
                .collect()
        };
        let pads = |p: (usize, usize)| -> Vec<(usize, usize)> {
            (0..x.ndim())
                .map(|i| if i == axis { p } else { (0, 0) })
                .collect()
        };
        let head = x.shrink(&ranges((0, edge)))?.pad(&pads((0, edge)))?;
        let tail = x.shrink(&ranges((n - edge, n)))?.pad(&pads((edge, 0)))?;
        // select rather than add, so that -0.0 and NaN payloads survive
        let mut head_shape = x.shape().to_vec();
        head_shape[axis] = edge;
        let mask = Lazy::constant(true, DType::Bool, &head_shape)?.pad(&pads((0, edge)))?;
        x = mask.where_(&head, &tail)?;
    }
    Ok((x, cut))
}

/// numpy's `array2string` of a tensor of rank >= 1 (and of rank 0 inside `repr`).
fn array_to_string(
    t: &DynTensor,
    options: &PrintOptions,
    separator: &str,
    prefix: &str,
    suffix: &str,
) -> Result<String> {
    if t.numel() == 0 {
        return Ok("[]".into());
    }
    let (grid, cut) = if t.numel() > options.threshold {
        leading_trailing(t.lazy(), options.edgeitems)?
    } else {
        (t.lazy().clone(), vec![false; t.ndim()])
    };
    let values = read_scalars(&grid)?;
    let format = ElementFormat::new(&values, t.dtype(), t.ndim(), options.precision);
    let layout = Layout {
        shape: grid.shape().to_vec(),
        cut,
        edge: options.edgeitems,
        separator,
        words: values.iter().map(|&v| format.format(v)).collect(),
    };
    let width = options.linewidth as isize - suffix.len() as isize;
    let indent = " ".repeat(prefix.len() + 1);
    Ok(layout.recurse(0, 0, &indent, width))
}

/// numpy's `_formatArray`: rows wrapped at the width, nested axes on their own lines.
struct Layout<'a> {
    shape: Vec<usize>,
    cut: Vec<bool>,
    edge: usize,
    separator: &'a str,
    words: Vec<String>,
}

impl Layout<'_> {
    fn recurse(&self, axis: usize, offset: usize, indent: &str, width: isize) -> String {
        if axis == self.shape.len() {
            return self.words[offset].clone();
        }
        let len = self.shape[axis];
        let stride: usize = self.shape[axis + 1..].iter().product();
        let next_indent = format!("{indent} ");
        let next_width = width - 1;
        let (leading, trailing) = if self.cut[axis] {
            (self.edge, self.edge)
        } else {
            (0, len)
        };
        // the items in print order, `None` for the summary marker
        let mut items: Vec<Option<usize>> = (0..leading).map(Some).collect();
        if self.cut[axis] {
            items.push(None);
        }
        items.extend((len - trailing..len).map(Some));
        let item = |i: usize| self.recurse(axis + 1, offset + i * stride, &next_indent, next_width);
        let mut s = String::new();
        if axis + 1 == self.shape.len() {
            let elem_width = width - self.separator.trim_end().len().max(1) as isize;
            let mut line = indent.to_string();
            for (k, it) in items.iter().enumerate() {
                let word = it.map_or_else(|| "...".to_string(), item);
                extend_line(&mut s, &mut line, &word, elem_width, indent);
                if k + 1 < items.len() {
                    line.push_str(self.separator);
                }
            }
            s.push_str(&line);
        } else {
            let line_sep = format!(
                "{}{}",
                self.separator.trim_end(),
                "\n".repeat(self.shape.len() - axis - 1)
            );
            for (k, it) in items.iter().enumerate() {
                s.push_str(indent);
                s.push_str(&it.map_or_else(|| "...".to_string(), item));
                if k + 1 < items.len() {
                    s.push_str(&line_sep);
                }
            }
        }
        format!("[{}]", &s[indent.len()..])
    }
}

/// numpy's `_extendLine`: wraps before `word` if it would pass the width (unless the line
/// holds only the indent).
fn extend_line(s: &mut String, line: &mut String, word: &str, width: isize, indent: &str) {
    let needs_wrap = (line.len() + word.len()) as isize > width && line.len() > indent.len();
    if needs_wrap {
        s.push_str(line.trim_end());
        s.push('\n');
        *line = indent.to_string();
    }
    line.push_str(word);
}

/// How every element of one array is printed (numpy's per-dtype format functions).
enum ElementFormat {
    /// `True` pads to ` True` to align with `False`, except alone in a rank-0 array.
    Bool {
        pad: bool,
    },
    Int {
        width: usize,
    },
    Float(FloatFormat),
}

impl ElementFormat {
    fn new(values: &[Scalar], dtype: DType, rank: usize, precision: usize) -> ElementFormat {
        if dtype.is_bool() {
            ElementFormat::Bool { pad: rank > 0 }
        } else if dtype.is_float() {
            let xs: Vec<f64> = values.iter().map(|v| v.as_f64()).collect();
            ElementFormat::Float(FloatFormat::new(&xs, dtype, precision))
        } else {
            let width = values
                .iter()
                .map(|v| v.as_i128().to_string().len())
                .max()
                .unwrap_or(0);
            ElementFormat::Int { width }
        }
    }

    fn format(&self, v: Scalar) -> String {
        match self {
            ElementFormat::Bool { pad } => match (v, pad) {
                (Scalar::Bool(true), true) => " True",
                (Scalar::Bool(true), false) => "True",
                _ => "False",
            }
            .to_string(),
            ElementFormat::Int { width } => format!("{:>width$}", v.as_i128()),
            ElementFormat::Float(f) => f.format(v.as_f64()),
        }
    }
}

/// numpy's `FloatingFormat` in its default mode (`floatmode='maxprec'`, `sign='-'`).
struct FloatFormat {
    dtype: DType,
    exp: bool,
    /// Digits after the point (scientific: all values show exactly this many).
    precision: usize,
    pad_left: usize,
    pad_right: usize,
    exp_digits: usize,
}

impl FloatFormat {
    fn new(xs: &[f64], dtype: DType, precision: usize) -> FloatFormat {
        let finite: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
        let nonzero: Vec<f64> = finite
            .iter()
            .map(|x| x.abs())
            .filter(|&x| x != 0.0)
            .collect();
        // numpy compares in the array's dtype: the cutoff grows with its precision
        let (cutoff, small, ratio): (f64, f64, fn(f64, f64) -> f64) = match dtype {
            DType::F16 => (1e3, f16::from_f64(1e-4).to_f64(), |a, b| {
                f16::from_f32(a as f32 / b as f32).to_f64()
            }),
            DType::F32 => (1e6, 1e-4f32 as f64, |a, b| (a as f32 / b as f32) as f64),
            _ => (1e8, 1e-4, |a, b| a / b),
        };
        let exp = match (
            nonzero.iter().copied().reduce(f64::max),
            nonzero.iter().copied().reduce(f64::min),
        ) {
            (Some(max), Some(min)) => max >= cutoff || min < small || ratio(max, min) > 1000.0,
            _ => false,
        };
        let mut f = FloatFormat {
            dtype,
            exp,
            precision,
            pad_left: 0,
            pad_right: 0,
            exp_digits: 0,
        };
        if finite.is_empty() {
        } else if exp {
            let parts: Vec<Sci> = finite
                .iter()
                .map(|&x| sci(x, dtype, Some(precision)))
                .collect();
            f.precision = parts.iter().map(|p| p.frac.len()).max().unwrap_or(0);
            f.pad_left = parts.iter().map(|p| p.int.len()).max().unwrap_or(0);
            f.exp_digits = parts.iter().map(|p| exp_digits(p.exp)).max().unwrap_or(2);
            f.pad_right = f.exp_digits + 2 + f.precision;
        } else {
            let parts: Vec<Pos> = finite
                .iter()
                .map(|&x| positional(x, dtype, Some(precision)))
                .collect();
            f.pad_left = parts.iter().map(|p| p.int.len()).max().unwrap_or(0);
            f.pad_right = parts.iter().map(|p| p.frac.len()).max().unwrap_or(0);
        }
        if finite.len() != xs.len() {
            let neg_inf = xs.contains(&f64::NEG_INFINITY);
            let offset = f.pad_right + 1;
            f.pad_left = f
                .pad_left
                .max(3usize.saturating_sub(offset))
                .max((3 + neg_inf as usize).saturating_sub(offset));
        }
        f
    }

    fn format(&self, x: f64) -> String {
        if !x.is_finite() {
            let word = non_finite(x);
            return format!("{word:>w$}", w = self.pad_left + self.pad_right + 1);
        }
        if self.exp {
            let mut p = sci(x, self.dtype, Some(self.precision));
            if p.frac.len() < self.precision {
                // numpy's min_digits: more digits than the shortest, from the exact value
                let (digits, exp) =
                    split_sci_keep(&format!("{:.prec$e}", x.abs(), prec = self.precision));
                p = Sci {
                    int: format!(
                        "{}{}",
                        if x.is_sign_negative() { "-" } else { "" },
                        &digits[..1]
                    ),
                    frac: digits[1..].to_string(),
                    exp,
                };
            }
            let sign = if p.exp < 0 { '-' } else { '+' };
            format!(
                "{:>pl$}.{:0<pr$}e{sign}{:0>ed$}",
                p.int,
                p.frac,
                p.exp.unsigned_abs(),
                pl = self.pad_left,
                pr = self.precision,
                ed = self.exp_digits
            )
        } else {
            let p = positional(x, self.dtype, Some(self.precision));
            format!(
                "{:>pl$}.{:<pr$}",
                p.int,
                p.frac,
                pl = self.pad_left,
                pr = self.pad_right
            )
        }
    }
}

fn non_finite(x: f64) -> &'static str {
    if x.is_nan() {
        "nan"
    } else if x > 0.0 {
        "inf"
    } else {
        "-inf"
    }
}

/// Exponent digits numpy prints: at least two.
fn exp_digits(e: i32) -> usize {
    e.unsigned_abs().to_string().len().max(2)
}

/// numpy's `str` of a scalar: positional inside `[1e-4, cutoff)` (cutoff 1e3 for f16, 1e6 for
/// f32, 1e16 for f64) with one zero kept after the point, scientific outside it.
fn scalar_str(v: Scalar, dtype: DType) -> String {
    match v {
        Scalar::Bool(b) => if b { "True" } else { "False" }.to_string(),
        Scalar::Int(i) => i.to_string(),
        Scalar::UInt(u) => u.to_string(),
        Scalar::Float(x) if !x.is_finite() => non_finite(x).to_string(),
        Scalar::Float(x) => {
            let cutoff = match dtype {
                DType::F16 => 1e3,
                DType::F32 => 1e6,
                _ => 1e16,
            };
            if x == 0.0 || (1e-4..cutoff).contains(&x.abs()) {
                let p = positional(x, dtype, None);
                format!(
                    "{}.{}",
                    p.int,
                    if p.frac.is_empty() { "0" } else { &p.frac }
                )
            } else {
                let p = sci(x, dtype, None);
                let sign = if p.exp < 0 { '-' } else { '+' };
                let dot = if p.frac.is_empty() {
                    String::new()
                } else {
                    format!(".{}", p.frac)
                };
                format!("{}{dot}e{sign}{:0>2}", p.int, p.exp.unsigned_abs())
            }
        }
    }
}

/// The shortest decimal digits that read back as `x` in `dtype`, and the exponent of the
/// first: `x = d.ddd * 10^exp` (numpy's Dragon4 in unique mode: of the shortest candidates,
/// the nearest to the exact value, ties to the even digit).
fn shortest(x: f64, dtype: DType) -> (String, i32) {
    let a = x.abs();
    if a == 0.0 {
        return ("0".into(), 0);
    }
    let reads_back = |m: u64, last: i32| -> bool {
        let s = format!("{m}e{last}");
        match dtype {
            DType::F32 => s.parse::<f32>().is_ok_and(|v| v == a as f32),
            DType::F16 => s
                .parse::<f64>()
                .is_ok_and(|v| f16::from_f64(v) == f16::from_f64(a)),
            _ => s.parse::<f64>().is_ok_and(|v| v == a),
        }
    };
    for n in 1..=17usize {
        // the nearest n-digit decimal (exact, ties to even), as integer mantissa m * 10^last
        let (digits, e) = split_sci_keep(&format!("{a:.prec$e}", prec = n - 1));
        let m: u64 = digits.parse().unwrap_or(0);
        let last = e - (n as i32 - 1);
        if reads_back(m, last) {
            return from_mantissa(m, last);
        }
        // the n-digit neighbour on the other side of the exact value
        let nearest_is_above = format!("{m}e{last}").parse::<f64>().is_ok_and(|v| v > a);
        let other = if nearest_is_above { m - 1 } else { m + 1 };
        if reads_back(other, last) {
            return from_mantissa(other, last);
        }
    }
    split_sci(&format!("{a:e}"))
}

/// `m * 10^last` as significant digits without trailing zeros and the exponent of the first.
fn from_mantissa(m: u64, last: i32) -> (String, i32) {
    let s = m.to_string();
    let e = last + s.len() as i32 - 1;
    let trimmed = s.trim_end_matches('0');
    (
        if trimmed.is_empty() {
            "0".into()
        } else {
            trimmed.to_string()
        },
        e,
    )
}

/// `"1.25e-3"` to `("125", -3)`, trailing zeros of the digits dropped.
fn split_sci(s: &str) -> (String, i32) {
    let (mut digits, exp) = split_sci_keep(s);
    while digits.len() > 1 && digits.ends_with('0') {
        digits.pop();
    }
    (digits, exp)
}

/// `"1.250e-3"` to `("1250", -3)`.
fn split_sci_keep(s: &str) -> (String, i32) {
    let (mantissa, exp) = s.split_once('e').unwrap_or((s, "0"));
    (
        mantissa.chars().filter(|c| c.is_ascii_digit()).collect(),
        exp.parse().unwrap_or(0),
    )
}

/// A positional rendering: sign and integer digits, and fraction digits (trailing zeros
/// trimmed).
struct Pos {
    int: String,
    frac: String,
}

/// `x` positionally with the shortest unique digits, rounded to `precision` fraction digits
/// if it needs more.
fn positional(x: f64, dtype: DType, precision: Option<usize>) -> Pos {
    let sign = if x.is_sign_negative() { "-" } else { "" };
    let (digits, e) = shortest(x, dtype);
    let frac_needed = (digits.len() as i32 - 1 - e).max(0) as usize;
    let (int, mut frac) = match precision {
        Some(p) if frac_needed > p => {
            let s = format!("{:.p$}", x.abs());
            let (i, f) = s.split_once('.').unwrap_or((&s, ""));
            (i.to_string(), f.to_string())
        }
        _ if e >= 0 => {
            let e = e as usize;
            let mut padded = digits.clone();
            while padded.len() < e + 1 {
                padded.push('0');
            }
            (padded[..e + 1].to_string(), padded[e + 1..].to_string())
        }
        _ => (
            "0".to_string(),
            format!("{}{digits}", "0".repeat((-e - 1) as usize)),
        ),
    };
    while frac.ends_with('0') {
        frac.pop();
    }
    Pos {
        int: format!("{sign}{int}"),
        frac,
    }
}

/// A scientific rendering: sign and first digit, fraction digits (trailing zeros trimmed),
/// exponent.
struct Sci {
    int: String,
    frac: String,
    exp: i32,
}

/// `x` in scientific notation with the shortest unique digits, rounded to `precision`
/// fraction digits if it needs more.
fn sci(x: f64, dtype: DType, precision: Option<usize>) -> Sci {
    let sign = if x.is_sign_negative() { "-" } else { "" };
    let (mut digits, mut e) = shortest(x, dtype);
    if let Some(p) = precision
        && digits.len() > p + 1
    {
        (digits, e) = split_sci(&format!("{:.p$e}", x.abs()));
    }
    let mut frac = digits[1..].to_string();
    while frac.ends_with('0') {
        frac.pop();
    }
    Sci {
        int: format!("{sign}{}", &digits[..1]),
        frac,
        exp: e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_digits_per_dtype() {
        assert_eq!(
            shortest(f16::from_f32(0.1).to_f64(), DType::F16),
            ("1".into(), -1)
        );
        assert_eq!(shortest(0.1f32 as f64, DType::F32), ("1".into(), -1));
        assert_eq!(
            shortest(0.1f32 as f64, DType::F64),
            ("10000000149011612".into(), -1)
        );
        assert_eq!(shortest(0.0, DType::F32), ("0".into(), 0));
    }

    #[test]
    fn positional_rounds_to_precision() {
        let p = positional(1.0 / 3.0, DType::F64, Some(8));
        assert_eq!((p.int.as_str(), p.frac.as_str()), ("0", "33333333"));
        let p = positional(-2.5e3, DType::F32, Some(8));
        assert_eq!((p.int.as_str(), p.frac.as_str()), ("-2500", ""));
    }

    #[test]
    fn scalars_print_like_numpy_scalars() {
        assert_eq!(scalar_str(Scalar::Float(1.0), DType::F32), "1.0");
        assert_eq!(scalar_str(Scalar::Float(65504.0), DType::F16), "6.55e+04");
        assert_eq!(scalar_str(Scalar::Float(1e6), DType::F32), "1e+06");
        assert_eq!(scalar_str(Scalar::Float(999999.0), DType::F32), "999999.0");
        assert_eq!(scalar_str(Scalar::Float(1e16), DType::F64), "1e+16");
        assert_eq!(scalar_str(Scalar::Float(-0.0), DType::F64), "-0.0");
    }
}
