"""Evaluates tg's primitive-op graphs with numpy, following tg's documented semantics.

A graph is a list of nodes; node i is ["op", args...] whose tensor arguments are indices of
earlier nodes. The Rust tests build the same graph from the runtime's primitives, realize it
on the device, and compare with what this module computes.

Where numpy and C leave behaviour undefined, tg defines it, and so does this module:
integer division truncates toward zero and x / 0 == 0; remainders take the dividend's sign and
x % 0 == 0; shifts by amounts outside 0..bits give 0 (or -1 for a negative value shifted
right), as numpy does; float -> int casts saturate and NaN becomes 0 (Rust's `as`); integer
powers wrap, and negative exponents give 0 except for bases 1 and -1."""

import math

import numpy as np

from fixtures_common import DTYPES, is_float, wrap, cast_scalar, int_range


def _objwise(f, *arrays, dt):
    """Applies Python-int function f elementwise and wraps into dt."""
    out = np.empty(arrays[0].shape, dtype=DTYPES[dt])
    flat = [a.reshape(-1) for a in arrays]
    res = out.reshape(-1)
    for i in range(res.size):
        res[i] = wrap(f(*[int(a[i]) for a in flat]), dt)
    return out


def _idiv(a, b):
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _imod(a, b):
    return 0 if b == 0 else a - _idiv(a, b) * b


def _ipow(a, b):
    if b < 0:
        return 1 if a == 1 else ((-1 if b % 2 else 1) if a == -1 else 0)
    return pow(a, b, 1 << 64)


def unary(x, name, dt):
    with np.errstate(all="ignore"):
        if name == "neg":
            return np.logical_not(x) if dt == "bool" else (-x).astype(x.dtype)
        if name == "trunc":
            return np.trunc(x) if is_float(dt) else x.copy()
        f = {"exp2": np.exp2, "log2": np.log2, "sin": np.sin, "sqrt": np.sqrt,
             "recip": lambda v: (np.ones_like(v) / v)}[name]
        return f(x).astype(x.dtype)


def binary(a, b, name, dt):
    with np.errstate(all="ignore"):
        if name in ("cmplt", "cmpne", "cmpeq"):
            return {"cmplt": np.less, "cmpne": np.not_equal, "cmpeq": np.equal}[name](a, b)
        if dt == "bool":
            f = {"add": np.logical_or, "mul": np.logical_and, "max": np.logical_or, "and": np.logical_and,
                 "or": np.logical_or, "xor": np.logical_xor}[name]
            return f(a, b)
        if name in ("idiv", "mod") or (name == "pow" and not is_float(dt)):
            f = {"idiv": _idiv, "mod": _imod, "pow": _ipow}[name]
            return _objwise(f, a, b, dt=dt)
        f = {"add": np.add, "mul": np.multiply, "max": np.maximum, "and": np.bitwise_and, "or": np.bitwise_or,
             "xor": np.bitwise_xor, "shl": np.left_shift, "shr": np.right_shift, "pow": np.power}[name]
        return f(a, b).astype(a.dtype)


def cast(x, dst, src):
    out = np.empty(x.shape, dtype=DTYPES[dst])
    flat, res = x.reshape(-1), out.reshape(-1)
    if is_float(src) and is_float(dst):
        return x.astype(DTYPES[dst])
    for i in range(res.size):
        v = flat[i]
        res[i] = cast_scalar(float(v) if is_float(src) else (bool(v) if src == "bool" else int(v)), src, dst)
    return out


def identity(name, dt):
    if name == "add":
        return 0
    if name == "mul":
        return 1
    if is_float(dt):
        return -np.inf
    return False if dt == "bool" else int_range(dt)[0]


def reduce(x, name, axes, dt):
    axes = tuple(axes)
    with np.errstate(all="ignore"):
        if dt == "bool":
            return np.logical_or.reduce(x, axis=axes, keepdims=True)
        f = {"add": np.add, "mul": np.multiply, "max": np.maximum}[name]
        return f.reduce(x, axis=axes, keepdims=True, dtype=x.dtype, initial=identity(name, dt)).astype(x.dtype)


def sorted_blocks(x, block):
    """Rows of u32 records (last axis) along the axis before, each row's consecutive blocks of
    `block` records sorted word by word (the last block of a row may be shorter)."""
    n, w = x.shape[-2], x.shape[-1]
    rows = x.reshape(-1, n, w)
    out = rows.copy()
    for r in range(rows.shape[0]):
        for start in range(0, n, block):
            part = rows[r, start:start + block]
            out[r, start:start + block] = part[np.lexsort(part.T[::-1], axis=0)]
    return out.reshape(x.shape)


