//! The structure ops: triangles against tg-ops, scatter and the sized selections (whose rules
//! are still the macro's) against tg-ops, and the errors and symbolic shapes of all of them
//! (padding, splits and diagonals included) as a kernel body sees them.

use proc_macro2::TokenStream;
use quote::quote;
use tg_ops::DynTensor;
use tg_ops::untyped::gather::{ScatterOp, ScatterReduce};

use super::{check, dt};
use crate::dsl::parse::parse_expr;
use crate::kernel::infer::Ctx;
use crate::kernel::value::Val;
use crate::sym::Poly;
use tg_core::DType as Dt;

type Vars<'a> = &'a [(&'a str, &'a [usize], Dt)];

const ALL: [Dt; 12] = [
    Dt::Bool,
    Dt::I8,
    Dt::U8,
    Dt::I16,
    Dt::U16,
    Dt::I32,
    Dt::U32,
    Dt::I64,
    Dt::U64,
    Dt::F16,
    Dt::F32,
    Dt::F64,
];

/// A context with the tensors `vars` (literal shapes), and the same tensors for tg-ops.
fn setup(vars: Vars) -> (Ctx, Vec<DynTensor>) {
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
    (ctx, real)
}

fn eval(ctx: &mut Ctx, expr: &str) -> syn::Result<Val> {
    let tokens: TokenStream = expr.parse().expect("tokens");
    parse_expr(tokens).and_then(|a| ctx.eval(&a))
}

/// The rule's error for `expr`, which must mention every one of `needles`.
fn rejects(expr: &str, vars: Vars, needles: &[&str]) {
    let (mut ctx, _) = setup(vars);
    match eval(&mut ctx, expr) {
        Ok(v) => panic!("{expr}: accepted, gives {}", v.describe()),
        Err(e) => {
            let msg = e.to_string();
            for n in needles {
                assert!(msg.contains(n), "{expr}: error {msg:?} lacks {n:?}");
            }
        }
    }
}

#[test]
fn triangle_rules_agree_with_tg_ops() {
    use Dt::*;
    check("a.tril()", &[("a", &[3, 4], F32)], |t| t[0].tril(0));
    check("a.triu(1)", &[("a", &[3, 4], F32)], |t| t[0].triu(1));
    check("a.tril(-1)", &[("a", &[2, 3, 4], I8)], |t| t[0].tril(-1));
    check("a.triu(-7)", &[("a", &[0, 3], F16)], |t| t[0].triu(-7));
    check("a.tril(9)", &[("a", &[1, 1], U8)], |t| t[0].tril(9));
    check("a.triu()", &[("a", &[4], F32)], |t| t[0].triu(0));
    for d in ALL {
        check("a.triu(1)", &[("a", &[2, 3], d)], |t| t[0].triu(1));
        check("a.tril()", &[("a", &[2, 3], d)], |t| t[0].tril(0));
    }
}

