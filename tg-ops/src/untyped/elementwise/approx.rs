//! Accurate float math composed of the primitives, on f32 or f64 values (f16 is computed in
//! f32 by the callers).
//!
//! The primitives are exp2, log2, sin, sqrt and recip; on Vulkan, f32 exp2 is within 2 ulp
//! and log2 is only within 2^-21 absolute on [0.5, 2] (GLSL's precision rule), and products
//! like `x * log2(e)` lose `|x|` ulps. So exp reduces its argument exactly (Cody-Waite),
//! logarithms near 1 use the series of atanh, and the functions that cancel near 0 (expm1,
//! log1p, tanh, sinh, asin ...) are built on those. Series coefficients are computed here
//! from their formulas; erfc's polynomial is a fit made by scripts/fit_elementwise_polys.py.

use std::f64::consts::{FRAC_2_SQRT_PI, FRAC_PI_2, FRAC_PI_4, LN_2, LOG2_E};

use tg_runtime::{DType, Scalar};

use super::expr::V;

/// Series terms: enough for 2^-26 relative in f32 and 2^-56 in f64 on each function's range.
fn terms(x: &V, f32_terms: usize, f64_terms: usize) -> usize {
    if x.is_f64() { f64_terms } else { f32_terms }
}

/// `e^x = 2^n m`: `x = n ln2 + r` with `n = round(x log2 e)` and `n ln2` in two parts (the
/// first has 9 bits, so `n * LN2_HI` is exact), `|r| <= ln2 / 2`, and `m = e^r` by its Taylor
/// series. Returns `(n, m)` with `n` integral, `|n| <= 246` in f32 and `1588` in f64.
///
/// Every op counts (softmax is bound by this one): `n` is `trunc(x log2 e + 0.5 + 2048) -
/// 2048`, a floor in three ops since the sum is positive after the clamp (its rounding moves
/// `n` only where `x log2 e` is within 2^-12 of a half-integer, widening `|r|` by 2^-13 ln2,
/// which the series' margin covers); the products of `n` are added negated (exact); and 8
/// terms reach 2^-26 in f32 (the 9th is below 2^-27 on `|r| <= ln2 / 2`).
fn exp_parts(x: &V) -> (V, V) {
    const LN2_HI: f64 = 0.693359375;
    const LN2_LO: f64 = LN_2 - LN2_HI;
    const SHIFT: f64 = 2048.0;
    // past these, e^x is 0 or inf in either precision (f32: 2^-149 at -103.3, 2^128 at 88.8);
    // clamping keeps the reduction finite, `x log2 e + 0.5 + SHIFT` positive and `n` within
    // the range `scale_pow2` takes
    let lim = if x.is_f64() { 1100.0 } else { 170.0 };
    let x = x.gt_k(lim).select(&x.k(lim), x);
    let x = x.lt_k(-lim).select(&x.k(-lim), &x);
    let n = (&x * LOG2_E + (0.5 + SHIFT)).trunc() - SHIFT;
    let r = &x + &n * -LN2_HI + &n * -LN2_LO;
    let m = r.poly(&inverse_factorials(terms(&r, 8, 15)));
    (n, m)
}

/// `m 2^n` for integral `n` with `|n| <= 250` (f32) or `2000` (f64), rounded once: the power
/// is two powers of half its size, each a normal number whose bits are built directly, so
/// nothing overflows or flushes before the last product and the device's exp2 (whose
/// accuracy varies by device, and which costs more than the whole construction) is not used.
///
/// The bits: adding `2^mantissa + bias` to `k` leaves `k + bias` in the low mantissa bits, and
/// multiplying the integer bits by `2^mantissa` moves it into the exponent field while the
/// constant's own exponent bits overflow out of the word.
fn scale_pow2(m: &V, n: &V) -> V {
    let (bits, mantissa, bias) = if n.is_f64() {
        (DType::I64, 52, 1023.0)
    } else {
        (DType::I32, 23, 127.0)
    };
    let pow2 = |k: &V| {
        let magic = (1u64 << mantissa) as f64 + bias;
        let low = (k + magic).bitcast(bits);
        (&low * &low.k(Scalar::Int(1i64 << mantissa))).bitcast(n.dtype())
    };
    let half = (n * 0.5).trunc();
    m * &pow2(&half) * &pow2(&(n - &half))
}

/// `1/0!, 1/1!, ..., 1/(n-1)!`: the Taylor coefficients of `e^x`.
fn inverse_factorials(n: usize) -> Vec<f64> {
    let mut c = Vec::with_capacity(n);
    let mut f = 1.0;
    for k in 0..n {
        if k > 0 {
            f *= k as f64;
        }
        c.push(1.0 / f);
    }
    c
}

