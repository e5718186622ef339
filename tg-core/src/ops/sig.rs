//! The parts of an op's signature: its parameters (each with a kind and a default), how the
//! `DynTensor` op is called, what it returns, what it asks of its receiver, and its typed forms.

use super::rules::{DtypeRule, ShapeRule};

/// One op, as data: everything the macros, the typed API's generated wrappers, the dynamic
/// dispatcher and the docs need to know about it, stated once.
#[derive(Clone, Debug)]
pub struct OpSig {
    /// The method name (in a kernel body and on `DynTensor`).
    pub name: &'static str,
    /// The family (tg-ops' module, the docs' section).
    pub family: Family,
    /// How the `DynTensor` op is called.
    pub call: Call,
    /// The parameters after the receiver, in the order a call gives them by position.
    pub params: &'static [Param],
    /// Whether a call may give arguments as `name = value`.
    pub keywords: bool,
    /// What the receiver's dtype must be.
    pub need: Need,
    /// The dtype of each output (one rule for all the pieces of a list).
    pub dtypes: &'static [DtypeRule],
    /// The output shapes.
    pub shape: ShapeRule,
    /// One tensor, a tuple, or a list.
    pub outputs: Outputs,
    /// Whether the `DynTensor` op returns a `Result`.
    pub fallible: bool,
    /// What the op computes, one phrase (the docs' table and the typed wrappers' docs).
    pub doc: &'static str,
    /// The typed API's generated form, if the op has one.
    pub typed: Typed,
}

impl OpSig {
    /// A fallible method with one output of the receiver's shape and dtype, no parameters, and
    /// no typed form: the base the tables refine with the builder methods below.
    pub const fn new(name: &'static str, family: Family, doc: &'static str) -> OpSig {
        OpSig {
            name,
            family,
            call: Call::Method,
            params: &[],
            keywords: false,
            need: Need::Any,
            dtypes: &[DtypeRule::Same],
            shape: ShapeRule::Same,
            outputs: Outputs::One,
            fallible: true,
            doc,
            typed: Typed::None,
        }
    }

    /// With these parameters.
    pub const fn params(mut self, params: &'static [Param]) -> OpSig {
        self.params = params;
        self
    }

    /// Taking `name = value` arguments.
    pub const fn keywords(mut self) -> OpSig {
        self.keywords = true;
        self
    }

    /// With this receiver requirement.
    pub const fn need(mut self, need: Need) -> OpSig {
        self.need = need;
        self
    }

    /// One output of this dtype.
    pub const fn dtype(mut self, rule: &'static [DtypeRule]) -> OpSig {
        self.dtypes = rule;
        self
    }

    /// With this shape rule.
    pub const fn shape(mut self, rule: ShapeRule) -> OpSig {
        self.shape = rule;
        self
    }

    /// With these outputs.
    pub const fn outputs(mut self, outputs: Outputs) -> OpSig {
        self.outputs = outputs;
        self
    }

    /// Called this way.
    pub const fn call(mut self, call: Call) -> OpSig {
        self.call = call;
        self
    }

    /// A `DynTensor` op that cannot fail.
    pub const fn infallible(mut self) -> OpSig {
        self.fallible = false;
        self
    }

    /// With this typed form.
    pub const fn typed(mut self, typed: Typed) -> OpSig {
        self.typed = typed;
        self
    }

    /// The parameter named `name`, and its index.
    pub fn param(&self, name: &str) -> Option<(usize, &'static Param)> {
        self.params.iter().enumerate().find(|(_, p)| p.name == name)
    }

    /// How many parameters a call may give by position.
    pub fn positional(&self) -> usize {
        self.params
            .iter()
            .filter(|p| p.pass != Pass::Keyword)
            .count()
    }

    /// How many parameters a call must give.
    pub fn required(&self) -> usize {
        self.params
            .iter()
            .filter(|p| p.default == ArgDefault::Required)
            .count()
    }