#[test]
fn scatter_rules_agree_with_tg_ops() {
    use Dt::*;
    check(
        "z.scatter(0, i, s)",
        &[
            ("z", &[2, 3], I32),
            ("i", &[1, 3], I32),
            ("s", &[1, 3], I32),
        ],
        |t| t[0].scatter(0, &t[1], &t[2], None),
    );
    check(
        "z.scatter(-1, i, s)",
        &[
            ("z", &[2, 3], F32),
            ("i", &[2, 2], I64),
            ("s", &[3, 3], F32),
        ],
        |t| t[0].scatter(-1, &t[1], &t[2], None),
    );
    check(
        "z.scatter(1, i, s)",
        &[("z", &[2, 3], F32), ("i", &[2, 5], U8), ("s", &[2, 5], F32)],
        |t| t[0].scatter(1, &t[1], &t[2], None),
    );
    check(
        "z.scatter(0, i, s)",
        &[
            ("z", &[2, 3], F32),
            ("i", &[1, 4], I32),
            ("s", &[1, 4], F32),
        ],
        |t| t[0].scatter(0, &t[1], &t[2], None),
    );
    check(
        "z.scatter(0, i, s)",
        &[
            ("z", &[2, 3], F32),
            ("i", &[2, 3], I32),
            ("s", &[1, 3], F32),
        ],
        |t| t[0].scatter(0, &t[1], &t[2], None),
    );
    check(
        "z.scatter(0, i, s)",
        &[
            ("z", &[2, 3], F32),
            ("i", &[2, 3], F32),
            ("s", &[2, 3], F32),
        ],
        |t| t[0].scatter(0, &t[1], &t[2], None),
    );
    check(
        "z.scatter(0, i, s)",
        &[
            ("z", &[2, 3], F32),
            ("i", &[2, 3], I32),
            ("s", &[2, 3], F16),
        ],
        |t| t[0].scatter(0, &t[1], &t[2], None),
    );
    check(
        "z.scatter(0, i, s)",
        &[("z", &[2, 3], F32), ("i", &[2], I32), ("s", &[2, 3], F32)],
        |t| t[0].scatter(0, &t[1], &t[2], None),
    );
    check(
        "z.scatter(2, i, s)",
        &[
            ("z", &[2, 3], F32),
            ("i", &[2, 3], I32),
            ("s", &[2, 3], F32),
        ],
        |t| t[0].scatter(2, &t[1], &t[2], None),
    );
    check(
        "z.scatter(0, i, s)",
        &[
            ("z", &[0, 3], F32),
            ("i", &[0, 3], I32),
            ("s", &[0, 3], F32),
        ],
        |t| t[0].scatter(0, &t[1], &t[2], None),
    );
    check(
        "z.scatter(0, i, s)",
        &[("z", &[], F32), ("i", &[], I32), ("s", &[], F32)],
        |t| t[0].scatter(0, &t[1], &t[2], None),
    );
    check(
        "z.scatter(dim = 1, index = i, src = 2.5)",
        &[("z", &[2, 3], I8), ("i", &[2, 1], I32)],
        |t| t[0].scatter(1, &t[1], 2.5, None),
    );
    for d in ALL {
        check(
            "z.scatter(1, i, 2, reduce = \"add\")",
            &[("z", &[2, 3], d), ("i", &[2, 1], I32)],
            |t| t[0].scatter(1, &t[1], 2, Some(ScatterOp::Add)),
        );
        check(
            "z.scatter(1, i, 1.5, reduce = \"multiply\")",
            &[("z", &[2, 3], d), ("i", &[2, 1], I32)],
            |t| t[0].scatter(1, &t[1], 1.5, Some(ScatterOp::Multiply)),
        );
        check(
            "z.scatter(0, i, true)",
            &[("z", &[2, 3], d), ("i", &[2, 1], I32)],
            |t| t[0].scatter(0, &t[1], true, None),
        );
    }
}

#[test]
fn scatter_reduce_rules_agree_with_tg_ops() {
    use Dt::*;
    let vars = |d: Dt| -> [(&'static str, &'static [usize], Dt); 3] {
        [("z", &[2, 3], d), ("i", &[2, 3], I32), ("s", &[2, 4], d)]
    };
    for d in ALL {
        check("z.scatter_reduce(0, i, s, \"sum\")", &vars(d), |t| {
            t[0].scatter_reduce(0, &t[1], &t[2], ScatterReduce::Sum, true)
        });
        check(
            "z.scatter_reduce(0, i, s, \"sum\", include_self = false)",
            &vars(d),
            |t| t[0].scatter_reduce(0, &t[1], &t[2], ScatterReduce::Sum, false),
        );
        check("z.scatter_reduce(1, i, s, \"prod\")", &vars(d), |t| {
            t[0].scatter_reduce(1, &t[1], &t[2], ScatterReduce::Prod, true)
        });
        check(
            "z.scatter_reduce(1, i, s, reduce = \"prod\", include_self = false)",
            &vars(d),
            |t| t[0].scatter_reduce(1, &t[1], &t[2], ScatterReduce::Prod, false),
        );
        check("z.scatter_reduce(-1, i, s, \"mean\")", &vars(d), |t| {
            t[0].scatter_reduce(-1, &t[1], &t[2], ScatterReduce::Mean, true)
        });
        check(
            "z.scatter_reduce(-1, i, s, \"mean\", false)",
            &vars(d),
            |t| t[0].scatter_reduce(-1, &t[1], &t[2], ScatterReduce::Mean, false),
        );
        check("z.scatter_reduce(0, i, s, \"amax\")", &vars(d), |t| {
            t[0].scatter_reduce(0, &t[1], &t[2], ScatterReduce::Amax, true)
        });
        check(
            "z.scatter_reduce(0, i, s, \"amin\", include_self = false)",
            &vars(d),
            |t| t[0].scatter_reduce(0, &t[1], &t[2], ScatterReduce::Amin, false),
        );
    }
    check(
        "z.scatter_reduce(0, i, s, \"amax\")",
        &[
            ("z", &[2, 3], F32),
            ("i", &[3, 3], I32),
            ("s", &[2, 3], F32),
        ],
        |t| t[0].scatter_reduce(0, &t[1], &t[2], ScatterReduce::Amax, true),
    );
    check(
        "z.scatter_reduce(0, i, s, \"amax\")",
        &[
            ("z", &[2, 3], F32),
            ("i", &[2, 3], I32),
            ("s", &[2, 3], I32),
        ],
        |t| t[0].scatter_reduce(0, &t[1], &t[2], ScatterReduce::Amax, true),
    );
    check(
        "z.scatter_reduce(0, i, s, \"sum\")",
        &[("z", &[], I8), ("i", &[], I32), ("s", &[], I8)],
        |t| t[0].scatter_reduce(0, &t[1], &t[2], ScatterReduce::Sum, true),
    );
}

