//! einsum (Einstein summation over a formula) and sequential (a chain of layers).
//!
//! einsum is composed as tinygrad composes it: a letter repeated within one operand takes
//! that operand's diagonal; every operand is permuted into alphabetical order of its letters
//! and reshaped onto the whole alphabet (size 1 where it lacks a letter); the broadcast
//! product is summed over the letters not in the output, and permuted into the output's
//! order. The product fuses into the sum, so no tensor over the whole alphabet is stored.

use super::DynTensor;
use tg_runtime::{BinaryOp, DType, Error, Result};

/// A formula or an operand count einsum cannot work with.
fn err(message: String) -> Error {
    Error::Argument {
        op: "einsum",
        message,
    }
}

/// Operand sizes the formula's letters cannot agree on.
fn shape_err(message: String) -> Error {
    Error::Shape {
        op: "einsum",
        message,
    }
}

/// A formula with any ellipsis replaced by letters that it does not use (right-aligned
/// across operands, as numpy broadcasts them).
struct Parsed {
    /// Each operand's subscripts.
    inputs: Vec<Vec<char>>,
    output: Vec<char>,
    /// The letters that stand for ellipsis axes.
    ellipsis: Vec<char>,
}

fn parse(formula: &str, operands: &[DynTensor]) -> Result<Parsed> {
    let f: String = formula.chars().filter(|c| !c.is_whitespace()).collect();
    let (lhs, rhs) = match f.split_once("->") {
        Some((l, r)) => (l, Some(r)),
        None => (f.as_str(), None),
    };
    let inputs: Vec<&str> = lhs.split(',').collect();
    if inputs.len() != operands.len() {
        return Err(err(format!(
            "formula {formula:?} names {} operands, {} given",
            inputs.len(),
            operands.len()
        )));
    }
    let letters_only = |s: &str| {
        s.matches("...").count() <= 1
            && s.replace("...", "")
                .chars()
                .all(|c| c.is_ascii_alphabetic())
    };
    if let Some(s) = inputs.iter().copied().chain(rhs).find(|s| !letters_only(s)) {
        return Err(err(format!(
            "subscripts {s:?} of {formula:?} are not letters (a-z, A-Z) with at most one '...'"
        )));
    }
    let unused: Vec<char> = ('a'..='z')
        .chain('A'..='Z')
        .filter(|&c| !f.contains(c))
        .collect();
    // how many axes each operand's ellipsis covers
    let mut ell = Vec::with_capacity(inputs.len());
    for (s, x) in inputs.iter().zip(operands) {
        let named = s.replace("...", "").len();
        let n = if s.contains("...") {
            x.ndim().checked_sub(named)
        } else {
            Some(0)
        };
        match n {
            Some(n) if s.contains("...") || named == x.ndim() => ell.push(n),
            _ => {
                return Err(err(format!(
                    "subscripts {s:?} do not fit operand of shape {:?} (rank {})",
                    x.shape(),
                    x.ndim()
                )));
            }
        }
    }
    let max_ell = ell.iter().copied().max().unwrap_or(0);
    if max_ell > unused.len() {
        return Err(err(format!(
            "ellipsis covers {max_ell} axes, more than the unused letters"
        )));
    }
    let ell_letters = &unused[..max_ell];
    let expand = |s: &str, n: usize| -> Vec<char> {
        s.replace(
            "...",
            &ell_letters[max_ell - n..].iter().collect::<String>(),
        )
        .chars()
        .collect()
    };
    let subs: Vec<Vec<char>> = inputs
        .iter()
        .zip(&ell)
        .map(|(s, &n)| expand(s, n))
        .collect();
    let out: Vec<char> = match rhs {
        Some(r) => expand(r, max_ell),
        None => {
            // implicit output: ellipsis axes, then the letters used once, in alphabetical order
            let mut once: Vec<char> = lhs
                .chars()
                .filter(|&c| c.is_ascii_alphabetic() && lhs.matches(c).count() == 1)
                .collect();
            once.sort_unstable();
            ell_letters.iter().copied().chain(once).collect()
        }
    };
    Ok(Parsed {
        inputs: subs,
        output: out,
        ellipsis: ell_letters.to_vec(),
    })
}

