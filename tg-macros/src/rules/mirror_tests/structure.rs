//! Mirror tests of the structure rules (see the parent module).
