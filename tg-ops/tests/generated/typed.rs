//! The typed wrappers of the table-shaped families (`src/typed/generated.rs`): float math and
//! activations, ops that keep the dtype, bool tests, the five forms of each reduction and the
//! three of each statistic, from their rows in tg-core's op table (name, parameters, doc and
//! example), so a row and its `DynTensor` op are all such an op needs.

use std::fmt::Write;

use tg_core::ops::{self, DtypeRule, Example, Kind, OpSig, Typed};

/// `name: f64, ..` of the row's parameters, and the names alone.
fn params(sig: &OpSig) -> (String, String) {
    let mut decl = String::new();
    let mut names = Vec::new();
    for p in sig.params {
        let ty = match p.kind {
            Kind::F64 => "f64",
            Kind::Bool => "bool",
            other => panic!("{}: a typed unary takes no {other:?}", sig.name),
        };
        write!(decl, ", {}: {ty}", p.name).ok();
        names.push(p.name);
    }
    (decl, names.join(", "))
}

/// The number of elements of an example's input.
fn len(ex: &Example) -> usize {
    ex.input.matches(',').count() + 1
}

/// `Tensor::<Rank1<n>, dtype>` for an example.
fn input_type(ex: &Example) -> String {
    if ex.dtype == "f32" {
        format!("Tensor::<Rank1<{}>>", len(ex))
    } else {
        format!("Tensor::<Rank1<{}>, {}>", len(ex), ex.dtype)
    }
}

/// The link to the `DynTensor` op.
fn see(name: &str) -> String {
    format!("(see [`DynTensor::{name}`](crate::DynTensor::{name}))")
}

/// A doc comment's first line, then its example up to the input tensor `t`.
fn doc_head(out: &mut String, first: &str, ex: &Example) {
    writeln!(out, "    /// {first}").ok();
    out.push_str("    ///\n    /// ```\n    /// use tg_ops::prelude::*;\n");
    let ty = input_type(ex);
    writeln!(
        out,
        "    /// let t = {ty}::from_slice(&{}).unwrap();",
        ex.input
    )
    .ok();
}

/// An example's exact check of `t.name(args)`.
fn exact_check(out: &mut String, name: &str, ex: &Example) {
    let (args, want) = (ex.args, ex.output);
    writeln!(
        out,
        "    /// assert_eq!(t.{name}({args}).to_vec().unwrap(), vec!{want});"
    )
    .ok();
}

fn float_unary(out: &mut String, sig: &OpSig, ex: &Example) {
    let (decl, names) = params(sig);
    let (name, doc) = (sig.name, sig.doc);
    let n = len(ex);
    let first = format!("{doc} {}; integer and bool tensors give f32.", see(name));
    doc_head(out, &first, ex);
    writeln!(
        out,
        "    /// let y = t.{name}({}).to_vec().unwrap();",
        ex.args
    )
    .ok();
    writeln!(out, "    /// let want: [f32; {n}] = {};", ex.output).ok();
    out.push_str("    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));\n    /// ```\n");
    writeln!(
        out,
        "    pub fn {name}(&self{decl}) -> Tensor<S, <T as FloatOf>::Output> {{"
    )
    .ok();
    writeln!(
        out,
        "        Tensor::from_dyn(ok(self.as_dyn().{name}({names})))"
    )
    .ok();
    out.push_str("    }\n\n");
}

fn same_unary(out: &mut String, sig: &OpSig, ex: &Example) {
    let (name, doc) = (sig.name, sig.doc);
    doc_head(
        out,
        &format!("{doc} in the tensor's dtype {}.", see(name)),
        ex,
    );
    exact_check(out, name, ex);
    out.push_str("    /// ```\n");
    // the bound is on the method, not the impl: on a bool tensor it fails with `Numeric`'s
    // message instead of "the method exists but its trait bounds were not satisfied"
    writeln!(
        out,
        "    pub fn {name}(&self) -> Tensor<S, T>\n    where\n        T: Numeric,\n    {{"
    )
    .ok();
    writeln!(out, "        Tensor::from_dyn(ok(self.as_dyn().{name}()))").ok();
    out.push_str("    }\n\n");
}

fn bool_unary(out: &mut String, sig: &OpSig, ex: &Example) {
    let (decl, names) = params(sig);
    let (name, doc) = (sig.name, sig.doc);
    doc_head(out, &format!("{doc} {}.", see(name)), ex);
    exact_check(out, name, ex);
    out.push_str("    /// ```\n");
    writeln!(out, "    pub fn {name}(&self{decl}) -> Tensor<S, bool> {{").ok();
    writeln!(
        out,
        "        Tensor::from_dyn(ok(self.as_dyn().{name}({names})))"
    )
    .ok();
    out.push_str("    }\n\n");
}

