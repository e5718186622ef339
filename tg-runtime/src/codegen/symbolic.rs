//! Integer index expressions with range-aware simplification.
//!
//! Movement ops never copy: each one rewrites the index expression with which a kernel reads
//! its source. An expression is kept as a sum of atoms (variables, floor divisions, floor
//! moduli) times constants. Knowing every variable's range lets the simplifier undo the
//! divisions and moduli that reshapes introduce, so a permuted, padded, flipped, shrunk and
//! reshaped read ends as plain affine arithmetic wherever that is exact.

use std::cmp::Ordering;
use std::fmt::Write;

/// An index variable, ranging over `0..=max`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var {
    /// Identifies the variable (see `Program::vars`).
    pub id: u32,
    /// The largest value it takes.
    pub max: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
/// A term of an index expression, before its coefficient.
pub enum Atom {
    /// An index variable.
    Var(Var),
    /// Floor division by a positive constant.
    Div(Box<Expr>, i64),
    /// Floor modulo by a positive constant (always in `0..d`).
    Mod(Box<Expr>, i64),
}

/// `sum(coeff * atom) + constant`, terms sorted by atom, no zero coefficients.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Expr {
    terms: Vec<(Atom, i64)>,
    constant: i64,
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Atom {
    fn bounds(&self) -> (i64, i64) {
        match self {
            Atom::Var(v) => (0, v.max),
            Atom::Div(e, d) => {
                let (lo, hi) = e.bounds();
                (lo.div_euclid(*d), hi.div_euclid(*d))
            }
            Atom::Mod(e, d) => {
                let (lo, hi) = e.bounds();
                if lo >= 0 && hi < *d {
                    (lo, hi)
                } else {
                    (0, d - 1)
                }
            }
        }
    }
}

impl Expr {
    /// The constant `c`.
    pub fn constant(c: i64) -> Expr {
        Expr {
            terms: Vec::new(),
            constant: c,
        }
    }

    /// The variable `id` over `0..=max`.
    pub fn var(id: u32, max: i64) -> Expr {
        Expr::atom(Atom::Var(Var { id, max }))
    }

    fn atom(a: Atom) -> Expr {
        Expr {
            terms: vec![(a, 1)],
            constant: 0,
        }
    }

