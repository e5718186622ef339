//! A call's arguments, one per parameter of the op's row, read as the `DynTensor` op takes
//! each kind (the generated `invoke.rs` calls these by the parameter's index).

use tg_core::ops::{Kind, OpSig, Value, WindowField};
use tg_runtime::{DType, Error, Result, Scalar};

use super::{ArgValue, scalar};
use crate::untyped::DynTensor;
use crate::untyped::conv::Conv;
use crate::untyped::elementwise::Operand;
use crate::untyped::gather::{Interpolation, ScatterOp, ScatterReduce};
use crate::untyped::hash::Keccak;
use crate::untyped::loss::Reduction;
use crate::untyped::pad_modes::PadMode;
use crate::untyped::pool::{Padding, Pool, Sizes};

/// The arguments of a call, one per parameter of `sig` (defaults filled in).
#[derive(Clone, Debug)]
pub struct Resolved {
    /// The op.
    pub sig: &'static OpSig,
    /// One value per parameter.
    pub vals: Vec<ArgValue>,
}

impl Resolved {
    fn wrong(&self, i: usize, want: &str) -> Error {
        let name = self.sig.params.get(i).map_or("?", |p| p.name);
        Error::Argument {
            op: self.sig.name,
            message: format!("`{name}` takes {want}, not {:?}", self.vals.get(i)),
        }
    }

    fn val(&self, i: usize) -> &ArgValue {
        self.vals.get(i).unwrap_or(&ArgValue::None)
    }

    fn int(&self, i: usize) -> Result<i64> {
        match self.val(i) {
            ArgValue::Int(v) => Ok(*v),
            _ => Err(self.wrong(i, "an integer")),
        }
    }

    fn ints(&self, i: usize) -> Result<Vec<i64>> {
        match self.val(i) {
            ArgValue::Ints(v) => Ok(v.clone()),
            ArgValue::Int(v) => Ok(vec![*v]),
            _ => Err(self.wrong(i, "integers")),
        }
    }

    /// An axis.
    pub fn axis(&self, i: usize) -> Result<isize> {
        Ok(self.int(i)? as isize)
    }

    /// An axis or none.
    pub fn opt_axis(&self, i: usize) -> Result<Option<isize>> {
        match self.val(i) {
            ArgValue::None => Ok(None),
            _ => self.axis(i).map(Some),
        }
    }

    /// Axes or none.
    pub fn axes(&self, i: usize) -> Result<Option<Vec<isize>>> {
        match self.val(i) {
            ArgValue::None => Ok(None),
            _ => self.isizes(i).map(Some),
        }
    }

    /// Integers as `isize`.
    pub fn isizes(&self, i: usize) -> Result<Vec<isize>> {
        Ok(self.ints(i)?.into_iter().map(|v| v as isize).collect())
    }

    /// An integer value.
    pub fn int64(&self, i: usize) -> Result<i64> {
        self.int(i)
    }

    /// An offset.
    pub fn isize(&self, i: usize) -> Result<isize> {
        self.axis(i)
    }

    /// A bool.
    pub fn flag(&self, i: usize) -> Result<bool> {
        match self.val(i) {
            ArgValue::Bool(b) => Ok(*b),
            _ => Err(self.wrong(i, "a bool")),
        }
    }

    /// A number.
    pub fn f64(&self, i: usize) -> Result<f64> {
        match self.val(i) {
            ArgValue::Float(f) => Ok(*f),
            ArgValue::Int(v) => Ok(*v as f64),
            _ => Err(self.wrong(i, "a number")),
        }
    }

    /// A size.
    pub fn usize(&self, i: usize) -> Result<usize> {
        usize::try_from(self.int(i)?).map_err(|_| self.wrong(i, "a size"))
    }

    /// A size or none.
    pub fn opt_usize(&self, i: usize) -> Result<Option<usize>> {
        match self.val(i) {
            ArgValue::None => Ok(None),
            _ => self.usize(i).map(Some),
        }
    }

