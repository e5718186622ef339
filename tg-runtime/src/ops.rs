//! The primitive ops: the only operations the runtime executes. Everything in tg's op library
//! is composed of these, so fusion, dtypes and devices work for every op at once.

use crate::dtype::{DType, Scalar};

/// Elementwise ops of one operand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `2^x`.
    Exp2,
    /// `log2(x)`.
    Log2,
    /// `sin(x)`.
    Sin,
    /// `sqrt(x)`.
    Sqrt,
    /// `1 / x`.
    Recip,
    /// `-x`.
    Neg,
    /// Rounds toward zero.
    Trunc,
}

/// Elementwise ops of two operands (same shape and dtype, except shifts: any int amount).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `a + b`.
    Add,
    /// `a * b`.
    Mul,
    /// Integer division truncating toward zero (C, GLSL, tinygrad); x / 0 is 0.
    Idiv,
    /// Integer remainder with the sign of the dividend (C's `%`); x % 0 is 0.
    Mod,
    /// NaN-propagating maximum for floats.
    Max,
    /// `<`, giving bool.
    CmpLt,
    /// `!=`, giving bool; true when either side is NaN.
    CmpNe,
    /// `==`, giving bool.
    CmpEq,
    /// Bitwise and (logical for bool).
    And,
    /// Bitwise or.
    Or,
    /// Bitwise xor.
    Xor,
    /// Left shift; amounts outside `0..bits` give 0 (numpy's rule).
    Shl,
    /// Right shift, arithmetic for signed types; amounts outside `0..bits` give 0, or -1 for a
    /// negative signed value (numpy's rule).
    Shr,
    /// `x ** y` with C's `pow` semantics for floats (negative bases with integral exponents
    /// work); for integers, exact with wrap-around, and 0 for negative exponents except bases
    /// 1 and -1.
    Pow,
}

/// Elementwise ops of three operands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TernaryOp {
    /// `cond ? a : b`; cond is bool.
    Where,
    /// `a * b + c`.
    MulAcc,
}

/// Reductions over a set of axes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// The sum.
    Add,
    /// The product.
    Mul,
    /// NaN-propagating for floats, like numpy's `max`.
    Max,
}

/// The three kernels of a fused attention (`Op::Attention`), each from a template
/// (`codegen/glsl/attention.rs`) over `q (.., L, D)`, `k (.., S, D)` and `v (.., S, Dv)`
/// with the scores `s_ij = q_i . k_j / sqrt(D)`, masked as its [`AttentionMask`] says:
/// FlashAttention-2's passes, none holding an `L x S` matrix.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttentionPass {
    /// One invocation a query row: the softmax-weighted values by an online softmax over
    /// the keys, then the row's logsumexp: `(.., L, Dv + 1)`.
    Forward,
    /// One invocation a query row: the queries' gradient and the row's `delta`
    /// (`rowsum(dO O)` less the logsumexp's gradient) side by side, `(.., L, D + 1)`,
    /// recomputing each weight from the forward's logsumexp. Its sources are the queries,
    /// keys and values, the forward's output and the values' gradient `dO` `(.., L, Dv)`,
    /// then, where `lse_grad`, the logsumexp's gradient `(.., L, 1)` (else it is 0).
    GradQ {
        /// The logsumexp has a gradient of its own, the pass's sixth source.
        lse_grad: bool,
    },
    /// One invocation a key row, looping over the queries: the keys' and the values'
    /// gradients side by side, `(.., S, D + Dv)`. Its sources are `GradQ`'s five, then
    /// `GradQ`'s output, whose last column is each query's `delta`.
    GradKV,
}

/// Which keys a fused attention's query sees (`Op::Attention`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttentionMask {
    /// Every key.
    Full,
    /// Query `i` sees keys `0..=i` alone.
    Causal,
    /// Every key, each score plus an f32 value (`-inf` hides the key) from the attention's
    /// last source, `(.., L or 1, S)`: its batch axes are the queries' (`heads`) or all 1,
    /// and it has a row a query (`rows`) or one row for all. A row whose keys are all
    /// hidden is NaN, as the composed softmax's.
    Add {
        /// The mask has a row block a head (the queries' batch axes), else one for all.
        heads: bool,
        /// The mask has a row a query, else one row for every query.
        rows: bool,
    },
    /// Query `i` sees keys `0..=e_i` alone, `e_i` from the attention's last source
    /// `(.., L or 1)` (f32 whole numbers; below 0 read as 0, so key 0 is always seen): its
    /// batch axes are the queries' (`heads`) or all 1, and it has an end a query (`rows`) or
    /// one for all. A causal mask whose ends are data: a step of a few rows attending a
    /// cache up to each row's position. The loop stops at a block's last end, where an
    /// additive mask's loops over every key and loads a value for each.
    Ends {
        /// The ends have a row a head (the queries' batch axes), else one for all.
        heads: bool,
        /// The ends have one a query, else one for every query.
        rows: bool,
    },
}

