//! Mirror tests of the training rules (see the parent module).
