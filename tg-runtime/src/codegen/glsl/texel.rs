//! Reads of an input through a uniform texel buffer (`Program::texels`): 16-byte
//! `R32G32B32A32_UINT` texels, reinterpreted as the storage type the read's view would have
//! had, so a load site reads the same value either way. Inputs of at most 32-bit elements only.

use super::View;
use super::helpers::Helpers;
use crate::dtype::DType;

/// Element `i` (an integer expression) of input texel buffer `t` as `view` would read it:
/// for 32-bit dtypes an element, a vector of 4 or a pair of vectors as four 64-bit words;
/// for narrower ones the 32-bit word, the pair of words or the texel that holds as many.
pub fn read(d: DType, view: View, t: &str, i: &str, h: &mut Helpers) -> String {
    debug_assert!(d.size() <= 4, "{d} is not read through texels");
    let mut call = |f: &str| format!("{}({t}, int({i}))", h.use_fn(f));
    let texel = || format!("texelFetch({t}, int({i}))");
    let as_dtype = |bits: String, vector: bool| match d {
        DType::F32 => format!("uintBitsToFloat({bits})"),
        DType::I32 if vector => format!("ivec4({bits})"),
        DType::I32 => format!("int({bits})"),
        _ => bits,
    };
    match (view, d.size()) {
        (View::Scalar, 4) => as_dtype(call("tg_tx1"), false),
        (View::Scalar, _) | (View::Vector, 1) => call("tg_tx1"),
        (View::Vector, 2) | (View::Wide, 1) => call("tg_tx2"),
        (View::Vector, _) => as_dtype(texel(), true),
        (View::Wide, 2) => texel(),
        (View::Wide, _) => call("tg_tx8"),
        (View::Texel, _) => unreachable!("a read names the view it stands for"),
    }
}
