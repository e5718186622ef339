//! What tg's integration tests share: reading the numpy fixtures in `fixtures/` and comparing
//! realized tensors with them ([`fixture`]), a case's inputs as tensors ([`inputs`]), and the
//! padding argument of the conv and pool fixtures ([`padding`]). A crate of its own, so the test binaries compile it once.

pub use tg_fixture as fixture;
pub mod padding;

/// The input tensors of case `c`, in order, as the `DynTensor`s the ops take (every fixture
/// test starts from them).
pub fn inputs(c: &fixture::Case) -> Vec<tg_ops::DynTensor> {
    c.inputs
        .iter()
        .map(|s| tg_ops::DynTensor::from_lazy(fixture::lazy(s)))
        .collect()
}