    /// The names a call may give as `name = value`, comma-separated (error messages).
    pub fn keyword_names(&self) -> String {
        let names: Vec<&str> = self
            .params
            .iter()
            .filter(|p| p.pass != Pass::Positional)
            .map(|p| p.name)
            .collect();
        names.join(", ")
    }

    /// `x.name(a, b = 1)`: the call as a kernel body writes it, with the defaults.
    pub fn usage(&self) -> String {
        let args: Vec<String> = self.params.iter().map(Param::usage).collect();
        match self.call {
            Call::Assoc => format!("Tensor::{}({})", self.name, args.join(", ")),
            _ => format!("x.{}({})", self.name, args.join(", ")),
        }
    }
}

/// The families of ops, as tg-ops' modules and the docs group them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Arithmetic, float math, activations, comparisons, bitwise ops, casts.
    Elementwise,
    /// sum, max, mean, ...
    Reduce,
    /// Views, padding, joins and splits.
    Movement,
    /// Matrix products, einsum, decompositions.
    Linalg,
    /// Convolutions.
    Conv,
    /// Pooling and unpooling.
    Pool,
    /// Layer and batch normalization.
    Norm,
    /// Losses.
    Loss,
    /// gather, scatter, masked selection, interpolation.
    Gather,
    /// Triangles and one-hot.
    Ranges,
    /// Statistics, scans and sorting.
    Stats,
    /// Keccak and tinygrad's tensor hash.
    Hash,
    /// Random tensors.
    Random,
    /// Gradients, contiguous_backward and in-place assign.
    Autograd,
    /// Tensors made from a shape or a range.
    Creation,
    /// `x[...]` and writes through an index.
    Indexing,
}

impl Family {
    /// Every family, in the docs' order.
    pub const ALL: [Family; 16] = [
        Family::Elementwise,
        Family::Reduce,
        Family::Movement,
        Family::Linalg,
        Family::Conv,
        Family::Pool,
        Family::Norm,
        Family::Loss,
        Family::Gather,
        Family::Ranges,
        Family::Stats,
        Family::Hash,
        Family::Random,
        Family::Autograd,
        Family::Creation,
        Family::Indexing,
    ];

    /// The family's name as a heading.
    pub const fn title(self) -> &'static str {
        match self {
            Family::Elementwise => "Elementwise",
            Family::Reduce => "Reductions",
            Family::Movement => "Movement",
            Family::Linalg => "Linear algebra",
            Family::Conv => "Convolution",
            Family::Pool => "Pooling",
            Family::Norm => "Normalization",
            Family::Loss => "Losses",
            Family::Gather => "Gather and scatter",
            Family::Ranges => "Ranges",
            Family::Stats => "Statistics, scans and sorting",
            Family::Hash => "Hashing",
            Family::Random => "Random",
            Family::Autograd => "Autograd",
            Family::Creation => "Creation",
            Family::Indexing => "Indexing",
        }
    }
}

/// How a call reaches the `DynTensor` op.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Call {
    /// `x.name(args)`, the arguments in parameter order (window and pad-mode parameters each
    /// gathered into their one option value, at the place of the first).
    Method,
    /// `x.name(args)` with the arguments in this order of parameter names (a kernel body
    /// keeps tinygrad's order where the `DynTensor` op's differs).
    Reorder(&'static [&'static str]),
    /// `DynTensor::name(&[x, others..], rest)`: the receiver joined with a list of tensors.
    Join,
    /// `DynTensor::name(args)`: no receiver (creation ops).
    Assoc,
    /// `x.split(&sizes, axis)` for a list of sizes, `x.split_every(size, axis)` for one.
    Split,
    /// `x.name(args)` writing into its receiver in place (`&mut self`, returning nothing): a
    /// kernel body's call, and a call by name, stand for the new contents (a window write).
    Write,
    /// Not an ordinary call: the macros handle it themselves (einsum, gradient, assign,
    /// indexing), or a kernel body cannot call it (its output shape depends on the data, or
    /// it writes through its receiver); `reason` says which, for the docs and the error.
    Special(&'static str),
}

