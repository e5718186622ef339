//! The dimension type the shape rules are written over.
//!
//! tg-ops runs the rules on `usize` (every size is known), and `#[kernel]` runs the same rules
//! while it expands, on polynomials over the kernel's const parameters and dynamic (`_`) dims
//! (`tg-macros/src/sym.rs`). A fact about polynomials may be undecidable at expansion (`B == 3`
//! holds for one instantiation only), so comparisons answer [`Truth`], and a rule hands an
//! undecided requirement to its [`Checker`](crate::Checker), which the macro turns into a
//! post-monomorphization assert or leaves to the run.

use std::fmt;

/// Whether a fact about dimensions holds, as far as it can be told now.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Truth {
    /// Holds for every value of the symbols.
    Yes,
    /// Holds for none (it is then an error where a rule requires it).
    No,
    /// Depends on const parameters or run-time sizes: checked later.
    Unknown,
}

impl Truth {
    /// `Yes` or `No` from a known answer.
    pub const fn known(b: bool) -> Truth {
        if b { Truth::Yes } else { Truth::No }
    }
}

/// A dimension of a shape: a known size (`usize`), or a symbolic one whose value the rules
/// may not know.
///
/// Arithmetic is checked: `None` means the result overflows (or, for [`Dim::offset`], is known
/// to be negative), which a rule reports as an error rather than a panic, since the macros run
/// the rules on whatever literals a user writes.
pub trait Dim: Clone + PartialEq + fmt::Debug + fmt::Display {
    /// A size known now.
    fn lit(n: usize) -> Self;
    /// The size, when it is known now.
    fn known(&self) -> Option<usize>;
    /// `self + other`.
    fn checked_add(&self, other: &Self) -> Option<Self>;
    /// `self * other`.
    fn checked_mul(&self, other: &Self) -> Option<Self>;
    /// `self + k` for a signed `k`; `None` when that is known to be negative or overflows.
    fn offset(&self, k: i64) -> Option<Self>;
    /// `floor(self / k)` for `k >= 1`.
    fn div_floor(&self, k: usize) -> Self;
    /// `self / other` when it is known to divide exactly, else `None`.
    fn exact_div(&self, other: &Self) -> Option<Self>;
    /// `min(self, other)`: exact when their order is known; otherwise a dimension that only
    /// the run knows (a symbolic dimension cannot express a minimum).
    fn min_dim(&self, other: &Self) -> Self;
    /// Whether `self == other`.
    fn eq_dim(&self, other: &Self) -> Truth;
    /// Whether `self <= other`.
    fn le_dim(&self, other: &Self) -> Truth;
    /// Whether the value is only known at run time (not even after monomorphization), so a
    /// rule prefers another, equal dimension as its output.
    fn is_dynamic(&self) -> bool {
        false
    }

    /// Whether this is known to be `n`.
    fn is(&self, n: usize) -> bool {
        self.known() == Some(n)
    }
}

impl Dim for usize {
    fn lit(n: usize) -> Self {
        n
    }
    fn known(&self) -> Option<usize> {
        Some(*self)
    }
    fn checked_add(&self, other: &Self) -> Option<Self> {
        usize::checked_add(*self, *other)
    }
    fn checked_mul(&self, other: &Self) -> Option<Self> {
        usize::checked_mul(*self, *other)
    }
    fn offset(&self, k: i64) -> Option<Self> {
        let v = i128::try_from(*self).ok()? + i128::from(k);
        usize::try_from(v).ok()
    }
    fn div_floor(&self, k: usize) -> Self {
        self / k.max(1)
    }
    fn exact_div(&self, other: &Self) -> Option<Self> {
        (*other != 0 && self.is_multiple_of(*other)).then(|| self / other)
    }
    fn min_dim(&self, other: &Self) -> Self {
        (*self).min(*other)
    }
    fn eq_dim(&self, other: &Self) -> Truth {
        Truth::known(self == other)
    }
    fn le_dim(&self, other: &Self) -> Truth {
        Truth::known(self <= other)
    }
}

/// The element count of `shape`, `None` on overflow.
pub fn numel<D: Dim>(shape: &[D]) -> Option<D> {
    shape
        .iter()
        .try_fold(D::lit(1), |acc, d| acc.checked_mul(d))
}

/// `[2, B, 3]`: a shape as the error messages write it (as `{:?}` writes a `Vec<usize>`).
pub struct ShowShape<'a, D>(pub &'a [D]);

impl<D: fmt::Display> fmt::Display for ShowShape<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{d}")?;
        }
        f.write_str("]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usize_arithmetic_is_checked() {
        assert_eq!(Dim::checked_mul(&usize::MAX, &2), None);
        assert_eq!(3usize.offset(-3), Some(0));
        assert_eq!(3usize.offset(-4), None);
        assert_eq!(12usize.exact_div(&4), Some(3));
        assert_eq!(12usize.exact_div(&5), None);
        assert_eq!(12usize.exact_div(&0), None);
        assert_eq!(numel(&[2usize, 3, 4]), Some(24));
        assert_eq!(numel::<usize>(&[]), Some(1));
        assert_eq!(numel(&[usize::MAX, 2]), None);
        assert_eq!(ShowShape(&[2usize, 3]).to_string(), format!("{:?}", [2, 3]));
    }
}
