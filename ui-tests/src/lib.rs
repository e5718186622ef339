//! trybuild compile-fail tests of tg's compile-time shape and dtype rules (see tests/).
