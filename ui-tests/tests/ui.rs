//! Compile-fail suite: each file in tests/fail must fail to compile with the message in its
//! .stderr; each file in tests/pass is a valid twin that must compile and run. Having pass
//! cases makes trybuild run `cargo build`, so post-monomorphization checks are seen too.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/fail/*.rs");
    t.pass("tests/pass/*.rs");
}
