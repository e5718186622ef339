"""Generates the reference values of tg's indexing, range-creation, padding-mode and
gather/scatter ops:

  fixtures/ops_indexing.json         index (getitem) and setitem
  fixtures/ops_indexing_create.json  arange, linspace, eye, triu, tril, one_hot, pad_with
  fixtures/ops_indexing_gather.json  gather, scatter, scatter_reduce, masked_select, nonzero,
                                     interpolate

Values come from numpy. Where tinygrad's documented semantics differ from numpy's (or numpy has
no such op), the reference is written out here from tinygrad's definition, and a comment says
so: tensor indices out of range read 0 and write nothing; repeated writes keep the last one;
gather/scatter positions are not wrapped; scatter_reduce returns the dtypes of tinygrad's
composition; linspace truncates into integer dtypes; interpolate follows tinygrad's formulas.

Run: python3 scripts/gen_ops_indexing.py   (numpy; deterministic output)"""

import math
from collections import defaultdict

import numpy as np

from fixtures_common import DTYPES, cast_scalar, encode, is_float, pattern, sum_acc, tensor, write

np.seterr(all="ignore")


def ramp(shape, dt, start=0):
    """Distinct small values (alternating signs for signed types) of shape `shape`."""
    n = int(np.prod(shape))
    if dt == "bool":
        v = (np.arange(n) * 7 + start) % 3 == 0
    elif dt.startswith("uint"):
        v = (np.arange(n) * 5 + start + 1) % 97
    elif dt.startswith("int"):
        v = ((np.arange(n) * 5 + start + 1) % 97) * np.where(np.arange(n) % 2 == 0, 1, -1)
    else:
        v = (np.arange(n) + start + 1) * np.where(np.arange(n) % 2 == 0, 0.5, -0.75)
    return v.astype(DTYPES[dt]).reshape(shape)


def arr(values, dt):
    return np.array(values, dtype=DTYPES[dt])


def dt_of(x):
    return {np.dtype(v): k for k, v in DTYPES.items()}[x.dtype]


class T:
    """A tensor index (or operand) in a case: an array and its dtype name."""

    def __init__(self, values, dt=None):
        if dt is None:
            dt = dt_of(values) if isinstance(values, np.ndarray) and values.dtype != np.int64 else "int32"
        self.a = np.asarray(values).astype(DTYPES[dt])
        self.dt = dt


class Case:
    def __init__(self, name, op, args=None):
        self.c = {"name": name, "op": op, "args": dict(args or {}), "inputs": [], "rtol": 0.0, "atol": 0.0}

    def input(self, a, dt=None):
        """Adds an input (array with dtype name, or a `pattern` spec pair); returns its number."""
        if isinstance(dt, dict):
            self.c["inputs"].append(dt)
        else:
            self.c["inputs"].append(tensor(a, dt or dt_of(a)))
        return len(self.c["inputs"]) - 1

    def out(self, a, dt=None, rtol=0.0, atol=0.0):
        self.c["out"] = tensor(np.asarray(a), dt or dt_of(np.asarray(a)))
        self.c["rtol"], self.c["atol"] = rtol, atol
        return self.c


# ---------------------------------------------------------------- indexing

def encode_index(case, index):
    out = []
    for e in index:
        if e is None:
            out.append("new")
        elif e is Ellipsis:
            out.append("ellipsis")
        elif isinstance(e, slice):
            out.append({"slice": [e.start, e.stop, 1 if e.step is None else e.step]})
        elif isinstance(e, T):
            out.append({"tensor": case.input(e.a, e.dt)})
        else:
            out.append({"int": int(e)})
    return out


def ref_getitem(x, index, fill=0):
    """tinygrad's getitem in numpy terms: basic indices first, then the tensor indices on the
    resulting view (so, as in tinygrad, integer indices do not count as advanced ones when
    deciding whether the tensor indices are next to each other). A tensor index out of range,
    after negative values count from the end, reads `fill` (tinygrad reads 0; numpy fails)."""
    real = sum(1 for e in index if e is not None and e is not Ellipsis)
    if Ellipsis in index:
        at = index.index(Ellipsis)
        index = index[:at] + [slice(None)] * (x.ndim - real) + index[at + 1:]
    else:
        index = index + [slice(None)] * (x.ndim - real)
    basic, adv, pdim = [], {}, 0
    for e in index:
        if isinstance(e, T):
            basic.append(slice(None))
            adv[pdim] = e.a.astype(np.int64)
            pdim += 1
        elif e is None or isinstance(e, slice):
            basic.append(e)
            pdim += 1
        else:
            basic.append(int(e))
    p = x[tuple(basic)]
    if not adv:
        return p.copy()
    key = []
    for d in range(p.ndim):
        if d in adv:
            n = p.shape[d]
            t = np.where(adv[d] < 0, adv[d] + n, adv[d])
            key.append(np.where((t >= 0) & (t < n), t, n))
        else:
            key.append(slice(None))
    padded = np.pad(p, [(0, 1) if d in adv else (0, 0) for d in range(p.ndim)], constant_values=fill)
    return padded[tuple(key)]


