//! What tg's integration tests share: reading the numpy fixtures in `fixtures/` and comparing
//! realized tensors with them ([`fixture`]), and the padding argument of the conv and pool
//! fixtures ([`padding`]). A crate of its own, so the test binaries compile it once.

pub use tg_fixture as fixture;
pub mod padding;