/// One parameter.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Param {
    /// Its name: the keyword a call may give it by, and the fixtures' argument name.
    pub name: &'static str,
    /// What it takes.
    pub kind: Kind,
    /// What it is when not given.
    pub default: ArgDefault,
    /// Whether it may be given by position, by name, or both.
    pub pass: Pass,
}

impl Param {
    /// A required parameter, by position or name.
    pub const fn new(name: &'static str, kind: Kind) -> Param {
        Param {
            name,
            kind,
            default: ArgDefault::Required,
            pass: Pass::Both,
        }
    }

    /// With a default.
    pub const fn or(mut self, default: ArgDefault) -> Param {
        self.default = default;
        self
    }

    /// Given by name only.
    pub const fn keyword_only(mut self) -> Param {
        self.pass = Pass::Keyword;
        self
    }

    /// Given by position only.
    pub const fn positional_only(mut self) -> Param {
        self.pass = Pass::Positional;
        self
    }

    /// `name`, or `name = default`.
    pub fn usage(&self) -> String {
        match self.default {
            ArgDefault::Required => self.name.to_string(),
            d => format!("{} = {}", self.name, d.text()),
        }
    }
}

/// How a parameter may be given.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pass {
    /// By position or as `name = value`.
    Both,
    /// By position only.
    Positional,
    /// As `name = value` only.
    Keyword,
}

/// What a parameter is when a call does not give it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum ArgDefault {
    /// A call must give it.
    Required,
    /// Absent (`None` for the `DynTensor` op, or the op's own default where a rule says so).
    Absent,
    /// A bool.
    Bool(bool),
    /// An integer (an axis, a size).
    Int(i64),
    /// A number.
    F64(f64),
    /// A list of integers (axes).
    Ints(&'static [i64]),
    /// A string (a mode's name).
    Str(&'static str),
}

impl ArgDefault {
    /// The default as a kernel body writes it.
    pub fn text(self) -> String {
        match self {
            ArgDefault::Required => String::new(),
            ArgDefault::Absent => "None".into(),
            ArgDefault::Bool(b) => b.to_string(),
            ArgDefault::Int(i) => i.to_string(),
            ArgDefault::F64(f) => format!("{f:?}"),
            ArgDefault::Ints(v) => format!("{v:?}"),
            ArgDefault::Str(s) => format!("{s:?}"),
        }
    }
}

/// What a parameter takes, and so how each side reads it and passes it to the `DynTensor` op.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An axis, a literal integer (`isize`).
    Axis,
    /// An axis or none (`Option<isize>`).
    OptAxis,
    /// One axis or a list of them, or none for all (`Option<&[isize]>`).
    Axes,
    /// One axis or a list of them (`&[isize]`).
    AxisList,
    /// Literal integers that are not axes: shifts, flat pads (`&[isize]`).
    Ints,
    /// `true` or `false`.
    Bool,
    /// A number, which may be known only when the kernel runs (`f64`).
    F64,
    /// A count or size known at compile time, a const parameter allowed (`usize`).
    Size,
    /// A size or none (`Option<usize>`).
    OptSize,
    /// Literal counts (`&[usize]`): repeats.
    Counts,
    /// An integer known at compile time that may be negative: an offset (`isize`).
    Offset,
    /// An integer value (`i64`).
    I64,
    /// An integer label or none (`Option<i64>`).
    OptI64,
    /// An `i32` value (a position fill).
    I32,
    /// A dtype (`DType`).
    DType,
    /// A dtype or none (`Option<DType>`).
    OptDType,
    /// A tensor (`&DynTensor`).
    Tensor,
    /// A tensor or none (`Option<&DynTensor>`).
    OptTensor,
    /// One tensor or a list of them, joined after the receiver (`Call::Join`).
    Tensors,
    /// A tensor or a scalar (`impl Into<Operand>`).
    Operand,
    /// A tensor, a scalar or none (`Option<Operand>`).
    OptOperand,
    /// A scalar that takes the tensor's dtype (`impl Into<Scalar>`).
    Fill,
    /// A target shape, `-1` left to the op (`&[isize]`).
    Shape,
    /// A target shape, `-1` keeping an axis (`&[Option<usize>]`).
    OptShape,
    /// Sizes known at compile time (`&[usize]`).
    Sizes,
    /// Sizes or none (`Option<&[usize]>`).
    OptSizes,
    /// One size or a list of them (`x.split(2)` or `x.split([2, 3])`).
    SplitSizes,
    /// `(before, after)` pairs per axis (`&[(isize, isize)]`).
    Pairs,
    /// `(start, end)` ranges per axis (`&[(usize, usize)]`).
    Ranges,
    /// A string naming one of a set (a reduction, a mode).
    Choice(Choices),
    /// A string naming one of a set, or none (`Option<..>`).
    OptChoice(Choices),
    /// Keccak's configuration: a standard name or a `(rate, dsbyte)` pair.
    Keccak,
    /// A list of numbers (`&[f64]`).
    Floats,
    /// einsum's formula (a string literal).
    Formula,
    /// A field of a sliding window's options (`Conv`, `Pool`).
    Window(WindowField),
    /// The pad mode's name (with `PadValue`, one `PadMode`).
    PadMode,
    /// The constant mode's value (with `PadMode`, one `PadMode`).
    PadValue,
}

