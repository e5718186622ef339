//! The macros never panic: random token streams and mutations of valid inputs give either code
//! or a compile error, through every entry point.

use proc_macro2::TokenStream;
use proptest::prelude::*;

const PIECES: &[&str] = &[
    "x", "w", "b", "B", "_", "f32", "i8", "f16", "Tensor", "shape", "!", "tensor", "fn", "let",
    "=", ";", ":", "::", ",", ".", "..", "...", "+", "-", "*", "**", "/", "%", "@", "&", "&&", "|",
    "^", "<", ">", "<=", "<<", ">>", "==", "(", ")", "[", "]", "{", "}", "0", "1", "-1", "2.5",
    "3", "784", "1e30", "300u8", "true", "None", "sum", "matmul", "reshape", "relu", "cat", "pad",
    "permute", "const", "usize", "->", "<", ">", "\"ii\"", "\"i,j\"", "\"\"", "'i'", "b\"ab\"",
    "einsum", "qr", "svd", "keccak", "hash", "acc",
];

/// Pieces too long for `PIECES`' one-line layout: strings (einsum formulas, hash names) and
/// the ops and keywords that read them.
const LONG_PIECES: &[&str] = &[
    "\"ij,jk->ik\"",
    "\"...ij->...ji\"",
    "\"sha3_256\"",
    "newton_schulz",
    "full_matrices",
];

/// Piece `i` of `PIECES` then `LONG_PIECES`, cyclically.
fn piece(i: usize) -> &'static str {
    let i = i % (PIECES.len() + LONG_PIECES.len());
    PIECES
        .get(i)
        .unwrap_or_else(|| &LONG_PIECES[i - PIECES.len()])
}

/// Random source text with balanced brackets: pieces and bracketed groups, nested.
fn source() -> impl Strategy<Value = String> {
    let leaf = (0usize..200).prop_map(|i| {
        let p = piece(i);
        if matches!(p, "(" | ")" | "[" | "]" | "{" | "}") {
            "x".to_string()
        } else {
            p.to_string()
        }
    });
    leaf.prop_recursive(4, 64, 8, |inner| {
        (prop::collection::vec(inner, 0..8), 0u8..4).prop_map(|(items, kind)| {
            let body = items.join(" ");
            match kind {
                0 => format!("({body})"),
                1 => format!("[{body}]"),
                2 => format!("{{{body}}}"),
                _ => body,
            }
        })
    })
}

const VALID_KERNEL: &str = "fn f<const B: usize>(x: Tensor<shape![B, 8]>, w: Tensor<shape![8, 3]>, k: f32) -> Tensor<shape![B, 3]> { let h = x.matmul(w) * k; h.relu().reshape([B, 3]) + tensor!(x @ w) }";
const VALID_LITERAL: &str = "[[1.0, 2.0], [3.0, 4.0]]; f16";
const VALID_EXPR: &str = "-x ** 2 @ w + b[None, ..., 1:3:2] < 3 && y.sum(1, true)";
/// Strings and the ops that read them (no spaces inside a literal: mutations split at spaces).
const VALID_LINALG: &str = "fn g<const B: usize>(x: Tensor<shape![B, 8]>, w: Tensor<shape![8, 3]>) -> (Tensor<shape![B, 3]>, Tensor<shape![_]>, Tensor<shape![B, 32], u8>) { let (u, s, vh) = x.einsum(\"bi,ij->bj\", w, acc = f32).svd(full_matrices = false); let n = w.newton_schulz(1, [1.5, -0.5]).qr().1; (u.einsum(\"bk,kj\", vh) + n.sum(0), s.einsum(\"...->...\"), x.keccak(\"sha3_256\")) }";

fn all_entry_points(ts: TokenStream) {
    let _ = crate::literal::expand(ts.clone());
    let _ = crate::dsl::typed::expand(ts.clone());
    let _ = crate::dsl::parse::parse_expr(ts.clone());
    let _ = crate::kernel::expand(TokenStream::new(), ts.clone());
    let _ = crate::kernel::expand(ts.clone(), VALID_KERNEL.parse().expect("valid"));
    let _ = crate::literal::is_literal(&ts);
}

/// A valid input with one piece removed, replaced or inserted.
fn mutate(src: &str, at: usize, with: usize, how: u8) -> String {
    let mut parts: Vec<String> = src.split(' ').map(String::from).collect();
    let at = at % (parts.len() + 1);
    let piece = piece(with).to_string();
    match how % 3 {
        0 if at < parts.len() => {
            parts.remove(at);
        }
        1 if at < parts.len() => parts[at] = piece,
        _ => parts.insert(at, piece),
    }
    parts.join(" ")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_tokens_never_panic(src in prop::collection::vec(source(), 1..6)) {
        let ts: TokenStream = src.join(" ").parse().expect("balanced source lexes");
        all_entry_points(ts);
    }

    #[test]
    fn mutated_inputs_never_panic(at in 0usize..80, with in 0usize..200, how in 0u8..3, which in 0u8..4) {
        let src = [VALID_KERNEL, VALID_LITERAL, VALID_EXPR, VALID_LINALG][which as usize];
        if let Ok(ts) = mutate(src, at, with, how).parse::<TokenStream>() {
            all_entry_points(ts);
        }
    }
}

#[test]
fn the_valid_inputs_expand() {
    let k = crate::kernel::expand(TokenStream::new(), VALID_KERNEL.parse().expect("tokens"));
    assert!(k.is_ok(), "{:?}", k.err().map(|e| e.to_string()));
    let k = crate::kernel::expand(TokenStream::new(), VALID_LINALG.parse().expect("tokens"));
    assert!(k.is_ok(), "{:?}", k.err().map(|e| e.to_string()));
    assert!(crate::literal::expand(VALID_LITERAL.parse().expect("tokens")).is_ok());
    assert!(crate::dsl::parse::parse_expr(VALID_EXPR.parse().expect("tokens")).is_ok());
}
