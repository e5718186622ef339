//! A small builder for compositions of primitives on one shape and dtype.
//!
//! `V` holds a `Result<Lazy>`: every step propagates the first error, so a composition reads
//! as a formula (`&x * 0.5 + 1.0`) and is checked once with `?` at the end. Operands of a
//! step always share the shape and dtype of the value they started from (constants are made
//! like it), so errors here are only the runtime's own dtype checks.

use std::ops::{Add, Mul, Neg, Sub};

use tg_runtime::{BinaryOp, DType, Lazy, Result, Scalar, UnaryOp};

use crate::untyped::DynTensor;

#[derive(Clone)]
pub(crate) struct V(Result<Lazy>);

impl V {
    pub fn of(t: &DynTensor) -> V {
        V(Ok(t.lazy().clone()))
    }

    pub fn done(self) -> Result<DynTensor> {
        self.0.map(DynTensor::wrap)
    }

    fn map(&self, f: impl FnOnce(&Lazy) -> Result<Lazy>) -> V {
        V(match &self.0 {
            Ok(l) => f(l),
            Err(e) => Err(e.clone()),
        })
    }

    fn zip(&self, o: &V, f: impl FnOnce(&Lazy, &Lazy) -> Result<Lazy>) -> V {
        V(match (&self.0, &o.0) {
            (Ok(a), Ok(b)) => f(a, b),
            (Err(e), _) | (_, Err(e)) => Err(e.clone()),
        })
    }

    /// The dtype (f32 if an earlier step failed: the value is an error anyway).
    pub fn dtype(&self) -> DType {
        self.0.as_ref().map_or(DType::F32, |l| l.dtype())
    }

    pub fn is_f64(&self) -> bool {
        self.dtype() == DType::F64
    }

    /// A constant of this value's shape and dtype.
    pub fn k(&self, v: impl Into<Scalar>) -> V {
        let v = v.into();
        self.map(|l| Lazy::constant(v, l.dtype(), l.shape()))
    }

    pub fn un(&self, op: UnaryOp) -> V {
        self.map(|l| l.unary(op))
    }

    pub fn bin(&self, op: BinaryOp, o: &V) -> V {
        self.zip(o, |a, b| a.binary(op, b))
    }

    pub fn exp2(&self) -> V {
        self.un(UnaryOp::Exp2)
    }
    pub fn log2(&self) -> V {
        self.un(UnaryOp::Log2)
    }
    pub fn sin(&self) -> V {
        self.un(UnaryOp::Sin)
    }
    pub fn sqrt(&self) -> V {
        self.un(UnaryOp::Sqrt)
    }
    pub fn recip(&self) -> V {
        self.un(UnaryOp::Recip)
    }
    pub fn trunc(&self) -> V {
        self.un(UnaryOp::Trunc)
    }

    pub fn lt(&self, o: &V) -> V {
        self.bin(BinaryOp::CmpLt, o)
    }
    pub fn gt(&self, o: &V) -> V {
        o.bin(BinaryOp::CmpLt, self)
    }
    pub fn eq(&self, o: &V) -> V {
        self.bin(BinaryOp::CmpEq, o)
    }
    pub fn ne(&self, o: &V) -> V {
        self.bin(BinaryOp::CmpNe, o)
    }
    /// `self < c` for a constant `c`.
    pub fn lt_k(&self, c: impl Into<Scalar>) -> V {
        self.lt(&self.k(c))
    }
    pub fn gt_k(&self, c: impl Into<Scalar>) -> V {
        self.gt(&self.k(c))
    }
    pub fn eq_k(&self, c: impl Into<Scalar>) -> V {
        self.eq(&self.k(c))
    }
    pub fn ne_k(&self, c: impl Into<Scalar>) -> V {
        self.ne(&self.k(c))
    }

    pub fn max(&self, o: &V) -> V {
        self.bin(BinaryOp::Max, o)
    }
    pub fn and(&self, o: &V) -> V {
        self.bin(BinaryOp::And, o)
    }
    pub fn or(&self, o: &V) -> V {
        self.bin(BinaryOp::Or, o)
    }
    /// Logical not of a bool value.
    pub fn not(&self) -> V {
        self.un(UnaryOp::Neg)
    }