impl Kind {
    /// The option value a parameter of this kind is gathered into, if any: consecutive
    /// parameters of one group make one argument of the `DynTensor` op.
    pub const fn group(self) -> Option<Group> {
        match self {
            Kind::Window(_) => Some(Group::Window),
            Kind::PadMode | Kind::PadValue => Some(Group::PadMode),
            _ => None,
        }
    }
}

/// Several parameters that make one argument of the `DynTensor` op.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Group {
    /// `Conv` or `Pool` options (which one the family says).
    Window,
    /// `PadMode`: a mode and, for the constant mode, a value.
    PadMode,
}

/// The fields of `Conv` and `Pool`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WindowField {
    /// A pool's kernel: one size (both axes of a 2-D window) or one per axis.
    Kernel,
    /// The step between windows: one size or one per axis.
    Stride,
    /// The step between a window's elements.
    Dilation,
    /// Padding: one amount, one per axis, or `(before, after)` pairs.
    Padding,
    /// A convolution's groups.
    Groups,
    /// A transposed convolution's extra size at the end of each axis.
    OutputPadding,
    /// A pool's rounding up.
    CeilMode,
    /// Whether an average counts the padding.
    CountIncludePad,
}

impl WindowField {
    /// The builder method that sets it.
    pub const fn method(self) -> &'static str {
        match self {
            WindowField::Kernel => "new",
            WindowField::Stride => "stride",
            WindowField::Dilation => "dilation",
            WindowField::Padding => "padding",
            WindowField::Groups => "groups",
            WindowField::OutputPadding => "output_padding",
            WindowField::CeilMode => "ceil_mode",
            WindowField::CountIncludePad => "count_include_pad",
        }
    }
}

/// The sets of names a string argument chooses from, each a tg-ops enum.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Choices {
    /// A loss's `Reduction`.
    Reduction,
    /// scatter's `ScatterOp` for a scalar src.
    ScatterOp,
    /// scatter_reduce's `ScatterReduce`.
    ScatterReduce,
    /// interpolate's `Interpolation`.
    Interpolation,
    /// pad_with's `PadMode`.
    PadMode,
}

