//! What tg's integration tests share: reading the numpy fixtures in `fixtures/` and comparing
//! realized tensors with them ([`fixture`]), a case's inputs as tensors ([`inputs`]), and the
//! padding argument of the conv and pool fixtures ([`padding`]), and an elementwise comparison of
//! two results ([`assert_close`]). A crate of its own, so the test binaries compile it once.

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

/// Asserts `got` and `want` have the same length and agree element by element within `tol`
/// relative to `want` (absolute below 1), naming the first element that does not.
pub fn assert_close(got: &[f32], want: &[f32], tol: f32) {
    assert_eq!(got.len(), want.len());
    for (i, (a, b)) in got.iter().zip(want).enumerate() {
        assert!(
            (a - b).abs() <= tol * b.abs().max(1.0),
            "at {i}: {a} vs {b}\n{got:?}\n{want:?}"
        );
    }
}
