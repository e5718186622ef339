//! Symbolic dimensions: integer polynomials over the kernel's const parameters, so that
//! `B * 784 == B * 28 * 28` holds while the macro checks shapes. A dimension written `_`
//! (dynamic) is a symbol of its own; two different dynamic symbols may or may not be equal,
//! which only a run can tell, so they compare as "unknown" and the op checks at run time.

use std::collections::BTreeMap;
use std::fmt;

/// A symbol: a const generic parameter, a dynamic dimension, or an opaque quotient.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sym {
    /// `const B: usize` of the kernel.
    Param(String),
    /// A `_` dimension: its name says where it came from (`x.0`: axis 0 of parameter x).
    Dynamic(String),
    /// `floor(p / d)` that did not divide exactly.
    Quot(Box<Poly>, i64),
}

/// Sorted symbols with exponents.
type Monomial = Vec<(Sym, u32)>;

/// `sum(coeff * monomial)`; the empty monomial is the constant term.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Poly {
    terms: BTreeMap<Monomial, i64>,
}

/// Whether two dimensions are equal, as far as expansion time can tell (tg-core's `Truth`:
/// `Unknown` depends on const parameters or dynamic dimensions and is checked later).
pub use tg_core::Truth as Equal;

impl Poly {
    pub fn constant(c: i64) -> Poly {
        let mut terms = BTreeMap::new();
        if c != 0 {
            terms.insert(Vec::new(), c);
        }
        Poly { terms }
    }

    pub fn sym(s: Sym) -> Poly {
        let mut terms = BTreeMap::new();
        terms.insert(vec![(s, 1)], 1);
        Poly { terms }
    }

    pub fn param(name: &str) -> Poly {
        Poly::sym(Sym::Param(name.to_string()))
    }

    pub fn dynamic(name: &str) -> Poly {
        Poly::sym(Sym::Dynamic(name.to_string()))
    }

    /// The value, when no symbol is left.
    pub fn as_const(&self) -> Option<i64> {
        match self.terms.len() {
            0 => Some(0),
            1 => self.terms.get(&Vec::new()).copied(),
            _ => None,
        }
    }

    /// The const parameter's name, when the polynomial is exactly one (`B`).
    pub fn as_param(&self) -> Option<&str> {
        match self.terms.iter().next() {
            Some((m, 1)) if self.terms.len() == 1 => match m.as_slice() {
                [(Sym::Param(p), 1)] => Some(p),
                _ => None,
            },
            _ => None,
        }
    }

    /// Mentions a dynamic dimension (directly or inside a quotient).
    pub fn is_dynamic(&self) -> bool {
        self.terms.keys().flatten().any(|(s, _)| match s {
            Sym::Dynamic(_) => true,
            Sym::Quot(p, _) => p.is_dynamic(),
            Sym::Param(_) => false,
        })
    }

    /// `self + o`; panics on an `i64` overflow of a coefficient (use [`Poly::checked_add`]
    /// where the operands come from a user's literals).
    pub fn add(&self, o: &Poly) -> Poly {
        self.checked_add(o)
            .expect("polynomial coefficients fit in i64")
    }

    /// `self + o`, `None` when a coefficient overflows.
    pub fn checked_add(&self, o: &Poly) -> Option<Poly> {
        let mut terms = self.terms.clone();
        for (m, c) in &o.terms {
            let t = terms.entry(m.clone()).or_insert(0);
            *t = t.checked_add(*c)?;
        }
        terms.retain(|_, c| *c != 0);
        Some(Poly { terms })
    }

    /// `self - o`, `None` on overflow.
    pub fn checked_sub(&self, o: &Poly) -> Option<Poly> {
        self.checked_add(&o.checked_mul(&Poly::constant(-1))?)
    }

    /// `k * self`; panics on overflow (see [`Poly::checked_mul`]).
    #[cfg(test)]
    pub fn scale(&self, k: i64) -> Poly {
        self.checked_mul(&Poly::constant(k))
            .expect("polynomial coefficients fit in i64")
    }

    /// `self * o`, `None` when a coefficient or an exponent overflows.
    pub fn checked_mul(&self, o: &Poly) -> Option<Poly> {
        let mut out = Poly::default();
        for (ma, ca) in &self.terms {
            for (mb, cb) in &o.terms {
                let mut m: BTreeMap<Sym, u32> = BTreeMap::new();
                for (s, e) in ma.iter().chain(mb) {
                    let x = m.entry(s.clone()).or_insert(0);
                    *x = x.checked_add(*e)?;
                }
                let mono: Monomial = m.into_iter().collect();
                out = out.checked_add(&Poly {
                    terms: [(mono, ca.checked_mul(*cb)?)].into_iter().collect(),
                })?;
            }
        }
        Some(out)
    }

