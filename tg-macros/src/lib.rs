//! tg-macros: the `tensor!` and `#[kernel]` DSL. Shapes are worked out while the macro
//! expands, so shape errors are compile errors pointing at the operator or argument at fault;
//! a macro never panics: any input gives either code or `compile_error!`.

mod dtype;
mod literal;

use proc_macro::TokenStream;

/// Builds a tensor from a literal, with its static shape and dtype:
/// `tensor!([[1., 2.], [3., 4.]])` is a `Tensor<Rank2<2, 2>, f32>`.
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
        Err(syn::Error::new(
            proc_macro2::Span::call_site(),
            "tensor! expressions are not implemented yet",
        ))
    };
    result.unwrap_or_else(|e| e.to_compile_error()).into()
}
mod dsl;
mod sym;
