//! tg-macros: the `tensor!` and `#[kernel]` DSL. Shapes are worked out while the macro
//! expands, so shape errors are compile errors pointing at the operator or argument at fault;
//! a macro never panics: any input gives either code or `compile_error!`.

mod dtype;
mod literal;

use proc_macro::TokenStream;

/// Builds a tensor from a literal, with its static shape and dtype:
/// `tensor!([[1., 2.], [3., 4.]])` is a `Tensor<Rank2<2, 2>, f32>`; or evaluates a numpy-like
/// expression of tensors: `tensor!(x @ w + b)`, `tensor!(-x ** 2)`, `tensor!(a < b)`.
///
/// Expressions follow Python's precedence; `@` is matmul, `**` power. Outside `#[kernel]` the
/// operands' types are checked by tg-ops' trait bounds (rank broadcasting, matmul inner
/// dimensions); inside `#[kernel]` the macro checks them itself, with full numpy broadcasting
/// and indexing.
///
/// Dtypes: float literals give f32, integers i32, `true`/`false` bool; a suffix (`1u8`,
/// `2.5f64`) picks another; `tensor!([1, 2]; f16)` states one. An empty literal states dtype and
/// shape: `tensor!([]; f32, [0, 3])`. A ragged literal, mixed dtypes or an out-of-range value is
/// a compile error pointing at the element.
#[proc_macro]
pub fn tensor(input: TokenStream) -> TokenStream {
    let input: proc_macro2::TokenStream = input.into();
    let result = if literal::is_literal(&input) {
        literal::expand(input)
    } else {
        dsl::typed::expand(input)
    };
    result.unwrap_or_else(|e| e.to_compile_error()).into()
}
mod dsl;
mod kernel;
mod module;
mod rules;
mod sym;

/// `Module` for a struct, from its fields: tensors (`DynTensor`, `Option<DynTensor>`, typed
/// `Tensor<..>`) are its parameters (`#[module(buffer)]`: a buffer, saved but not trained),
/// scalars and strings its configuration, and any other field a child module (a layer, a
/// `Vec` or array of layers, another derived struct) whose tensors are named `field.…`;
/// `#[module(skip)]` leaves a field out. Writes `visit`, `inspect`, `set_training` and
/// `modes` (the last two passed on to the children).
#[proc_macro_derive(Module, attributes(module))]
pub fn derive_module(item: TokenStream) -> TokenStream {
    module::derive(item.into())
        .unwrap_or_else(|e| e.to_compile_error())
        .into()
}

/// Checks a tensor function's shapes while it expands, and compiles it: the first call with a
/// given set of input shapes and dtypes records its kernels, later calls replay them on the new
/// inputs without building a graph, scheduling or compiling.
///
/// Parameters are tensors with written shapes (`x: Tensor<shape![B, 784]>`, where a dimension
/// is a literal, a const parameter of the function, or `_` for a dynamic one) and scalars; the
/// body is `let` bindings and an expression of tensor ops (`x.matmul(w)`, `a + b` with numpy
/// broadcasting, `x.sum(1)`, `tensor!(x @ w)`). Every shape error is a compile error pointing
/// at the operator or argument at fault.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    kernel::expand(attr.into(), item.into())
        .unwrap_or_else(|e| e.to_compile_error())
        .into()
}

#[cfg(test)]
mod fuzz_tests;