/// Dropout inside a fused attention (`Op::Attention`'s third field): weight `(i, j)` is kept
/// where bit `j % 32` of word `j / 32` of query row `i` of the attention's last source is
/// set (u32, `(.., L, ceil(S / 32))` with the queries' batch axes), scaled by `1 / (1 - p)`,
/// and dropped otherwise. It follows the softmax, as the composition's dropout does: a row's
/// sum is of every weight, and the logsumexp is the undropped one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct AttentionDropout {
    /// The bits of the f32 scale of a kept weight, `1 / (1 - p)`.
    pub scale: u32,
}

impl AttentionDropout {
    /// Dropout of probability `p` (in `[0, 1)`).
    pub fn of(p: f64) -> AttentionDropout {
        AttentionDropout {
            scale: ((1.0 / (1.0 - p)) as f32).to_bits(),
        }
    }

    /// A kept weight's scale.
    pub fn scale(self) -> f32 {
        f32::from_bits(self.scale)
    }
}

impl UnaryOp {
    /// Every unary op.
    pub const ALL: [UnaryOp; 7] = [
        UnaryOp::Exp2,
        UnaryOp::Log2,
        UnaryOp::Sin,
        UnaryOp::Sqrt,
        UnaryOp::Recip,
        UnaryOp::Neg,
        UnaryOp::Trunc,
    ];

    /// Only defined on floats (the op library casts integers first, as tinygrad does).
    pub const fn float_only(self) -> bool {
        matches!(
            self,
            UnaryOp::Exp2 | UnaryOp::Log2 | UnaryOp::Sin | UnaryOp::Sqrt | UnaryOp::Recip
        )
    }
}

impl BinaryOp {
    /// Every binary op.
    pub const ALL: [BinaryOp; 14] = [
        BinaryOp::Add,
        BinaryOp::Mul,
        BinaryOp::Idiv,
        BinaryOp::Mod,
        BinaryOp::Max,
        BinaryOp::CmpLt,
        BinaryOp::CmpNe,
        BinaryOp::CmpEq,
        BinaryOp::And,
        BinaryOp::Or,
        BinaryOp::Xor,
        BinaryOp::Shl,
        BinaryOp::Shr,
        BinaryOp::Pow,
    ];

    /// Whether the result is bool.
    pub const fn is_comparison(self) -> bool {
        matches!(self, BinaryOp::CmpLt | BinaryOp::CmpNe | BinaryOp::CmpEq)
    }

    /// Bitwise and shift ops take integers and bool (shifts: integers only).
    pub const fn is_bitwise(self) -> bool {
        matches!(
            self,
            BinaryOp::And | BinaryOp::Or | BinaryOp::Xor | BinaryOp::Shl | BinaryOp::Shr
        )
    }

    /// The op's name, for errors and debug output.
    pub const fn name(self) -> &'static str {
        match self {
            BinaryOp::Add => "add",
            BinaryOp::Mul => "mul",
            BinaryOp::Idiv => "idiv",
            BinaryOp::Mod => "mod",
            BinaryOp::Max => "max",
            BinaryOp::CmpLt => "cmplt",
            BinaryOp::CmpNe => "cmpne",
            BinaryOp::CmpEq => "cmpeq",
            BinaryOp::And => "and",
            BinaryOp::Or => "or",
            BinaryOp::Xor => "xor",
            BinaryOp::Shl => "shl",
            BinaryOp::Shr => "shr",
            BinaryOp::Pow => "pow",
        }
    }
}

impl UnaryOp {
    /// The op's name, for errors and debug output.
    pub const fn name(self) -> &'static str {
        match self {
            UnaryOp::Exp2 => "exp2",
            UnaryOp::Log2 => "log2",
            UnaryOp::Sin => "sin",
            UnaryOp::Sqrt => "sqrt",
            UnaryOp::Recip => "recip",
            UnaryOp::Neg => "neg",
            UnaryOp::Trunc => "trunc",
        }
    }
}

impl ReduceOp {
    /// The op's name, for errors and debug output.
    pub const fn name(self) -> &'static str {
        match self {
            ReduceOp::Add => "sum",
            ReduceOp::Mul => "prod",
            ReduceOp::Max => "max",
        }
    }

    /// The value that leaves the reduction unchanged in `dtype`: 0 for sums, 1 for products,
    /// the lowest value (`-inf` for floats, false for bool) for max.
    pub fn identity(self, dtype: DType) -> Scalar {
        match self {
            ReduceOp::Add => Scalar::Int(0).cast(dtype),
            ReduceOp::Mul => Scalar::Int(1).cast(dtype),
            ReduceOp::Max if dtype.is_float() => Scalar::Float(f64::NEG_INFINITY),
            ReduceOp::Max if dtype.is_bool() => Scalar::Bool(false),
            ReduceOp::Max if dtype.is_unsigned() => Scalar::UInt(0),
            ReduceOp::Max => Scalar::Int(dtype.int_min() as i64),
        }
    }

    /// The elementwise op that combines two partial results of the reduction in `dtype` (the
    /// maximum of bools is their or).
    pub fn combine(self, dtype: DType) -> BinaryOp {
        match self {
            ReduceOp::Add => BinaryOp::Add,
            ReduceOp::Mul => BinaryOp::Mul,
            ReduceOp::Max if dtype.is_bool() => BinaryOp::Or,
            ReduceOp::Max => BinaryOp::Max,
        }
    }
}
