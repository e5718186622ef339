"""Generates the fixtures of tg-ops' statistics, scans, sorting and einsum:

  fixtures/ops_stats.json            var, std, var_mean, std_mean, normalize, logsumexp,
                                     softmax, log_softmax, softmin, allclose
  fixtures/ops_stats_scan_sort.json  cumsum, cumprod, cummax, cummin, logcumsumexp, argmax,
                                     argmin, sort, argsort, topk
  fixtures/ops_stats_einsum.json     einsum

Expected values come from numpy and scipy, computed in float64 from the (rounded) inputs and
rounded once to the output dtype. Where tinygrad and numpy differ, the expected values
follow tinygrad's documented semantics (each such place says so in a comment), and where tg
deliberately differs from tinygrad (NaN and -inf handling, noted on the ops), they follow
torch/numpy, which tg follows there.

Run: python3 scripts/gen_ops_stats.py   (numpy, scipy; deterministic output)"""

import math

import numpy as np
from scipy.special import logsumexp as sp_logsumexp

from fixtures_common import DTYPES, is_float, pattern, tensor, write

np.seterr(all="ignore")

# accumulation dtype of sums (tinygrad's sum_acc_dtype)
SUM_ACC = {"bool": "int32", "int8": "int32", "int16": "int32", "int32": "int32", "int64": "int64",
           "uint8": "uint32", "uint16": "uint32", "uint32": "uint32", "uint64": "uint64",
           "float16": "float16", "float32": "float32", "float64": "float64"}
# tolerances by output dtype: f16 results go through several f16 roundings
TOL = {"float16": (4e-3, 2e-3), "float32": (2e-5, 1e-6), "float64": (1e-12, 1e-14)}


def float_of(dt):
    return dt if is_float(dt) else "float32"


def tol(dt):
    return TOL.get(dt, (0.0, 0.0))


def arr(values, dt):
    return np.array(values, dtype=DTYPES[dt])


def ramp(shape, dt, start=0):
    """Distinct-ish small values of shape `shape` (signed types get both signs)."""
    n = int(np.prod(shape))
    i = np.arange(n) + start
    if dt == "bool":
        v = (i * 7) % 3 == 0
    elif dt.startswith("uint"):
        v = (i * 5) % 23
    elif dt.startswith("int"):
        v = ((i * 5) % 23) * np.where(i % 2 == 0, 1, -1)
    else:
        v = ((i * 37) % 19 - 9) * 0.375
    return v.astype(DTYPES[dt]).reshape(shape)


def spec(a, dt):
    return dt if isinstance(dt, dict) else tensor(a, dt)


def case(name, op, inputs, out, args=None, rtol=None, atol=None):
    """inputs: (array, dtype) pairs, or (array, spec) from `pattern`; out: (array, dtype), or a
    list of them for ops with several outputs. Tolerances default to those of the first
    output's dtype."""
    outs = out if isinstance(out, list) else [out]
    r, a = tol(outs[0][1])
    c = {"name": name, "op": op, "args": args or {}, "inputs": [spec(x, d) for x, d in inputs],
         "rtol": r if rtol is None else rtol, "atol": a if atol is None else atol}
    if isinstance(out, list):
        c["outs"] = [tensor(np.asarray(x, dtype=DTYPES[d]), d) for x, d in out]
    else:
        c["out"] = tensor(np.asarray(out[0], dtype=DTYPES[out[1]]), out[1])
    return c


def f64(a):
    return np.asarray(a).astype(np.float64)


def axes_tuple(axes):
    return None if axes is None else tuple(axes)


# ---------------------------------------------------------------- statistics

