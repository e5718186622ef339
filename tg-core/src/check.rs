//! Requirements a rule cannot decide now.
//!
//! A rule states what must hold (`B * 784 == 784 * B`, a pad no longer than its axis) through
//! a [`Checker`]: a requirement known false is the rule's error, one known true is dropped,
//! and an undecided one is kept, with the error it would be. On `usize` nothing is undecided;
//! `#[kernel]` turns each kept requirement into a post-monomorphization assert (when it only
//! depends on const parameters) or leaves it to the op's own check at run time (when it
//! depends on a dynamic dimension).

use crate::dim::{Dim, Truth};
use crate::error::RuleError;

/// A requirement between two dimensions.
#[derive(Clone, Debug, PartialEq)]
pub enum Fact<D> {
    /// `a == b`.
    Equal(D, D),
    /// `a <= b`.
    AtMost(D, D),
}

/// A requirement left for later, with the error it is when it fails.
#[derive(Clone, Debug, PartialEq)]
pub struct Deferred<D> {
    /// What must hold.
    pub fact: Fact<D>,
    /// The error when it does not.
    pub error: RuleError<D>,
}

/// Collects the requirements rules could not decide.
#[derive(Clone, Debug)]
pub struct Checker<D> {
    deferred: Vec<Deferred<D>>,
}

impl<D> Default for Checker<D> {
    fn default() -> Self {
        Checker {
            deferred: Vec::new(),
        }
    }
}

impl<D: Dim> Checker<D> {
    /// No requirements yet.
    pub fn new() -> Self {
        Checker::default()
    }

    /// Requires `a == b`.
    pub fn equal(
        &mut self,
        a: &D,
        b: &D,
        error: impl FnOnce() -> RuleError<D>,
    ) -> Result<(), RuleError<D>> {
        self.require(a.eq_dim(b), Fact::Equal(a.clone(), b.clone()), error)
    }

    /// Requires `a <= b`.
    pub fn at_most(
        &mut self,
        a: &D,
        b: &D,
        error: impl FnOnce() -> RuleError<D>,
    ) -> Result<(), RuleError<D>> {
        self.require(a.le_dim(b), Fact::AtMost(a.clone(), b.clone()), error)
    }

    fn require(
        &mut self,
        truth: Truth,
        fact: Fact<D>,
        error: impl FnOnce() -> RuleError<D>,
    ) -> Result<(), RuleError<D>> {
        match truth {
            Truth::Yes => Ok(()),
            Truth::No => Err(error()),
            Truth::Unknown => {
                self.deferred.push(Deferred {
                    fact,
                    error: error(),
                });
                Ok(())
            }
        }
    }

    /// The undecided requirements, in the order the rules stated them.
    pub fn take_deferred(&mut self) -> Vec<Deferred<D>> {
        std::mem::take(&mut self.deferred)
    }
}

/// Runs rules on known sizes, where every requirement is decided. (tg-ops' entry point.)
pub fn decide<T>(
    rule: impl FnOnce(&mut Checker<usize>) -> Result<T, RuleError<usize>>,
) -> Result<T, RuleError<usize>> {
    let mut ck = Checker::new();
    let out = rule(&mut ck)?;
    debug_assert!(
        ck.deferred.is_empty(),
        "usize facts are always decided: {:?}",
        ck.deferred
    );
    Ok(out)
}
