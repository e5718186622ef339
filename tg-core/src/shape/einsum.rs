//! einsum's formula (`"ij,jk->ik"`, numpy's rules): each operand's subscripts, the output's
//! (explicit after `->`, or implicit: the ellipsis axes, then the letters used once,
//! alphabetically), `...` standing for leading axes that broadcast; a letter repeated within
//! one operand takes that operand's diagonal. The sizes bound to one letter must agree.

use crate::check::Checker;
use crate::dim::Dim;
use crate::error::{RuleError, argument_error, shape_error};

use super::show;

/// A formula read against its operands' ranks, every `...` replaced by letters the formula
/// does not use (right-aligned across operands).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Formula {
    /// Each operand's subscripts, one letter per axis.
    pub inputs: Vec<Vec<char>>,
    /// The output's subscripts.
    pub output: Vec<char>,
    /// The letters that stand for ellipsis axes (they broadcast from 1, as numpy's).
    pub ellipsis: Vec<char>,
}

/// An einsum error, and the operand it is about (`None`: the formula), so that the macros
/// can point at it.
#[derive(Clone, Debug, PartialEq)]
pub struct EinsumError<D> {
    /// The operand at fault, by position.
    pub operand: Option<usize>,
    /// What is wrong.
    pub error: RuleError<D>,
}

const OP: &str = "einsum";

fn at_formula<D>(error: RuleError<D>) -> EinsumError<D> {
    EinsumError {
        operand: None,
        error,
    }
}