def stats_cases():
    out = []

    # var / std / var_mean / std_mean: numpy's ddof is tinygrad's correction; the divisor is
    # max(n - correction, 0) in both, so n <= correction gives inf (or NaN for 0 / 0)
    def var_ref(x, axes, keepdim, correction):
        return np.var(f64(x), axis=axes_tuple(axes), keepdims=keepdim, ddof=correction)

    def mean_ref(x, axes, keepdim):
        return np.mean(f64(x), axis=axes_tuple(axes), keepdims=keepdim)

    def stat(name, x, dt, axes, keepdim, correction, x_spec=None):
        o = float_of(dt)
        args = {"axes": axes, "keepdim": keepdim, "correction": correction}
        v, m = var_ref(x, axes, keepdim, correction), mean_ref(x, axes, keepdim)
        inp = [(x, x_spec or dt)]
        out.append(case(f"var/{name}/{dt}", "var", inp, (v, o), args))
        out.append(case(f"std/{name}/{dt}", "std", inp, (np.sqrt(v), o), args))
        out.append(case(f"var_mean/{name}/{dt}", "var_mean", inp, [(v, o), (m, o)], args))
        out.append(case(f"std_mean/{name}/{dt}", "std_mean", inp, [(np.sqrt(v), o), (m, o)], args))

    for dt in ["float32", "float16", "int32", "uint8", "bool"]:
        x = ramp((3, 4, 5), dt)
        stat("all", x, dt, None, False, 1.0)
        stat("axis1", x, dt, [1], False, 1.0)
        stat("neg_axis_keep", x, dt, [-1], True, 0.0)
        stat("two_axes", x, dt, [0, 2], False, 1.0)
    x = ramp((3, 4, 5), "float32")
    stat("float_correction", x, "float32", [2], False, 2.5)
    # n <= correction: the divisor is 0 (tinygrad's relu), giving inf, or NaN where the
    # squared deviations are 0 too
    stat("n_le_correction", x[:, :2], "float32", [1], False, 2.0)
    stat("single", arr([[2.5], [1.0]], "float32"), "float32", [1], False, 1.0)
    stat("empty_axis", np.zeros((2, 0), np.float32), "float32", [1], True, 1.0)
    stat("rank0", arr(3.5, "float32"), "float32", None, False, 0.0)
    stat("nan_inf", arr([[1.0, np.nan, 2.0], [1.0, np.inf, 2.0], [1e6, 1e6 + 2, 1e6 + 4]], "float32"), "float32", [1], False, 1.0)
    big, sp = pattern("float32", (4, 300), 5, -2.0, 6.0)
    stat("long_rows", big, "float32", [-1], False, 1.0, sp)
    big, sp = pattern("int8", (64, 8), 6, -100, 100)
    stat("int8_cols", big, "int8", [0], True, 1.0, sp)

    # normalize: x / max(||x||_p, eps) (torch's F.normalize); p = 0 counts nonzeros (tinygrad),
    # p = +-inf take the largest / smallest magnitude (torch's norm)
    def normalize_ref(x, p, axis, eps, dt):
        # eps takes the tensor's float dtype (tinygrad's maximum with a Python float), so in
        # f16 1e-12 is 0 and a zero row gives 0 / 0 = NaN
        eps = float(np.asarray(eps, dtype=DTYPES[float_of(dt)]))
        a = np.abs(f64(x))
        if p == 0:
            den = (a != 0).sum(axis=axis, keepdims=True).astype(np.float64)
        elif p == math.inf:
            den = a.max(axis=axis, keepdims=True)
        elif p == -math.inf:
            den = a.min(axis=axis, keepdims=True)
        else:
            den = (a ** p).sum(axis=axis, keepdims=True) ** (1.0 / p)
        return f64(x) / np.maximum(den, eps)

    for dt in ["float32", "float16", "int32"]:
        x = ramp((3, 4), dt, 1)
        for p in [2.0, 1.0, 0.0, 3.0, 0.5, math.inf, -math.inf]:
            name = {math.inf: "inf", -math.inf: "neg_inf"}.get(p, str(p))
            out.append(case(f"normalize/p{name}/{dt}", "normalize", [(x, dt)], (normalize_ref(x, p, 1, 1e-12, dt), float_of(dt)),
                            {"p": p if math.isfinite(p) else ("inf" if p > 0 else "-inf"), "axis": 1, "eps": 1e-12}))
    z = arr([[0.0, 0.0, 0.0], [3.0, 0.0, -4.0]], "float32")
    out.append(case("normalize/zero_row_eps/float32", "normalize", [(z, "float32")], (normalize_ref(z, 2.0, -1, 0.5, "float32"), "float32"),
                    {"p": 2.0, "axis": -1, "eps": 0.5}))
    x3 = ramp((2, 3, 4), "float32")
    out.append(case("normalize/axis0/float32", "normalize", [(x3, "float32")], (normalize_ref(x3, 2.0, 0, 1e-12, "float32"), "float32"),
                    {"p": 2.0, "axis": 0, "eps": 1e-12}))

    # logsumexp: scipy's, which replaces an infinite maximum by 0 (as torch does): a row of
    # -inf gives -inf and a row holding +inf gives +inf. tinygrad gives NaN for both.
    def lse(x, axes, keepdim, dt, name, x_spec=None, rtol=None):
        want = sp_logsumexp(f64(x), axis=axes_tuple(axes), keepdims=keepdim)
        out.append(case(f"logsumexp/{name}/{dt}", "logsumexp", [(x, x_spec or dt)], (want, float_of(dt)),
                        {"axes": axes, "keepdim": keepdim}, rtol=rtol))

    for dt in ["float32", "float16", "int32", "uint8"]:
        x = ramp((3, 4, 5), dt)
        lse(x, None, False, dt, "all")
        lse(x, [1], False, dt, "axis1")
        lse(x, [-1, 0], True, dt, "two_axes_keep")
    lse(arr([[1000.0, 1000.0, 999.0], [-1000.0, -1000.0, -1001.0], [88.0, 89.0, 90.0]], "float32"), [1], False, "float32", "large")
    lse(arr([[-np.inf, -np.inf, -np.inf], [-np.inf, 0.0, -np.inf], [np.inf, 1.0, -np.inf], [np.nan, 1.0, 2.0]], "float32"),
        [1], False, "float32", "inf_nan")
    lse(arr([[60000.0, 60000.0], [-np.inf, -np.inf]], "float16"), [-1], True, "float16", "large")
    lse(np.zeros((2, 0), np.float32), [1], False, "float32", "empty_axis")
    lse(arr(2.0, "float32"), None, False, "float32", "rank0")
    big, sp = pattern("float32", (3, 1000), 7, -30.0, 30.0)
    lse(big, [1], False, "float32", "long_rows", sp)

    # softmax / log_softmax / softmin
    def softmax_ref(x, axis, log=False, neg=False):
        v = -f64(x) if neg else f64(x)
        m = np.max(v, axis=axis, keepdims=True)
        s = v - m
        tot = np.sum(np.exp(s), axis=axis, keepdims=True)
        return s - np.log(tot) if log else np.exp(s) / tot

    def sm(op, x, dt, axis, acc, name, x_spec=None, rtol=None, atol=None):
        o = acc or float_of(dt)
        want = softmax_ref(x, axis, log=op == "log_softmax", neg=op == "softmin")
        out.append(case(f"{op}/{name}/{dt}" + (f"/acc_{acc}" if acc else ""), op, [(x, x_spec or dt)], (want, o),
                        {"axis": axis, "acc": acc}, rtol=rtol, atol=atol))

    for op in ["softmax", "log_softmax", "softmin"]:
        for dt in ["float32", "float16", "int32"]:
            x = ramp((2, 3, 4), dt)
            sm(op, x, dt, -1, None, "last")
            sm(op, x, dt, 0, None, "first")
            sm(op, x, dt, 1, None, "middle")
        sm(op, ramp((2, 3, 4), "float16"), "float16", -1, "float32", "last")
        sm(op, ramp((3, 1), "float32"), "float32", 1, None, "size1")
        sm(op, np.zeros((0, 3), np.float32), "float32", -1, None, "empty")
        sm(op, ramp((4, 7), "uint8"), "uint8", -1, None, "last")
        # a row of -inf gives NaN (0/0), as in tinygrad and torch
        sm(op, arr([[1000.0, 999.0, -1000.0, -np.inf], [-np.inf] * 4, [np.inf, 1.0, 2.0, 3.0], [np.nan, 1.0, 2.0, 3.0]],
                   "float32"), "float32", -1, None, "extremes")
        big, sp = pattern("float32", (2, 256), 8, -20.0, 20.0)
        sm(op, big, "float32", -1, None, "row_kernel", sp)
        big, sp = pattern("float16", (2, 128), 9, -8.0, 8.0)
        sm(op, big, "float16", -1, None, "row_kernel", sp)

    # allclose (isclose is elementwise's): numpy's rule
    a = arr([1.0, 2.0, np.nan, np.inf], "float32")
    for k, (b, eq_nan) in enumerate([(arr([1.0, 2.00001, np.nan, np.inf], "float32"), True),
                                     (arr([1.0, 2.00001, np.nan, np.inf], "float32"), False),
                                     (arr([1.0, 2.1, np.nan, np.inf], "float32"), True),
                                     (arr([1.0, 2.0, 0.0, np.inf], "float32"), True)]):
        want = np.array(np.allclose(f64(a), f64(b), 1e-5, 1e-8, equal_nan=eq_nan))
        out.append(case(f"allclose/{k}/float32", "allclose", [(a, "float32"), (b, "float32")], (want, "bool"),
                        {"rtol": 1e-5, "atol": 1e-8, "equal_nan": eq_nan}))
    return out


