//! tg-ops' dtype rules, as the macros need them to type a kernel body: tinygrad's promotion
//! lattice and weak Rust scalars. A test checks this against tg-ops.

use crate::dtype::Dt;

const ORDER: [Dt; 12] = [
    Dt::Bool,
    Dt::I8,
    Dt::U8,
    Dt::I16,
    Dt::U16,
    Dt::I32,
    Dt::U32,
    Dt::I64,
    Dt::U64,
    Dt::F16,
    Dt::F32,
    Dt::F64,
];

fn parents(d: Dt) -> &'static [Dt] {
    match d {
        Dt::Bool => &[Dt::I8, Dt::U8],
        Dt::I8 => &[Dt::I16],
        Dt::U8 => &[Dt::I16, Dt::U16],
        Dt::I16 => &[Dt::I32],
        Dt::U16 => &[Dt::I32, Dt::U32],
        Dt::I32 => &[Dt::I64],
        Dt::U32 => &[Dt::I64, Dt::U64],
        Dt::I64 | Dt::U64 => &[Dt::F16],
        Dt::F16 => &[Dt::F32],
        Dt::F32 => &[Dt::F64],
        Dt::F64 => &[],
    }
}

fn ancestors(d: Dt) -> u32 {
    let bit = 1u32 << ORDER.iter().position(|&o| o == d).unwrap_or(0);
    parents(d).iter().fold(bit, |acc, &p| acc | ancestors(p))
}

/// The dtype two tensors meet in.
pub fn least_upper(a: Dt, b: Dt) -> Dt {
    ORDER[(ancestors(a) & ancestors(b)).trailing_zeros() as usize]
}

/// The kind of a Rust scalar operand.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScalarKind {
    Float,
    Int,
    Bool,
}

/// The dtype a weak scalar takes next to a tensor of dtype `t`.
pub fn weak(t: Dt, s: ScalarKind) -> Dt {
    match s {
        ScalarKind::Float if !t.is_float() => Dt::F32,
        ScalarKind::Int if t == Dt::Bool => Dt::I32,
        _ => t,
    }
}

/// Float ops on integer tensors give the default float.
pub fn float_of(t: Dt) -> Dt {
    if t.is_float() { t } else { Dt::F32 }
}

/// tinygrad's accumulation dtype of a sum.
pub fn sum_dtype(t: Dt) -> Dt {
    match t {
        Dt::Bool | Dt::I8 | Dt::I16 | Dt::I32 => Dt::I32,
        Dt::U8 | Dt::U16 | Dt::U32 => Dt::U32,
        other => other,
    }
}
