//! tg's dtype names as the macros spell them, and the Rust types they map to.

/// An element type of a tensor literal or a kernel signature.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dt {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    F32,
    F64,
}

impl Dt {
    pub fn parse(s: &str) -> Option<Dt> {
        Some(match s {
            "bool" => Dt::Bool,
            "i8" => Dt::I8,
            "u8" => Dt::U8,
            "i16" => Dt::I16,
            "u16" => Dt::U16,
            "i32" => Dt::I32,
            "u32" => Dt::U32,
            "i64" => Dt::I64,
            "u64" => Dt::U64,
            "f16" => Dt::F16,
            "f32" => Dt::F32,
            "f64" => Dt::F64,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Dt::Bool => "bool",
            Dt::I8 => "i8",
            Dt::U8 => "u8",
            Dt::I16 => "i16",
            Dt::U16 => "u16",
            Dt::I32 => "i32",
            Dt::U32 => "u32",
            Dt::I64 => "i64",
            Dt::U64 => "u64",
            Dt::F16 => "f16",
            Dt::F32 => "f32",
            Dt::F64 => "f64",
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Dt::F16 | Dt::F32 | Dt::F64)
    }

    pub fn is_int(self) -> bool {
        !self.is_float() && self != Dt::Bool
    }

    /// Range of an integer type.
    pub fn int_range(self) -> (i128, i128) {
        match self {
            Dt::I8 => (i8::MIN as i128, i8::MAX as i128),
            Dt::U8 => (0, u8::MAX as i128),
            Dt::I16 => (i16::MIN as i128, i16::MAX as i128),
            Dt::U16 => (0, u16::MAX as i128),
            Dt::I32 => (i32::MIN as i128, i32::MAX as i128),
            Dt::U32 => (0, u32::MAX as i128),
            Dt::I64 => (i64::MIN as i128, i64::MAX as i128),
            Dt::U64 => (0, u64::MAX as i128),
            _ => (0, 1),
        }
    }

    /// The Rust type, as tokens.
    pub fn rust_type(self) -> proc_macro2::TokenStream {
        match self {
            Dt::F16 => quote::quote!(::tg::prelude::f16),
            _ => {
                let id = proc_macro2::Ident::new(self.name(), proc_macro2::Span::call_site());
                quote::quote!(#id)
            }
        }
    }
}

/// All names, for error messages.
pub const NAMES: &str = "bool, i8, u8, i16, u16, i32, u32, i64, u64, f16, f32, f64";