def evaluate(nodes, inputs):
    vals = []
    dts = []
    for node in nodes:
        op, args = node[0], node[1:]
        if op == "input":
            t = inputs[args[0]]
            v, dt = t["array"], t["dtype"]
        elif op == "const":
            value, dt, shape = args
            v = np.full(shape, cast_scalar(value, "float64" if isinstance(value, float) else "int64", dt),
                        dtype=DTYPES[dt])
        elif op == "unary":
            v, dt = unary(vals[args[0]], args[1], dts[args[0]]), dts[args[0]]
        elif op == "binary":
            dt = dts[args[0]]
            v = binary(vals[args[0]], vals[args[1]], args[2], dt)
            dt = "bool" if args[2].startswith("cmp") else dt
        elif op == "where":
            v, dt = np.where(vals[args[0]], vals[args[1]], vals[args[2]]), dts[args[1]]
        elif op == "mulacc":
            dt = dts[args[0]]
            with np.errstate(all="ignore"):
                if dt == "bool":
                    v = (vals[args[0]] & vals[args[1]]) | vals[args[2]]
                else:
                    v = (vals[args[0]] * vals[args[1]]).astype(DTYPES[dt]) + vals[args[2]]
            v = v.astype(DTYPES[dt])
        elif op == "cast":
            v, dt = cast(vals[args[0]], args[1], dts[args[0]]), args[1]
        elif op == "bitcast":
            v, dt = vals[args[0]].view(DTYPES[args[1]]), args[1]
        elif op == "reduce":
            dt = dts[args[0]]
            v = reduce(vals[args[0]], args[1], args[2], dt)
        elif op == "reshape":
            v, dt = vals[args[0]].reshape(args[1]), dts[args[0]]
        elif op == "permute":
            v, dt = np.transpose(vals[args[0]], args[1]), dts[args[0]]
        elif op == "expand":
            v, dt = np.broadcast_to(vals[args[0]], args[1]), dts[args[0]]
        elif op == "pad":
            v, dt = np.pad(vals[args[0]], [tuple(p) for p in args[1]]), dts[args[0]]
        elif op == "shrink":
            v = vals[args[0]][tuple(slice(s, e) for s, e in args[1])]
            dt = dts[args[0]]
        elif op == "flip":
            v, dt = np.flip(vals[args[0]], axis=tuple(args[1])) if args[1] else vals[args[0]], dts[args[0]]
        elif op == "contiguous":
            v, dt = vals[args[0]], dts[args[0]]
        elif op == "merge_runs":
            # each pair of sorted runs of `run` records merged: each block of 2 run records sorted
            v, dt = sorted_blocks(vals[args[0]], 2 * args[1]), dts[args[0]]
        elif op == "sort_runs":
            v, dt = sorted_blocks(vals[args[0]], args[1]), dts[args[0]]
        elif op == "scan_runs":
            # the running sum, product or maximum of each run of `run` along the last axis, in
            # the dtype (integers wrap); float sums exact (fsum) and products in long double,
            # each rounded once to the dtype
            x, name, run, dt = vals[args[0]], args[1], args[2], dts[args[0]]
            n = x.shape[-1]
            f = {"add": np.cumsum, "mul": np.cumprod, "max": np.maximum.accumulate}[name]
            out = np.empty_like(x)
            for start in range(0, n, run):
                part = x[..., start:start + run]
                if is_float(dt) and name == "add":
                    rows = part.reshape(-1, part.shape[-1]).astype(np.float64)
                    sums = [[math.fsum(r[:i + 1]) for i in range(len(r))] for r in rows]
                    out[..., start:start + run] = np.array(sums).reshape(part.shape).astype(x.dtype)
                elif is_float(dt):
                    out[..., start:start + run] = f(part.astype(np.longdouble), axis=-1).astype(x.dtype)
                elif name == "max":
                    out[..., start:start + run] = f(part, axis=-1)
                else:
                    out[..., start:start + run] = f(part, axis=-1, dtype=x.dtype)
            v = out
        elif op == "assign_window":
            # numpy's `target[.., start:start + T, ..] = value` on a copy, the start read as
            # unsigned (a negative one is past the end) and rows past the end dropped
            target, value, axis = vals[args[0]], vals[args[1]], args[3]
            start = int(np.asarray(vals[args[2]]).reshape(())) % (1 << 32)
            v, dt = target.copy(), dts[args[0]]
            rows = max(0, min(value.shape[axis], target.shape[axis] - start))
            if rows > 0:
                into = (slice(None),) * axis + (slice(start, start + rows),)
                v[into] = value[(slice(None),) * axis + (slice(0, rows),)]
        elif op == "gather":
            # values read along an axis at the positions an integer tensor holds; out of range: 0
            values, axis = vals[args[0]], args[2]
            pos = vals[args[1]].astype(object)
            inside = (pos >= 0) & (pos < values.shape[axis])
            safe = np.where(inside, pos, 0).astype(np.int64)
            got = np.take_along_axis(values, safe, axis=axis)
            v, dt = np.where(inside, got, np.zeros_like(got)), dts[args[0]]
        else:
            raise ValueError(op)
        vals.append(np.ascontiguousarray(v).astype(DTYPES[dt]))
        dts.append(dt)
    return vals[-1], dts[-1]