/// `e^x`, within 2 ulp on f32 where the result is a normal number (a subnormal result is one
/// rounding of `m 2^n`, where the device keeps subnormals). No device function is used: the
/// power of two is built from its bits (`scale_pow2`).
pub(crate) fn exp(x: &V) -> V {
    exp_scaled(x, 0.0)
}

/// `2^k e^x` for integral `k`, with the power of two applied exactly (no overflow where the
/// product is finite).
pub(crate) fn exp_scaled(x: &V, k: f64) -> V {
    let (n, m) = exp_parts(x);
    let n = if k == 0.0 { n } else { n + k };
    scale_pow2(&m, &n)
}

/// `e^x - 1`, accurate near 0: Taylor series for `|x| < 1/2`, `exp(x) - 1` elsewhere (where
/// the subtraction loses nothing).
pub(crate) fn expm1(x: &V) -> V {
    let mut c = inverse_factorials(terms(x, 10, 18));
    c[0] = 0.0;
    let small = x.abs().lt_k(0.5);
    small.select(&x.poly(&c), &(exp(x) - 1.0))
}

/// `2 atanh(s) = ln((1 + s) / (1 - s))` for `|s| <= 1/3`, by its series `2s (1 + s²/3 + ...)`.
fn ln_ratio(s: &V) -> V {
    let n = terms(s, 8, 18);
    let c: Vec<f64> = (0..n).map(|k| 2.0 / (2 * k + 1) as f64).collect();
    s * (s * s).poly(&c)
}

/// `ln(x)`. f32: on (1/2, 2) from `s = (x - 1) / (x + 1)` (x - 1 is exact there), elsewhere
/// `log2(x) ln 2`. f64's log2 primitive is accurate everywhere.
pub(crate) fn ln(x: &V) -> V {
    let far = x.log2() * LN_2;
    if x.is_f64() {
        return far;
    }
    let near = x.gt_k(0.5).and(&x.lt_k(2.0));
    near.select(&ln_ratio(&(x - 1.0).div(&(x + 1.0))), &far)
}

/// `log2(x)`, with the same care near 1 as `ln`.
pub(crate) fn log2(x: &V) -> V {
    if x.is_f64() {
        return x.log2();
    }
    let near = x.gt_k(0.5).and(&x.lt_k(2.0));
    near.select(&(ln_ratio(&(x - 1.0).div(&(x + 1.0))) * LOG2_E), &x.log2())
}

/// `ln(1 + x)`: on (-1/2, 1) from `s = x / (2 + x)` with no rounding of `1 + x`.
pub(crate) fn log1p(x: &V) -> V {
    let near = x.gt_k(-0.5).and(&x.lt_k(1.0));
    near.select(&ln_ratio(&x.div(&(x + 2.0))), &ln(&(x + 1.0)))
}

/// `x = k π/2 + r`, `|r| <= π/4`, with π/2 split into parts of few bits so that every
/// product `k * P` but the last is exact: for `|x|` below about 6400 (f32; parts of 8, 12, 12
/// and 24 bits) or 1.6e6 (f64; 33, 33, 53 bits) the reduction is as exact as the precision.
/// Returns `(r, k mod 4)`.
fn reduce_half_pi(x: &V) -> (V, V) {
    let parts: &[f64] = if x.is_f64() {
        &[
            1.5707963267341256,
            6.077100506303966e-11,
            2.0222662487959506e-21,
        ]
    } else {
        &[
            1.5703125,
            0.0004838705062866211,
            -4.371395334601402e-08,
            2.5633440682570896e-12,
        ]
    };
    let k = (x * (1.0 / FRAC_PI_2) + 0.5).floor();
    let r = parts.iter().fold(x.clone(), |r, &p| r - &k * p);
    let q = &k - (&k * 0.25).floor() * 4.0;
    (r, q)
}

/// `sin(r)` and `cos(r)` for `|r| <= π/4`; cos as `1 - 2 sin²(r/2)`, which does not cancel
/// there.
fn sin_cos_reduced(r: &V) -> (V, V) {
    let h = (r * 0.5).sin();
    (r.sin(), 1.0 - &h * &h * 2.0)
}

/// `cos(x)` by reduction to `|r| <= π/4` (tinygrad's `sin(π/2 - x)` loses all digits near the
/// zeros of cos).
pub(crate) fn cos(x: &V) -> V {
    let (r, q) = reduce_half_pi(x);
    let (s, c) = sin_cos_reduced(&r);
    let odd = q.eq_k(1.0).or(&q.eq_k(3.0));
    let neg = q.eq_k(1.0).or(&q.eq_k(2.0));
    odd.select(&s, &c).negate_where(&neg)
}

