//! Mirror tests of the decompositions rules (see the parent module).
