//! The macros' own behaviour on bad and symbolic inputs: every error names the op, the
//! shapes and the argument at fault, and symbolic dims stay symbolic (or become
//! post-monomorphization asserts). (Whether the op table agrees with tg-ops is tg-ops'
//! `tests/table.rs`; the ui-tests show these errors through rustc.)

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::dsl::parse::parse_expr;
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Val, show_shape};
use crate::sym::Poly;
use tg_core::DType as Dt;

type Vars<'a> = &'a [(&'a str, &'a [usize], Dt)];

/// A context with the tensors `vars` (literal shapes).
fn setup(vars: Vars) -> Ctx {
    let mut ctx = Ctx::new(vec![]);
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
    }
    ctx
}

fn eval(ctx: &mut Ctx, expr: &str) -> syn::Result<Val> {
    let tokens: TokenStream = expr.parse().expect("tokens");
    parse_expr(tokens).and_then(|a| ctx.eval(&a))
}

/// The rule's error for `expr`, which must mention every one of `needles`.
fn rejects(expr: &str, vars: Vars, needles: &[&str]) {
    let mut ctx = setup(vars);
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
        &[("a", &[5000], F32)],
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
    let mut ctx = setup(&[("a", &[3, 3], F32)]);
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

/// Evaluates `expr` through the rules with tensors of (possibly symbolic) shapes; `B` is a
/// const parameter.
fn eval_sym(expr: &str, vars: &[(&str, Vec<Poly>, Dt)]) -> syn::Result<Val> {
    let b = proc_macro2::Ident::new("B", proc_macro2::Span::call_site());
    let mut ctx = Ctx::new(vec![b]);
    for (name, shape, d) in vars {
        let ident = proc_macro2::Ident::new(name, proc_macro2::Span::call_site());
        ctx.env.insert(
            name.to_string(),
            Val::Tensor {
                shape: shape.clone(),
                dtype: *d,
                code: quote::quote!(#ident),
            },
        );
    }
    let tokens: TokenStream = expr.parse().expect("tokens");
    parse_expr(tokens).and_then(|a| ctx.eval(&a))
}

fn dims(v: &[i64]) -> Vec<Poly> {
    v.iter().map(|&d| Poly::constant(d)).collect()
}

/// The error `expr` gives; it must mention every one of `want`.
fn error_mentions(expr: &str, vars: &[(&str, Vec<Poly>, Dt)], want: &[&str]) {
    let e = match eval_sym(expr, vars) {
        Ok(_) => panic!("{expr}: accepted"),
        Err(e) => e.to_string(),
    };
    for w in want {
        assert!(
            e.contains(w),
            "{expr}: the error `{e}` does not mention `{w}`"
        );
    }
}

#[test]
fn training_rules_report_bad_inputs() {
    use Dt::*;
    let b = Poly::param("B");
    let sym = |rest: &[i64]| {
        let mut v = vec![b.clone()];
        v.extend(dims(rest));
        v
    };
    let x = ("x", sym(&[10]), F32);
    error_mentions(
        "x.cross_entropy(y)",
        &[x.clone(), ("y", sym(&[5]), F32)],
        &[
            "`cross_entropy`",
            "[B, 5]",
            "[B, 10]",
            "axis 1 is 5, not 10",
        ],
    );
    error_mentions(
        "x.cross_entropy(y)",
        &[x.clone(), ("y", sym(&[2, 2]), I32)],
        &["`cross_entropy`", "[B, 2, 2]", "labels of shape [B]"],
    );
    error_mentions(
        "x.cross_entropy(y)",
        &[x.clone(), ("y", sym(&[]), F32)],
        &["`cross_entropy`", "integer", "f32"],
    );
    error_mentions(
        "x.cross_entropy(y, label_smoothing = 1.5)",
        &[x.clone(), ("y", sym(&[]), I32)],
        &["`cross_entropy`", "label_smoothing", "1.5"],
    );
    error_mentions(
        "x.cross_entropy(y, label_smoothing = -0.5)",
        &[x.clone(), ("y", sym(&[]), I32)],
        &["`cross_entropy`", "-0.5"],
    );
    error_mentions(
        "x.cross_entropy(y, smoothing = 0.1)",
        &[x.clone(), ("y", sym(&[]), I32)],
        &[
            "`cross_entropy`",
            "no argument `smoothing`",
            "label_smoothing",
        ],
    );
    error_mentions(
        "x.cross_entropy(y, reduction = \"avg\")",
        &[x.clone(), ("y", sym(&[]), I32)],
        &[
            "`cross_entropy`",
            "unknown reduction \"avg\"",
            "\"mean\", \"sum\", \"none\"",
        ],
    );
    error_mentions(
        "x.cross_entropy(y, reduction = 1)",
        &[x.clone(), ("y", sym(&[]), I32)],
        &["`cross_entropy`", "reduction as a string"],
    );
    error_mentions(
        "x.cross_entropy(y, \"sum\", reduction = \"sum\")",
        &[x.clone(), ("y", sym(&[]), I32)],
        &["`cross_entropy`", "by position and by name"],
    );
    error_mentions(
        "x.cross_entropy()",
        std::slice::from_ref(&x),
        &["`cross_entropy`", "needs `y`"],
    );
    error_mentions(
        "x.nll_loss(y)",
        &[("x", dims(&[3, 10]), F32), ("y", dims(&[4]), I32)],
        &["`nll_loss`", "[4]", "[3, 10]", "axis 0 is 4, not 3"],
    );
    error_mentions(
        "x.nll_loss(y)",
        &[x.clone(), ("y", sym(&[10]), I32)],
        &["`nll_loss`", "[B, 10]", "without the class axis 1"],
    );
    error_mentions(
        "x.nll_loss(y, w)",
        &[x.clone(), ("y", sym(&[]), I32), ("w", dims(&[5]), F32)],
        &["`nll_loss`", "weight [5]", "10 classes"],
    );
    error_mentions(
        "x.nll_loss(y, ignore_index = 1.5)",
        &[x.clone(), ("y", sym(&[]), I32)],
        &["`nll_loss`", "integer"],
    );
    error_mentions(
        "x.sparse_categorical_crossentropy(y)",
        &[("x", sym(&[3, 10]), F32), ("y", sym(&[4]), I32)],
        &[
            "`sparse_categorical_crossentropy`",
            "[B, 4]",
            "[B, 3, 10]",
            "axis 1 is 4, not 3",
        ],
    );
    error_mentions(
        "p.binary_crossentropy(y)",
        &[("p", sym(&[3]), F32), ("y", sym(&[4]), F32)],
        &["`binary_crossentropy`", "[B, 3]", "[B, 4]", "axis -1"],
    );
    error_mentions(
        "p.binary_crossentropy_logits(y, pos_weight = w)",
        &[
            ("p", sym(&[3]), F32),
            ("y", sym(&[3]), F32),
            ("w", dims(&[2]), F32),
        ],
        &["`binary_crossentropy_logits`", "[2]", "[B, 3]"],
    );
    error_mentions(
        "x.batchnorm(m, v)",
        &[
            ("x", sym(&[4, 8, 8]), F32),
            ("m", dims(&[3]), F32),
            ("v", dims(&[4]), F32),
        ],
        &[
            "`batchnorm`",
            "mean of shape [3]",
            "[B, 4, 8, 8]",
            "axes [1]",
        ],
    );
    error_mentions(
        "x.batchnorm(m, v, axis = [1, 1])",
        &[
            ("x", sym(&[4]), F32),
            ("m", dims(&[4]), F32),
            ("v", dims(&[4]), F32),
        ],
        &["`batchnorm`", "appears twice"],
    );
    error_mentions(
        "x.batchnorm(m, v, axis = 3)",
        &[
            ("x", sym(&[4]), F32),
            ("m", dims(&[4]), F32),
            ("v", dims(&[4]), F32),
        ],
        &["`batchnorm`", "axis 3", "[B, 4]"],
    );
    error_mentions(
        "x.batchnorm(m)",
        &[("x", sym(&[4]), F32), ("m", dims(&[4]), F32)],
        &["`batchnorm`", "invstd"],
    );
    error_mentions(
        "x.conv_transpose2d(w)",
        &[("x", sym(&[3, 8, 8]), F32), ("w", dims(&[4, 2, 3, 3]), F32)],
        &[
            "`conv_transpose2d`",
            "[B, 3, 8, 8]",
            "[4, 2, 3, 3]",
            "3 channels (axis 1)",
        ],
    );
    error_mentions(
        "x.conv_transpose2d(w, groups = 3)",
        &[("x", sym(&[4, 8, 8]), F32), ("w", dims(&[4, 2, 3, 3]), F32)],
        &["`conv_transpose2d`", "[4, 2, 3, 3]", "3 groups"],
    );
    error_mentions(
        "x.conv_transpose2d(w, b)",
        &[
            ("x", sym(&[4, 8]), F32),
            ("w", dims(&[4, 2, 3]), F32),
            ("b", dims(&[4]), F32),
        ],
        &[
            "`conv_transpose2d`",
            "bias has 4 values",
            "2 output channels",
        ],
    );
    error_mentions(
        "x.conv_transpose2d(w, padding = 3)",
        &[("x", sym(&[4, 2]), F32), ("w", dims(&[4, 2, 3]), F32)],
        &[
            "`conv_transpose2d`",
            "padding (3, 3)",
            "axis 2",
            "[B, 4, 2]",
        ],
    );
    error_mentions(
        "x.conv_transpose2d(w, stride = 0)",
        &[("x", sym(&[4, 2]), F32), ("w", dims(&[4, 2, 3]), F32)],
        &["`conv_transpose2d`", "stride [0]"],
    );
    error_mentions(
        "x.conv_transpose2d(w, output_padding = [1, 1])",
        &[("x", sym(&[4, 2]), F32), ("w", dims(&[4, 2, 3]), F32)],
        &["`conv_transpose2d`", "2 values given for 1 spatial axes"],
    );
    error_mentions(
        "x.interpolate([4, 4, 4, 4])",
        &[("x", sym(&[3, 8]), F32)],
        &["`interpolate`", "4 size(s)", "[B, 3, 8]"],
    );
    error_mentions(
        "x.interpolate([4], \"bicubic\")",
        &[("x", sym(&[3, 8]), F32)],
        &[
            "`interpolate`",
            "unknown mode \"bicubic\"",
            "\"nearest-exact\"",
        ],
    );
    error_mentions(
        "x.interpolate([4], mode = \"nearest\", align_corners = true)",
        &[("x", sym(&[3, 8]), F32)],
        &["`interpolate`", "align_corners", "\"nearest\""],
    );
    error_mentions(
        "x.interpolate([-4])",
        &[("x", sym(&[3, 8]), F32)],
        &["`interpolate`", "-4"],
    );
    error_mentions(
        "x.interpolate([4])",
        &[("x", sym(&[3, 0]), F32)],
        &["`interpolate`", "empty axis 2", "[B, 3, 0]"],
    );
    error_mentions(
        "x.max_pool2d_with_indices(0)",
        &[("x", sym(&[3, 8, 8]), F32)],
        &["`max_pool2d_with_indices`", "kernel [0, 0]"],
    );
    error_mentions(
        "x.max_pool2d_with_indices([3, 3, 3, 3, 3])",
        &[("x", sym(&[3, 8, 8]), F32)],
        &["`max_pool2d_with_indices`", "5-D window", "[B, 3, 8, 8]"],
    );
    error_mentions(
        "x.max_pool2d_with_indices(9)",
        &[("x", sym(&[3, 8, 8]), F32)],
        &["`max_pool2d_with_indices`", "axis 2", "[B, 3, 8, 8]"],
    );
    error_mentions(
        "v.max_unpool2d(i)",
        &[("v", sym(&[2, 4, 4]), F32), ("i", sym(&[2, 4, 3]), I32)],
        &[
            "`max_unpool2d`",
            "[B, 2, 4, 3]",
            "[B, 2, 4, 4]",
            "axis 3 is 3, not 4",
        ],
    );
    error_mentions(
        "v.max_unpool2d(i)",
        &[("v", sym(&[2, 4, 4]), F32), ("i", sym(&[2, 4, 4]), F32)],
        &["`max_unpool2d`", "integer", "f32"],
    );
    error_mentions(
        "v.max_unpool2d(i, output_size = [8])",
        &[("v", sym(&[2, 4, 4]), F32), ("i", sym(&[2, 4, 4]), I32)],
        &[
            "`max_unpool2d`",
            "output_size has 1 entries",
            "2 spatial axes",
        ],
    );
    error_mentions(
        "v.max_unpool2d(i, 2, padding = 5)",
        &[("v", sym(&[2, 4, 4]), F32), ("i", sym(&[2, 4, 4]), I32)],
        &["`max_unpool2d`", "negative size", "[B, 2, 4, 4]"],
    );
    error_mentions(
        "v.max_unpool2d(i, 1)",
        &[("v", dims(&[2, 4]), F32), ("i", dims(&[2, 4]), I32)],
        &["`max_unpool2d`", "[2, 4]"],
    );
}

#[test]
fn training_rules_keep_symbolic_dims() {
    use Dt::*;
    let b = Poly::param("B");
    let shape = |v: &Val| match v {
        Val::Tensor { shape, .. } => shape.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        _ => panic!("not a tensor"),
    };
    let sym = |rest: &[i64]| {
        let mut v = vec![b.clone()];
        v.extend(dims(rest));
        v
    };
    let v = eval_sym(
        "x.conv_transpose2d(w, stride = 2)",
        &[("x", sym(&[3, 4]), F32), ("w", dims(&[3, 5, 3]), F32)],
    )
    .expect("accepted");
    assert_eq!(shape(&v), ["B", "5", "9"]);
    let v = eval_sym(
        "x.cross_entropy(y, reduction = \"none\")",
        &[("x", sym(&[10]), F32), ("y", sym(&[]), I32)],
    )
    .expect("accepted");
    assert_eq!(shape(&v), ["B"]);
    let v =
        eval_sym("x.interpolate([B * 2, 2])", &[("x", dims(&[1, 3, 4]), F32)]).expect("accepted");
    assert_eq!(shape(&v), ["1", "2*B", "2"]);
    let v = eval_sym(
        "v.max_unpool2d(i, 2)",
        &[
            ("v", vec![b.clone(), Poly::constant(1), b.clone()], F32),
            ("i", vec![b.clone(), Poly::constant(1), b.clone()], I32),
        ],
    )
    .expect("accepted");
    assert_eq!(shape(&v), ["B", "1", "2*B"]);
}

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