    /// `self ? a : b`; `self` is bool.
    pub fn select(&self, a: &V, b: &V) -> V {
        V(match (&self.0, &a.0, &b.0) {
            (Ok(c), Ok(a), Ok(b)) => c.where_(a, b),
            (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => Err(e.clone()),
        })
    }

    pub fn cast(&self, dt: DType) -> V {
        self.map(|l| Ok(l.cast(dt)))
    }

    /// The same bits read as `dt` (of the same size).
    pub fn bitcast(&self, dt: DType) -> V {
        self.map(|l| l.bitcast(dt))
    }

    /// `|x|`, keeping NaN (and -0 as -0).
    pub fn abs(&self) -> V {
        self.lt_k(0).select(&-self, self)
    }

    /// `x / y` as `x * (1 / y)`, tinygrad's float division (within 1.5 ulp of the true quotient).
    pub fn div(&self, o: &V) -> V {
        self * &o.recip()
    }

    /// `self` with the sign of `s`: `-self` where `s < 0`.
    pub fn negate_where(&self, cond: &V) -> V {
        cond.select(&-self, self)
    }

    /// `floor(x)` from trunc: one less where trunc rounded up.
    pub fn floor(&self) -> V {
        let t = self.trunc();
        self.lt(&t).select(&(&t - 1.0), &t)
    }

    /// `ceil(x)` from trunc: one more where trunc rounded down.
    pub fn ceil(&self) -> V {
        let t = self.trunc();
        self.gt(&t).select(&(&t + 1.0), &t)
    }

    /// `c[0] + c[1] x + c[2] x^2 + ...` by Horner's rule.
    pub fn poly(&self, c: &[f64]) -> V {
        let Some((&last, rest)) = c.split_last() else {
            return self.k(0.0);
        };
        rest.iter()
            .rev()
            .fold(self.k(last), |acc, &ci| acc * self + ci)
    }
}

impl Neg for &V {
    type Output = V;
    fn neg(self) -> V {
        self.un(UnaryOp::Neg)
    }
}

impl Neg for V {
    type Output = V;
    fn neg(self) -> V {
        -&self
    }
}

macro_rules! arith {
    ($tr:ident, $f:ident, $body:expr) => {
        arith!($tr, $f, $body, |a: &V, c: f64| a.$f(&a.k(c)));
    };
    ($tr:ident, $f:ident, $body:expr, $with_constant:expr) => {
        impl $tr<&V> for &V {
            type Output = V;
            fn $f(self, o: &V) -> V {
                #[allow(clippy::redundant_closure_call)]
                ($body)(self, o)
            }
        }
        impl $tr<V> for &V {
            type Output = V;
            fn $f(self, o: V) -> V {
                self.$f(&o)
            }
        }
        impl $tr<&V> for V {
            type Output = V;
            fn $f(self, o: &V) -> V {
                (&self).$f(o)
            }
        }
        impl $tr<V> for V {
            type Output = V;
            fn $f(self, o: V) -> V {
                (&self).$f(&o)
            }
        }
        impl $tr<f64> for &V {
            type Output = V;
            fn $f(self, c: f64) -> V {
                #[allow(clippy::redundant_closure_call)]
                ($with_constant)(self, c)
            }
        }
        impl $tr<f64> for V {
            type Output = V;
            fn $f(self, c: f64) -> V {
                (&self).$f(c)
            }
        }
        impl $tr<&V> for f64 {
            type Output = V;
            fn $f(self, o: &V) -> V {
                o.k(self).$f(o)
            }
        }
        impl $tr<V> for f64 {
            type Output = V;
            fn $f(self, o: V) -> V {
                self.$f(&o)
            }
        }
    };
}

arith!(Add, add, |a: &V, b: &V| a.bin(BinaryOp::Add, b));
arith!(Mul, mul, |a: &V, b: &V| a.bin(BinaryOp::Mul, b));
// `x - c` adds `-c`: constants are kernel data, so negating one on the device is an op more
arith!(
    Sub,
    sub,
    |a: &V, b: &V| a.bin(BinaryOp::Add, &-b),
    |a: &V, c: f64| a + a.k(-c)
);