# ---------------------------------------------------------------- scans and arg-reductions

def first_index(x, v, axis):
    """For each i along `axis`, the first j <= i with x[j] == v[i] (NaN matching NaN):
    tinygrad's cummax index rule (torch gives the last), with NaN matched as numpy would."""
    xs, vs = np.moveaxis(f64(x), axis, -1), np.moveaxis(f64(v), axis, -1)
    idx = np.zeros(xs.shape, np.int64)
    for pos in np.ndindex(*xs.shape[:-1]):
        row, run = xs[pos], vs[pos]
        for i in range(row.shape[0]):
            for j in range(i + 1):
                if row[j] == run[i] or (math.isnan(row[j]) and math.isnan(run[i])):
                    idx[pos + (i,)] = j
                    break
    return np.moveaxis(idx, -1, axis)


def scan_cases():
    out = []

    # cumsum: accumulated and returned in tinygrad's sum dtype (numpy would give int64 for the
    # small integers); f16 sums in f32, rounded once
    def cs(x, dt, axis, name, x_spec=None, rtol=None, atol=None):
        acc = SUM_ACC[dt]
        if x.ndim == 0:
            # tinygrad returns a rank-0 tensor as it is (numpy's cumsum flattens it to [1])
            want = x.astype(DTYPES[acc])
        elif is_float(dt):
            want = np.cumsum(f64(x), axis=axis)
        else:
            want = np.cumsum(x.astype(np.int64), axis=axis)
            want = want.astype(DTYPES[acc])  # wraps like the i32/u32 accumulator
        out.append(case(f"cumsum/{name}/{dt}", "cumsum", [(x, x_spec or dt)], (want, acc), {"axis": axis}, rtol=rtol, atol=atol))

    for dt in ["float32", "float16", "int32", "int8", "uint8", "bool", "int64"]:
        x = ramp((2, 3, 4), dt)
        cs(x, dt, 0, "axis0")
        cs(x, dt, 1, "axis1")
        cs(x, dt, -1, "last")
    cs(arr([100, 100, 100, -128], "int8"), "int8", 0, "i8_grows_to_i32")
    cs(arr([1.0, np.nan, 2.0, np.inf, -np.inf], "float32"), "float32", 0, "nan_inf")
    cs(np.zeros((3, 0), np.float32), "float32", 1, "empty")
    cs(np.zeros((0, 3), np.int8), "int8", 1, "empty_rows")
    cs(arr(4.0, "float32"), "float32", 0, "rank0")
    cs(ramp((3, 1), "int32"), "int32", 1, "size1")
    # long axes: the two-stage split (chunks of 256, totals scanned, combined)
    for n, seed in [(512, 11), (513, 12), (1000, 13), (4096, 14)]:
        x, sp = pattern("int32", (n,), seed, -1000, 1000)
        cs(x, "int32", 0, f"long{n}", sp)
    x, sp = pattern("float32", (1, 1100), 15, -1.0, 1.0)
    cs(x, "float32", 1, "long1100", sp, rtol=1e-5, atol=2e-4)
    x, sp = pattern("float32", (530, 2), 16, 0.0, 1.0)
    cs(x, "float32", 0, "long530_axis0", sp, rtol=2e-6, atol=1e-4)
    x, sp = pattern("uint8", (700,), 17, 0, 255)
    cs(x, "uint8", 0, "long700", sp)

    # cumprod: in the tensor's dtype, integers wrap (numpy would widen small ints); bool is
    # the running logical and
    def cp(x, dt, axis, name, x_spec=None, rtol=None, atol=None):
        if dt == "bool":
            want = np.logical_and.accumulate(x, axis=axis)
        elif is_float(dt):
            want = np.cumprod(f64(x), axis=axis)
        else:
            want = np.cumprod(x, axis=axis, dtype=DTYPES[dt])
        out.append(case(f"cumprod/{name}/{dt}", "cumprod", [(x, x_spec or dt)], (want, dt), {"axis": axis}, rtol=rtol, atol=atol))

    for dt in ["float32", "float16", "int32", "int8", "uint8", "bool"]:
        x = ramp((3, 4), dt, 2)
        if is_float(dt):
            x = (x / 4 + 1).astype(DTYPES[dt])
        cp(x, dt, 0, "axis0")
        cp(x, dt, -1, "last")
    cp(arr([2] * 40, "int32"), "int32", 0, "wraps")
    cp(arr([1.0, np.nan, 2.0, 0.0, np.inf], "float32"), "float32", 0, "nan_inf")
    x, sp = pattern("float32", (1, 600), 18, 0.99, 1.01)
    cp(x, "float32", 1, "long600", sp, rtol=1e-4)
    x, sp = pattern("int32", (530,), 19, -3, 3)
    cp(x, "int32", 0, "long530", sp)

    # cummax / cummin: values, and the FIRST index of each running extreme (tinygrad's rule;
    # torch gives the last); NaN propagates and its index is the first NaN's
    def cm(op, x, dt, axis, name, x_spec=None):
        f = np.maximum if op == "cummax" else np.minimum
        v = f.accumulate(x, axis=axis) if x.size else x
        idx = first_index(x, v, axis) if x.size else np.zeros(x.shape, np.int64)
        out.append(case(f"{op}/{name}/{dt}", op, [(x, x_spec or dt)], [(v, dt), (idx, "int32")], {"axis": axis}))

    for op in ["cummax", "cummin"]:
        for dt in ["float32", "float16", "int32", "int8", "uint8", "bool"]:
            x = ramp((3, 5), dt)
            cm(op, x, dt, 0, "axis0")
            cm(op, x, dt, -1, "last")
        cm(op, arr([1.0, 3.0, 3.0, 2.0, 3.0, 5.0, 5.0, 0.0], "float32"), "float32", 0, "ties")
        cm(op, arr([2.0, np.nan, 5.0, np.nan, -1.0], "float32"), "float32", 0, "nan")
        cm(op, arr([-np.inf, -np.inf, 0.0, np.inf, np.inf, -np.inf], "float32"), "float32", 0, "inf")
        cm(op, arr([-0.0, 0.0, -0.0], "float32"), "float32", 0, "signed_zero")
        cm(op, np.zeros((2, 0), np.float32), "float32", 1, "empty")
        cm(op, ramp((2, 3, 4), "int16"), "int16", 1, "middle")
        x, sp = pattern("int32", (2, 700), 20, -50, 50)
        cm(op, x, "int32", -1, "long700", sp)

    # logcumsumexp: numpy's logaddexp.accumulate, which gives -inf for leading -inf (as torch;
    # tinygrad gives NaN there)
    def lcse(x, dt, axis, name, x_spec=None, rtol=None, atol=None):
        want = np.logaddexp.accumulate(f64(x), axis=axis) if x.size else f64(x)
        out.append(case(f"logcumsumexp/{name}/{dt}", "logcumsumexp", [(x, x_spec or dt)], (want, float_of(dt)), {"axis": axis},
                        rtol=rtol, atol=atol))

    for dt in ["float32", "float16", "int32"]:
        x = ramp((3, 4), dt)
        lcse(x, dt, 0, "axis0")
        lcse(x, dt, -1, "last")
    lcse(arr([-np.inf, -np.inf, 1000.0, 1000.0, -1000.0, 1001.0], "float32"), "float32", 0, "large_neg_inf")
    lcse(arr([1.0, np.inf, 2.0, np.nan, 3.0], "float32"), "float32", 0, "inf_nan")
    lcse(np.zeros((0, 3), np.float32), "float32", 0, "empty")
    x, sp = pattern("float32", (2, 300), 21, -40.0, 40.0)
    lcse(x, "float32", 1, "long300", sp)
    # long axes: chunks of 32 scanned directly, their totals in stages, combined (5000: three
    # stages; the descending row's running maximum is its first element throughout)
    x, sp = pattern("float32", (2, 1300), 22, -40.0, 40.0)
    lcse(x, "float32", 1, "long1300", sp, rtol=1e-5, atol=1e-5)
    x, sp = pattern("float32", (1, 5000), 23, -40.0, 40.0)
    lcse(x, "float32", 1, "long5000", sp, rtol=1e-5, atol=1e-5)
    lcse(np.linspace(50.0, -300.0, 3000).astype(np.float32), "float32", 0, "descending3000", rtol=1e-5, atol=1e-5)
    x = np.concatenate([np.full(600, -np.inf), np.linspace(-900.0, 1000.0, 100), [np.inf, 5.0]]).astype(np.float32)
    lcse(x, "float32", 0, "long_neg_inf_then_inf", rtol=1e-5, atol=1e-5)

    # argmax / argmin: numpy's (first index of ties; NaN counts as the extreme, first NaN);
    # with axis None the result is rank 0 and keepdim is ignored (tinygrad)
    def am(op, x, dt, axis, keepdim, name, x_spec=None):
        f = np.argmax if op == "argmax" else np.argmin
        want = f(f64(x)) if axis is None else f(f64(x), axis=axis, keepdims=keepdim)
        out.append(case(f"{op}/{name}/{dt}", op, [(x, x_spec or dt)], (np.asarray(want), "int32"), {"axis": axis, "keepdim": keepdim}))

    for op in ["argmax", "argmin"]:
        for dt in ["float32", "float16", "int32", "int8", "uint8", "bool", "int64"]:
            x = ramp((3, 4, 5), dt)
            am(op, x, dt, None, False, "all")
            am(op, x, dt, 1, False, "axis1")
            am(op, x, dt, -1, True, "last_keep")
            am(op, x, dt, 0, False, "axis0")
        t = arr([[1.0, 5.0, 5.0, -1.0], [np.nan, 2.0, np.nan, 0.0], [-np.inf, -np.inf, -np.inf, -np.inf], [0.0, -0.0, 0.0, 0.0]],
                "float32")
        am(op, t, "float32", 1, False, "ties_nan_inf")
        am(op, t, "float32", None, True, "all_keepdim_ignored")
        am(op, arr(7, "int32"), "int32", None, False, "rank0")
        am(op, ramp((3, 1), "float32"), "float32", 1, True, "size1")
        x, sp = pattern("float32", (3, 2000), 22, -5.0, 5.0)
        am(op, x, "float32", -1, False, "long", sp)
        x, sp = pattern("int8", (300, 2), 23, -128, 127)
        am(op, x, "int8", 0, False, "int8_cols", sp)
    return out