    /// Floor division by a positive constant: exact when every coefficient divides, a
    /// constant when constant, else an opaque quotient symbol.
    pub fn div(&self, d: i64) -> Poly {
        if d == 1 {
            return self.clone();
        }
        if let Some(c) = self.as_const() {
            return Poly::constant(c.div_euclid(d));
        }
        if self.terms.values().all(|c| c % d == 0) {
            return Poly {
                terms: self.terms.iter().map(|(m, c)| (m.clone(), c / d)).collect(),
            };
        }
        Poly::sym(Sym::Quot(Box::new(self.clone()), d))
    }

    /// `total / known` when `known` is one term `c * m` that divides every term of `total`.
    pub fn divide_monomial(total: &Poly, known: &Poly) -> Option<Poly> {
        let [(mono, c)] = known.terms.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        let mut out = Poly::default();
        for (m, k) in &total.terms {
            if k % c != 0 {
                return None;
            }
            let mut rest: BTreeMap<Sym, u32> = m.iter().cloned().collect();
            for (s, e) in mono {
                let have = rest.get_mut(s)?;
                if *have < *e {
                    return None;
                }
                *have -= e;
            }
            rest.retain(|_, e| *e > 0);
            out = out.add(&Poly {
                terms: [(rest.into_iter().collect(), k / c)].into_iter().collect(),
            });
        }
        Some(out)
    }

    /// `r` when `self == r * o` term by term (same monomials, one ratio).
    fn proportional(&self, o: &Poly) -> Option<f64> {
        if self.terms.len() != o.terms.len() || self.terms.is_empty() {
            return None;
        }
        let mut ratio = None;
        for (m, c) in &self.terms {
            let r = *c as f64 / *o.terms.get(m)? as f64;
            if ratio.is_some_and(|x: f64| (x - r).abs() > 1e-12) {
                return None;
            }
            ratio = Some(r);
        }
        ratio
    }

    /// Compile-time equality.
    pub fn equal(&self, o: &Poly) -> Equal {
        let Some(diff) = self.checked_sub(o) else {
            return Equal::Unknown;
        };
        match diff.as_const() {
            Some(0) => Equal::Yes,
            Some(_) => Equal::No,
            // `784*B` and `756*B` differ whenever they are not both 0
            None if self.proportional(o).is_some_and(|r| r != 1.0) => Equal::No,
            // `B` and `3` are equal for one instantiation only: the kernel asserts it after
            // monomorphization, and the run checks it
            None => Equal::Unknown,
        }
    }

