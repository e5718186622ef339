//! Runtime scalars of an optimizer: values kernels read from push constants, so a new
//! learning rate or bias correction every step compiles nothing, and a recorded step
//! replays with the new values bound.

use tg_ops::kernel_cache::fresh_vars;
use tg_ops::prelude::Operand;
use tg_runtime::Scalar;

/// One runtime scalar: a var id of its own and the value it has now.
#[derive(Clone, Copy, Debug)]
pub struct RuntimeScalar {
    id: u64,
    value: f64,
}

impl RuntimeScalar {
    /// A new scalar with `value` and an id no other var has.
    pub fn new(value: f64) -> RuntimeScalar {
        RuntimeScalar {
            id: fresh_vars(1),
            value,
        }
    }

    /// Its value now.
    pub fn value(&self) -> f64 {
        self.value
    }

    /// Sets its value: graphs built afterwards read it, a replay binds it.
    pub fn set(&mut self, value: f64) {
        self.value = value;
    }

    /// As an operand of tg-ops' arithmetic (a var, never a literal in a shader).
    pub fn operand(&self) -> Operand<'static> {
        Operand::Var(self.id, Scalar::Float(self.value))
    }

    /// The `(id, value)` a replay binds.
    pub fn bind(&self) -> (u64, Scalar) {
        (self.id, Scalar::Float(self.value))
    }
}