# ---------------------------------------------------------------- sorting

def sort_ref(x, axis, descending):
    """Stable sort: equal values keep their input order in both directions; NaN sorts above
    every number (last ascending, first descending), as torch's stable sort."""
    xs = np.moveaxis(f64(x), axis, -1)
    vals, idx = np.zeros(xs.shape), np.zeros(xs.shape, np.int64)
    for pos in np.ndindex(*xs.shape[:-1]):
        row = xs[pos]
        key = lambda k: (1, 0.0) if math.isnan(row[k]) else (0, row[k])
        order = sorted(range(row.shape[0]), key=key, reverse=descending)
        idx[pos] = order
        vals[pos] = row[order]
    return np.moveaxis(vals, -1, axis), np.moveaxis(idx, -1, axis)


def sort_cases():
    out = []

    def st(op, x, dt, axis, descending, name, x_spec=None, k=None):
        v, i = sort_ref(x, axis, descending)
        if op == "topk":
            sl = [slice(None)] * x.ndim
            sl[axis] = slice(0, k)
            v, i = v[tuple(sl)], i[tuple(sl)]
            args = {"k": k, "axis": axis, "largest": descending}
        else:
            args = {"axis": axis, "descending": descending}
        want = (i, "int32") if op == "argsort" else [(v, dt), (i, "int32")]
        d = "desc" if descending else "asc"
        out.append(case(f"{op}/{name}/{d}/{dt}", op, [(x, x_spec or dt)], want, args))

    for descending in [False, True]:
        for n in [1, 2, 3, 5, 8, 13, 33]:
            x = ramp((n,), "float32", n)
            st("sort", x, "float32", 0, descending, f"len{n}")
        # every dtype, along the last axis ascending and along a leading axis descending
        for dt in ["float16", "float64", "int32", "uint32", "int16", "uint16", "int8", "uint8",
                   "bool", "int64", "uint64"]:
            if descending:
                st("sort", ramp((5, 2), dt), dt, 0, descending, "axis0")
            else:
                st("sort", ramp((3, 6), dt), dt, -1, descending, "rows")
        st("sort", ramp((2, 5, 3), "float32"), "float32", 1, descending, "middle")
        # ties: many equal values, whose indices stay in input order
        t = arr([3, 1, 3, 2, 1, 3, 2, 2, 1, 3, 0], "int32")
        st("sort", t, "int32", 0, descending, "ties")
        f = arr([0.5, np.nan, -np.inf, 0.5, np.inf, np.nan, -0.0, 0.0, -1.0, 0.5], "float32")
        st("sort", f, "float32", 0, descending, "nan_inf_ties")
        x, sp = pattern("int32", (2, 100), 30, 0, 9)
        st("sort", x, "int32", -1, descending, "len100_ties", sp)
        n = 300 if descending else 1000
        x, sp = pattern("float32", (n,), 31, -100.0, 100.0)
        st("sort", x, "float32", 0, descending, f"len{n}", sp)
        st("sort", np.zeros((2, 0), np.float32), "float32", 1, descending, "empty")
        st("argsort", ramp((4, 6), "int16"), "int16", 1, descending, "rows")
        # topk: largest (descending) or smallest, equal values in input order
        for k in [0, 3, 11]:
            st("topk", t, "int32", 0, descending, f"k{k}", k=k)
        st("topk", ramp((3, 7), "float32"), "float32", -1, descending, "rows_k2", k=2)
        st("topk", ramp((6, 2), "float16"), "float16", 0, descending, "axis0_k4", k=4)
        x, sp = pattern("float32", (300,), 32, -1.0, 1.0)
        st("topk", x, "float32", 0, descending, "len300_k5", sp, k=5)
        # the partial network (blocks of the next power of two above k, halved in rounds):
        # every k from a tournament (1) to the whole row, on rows of many ties, and on floats
        # with NaN, infinities and signed zeros
        x, sp = pattern("int32", (3, 1000), 33, 0, 9)
        for k in [1, 2, 5, 16, 17, 100, 999, 1000]:
            st("topk", x, "int32", -1, descending, f"ties_k{k}", sp, k=k)
        f = arr([0.5, np.nan, -np.inf, 0.5, np.inf, np.nan, -0.0, 0.0, -1.0, 0.5, 2.0, -np.inf,
                 np.nan, 3.0, 0.0, -0.0, np.inf, 1.0, -2.0, 0.5, 7.0, -7.0, np.nan], "float32")
        for k in [1, 4, 9, 23]:
            st("topk", f, "float32", 0, descending, f"nan_inf_k{k}", k=k)
    return out