    /// The value, when the expression is a constant.
    pub fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }

    /// The non-constant terms with their coefficients.
    pub fn terms(&self) -> &[(Atom, i64)] {
        &self.terms
    }

    /// The constant term.
    pub fn constant_part(&self) -> i64 {
        self.constant
    }

    /// Smallest and largest value over all variable assignments.
    pub fn bounds(&self) -> (i64, i64) {
        let mut lo = self.constant;
        let mut hi = self.constant;
        for (a, c) in &self.terms {
            let (alo, ahi) = a.bounds();
            if *c >= 0 {
                lo += c * alo;
                hi += c * ahi;
            } else {
                lo += c * ahi;
                hi += c * alo;
            }
        }
        (lo, hi)
    }

    /// Builds a sum from unsorted terms, merging equal atoms and combining
    /// `k*(x mod b) + k*b*(x div b)` back into `k*x`.
    fn from_terms(mut terms: Vec<(Atom, i64)>, constant: i64) -> Expr {
        terms.sort_by(|a, b| a.0.cmp(&b.0));
        let mut merged: Vec<(Atom, i64)> = Vec::with_capacity(terms.len());
        for (a, c) in terms {
            match merged.last_mut() {
                Some((la, lc)) if *la == a => *lc += c,
                _ => merged.push((a, c)),
            }
        }
        merged.retain(|(_, c)| *c != 0);
        let mut e = Expr {
            terms: merged,
            constant,
        };
        while let Some(combined) = e.combine_div_mod() {
            e = combined;
        }
        e
    }

    /// One `k*(x mod b) + k*b*(x div b) -> k*x` rewrite, if any applies.
    fn combine_div_mod(&self) -> Option<Expr> {
        for (i, (a, k)) in self.terms.iter().enumerate() {
            let Atom::Mod(x, b) = a else { continue };
            let div = x.div(*b);
            let [(div_atom, 1)] = div.terms.as_slice() else {
                continue;
            };
            if div.constant != 0 {
                continue;
            }
            if let Some(j) = self
                .terms
                .iter()
                .position(|(t, c)| t == div_atom && *c == k * b)
            {
                let mut rest: Vec<(Atom, i64)> = self
                    .terms
                    .iter()
                    .enumerate()
                    .filter(|&(t, _)| t != i && t != j)
                    .map(|(_, t)| t.clone())
                    .collect();
                let scaled = x.scale(*k);
                rest.extend(scaled.terms);
                return Some(Expr::from_terms(rest, self.constant + scaled.constant));
            }
        }
        None
    }

    /// `self + other`, simplified.
    pub fn add(&self, other: &Expr) -> Expr {
        let mut terms = self.terms.clone();
        terms.extend(other.terms.iter().cloned());
        Expr::from_terms(terms, self.constant + other.constant)
    }

    /// `self + c`.
    pub fn add_const(&self, c: i64) -> Expr {
        Expr {
            terms: self.terms.clone(),
            constant: self.constant + c,
        }
    }

    /// `k * self`.
    pub fn scale(&self, k: i64) -> Expr {
        if k == 0 {
            return Expr::constant(0);
        }
        Expr {
            terms: self.terms.iter().map(|(a, c)| (a.clone(), c * k)).collect(),
            constant: self.constant * k,
        }
    }

    /// `self - other`, simplified.
    pub fn sub(&self, other: &Expr) -> Expr {
        self.add(&other.scale(-1))
    }

    /// Floor division by `d > 0`.
    pub fn div(&self, d: i64) -> Expr {
        debug_assert!(d > 0);
        if d == 1 {
            return self.clone();
        }
        let (lo, hi) = self.bounds();
        if lo.div_euclid(d) == hi.div_euclid(d) {
            return Expr::constant(lo.div_euclid(d));
        }
        // pull out whole multiples of d: (d*Q + R) / d = Q + R / d
        let mut quot = Vec::new();
        let mut rest = Vec::new();
        for (a, c) in &self.terms {
            let (q, r) = (c.div_euclid(d), c.rem_euclid(d));
            if q != 0 {
                quot.push((a.clone(), q));
            }
            if r != 0 {
                rest.push((a.clone(), r));
            }
        }
        let (qc, rc) = (self.constant.div_euclid(d), self.constant.rem_euclid(d));
        let q = Expr::from_terms(quot, qc);
        let r = Expr::from_terms(rest, rc);
        if q.terms.is_empty() && q.constant == 0 {
            return r.div_rest(d);
        }
        q.add(&r.div(d))
    }

    /// Division of a remainder whose coefficients are all in `1..d`.
    fn div_rest(&self, d: i64) -> Expr {
        let (lo, hi) = self.bounds();
        if lo.div_euclid(d) == hi.div_euclid(d) {
            return Expr::constant(lo.div_euclid(d));
        }
        // common factor: (g*X + r) / (g*d') = (X + r div g) / d' when 0 <= r mod g < g
        let g = self.terms.iter().fold(d, |g, (_, c)| gcd(g, *c));
        if g > 1 {
            let inner = Expr::from_terms(
                self.terms.iter().map(|(a, c)| (a.clone(), c / g)).collect(),
                self.constant.div_euclid(g),
            );
            return inner.div(d / g);
        }
        // small terms that never carry: (g*X + s) / (g*d') = X / d' when 0 <= s < g (a row
        // kernel's row index, `(8q + r) / 512` with `r < 8` the step in the row, is `q / 64`)
        if let Some((big, g)) = self.carry_free(d) {
            return big.div(d / g);
        }
        // nested: (x div a + c) div d = (x + c*a) div (a*d)
        if let [(Atom::Div(x, a), 1)] = self.terms.as_slice() {
            return x.add_const(self.constant * a).div(a * d);
        }
        Expr::atom(Atom::Div(Box::new(self.clone()), d))
    }

    /// `self` as `g*X + s` with `g > 1` dividing `d` and `0 <= s < g` over its range (`s`
    /// the terms of the smallest coefficients and the constant): `X` and `g`, the largest
    /// such `g`.
    fn carry_free(&self, d: i64) -> Option<(Expr, i64)> {
        let mut terms = self.terms.clone();
        terms.sort_by_key(|(_, c)| std::cmp::Reverse(c.abs()));
        (1..terms.len()).find_map(|k| {
            let g = terms[..k].iter().fold(d, |g, (_, c)| gcd(g, *c));
            let small = Expr::from_terms(terms[k..].to_vec(), self.constant);
            let (lo, hi) = small.bounds();
            (g > 1 && lo >= 0 && hi < g).then(|| {
                let big = terms[..k].iter().map(|(a, c)| (a.clone(), c / g)).collect();
                (Expr::from_terms(big, 0), g)
            })
        })
    }

    /// Floor modulo by `d > 0`.
    pub fn modulo(&self, d: i64) -> Expr {
        debug_assert!(d > 0);
        if d == 1 {
            return Expr::constant(0);
        }
        let terms: Vec<(Atom, i64)> = self
            .terms
            .iter()
            .map(|(a, c)| (a.clone(), c.rem_euclid(d)))
            .filter(|(_, c)| *c != 0)
            .collect();
        let r = Expr::from_terms(terms, self.constant.rem_euclid(d));
        let (lo, hi) = r.bounds();
        if lo.div_euclid(d) == hi.div_euclid(d) {
            return r.add_const(-lo.div_euclid(d) * d);
        }
        // common factor: (g*X + r) mod (g*d') = g*((X + r div g) mod d') + r mod g
        let g = r.terms.iter().fold(d, |g, (_, c)| gcd(g, *c));
        if g > 1 {
            let inner = Expr::from_terms(
                r.terms.iter().map(|(a, c)| (a.clone(), c / g)).collect(),
                r.constant.div_euclid(g),
            );
            return inner
                .modulo(d / g)
                .scale(g)
                .add_const(r.constant.rem_euclid(g));
        }
        // small terms that never carry: (g*X + s) mod (g*d') = g*(X mod d') + s, 0 <= s < g
        if let Some((big, g)) = r.carry_free(d) {
            let small = r.sub(&big.scale(g));
            return big.modulo(d / g).scale(g).add(&small);
        }
        // nested: (x mod a) mod d = x mod d when d divides a
        if let [(Atom::Mod(x, a), 1)] = r.terms.as_slice()
            && r.constant == 0
            && a % d == 0
        {
            return x.modulo(d);
        }
        Expr::atom(Atom::Mod(Box::new(r), d))
    }

    /// Replaces variable `id` by `with`.
    pub fn substitute(&self, id: u32, with: &Expr) -> Expr {
        let mut out = Expr::constant(self.constant);
        for (a, c) in &self.terms {
            let sub = match a {
                Atom::Var(v) if v.id == id => with.clone(),
                Atom::Var(_) => Expr::atom(a.clone()),
                Atom::Div(e, d) => e.substitute(id, with).div(*d),
                Atom::Mod(e, d) => e.substitute(id, with).modulo(*d),
            };
            out = out.add(&sub.scale(*c));
        }
        out
    }

    /// Does the expression mention variable `id`?
    pub fn uses_var(&self, id: u32) -> bool {
        self.uses_any(&|v| v == id)
    }

    /// Whether a variable for which `pred` holds appears.
    pub fn uses_any(&self, pred: &dyn Fn(u32) -> bool) -> bool {
        self.terms.iter().any(|(a, _)| match a {
            Atom::Var(v) => pred(v.id),
            Atom::Div(e, _) | Atom::Mod(e, _) => e.uses_any(pred),
        })
    }

    /// The largest absolute value any part of the rendered expression can take: every partial
    /// sum (bounded by the sum of the terms' magnitudes, whatever the order) and every
    /// division's or modulo's operand. Kernels compute in 32-bit `int`, so this must fit.
    pub fn magnitude(&self) -> i128 {
        let (sum, inner) = self.magnitudes();
        sum.max(inner)
    }

    /// [`Expr::magnitude`] of an index of `scale`-element vectors taken as an element index:
    /// its value (plus one, the end of the last vector) times `scale`, and its divisions' and
    /// modulos' operands as they are, since those are computed unscaled.
    pub fn scaled_magnitude(&self, scale: i128) -> i128 {
        let (sum, inner) = self.magnitudes();
        ((sum + 1) * scale).max(inner)
    }

    /// The bound on every partial sum of the terms, and the largest magnitude of a division's
    /// or modulo's operand.
    fn magnitudes(&self) -> (i128, i128) {
        let mut sum = i128::from(self.constant).abs();
        let mut inner = 0i128;
        for (a, c) in &self.terms {
            let (lo, hi) = a.bounds();
            sum += i128::from(*c).abs() * i128::from(lo).abs().max(i128::from(hi).abs());
            if let Atom::Div(e, _) | Atom::Mod(e, _) = a {
                inner = inner.max(e.magnitude());
            }
        }
        (sum, inner)
    }

    /// Renders as GLSL `int` arithmetic; `name` spells a variable.
    pub fn render(&self, name: &dyn Fn(u32) -> String) -> String {
        let mut s = String::new();
        for (a, c) in &self.terms {
            let atom = match a {
                Atom::Var(v) => name(v.id),
                Atom::Div(e, d) => {
                    let inner = e.render(name);
                    if e.bounds().0 >= 0 {
                        if d.count_ones() == 1 {
                            format!("({inner} >> {})", d.trailing_zeros())
                        } else {
                            format!("({inner} / {d})")
                        }
                    } else {
                        format!("tg_fdiv({inner}, {d})")
                    }
                }
                Atom::Mod(e, d) => {
                    let inner = e.render(name);
                    if e.bounds().0 >= 0 {
                        if d.count_ones() == 1 {
                            format!("({inner} & {})", d - 1)
                        } else {
                            format!("({inner} % {d})")
                        }
                    } else {
                        format!("tg_fmod({inner}, {d})")
                    }
                }
            };
            let sign = if *c < 0 { "-" } else { "+" };
            if s.is_empty() {
                if *c < 0 {
                    s.push('-');
                }
            } else {
                write!(s, " {sign} ").ok();
            }
            if c.abs() == 1 {
                s.push_str(&atom);
            } else {
                write!(s, "{atom} * {}", c.abs()).ok();
            }
        }
        match self.constant.cmp(&0) {
            Ordering::Equal if s.is_empty() => s.push('0'),
            Ordering::Equal => {}
            Ordering::Greater if s.is_empty() => write!(s, "{}", self.constant).unwrap_or(()),
            Ordering::Less if s.is_empty() => write!(s, "({})", self.constant).unwrap_or(()),
            Ordering::Greater => write!(s, " + {}", self.constant).unwrap_or(()),
            Ordering::Less => write!(s, " - {}", -self.constant).unwrap_or(()),
        }
        if self.terms.len() + (self.constant != 0) as usize > 1 {
            format!("({s})")
        } else {
            s
        }
    }
}

