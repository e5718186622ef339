//! Placeholder of the scatter rule family; its rules are being written.

use proc_macro2::Span;
use syn::{Error, Result};

use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val};

pub const NAMES: &[&str] = &[];

pub fn apply(_ctx: &mut Ctx, name: &str, _recv: Arg, _args: Vec<Arg>, span: Span) -> Result<Val> {
    Err(Error::new(span, format!("`{name}` has no shape rule yet")))
}
