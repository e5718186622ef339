//! Mirror tests of the decompositions rules (see the parent module): einsum, qr, svd,
//! newton_schulz, keccak and hash against tg-ops on real tensors; their errors on bad inputs;
//! symbolic shapes. (The ui-tests `kernel_linalg_*` cases are these errors seen through rustc.)

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use tg_ops::DynTensor;
use tg_ops::untyped::hash::Keccak;

use super::{check, dt};
use crate::dsl::parse::parse_expr;
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Val, show_shape};
use crate::sym::Poly;
use tg_core::DType as Dt;

type OpN = fn(&[DynTensor]) -> tg_ops::Result<Vec<DynTensor>>;

/// A context with tensors `vars` (dims as DSL expressions: `"B"`, `"3"`), `consts` being the
/// kernel's const parameters.
fn ctx_with(consts: &[&str], vars: &[(&str, &[&str], Dt)]) -> Ctx {
    let mut ctx = Ctx::new(
        consts
            .iter()
            .map(|c| Ident::new(c, Span::call_site()))
            .collect(),
    );
    for (name, dims, d) in vars {
        let ident = Ident::new(name, Span::call_site());
        let shape = dims
            .iter()
            .map(|s| {
                let ast = parse_expr(s.parse().expect("tokens")).expect("dim");
                match ctx.eval(&ast) {
                    Ok(Val::Int(p)) => p,
                    _ => panic!("{s}: not a dimension"),
                }
            })
            .collect();
        ctx.env.insert(
            name.to_string(),
            Val::Tensor {
                shape,
                dtype: *d,
                code: quote!(#ident),
            },
        );
    }
    ctx
}

fn eval(ctx: &mut Ctx, expr: &str) -> syn::Result<Val> {
    let tokens: TokenStream = expr.parse().expect("tokens");
    parse_expr(tokens).and_then(|a| ctx.eval(&a))
}

/// `check` for ops giving one tensor or several: the rule and tg-ops both accept, with the
/// same shapes and dtypes in order, or both reject.
fn check_n(expr: &str, vars: &[(&str, &[usize], Dt)], op: OpN) {
    let mut ctx = Ctx::new(vec![]);
    let mut real = Vec::new();
    for (name, shape, d) in vars {
        let ident = Ident::new(name, Span::call_site());
        let s = shape.iter().map(|&n| Poly::constant(n as i64)).collect();
        ctx.env.insert(
            name.to_string(),
            Val::Tensor {
                shape: s,
                dtype: *d,
                code: quote!(#ident),
            },
        );
        real.push(DynTensor::zeros(shape, dt(*d)).unwrap());
    }
    let got = eval(&mut ctx, expr);
    match (got, op(&real)) {
        (Ok(v), Ok(want)) => {
            let items = match v {
                Val::List(items) => items,
                v => vec![v],
            };
            assert_eq!(items.len(), want.len(), "{expr}: result count");
            for (i, (v, t)) in items.iter().zip(&want).enumerate() {
                let Val::Tensor { shape, dtype, .. } = v else {
                    panic!("{expr}: result {i} is not a tensor")
                };
                let shape: Vec<usize> = shape
                    .iter()
                    .map(|p| p.as_const().expect("concrete") as usize)
                    .collect();
                assert_eq!(shape, t.shape(), "{expr}: shape of result {i}");
                assert_eq!(dt(*dtype), t.dtype(), "{expr}: dtype of result {i}");
            }
        }
        (Err(_), Err(_)) => {}
        (Ok(_), Err(e)) => panic!("{expr}: the rule accepts what tg-ops rejects: {e}"),
        (Err(e), Ok(_)) => panic!("{expr}: the rule rejects what tg-ops accepts: {e}"),
    }
}

/// The rule's error message for `expr`; panics if it is accepted.
fn error(consts: &[&str], vars: &[(&str, &[&str], Dt)], expr: &str) -> String {
    match eval(&mut ctx_with(consts, vars), expr) {
        Ok(_) => panic!("{expr}: accepted"),
        Err(e) => e.to_string(),
    }
}

fn has_all(msg: &str, parts: &[&str]) {
    for p in parts {
        assert!(msg.contains(p), "{msg:?} lacks {p:?}");
    }
}

fn ein(formula: &'static str, t: &[DynTensor]) -> tg_ops::Result<Vec<DynTensor>> {
    Ok(vec![DynTensor::einsum(formula, t, None)?])
}

#[test]
fn einsum_rules_agree_with_tg_ops() {
    use Dt::*;
    let mm: &[(&str, &[usize], Dt)] = &[("a", &[2, 3], F32), ("b", &[3, 4], F16)];
    check_n("a.einsum(\"ij,jk->ik\", b)", mm, |t| ein("ij,jk->ik", t));
    check_n("a.einsum(\"ij,jk\", b)", mm, |t| ein("ij,jk", t));
    check_n("a.einsum(\" ij , jk -> ki \", b)", mm, |t| {
        ein(" ij , jk -> ki ", t)
    });
    check_n(
        "a.einsum(\"bij,bjk->bik\", b)",
        &[("a", &[5, 2, 3], F32), ("b", &[5, 3, 4], F32)],
        |t| ein("bij,bjk->bik", t),
    );
    check_n("a.einsum(\"ij->ji\")", &[("a", &[2, 3], I8)], |t| {
        ein("ij->ji", t)
    });
    check_n("a.einsum(\"ii->\")", &[("a", &[3, 3], I32)], |t| {
        ein("ii->", t)
    });
    check_n("a.einsum(\"ii\")", &[("a", &[3, 3], F32)], |t| ein("ii", t));
    check_n("a.einsum(\"ii->i\")", &[("a", &[3, 3], U8)], |t| {
        ein("ii->i", t)
    });
    check_n("a.einsum(\"iji->j\")", &[("a", &[3, 2, 3], F32)], |t| {
        ein("iji->j", t)
    });
    check_n(
        "a.einsum(\"i,j->ij\", b)",
        &[("a", &[2], F32), ("b", &[3], I32)],
        |t| ein("i,j->ij", t),
    );
    check_n("a.einsum(\"ij->\")", &[("a", &[2, 3], F16)], |t| {
        ein("ij->", t)
    });
    check_n("a.einsum(\"ij->j\")", &[("a", &[2, 3], Bool)], |t| {
        ein("ij->j", t)
    });
    check_n("a.einsum(\"ba\")", &[("a", &[2, 3], F32)], |t| ein("ba", t));
    check_n(
        "a.einsum(\"i,i->\", b)",
        &[("a", &[3], Bool), ("b", &[3], Bool)],
        |t| ein("i,i->", t),
    );
    check_n(
        "a.einsum(\"i,ij,j->\", m, a)",
        &[("a", &[2], F32), ("m", &[2, 2], F64)],
        |t| {
            let ops = [t[0].clone(), t[1].clone(), t[0].clone()];
            Ok(vec![DynTensor::einsum("i,ij,j->", &ops, None)?])
        },
    );
    check_n(
        "a.einsum(\"Ab,bC->CA\", b)",
        &[("a", &[2, 3], F32), ("b", &[3, 4], F32)],
        |t| ein("Ab,bC->CA", t),
    );
    check_n(
        "a.einsum(\"...ij->...ji\")",
        &[("a", &[4, 2, 3], F32)],
        |t| ein("...ij->...ji", t),
    );
    check_n(
        "a.einsum(\"...ij,...jk->...ik\", b)",
        &[("a", &[2, 1, 2, 3], F32), ("b", &[4, 3, 5], F32)],
        |t| ein("...ij,...jk->...ik", t),
    );
    check_n(
        "a.einsum(\"...ij,...jk\", b)",
        &[("a", &[2, 1, 2, 3], F32), ("b", &[4, 3, 5], F32)],
        |t| ein("...ij,...jk", t),
    );
    check_n("a.einsum(\"...i->i\")", &[("a", &[4, 2, 3], F32)], |t| {
        ein("...i->i", t)
    });
    check_n("a.einsum(\"ij->...ij\")", &[("a", &[2, 3], F32)], |t| {
        ein("ij->...ij", t)
    });
    check_n("a.einsum(\"\")", &[("a", &[], F32)], |t| ein("", t));
    check_n(
        "a.einsum(\"ij->i\", acc = f64)",
        &[("a", &[2, 3], I32)],
        |t| {
            Ok(vec![DynTensor::einsum(
                "ij->i",
                t,
                Some(tg_ops::DType::F64),
            )?])
        },
    );
    // rejected by both
    let bad: &[(&str, &[usize], Dt)] = &[("a", &[2, 3], F32), ("b", &[4, 5], F32)];
    check_n("a.einsum(\"ij,jk->ik\", b)", bad, |t| ein("ij,jk->ik", t));
    check_n("a.einsum(\"ij,jk->ik\")", bad, |t| {
        ein("ij,jk->ik", &t[..1])
    });
    check_n("a.einsum(\"ij,j1->i\", b)", bad, |t| ein("ij,j1->i", t));
    check_n("a.einsum(\"ijk,kl\", b)", bad, |t| ein("ijk,kl", t));
    check_n("a.einsum(\"ij,kl->iz\", b)", bad, |t| ein("ij,kl->iz", t));
    check_n("a.einsum(\"ij,kl->ii\", b)", bad, |t| ein("ij,kl->ii", t));
    check_n("a.einsum(\"ii\")", bad, |t| ein("ii", &t[..1]));
    check_n("a.einsum(\"i...j...\")", bad, |t| ein("i...j...", &t[..1]));
    check_n("a.einsum(\"ij->j->i\")", bad, |t| ein("ij->j->i", &t[..1]));
    check_n(
        "a.einsum(\"...i,...i\", b)",
        &[("a", &[2, 3], F32), ("b", &[4, 3], F32)],
        |t| ein("...i,...i", t),
    );
}

#[test]
fn decomposition_rules_agree_with_tg_ops() {
    use Dt::*;
    for (shape, d) in [
        (&[5usize, 3][..], F32),
        (&[3, 5], F32),
        (&[4, 4], I32),
        (&[2, 3, 4, 2], F16),
        (&[1, 1], F64),
        (&[3], F32),
        (&[], F32),
    ] {
        check_n("x.qr()", &[("x", shape, d)], |t| {
            let (q, r) = t[0].qr()?;
            Ok(vec![q, r])
        });
        check_n("x.svd()", &[("x", shape, d)], |t| {
            let (u, s, vh) = t[0].svd(true)?;
            Ok(vec![u, s, vh])
        });
        check_n("x.svd(false)", &[("x", shape, d)], |t| {
            let (u, s, vh) = t[0].svd(false)?;
            Ok(vec![u, s, vh])
        });
        check_n("x.svd(full_matrices = false)", &[("x", shape, d)], |t| {
            let (u, s, vh) = t[0].svd(false)?;
            Ok(vec![u, s, vh])
        });
        check("x.newton_schulz(2, [1.5, -0.5])", &[("x", shape, d)], |t| {
            t[0].newton_schulz(2, &[1.5, -0.5], 1e-7)
        });
    }
    check(
        "x.newton_schulz(steps = 1, params = [3.4445, -4.7750, 2.0315], eps = 1e-6)",
        &[("x", &[2, 3, 5], U8)],
        |t| t[0].newton_schulz(1, &[3.4445, -4.7750, 2.0315], 1e-6),
    );
    check("x.newton_schulz(0, 1.0)", &[("x", &[5, 3], F64)], |t| {
        t[0].newton_schulz(0, &[1.0], 1e-7)
    });
    check("x.newton_schulz(1, [])", &[("x", &[3, 3], F32)], |t| {
        t[0].newton_schulz(1, &[], 1e-7)
    });
}

#[test]
fn hash_rules_agree_with_tg_ops() {
    use Dt::*;
    check("x.keccak()", &[("x", &[2, 3], U8)], |t| {
        t[0].keccak(Keccak::Sha3_256)
    });
    check("x.keccak(\"sha3_256\")", &[("x", &[4], F32)], |t| {
        t[0].keccak(Keccak::Sha3_256)
    });
    check("x.keccak(\"sha3_224\")", &[("x", &[2, 2, 3], I64)], |t| {
        t[0].keccak(Keccak::Sha3_224)
    });
    check("x.keccak(cfg = \"shake_128\")", &[("x", &[5], Bool)], |t| {
        t[0].keccak(Keccak::Shake128)
    });
    check("x.keccak((136, 1))", &[("x", &[3], F16)], |t| {
        t[0].keccak(Keccak::Custom {
            rate: 136,
            dsbyte: 1,
        })
    });
    check("x.keccak([199, 6])", &[("x", &[3], U8)], |t| {
        t[0].keccak(Keccak::Custom {
            rate: 199,
            dsbyte: 6,
        })
    });
    check("x.keccak((200, 6))", &[("x", &[3], U8)], |t| {
        t[0].keccak(Keccak::Custom {
            rate: 200,
            dsbyte: 6,
        })
    });
    check("x.keccak((0, 6))", &[("x", &[3], U8)], |t| {
        t[0].keccak(Keccak::Custom { rate: 0, dsbyte: 6 })
    });
    check("x.keccak()", &[("x", &[], U8)], |t| {
        t[0].keccak(Keccak::Sha3_256)
    });
    check("x.hash()", &[("x", &[2, 3], F32)], |t| t[0].hash());
    check("x.hash()", &[("x", &[], I32)], |t| t[0].hash());
}

#[test]
fn bad_inputs_name_the_op_the_shapes_and_the_culprit() {
    use Dt::*;
    let ab: &[(&str, &[&str], Dt)] = &[("a", &["2", "3"], F32), ("b", &["4", "5"], F32)];
    let m = error(&[], ab, "a.einsum(\"ij,jk->ik\", b)");
    has_all(
        &m,
        &["`einsum`", "letter 'j'", "3", "4", "[2, 3]", "[4, 5]"],
    );
    let m = error(&[], ab, "a.einsum(\"ij,jk->ik\")");
    has_all(&m, &["`einsum`", "names 2 operand(s), 1 given", "[2, 3]"]);
    let m = error(&[], ab, "a.einsum(\"ij,j1->i\", b)");
    has_all(&m, &["`einsum`", "\"j1\"", "not letters"]);
    let m = error(&[], ab, "a.einsum(\"ijk,kl\", b)");
    has_all(
        &m,
        &["`einsum`", "\"ijk\"", "operand 0", "[2, 3]", "rank 2"],
    );
    let m = error(&[], ab, "a.einsum(\"ij,kl->iz\", b)");
    has_all(&m, &["`einsum`", "output letter 'z'", "no operand"]);
    let m = error(&[], ab, "a.einsum(\"ij,kl->ii\", b)");
    has_all(&m, &["`einsum`", "output letter 'i'", "twice"]);
    let m = error(&[], ab, "a.einsum(\"ii\")");
    has_all(&m, &["`einsum`", "letter 'i'", "2 and 3", "[2, 3]"]);
    let m = error(&[], ab, "a.einsum(b, \"ij\")");
    has_all(
        &m,
        &["`einsum`", "string literal", "a f32 tensor of shape [4, 5]"],
    );
    let m = error(&[], ab, "a.einsum()");
    has_all(&m, &["`einsum`", "formula"]);
    let m = error(&[], ab, "a.einsum(\"ij,kl\", \"kl\")");
    has_all(&m, &["`einsum`", "expects a tensor", "the string \"kl\""]);
    let m = error(&[], ab, "a.einsum(\"ij\", acc = 3)");
    has_all(&m, &["`einsum`", "dtype", "integer 3"]);
    let m = error(&[], ab, "a.einsum(\"ij\", acc = f32, acc = f64)");
    has_all(&m, &["`einsum`", "`acc`", "twice"]);
    let m = error(&[], ab, "a.einsum(\"ij\", bias = b)");
    has_all(&m, &["`einsum`", "no argument `bias`"]);
    let v: &[(&str, &[&str], Dt)] = &[("v", &["3"], F32), ("s", &[], U8)];
    let m = error(&[], v, "v.qr()");
    has_all(&m, &["`qr`", "matrix", "[3]", "rank 1"]);
    let m = error(&[], v, "v.svd()");
    has_all(&m, &["`svd`", "matrix", "[3]"]);
    let m = error(&[], ab, "a.svd(1)");
    has_all(&m, &["`svd`", "`true` or `false`"]);
    let m = error(&[], ab, "a.svd(true, full_matrices = false)");
    has_all(&m, &["`svd`", "`full_matrices`", "by position and by name"]);
    let m = error(&[], ab, "a.qr(true)");
    has_all(&m, &["`qr`", "0 argument(s), 1 given"]);
    let m = error(&[], ab, "a.newton_schulz(3, [])");
    has_all(&m, &["`newton_schulz`", "at least one", "coefficient"]);
    let m = error(&[], ab, "a.newton_schulz(3)");
    has_all(&m, &["`newton_schulz`", "`params`"]);
    let m = error(&[], ab, "a.newton_schulz(-1, [1.5])");
    has_all(&m, &["`newton_schulz`", "steps", "-1"]);
    let m = error(&[], v, "v.newton_schulz(1, [1.5])");
    has_all(&m, &["`newton_schulz`", "matrix", "[3]"]);
    let m = error(&[], ab, "a.newton_schulz(2, [b])");
    has_all(&m, &["`newton_schulz`", "number", "[4, 5]"]);
    let m = error(&[], v, "s.keccak()");
    has_all(&m, &["`keccak`", "[]", "rank 0", "last axis"]);
    let m = error(&[], v, "v.keccak((200, 6))");
    has_all(&m, &["`keccak`", "rate", "200"]);
    let m = error(&[], v, "v.keccak((136, 256))");
    has_all(&m, &["`keccak`", "domain byte", "256"]);
    let m = error(&[], v, "v.keccak(\"sha256\")");
    has_all(&m, &["`keccak`", "\"sha256\"", "\"sha3_256\""]);
    let m = error(&[], v, "v.keccak(3)");
    has_all(&m, &["`keccak`", "integer 3"]);
    let m = error(&[], v, "v.hash(1)");
    has_all(&m, &["`hash`", "0 argument(s)"]);
    // matmul and its kin keep rejecting keywords
    let m = error(&[], ab, "a.matmul(b = b)");
    has_all(&m, &["`matmul` takes no keyword arguments"]);
    // strings are no operands
    let m = error(&[], ab, "a + \"ij\"");
    has_all(&m, &["a string is not a tensor", "\"ij\""]);
    let m = error(&[], ab, "-\"ij\"");
    has_all(&m, &["cannot negate the string \"ij\""]);
    let m = error(&[], ab, "\"ij\".sum()");
    has_all(&m, &["`sum`", "the string \"ij\""]);
    let m = error(&[], ab, "a.reshape(\"ij\")");
    has_all(&m, &["`reshape`", "the string \"ij\""]);
}

#[test]
fn symbolic_shapes() {
    use Dt::*;
    let show = |ctx: &mut Ctx, e: &str| match eval(ctx, e) {
        Ok(Val::Tensor { shape, dtype, .. }) => {
            format!("{} {}", show_shape(&shape), dtype.rust_name())
        }
        Ok(Val::List(items)) => items
            .iter()
            .map(|v| match v {
                Val::Tensor { shape, .. } => show_shape(shape),
                _ => panic!("{e}: not tensors"),
            })
            .collect::<Vec<_>>()
            .join(" "),
        Ok(_) => panic!("{e}: not a tensor"),
        Err(err) => panic!("{e}: {err}"),
    };
    let mut ctx = ctx_with(
        &["B", "N", "M"],
        &[
            ("a", &["B", "N"], F32),
            ("b", &["M", "4"], I32),
            ("c", &["N", "B * 2"], F16),
            ("sq", &["B", "B"], F32),
            ("t", &["B + 2", "B"], F32),
        ],
    );
    // N == M only once instantiated: asserted after monomorphization
    assert_eq!(show(&mut ctx, "a.einsum(\"ij,jk->ik\", b)"), "[B, 4] f32");
    assert_eq!(ctx.asserts.len(), 1);
    assert_eq!(show(&mut ctx, "a.einsum(\"ij,jk\", c)"), "[B, 2*B] f32");
    assert_eq!(show(&mut ctx, "sq.einsum(\"ii->i\")"), "[B] f32");
    assert_eq!(show(&mut ctx, "sq.einsum(\"ii\")"), "[] f32");
    assert_eq!(ctx.asserts.len(), 1);
    // B against 2*B: never equal (B > 0)
    let m = error(
        &["B", "N"],
        &[("sq", &["B", "B"], F32), ("c", &["N", "B * 2"], F32)],
        "sq.einsum(\"ij,kj->ik\", c)",
    );
    has_all(&m, &["letter 'j'", "[B, B]", "[N, 2*B]"]);
    assert_eq!(show(&mut ctx, "t.svd()"), "[B + 2, B + 2] [B] [B, B]");
    assert_eq!(
        show(&mut ctx, "t.svd(full_matrices = false)"),
        "[B + 2, B] [B] [B, B]"
    );
    assert_eq!(show(&mut ctx, "a.qr()"), "[B, B] [B, N]");
    // min(B, N) is not known while expanding: a dynamic dimension, the same for both
    let s = show(&mut ctx, "a.svd(false)");
    assert_eq!(s, "[B, _min(B, N)] [_min(B, N)] [_min(B, N), N]");
    assert_eq!(
        show(&mut ctx, "a.newton_schulz(5, [1.5, -0.5])"),
        "[B, N] f32"
    );
    assert_eq!(show(&mut ctx, "b.keccak()"), "[M, 32] u8");
    assert_eq!(show(&mut ctx, "b.hash()"), "[16] u8");
}

/// Random formulas (well-formed or not) over random shapes: the rule and tg-ops agree on
/// acceptance and on the result's shape and dtype.
mod einsum_fuzz {
    use super::*;
    use proptest::prelude::*;

    fn agree(formula: &str, shapes: &[Vec<usize>]) {
        let mut ctx = Ctx::new(vec![]);
        let mut real = Vec::new();
        let mut names = Vec::new();
        for (i, shape) in shapes.iter().enumerate() {
            let name = format!("t{i}");
            let ident = Ident::new(&name, Span::call_site());
            ctx.env.insert(
                name.clone(),
                Val::Tensor {
                    shape: shape.iter().map(|&n| Poly::constant(n as i64)).collect(),
                    dtype: Dt::F32,
                    code: quote!(#ident),
                },
            );
            real.push(DynTensor::zeros(shape, tg_ops::DType::F32).unwrap());
            names.push(name);
        }
        let rest: String = names[1..].iter().map(|n| format!(", {n}")).collect();
        let expr = format!("t0.einsum({formula:?}{rest})");
        let got = eval(&mut ctx, &expr);
        match (got, DynTensor::einsum(formula, &real, None)) {
            (Ok(Val::Tensor { shape, .. }), Ok(t)) => {
                let shape: Vec<usize> = shape
                    .iter()
                    .map(|p| p.as_const().expect("concrete") as usize)
                    .collect();
                assert_eq!(shape, t.shape(), "{expr} on {shapes:?}");
            }
            (Err(_), Err(_)) => {}
            (got, want) => panic!(
                "{expr} on {shapes:?}: rule {:?}, tg-ops {:?}",
                got.map(|_| ()).map_err(|e| e.to_string()),
                want.map(|t| t.shape().to_vec())
            ),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn random_formulas_agree(
            parts in prop::collection::vec(prop::sample::select(vec!["i", "j", "k", "i", "j", "...", ",", "->"]), 0..9),
            shapes in prop::collection::vec(prop::collection::vec(1usize..4, 0..4), 1..4),
        ) {
            agree(&parts.concat(), &shapes);
        }

        #[test]
        fn fitting_formulas_agree(
            subs in prop::collection::vec(prop::collection::vec(prop::sample::select(vec!['i', 'j', 'k', 'l']), 0..4), 1..4),
            ellipsis in prop::collection::vec(any::<bool>(), 3),
            out in prop::option::of(prop::collection::vec(prop::sample::select(vec!['i', 'j', 'k', 'l']), 0..3)),
            sizes in prop::collection::vec(1usize..3, 4),
            extra in prop::collection::vec(prop::collection::vec(1usize..3, 0..3), 3),
        ) {
            // operands shaped to fit their subscripts (letter sizes from `sizes`, so mostly
            // consistent), with broadcasting axes under `...`
            let mut inputs = Vec::new();
            let mut shapes = Vec::new();
            for (k, s) in subs.iter().enumerate() {
                let mut shape: Vec<usize> = Vec::new();
                let mut text = String::new();
                if ellipsis[k] {
                    text.push_str("...");
                    shape.extend(&extra[k]);
                }
                for &c in s {
                    text.push(c);
                    shape.push(sizes[(c as u8 - b'i') as usize]);
                }
                inputs.push(text);
                shapes.push(shape);
            }
            let mut formula = inputs.join(",");
            if let Some(o) = out {
                let dots = if ellipsis.iter().take(subs.len()).any(|&e| e) { "..." } else { "" };
                formula.push_str("->");
                formula.push_str(dots);
                formula.extend(o);
            }
            agree(&formula, &shapes);
        }
    }
}