impl Choices {
    /// The names, as tinygrad and torch spell them.
    pub const fn names(self) -> &'static [&'static str] {
        match self {
            Choices::Reduction => &["mean", "sum", "none"],
            Choices::ScatterOp => &["add", "multiply"],
            Choices::ScatterReduce => &["sum", "prod", "mean", "amax", "amin"],
            Choices::Interpolation => &["linear", "nearest", "nearest-exact"],
            Choices::PadMode => &["constant", "reflect", "replicate", "circular"],
        }
    }

    /// tg-ops' enum (its path from the crate root) and its variants, in `names`' order.
    pub const fn rust(self) -> (&'static str, &'static [&'static str]) {
        match self {
            Choices::Reduction => ("untyped::loss::Reduction", &["Mean", "Sum", "None"]),
            Choices::ScatterOp => ("untyped::gather::ScatterOp", &["Add", "Multiply"]),
            Choices::ScatterReduce => (
                "untyped::gather::ScatterReduce",
                &["Sum", "Prod", "Mean", "Amax", "Amin"],
            ),
            Choices::Interpolation => (
                "untyped::gather::Interpolation",
                &["Linear", "Nearest", "NearestExact"],
            ),
            Choices::PadMode => (
                "untyped::pad_modes::PadMode",
                &["Constant", "Reflect", "Replicate", "Circular"],
            ),
        }
    }

    /// What the argument is, in messages ("unknown reduction ...").
    pub const fn what(self) -> &'static str {
        match self {
            Choices::Reduction => "reduction",
            Choices::ScatterOp => "scatter reduce",
            Choices::ScatterReduce => "reduction",
            Choices::Interpolation => "mode",
            Choices::PadMode => "pad mode",
        }
    }

    /// The index of `name`.
    pub fn find(self, name: &str) -> Option<usize> {
        self.names().iter().position(|n| *n == name)
    }
}

/// What an op returns.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outputs {
    /// One tensor.
    One,
    /// A pair of tensors.
    Pair,
    /// Three tensors.
    Triple,
    /// A list whose length the shape rule gives.
    List,
}

/// What an op asks of its receiver's dtype (the message of each is written once, in
/// [`OpError`](super::OpError)'s `Display`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Need {
    /// Any dtype.
    Any,
    /// A bool condition (`where_`).
    Bool,
    /// An integer or bool (bitwise ops).
    IntOrBool,
    /// Integer class indices (`one_hot`).
    Int,
    /// A float to draw like (`rand_like`).
    FloatDraw,
}

/// The typed API's generated form of an op (`tg-ops/tests/generated.rs` writes it).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Typed {
    /// None generated (hand-written, or none).
    None,
    /// `fn name(&self, params: f64..) -> Tensor<S, FloatOf<T>>` on a `Rank1` example.
    FloatUnary(Example),
    /// `fn name(&self) -> Tensor<S, T>` for `T: Numeric`, on a `Rank1<3>` example.
    SameUnary(Example),
    /// `fn name(&self, params: bool..) -> Tensor<S, bool>`.
    BoolUnary(Example),
    /// The five forms of a reduction (whole, `_axis`, `_keepdim`, `_axes`,
    /// `_axes_keepdim`), with the sum of `[1..6]` as the whole example's value.
    Reduction(&'static str),
    /// The three forms of a statistic with a correction (whole, `_axis`, `_keepdim`) on a
    /// 2x2 input: (input, whole, rows).
    Statistic(&'static str, &'static str, &'static str),
}

/// A doc example of a generated typed wrapper: an input, the arguments, the output.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Example {
    /// The input's element type (`f32`, `i32`).
    pub dtype: &'static str,
    /// The input's values, a Rust array literal.
    pub input: &'static str,
    /// The call's arguments, Rust expressions.
    pub args: &'static str,
    /// The output's values, a Rust array literal of the output type.
    pub output: &'static str,
}

/// An example on `f32` inputs without arguments.
pub const fn ex(input: &'static str, output: &'static str) -> Example {
    Example {
        dtype: "f32",
        input,
        args: "",
        output,
    }
}

/// An example with an input dtype and arguments.
pub const fn ex_with(
    dtype: &'static str,
    input: &'static str,
    args: &'static str,
    output: &'static str,
) -> Example {
    Example {
        dtype,
        input,
        args,
        output,
    }
}