    /// Sizes.
    pub fn usizes(&self, i: usize) -> Result<Vec<usize>> {
        self.ints(i)?
            .into_iter()
            .map(|v| usize::try_from(v).map_err(|_| self.wrong(i, "sizes")))
            .collect()
    }

    /// Sizes or none.
    pub fn opt_usizes(&self, i: usize) -> Result<Option<Vec<usize>>> {
        match self.val(i) {
            ArgValue::None => Ok(None),
            _ => self.usizes(i).map(Some),
        }
    }

    /// A target shape whose `-1` keeps an axis.
    pub fn opt_sizes(&self, i: usize) -> Result<Vec<Option<usize>>> {
        self.ints(i)?
            .into_iter()
            .map(|v| match v {
                -1 => Ok(None),
                v => usize::try_from(v)
                    .map(Some)
                    .map_err(|_| self.wrong(i, "sizes or -1")),
            })
            .collect()
    }

    /// An integer or none.
    pub fn opt_i64(&self, i: usize) -> Result<Option<i64>> {
        match self.val(i) {
            ArgValue::None => Ok(None),
            _ => self.int(i).map(Some),
        }
    }

    /// An `i32`.
    pub fn i32(&self, i: usize) -> Result<i32> {
        i32::try_from(self.int(i)?).map_err(|_| self.wrong(i, "an i32"))
    }

    /// A dtype.
    pub fn dtype(&self, i: usize) -> Result<DType> {
        match self.val(i) {
            ArgValue::DType(d) => Ok(*d),
            _ => Err(self.wrong(i, "a dtype")),
        }
    }

    /// A dtype or none.
    pub fn opt_dtype(&self, i: usize) -> Result<Option<DType>> {
        match self.val(i) {
            ArgValue::None => Ok(None),
            _ => self.dtype(i).map(Some),
        }
    }

    /// A tensor.
    pub fn tensor(&self, i: usize) -> Result<&DynTensor> {
        match self.val(i) {
            ArgValue::Tensor(t) => Ok(t),
            _ => Err(self.wrong(i, "a tensor")),
        }
    }

    /// A tensor or none.
    pub fn opt_tensor(&self, i: usize) -> Result<Option<&DynTensor>> {
        match self.val(i) {
            ArgValue::None => Ok(None),
            _ => self.tensor(i).map(Some),
        }
    }

    /// The receiver and the tensors of argument `i`, joined.
    pub fn join(&self, recv: &DynTensor, i: usize) -> Result<Vec<DynTensor>> {
        let mut all = vec![recv.clone()];
        match self.val(i) {
            ArgValue::Tensors(ts) => all.extend(ts.iter().cloned()),
            ArgValue::Tensor(t) => all.push(t.clone()),
            _ => return Err(self.wrong(i, "tensors")),
        }
        Ok(all)
    }