/// `tan(x)`: `sin r / cos r` or `-cos r / sin r` by quadrant.
pub(crate) fn tan(x: &V) -> V {
    let (r, q) = reduce_half_pi(x);
    let (s, c) = sin_cos_reduced(&r);
    let odd = q.eq_k(1.0).or(&q.eq_k(3.0));
    odd.select(&-c.div(&s), &s.div(&c))
}

/// `atan(x)`: `|x| > 1` maps to `π/2 - atan(1/|x|)`, `t > tan(π/8)` to `π/4 + atan((t-1)/(t+1))`,
/// leaving `|u| <= tan(π/8)` for the Taylor series.
pub(crate) fn atan(x: &V) -> V {
    let a = x.abs();
    let big = a.gt_k(1.0);
    let t = big.select(&a.recip(), &a);
    let mid = t.gt_k(0.41421356237309503);
    let u = mid.select(&(&t - 1.0).div(&(&t + 1.0)), &t);
    let n = terms(x, 10, 22);
    let c: Vec<f64> = (0..n)
        .map(|k| if k % 2 == 0 { 1.0 } else { -1.0 } / (2 * k + 1) as f64)
        .collect();
    let p = &u * (&u * &u).poly(&c);
    let p = mid.select(&(&p + FRAC_PI_4), &p);
    let p = big.select(&(FRAC_PI_2 - &p), &p);
    p.negate_where(&x.lt_k(0.0))
}

/// `asin(x) = atan(x / sqrt((1 - x)(1 + x)))`: exact at ±1, NaN outside [-1, 1].
pub(crate) fn asin(x: &V) -> V {
    atan(&x.div(&((1.0 - x) * (x + 1.0)).sqrt()))
}

/// `acos(x) = 2 atan(sqrt((1 - x) / (1 + x)))`, which keeps its digits near both ends.
pub(crate) fn acos(x: &V) -> V {
    atan(&(1.0 - x).div(&(x + 1.0)).sqrt()) * 2.0
}

/// `erfc(a)` for `a >= 0`, relative error below 3e-7 (f32) or 2e-15 (f64):
/// `t exp(-a² + P(u))` with `t = 2/(2+a)` and the fitted P. `exp(-a²)` is split at `h`, `a`
/// cut to 4 fraction bits, so that `h²` is exact: `-a² = -h² - (a-h)(a+h)`.
pub(crate) fn erfc_pos(a: &V) -> V {
    let (lim, p): (f64, &[f64]) = if a.is_f64() {
        (27.0, &ERFC_P64)
    } else {
        (10.0, &ERFC_P32)
    };
    // beyond the fit, erfc is below the precision's smallest number
    let beyond = a.gt_k(lim);
    let a = beyond.select(&a.k(lim), a);
    let t = (&a + 2.0).recip() * 2.0;
    let t_lo = 2.0 / (2.0 + lim);
    let u = (&t - (1.0 + t_lo) / 2.0) * (2.0 / (1.0 - t_lo));
    let h = (&a * 16.0).trunc() * (1.0 / 16.0);
    let rest = (&a - &h) * (&a + &h);
    beyond.select(
        &a.k(0.0),
        &(&t * exp(&-(&h * &h)) * exp(&(u.poly(p) - rest))),
    )
}

/// `erf(x)`: Taylor series for `|x| < 1/2`, `1 - erfc(|x|)` beyond (no cancellation there).
pub(crate) fn erf(x: &V) -> V {
    let n = terms(x, 8, 13);
    let mut c = Vec::with_capacity(n);
    let mut fact = 1.0;
    for k in 0..n {
        if k > 0 {
            fact *= k as f64;
        }
        let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
        c.push(FRAC_2_SQRT_PI * sign / (fact * (2 * k + 1) as f64));
    }
    let a = x.abs();
    let small = a.lt_k(0.5);
    let far = (1.0 - erfc_pos(&a)).negate_where(&x.lt_k(0.0));
    small.select(&(x * (x * x).poly(&c)), &far)
}

/// `erfc(x)` for any `x`, relative accuracy everywhere (`2 - erfc(-x)` below 0).
pub(crate) fn erfc(x: &V) -> V {
    let e = erfc_pos(&x.abs());
    x.lt_k(0.0).select(&(2.0 - &e), &e)
}

/// `1 / (1 + e^-x)` without overflow: `e^-|x|` is at most 1.
pub(crate) fn sigmoid(x: &V) -> V {
    let e = exp(&-x.abs());
    let r = (&e + 1.0).recip();
    x.lt_k(0.0).select(&(&e * &r), &r)
}

