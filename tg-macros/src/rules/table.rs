//! A kernel body's call of an op, interpreted from its row in tg-core's op table: the
//! arguments bound to the parameters (by position and name) and read by kind, the row's
//! dtype and shape rules applied to the symbolic operands (through the same functions tg-ops
//! applies at run time), and the `DynTensor` call emitted with each argument converted by its
//! kind. An error is placed at the argument the rule names.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use syn::{Error, Result};
use tg_core::Checker;
use tg_core::DType;
use tg_core::ops::{
    Args, At, Call, Choices, Family, Fault, Group, Kind, OpError, OpSig, Outputs, Value,
};

use super::read::{self, Read};
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val};
use crate::sym::Poly;

/// The most tensors one call may give as a list (chunk, split): each becomes a local.
const MAX_PIECES: usize = 1024;

/// Where an error of a call belongs.
struct Spans<'a> {
    call: Span,
    recv: Span,
    sig: &'static OpSig,
    slots: &'a [Option<usize>],
    args: &'a [Arg],
}

impl Spans<'_> {
    fn of(&self, at: At) -> Span {
        match at {
            At::Call => self.call,
            At::Receiver => self.recv,
            At::Param(name) => self
                .sig
                .param(name)
                .and_then(|(k, _)| self.slots.get(k).copied().flatten())
                .and_then(|i| self.args.get(i))
                .map_or(self.call, |a| a.span),
        }
    }

    fn error(&self, f: Fault<Poly>) -> Error {
        Error::new(self.of(f.at), f.error.to_string())
    }
}

/// What the rules see of a value.
pub fn value_of(v: &Val) -> Value<Poly> {
    match v {
        Val::Tensor { shape, dtype, .. } => Value::Tensor(shape.clone(), *dtype),
        Val::Scalar { kind, .. } => Value::Scalar(*kind, read::known_f64(v)),
        Val::Int(p) => Value::Scalar(tg_core::ScalarKind::Int, p.as_const().map(|c| c as f64)),
        _ => Value::Opaque,
    }
}