#[test]
fn sized_selection_rules_agree_with_tg_ops() {
    use Dt::*;
    check(
        "x.masked_select_sized(m, 4)",
        &[("x", &[2, 3], F32), ("m", &[3], Bool)],
        |t| t[0].masked_select_sized(&t[1], 4, 0),
    );
    check(
        "x.masked_select_sized(m, 0, fill_value = -1)",
        &[("x", &[2, 3], I16), ("m", &[2, 1], Bool)],
        |t| t[0].masked_select_sized(&t[1], 0, -1),
    );
    check(
        "x.masked_select_sized(mask = m, size = 7, fill_value = 1.5)",
        &[("x", &[2, 3], F16), ("m", &[2, 3], Bool)],
        |t| t[0].masked_select_sized(&t[1], 7, 1.5),
    );
    check(
        "x.masked_select_sized(m, 2)",
        &[("x", &[0, 3], F32), ("m", &[1], Bool)],
        |t| t[0].masked_select_sized(&t[1], 2, 0),
    );
    check(
        "x.masked_select_sized(m, 2)",
        &[("x", &[2, 3], F32), ("m", &[2, 3], I32)],
        |t| t[0].masked_select_sized(&t[1], 2, 0),
    );
    check(
        "x.masked_select_sized(m, 2)",
        &[("x", &[2, 3], F32), ("m", &[4], Bool)],
        |t| t[0].masked_select_sized(&t[1], 2, 0),
    );
    check(
        "x.masked_select_sized(m, 2)",
        &[("x", &[2, 1], F32), ("m", &[2, 3], Bool)],
        |t| t[0].masked_select_sized(&t[1], 2, 0),
    );
    check(
        "x.masked_select_sized(m, 2)",
        &[("x", &[3], F32), ("m", &[1, 3], Bool)],
        |t| t[0].masked_select_sized(&t[1], 2, 0),
    );
    for d in ALL {
        check(
            "x.masked_select_sized(m, 3, true)",
            &[("x", &[4], d), ("m", &[4], Bool)],
            |t| t[0].masked_select_sized(&t[1], 3, true),
        );
        check("x.nonzero_sized(3)", &[("x", &[2, 3], d)], |t| {
            t[0].nonzero_sized(3, 0)
        });
    }
    check("x.nonzero_sized(2, -1)", &[("x", &[5], F32)], |t| {
        t[0].nonzero_sized(2, -1)
    });
    check("x.nonzero_sized(size = 0)", &[("x", &[2, 2, 2], U8)], |t| {
        t[0].nonzero_sized(0, 0)
    });
    check("x.nonzero_sized(4)", &[("x", &[], F32)], |t| {
        t[0].nonzero_sized(4, 0)
    });
    check("x.nonzero_sized(4)", &[("x", &[0, 3], F32)], |t| {
        t[0].nonzero_sized(4, 0)
    });
}

