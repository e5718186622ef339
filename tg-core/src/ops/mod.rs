//! Op signatures as data: one row per op of tg's library, stating its parameters (name, kind,
//! default), how the `DynTensor` op is called, its dtype and shape rules, its outputs and its
//! typed form, as tinygrad writes an op once in its mixins for every receiver.
//!
//! Everything that needs an op's signature reads it here: `#[kernel]` interprets a row to
//! read a call's arguments, type its outputs and emit the `DynTensor` call; tg-ops generates
//! its typed wrappers of the table-shaped families and a dispatcher (an op called by name with
//! argument values, its result checked against the row) from the rows; the docs' table of
//! what a kernel body accepts is written from them. A new composite op is its implementation,
//! one row here and its test.

mod bind;
pub mod rules;
mod sig;
mod table;
mod value;

pub use bind::{BindError, bind};
pub use rules::{DtypeRule, ShapeRule, check_need, meet, outputs, pool_kernel};
pub use sig::{
    ArgDefault, Call, Choices, Example, Family, Group, Kind, Need, OpSig, Outputs, Param, Pass,
    Typed, WindowField, ex, ex_with,
};
pub use value::{Args, At, Fault, OpError, Place, Value};

/// tinygrad's names of the standard Keccak sponges, with tg-ops' `Keccak` variant, their
/// rate and their domain byte.
pub const KECCAK_NAMES: &[(&str, &str, usize, u8)] = &[
    ("sha3_224", "Sha3_224", 144, 0x06),
    ("sha3_256", "Sha3_256", 136, 0x06),
    ("shake_128", "Shake128", 168, 0x1f),
];

/// Every op, in table order.
pub fn all() -> impl Iterator<Item = &'static OpSig> {
    table::TABLES.iter().flat_map(|t| t.iter())
}

/// The op a method name means.
pub fn lookup(name: &str) -> Option<&'static OpSig> {
    all().find(|s| s.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_rows_are_whole() {
        let mut names: Vec<&str> = all().map(|s| s.name).collect();
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n, "an op named twice");
        for s in all() {
            let outs = match s.outputs {
                Outputs::One | Outputs::List => 1,
                Outputs::Pair => 2,
                Outputs::Triple => 3,
            };
            assert!(
                s.dtypes.len() == 1 || s.dtypes.len() == outs,
                "{}: {} dtype rules for {outs} outputs",
                s.name,
                s.dtypes.len()
            );
            let mut params: Vec<&str> = s.params.iter().map(|p| p.name).collect();
            params.sort_unstable();
            params.dedup();
            assert_eq!(
                params.len(),
                s.params.len(),
                "{}: a parameter twice",
                s.name
            );
            let mut seen_default = false;
            for p in s.params.iter().filter(|p| p.pass != Pass::Keyword) {
                if p.default != ArgDefault::Required {
                    seen_default = true;
                } else {
                    assert!(
                        !seen_default,
                        "{}: required `{}` after a default",
                        s.name, p.name
                    );
                }
            }
        }
    }
}