impl DynTensor {
    /// Einstein summation (numpy's and torch's `einsum`): `"ij,jk->ik"` is a matrix product,
    /// `"ii->"` a trace, `"ii->i"` a diagonal, `"i,j->ij"` an outer product, `"...ij->...ji"`
    /// a batched transpose. Without `->` the output is the ellipsis axes then the letters that
    /// occur once, in alphabetical order. A letter repeated within one operand takes its
    /// diagonal. Ellipsis axes broadcast like numpy's; named axes must agree.
    ///
    /// The products are formed in the operands' least upper dtype; the sum accumulates in
    /// `acc` if given (the result's dtype), else as `sum` does, so integer results are i32 or
    /// wider (tinygrad's rule; numpy keeps i8 and wraps).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = DynTensor::from_slice(&[2, 2], &[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    /// let b = DynTensor::from_slice(&[2, 2], &[5.0f32, 6.0, 7.0, 8.0]).unwrap();
    /// let c = DynTensor::einsum("ij,jk->ik", &[a.clone(), b], None).unwrap();
    /// assert_eq!(c.to_vec::<f32>().unwrap(), vec![19.0, 22.0, 43.0, 50.0]);
    /// assert_eq!(DynTensor::einsum("ii", &[a], None).unwrap().to_vec::<f32>().unwrap(), vec![5.0]);
    /// ```
    pub fn einsum(formula: &str, operands: &[DynTensor], acc: Option<DType>) -> Result<DynTensor> {
        if operands.is_empty() {
            return Err(err("needs at least one operand".into()));
        }
        let Parsed {
            inputs: subs,
            output: out,
            ellipsis: ell,
        } = parse(formula, operands)?;
        // diagonals of letters repeated within an operand
        let mut xs = Vec::with_capacity(operands.len());
        let mut letters = Vec::with_capacity(operands.len());
        for (s, x) in subs.into_iter().zip(operands) {
            let (mut s, mut x) = (s, x.clone());
            while let Some((j, k)) = repeated(&s) {
                let c = s[j];
                if x.shape()[j] != x.shape()[k] {
                    return Err(shape_err(format!(
                        "letter {c:?} names axes of sizes {} and {} in one operand of shape {:?}",
                        x.shape()[j],
                        x.shape()[k],
                        x.shape()
                    )));
                }
                x = x.diagonal(0, j as isize, k as isize)?;
                s.remove(k);
                s.remove(j);
                s.push(c);
            }
            xs.push(x);
            letters.push(s);
        }
        // sizes per letter (ellipsis letters broadcast from 1)
        let mut alpha: Vec<char> = letters.iter().flatten().copied().collect();
        alpha.sort_unstable();
        alpha.dedup();
        let mut size = vec![1usize; alpha.len()];
        let mut seen = vec![false; alpha.len()];
        for (s, x) in letters.iter().zip(&xs) {
            for (&c, &d) in s.iter().zip(x.shape()) {
                let i = alpha.binary_search(&c).map_err(|_| {
                    Error::internal(
                        "einsum",
                        format!("letter {c:?} is not in the alphabet {alpha:?}"),
                    )
                })?;
                let broadcast = ell.contains(&c) && (d == 1 || size[i] == 1);
                if seen[i] && size[i] != d && !broadcast {
                    return Err(shape_err(format!(
                        "letter {c:?} has size {} in one operand and {d} in another",
                        size[i]
                    )));
                }
                if !seen[i] || size[i] == 1 {
                    size[i] = d;
                }
                seen[i] = true;
            }
        }
        for (i, c) in out.iter().enumerate() {
            if !alpha.contains(c) {
                return Err(err(format!("output letter {c:?} is in no operand")));
            }
            if out[..i].contains(c) {
                return Err(err(format!("output letter {c:?} appears twice")));
            }
        }
        // every operand on the whole alphabet, broadcast
        let dt = xs
            .iter()
            .fold(xs[0].dtype(), |d, x| d.least_upper(x.dtype()));
        let mut product: Option<DynTensor> = None;
        for (s, x) in letters.iter().zip(&xs) {
            let mut order: Vec<usize> = (0..s.len()).collect();
            order.sort_by_key(|&i| s[i]);
            let x = x.permute(&order.iter().map(|&i| i as isize).collect::<Vec<_>>())?;
            // after the permute, letter c sits after the letters of s that sort before it
            let dims: Vec<isize> = alpha
                .iter()
                .map(|c| {
                    if s.contains(c) {
                        x.shape()[s.iter().filter(|&l| l < c).count()] as isize
                    } else {
                        1
                    }
                })
                .collect();
            let x = x.cast(dt).reshape(&dims)?.broadcast_to(&size)?;
            product = Some(match product {
                None => x,
                Some(p) => {
                    let op = if dt.is_bool() {
                        BinaryOp::And
                    } else {
                        BinaryOp::Mul
                    };
                    DynTensor::wrap(p.lazy.binary(op, &x.lazy)?)
                }
            });
        }
        let product = product.ok_or_else(|| err("needs at least one operand".into()))?;
        let summed: Vec<isize> = (0..alpha.len())
            .filter(|&i| !out.contains(&alpha[i]))
            .map(|i| i as isize)
            .collect();
        let total = match acc {
            Some(d) => product.sum_as(Some(&summed), false, d)?,
            None => product.sum(Some(&summed), false)?,
        };
        // the kept letters are in alphabetical order; put them in the output's
        let kept: Vec<char> = alpha.iter().copied().filter(|c| out.contains(c)).collect();
        let perm: Vec<isize> = out
            .iter()
            .map(|c| kept.iter().position(|k| k == c).unwrap_or(0) as isize)
            .collect();
        if perm.is_empty() {
            return Ok(total);
        }
        total.permute(&perm)
    }

    /// Applies `layers` in order, each to the previous one's result (tinygrad's
    /// `sequential`); the first error stops the chain.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[3], &[1i32, 2, 3]).unwrap();
    /// let double = |x: &DynTensor| x.mul(2);
    /// let inc = |x: &DynTensor| x.add(1);
    /// let y = t.sequential(&[&double, &inc]).unwrap();
    /// assert_eq!(y.to_vec::<i32>().unwrap(), vec![3, 5, 7]);
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn sequential(
        &self,
        layers: &[&dyn Fn(&DynTensor) -> Result<DynTensor>],
    ) -> Result<DynTensor> {
        layers.iter().try_fold(self.clone(), |x, f| f(&x))
    }
}

/// The first pair of positions holding the same letter.
fn repeated(s: &[char]) -> Option<(usize, usize)> {
    (0..s.len()).find_map(|j| (j + 1..s.len()).find(|&k| s[k] == s[j]).map(|k| (j, k)))
}
