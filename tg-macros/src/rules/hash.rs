//! Hashing: `x.keccak(cfg)` replaces the last axis by the digest (u8), `x.hash()` gives
//! tinygrad's 16-byte hash of the whole tensor. Any dtype hashes (its little-endian bytes).

use proc_macro2::Span;
use quote::quote;
use syn::{Error, Result};

use super::{args, ops};
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val, show_shape};
use crate::sym::Poly;
use tg_core::DType;

ops! {
    /// Hashing.
    pub enum HashOp {
        Keccak = "keccak",
        Hash = "hash",
    }
}

/// tinygrad's names of the standard sponges, with tg-ops' `Keccak` variant and `(rate,
/// dsbyte)`.
const STANDARD: &[(&str, &str, usize)] = &[
    ("sha3_224", "Sha3_224", 144),
    ("sha3_256", "Sha3_256", 136),
    ("shake_128", "Shake128", 168),
];

/// The `::tg::untyped::hash::Keccak` value and the digest length in bytes for `cfg`: a name
/// (tinygrad's `"sha3_256"`, the default, `"sha3_224"`, `"shake_128"`) or a `(rate,
/// dsbyte)` pair of literals (`(136, 1)` is Ethereum's Keccak-256), as tinygrad's
/// `keccak(cfg)` takes it; the rate is checked here as tg-ops checks it at run time.
fn config(cfg: Option<&Arg>, shape: &[Poly]) -> Result<(proc_macro2::TokenStream, i64)> {
    let rate_of = |rate: usize| (200 - rate as i64) / 2;
    let Some(a) = cfg else {
        return Ok((quote!(::tg::untyped::hash::Keccak::Sha3_256), rate_of(136)));
    };
    let names = || {
        STANDARD
            .iter()
            .map(|(n, _, _)| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match &a.val {
        Val::Str(s) => {
            let Some((_, variant, rate)) = STANDARD.iter().find(|(n, _, _)| n == s) else {
                return Err(Error::new(
                    a.span,
                    format!(
                        "`keccak`: unknown configuration {s:?}; it takes {} or a (rate, dsbyte) pair",
                        names()
                    ),
                ));
            };
            let v = proc_macro2::Ident::new(variant, Span::call_site());
            Ok((quote!(::tg::untyped::hash::Keccak::#v), rate_of(*rate)))
        }
        Val::List(items) if items.len() == 2 => {
            let rate = args::int("keccak", &Arg::new(items[0].clone(), a.span))?;
            let ds = args::int("keccak", &Arg::new(items[1].clone(), a.span))?;
            if !(1..200).contains(&rate) {
                return Err(Error::new(
                    a.span,
                    format!(
                        "`keccak`: the rate must be 1..200 bytes, got {rate} (input of shape {})",
                        show_shape(shape)
                    ),
                ));
            }
            if !(0..=255).contains(&ds) {
                return Err(Error::new(
                    a.span,
                    format!("`keccak`: the domain byte must be 0..=255, got {ds}"),
                ));
            }
            let (r, d) = (rate as usize, ds as u8);
            Ok((
                quote!(::tg::untyped::hash::Keccak::Custom { rate: #r, dsbyte: #d }),
                rate_of(r),
            ))
        }
        other => Err(Error::new(
            a.span,
            format!(
                "`keccak` takes {} or a (rate, dsbyte) pair, found {}",
                names(),
                other.describe()
            ),
        )),
    }
}

pub fn apply(ctx: &mut Ctx, op: HashOp, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let name = op.name();
    let (shape, _, code) = args::tensor(name, &recv)?;
    let (shape, code) = (shape.to_vec(), code.clone());
    match op {
        HashOp::Hash => {
            args::count(name, &args, 0, 0, span)?;
            Ok(ctx.bind(vec![Poly::constant(16)], DType::U8, quote!(#code.hash())))
        }
        HashOp::Keccak => keccak(ctx, &recv, shape, code, args, span),
    }
}

/// `x.keccak(cfg)`: the last axis replaced by the digest.
fn keccak(
    ctx: &mut Ctx,
    recv: &Arg,
    shape: Vec<Poly>,
    code: proc_macro2::TokenStream,
    args: Vec<Arg>,
    span: Span,
) -> Result<Val> {
    let name = HashOp::Keccak.name();
    let (pos, kw) = args::split(name, args, &["cfg"], 1, span)?;
    let (cfg, bytes) = config(args::pick_once(name, &kw, &pos, "cfg", 0)?, &shape)?;
    let Some((_, lead)) = shape.split_last() else {
        return Err(Error::new(
            recv.span,
            format!(
                "`keccak`: a tensor of shape {} (rank 0) has no last axis to hash; reshape it to [1]",
                show_shape(&shape)
            ),
        ));
    };
    let mut out = lead.to_vec();
    out.push(Poly::constant(bytes));
    Ok(ctx.bind(out, DType::U8, quote!(#code.keccak(#cfg))))
}