    /// Rust tokens computing the value (a `usize`) from the kernel's const parameters and
    /// the runtime sizes of dynamic dimensions (`dyn_value` spells a dynamic symbol).
    pub fn to_tokens(
        &self,
        dyn_value: &dyn Fn(&str) -> proc_macro2::TokenStream,
    ) -> proc_macro2::TokenStream {
        use quote::quote;
        if self.terms.is_empty() {
            return quote!(0usize);
        }
        let mut parts = Vec::new();
        for (m, c) in &self.terms {
            let mut factors = vec![quote!((#c as i64))];
            for (s, e) in m {
                let v = match s {
                    Sym::Param(p) => {
                        let id = proc_macro2::Ident::new(p, proc_macro2::Span::call_site());
                        quote!((#id as i64))
                    }
                    Sym::Dynamic(d) => {
                        let t = dyn_value(d);
                        quote!((#t as i64))
                    }
                    Sym::Quot(p, d) => {
                        let inner = p.to_tokens(dyn_value);
                        quote!(((#inner as i64).div_euclid(#d)))
                    }
                };
                for _ in 0..*e {
                    factors.push(v.clone());
                }
            }
            let first = factors[0].clone();
            let product = factors[1..].iter().fold(first, |acc, f| quote!(#acc * #f));
            parts.push(quote!((#product)));
        }
        let joined = parts.iter().fold(quote!(0i64), |acc, p| quote!(#acc + #p));
        quote!(((#joined) as usize))
    }
}

/// `total / known` when it divides exactly, also symbolically (`784*B / 28*B`).
fn exact_div(total: &Poly, known: &Poly) -> Option<Poly> {
    if let Some(k) = known.as_const() {
        if k <= 0 {
            return None;
        }
        let q = total.div(k);
        return (q.checked_mul(known)?.equal(total) == Equal::Yes).then_some(q);
    }
    let q = Poly::divide_monomial(total, known)?;
    (q.checked_mul(known)?.equal(total) == Equal::Yes).then_some(q)
}

/// Dimensions of a kernel body for tg-core's shape rules: what the polynomials decide is
/// decided here, the rest is left to the rules' checker (asserted after monomorphization, or
/// checked by the run).
impl tg_core::Dim for Poly {
    fn lit(n: usize) -> Self {
        // sizes a rule makes come from literals, which are i64
        Poly::constant(i64::try_from(n).unwrap_or(i64::MAX))
    }
    fn known(&self) -> Option<usize> {
        self.as_const().and_then(|c| usize::try_from(c).ok())
    }
    fn checked_add(&self, other: &Self) -> Option<Self> {
        Poly::checked_add(self, other)
    }
    fn checked_mul(&self, other: &Self) -> Option<Self> {
        Poly::checked_mul(self, other)
    }
    fn offset(&self, k: i64) -> Option<Self> {
        let r = Poly::checked_add(self, &Poly::constant(k))?;
        match r.as_const() {
            Some(c) if c < 0 => None,
            _ => Some(r),
        }
    }
    fn div_floor(&self, k: usize) -> Self {
        self.div(i64::try_from(k).unwrap_or(i64::MAX).max(1))
    }
    fn exact_div(&self, other: &Self) -> Option<Self> {
        exact_div(self, other)
    }
    fn min_dim(&self, other: &Self) -> Self {
        match self.checked_sub(other).and_then(|d| d.as_const()) {
            Some(c) if c <= 0 => self.clone(),
            Some(_) => other.clone(),
            // a dynamic dim named by the expression (equal expressions stay equal), which the
            // op checks at run time
            None => Poly::dynamic(&format!("min({self}, {other})")),
        }
    }
    fn eq_dim(&self, other: &Self) -> Equal {
        self.equal(other)
    }
    fn le_dim(&self, other: &Self) -> Equal {
        match other.checked_sub(self).and_then(|d| d.as_const()) {
            Some(d) => Equal::known(d >= 0),
            None => Equal::Unknown,
        }
    }
    fn is_dynamic(&self) -> bool {
        Poly::is_dynamic(self)
    }
}

impl fmt::Display for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sym::Param(p) => write!(f, "{p}"),
            Sym::Dynamic(d) => write!(f, "_{d}"),
            Sym::Quot(p, d) => write!(f, "({p}) / {d}"),
        }
    }
}

impl fmt::Display for Poly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terms.is_empty() {
            return write!(f, "0");
        }
        // highest degree first, constant last
        let mut terms: Vec<(&Monomial, &i64)> = self.terms.iter().collect();
        terms.sort_by_key(|(m, _)| std::cmp::Reverse(m.iter().map(|(_, e)| *e).sum::<u32>()));
        for (i, (m, c)) in terms.iter().enumerate() {
            let c = **c;
            if i > 0 {
                write!(f, "{}", if c < 0 { " - " } else { " + " })?;
            } else if c < 0 {
                write!(f, "-")?;
            }
            let a = c.abs();
            if m.is_empty() {
                write!(f, "{a}")?;
                continue;
            }
            if a != 1 {
                write!(f, "{a}*")?;
            }
            let factors: Vec<String> = m
                .iter()
                .map(|(s, e)| {
                    if *e == 1 {
                        s.to_string()
                    } else {
                        format!("{s}^{e}")
                    }
                })
                .collect();
            write!(f, "{}", factors.join("*"))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_of_params_compare_equal() {
        let b = Poly::param("B");
        let lhs = b.scale(784);
        let rhs = b.scale(28).scale(28);
        assert_eq!(lhs.equal(&rhs), Equal::Yes);
        assert_eq!(lhs.equal(&b.scale(783)), Equal::No);
        assert_eq!(b.equal(&Poly::param("C")), Equal::Unknown);
        assert_eq!(b.add(&Poly::constant(1)).equal(&b), Equal::No);
        assert_eq!(lhs.to_string(), "784*B");
        assert_eq!(b.scale(2).add(&Poly::constant(-1)).to_string(), "2*B - 1");
    }

    #[test]
    fn dynamic_dims_are_unknown() {
        let x = Poly::dynamic("x.0");
        assert_eq!(x.equal(&Poly::constant(3)), Equal::Unknown);
        assert_eq!(x.equal(&x), Equal::Yes);
    }

    #[test]
    fn symbolic_quotients() {
        let b = Poly::param("B");
        let total = b.scale(784);
        assert_eq!(
            Poly::divide_monomial(&total, &b.scale(28)),
            Some(Poly::constant(28))
        );
        assert_eq!(Poly::divide_monomial(&total, &b.scale(5)), None);
    }

    #[test]
    fn division() {
        let b = Poly::param("B");
        assert_eq!(b.scale(4).div(2), b.scale(2));
        assert_eq!(Poly::constant(7).div(2).as_const(), Some(3));
        let q = b.add(&Poly::constant(1)).div(2);
        assert_eq!(q.to_string(), "(B + 1) / 2");
        assert_eq!(q.equal(&b.add(&Poly::constant(1)).div(2)), Equal::Yes);
    }

    /// tg-core's rules on polynomials: what the polynomials decide is decided (an error, or
    /// nothing left), the rest is left to the checker with the error it would be.
    #[test]
    fn tg_core_rules_on_symbolic_dims() {
        use tg_core::shape::pad::{PadMode, pad};
        use tg_core::shape::{broadcast, matmul, movement, window};
        use tg_core::{Checker, Fact, RuleError};
        let (b, cc) = (Poly::param("B"), Poly::param("C"));
        let k = Poly::constant;

        let mut ck = Checker::new();
        let flat = [b.clone(), k(784)];
        let out = movement::reshape(&mut ck, &flat, &[Some(b.clone()), Some(k(28)), None]);
        assert_eq!(out, Ok(vec![b.clone(), k(28), k(28)]));
        assert!(ck.take_deferred().is_empty());

        // equal for one instantiation only: kept for a post-monomorphization assert
        movement::reshape(&mut ck, &flat, &[Some(cc.clone()), Some(k(784))]).unwrap();
        let d = ck.take_deferred();
        assert_eq!(d.len(), 1);
        assert!(matches!(d[0].fact, Fact::Equal(..)));
        assert_eq!(
            d[0].error.to_string(),
            "`reshape`: cannot reshape [B, 784] (784*B elements) to [C, 784] (784*C elements)"
        );
        // never equal: the rule's error
        assert!(matches!(
            movement::reshape(&mut ck, &[b.clone(), k(3)], &[Some(b.clone()), Some(k(4))]),
            Err(RuleError::NumelMismatch { .. })
        ));

        // broadcasting B against 3 holds when B is 3; B + 1 against B never
        broadcast::broadcast(&mut ck, "add", std::slice::from_ref(&b), &[k(3)]).unwrap();
        assert_eq!(ck.take_deferred().len(), 1);
        let e = broadcast::broadcast(&mut ck, "add", &[b.add(&k(1))], std::slice::from_ref(&b))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "`add`: shapes [B + 1] and [B] do not broadcast: axis -1 is B + 1 in one and B in the other"
        );

        // a cut of 2 from B fits when B >= 2
        let out = pad(
            &mut ck,
            "pad",
            std::slice::from_ref(&b),
            &[(-2, 1)],
            PadMode::Constant,
        )
        .unwrap();
        assert_eq!(out, vec![b.add(&k(-1))]);
        assert!(matches!(ck.take_deferred()[0].fact, Fact::AtMost(..)));

        let e = matmul::matmul(&mut ck, "matmul", &flat, &[k(785), k(10)]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "`matmul`: inner dimensions differ: [B, 784] @ [785, 10]: 784 (last axis of the left) vs 785 (second-to-last axis of the right)"
        );

        // a window over a symbolic axis: (B + 2 - 3) / 1 + 1
        let w = window::Window::new::<Poly>("conv2d", vec![3], vec![1], vec![1]).unwrap();
        let out = window::pool(
            &mut ck,
            "max_pool2d",
            &[k(1), b.clone()],
            &w,
            &[(1, 1)],
            false,
        );
        assert_eq!(out, Ok(vec![k(1), b.clone()]));
        assert!(matches!(ck.take_deferred()[0].fact, Fact::AtMost(..)));

        // chunk needs a known multiple
        assert!(tg_core::shape::join::chunk(&[b.scale(4)], 4, 0).is_ok());
        assert!(tg_core::shape::join::chunk(std::slice::from_ref(&b), 4, 0).is_err());
    }

    #[test]
    fn checked_arithmetic_does_not_overflow() {
        let big = Poly::constant(i64::MAX);
        assert_eq!(big.checked_add(&Poly::constant(1)), None);
        assert_eq!(big.checked_mul(&Poly::constant(2)), None);
        assert_eq!(
            tg_core::Dim::offset(&Poly::param("B"), -3).map(|p| p.to_string()),
            Some("B - 3".to_string())
        );
        assert_eq!(tg_core::Dim::offset(&Poly::constant(2), -3), None);
    }
}