/// Bad inputs: each error names the op, the shapes and the offending axis or value. (The
/// ui-tests `kernel_struct_*` cases are these, seen through rustc.)
#[test]
fn structure_errors_name_op_shapes_and_values() {
    use Dt::*;
    rejects(
        "a.diagonal()",
        &[("a", &[4], F32)],
        &["`diagonal`", "[4]", "rank 1"],
    );
    rejects(
        "a.diagonal(0, 1, -1)",
        &[("a", &[2, 3], F32)],
        &["`diagonal`", "dim1 1", "dim2 -1", "[2, 3]"],
    );
    rejects(
        "a.diagonal(0, 0, 3)",
        &[("a", &[2, 3], F32)],
        &["`diagonal`", "axis 3", "[2, 3]"],
    );
    rejects(
        "a.pad([(-5, 0)])",
        &[("a", &[3], F32)],
        &["`pad`", "cut 5", "axis 0", "[3]"],
    );
    rejects(
        "a.tril()",
        &[("a", &[4], F32)],
        &["`tril`", "[4]", "rank 1"],
    );
    rejects(
        "a.pad_to([1, 3])",
        &[("a", &[2, 3], F32)],
        &["`pad_to`", "[2, 3]", "[1, 3]", "axis 0"],
    );
    rejects(
        "a.pad_to([4])",
        &[("a", &[2, 3], F32)],
        &["`pad_to`", "[2, 3]", "1 target sizes", "rank 2"],
    );
    rejects(
        "a.pad_with([(1, 1)], \"mirror\")",
        &[("a", &[3], F32)],
        &["`pad_with`", "\"mirror\"", "\"reflect\""],
    );
    rejects(
        "a.pad_with([(1, 1)], \"reflect\", 0.5)",
        &[("a", &[3], F32)],
        &["`pad_with`", "constant"],
    );
    rejects(
        "a.pad_with([(3, 0)], \"reflect\")",
        &[("a", &[3], F32)],
        &["`pad_with`", "reflect", "axis 0", "[3]"],
    );
    rejects(
        "a.pad_with([(0, 1)], \"replicate\")",
        &[("a", &[0], F32)],
        &["`pad_with`", "replicate", "axis 0", "[0]"],
    );
    rejects(
        "a.pad_with([(0, 0), (4, 0)], \"circular\")",
        &[("a", &[2, 3], F32)],
        &["`pad_with`", "circular", "axis 1", "[2, 3]"],
    );
    rejects(
        "a.pad_with([(-2, -2)])",
        &[("a", &[3], F32)],
        &["`pad_with`", "cut 4", "axis 0", "[3]"],
    );
    rejects(
        "a.pad_flat([1, 2, 3])",
        &[("a", &[2, 3], F32)],
        &["`pad_flat`", "[1, 2, 3]", "[2, 3]"],
    );
    rejects(
        "a.split([2, 2])",
        &[("a", &[5, 2], F32)],
        &["`split`", "[2, 2]", "sum to 4", "axis 0", "[5, 2]"],
    );
    rejects(
        "a.split([1, 2], 2)",
        &[("a", &[3, 3], F32)],
        &["`split`", "axis 2", "[3, 3]"],
    );
    rejects("a.split(0)", &[("a", &[3], F32)], &["`split`", "positive"]);
    rejects(
        "a.split([-1, 4])",
        &[("a", &[3], F32)],
        &["`split`", "negative"],
    );
    rejects("a.chunk(0)", &[("a", &[3], F32)], &["`chunk`", "positive"]);
    rejects(
        "a.chunk(5000)",
        &[("a", &[3], F32)],
        &["`chunk`", "5000 tensors", "at most 1024"],
    );
    rejects(
        "a.split(1)",
        &[("a", &[5000], F32)],
        &["`split`", "5000 tensors"],
    );
    rejects(
        "a.pad_with([(9000000000000000000, 9000000000000000000)])",
        &[("a", &[3], F32)],
        &["`pad_with`", "out of range"],
    );
    rejects(
        "a.pad_to([-9000000000000000000])",
        &[("a", &[3], F32)],
        &["`pad_to`", "negative"],
    );
    rejects(
        "a.pad_to([9000000000000000000])",
        &[("a", &[3], F32)],
        &["`pad_to`", "out of range"],
    );
    rejects(
        "a.split([9000000000000000000, 9000000000000000000])",
        &[("a", &[3], F32)],
        &["`split`", "out of range"],
    );
    // an offset past the matrix is an empty diagonal, as tg-ops gives it (no overflow)
    let (mut ctx, _) = setup(&[("a", &[3, 3], F32)]);
    match eval(&mut ctx, "a.diagonal(-9000000000000000000)") {
        Ok(Val::Tensor { shape, .. }) => assert_eq!(shape, vec![Poly::constant(0)]),
        _ => panic!("a far diagonal is empty"),
    }
    rejects(
        "a.chunk(2, -3)",
        &[("a", &[3, 4], F32)],
        &["`chunk`", "axis -3", "[3, 4]"],
    );
    rejects(
        "z.scatter(0, i, s)",
        &[
            ("z", &[2, 3], F32),
            ("i", &[2, 3], I32),
            ("s", &[2, 2], F32),
        ],
        &["`scatter`", "[2, 3]", "src [2, 2]", "axis 1"],
    );
    rejects(
        "z.scatter(0, i, s)",
        &[
            ("z", &[2, 3], F32),
            ("i", &[1, 4], I32),
            ("s", &[1, 4], F32),
        ],
        &["`scatter`", "index [1, 4]", "input [2, 3]", "axis 1"],
    );
    rejects(
        "z.scatter(0, i, s)",
        &[("z", &[2, 3], F32), ("i", &[2], I32), ("s", &[2, 3], F32)],
        &["`scatter`", "[2, 3]", "[2]", "rank"],
    );
    rejects(
        "z.scatter(0, i, s)",
        &[
            ("z", &[2, 3], F32),
            ("i", &[2, 3], F32),
            ("s", &[2, 3], F32),
        ],
        &["`scatter`", "integer", "f32"],
    );
    rejects(
        "z.scatter(0, i, s)",
        &[
            ("z", &[2, 3], F32),
            ("i", &[2, 3], I32),
            ("s", &[2, 3], F16),
        ],
        &["`scatter`", "f16", "f32"],
    );
    rejects(
        "z.scatter(0, i, s, reduce = \"add\")",
        &[
            ("z", &[2, 3], F32),
            ("i", &[2, 3], I32),
            ("s", &[2, 3], F32),
        ],
        &["`scatter`", "scalar", "scatter_reduce"],
    );
    rejects(
        "z.scatter(0, i, 1.0, reduce = \"max\")",
        &[("z", &[2, 3], F32), ("i", &[2, 3], I32)],
        &["`scatter`", "\"max\"", "\"add\""],
    );
    rejects(
        "z.scatter(0, i, 1.0, mode = \"add\")",
        &[("z", &[2, 3], F32), ("i", &[2, 3], I32)],
        &["`scatter`", "`mode`"],
    );
    rejects(
        "z.scatter(3, i, s)",
        &[
            ("z", &[2, 3], F32),
            ("i", &[2, 3], I32),
            ("s", &[2, 3], F32),
        ],
        &["`scatter`", "axis 3", "[2, 3]"],
    );
    rejects(
        "z.scatter(0, i)",
        &[("z", &[2, 3], F32), ("i", &[2, 3], I32)],
        &["`scatter`", "`src`"],
    );
    rejects(
        "z.scatter_reduce(0, i, s, \"max\")",
        &[
            ("z", &[2, 3], F32),
            ("i", &[2, 3], I32),
            ("s", &[2, 3], F32),
        ],
        &["`scatter_reduce`", "\"max\"", "\"amax\""],
    );
    rejects(
        "z.scatter_reduce(0, i, s)",
        &[
            ("z", &[2, 3], F32),
            ("i", &[2, 3], I32),
            ("s", &[2, 3], F32),
        ],
        &["`scatter_reduce`", "`reduce`"],
    );
    rejects(
        "z.scatter_reduce(0, i, 2.0, \"sum\")",
        &[("z", &[2, 3], F32), ("i", &[2, 3], I32)],
        &["`scatter_reduce`", "tensor src"],
    );
    rejects(
        "x.masked_select_sized(m, 2)",
        &[("x", &[2, 3], F32), ("m", &[4], Bool)],
        &["`masked_select_sized`", "[4]", "[2, 3]", "axis 1"],
    );
    rejects(
        "x.masked_select_sized(m, 2)",
        &[("x", &[2, 3], F32), ("m", &[2, 3], I32)],
        &["`masked_select_sized`", "bool", "i32"],
    );
    rejects(
        "x.masked_select_sized(m, -2)",
        &[("x", &[2, 3], F32), ("m", &[2, 3], Bool)],
        &["`masked_select_sized`", "negative", "-2"],
    );
    rejects(
        "x.nonzero_sized(2, 1.5)",
        &[("x", &[2, 3], F32)],
        &["`nonzero_sized`", "fill_value"],
    );
    rejects(
        "x.nonzero_sized(2, 5000000000)",
        &[("x", &[2, 3], F32)],
        &["`nonzero_sized`", "5000000000"],
    );
}

