//! Parses `tensor!` expressions: numpy-like syntax in Rust tokens, with Python's precedence.
//!
//! `a @ b`, `x ** 2`, `-x`, `a + b * c`, comparisons, `x.relu().sum(1)`, `x[.., 1:3, ::2]`
//! (also `1..3`), `x[0]`, `x[-1]`, `x[None]`, `x[..., 0]`, `x[idx]` with a tensor of indices.
//! Literals (numbers, bools, strings such as einsum's `"ij,jk->ik"`) stay `syn::Lit`s; what a
//! literal may be is decided where it is evaluated.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use syn::{Error, Result};

use super::ast::{Ast, BinOp, IndexItem};

struct Cursor {
    toks: Vec<TokenTree>,
    pos: usize,
    end_span: Span,
}

impl Cursor {
    fn new(ts: TokenStream, end_span: Span) -> Cursor {
        Cursor {
            toks: ts.into_iter().collect(),
            pos: 0,
            end_span,
        }
    }

    fn peek(&self) -> Option<&TokenTree> {
        self.toks.get(self.pos)
    }

    fn span(&self) -> Span {
        self.peek().map(|t| t.span()).unwrap_or(self.end_span)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// The operator spelled by the punctuation at the cursor (joint characters glued), if any.
    /// `* *` counts as `**` even when spaced: rustfmt reads `a ** b` as `a * (*b)` and spaces
    /// it so, and a dereference means nothing here.
    fn punct_seq(&self) -> String {
        let mut s = String::new();
        let mut i = self.pos;
        while let Some(TokenTree::Punct(p)) = self.toks.get(i) {
            s.push(p.as_char());
            let next_star =
                matches!(self.toks.get(i + 1), Some(TokenTree::Punct(q)) if q.as_char() == '*');
            if p.spacing() == proc_macro2::Spacing::Alone && !(s == "*" && next_star) {
                break;
            }
            i += 1;
        }
        s
    }

    /// Consumes `op` if the punctuation at the cursor starts with it exactly.
    fn eat(&mut self, op: &str) -> bool {
        let seq = self.punct_seq();
        // `a * -b` glues `*-`: accept a prefix only at a character boundary of a longer run
        if seq == op || (seq.starts_with(op) && !is_op_prefix(&seq, op)) {
            self.pos += op.len();
            true
        } else {
            false
        }
    }

    fn expect_end(&self) -> Result<()> {
        if self.at_end() {
            Ok(())
        } else {
            Err(Error::new(
                self.span(),
                "unexpected tokens in tensor expression",
            ))
        }
    }
}

/// Would `seq` be read as a longer operator than `op`?
fn is_op_prefix(seq: &str, op: &str) -> bool {
    const LONGER: [&str; 12] = [
        "**", "<=", ">=", "==", "!=", "<<", ">>", "&&", "||", "..", "...", "::",
    ];
    LONGER
        .iter()
        .any(|l| l.len() > op.len() && seq.starts_with(l) && l.starts_with(op))
}

const BINARY: [(&str, BinOp, u8); 19] = [
    ("||", BinOp::Or, 1),
    ("&&", BinOp::And, 2),
    ("==", BinOp::Eq, 3),
    ("!=", BinOp::Ne, 3),
    ("<=", BinOp::Le, 3),
    (">=", BinOp::Ge, 3),
    ("<<", BinOp::Shl, 7),
    (">>", BinOp::Shr, 7),
    ("<", BinOp::Lt, 3),
    (">", BinOp::Gt, 3),
    ("|", BinOp::BitOr, 4),
    ("^", BinOp::BitXor, 5),
    ("&", BinOp::BitAnd, 6),
    ("+", BinOp::Add, 8),
    ("-", BinOp::Sub, 8),
    ("*", BinOp::Mul, 9),
    ("/", BinOp::Div, 9),
    ("%", BinOp::Rem, 9),
    ("@", BinOp::MatMul, 9),
];

/// Parses a whole `tensor!` expression.
pub fn parse_expr(ts: TokenStream) -> Result<Ast> {
    let mut c = Cursor::new(ts, Span::call_site());
    if c.at_end() {
        return Err(Error::new(Span::call_site(), "empty tensor expression"));
    }
    let e = binary(&mut c, 0)?;
    c.expect_end()?;
    Ok(e)
}

fn binary(c: &mut Cursor, min: u8) -> Result<Ast> {
    let mut lhs = unary(c)?;
    loop {
        if c.punct_seq().starts_with("**") {
            break; // handled in `power`
        }
        let found = BINARY.iter().find(|(sym, _, prec)| {
            *prec >= min && {
                let seq = c.punct_seq();
                seq == *sym || (seq.starts_with(sym) && !is_op_prefix(&seq, sym))
            }
        });
        let Some(&(sym, op, prec)) = found else { break };
        let span = c.span();
        c.eat(sym);
        let rhs = binary(c, prec + 1)?;
        lhs = Ast::Bin(op, Box::new(lhs), Box::new(rhs), span);
    }
    Ok(lhs)
}

fn unary(c: &mut Cursor) -> Result<Ast> {
    let span = c.span();
    if c.eat("-") {
        return Ok(Ast::Neg(Box::new(unary(c)?), span));
    }
    if c.eat("!") || c.eat("~") {
        return Ok(Ast::Not(Box::new(unary(c)?), span));
    }
    power(c)
}

/// `base ** exponent`, right-associative and tighter than a unary minus on its left.
fn power(c: &mut Cursor) -> Result<Ast> {
    let base = postfix(c)?;
    let span = c.span();
    if c.eat("**") {
        let exp = unary(c)?;
        return Ok(Ast::Bin(BinOp::Pow, Box::new(base), Box::new(exp), span));
    }
    Ok(base)
}

fn postfix(c: &mut Cursor) -> Result<Ast> {
    let mut e = primary(c)?;
    loop {
        if c.punct_seq().starts_with('.') && !c.punct_seq().starts_with("..") {
            c.eat(".");
            let Some(TokenTree::Ident(name)) = c.peek().cloned() else {
                return Err(Error::new(c.span(), "expected a method name after `.`"));
            };
            c.pos += 1;
            let args = match c.peek() {
                Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => {
                    let g = g.clone();
                    c.pos += 1;
                    comma_list(&g)?
                }
                _ => Vec::new(),
            };
            e = Ast::Method {
                recv: Box::new(e),
                span: name.span(),
                name,
                args,
            };
            continue;
        }
        if let Some(TokenTree::Group(g)) = c.peek()
            && g.delimiter() == Delimiter::Bracket
        {
            let g = g.clone();
            c.pos += 1;
            e = Ast::Index {
                recv: Box::new(e),
                items: index_items(&g)?,
                span: g.span(),
            };
            continue;
        }
        return Ok(e);
    }
}

fn primary(c: &mut Cursor) -> Result<Ast> {
    let span = c.span();
    match c.peek().cloned() {
        Some(TokenTree::Ident(id)) => {
            c.pos += 1;
            if id == "true" || id == "false" {
                return Ok(Ast::Lit(syn::Lit::Bool(syn::LitBool::new(
                    id == "true",
                    id.span(),
                ))));
            }
            // a nested `tensor!([...])` literal
            if id == "tensor" && c.eat("!") {
                if let Some(TokenTree::Group(g)) = c.peek().cloned() {
                    c.pos += 1;
                    return Ok(Ast::Literal(g.stream(), g.span()));
                }
                return Err(Error::new(id.span(), "expected `tensor!(...)`"));
            }
            Ok(Ast::Var(id))
        }
        Some(TokenTree::Literal(l)) => {
            c.pos += 1;
            Ok(Ast::Lit(syn::Lit::new(l)))
        }
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => {
            c.pos += 1;
            let items = comma_list(&g)?;
            if items.len() == 1 && !ends_with_comma(&g) {
                Ok(items.into_iter().next().expect("one item"))
            } else {
                Ok(Ast::List(items, g.span()))
            }
        }
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket => {
            c.pos += 1;
            Ok(Ast::List(comma_list(&g)?, g.span()))
        }
        Some(t) => Err(Error::new(
            t.span(),
            format!("unexpected `{t}` in tensor expression"),
        )),
        None => Err(Error::new(span, "expected an operand")),
    }
}

fn ends_with_comma(g: &Group) -> bool {
    matches!(g.stream().into_iter().last(), Some(TokenTree::Punct(p)) if p.as_char() == ',')
}

/// Splits a group's tokens at top-level commas.
fn split_commas(g: &Group) -> Vec<Vec<TokenTree>> {
    let mut parts = vec![Vec::new()];
    for t in g.stream() {
        match &t {
            TokenTree::Punct(p) if p.as_char() == ',' => parts.push(Vec::new()),
            _ => parts.last_mut().expect("part").push(t),
        }
    }
    if parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    parts
}

fn comma_list(g: &Group) -> Result<Vec<Ast>> {
    split_commas(g)
        .into_iter()
        .map(|part| {
            if part.is_empty() {
                return Err(Error::new(g.span(), "empty argument"));
            }
            // `name = value`: a keyword argument
            if let [TokenTree::Ident(name), TokenTree::Punct(eq), rest @ ..] = part.as_slice()
                && eq.as_char() == '='
                && eq.spacing() == proc_macro2::Spacing::Alone
                && !rest.is_empty()
            {
                let mut c = Cursor::new(rest.iter().cloned().collect(), g.span_close());
                let e = binary(&mut c, 0)?;
                c.expect_end()?;
                return Ok(Ast::Named(name.clone(), Box::new(e)));
            }
            let mut c = Cursor::new(part.into_iter().collect(), g.span_close());
            let e = binary(&mut c, 0)?;
            c.expect_end()?;
            Ok(e)
        })
        .collect()
}

fn index_items(g: &Group) -> Result<Vec<IndexItem>> {
    let parts = split_commas(g);
    if parts.is_empty() {
        return Err(Error::new(g.span(), "empty index"));
    }
    parts
        .into_iter()
        .map(|part| index_item(part, g.span_close()))
        .collect()
}

/// One index item: `None`, `...`, `a:b:c`, `a..b`, or an expression.
fn index_item(part: Vec<TokenTree>, close: Span) -> Result<IndexItem> {
    let span = part.first().map(|t| t.span()).unwrap_or(close);
    if let [TokenTree::Ident(i)] = part.as_slice()
        && i == "None"
    {
        return Ok(IndexItem::NewAxis);
    }
    let mut c = Cursor::new(part.into_iter().collect(), close);
    if c.punct_seq() == "..." {
        c.pos += 3;
        c.expect_end()?;
        return Ok(IndexItem::Ellipsis(span));
    }
    // Python slices: up to three optional parts separated by `:` (`::` is two separators)
    let mut parts: Vec<Option<Ast>> = vec![None];
    let mut rust_range = false;
    while !c.at_end() {
        let seq = c.punct_seq();
        if seq.starts_with("::") {
            c.pos += 2;
            parts.push(None);
            parts.push(None);
        } else if seq.starts_with(':') {
            c.pos += 1;
            parts.push(None);
        } else if seq.starts_with("..") && !seq.starts_with("...") {
            c.pos += 2;
            if c.punct_seq().starts_with('=') {
                return Err(Error::new(
                    c.span(),
                    "inclusive ranges are not supported in indexing; write `a..b+1`",
                ));
            }
            rust_range = true;
            parts.push(None);
        } else {
            let e = binary(&mut c, 0)?;
            let last = parts.last_mut().expect("part");
            if last.is_some() {
                return Err(Error::new(e.span(), "expected `:` in slice"));
            }
            *last = Some(e);
        }
    }
    match parts.len() {
        1 => Ok(IndexItem::At(
            parts
                .pop()
                .flatten()
                .ok_or_else(|| Error::new(span, "empty index"))?,
        )),
        2 | 3 if !(rust_range && parts.len() == 3) => {
            let mut it = parts.into_iter().map(|p| p.map(Box::new));
            let start = it.next().flatten();
            let stop = it.next().flatten();
            let step = it.next().flatten();
            Ok(IndexItem::Slice {
                start,
                stop,
                step,
                span,
            })
        }
        _ => Err(Error::new(
            span,
            "a slice has at most three parts: `start:stop:step`",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    /// Tokens as rustc hands them to a macro (joint punctuation kept).
    fn ts(src: &str) -> TokenStream {
        src.parse().unwrap()
    }

    fn show(e: &Ast) -> String {
        match e {
            Ast::Var(i) => i.to_string(),
            Ast::Lit(l) => quote!(#l).to_string(),
            Ast::Literal(..) => "lit".into(),
            Ast::Neg(a, _) => format!("(-{})", show(a)),
            Ast::Not(a, _) => format!("(!{})", show(a)),
            Ast::Bin(op, a, b, _) => format!("({} {} {})", show(a), op.symbol(), show(b)),
            Ast::Method {
                recv, name, args, ..
            } => {
                format!(
                    "{}.{}({})",
                    show(recv),
                    name,
                    args.iter().map(show).collect::<Vec<_>>().join(", ")
                )
            }
            Ast::Index { recv, items, .. } => format!("{}[{}]", show(recv), items.len()),
            Ast::Host(e) => quote!(#e).to_string(),
            Ast::Call { path, args, .. } => format!(
                "{}({})",
                path.iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join("::"),
                args.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
            Ast::List(items, _) => format!(
                "[{}]",
                items.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
            Ast::Named(n, v) => format!("{n}={}", show(v)),
            Ast::Field(b, i, _) => format!("{}.{i}", show(b)),
        }
    }

    #[test]
    fn precedence_follows_python() {
        let e = parse_expr(ts("a @ b + c * -d ** 2")).unwrap();
        assert_eq!(show(&e), "((a @ b) + (c * (-(d ** 2))))");
        let e = parse_expr(ts("x.relu().sum(1) < 3 && y")).unwrap();
        assert_eq!(show(&e), "((x.relu().sum(1) < 3) && y)");
        let e = parse_expr(ts("2 ** -x")).unwrap();
        assert_eq!(show(&e), "(2 ** (-x))");
        // as rustfmt spaces it
        let e = parse_expr(ts("-b * *2")).unwrap();
        assert_eq!(show(&e), "(-(b ** 2))");
        let e = parse_expr(ts("a - b - c")).unwrap();
        assert_eq!(show(&e), "((a - b) - c)");
    }

    #[test]
    fn slices() {
        let Ast::Index { items, .. } =
            parse_expr(ts("x[.., 1:3, ::2, 1..3, None, ..., -1]")).unwrap()
        else {
            panic!()
        };
        assert_eq!(items.len(), 7);
        assert!(matches!(
            items[0],
            IndexItem::Slice {
                start: None,
                stop: None,
                step: None,
                ..
            }
        ));
        assert!(matches!(
            items[1],
            IndexItem::Slice {
                start: Some(_),
                stop: Some(_),
                step: None,
                ..
            }
        ));
        assert!(matches!(
            items[2],
            IndexItem::Slice {
                start: None,
                stop: None,
                step: Some(_),
                ..
            }
        ));
        assert!(matches!(
            items[3],
            IndexItem::Slice {
                start: Some(_),
                stop: Some(_),
                step: None,
                ..
            }
        ));
        assert!(matches!(items[4], IndexItem::NewAxis));
        assert!(matches!(items[5], IndexItem::Ellipsis(_)));
        assert!(matches!(items[6], IndexItem::At(Ast::Neg(..))));
    }

    #[test]
    fn string_arguments() {
        let e = parse_expr(ts(r#"a.einsum("ij,jk->ik", b, acc = f32)"#)).unwrap();
        assert_eq!(show(&e), r#"a.einsum("ij,jk->ik", b, acc=f32)"#);
        let Ast::Method { args, .. } = e else {
            panic!()
        };
        assert!(matches!(&args[0], Ast::Lit(syn::Lit::Str(s)) if s.value() == "ij,jk->ik"));
    }

    #[test]
    fn errors_do_not_panic() {
        for src in [
            "",
            "a +",
            "x[]",
            "x[1:2:3:4]",
            ".",
            "a b",
            "x[1..=2]",
            "(a,) b",
            "x.",
            "- -",
        ] {
            assert!(parse_expr(ts(src)).is_err(), "{src}");
        }
    }
}