/// `ln(1 + e^x)` = `max(x, 0) + log1p(e^-|x|)`.
pub(crate) fn softplus(x: &V) -> V {
    x.max(&x.k(0.0)) + log1p(&exp(&-x.abs()))
}

/// `tanh(x) = -expm1(-2|x|) / (2 + expm1(-2|x|))` with the sign of x: no cancellation at 0
/// and no overflow at large |x|.
pub(crate) fn tanh(x: &V) -> V {
    let e = expm1(&(x.abs() * -2.0));
    (-&e).div(&(&e + 2.0)).negate_where(&x.lt_k(0.0))
}

/// `sinh(x)`: `(e + e/(e+1)) / 2` with `e = expm1(|x|)`; `e^|x| / 2` past 20, where `e^-|x|`
/// no longer matters and `e` would overflow first.
pub(crate) fn sinh(x: &V) -> V {
    let a = x.abs();
    let e = expm1(&a);
    let near = (&e + e.div(&(&e + 1.0))) * 0.5;
    a.gt_k(20.0)
        .select(&exp_scaled(&a, -1.0), &near)
        .negate_where(&x.lt_k(0.0))
}

/// `cosh(x) = (e^|x| + e^-|x|) / 2`, as `e^|x| / 2` past 20.
pub(crate) fn cosh(x: &V) -> V {
    let a = x.abs();
    let e = exp(&a);
    let near = (&e + e.recip()) * 0.5;
    a.gt_k(20.0).select(&exp_scaled(&a, -1.0), &near)
}

/// Past this, `sqrt(x² ± 1)` is `x` to working precision (and `x²` may overflow).
fn big_arg(x: &V) -> f64 {
    if x.is_f64() { 268435456.0 } else { 4096.0 }
}

/// `asinh(x) = log1p(a + a² / (1 + sqrt(1 + a²)))` for `a = |x|`, `ln(a) + ln 2` for large a.
pub(crate) fn asinh(x: &V) -> V {
    let a = x.abs();
    let a2 = &a * &a;
    let near = log1p(&(&a + a2.div(&((&a2 + 1.0).sqrt() + 1.0))));
    let far = ln(&a) + LN_2;
    a.gt_k(big_arg(x))
        .select(&far, &near)
        .negate_where(&x.lt_k(0.0))
}

/// `acosh(x) = log1p(t + sqrt(t (t + 2)))` with `t = x - 1` (exact near 1), `ln(x) + ln 2` for
/// large x; NaN below 1.
pub(crate) fn acosh(x: &V) -> V {
    let t = x - 1.0;
    let near = log1p(&(&t + (&t * (&t + 2.0)).sqrt()));
    x.gt_k(big_arg(x)).select(&(ln(x) + LN_2), &near)
}

/// `atanh(x) = log1p(2a / (1 - a)) / 2` for `a = |x|` (a positive argument, so log1p does not
/// cancel near -1), with the sign of x.
pub(crate) fn atanh(x: &V) -> V {
    let a = x.abs();
    (log1p(&(&a * 2.0).div(&(1.0 - &a))) * 0.5).negate_where(&x.lt_k(0.0))
}

/// erfc's fitted polynomial for f32 (x in [0, 10]), lowest degree first.
const ERFC_P32: [f64; 10] = [
    -0.5585953983681,
    0.5703071029766156,
    0.01574730608082893,
    -0.029470336857996646,
    -0.0010634079050708635,
    0.003707476740266628,
    -0.00022596416181819802,
    -0.0005343206103561154,
    7.27287901412631e-05,
    5.486024677319657e-05,
];

/// erfc's fitted polynomial for f64 (x in [0, 27]), lowest degree first.
const ERFC_P64: [f64; 23] = [
    -0.6251953118881126,
    0.6316996845897456,
    0.03240928768103404,
    -0.03969826023136982,
    -0.005057692504532216,
    0.006518319903132869,
    0.00040707160442726226,
    -0.001404455111594085,
    0.0001373384573443116,
    0.00029909771530495856,
    -9.849365125869627e-05,
    -4.874833652631896e-05,
    3.697955926417761e-05,
    1.613009268291141e-06,
    -9.55016433477917e-06,
    2.5417615814521405e-06,
    1.5034742385835795e-06,
    -1.069759605981161e-06,
    -1.9713912965708003e-08,
    2.2832477689560873e-07,
    -5.0783326869561824e-08,
    -2.262927334286232e-08,
    8.693729143844721e-09,
];