def ref_setitem(x, index, value):
    """x[index] = value with tinygrad's rules: the selected positions are found by indexing
    an array of flat positions (out-of-range tensor indices select nothing) and written in
    row-major order of the selection, so where a position repeats the last write wins."""
    pos = np.arange(x.size, dtype=np.int64).reshape(x.shape)
    sel = ref_getitem(pos, index, fill=-1)
    vals = np.broadcast_to(np.asarray(value, dtype=x.dtype), sel.shape)
    out = x.copy().reshape(-1)
    for p, v in zip(sel.reshape(-1), vals.reshape(-1)):
        if p >= 0:
            out[p] = v
    return out.reshape(x.shape)


def indexing_cases():
    out = []

    def gi(name, x, dt, index):
        c = Case(f"index/{name}/{dt}", "index")
        c.input(x, dt)
        c.c["args"]["index"] = encode_index(c, index)
        out.append(c.out(ref_getitem(x, index), dt))

    def si(name, x, dt, index, value):
        c = Case(f"setitem/{name}/{dt}", "setitem")
        c.input(x, dt)
        c.c["args"]["index"] = encode_index(c, index)
        if isinstance(value, T):
            c.c["args"]["value"] = {"tensor": c.input(value.a, value.dt)}
        else:
            c.c["args"]["value"] = {"scalar": encode(value, "float64") if isinstance(value, float) else value}
        want = ref_setitem(x, index, value.a if isinstance(value, T) else cast_scalar(value, "float64" if isinstance(value, float) else ("bool" if isinstance(value, bool) else "int64"), dt))
        out.append(c.out(want, dt))

    S = slice
    for dt in ["float32", "float16", "int8", "uint8", "bool", "int64"]:
        x = ramp((3, 4, 5), dt)
        gi("ints", x, dt, [1, -1])
        gi("neg_ints", x, dt, [-3, 0, -1])
        gi("slices", x, dt, [S(1, 3), S(None, None, 2), S(4, 0, -2)])
        gi("reverse", x, dt, [S(None, None, -1)])
        gi("newaxis_ellipsis", x, dt, [None, Ellipsis, None, 2])
        gi("tensor", x, dt, [T([2, 0, -1, 1])])
        gi("two_tensors", x, dt, [S(None), T([[0], [3]]), T([1, -1, 4])])
    x = ramp((3, 4, 5), "float32")
    for name, index in [
        ("int_only", [2]), ("all_ints", [2, 3, 4]), ("ellipsis_only", [Ellipsis]), ("ellipsis_last", [1, Ellipsis]),
        ("ellipsis_mid", [0, Ellipsis, 3]), ("step3_neg", [Ellipsis, S(None, None, -3)]), ("neg_bounds", [S(-2, None), S(-10, 2)]),
        ("clamped", [S(1, 100)]), ("empty_range", [S(3, 1)]), ("empty_clamped", [S(10, 20)]), ("empty_neg_step", [S(0, 2, -1)]),
        ("neg_step_bounds", [S(-1, -4, -2), S(None, 0, -1)]), ("step_past_end", [S(None), S(1, None, 5)]),
        ("newaxis_front", [None]), ("newaxis_between", [S(None), None, 0, None]), ("newaxis_ellipsis_end", [Ellipsis, None]),
        ("int_then_step", [1, S(None, None, 2), S(None, None, -2)]),
        ("tensor_2d", [S(None), T([[0, 1], [3, 3]])]), ("tensor_oob", [T([5, -7, 1, 3])]), ("tensor_neg", [T([-1, -3])]),
        ("tensor_rank0", [T(2)]), ("tensor_rank0_mid", [S(None), T(-1)]), ("tensor_empty", [T(np.zeros(0, np.int32))]),
        ("tensor_int8", [T([-1, 0, 2], "int8")]), ("tensor_uint8", [S(None), T([3, 0, 200], "uint8")]),
        ("tensor_int64", [T([2, -2], "int64")]), ("consecutive", [T([0, 2, 1]), T([3, 0, 1])]),
        ("consecutive_bcast", [T([[0], [2]]), T([1, 2, 3])]), ("three_tensors", [T([0, 2]), T([1, 3]), T([4, 0])]),
        ("tensor_then_slice", [T([1, 0]), S(1, 3)]), ("slice_step_tensor", [S(None, None, -1), T([0, 0, 2])]),
        ("int_between_tensors", [T([0, 2]), 1, T([4, 0])]), ("newaxis_between_tensors", [T([0, 2]), None, T([1, 3])]),
        ("tensor_ellipsis_tensor", [T([1, 2]), Ellipsis, T([0, 4])]),
        ("tensor_with_step", [S(None, None, 2), T([1, 0]), S(1, None, 2)]),
    ]:
        gi(name, x, "float32", index)
    x4 = ramp((2, 3, 4, 5), "int32")
    gi("non_consecutive_moves_first", x4, "int32", [S(None), T([0, 2]), S(None), T([1, 4])])
    gi("non_consecutive_bcast", x4, "int32", [S(None), T([[0], [1]]), S(None), T([1, 2, 3])])
    gi("int_makes_consecutive", x4, "int32", [S(None), T([[0], [2]]), 1, T([1, 2, 3])])
    gi("non_consecutive_front", x4, "int32", [T([1, 0]), S(None), T([3, 2])])
    gi("size1_dims", ramp((1, 3, 1), "int32"), "int32", [0, T([2, 0]), -1])
    gi("empty_input", np.zeros((0, 3), np.float32), "float32", [S(None), T([1, 2])])
    gi("rank0", np.array(3.5, np.float32), "float32", [None, Ellipsis])
    special = arr([[np.nan, np.inf, -np.inf], [-0.0, 1.0, 65504.0]], "float32")
    gi("specials", special, "float32", [T([1, 0, 1]), T([0, 1, 2])])
    big, sp = pattern("float32", (64, 48), 3, -4.0, 4.0)
    c = Case("index/big/float32", "index")
    c.input(big, sp)
    rows = T(np.arange(60, -4, -3) % 70)
    c.c["args"]["index"] = encode_index(c, [rows, S(None, None, -5)])
    out.append(c.out(ref_getitem(big, [rows, S(None, None, -5)]), "float32"))

    # setitem: basic and advanced; repeated tensor indices keep the last write (tinygrad)
    for dt in ["float32", "float16", "int32", "uint8", "bool"]:
        x = ramp((3, 4), dt)
        v2 = ramp((2,), dt, 5)
        one = True if dt == "bool" else 7
        si("slice_scalar", x, dt, [S(1, 3)], one)
        si("step_tensor", x, dt, [S(None), S(None, None, -2)], T(v2, dt))
        si("int_row", x, dt, [-1], T(ramp((4,), dt, 3), dt))
        si("tensor_repeated", x, dt, [T([0, 2, 0])], T(ramp((3, 4), dt, 9), dt))
        si("tensor_pairs", x, dt, [T([0, 1, 0]), T([3, 3, 3])], T(ramp((3,), dt, 2), dt))
    x = ramp((4, 5), "float32")
    for name, index, value in [
        ("all", [Ellipsis], T(ramp((5,), "float32", 1))), ("point", [2, -1], 9.5), ("neg_step", [S(3, 0, -2), S(None, None, -3)], -1.0),
        ("step_bcast", [S(None, None, 3)], T(ramp((1, 5), "float32", 2))), ("newaxis", [None, 1, S(1, 4)], T(ramp((3,), "float32", 4))),
        ("empty", [S(2, 2)], 5.0), ("col_tensor_bcast", [S(None), T([[4], [0]])], T(ramp((4, 2, 1), "float32", 3))),
        ("oob_ignored", [T([1, 9, -9, -1])], 3.0), ("tensor_with_step", [S(None, None, -2), T([0, 0, 4])], T(ramp((2, 3), "float32", 6))),
        ("non_consecutive_like", [T([0, 1]), S(1, 3)], T(ramp((2, 2), "float32", 7))), ("inf_value", [T([3]), T([2])], float("-inf")),
    ]:
        si(name, x, "float32", index, value)
    x4 = ramp((2, 3, 4, 5), "float32")
    si("permuted", x4, "float32", [S(None), T([0, 2, 0]), S(None), T([1, 4, 1])], T(ramp((3, 2, 4), "float32", 1)))
    si("permuted_int", x4.astype(np.int16), "int16", [0, T([2, 1]), S(None), T([-1, 0])], T(ramp((2, 4), "int16", 2)))
    return out