/// Reads `formula` against the operands' shapes (only their ranks matter here).
pub fn parse<D: Dim>(formula: &str, shapes: &[&[D]]) -> Result<Formula, EinsumError<D>> {
    let all = || {
        shapes
            .iter()
            .map(|s| show(s))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let f: String = formula.chars().filter(|c| !c.is_whitespace()).collect();
    let (lhs, rhs) = match f.split_once("->") {
        Some((l, r)) => (l, Some(r)),
        None => (f.as_str(), None),
    };
    let inputs: Vec<&str> = lhs.split(',').collect();
    if shapes.is_empty() || inputs.len() != shapes.len() {
        return Err(at_formula(argument_error(
            OP,
            format!(
                "the formula {formula:?} names {} operand(s), {} given (shapes {})",
                inputs.len(),
                shapes.len(),
                all()
            ),
        )));
    }
    let letters_only = |s: &str| {
        s.matches("...").count() <= 1
            && s.replace("...", "")
                .chars()
                .all(|c| c.is_ascii_alphabetic())
    };
    if let Some(s) = inputs.iter().copied().chain(rhs).find(|s| !letters_only(s)) {
        return Err(at_formula(argument_error(
            OP,
            format!(
                "subscripts {s:?} of {formula:?} are not letters (a-z, A-Z) with at most one `...`"
            ),
        )));
    }
    let unused: Vec<char> = ('a'..='z')
        .chain('A'..='Z')
        .filter(|&c| !f.contains(c))
        .collect();
    // how many axes each operand's ellipsis covers
    let mut ell = Vec::with_capacity(inputs.len());
    for (k, (s, shape)) in inputs.iter().zip(shapes).enumerate() {
        let named = s.replace("...", "").len();
        let n = if s.contains("...") {
            shape.len().checked_sub(named)
        } else {
            Some(0)
        };
        match n {
            Some(n) if s.contains("...") || named == shape.len() => ell.push(n),
            _ => {
                return Err(EinsumError {
                    operand: Some(k),
                    error: argument_error(
                        OP,
                        format!(
                            "subscripts {s:?} of {formula:?} do not fit operand {k} of shape {} (rank {})",
                            show(shape),
                            shape.len()
                        ),
                    ),
                });
            }
        }
    }
    let max_ell = ell.iter().copied().max().unwrap_or(0);
    if max_ell > unused.len() {
        return Err(at_formula(argument_error(
            OP,
            format!("`...` covers {max_ell} axes, more than the letters {formula:?} leaves unused"),
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
    let output = match rhs {
        Some(r) => expand(r, max_ell),
        None => {
            let mut once: Vec<char> = lhs
                .chars()
                .filter(|&c| c.is_ascii_alphabetic() && lhs.matches(c).count() == 1)
                .collect();
            once.sort_unstable();
            ell_letters.iter().copied().chain(once).collect()
        }
    };
    Ok(Formula {
        inputs: inputs
            .iter()
            .zip(&ell)
            .map(|(s, &n)| expand(s, n))
            .collect(),
        output,
        ellipsis: ell_letters.to_vec(),
    })
}

/// The first letter repeated in `s`: its two positions.
pub fn repeated(s: &[char]) -> Option<(usize, usize)> {
    (0..s.len()).find_map(|i| (i + 1..s.len()).find(|&j| s[j] == s[i]).map(|j| (i, j)))
}

/// The formula, each operand's letters and sizes once its diagonals are taken (a repeated
/// letter's two axes become one, moved last), the size of every letter, and the output shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Einsum<D> {
    /// The formula as read.
    pub formula: Formula,
    /// Each operand's letters after its diagonals.
    pub letters: Vec<Vec<char>>,
    /// Each letter's size (ellipsis letters broadcast from 1), in order of appearance.
    pub sizes: Vec<(char, D)>,
    /// The output shape.
    pub out: Vec<D>,
}

/// The shape rule of `einsum(formula, operands)`.
pub fn einsum<D: Dim>(
    ck: &mut Checker<D>,
    formula: &str,
    shapes: &[&[D]],
) -> Result<Einsum<D>, EinsumError<D>> {
    let parsed = parse(formula, shapes)?;
    let mut letters = Vec::with_capacity(shapes.len());
    let mut dims: Vec<Vec<D>> = Vec::with_capacity(shapes.len());
    for (k, (s, shape)) in parsed.inputs.iter().zip(shapes).enumerate() {
        let (mut s, mut d) = (s.clone(), shape.to_vec());
        while let Some((i, j)) = repeated(&s) {
            let c = s[i];
            let (x, y) = (d[i].clone(), d[j].clone());
            ck.equal(&x, &y, || {
                shape_error(
                    OP,
                    format!(
                        "letter '{c}' of {formula:?} names axes of sizes {x} and {y} in operand {k} of shape {} (a repeated letter takes a diagonal)",
                        show(shape)
                    ),
                )
            })
            .map_err(|error| EinsumError {
                operand: Some(k),
                error,
            })?;
            let keep = if x.is_dynamic() { y } else { x };
            s.remove(j);
            s.remove(i);
            s.push(c);
            d.remove(j);
            d.remove(i);
            d.push(keep);
        }
        letters.push(s);
        dims.push(d);
    }
    // one size per letter; ellipsis letters broadcast from 1
    let mut sizes: Vec<(char, D, usize)> = Vec::new();
    for (k, (s, d)) in letters.iter().zip(&dims).enumerate() {
        for (&c, x) in s.iter().zip(d) {
            let Some(at) = sizes.iter().position(|(l, _, _)| *l == c) else {
                sizes.push((c, x.clone(), k));
                continue;
            };
            let (have, first) = (sizes[at].1.clone(), sizes[at].2);
            if parsed.ellipsis.contains(&c) && (x.is(1) || have.is(1)) {
                if have.is(1) {
                    sizes[at].1 = x.clone();
                }
                continue;
            }
            ck.equal(&have, x, || {
                let what = if parsed.ellipsis.contains(&c) {
                    "an axis under `...`".to_string()
                } else {
                    format!("letter '{c}'")
                };
                shape_error(
                    OP,
                    format!(
                        "{what} of {formula:?} is {have} in operand {first} (shape {}) and {x} in operand {k} (shape {})",
                        show(shapes[first]),
                        show(shapes[k])
                    ),
                )
            })
            .map_err(|error| EinsumError {
                operand: Some(k),
                error,
            })?;
            if have.is_dynamic() {
                sizes[at].1 = x.clone();
            }
        }
    }
    let mut out = Vec::with_capacity(parsed.output.len());
    for (i, c) in parsed.output.iter().enumerate() {
        let Some((_, d, _)) = sizes.iter().find(|(l, _, _)| l == c) else {
            return Err(at_formula(argument_error(
                OP,
                format!("output letter '{c}' of {formula:?} is in no operand"),
            )));
        };
        if parsed.output[..i].contains(c) {
            return Err(at_formula(argument_error(
                OP,
                format!("output letter '{c}' appears twice in {formula:?}"),
            )));
        }
        out.push(d.clone());
    }
    Ok(Einsum {
        formula: parsed,
        letters,
        sizes: sizes.into_iter().map(|(c, d, _)| (c, d)).collect(),
        out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::decide;

    fn out(f: &str, shapes: &[&[usize]]) -> Result<Vec<usize>, EinsumError<usize>> {
        let mut ck = Checker::new();
        einsum(&mut ck, f, shapes).map(|e| e.out)
    }

    #[test]
    fn formulas() {
        assert_eq!(out("ij,jk->ik", &[&[2, 3], &[3, 4]]), Ok(vec![2, 4]));
        assert_eq!(out("ij,jk", &[&[2, 3], &[3, 4]]), Ok(vec![2, 4]));
        assert_eq!(out("ii->i", &[&[3, 3]]), Ok(vec![3]));
        assert_eq!(out("ii", &[&[3, 3]]), Ok(vec![]));
        assert_eq!(
            out("...i,...i->...", &[&[2, 1, 3], &[4, 3]]),
            Ok(vec![2, 4])
        );
        assert_eq!(out("ij->ji", &[&[2, 3]]), Ok(vec![3, 2]));
        let e = out("ij,jk->ik", &[&[2, 3], &[4, 5]]).unwrap_err();
        assert_eq!(e.operand, Some(1));
        assert!(matches!(e.error, RuleError::Shape { .. }));
        assert_eq!(
            e.error.to_string(),
            "`einsum`: letter 'j' of \"ij,jk->ik\" is 3 in operand 0 (shape [2, 3]) and 4 in operand 1 (shape [4, 5])"
        );
        let arg = |f: &str, s: &[&[usize]]| {
            matches!(
                out(f, s),
                Err(EinsumError {
                    error: RuleError::Argument { .. },
                    ..
                })
            )
        };
        assert!(arg("ij,jk->ik", &[&[2, 3]]));
        assert!(arg("ijk->i", &[&[2, 3]]));
        assert!(arg("ij->iz", &[&[2, 3]]));
        assert!(arg("ij->ii", &[&[2, 3]]));
        assert!(arg("i1->i", &[&[2, 3]]));
        assert!(arg("i", &[]));
        assert!(out("ii->i", &[&[2, 3]]).is_err());
        assert!(decide(|ck| einsum(ck, "i,i", &[&[2], &[2]]).map_err(|e| e.error)).is_ok());
    }
}