    /// A tensor or a scalar.
    pub fn operand(&self, i: usize) -> Result<Operand<'_>> {
        match self.val(i) {
            ArgValue::Tensor(t) => Ok(Operand::from(t)),
            v => scalar(v)
                .map(Operand::Scalar)
                .ok_or_else(|| self.wrong(i, "a tensor or a scalar")),
        }
    }

    /// A tensor, a scalar or none.
    pub fn opt_operand(&self, i: usize) -> Result<Option<Operand<'_>>> {
        match self.val(i) {
            ArgValue::None => Ok(None),
            _ => self.operand(i).map(Some),
        }
    }

    /// A scalar.
    pub fn scalar(&self, i: usize) -> Result<Scalar> {
        scalar(self.val(i)).ok_or_else(|| self.wrong(i, "a scalar"))
    }

    /// `(before, after)` pairs.
    pub fn pairs(&self, i: usize) -> Result<Vec<(isize, isize)>> {
        match self.val(i) {
            ArgValue::Pairs(v) => Ok(v.iter().map(|&(a, b)| (a as isize, b as isize)).collect()),
            _ => Err(self.wrong(i, "pairs")),
        }
    }

    /// `(start, end)` ranges.
    pub fn ranges(&self, i: usize) -> Result<Vec<(usize, usize)>> {
        match self.val(i) {
            ArgValue::Pairs(v) => v
                .iter()
                .map(|&(a, b)| {
                    Ok((
                        usize::try_from(a).map_err(|_| self.wrong(i, "ranges"))?,
                        usize::try_from(b).map_err(|_| self.wrong(i, "ranges"))?,
                    ))
                })
                .collect(),
            _ => Err(self.wrong(i, "ranges")),
        }
    }

    /// Numbers.
    pub fn floats(&self, i: usize) -> Result<Vec<f64>> {
        match self.val(i) {
            ArgValue::Floats(v) => Ok(v.clone()),
            _ => Err(self.wrong(i, "numbers")),
        }
    }

    /// A string.
    pub fn text(&self, i: usize) -> Result<&str> {
        match self.val(i) {
            ArgValue::Str(s) => Ok(s),
            _ => Err(self.wrong(i, "a string")),
        }
    }

    /// The index of a choice's name.
    fn choice(&self, i: usize) -> Result<usize> {
        let Some(p) = self.sig.params.get(i) else {
            return Err(self.wrong(i, "a name"));
        };
        let (Kind::Choice(c) | Kind::OptChoice(c)) = p.kind else {
            return Err(self.wrong(i, "a name"));
        };
        let s = self.text(i)?;
        c.find(s).ok_or_else(|| {
            super::error_of(tg_core::ops::OpError::Choice {
                op: self.sig.name,
                what: c.what(),
                given: s.to_string(),
                names: c.names(),
            })
        })
    }

    /// A loss reduction.
    pub fn reduction(&self, i: usize) -> Result<Reduction> {
        Ok([Reduction::Mean, Reduction::Sum, Reduction::None][self.choice(i)?])
    }

    /// scatter's reduce or none.
    pub fn opt_scatter_op(&self, i: usize) -> Result<Option<ScatterOp>> {
        match self.val(i) {
            ArgValue::None => Ok(None),
            _ => Ok(Some([ScatterOp::Add, ScatterOp::Multiply][self.choice(i)?])),
        }
    }

    /// scatter_reduce's reduction.
    pub fn scatter_reduce(&self, i: usize) -> Result<ScatterReduce> {
        use ScatterReduce as R;
        Ok([R::Sum, R::Prod, R::Mean, R::Amax, R::Amin][self.choice(i)?])
    }

    /// interpolate's mode.
    pub fn interpolation(&self, i: usize) -> Result<Interpolation> {
        use Interpolation as I;
        Ok([I::Linear, I::Nearest, I::NearestExact][self.choice(i)?])
    }

    /// Keccak's configuration.
    pub fn keccak(&self, i: usize) -> Result<Keccak> {
        match self.val(i) {
            ArgValue::Str(s) => match s.as_str() {
                "sha3_224" => Ok(Keccak::Sha3_224),
                "sha3_256" => Ok(Keccak::Sha3_256),
                "shake_128" => Ok(Keccak::Shake128),
                _ => Err(super::error_of(tg_core::ops::OpError::KeccakName {
                    op: self.sig.name,
                    given: s.clone(),
                })),
            },
            ArgValue::Ints(v) if v.len() == 2 => Ok(Keccak::Custom {
                rate: usize::try_from(v[0]).map_err(|_| self.wrong(i, "a rate"))?,
                dsbyte: u8::try_from(v[1]).map_err(|_| self.wrong(i, "a domain byte"))?,
            }),
            _ => Err(self.wrong(i, "a sponge's name or (rate, dsbyte)")),
        }
    }

    /// The value of window field `f`, if the call gives it.
    fn field(&self, f: WindowField) -> Option<(usize, &ArgValue)> {
        self.sig
            .params
            .iter()
            .position(|p| p.kind == Kind::Window(f))
            .map(|i| (i, self.val(i)))
    }

    fn sizes(&self, f: WindowField) -> Result<Option<Sizes>> {
        match self.field(f) {
            None | Some((_, ArgValue::None)) => Ok(None),
            Some((i, _)) => Ok(Some(Sizes(self.usizes(i)?))),
        }
    }

    fn padding(&self) -> Result<Option<Padding>> {
        Ok(match self.field(WindowField::Padding) {
            None | Some((_, ArgValue::None)) => None,
            Some((_, ArgValue::Int(p))) => Some(Padding::Uniform(*p as isize)),
            Some((_, ArgValue::Ints(v))) => {
                Some(Padding::PerAxis(v.iter().map(|&x| x as isize).collect()))
            }
            Some((i, _)) => Some(Padding::Pairs(self.pairs(i)?)),
        })
    }

    fn window_flag(&self, f: WindowField) -> Result<Option<bool>> {
        match self.field(f) {
            None | Some((_, ArgValue::None)) => Ok(None),
            Some((i, _)) => self.flag(i).map(Some),
        }
    }

    /// A convolution's options.
    pub fn conv(&self) -> Result<Conv> {
        let mut c = Conv::new();
        if let Some((i, v)) = self.field(WindowField::Groups)
            && !matches!(v, ArgValue::None)
        {
            c = c.groups(self.usize(i)?);
        }
        if let Some(s) = self.sizes(WindowField::Stride)? {
            c = c.stride(s);
        }
        if let Some(s) = self.sizes(WindowField::Dilation)? {
            c = c.dilation(s);
        }
        if let Some(p) = self.padding()? {
            c = c.padding(p);
        }
        if let Some(s) = self.sizes(WindowField::OutputPadding)? {
            c = c.output_padding(s);
        }
        Ok(c)
    }

    /// A pool's options on `recv` (its kernel per spatial axis as tg-core reads it).
    pub fn pool(&self, recv: &DynTensor) -> Result<Pool> {
        let value = match self.field(WindowField::Kernel) {
            Some((_, ArgValue::Int(k))) => Value::Int(*k),
            Some((i, _)) => Value::Ints(self.ints(i)?),
            None => Value::Ints(vec![2, 2]),
        };
        let kernel = tg_core::ops::pool_kernel::<usize>(self.sig, recv.ndim(), &value)
            .unwrap_or_default()
            .into_iter()
            .map(|k| {
                usize::try_from(k).map_err(|_| Error::Argument {
                    op: self.sig.name,
                    message: format!("kernel {k} is negative"),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let mut p = Pool::new(kernel);
        if let Some(s) = self.sizes(WindowField::Stride)? {
            p = p.stride(s);
        }
        if let Some(s) = self.sizes(WindowField::Dilation)? {
            p = p.dilation(s);
        }
        if let Some(pad) = self.padding()? {
            p = p.padding(pad);
        }
        if let Some(b) = self.window_flag(WindowField::CeilMode)? {
            p = p.ceil_mode(b);
        }
        if let Some(b) = self.window_flag(WindowField::CountIncludePad)? {
            p = p.count_include_pad(b);
        }
        Ok(p)
    }

    /// A pad mode: `constant` with the value, or another mode.
    pub fn pad_mode(&self) -> Result<PadMode> {
        let (Some(m), Some(v)) = (
            self.sig.params.iter().position(|p| p.kind == Kind::PadMode),
            self.sig
                .params
                .iter()
                .position(|p| p.kind == Kind::PadValue),
        ) else {
            return Err(self.wrong(0, "a pad mode"));
        };
        Ok(match self.text(m)? {
            "constant" => PadMode::constant(self.scalar(v)?),
            "reflect" => PadMode::Reflect,
            "replicate" => PadMode::Replicate,
            "circular" => PadMode::Circular,
            other => {
                return Err(super::error_of(tg_core::ops::OpError::Choice {
                    op: self.sig.name,
                    what: "pad mode",
                    given: other.to_string(),
                    names: tg_core::ops::Choices::PadMode.names(),
                }));
            }
        })
    }
}