/// A conjunction of `expr >= 0` facts; `None` inside means statically false.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Cond {
    facts: Option<Vec<Expr>>,
}

impl Cond {
    /// The condition that always holds.
    pub fn always() -> Cond {
        Cond {
            facts: Some(Vec::new()),
        }
    }

    /// The condition that never holds.
    pub fn never() -> Cond {
        Cond { facts: None }
    }

    /// Whether it is known to always hold.
    pub fn is_always(&self) -> bool {
        self.facts.as_ref().is_some_and(|f| f.is_empty())
    }

    /// Whether it is known never to hold.
    pub fn is_never(&self) -> bool {
        self.facts.is_none()
    }

    /// Adds the fact `e >= 0`.
    pub fn and_nonneg(&self, e: Expr) -> Cond {
        let Some(facts) = &self.facts else {
            return self.clone();
        };
        let (lo, hi) = e.bounds();
        if lo >= 0 {
            return self.clone();
        }
        if hi < 0 {
            return Cond::never();
        }
        let mut facts = facts.clone();
        if !facts.contains(&e) {
            facts.push(e);
            facts.sort();
        }
        Cond { facts: Some(facts) }
    }

    /// Adds `lo <= e < hi`.
    pub fn and_range(&self, e: &Expr, lo: i64, hi: i64) -> Cond {
        self.and_nonneg(e.add_const(-lo))
            .and_nonneg(e.scale(-1).add_const(hi - 1))
    }