# ---------------------------------------------------------------- einsum

def einsum_cases():
    out = []

    def es(formula, inputs, name, acc=None, out_dt=None, rtol=None, atol=None):
        dts = [d if isinstance(d, str) else d["dtype"] for _, d in inputs]
        meet = dts[0]
        for d in dts[1:]:
            meet = LEAST_UPPER.get((meet, d), meet) if meet != d else meet
        o = out_dt or acc or SUM_ACC[meet]
        if meet == "bool":
            want = np.einsum(formula, *[x.astype(np.int64) for x, _ in inputs])
        elif is_float(meet):
            want = np.einsum(formula, *[f64(x) for x, _ in inputs])
        else:
            # products and sums exact in int64 here (the cases keep products inside the
            # operand dtype, and tinygrad sums in i32 or wider, where numpy would wrap in i8)
            want = np.einsum(formula, *[x.astype(np.int64) for x, _ in inputs])
        out.append(case(f"einsum/{name}/{meet}", "einsum", inputs, (want, o), {"formula": formula, "acc": acc}, rtol=rtol, atol=atol))

    a, b = ramp((2, 3), "float32"), ramp((3, 4), "float32", 1)
    v, w = ramp((3,), "float32", 2), ramp((4,), "float32", 3)
    sq = ramp((3, 3), "float32", 4)
    es("ij,jk->ik", [(a, "float32"), (b, "float32")], "matmul")
    es("ij,jk", [(a, "float32"), (b, "float32")], "matmul_implicit")
    es("ij,kj->ik", [(a, "float32"), (b.T.copy(), "float32")], "matmul_bt")
    es("i,i->", [(v, "float32"), (v, "float32")], "inner")
    es("i,i", [(v, "float32"), (v, "float32")], "inner_implicit")
    es("i,j->ij", [(v, "float32"), (w, "float32")], "outer")
    es("i,j", [(v, "float32"), (w, "float32")], "outer_implicit")
    es("ij,j->i", [(a, "float32"), (v, "float32")], "matvec")
    es("ii->", [(sq, "float32")], "trace")
    es("ii", [(sq, "float32")], "trace_implicit")
    es("ii->i", [(sq, "float32")], "diagonal")
    es("ij->ji", [(a, "float32")], "transpose")
    es("ba", [(a, "float32")], "transpose_implicit")
    es("ij->", [(a, "float32")], "sum_all")
    es("ij->j", [(a, "float32")], "sum_axis")
    es("ij", [(a, "float32")], "identity")
    x3, y3 = ramp((2, 3, 4), "float32"), ramp((2, 4, 5), "float32", 1)
    es("bij,bjk->bik", [(x3, "float32"), (y3, "float32")], "batched_matmul")
    es("bij,bjk->bki", [(x3, "float32"), (y3, "float32")], "batched_matmul_permuted_out")
    es("ijk,jil->kl", [(x3, "float32"), (ramp((3, 2, 2), "float32", 5), "float32")], "contract_two")
    es("iij->ij", [(ramp((3, 3, 2), "float32"), "float32")], "diagonal_3d")
    es("iji->j", [(ramp((3, 2, 3), "float32"), "float32")], "trace_split")
    es("iii->i", [(ramp((2, 2, 2), "float32"), "float32")], "triple_diagonal")
    es("i,ij,j->", [(v, "float32"), (sq, "float32"), (v, "float32")], "bilinear")
    es("ab,bc,cd->ad", [(a, "float32"), (b, "float32"), (ramp((4, 2), "float32", 6), "float32")], "chain")
    es("Ab,bC->AC", [(a, "float32"), (b, "float32")], "uppercase")
    es("...ij,...jk->...ik", [(x3, "float32"), (y3, "float32")], "ellipsis_batch")
    es("...ij,...jk", [(x3, "float32"), (y3, "float32")], "ellipsis_implicit")
    # ellipsis axes broadcast like numpy's (size 1 against 2, and missing axes)
    es("...ij,...jk->...ik", [(ramp((2, 1, 2, 3), "float32"), "float32"), (ramp((4, 3, 2), "float32", 7), "float32")],
       "ellipsis_broadcast")
    es("...ii->...i", [(ramp((2, 3, 3), "float32"), "float32")], "ellipsis_diagonal")
    es("i...->...", [(ramp((3, 2, 2), "float32"), "float32")], "ellipsis_sum_front")
    es("ij,ij->ij", [(a, "float32"), (a, "float32")], "hadamard")
    es(",ij->ij", [(arr(2.5, "float32"), "float32"), (a, "float32")], "scalar_operand")
    es("ij,jk->ik", [(np.zeros((2, 0), np.float32), "float32"), (np.zeros((0, 3), np.float32), "float32")], "empty_contraction")
    # integer operands: the sum is i32 (tinygrad's sum dtype; numpy keeps int8 and wraps)
    ia, ib = (ramp((3, 8), "int8") % 12).astype(np.int8), (ramp((8, 2), "int8", 3) % 10).astype(np.int8)
    es("ij,jk->ik", [(ia, "int8"), (ib, "int8")], "matmul_sum_widens")
    # products form in the operands' dtype and wrap there (tinygrad), then sum in u32
    ua, ub = ramp((2, 3), "uint8"), ramp((3, 2), "uint8", 1)
    wrapped = ((ua[:, :, None].astype(np.int64) * ub[None].astype(np.int64)) % 256).sum(1)
    out.append(case("einsum/matmul_products_wrap/uint8", "einsum", [(ua, "uint8"), (ub, "uint8")], (wrapped, "uint32"),
                    {"formula": "ij,jk->ik", "acc": None}))
    es("ij,jk->ik", [(ramp((2, 3), "int32"), "int32"), (ramp((3, 2), "float32"), "float32")], "mixed_int_float")
    es("ij,ij->i", [(ramp((3, 4), "bool"), "bool"), (ramp((3, 4), "bool", 1), "bool")], "count_and")
    h1, h2 = ramp((2, 8), "float16"), ramp((8, 3), "float16", 2)
    es("ij,jk->ik", [(h1, "float16"), (h2, "float16")], "matmul")
    es("ij,jk->ik", [(h1, "float16"), (h2, "float16")], "matmul_acc", acc="float32")
    big1, s1 = pattern("float32", (16, 64), 40, -1.0, 1.0)
    big2, s2 = pattern("float32", (64, 8), 41, -1.0, 1.0)
    es("ij,jk->ik", [(big1, s1), (big2, s2)], "matmul_big", rtol=1e-5, atol=1e-5)
    return out


LEAST_UPPER = {("int32", "float32"): "float32", ("float32", "int32"): "float32"}


if __name__ == "__main__":
    write("ops_stats", stats_cases())
    write("ops_stats_scan_sort", scan_cases() + sort_cases())
    write("ops_stats_einsum", einsum_cases())