/// The output type and the bound of a reduction's dtype rule.
fn reduced(sig: &OpSig) -> (&'static str, &'static str) {
    match sig.dtypes[0] {
        DtypeRule::Sum => ("<T as SumDtype>::Output", "T: SumDtype,"),
        DtypeRule::FloatOf => ("<T as MeanDtype>::Output", "T: MeanDtype,"),
        DtypeRule::Same => ("T", ""),
        DtypeRule::Bool => ("bool", ""),
        other => panic!("{}: no typed reduction of {other:?}", sig.name),
    }
}

/// One form of a reduction.
struct Form<'a> {
    suffix: &'a str,
    doc: String,
    example: (&'a str, &'a str, String),
    generics: &'a str,
    shape: &'a str,
    bounds: &'a str,
    axes: &'a str,
}

fn reduction(out: &mut String, sig: &OpSig, example: &str) {
    let (name, what) = (sig.name, sig.doc);
    let (ty, bound) = reduced(sig);
    let two = "Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])";
    let three = "Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])";
    let forms = [
        Form {
            suffix: "",
            doc: format!(
                "The {what} of all elements, as a rank-0 tensor (see `DynTensor::{name}`)."
            ),
            example: (
                two,
                "()",
                format!("assert_eq!(r.item().unwrap(), {example});"),
            ),
            generics: "",
            shape: "()",
            bounds: "",
            axes: "None, false",
        },
        Form {
            suffix: "_axis",
            doc: format!("The {what} over axis `A`, which is removed."),
            example: (two, "::<-1>()", "assert_eq!(r.dims(), vec![2]);".into()),
            generics: "<const A: isize>",
            shape: "<S as RemoveAxis<A>>::Output",
            bounds: "S: RemoveAxis<A>,",
            axes: "Some(&[A]), false",
        },
        Form {
            suffix: "_keepdim",
            doc: format!("The {what} over axis `A`, which is kept with size 1."),
            example: (two, "::<0>()", "assert_eq!(r.dims(), vec![1, 3]);".into()),
            generics: "<const A: isize>",
            shape: "<S as KeepAxis<A>>::Output",
            bounds: "S: KeepAxis<A>,",
            axes: "Some(&[A]), true",
        },
        Form {
            suffix: "_axes",
            doc: format!("The {what} over the two distinct axes `A` and `B`, which are removed."),
            example: (
                three,
                "::<0, -1>()",
                "assert_eq!(r.dims(), vec![3]);".into(),
            ),
            generics: "<const A: isize, const B: isize>",
            shape: "<S as RemoveAxes2<A, B>>::Output",
            bounds: "S: RemoveAxes2<A, B>,",
            axes: "Some(&[A, B]), false",
        },
        Form {
            suffix: "_axes_keepdim",
            doc: format!(
                "The {what} over the two distinct axes `A` and `B`, which are kept with size 1."
            ),
            example: (
                three,
                "::<0, 1>()",
                "assert_eq!(r.dims(), vec![1, 1, 1]);".into(),
            ),
            generics: "<const A: isize, const B: isize>",
            shape: "Keep2<S, A, B>",
            bounds: "S: RemoveAxes2<A, B> + KeepAxis<A>,\n        <S as KeepAxis<A>>::Output: KeepAxis<B>,",
            axes: "Some(&[A, B]), true",
        },
    ];
    for f in forms {
        let m = format!("{name}{}", f.suffix);
        writeln!(out, "    /// {}", f.doc).ok();
        out.push_str("    ///\n    /// ```\n    /// use tg_ops::prelude::*;\n");
        writeln!(out, "    /// let t = Tensor::<{}.unwrap();", f.example.0).ok();
        writeln!(out, "    /// let r = t.{m}{};", f.example.1).ok();
        writeln!(out, "    /// {}", f.example.2).ok();
        out.push_str("    /// ```\n");
        writeln!(
            out,
            "    pub fn {m}{}(&self) -> Tensor<{}, {ty}>",
            f.generics, f.shape
        )
        .ok();
        let bounds: Vec<&str> = [f.bounds, bound]
            .into_iter()
            .filter(|b| !b.is_empty())
            .collect();
        if !bounds.is_empty() {
            writeln!(out, "    where\n        {}", bounds.join("\n        ")).ok();
        }
        out.push_str("    {\n");
        writeln!(
            out,
            "        Tensor::from_dyn(ok(self.as_dyn().{name}({})))",
            f.axes
        )
        .ok();
        out.push_str("    }\n\n");
    }
}

