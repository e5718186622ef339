//! Ops of tg-ops' ranges family that a kernel body calls on a tensor: the triangles `tril` and
//! `triu` (the rest of a matrix zeroed), and `one_hot`.

use proc_macro2::{Ident, Span};
use quote::quote;
use syn::{Error, Result};
use tg_core::DType;
use tg_core::shape::movement::require_rank;

use super::{args, ops};
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val};

ops! {
    /// The ranges ops a kernel body calls on a tensor.
    pub enum RangesOp {
        Tril = "tril",
        Triu = "triu",
        OneHot = "one_hot",
    }
}

pub fn apply(ctx: &mut Ctx, op: RangesOp, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let name = op.name();
    let (shape, dtype, code) = args::tensor(name, &recv)?;
    let (shape, code) = (shape.to_vec(), code.clone());
    match op {
        RangesOp::Tril | RangesOp::Triu => {
            args::count(name, &args, 0, 1, span)?;
            // the diagonal shifts no dim, so a const parameter will do as well as a literal
            let k = match args.first().map(|a| args::poly(name, a)).transpose()? {
                None => quote!(0isize),
                Some(p) => match p.as_const() {
                    Some(k) => quote!((#k as isize)),
                    None => {
                        let t = p.to_tokens(&|_| quote!(0usize));
                        quote!(((#t as i64) as isize))
                    }
                },
            };
            ctx.rule(recv.span, |_| require_rank(name, &shape, 2))?;
            let m = Ident::new(name, span);
            Ok(ctx.bind(shape, dtype, quote!(#code.#m(#k))))
        }
        RangesOp::OneHot => {
            args::count(name, &args, 1, 1, span)?;
            if !dtype.is_int() {
                return Err(Error::new(
                    recv.span,
                    format!(
                        "`one_hot` takes integer class indices, this tensor is {}",
                        dtype.rust_name()
                    ),
                ));
            }
            let n = args::poly(name, &args[0])?;
            let c = n.to_tokens(&|_| quote!(0usize));
            let mut out = shape;
            out.push(n);
            Ok(ctx.bind(out, DType::I32, quote!(#code.one_hot(#c))))
        }
    }
}
