//! Typed wrappers: each computes its output type and calls one `DynTensor` op.
