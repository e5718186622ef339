//! Where the macro still keeps knowledge of its own (dtype choices per op, and the families
//! whose shape rules are not yet tg-core's: stats, gather/scatter, losses, the decompositions,
//! hash, indexing; and einsum's argument plumbing), it must agree with tg-ops: each case evaluates a DSL
//! expression with the macro's rules and the same op on real `DynTensor`s of those shapes,
//! and compares shape and dtype. (Nothing is realized: a lazy tensor knows its shape and
//! dtype.) The families whose shape rules are tg-core's (broadcast, reduce, movement, matmul,
//! einsum, conv and pool windows) are tested there, once, and on symbolic dims in `sym.rs`.

use proc_macro2::TokenStream;
use quote::quote;
use tg_ops::DType;
use tg_ops::DynTensor;
use tg_ops::untyped::elementwise::Binary;

use crate::dsl::parse::parse_expr;
use crate::kernel::infer::Ctx;
use crate::kernel::value::Val;
use crate::sym::Poly;
use tg_core::DType as Dt;

mod decompositions;
mod structure;
mod training;

type Op = fn(&[DynTensor]) -> tg_ops::Result<DynTensor>;

fn dt(d: Dt) -> DType {
    d
}

type Op2 = fn(&[DynTensor]) -> tg_ops::Result<(DynTensor, DynTensor)>;

