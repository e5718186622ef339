"""Fits the one polynomial of tg's elementwise math that is not a Taylor series: erfc's.

    erfc(x) = t * exp(-x^2 + P(u)),  t = 2 / (2 + x),  u = (t - mid) / half,  x >= 0

where [mid - half, mid + half] is the range of t over the fitted x, so u is in [-1, 1] and the
monomial coefficients stay small (a fit in t itself loses 2 digits to cancellation in f32).
P is a least-squares fit on Chebyshev nodes (close to minimax) of ln(erfc(x) / t) + x^2, made
with mpmath at 40 digits. One fit per precision: f32 on x in [0, 10] (erfc(10) is below the
smallest f32), f64 on x in [0, 27]. The script prints the coefficients (lowest degree first, as
tg-ops/src/untyped/elementwise/approx.rs holds them) and the largest relative error of the
formula over its interval, with t, u and P evaluated in the target precision (Horner's rule)
and an exact exp, so the figure is the polynomial's share of the error.

Run: python3 scripts/fit_elementwise_polys.py   (numpy, mpmath; deterministic)"""

import mpmath
import numpy as np

mpmath.mp.dps = 40


def target(t):
    x = 2 / mpmath.mpf(t) - 2
    return float(mpmath.log(mpmath.erfc(x) / t) + x * x)


def fit(deg, t_lo, nodes):
    us = np.cos(np.pi * (np.arange(nodes) + 0.5) / nodes)
    ys = np.array([target(0.5 * (t_lo + 1) + 0.5 * (1 - t_lo) * u) for u in us])
    return np.polynomial.chebyshev.cheb2poly(np.polynomial.chebyshev.chebfit(us, ys, deg))


def max_rel_error(coef, x_max, dtype):
    t_lo = 2 / (2 + x_max)
    mid, inv_half = dtype((1 + t_lo) / 2), dtype(2 / (1 - t_lo))
    worst = 0.0
    for x in np.linspace(0, x_max, 4001):
        t = dtype(2) / (dtype(2) + dtype(x))
        u = (t - mid) * inv_half
        p = dtype(0)
        for c in coef[::-1]:
            p = p * u + dtype(c)
        approx = mpmath.mpf(float(t)) * mpmath.exp(-mpmath.mpf(x) ** 2 + mpmath.mpf(float(p)))
        exact = mpmath.erfc(x)
        if exact > 0:
            worst = max(worst, float(abs(approx - exact) / exact))
    return worst


for name, deg, x_max, dtype in [("f32", 9, 10.0, np.float32), ("f64", 22, 27.0, np.float64)]:
    coef = fit(deg, 2 / (2 + x_max), 400)
    print(f"{name}: degree {deg}, x in [0, {x_max}], max relative error {max_rel_error(coef, x_max, dtype):.2e}")
    print("  [" + ", ".join(repr(float(c)) for c in coef) + "]")