# ---------------------------------------------------------------- creation and padding

def creation_cases():
    out = []

    def num(v):
        return v if isinstance(v, int) else float(v)

    # arange: dtype from the arguments (float if any is, else int32, or int64 when the values
    # do not fit), or given; values start + i * step
    for start, stop, step, dt in [(0, 5, 1, None), (5, 0, -2, None), (0, 10, 3, None), (10, 0, 1, None), (3, 3, 1, None),
                                  (0, 1, 0.25, None), (-1.5, 1.5, 0.5, None), (1, -1, -0.3, None),
                                  (2**31 - 3, 2**31 + 2, 1, None), (-(2**31) - 2, -(2**31) + 2, 1, None),
                                  (0, 10, 2, "int8"), (0, 5, 1, "float16"), (10, 0, -3, "uint8"), (0.5, 5, 1, "int32"),
                                  (0, 5, 1, "float64"), (0, 3_000_000_000, 700_000_000, "uint32"), (-3, 4, 2, "int64")]:
        floats = any(isinstance(v, float) for v in (start, stop, step))
        lo, hi = (start, stop - step) if step > 0 else (stop - step, start)
        want_dt = dt or ("float32" if floats else ("int64" if lo < -2**31 or hi > 2**31 - 1 else "int32"))
        n = max(0, math.ceil((stop - start) / step)) if floats else max(0, -((start - stop) // step))
        if is_float(want_dt) or floats:
            v = start + np.arange(n, dtype=np.float64) * step
            v = v.astype(DTYPES[want_dt]) if is_float(want_dt) else np.trunc(v).astype(DTYPES[want_dt])
        else:
            v = np.array([start + i * step for i in range(n)], dtype=np.int64).astype(DTYPES[want_dt])
        c = Case(f"arange/{start}_{stop}_{step}/{dt}", "arange", {"start": num(start), "stop": num(stop), "step": num(step), "dtype": dt})
        out.append(c.out(v, want_dt, rtol=1e-6 if is_float(want_dt) else 0.0, atol=1e-6 if is_float(want_dt) else 0.0))

    # linspace: start + i * (stop - start) / (steps - 1) in f32 (tinygrad), truncated into
    # integer dtypes (numpy floors)
    for start, stop, steps, dt in [(0, 10, 5, None), (-1, 1, 5, None), (0, 1, 1, None), (0, 1, 0, None), (0, 10, 4, "int32"),
                                   (1, 0, 3, "float16"), (0, 1, 7, "float64"), (-3, 3, 4, "int8"), (2.5, 2.5, 3, None)]:
        want_dt = dt or "float32"
        if steps == 1:
            v = np.array([start], dtype=np.float64)
        else:
            ct = np.float64 if want_dt == "float64" else np.float32
            delta = ct((stop - start) / max(steps - 1, 1))
            v = np.arange(steps, dtype=ct) * delta + ct(start)
        v = v.astype(DTYPES[want_dt]) if is_float(want_dt) else np.trunc(v).astype(DTYPES[want_dt])
        c = Case(f"linspace/{start}_{stop}_{steps}/{dt}", "linspace", {"start": float(start), "stop": float(stop), "steps": steps, "dtype": dt})
        out.append(c.out(v, want_dt, rtol=1e-6, atol=1e-6))

    for n, m, dt in [(3, None, None), (2, 4, None), (4, 2, "int32"), (0, 3, None), (3, 0, "float16"), (2, 2, "bool"), (1, None, "uint8")]:
        c = Case(f"eye/{n}_{m}/{dt}", "eye", {"n": n, "m": m, "dtype": dt})
        out.append(c.out(np.eye(n, m, dtype=DTYPES[dt or "float32"]), dt or "float32"))

    for dt, shape in [("int32", (3, 4)), ("float32", (2, 3, 3)), ("float16", (4, 2)), ("bool", (3, 3)), ("uint8", (1, 5))]:
        x = ramp(shape, dt)
        for k in [0, 1, -1, 2, -5, 10]:
            for op, f in [("triu", np.triu), ("tril", np.tril)]:
                c = Case(f"{op}/{k}/{dt}", op, {"diagonal": k})
                c.input(x, dt)
                out.append(c.out(f(x, k), dt))

    # one_hot: i32 rows; values outside 0..n (negative too) give zero rows (tinygrad)
    for vals, dt, n in [([0, 1, 3, 3, 4], "int32", 5), ([-1, 5, 2], "int32", 4), ([[0, 2], [1, 1]], "uint8", 3),
                        ([7, 0], "int64", 8), ([1, 2, 0], "int16", 0), (np.zeros(0), "int32", 3), (2, "int8", 3)]:
        x = np.asarray(vals).astype(DTYPES[dt])
        c = Case(f"one_hot/{list(x.shape)}_{n}/{dt}", "one_hot", {"num_classes": n})
        c.input(x, dt)
        out.append(c.out((x[..., None] == np.arange(n)).astype(np.int32), "int32"))

    # pad_with: numpy's modes for non-negative pads; negative pads cut before wrapping
    # (circular) or after mirroring/repeating (reflect, replicate), as tinygrad
    modes = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}

    def pad_ref(x, pads, mode):
        if mode == "circular":
            x = x[tuple(slice(max(-b, 0), x.shape[i] + min(a, 0)) for i, (b, a) in enumerate(pads))]
            return np.pad(x, [(max(b, 0), max(a, 0)) for b, a in pads], mode="wrap")
        y = np.pad(x, [(max(b, 0), max(a, 0)) for b, a in pads], mode=modes[mode])
        return y[tuple(slice(max(-b, 0), y.shape[i] + min(a, 0)) for i, (b, a) in enumerate(pads))]

    for dt in ["float32", "float16", "int32", "uint8", "bool"]:
        x = ramp((3, 4), dt)
        for mode in ["reflect", "replicate", "circular"]:
            if dt == "bool" and mode == "reflect":
                continue
            for k, pads in enumerate([[(1, 2), (3, 0)], [(2, 2), (1, 3)], [(0, 0), (2, 1)], [(-1, 2), (1, -2)], [(0, -2), (-1, 0)]]):
                c = Case(f"pad_with/{mode}/{k}/{dt}", "pad_with", {"pads": pads, "mode": mode})
                c.input(x, dt)
                out.append(c.out(pad_ref(x, pads, mode), dt))
    x = ramp((2, 3, 4), "float32")
    for mode, pads in [("reflect", [(1, 1), (2, 2), (3, 3)]), ("replicate", [(0, 3), (1, 0), (2, 1)]), ("circular", [(2, 2), (3, 3), (4, 4)])]:
        c = Case(f"pad_with/{mode}/3d/float32", "pad_with", {"pads": pads, "mode": mode})
        c.input(x, "float32")
        out.append(c.out(pad_ref(x, pads, mode), "float32"))
    r1 = ramp((1, 3), "int32")
    for mode, pads in [("replicate", [(1, 2), (0, 1)]), ("circular", [(1, 1), (0, 1)])]:
        c = Case(f"pad_with/{mode}/size1/int32", "pad_with", {"pads": pads, "mode": mode})
        c.input(r1, "int32")
        out.append(c.out(pad_ref(r1, pads, mode), "int32"))
    # constant mode through pad_with, -inf included
    for value in [float("-inf"), 2.5, float("nan")]:
        x = ramp((2, 3), "float32")
        c = Case(f"pad_with/constant_{value}/float32", "pad_with", {"pads": [(1, 0), (-1, 2)], "mode": "constant", "value": encode(value, "float64")})
        c.input(x, "float32")
        out.append(c.out(np.pad(x[:, 1:], [(1, 0), (0, 2)], constant_values=value), "float32"))
    # torch's flat form: pairs from the last axis backwards
    x = ramp((1, 2, 3), "float32")
    for mode, flat, grouped in [("reflect", [2, 1], [(0, 0), (0, 0), (2, 1)]), ("circular", [1, 1, 0, 2], [(0, 0), (0, 2), (1, 1)]),
                                ("replicate", [0, 2, 1, 1, 3, 0], [(3, 0), (1, 1), (0, 2)])]:
        c = Case(f"pad_flat_with/{mode}/float32", "pad_flat_with", {"pads": flat, "mode": mode})
        c.input(x, "float32")
        out.append(c.out(pad_ref(x, grouped, mode), "float32"))
    big, sp = pattern("float32", (2, 20, 20), 4, -2.0, 2.0)
    c = Case("pad_with/reflect/big/float32", "pad_with", {"pads": [(0, 0), (4, 4), (4, 4)], "mode": "reflect"})
    c.input(big, sp)
    out.append(c.out(pad_ref(big, [(0, 0), (4, 4), (4, 4)], "reflect"), "float32"))
    return out


# ---------------------------------------------------------------- gather and scatter

def ref_gather(x, dim, index):
    """np.take_along_axis on the leading part of x; positions out of 0..n read 0 (tinygrad
    does not wrap negative ones; torch fails)."""
    dim %= x.ndim
    sub = x[tuple(slice(0, s) if d != dim else slice(None) for d, s in enumerate(index.shape))]
    n = x.shape[dim]
    ok = (index >= 0) & (index < n)
    got = np.take_along_axis(sub, np.where(ok, index, 0).astype(np.int64), axis=dim)
    return np.where(ok, got, np.zeros((), x.dtype))


def landing(x_shape, dim, index):
    """Where each index element sends its source value: (source position, target position),
    in row-major order of the index; positions out of range are dropped."""
    out = []
    for pos in np.ndindex(*index.shape):
        k = int(index[pos])
        if 0 <= k < x_shape[dim]:
            tgt = list(pos)
            tgt[dim] = k
            out.append((pos, tuple(tgt)))
    return out


def ref_scatter(x, dim, index, src):
    """Last write wins (tinygrad), out-of-range positions write nothing."""
    dim %= x.ndim
    y = x.copy()
    for s, t in landing(x.shape, dim, index):
        y[t] = src[s] if np.ndim(src) else src
    return y


def ref_scatter_reduce(x, dim, index, src, reduce, include_self, dt):
    """torch's scatter_reduce with tinygrad's dtypes: sums accumulate and return in
    sum_acc_dtype (f16 in f32, returned as f16, then added in f16); means divide that by the
    count in float (f32 for integers); prod/amax/amin keep the dtype."""
    dim %= x.ndim
    groups = defaultdict(list)
    for s, t in landing(x.shape, dim, index):
        groups[t].append(src[s])
    if reduce == "sum":
        out_dt = sum_acc(dt) if dt != "float16" else "float16"
    elif reduce == "mean":
        out_dt = dt if is_float(dt) else "float32"
    else:
        out_dt = dt
    y = np.zeros(x.shape, DTYPES[out_dt])
    for t in np.ndindex(*x.shape):
        vals, own = groups.get(t, []), x[t]
        with_own = include_self or not vals
        if reduce in ("sum", "mean"):
            acc = "float32" if dt == "float16" else sum_acc(dt)
            total = np.array(sum(int(v) if not is_float(dt) else float(v) for v in vals)).astype(DTYPES[acc])
            if dt == "float16":
                total = total.astype(np.float16)
            total = total + (own.astype(total.dtype) if with_own else 0)
            if reduce == "sum":
                y[t] = total
            else:
                count = len(vals) + (1 if with_own else 0)
                ft = DTYPES[out_dt]
                y[t] = ft(total) / ft(count)
        elif reduce == "prod":
            p = own if with_own else x.dtype.type(1)
            for v in vals:
                p = x.dtype.type(p * v)
            y[t] = p
        else:
            pool = np.array(list(vals) + ([own] if with_own else []), x.dtype)
            y[t] = pool.max() if reduce == "amax" else pool.min()  # NaN propagates, as torch
    return y, out_dt


def interp_ref(x, size, mode, align):
    """tinygrad's interpolate: integer source positions num / den (clamped), lerp in f32;
    nearest at int(scale * (i [+ 0.5])) in f32 (clamped to the input, where tg is stricter
    than tinygrad), and the result cast back."""
    orig = x.dtype
    for k in range(len(size)):
        axis = x.ndim - 1 - k
        out = size[len(size) - 1 - k]
        n = x.shape[axis]
        shape = [1] * x.ndim
        shape[axis] = out
        if mode == "linear":
            i = np.arange(out, dtype=np.int64)
            if align and out <= 1:
                low = high = np.zeros(out, np.int64)
                frac = np.zeros(out, np.float32)
            else:
                num, den = (i * (n - 1), out - 1) if align else ((2 * i + 1) * n - out, 2 * out)
                num = np.clip(num, 0, (n - 1) * den)
                low, high = num // den, (num + den - 1) // den
                frac = (num % den).astype(np.float32) / np.float32(den)
            lo = np.take(x, low, axis=axis).astype(np.float32)
            hi = np.take(x, high, axis=axis).astype(np.float32)
            x = lo + (hi - lo) * frac.reshape(shape)
        else:
            scale = np.float32(n / out)
            off = np.float32(0.5 if mode == "nearest-exact" else 0.0)
            pos = np.minimum((scale * (np.arange(out, dtype=np.float32) + off)).astype(np.int32), n - 1)
            x = np.take(x, pos, axis=axis)
    return x.astype(orig)


def gather_cases():
    out = []
    for dt in ["float32", "float16", "int8", "uint8", "bool", "int64"]:
        x = ramp((3, 4), dt)
        for dim, idx, it in [(0, [[0, 2, 1, 0], [2, 2, 0, 1]], "int32"), (1, [[3, 0], [1, 1], [0, 2]], "int32"),
                             (-1, [[1], [3], [-1]], "int64"), (0, [[5, -1, 2]], "int8"), (1, [[2, 0, 1, 3, 3]], "uint8")]:
            index = np.array(idx).astype(DTYPES[it])
            c = Case(f"gather/{dim}_{list(index.shape)}_{it}/{dt}", "gather", {"dim": dim})
            c.input(x, dt)
            c.input(index, it)
            out.append(c.out(ref_gather(x, dim, index), dt))
    x3 = ramp((2, 3, 4), "float32")
    for dim, shape in [(1, (2, 5, 2)), (-3, (3, 2, 4)), (2, (1, 1, 6))]:
        index = (np.arange(np.prod(shape)) * 7 % (x3.shape[dim] + 1) - 1).reshape(shape).astype(np.int32)
        c = Case(f"gather/3d_{dim}/float32", "gather", {"dim": dim})
        c.input(x3, "float32")
        c.input(index, "int32")
        out.append(c.out(ref_gather(x3, dim, index), "float32"))
    c = Case("gather/empty_index/float32", "gather", {"dim": 0})
    c.input(ramp((3, 2), "float32"))
    c.input(np.zeros((0, 2), np.int32))
    out.append(c.out(np.zeros((0, 2), np.float32), "float32"))
    sp_x = arr([[np.nan, np.inf], [-np.inf, -0.0]], "float32")
    c = Case("gather/specials/float32", "gather", {"dim": 1})
    c.input(sp_x)
    c.input(np.array([[1, 0, 0], [0, 1, 0]], np.int32))
    out.append(c.out(ref_gather(sp_x, 1, np.array([[1, 0, 0], [0, 1, 0]])), "float32"))

    # scatter: tensor or scalar source; repeated positions keep the last write (tinygrad)
    for dt in ["float32", "float16", "int32", "uint8", "bool"]:
        x = ramp((3, 5), dt)
        src = ramp((2, 5), dt, 11)
        for dim, idx in [(0, [[0, 1, 2, 0, 0], [2, 0, 0, 1, 0]]), (1, [[0, 1, 2], [0, 1, 4]]), (1, [[4, 4, 4], [1, -1, 7]])]:
            index = np.array(idx, np.int32)
            c = Case(f"scatter/{dim}_{list(index.shape)}_{idx[0][0]}/{dt}", "scatter", {"dim": dim, "reduce": None})
            c.input(x, dt)
            c.input(index, "int32")
            c.c["args"]["src"] = {"tensor": c.input(src, dt)}
            out.append(c.out(ref_scatter(x, dim, index, src), dt))
        value = True if dt == "bool" else 3
        index = np.array([[2], [0], [2]], np.int64)
        c = Case(f"scatter/scalar/{dt}", "scatter", {"dim": 1, "reduce": None, "src": {"scalar": value}})
        c.input(x, dt)
        c.input(index, "int64")
        out.append(c.out(ref_scatter(x, 1, index, cast_scalar(value, "bool" if dt == "bool" else "int64", dt)), dt))
    for reduce, value in [("add", 1.5), ("multiply", 1.23)]:
        x = np.full((2, 4), 2.0, np.float32)
        index = np.array([[2, 2], [3, 0]], np.int32)
        c = Case(f"scatter/{reduce}/float32", "scatter", {"dim": 1, "reduce": reduce, "src": {"scalar": value}})
        c.input(x)
        c.input(index)
        want, out_dt = ref_scatter_reduce(x, 1, index, np.full(index.shape, value, np.float32), "sum" if reduce == "add" else "prod", True, "float32")
        out.append(c.out(want, out_dt, rtol=1e-6))
    xi = ramp((2, 3), "int8")
    c = Case("scatter/add/int8", "scatter", {"dim": 0, "reduce": "add", "src": {"scalar": 100}})
    c.input(xi)
    c.input(np.array([[0, 1, 0], [0, 0, 1]], np.int32))
    want, out_dt = ref_scatter_reduce(xi, 0, np.array([[0, 1, 0], [0, 0, 1]]), np.full((2, 3), 100, np.int8), "sum", True, "int8")
    out.append(c.out(want, out_dt))

    for dt in ["float32", "int32", "int8", "float16", "uint8"]:
        x = ramp((3, 4), dt)
        src = ramp((4, 4), dt, 3)
        index = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 2, 1, 9], [1, 0, -1, 0]], np.int32)
        for reduce in ["sum", "prod", "mean", "amax", "amin"]:
            if dt in ("uint8", "int8") and reduce == "prod":
                continue
            for include_self in [True, False]:
                want, out_dt = ref_scatter_reduce(x, 0, index, src, reduce, include_self, dt)
                c = Case(f"scatter_reduce/{reduce}_{include_self}/{dt}", "scatter_reduce", {"dim": 0, "reduce": reduce, "include_self": include_self})
                c.input(x, dt)
                c.input(index, "int32")
                c.input(src, dt)
                tol = 2e-3 if out_dt == "float16" else 1e-6
                out.append(c.out(want, out_dt, rtol=tol if is_float(out_dt) else 0.0, atol=tol if is_float(out_dt) else 0.0))
    def reduce_case(name, x, dim, index, src, reduce, include_self, tol):
        """A float32 scatter_reduce case; the reference reads src cut to the index's shape."""
        cut = src[tuple(slice(0, k) for k in index.shape)]
        want, out_dt = ref_scatter_reduce(x, dim, index, cut, reduce, include_self, "float32")
        c = Case(f"scatter_reduce/{name}/float32", "scatter_reduce", {"dim": dim, "reduce": reduce, "include_self": include_self})
        c.input(x)
        c.input(index)
        c.input(src)
        out.append(c.out(want, out_dt, rtol=tol, atol=tol))

    x = ramp((2, 6), "float32")
    src = ramp((2, 3), "float32", 4)
    index = np.array([[5, 0, 5], [1, 1, 1]], np.int32)
    for reduce in ["sum", "mean", "amin"]:
        reduce_case(f"dim1_{reduce}", x, -1, index, src, reduce, False, 1e-6)
    # NaN among the writes (it wins amax and amin, and poisons the sum)
    x = ramp((2, 4), "float32")
    src = ramp((2, 4), "float32", 2)
    src[0, 1] = np.nan
    src[1, 2] = np.nan
    index = np.array([[1, 1, 0, 1], [0, 1, 1, 1]], np.int32)
    for reduce in ["amax", "amin", "sum"]:
        for include_self in [True, False]:
            reduce_case(f"nan_{reduce}_{include_self}", x, 0, index, src, reduce, include_self, 1e-6)
    # an index smaller than the input on the other axis and than src on both
    x = ramp((3, 5), "float32")
    src = ramp((3, 4), "float32", 5)
    index = np.array([[4, 0, 4], [7, 2, 2]], np.int32)
    for reduce in ["sum", "amax"]:
        reduce_case(f"narrow_index_{reduce}", x, 1, index, src, reduce, False, 1e-6)
    # many writes per position: 300 a row into 50, some outside
    rng = np.random.default_rng(7)
    x = rng.standard_normal((4, 50)).astype(np.float32)
    src = rng.standard_normal((4, 300)).astype(np.float32)
    index = rng.integers(-3, 53, (4, 300)).astype(np.int32)
    for reduce in ["sum", "mean", "amax", "amin", "prod"]:
        reduce_case(f"many_{reduce}", x, 1, index, src, reduce, reduce != "prod", 2e-5)
    # no writes: every element keeps its value
    x = ramp((3, 4), "float32")
    for reduce in ["sum", "mean", "amax"]:
        reduce_case(f"no_writes_{reduce}", x, 0, np.zeros((0, 4), np.int32), ramp((2, 4), "float32", 1), reduce, False, 0.0)

    # masked_select / nonzero, with a data-dependent length or a given size
    for dt in ["float32", "int32", "float16", "bool", "uint8"]:
        x = ramp((3, 4), dt)
        mask = ramp((3, 4), "bool", 1)
        for size, fill in [(None, 0), (2, 0), (9, 5)]:
            got = x[mask]
            if size is not None:
                f = cast_scalar(fill, "int64", dt)
                got = np.concatenate([got, np.full(max(0, size - got.size), f, x.dtype)])[:size]
            c = Case(f"masked_select/{size}/{dt}", "masked_select", {"size": size, "fill": fill})
            c.input(x, dt)
            c.input(mask, "bool")
            out.append(c.out(got, dt))
    x = ramp((2, 3), "int32")
    for name, mask, size in [("bcast_row", np.array([True, False, True]), None), ("all_false", np.zeros((2, 3), bool), None),
                             ("all_false_sized", np.zeros((2, 3), bool), 2), ("bcast_col", np.array([[False], [True]]), 4)]:
        got = x[np.broadcast_to(mask, x.shape)]
        if size is not None:
            got = np.concatenate([got, np.zeros(max(0, size - got.size), np.int32)])[:size]
        c = Case(f"masked_select/{name}/int32", "masked_select", {"size": size, "fill": 0})
        c.input(x)
        c.input(mask, "bool")
        out.append(c.out(got, "int32"))
    big, sp = pattern("float32", (700,), 9, -1.0, 1.0)
    bm, bsp = pattern("bool", (700,), 10, 0, 1)
    c = Case("masked_select/long/float32", "masked_select", {"size": None, "fill": 0})
    c.input(big, sp)
    c.input(bm, bsp)
    out.append(c.out(big[bm], "float32"))

    for name, x, dt in [("1d", arr([1, 0, 2, 0, 3], "int32"), "int32"), ("2d", arr([[1, 0], [0, 2.5]], "float32"), "float32"),
                        ("3d", ramp((2, 3, 2), "bool"), "bool"), ("nan", arr([0.0, np.nan, -0.0, 1.0], "float32"), "float32"),
                        ("zeros", np.zeros((2, 2), np.float16), "float16"), ("uint8", ramp((3, 3), "uint8") % 3, "uint8")]:
        nz = np.argwhere(x != 0).astype(np.int32)
        for size, fill in [(None, 0), (3, -1)]:
            got = nz if size is None else np.concatenate([nz, np.full((max(0, size - len(nz)), x.ndim), fill, np.int32)])[:size]
            c = Case(f"nonzero/{name}_{size}/{dt}", "nonzero", {"size": size, "fill": fill})
            c.input(x, dt)
            out.append(c.out(got.reshape(-1, x.ndim), "int32"))
    c = Case("nonzero/rank0/float32", "nonzero", {"size": None, "fill": 0})
    c.input(np.array(2.0, np.float32))
    out.append(c.out(np.zeros((1, 0), np.int32), "int32"))

    # interpolate: tinygrad's formulas (torch's half-pixel and align_corners sampling)
    xi = ramp((1, 2, 3, 4), "float32")
    for size, mode, align in [((6,), "linear", False), ((2,), "linear", False), ((7,), "linear", True), ((1,), "linear", True),
                              ((5, 2), "linear", False), ((5, 2), "linear", True), ((3, 6), "linear", False),
                              ((4, 5, 7), "linear", False), ((2, 2, 2), "linear", True),
                              ((7,), "nearest", False), ((3,), "nearest", False), ((5, 9), "nearest", False),
                              ((7,), "nearest-exact", False), ((2, 3), "nearest-exact", False), ((3, 4), "linear", False),
                              # whole ratios, which tg takes as views (an expand, a strided shrink, shifted
                              # views interleaved)
                              ((6, 8), "nearest", False), ((9, 12), "nearest-exact", False), ((3, 2), "nearest", False),
                              ((1, 1), "nearest-exact", False), ((3, 12), "nearest", False),
                              ((6, 8), "linear", False), ((9, 12), "linear", False), ((3, 12), "linear", False),
                              ((6, 8), "linear", True), ((15, 4), "linear", False)]:
        want = interp_ref(xi, size, mode, align)
        c = Case(f"interpolate/{'x'.join(map(str, size))}_{mode}_{align}/float32", "interpolate", {"size": list(size), "mode": mode, "align_corners": align})
        c.input(xi)
        out.append(c.out(want, "float32", rtol=1e-5, atol=1e-5))
    for dt in ["uint8", "float16", "int32"]:
        x = (ramp((2, 3, 3), "uint8") if dt == "uint8" else ramp((2, 3, 3), dt))
        for size, mode in [((5, 4), "linear"), ((2, 5), "nearest"), ((6, 9), "linear")]:
            want = interp_ref(x, size, mode, False)
            c = Case(f"interpolate/{'x'.join(map(str, size))}_{mode}/{dt}", "interpolate", {"size": list(size), "mode": mode, "align_corners": False})
            c.input(x, dt)
            tol = 1e-2 if dt == "float16" else 0.0
            # integer results truncate after f32 math: values exactly on an integer are exact
            out.append(c.out(want, dt, rtol=tol, atol=tol))
    return out


if __name__ == "__main__":
    write("ops_indexing", indexing_cases())
    write("ops_indexing_create", creation_cases())
    write("ops_indexing_gather", gather_cases())