    /// Both conditions.
    pub fn and(&self, other: &Cond) -> Cond {
        match &other.facts {
            None => Cond::never(),
            Some(f) => f.iter().fold(self.clone(), |c, e| c.and_nonneg(e.clone())),
        }
    }

    /// Replaces variable `id` by `with` in every fact.
    pub fn substitute(&self, id: u32, with: &Expr) -> Cond {
        match &self.facts {
            None => Cond::never(),
            Some(f) => f
                .iter()
                .fold(Cond::always(), |c, e| c.and_nonneg(e.substitute(id, with))),
        }
    }

    /// Does any fact mention variable `id`?
    pub fn uses_var(&self, id: u32) -> bool {
        self.uses_any(&|v| v == id)
    }

    /// Whether a variable for which `pred` holds appears.
    pub fn uses_any(&self, pred: &dyn Fn(u32) -> bool) -> bool {
        self.facts
            .as_ref()
            .is_some_and(|f| f.iter().any(|e| e.uses_any(pred)))
    }

    /// The largest [`Expr::magnitude`] of its facts.
    pub fn magnitude(&self) -> i128 {
        self.facts
            .iter()
            .flatten()
            .map(Expr::magnitude)
            .max()
            .unwrap_or(0)
    }

    /// GLSL for the condition, variables named by `name`.
    pub fn render(&self, name: &dyn Fn(u32) -> String) -> String {
        match &self.facts {
            None => "false".into(),
            Some(f) if f.is_empty() => "true".into(),
            Some(f) => f
                .iter()
                .map(|e| format!("{} >= 0", e.render(name)))
                .collect::<Vec<_>>()
                .join(" && "),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(id: u32) -> String {
        format!("v{id}")
    }

    #[test]
    fn reshape_split_and_merge_cancel() {
        // (i0, i1, i2) in (2, 3, 4) flattened, then viewed as (6, 4)
        let (i0, i1, i2) = (Expr::var(0, 1), Expr::var(1, 2), Expr::var(2, 3));
        let flat = i0.scale(12).add(&i1.scale(4)).add(&i2);
        assert_eq!(flat.div(4).modulo(6), i0.scale(3).add(&i1));
        assert_eq!(flat.modulo(4), i2);
    }

    #[test]
    fn decomposed_flat_index_recombines() {
        // g over 24 elements decomposed into (2, 3, 4) then re-linearized is g
        let g = Expr::var(0, 23);
        let d0 = g.div(12);
        let d1 = g.div(4).modulo(3);
        let d2 = g.modulo(4);
        let lin = d0.scale(12).add(&d1.scale(4)).add(&d2);
        assert_eq!(lin, g);
    }

    #[test]
    fn lanes_divide_through() {
        // g = 4q + lane with lane in 0..4: g / 8 = q / 2 and g % 8 = 4*(q % 2) + lane
        let q = Expr::var(0, 99);
        for lane in 0..4 {
            let g = q.scale(4).add_const(lane);
            assert_eq!(g.div(8), q.div(2));
            assert_eq!(g.modulo(8), q.modulo(2).scale(4).add_const(lane));
        }
    }

    #[test]
    fn small_terms_that_never_carry_drop_out() {
        // a row kernel's step r < 8 of 8 elements in row q of 64 rows of 64, over (16, 64, 64)
        let (q, r) = (Expr::var(0, 1023), Expr::var(1, 7));
        let first = q.scale(8).add(&r);
        assert_eq!(first.div(512), q.div(64));
        assert_eq!(first.modulo(512), q.modulo(64).scale(8).add(&r));
        // one more and it carries
        let wide = q.scale(8).add(&Expr::var(1, 8));
        assert_ne!(wide.div(512), q.div(64));
    }

    #[test]
    fn conditions_fold_statically() {
        let i = Expr::var(0, 9);
        assert!(Cond::always().and_range(&i, 0, 10).is_always());
        assert!(Cond::always().and_range(&i.add_const(20), 0, 10).is_never());
        assert!(
            !Cond::always()
                .and_range(&i.add_const(-1), 0, 10)
                .is_always()
        );
    }

    #[test]
    fn renders_negative_safe_division() {
        let i = Expr::var(0, 9).add_const(-3);
        assert_eq!(i.div(4).render(&name), "(((v0 + 1) >> 2) - 1)");
        let j = Expr::var(0, 9).scale(3).add(&Expr::var(1, 5).scale(-2));
        // floor division pulls out whole multiples until the rest is non-negative
        assert_eq!(j.div(4).render(&name), "(-v1 + ((v0 * 3 + v1 * 2) >> 2))");
        assert_eq!(Expr::var(0, 99).div(4).render(&name), "(v0 >> 2)");
    }

    #[test]
    fn a_vector_index_scales_its_value_not_its_operands() {
        // (4 q / 7) % 64 + p with q < 100, p < 2: the vector index is at most 56 + 1, so
        // 8-element vectors end by element 8 * 58; the division's operand 4 q (up to 396) is
        // computed as it is
        let q = Expr::var(0, 99);
        let v = q.scale(4).div(7).modulo(64).add(&Expr::var(1, 1));
        assert_eq!(v.magnitude(), 396);
        assert_eq!(v.scaled_magnitude(8), 8 * 58);
        assert_eq!(v.scaled_magnitude(1), 396);
        assert_eq!(Expr::var(0, 9).scaled_magnitude(4), 40);
    }
}