/// Symbolic dims: sizes are polynomials over const parameters, bounds that depend on them
/// become post-monomorphization asserts, and a count that depends on them is an error.
#[test]
fn structure_rules_with_symbolic_dims() {
    let n = proc_macro2::Ident::new("N", proc_macro2::Span::call_site());
    let setup = |shape: Vec<Poly>| {
        let mut ctx = Ctx::new(vec![n.clone()]);
        ctx.env.insert(
            "a".into(),
            Val::Tensor {
                shape,
                dtype: Dt::F32,
                code: quote!(a),
            },
        );
        ctx
    };
    let big_n = Poly::param("N");
    fn shapes(v: &Val) -> Vec<String> {
        match v {
            Val::List(items) => items.iter().flat_map(shapes).collect(),
            Val::Tensor { shape, .. } => vec![crate::kernel::value::show_shape(shape)],
            other => vec![other.describe()],
        }
    }
    let two_n = big_n.scale(2);
    let run = |shape: Vec<Poly>, expr: &str| -> (syn::Result<Vec<String>>, usize) {
        let mut ctx = setup(shape);
        let r = eval(&mut ctx, expr).map(|v| shapes(&v));
        (r, ctx.asserts.len())
    };
    // chunk of an exact multiple: c pieces; split sizes that sum symbolically
    let (r, _) = run(vec![two_n.clone(), Poly::constant(3)], "a.chunk(2)");
    assert_eq!(r.unwrap(), vec!["[N, 3]", "[N, 3]"]);
    let (r, _) = run(vec![two_n.clone()], "a.split([N, N - 1, 1])");
    assert_eq!(r.unwrap(), vec!["[N]", "[N - 1]", "[1]"]);
    let e = run(vec![big_n.clone()], "a.chunk(2)").0.unwrap_err();
    assert!(e.to_string().contains("symbolic size N"), "{e}");
    let e = run(vec![big_n.clone()], "a.split(2)").0.unwrap_err();
    assert!(e.to_string().contains("symbolic size N"), "{e}");
    let e = run(vec![big_n.clone()], "a.chunk(N)").0.unwrap_err();
    assert!(e.to_string().contains("literal chunk count"), "{e}");
    let e = run(vec![two_n.clone()], "a.split([N, N + 1])")
        .0
        .unwrap_err();
    assert!(e.to_string().contains("sum to"), "{e}");
    // split sizes equal only for one N: asserted after monomorphization
    let (r, asserts) = run(vec![big_n.clone()], "a.split([3, 4])");
    assert_eq!((r.unwrap().len(), asserts), (2, 1));
    // pad_to a symbolic size: N >= 3 asserted
    let (r, asserts) = run(vec![Poly::constant(3)], "a.pad_to([N])");
    assert_eq!((r.unwrap(), asserts), (vec!["[N]".to_string()], 1));
    let (r, asserts) = run(vec![big_n.clone()], "a.pad_to([N + 2])");
    assert_eq!((r.unwrap(), asserts), (vec!["[N + 2]".to_string()], 0));
    // diagonals of square and non-square symbolic matrices
    let sq = vec![big_n.clone(), big_n.clone()];
    assert_eq!(run(sq.clone(), "a.diagonal()").0.unwrap(), vec!["[N]"]);
    let (r, asserts) = run(sq.clone(), "a.diagonal(1)");
    assert_eq!((r.unwrap(), asserts), (vec!["[N - 1]".to_string()], 1));
    let (r, _) = run(vec![big_n.clone(), Poly::constant(3)], "a.diagonal()");
    assert_eq!(r.unwrap(), vec!["[_min(N, 3)]"]);
    // reflect needs N > 2
    let (r, asserts) = run(vec![big_n.clone()], "a.pad_with([(2, 0)], \"reflect\")");
    assert_eq!((r.unwrap(), asserts), (vec!["[N + 2]".to_string()], 1));
    assert_eq!(
        run(vec![big_n.clone(), big_n.clone()], "a.triu(N)")
            .0
            .unwrap(),
        vec!["[N, N]"]
    );
}
