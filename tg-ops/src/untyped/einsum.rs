//! einsum (Einstein summation over a formula) and sequential (a chain of layers).
//!
//! einsum is composed as tinygrad composes it: a letter repeated within one operand takes
//! that operand's diagonal; every operand is permuted into alphabetical order of its letters
//! and reshaped onto the whole alphabet (size 1 where it lacks a letter); the broadcast
//! product is summed over the letters not in the output, and permuted into the output's
//! order. The product fuses into the sum, so no tensor over the whole alphabet is stored.

use super::DynTensor;
use tg_core::decide;
use tg_core::shape::einsum::{self as rule, Einsum, Formula};
use tg_runtime::{BinaryOp, DType, Error, Result};

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
        // the formula, the diagonals' and the letters' sizes, the output: tg-core's rule, which
        // `#[kernel]` applies to a body's symbolic shapes
        let shapes: Vec<&[usize]> = operands.iter().map(|t| t.shape()).collect();
        let Einsum {
            formula:
                Formula {
                    inputs: subs,
                    output: out,
                    ..
                },
            sizes,
            ..
        } = decide(|ck| rule::einsum(ck, formula, &shapes).map_err(|e| e.error))?;
        // diagonals of letters repeated within an operand
        let mut xs = Vec::with_capacity(operands.len());
        let mut letters = Vec::with_capacity(operands.len());
        for (s, x) in subs.into_iter().zip(operands) {
            let (mut s, mut x) = (s, x.clone());
            while let Some((j, k)) = rule::repeated(&s) {
                let c = s[j];
                x = x.diagonal(0, j as isize, k as isize)?;
                s.remove(k);
                s.remove(j);
                s.push(c);
            }
            xs.push(x);
            letters.push(s);
        }
        // the alphabet, sorted, and each letter's size (ellipsis letters broadcast from 1)
        let mut alpha: Vec<char> = letters.iter().flatten().copied().collect();
        alpha.sort_unstable();
        alpha.dedup();
        let size = alpha
            .iter()
            .map(|c| {
                sizes
                    .iter()
                    .find(|(l, _)| l == c)
                    .map(|&(_, d)| d)
                    .ok_or_else(|| {
                        Error::internal("einsum", format!("letter {c:?} has no size in {sizes:?}"))
                    })
            })
            .collect::<Result<Vec<usize>>>()?;
        // every operand on the whole alphabet, broadcast
        let dt = xs
            .iter()
            .fold(xs[0].dtype(), |d, x| d.least_upper(x.dtype()));
        // two operands' products in the accumulator where it holds them exactly
        // (DType::product_dtype, as matmul forms them); the result in the dtype the sum gives
        let pdt = match xs.len() {
            2 => dt.product_dtype(acc.unwrap_or(dt.sum_acc_dtype())),
            _ => dt,
        };
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
            let x = x.cast(dt).cast(pdt).reshape(&dims)?.broadcast_to(&size)?;
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
        let product =
            product.ok_or_else(|| Error::internal("einsum", "the rule accepted no operands"))?;
        let summed: Vec<isize> = (0..alpha.len())
            .filter(|&i| !out.contains(&alpha[i]))
            .map(|i| i as isize)
            .collect();
        let total = match acc {
            Some(d) => product.sum_as(Some(&summed), false, d)?,
            None => product.sum(Some(&summed), false)?.cast(dt.sum_dtype()),
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