fn statistic(out: &mut String, sig: &OpSig, (input, whole, rows): (&str, &str, &str)) {
    let (name, what) = (sig.name, sig.doc);
    let input_line = format!("/// let t = Tensor::<Rank2<2, 2>>::from_slice(&{input}).unwrap();");
    writeln!(
        out,
        "    /// The {what} of all elements, rank 0 {}.",
        see(name)
    )
    .ok();
    writeln!(
        out,
        "    ///\n    /// ```\n    /// use tg_ops::prelude::*;\n    {input_line}"
    )
    .ok();
    writeln!(out, "    /// let r = t.{name}(1.0);\n    /// assert!((r.item().unwrap() - {whole}).abs() < 1e-5);\n    /// ```").ok();
    writeln!(
        out,
        "    pub fn {name}(&self, correction: f64) -> Tensor<(), F<T>> {{"
    )
    .ok();
    writeln!(
        out,
        "        Tensor::from_dyn(ok(self.as_dyn().{name}(None, false, correction)))\n    }}\n"
    )
    .ok();
    writeln!(out, "    /// The {what} over axis `A`, which is removed.").ok();
    writeln!(
        out,
        "    ///\n    /// ```\n    /// use tg_ops::prelude::*;\n    {input_line}"
    )
    .ok();
    writeln!(out, "    /// let r: Tensor<Rank1<2>> = t.{name}_axis::<-1>(1.0);\n    /// assert_eq!(r.to_vec().unwrap(), {rows});\n    /// ```").ok();
    writeln!(out, "    pub fn {name}_axis<const A: isize>(&self, correction: f64) -> Tensor<<S as RemoveAxis<A>>::Output, F<T>>\n    where\n        S: RemoveAxis<A>,\n    {{").ok();
    writeln!(out, "        Tensor::from_dyn(ok(self.as_dyn().{name}(Some(&[A]), false, correction)))\n    }}\n").ok();
    writeln!(
        out,
        "    /// The {what} over axis `A`, which is kept with size 1."
    )
    .ok();
    writeln!(
        out,
        "    ///\n    /// ```\n    /// use tg_ops::prelude::*;\n    {input_line}"
    )
    .ok();
    writeln!(out, "    /// let r: Tensor<Rank2<2, 1>> = t.{name}_keepdim::<1>(1.0);\n    /// assert_eq!(r.to_vec().unwrap(), {rows});\n    /// ```").ok();
    writeln!(out, "    pub fn {name}_keepdim<const A: isize>(&self, correction: f64) -> Tensor<<S as KeepAxis<A>>::Output, F<T>>\n    where\n        S: KeepAxis<A>,\n    {{").ok();
    writeln!(
        out,
        "        Tensor::from_dyn(ok(self.as_dyn().{name}(Some(&[A]), true, correction)))\n    }}\n"
    )
    .ok();
}

/// The text of `src/typed/generated.rs`.
pub fn typed() -> String {
    let mut out = super::header(
        "The typed wrappers of the table-shaped families, from tg-core's op table (typed/mod.rs).",
    );
    out.push_str(
        "\nuse crate::dtype::{Dtype, Numeric};\nuse crate::shape::Shape;\nuse crate::shape::axis::{KeepAxis, RemoveAxis};\nuse crate::shape::ops::RemoveAxes2;\nuse crate::tensor::{Tensor, ok};\nuse crate::typed::elementwise::FloatOf;\nuse crate::typed::reduce::{MeanDtype, SumDtype};\n\n/// The float type of a statistic of `T`.\ntype F<T> = <T as FloatOf>::Output;\n\n/// The output type of a two-axis reduction that keeps the axes.\ntype Keep2<S, const A: isize, const B: isize> = <<S as KeepAxis<A>>::Output as KeepAxis<B>>::Output;\n",
    );
    type Pick = fn(&Typed) -> bool;
    let blocks: [(&str, Pick); 5] = [
        ("S: Shape, T: FloatOf", |t| {
            matches!(t, Typed::FloatUnary(_))
        }),
        ("S: Shape, T: Dtype", |t| matches!(t, Typed::SameUnary(_))),
        ("S: Shape, T: Dtype", |t| matches!(t, Typed::BoolUnary(_))),
        ("S: Shape, T: Dtype", |t| matches!(t, Typed::Reduction(_))),
        ("S: Shape, T: FloatOf", |t| {
            matches!(t, Typed::Statistic(..))
        }),
    ];
    for (generics, pick) in blocks {
        writeln!(out, "\nimpl<{generics}> Tensor<S, T> {{").ok();
        for sig in ops::all().filter(|s| pick(&s.typed)) {
            match &sig.typed {
                Typed::FloatUnary(ex) => float_unary(&mut out, sig, ex),
                Typed::SameUnary(ex) => same_unary(&mut out, sig, ex),
                Typed::BoolUnary(ex) => bool_unary(&mut out, sig, ex),
                Typed::Reduction(example) => reduction(&mut out, sig, example),
                Typed::Statistic(a, b, c) => statistic(&mut out, sig, (a, b, c)),
                Typed::None => {}
            }
        }
        out.truncate(out.trim_end().len());
        out.push_str("\n}\n");
    }
    out
}