/// `recv.name(args)` for the op of row `sig`, or `Tensor::name(args)` (no receiver) for a
/// creation op.
pub fn call(
    ctx: &mut Ctx,
    sig: &'static OpSig,
    recv: Option<Arg>,
    args: Vec<Arg>,
    span: Span,
) -> Result<Val> {
    let op = sig.name;
    if let Call::Special(reason) = sig.call {
        let e: OpError<Poly> = OpError::NotInKernel { op, reason };
        return Err(Error::new(span, e.to_string()));
    }
    match (&recv, sig.call) {
        (Some(_), Call::Assoc) => {
            return Err(Error::new(
                span,
                format!("`{op}` makes a tensor: write `Tensor::{op}(..)`"),
            ));
        }
        (None, c) if c != Call::Assoc => {
            return Err(Error::new(
                span,
                format!("`{op}` is a method of a tensor: write `x.{op}(..)`"),
            ));
        }
        _ => {}
    }
    let names: Vec<Option<&str>> = args.iter().map(|a| a.name.as_deref()).collect();
    let slots = tg_core::ops::bind::<Poly>(sig, op, &names).map_err(|(i, e)| {
        Error::new(
            i.and_then(|i| args.get(i)).map_or(span, |a| a.span),
            e.to_string(),
        )
    })?;
    let recv_code = match &recv {
        Some(r) => super::args::tensor(op, r)?.2.clone(),
        None => quote!(),
    };
    let reads = sig
        .params
        .iter()
        .zip(&slots)
        .map(|(p, slot)| match slot {
            Some(i) => read::read(op, p, &args[*i]),
            None => read::default(op, p, span),
        })
        .collect::<Result<Vec<Read>>>()?;
    let spans = Spans {
        call: span,
        recv: recv.as_ref().map_or(span, |r| r.span),
        sig,
        slots: &slots,
        args: &args,
    };
    let a = Args {
        op,
        sig,
        recv: recv.as_ref().map_or(Value::Absent, |r| value_of(&r.val)),
        vals: reads.iter().map(|r| r.value.clone()).collect(),
    };
    let mut ck = Checker::new();
    let outs = tg_core::ops::outputs(&mut ck, &a).map_err(|f| spans.error(f))?;
    for d in ck.take_deferred() {
        ctx.assert_later(&d.fact, d.error.to_string(), span);
    }
    let code = emit(sig, &recv_code, &reads, &a, &spans)?;
    let code = if sig.fallible {
        code
    } else {
        quote!(Ok::<_, ::tg::Error>(#code))
    };
    bind(ctx, sig, outs, code, span)
}

/// The `DynTensor` call: the arguments in the op's order, each option group gathered.
fn emit(
    sig: &'static OpSig,
    recv: &TokenStream,
    reads: &[Read],
    a: &Args<Poly>,
    spans: &Spans<'_>,
) -> Result<TokenStream> {
    let m = Ident::new(sig.name, spans.call);
    let order: Vec<usize> = match sig.call {
        Call::Reorder(names) => names
            .iter()
            .map(|n| sig.param(n).map(|(k, _)| k))
            .collect::<Option<_>>()
            .ok_or_else(|| Error::new(spans.call, "internal: a reordered parameter"))?,
        _ => (0..sig.params.len()).collect(),
    };
    let mut out: Vec<TokenStream> = Vec::new();
    let mut done: Option<Group> = None;
    for &k in &order {
        let p = &sig.params[k];
        match p.kind.group() {
            Some(g) if done == Some(g) => continue,
            Some(g) => {
                done = Some(g);
                out.push(match g {
                    Group::Window => window(sig, reads, a),
                    Group::PadMode => pad_mode(sig, reads, a, spans)?,
                });
            }
            None => out.push(reads[k].code.clone().unwrap_or_else(|| quote!(None))),
        }
    }
    Ok(match sig.call {
        Call::Join => {
            // `DynTensor::cat(&[x, others..], rest..)`
            let (others, rest) = out
                .split_first()
                .map_or((quote!(), &out[..0]), |(o, r)| (o.clone(), r));
            quote!(::tg::DynTensor::#m(&[#recv.clone(), #others], #(#rest),*))
        }
        Call::Assoc => quote!(::tg::DynTensor::#m(#(#out),*)),
        // the receiver's new contents: a copy of its handle takes the write
        Call::Write => quote!({
            let mut __w = #recv.clone();
            __w.#m(#(#out),*).map(|()| __w)
        }),
        Call::Split => {
            let (sizes, axis) = (&out[0], &out[1]);
            match a.vals[0] {
                Value::Dims(_) => quote!(#recv.split(#sizes, #axis)),
                _ => quote!(#recv.split_every(#sizes, #axis)),
            }
        }
        _ => quote!(#recv.#m(#(#out),*)),
    })
}

/// `&Conv::new()...` or `&Pool::new(kernel)...` with the given fields (the kernel per
/// spatial axis as tg-core reads it).
fn window(sig: &OpSig, reads: &[Read], a: &Args<Poly>) -> TokenStream {
    let mut kernel = quote!();
    let mut calls = Vec::new();
    let rank = match &a.recv {
        Value::Tensor(s, _) => s.len(),
        _ => 0,
    };
    for ((p, r), v) in sig.params.iter().zip(reads).zip(&a.vals) {
        let Kind::Window(f) = p.kind else { continue };
        if f == tg_core::ops::WindowField::Kernel {
            let k = tg_core::ops::pool_kernel(sig, rank, v).unwrap_or_default();
            let items = k.iter().map(|&x| {
                let l = proc_macro2::Literal::i64_unsuffixed(x);
                quote!((#l as usize))
            });
            kernel = quote!(::std::vec![#(#items),*]);
            continue;
        }
        let Some(code) = &r.code else { continue };
        let method = Ident::new(f.method(), Span::call_site());
        calls.push(quote!(.#method(#code)));
    }
    if sig.family == Family::Conv {
        quote!(&::tg::Conv::new()#(#calls)*)
    } else {
        quote!(&::tg::Pool::new(#kernel)#(#calls)*)
    }
}

/// `PadMode::constant(value)`, or another mode (which takes no value).
fn pad_mode(sig: &OpSig, reads: &[Read], a: &Args<Poly>, spans: &Spans<'_>) -> Result<TokenStream> {
    let (mi, _) = sig
        .param("mode")
        .ok_or_else(|| Error::new(spans.call, "internal: no pad mode"))?;
    let (vi, _) = sig
        .param("value")
        .ok_or_else(|| Error::new(spans.call, "internal: no pad value"))?;
    let mode = match a.vals[mi] {
        Value::Choice(i) => i,
        _ => 0,
    };
    let path = quote!(::tg::untyped::pad_modes::PadMode);
    if mode == 0 {
        let v = reads[vi].code.clone().unwrap_or_else(|| quote!(0i64));
        return Ok(quote!(#path::constant(#v)));
    }
    if spans.slots[vi].is_some() {
        let name = Choices::PadMode.names()[mode];
        return Err(Error::new(
            spans.of(At::Param("value")),
            format!(
                "`{}`: a value is only for the \"constant\" mode, not {name:?}",
                sig.name
            ),
        ));
    }
    Ok(read::choice_code(Choices::PadMode, mode))
}

/// Binds the call's result to locals: one tensor, a tuple, or a list.
fn bind(
    ctx: &mut Ctx,
    sig: &OpSig,
    outs: Vec<(Vec<Poly>, DType)>,
    code: TokenStream,
    span: Span,
) -> Result<Val> {
    match sig.outputs {
        Outputs::One => {
            let (shape, dtype) = outs
                .into_iter()
                .next()
                .ok_or_else(|| Error::new(span, "internal: no output"))?;
            Ok(ctx.bind(shape, dtype, code))
        }
        Outputs::Pair | Outputs::Triple => Ok(ctx.bind_tuple(outs, code)),
        Outputs::List => {
            if outs.len() > MAX_PIECES {
                return Err(Error::new(
                    span,
                    format!(
                        "`{}` would give {} tensors; a kernel takes at most {MAX_PIECES} from one split",
                        sig.name,
                        outs.len()
                    ),
                ));
            }
            Ok(bind_list(ctx, outs, code))
        }
    }
}

/// Binds a `Result<Vec<DynTensor>>` expression once and each piece to a fresh local: a list
/// value, so `let (a, b) = x.split(..)` and `.0` work as for pairs.
fn bind_list(ctx: &mut Ctx, outs: Vec<(Vec<Poly>, DType)>, code: TokenStream) -> Val {
    // `stmts` grows with every binding, so its length names this one uniquely
    let parts = format_ident!("__parts{}", ctx.stmts.len());
    ctx.stmts
        .push(quote!(let #parts: ::std::vec::Vec<::tg::DynTensor> = #code?;));
    Val::List(
        outs.into_iter()
            .enumerate()
            .map(|(i, (s, d))| ctx.bind(s, d, quote!(Ok::<_, ::tg::Error>(#parts[#i].clone()))))
            .collect(),
    )
}