/// `check` for ops giving a pair.
fn check2(expr: &str, vars: &[(&str, &[usize], Dt)], op: Op2) {
    let mut ctx = Ctx::new(vec![]);
    let mut real = Vec::new();
    for (name, shape, d) in vars {
        let ident = proc_macro2::Ident::new(name, proc_macro2::Span::call_site());
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
    let tokens: TokenStream = expr.parse().expect("tokens");
    let (a, b) = op(&real).expect("tg-ops accepts");
    let Ok(Val::List(items)) = parse_expr(tokens).and_then(|x| ctx.eval(&x)) else {
        panic!("{expr}: not a pair")
    };
    for (v, t) in items.iter().zip([a, b]) {
        let Val::Tensor { shape, dtype, .. } = v else {
            panic!("{expr}: not tensors")
        };
        let shape: Vec<usize> = shape
            .iter()
            .map(|p| p.as_const().expect("concrete") as usize)
            .collect();
        assert_eq!(
            (shape.as_slice(), dt(*dtype)),
            (t.shape(), t.dtype()),
            "{expr}"
        );
    }
}

/// Runs `expr` through the rules with tensors `vars` and `op` on real tensors; compares.
fn check(expr: &str, vars: &[(&str, &[usize], Dt)], op: Op) {
    let mut ctx = Ctx::new(vec![]);
    let mut real = Vec::new();
    for (name, shape, d) in vars {
        let ident = proc_macro2::Ident::new(name, proc_macro2::Span::call_site());
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
    let tokens: TokenStream = expr.parse().expect("tokens");
    let want = op(&real);
    let got = parse_expr(tokens).and_then(|a| ctx.eval(&a));
    match (got, want) {
        (Ok(Val::Tensor { shape, dtype, .. }), Ok(t)) => {
            let shape: Vec<usize> = shape
                .iter()
                .map(|p| p.as_const().expect("concrete") as usize)
                .collect();
            assert_eq!(shape, t.shape(), "{expr}: shape");
            assert_eq!(dt(dtype), t.dtype(), "{expr}: dtype");
        }
        (Err(_), Err(_)) => {}
        (Ok(_), Err(e)) => panic!("{expr}: the rule accepts what tg-ops rejects: {e}"),
        (Err(e), Ok(t)) => panic!(
            "{expr}: the rule rejects ({e}) what tg-ops accepts ({:?})",
            t.shape()
        ),
        (Ok(_), Ok(_)) => panic!("{expr}: not a tensor"),
    }
}

#[test]
fn elementwise_rules_agree_with_tg_ops() {
    use Dt::*;
    check("a + b", &[("a", &[2, 1, 3], I8), ("b", &[4, 3], U8)], |t| {
        t[0].add(&t[1])
    });
    check("a * 2.5", &[("a", &[3], I32)], |t| t[0].mul(2.5));
    check("a / b", &[("a", &[3], I32), ("b", &[3], I32)], |t| {
        t[0].div(&t[1])
    });
    check("a < b", &[("a", &[2, 3], F16), ("b", &[3], F32)], |t| {
        t[0].lt(&t[1])
    });
    check("a + b", &[("a", &[2, 3], F32), ("b", &[2, 4], F32)], |t| {
        t[0].add(&t[1])
    });
    check("a ** 2", &[("a", &[5], F16)], |t| t[0].pow(2));
    check(
        "a.maximum(b)",
        &[("a", &[2, 2], I16), ("b", &[2], U16)],
        |t| DynTensor::binary_op(Binary::Maximum, &t[0], &t[1]),
    );
    check("a.exp()", &[("a", &[3], I32)], |t| t[0].exp());
    check("a.sigmoid()", &[("a", &[3], F16)], |t| t[0].sigmoid());
    check("a.relu()", &[("a", &[3], I8)], |t| t[0].relu());
    check("a.isnan()", &[("a", &[3], F32)], |t| t[0].isnan());
    check("a.cast(f16)", &[("a", &[2], I32)], |t| {
        Ok(t[0].cast(DType::F16))
    });
    check("a.bitcast(i32)", &[("a", &[2], F32)], |t| {
        t[0].bitcast(DType::I32)
    });
    check("a.bitcast(i64)", &[("a", &[2], F32)], |t| {
        t[0].bitcast(DType::I64)
    });
    check(
        "c.where_(a, b)",
        &[("c", &[2, 1], Bool), ("a", &[3], F32), ("b", &[2, 3], I32)],
        |t| t[0].where_(&t[1], &t[2]),
    );
    check("a.leaky_relu(0.1)", &[("a", &[4], F32)], |t| {
        t[0].leaky_relu(0.1)
    });
    check("a.clamp(0.0, 1.0)", &[("a", &[4], F32)], |t| {
        t[0].clamp(Some(0.0.into()), Some(1.0.into()))
    });
    check("a & b", &[("a", &[4], I32), ("b", &[4], U8)], |t| {
        t[0].bitwise_and(&t[1])
    });
}

#[test]
fn index_rules_agree_with_tg_ops() {
    use Dt::*;
    use tg_ops::untyped::indexing::Index;
    check("a[1]", &[("a", &[3, 4], F32)], |t| {
        t[0].index(&[Index::Int(1)])
    });
    check("a[.., 1:3]", &[("a", &[3, 4], F32)], |t| {
        t[0].index(&[
            Index::Slice {
                start: None,
                stop: None,
                step: 1,
            },
            Index::Slice {
                start: Some(1),
                stop: Some(3),
                step: 1,
            },
        ])
    });
    check("a[::2, -1]", &[("a", &[5, 4], F32)], |t| {
        t[0].index(&[
            Index::Slice {
                start: None,
                stop: None,
                step: 2,
            },
            Index::Int(-1),
        ])
    });
    check("a[None, ..., ::-1]", &[("a", &[5, 4, 2], F32)], |t| {
        t[0].index(&[
            Index::NewAxis,
            Index::Ellipsis,
            Index::Slice {
                start: None,
                stop: None,
                step: -1,
            },
        ])
    });
    check("a[i]", &[("a", &[5, 4], F32), ("i", &[2, 3], I32)], |t| {
        t[0].index(&[Index::Tensor(t[1].clone())])
    });
    check(
        "a[.., i, j]",
        &[
            ("a", &[5, 4, 6], F32),
            ("i", &[2, 1], I32),
            ("j", &[3], I32),
        ],
        |t| {
            t[0].index(&[
                Index::Slice {
                    start: None,
                    stop: None,
                    step: 1,
                },
                Index::Tensor(t[1].clone()),
                Index::Tensor(t[2].clone()),
            ])
        },
    );
    check(
        "a[i, .., j]",
        &[("a", &[5, 4, 6], F32), ("i", &[2], I32), ("j", &[2], I32)],
        |t| {
            t[0].index(&[
                Index::Tensor(t[1].clone()),
                Index::Ellipsis,
                Index::Tensor(t[2].clone()),
            ])
        },
    );
    check(
        "a[.., i, 0, j]",
        &[
            ("a", &[5, 4, 7, 6], F32),
            ("i", &[2], I32),
            ("j", &[2], I32),
        ],
        |t| {
            t[0].index(&[
                Index::Slice {
                    start: None,
                    stop: None,
                    step: 1,
                },
                Index::Tensor(t[1].clone()),
                Index::Int(0),
                Index::Tensor(t[2].clone()),
            ])
        },
    );
    check("a[7:2:-2, 1]", &[("a", &[9, 3], F32)], |t| {
        t[0].index(&[
            Index::Slice {
                start: Some(7),
                stop: Some(2),
                step: -2,
            },
            Index::Int(1),
        ])
    });
}

#[test]
fn norm_gather_and_ranges_rules_agree_with_tg_ops() {
    use Dt::*;
    check("x.layernorm()", &[("x", &[2, 5], F32)], |t| {
        t[0].layernorm(&[-1], 1e-5)
    });
    check(
        "x.layernorm([1, 2], eps = 1e-6)",
        &[("x", &[2, 5, 3], F16)],
        |t| t[0].layernorm(&[1, 2], 1e-6),
    );
    check("i.one_hot(5)", &[("i", &[2, 3], I32)], |t| t[0].one_hot(5));
    check(
        "x.gather(1, i)",
        &[("x", &[2, 5], F32), ("i", &[2, 3], I32)],
        |t| t[0].gather(1, &t[1]),
    );
}

#[test]
fn stats_rules_agree_with_tg_ops() {
    use Dt::*;
    check("x.var()", &[("x", &[3, 4], I32)], |t| {
        t[0].var(None, false, 1.0)
    });
    check("x.std(1, true, 0.0)", &[("x", &[3, 4], F16)], |t| {
        t[0].std(Some(&[1]), true, 0.0)
    });
    check("x.logsumexp(-1)", &[("x", &[3, 4], F32)], |t| {
        t[0].logsumexp(Some(&[-1]), false)
    });
    check("x.softmax()", &[("x", &[3, 4], I8)], |t| {
        t[0].softmax(-1, None)
    });
    check("x.log_softmax(0)", &[("x", &[3, 4], F64)], |t| {
        t[0].log_softmax(0, None)
    });
    check("x.normalize(1.0, 0)", &[("x", &[3, 4], F32)], |t| {
        t[0].normalize(1.0, 0, 1e-12)
    });
    check("x.cumsum(1)", &[("x", &[3, 4], I8)], |t| t[0].cumsum(1));
    check("x.cumsum(1)", &[("x", &[3, 4], F16)], |t| t[0].cumsum(1));
    check("x.cumprod(0)", &[("x", &[3, 4], I32)], |t| t[0].cumprod(0));
    check("x.logcumsumexp(1)", &[("x", &[3, 4], I32)], |t| {
        t[0].logcumsumexp(1)
    });
    check("x.argmax()", &[("x", &[3, 4], F32)], |t| {
        t[0].argmax(None, false)
    });
    check("x.argmin(1, true)", &[("x", &[3, 4], U8)], |t| {
        t[0].argmin(Some(1), true)
    });
    check("x.argsort(0, true)", &[("x", &[3, 4], F32)], |t| {
        t[0].argsort(0, true)
    });
    check2("x.var_mean(1)", &[("x", &[3, 4], F32)], |t| {
        t[0].var_mean(Some(&[1]), false, 1.0)
    });
    check2("x.cummax(1)", &[("x", &[3, 4], I16)], |t| t[0].cummax(1));
    check2("x.sort()", &[("x", &[3, 5], F16)], |t| t[0].sort(-1, false));
    check2("x.topk(2, 0)", &[("x", &[3, 5], F32)], |t| {
        t[0].topk(2, 0, true)
    });
}

#[test]
fn random_rules_agree_with_tg_ops_and_turn_replay_off() {
    use Dt::*;
    check("x.rand_like()", &[("x", &[3, 4], F16)], |t| {
        t[0].rand_like()
    });
    check("x.randn_like()", &[("x", &[0, 2], F64)], |t| {
        t[0].randn_like()
    });
    check("x.rand_like()", &[("x", &[3], I32)], |t| t[0].rand_like());
    check("x.randn_like()", &[("x", &[3], Bool)], |t| {
        t[0].randn_like()
    });
}
