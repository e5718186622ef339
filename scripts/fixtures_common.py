"""Shared helpers of tg's fixture generators: dtypes, tg's documented semantics where numpy
leaves behaviour undefined, and the JSON encoding the Rust tests read.

Values are written so that every float round-trips exactly: NaN and infinities as strings,
everything else as Python's shortest repr of the float64 value (exact for f16 and f32)."""

import json
import math
import os

import numpy as np

DTYPES = {
    "bool": np.bool_, "int8": np.int8, "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16,
    "int32": np.int32, "uint32": np.uint32, "int64": np.int64, "uint64": np.uint64,
    "float16": np.float16, "float32": np.float32, "float64": np.float64,
}
FLOATS = ["float16", "float32", "float64"]
INTS = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
ALL = ["bool"] + INTS + FLOATS

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "fixtures"))


def is_float(dt):
    return dt in FLOATS


def int_range(dt):
    info = np.iinfo(DTYPES[dt])
    return int(info.min), int(info.max)


def wrap(v, dt):
    """Two's-complement wrap of a Python int into integer dtype dt."""
    if dt == "bool":
        return bool(v)
    lo, hi = int_range(dt)
    bits = np.dtype(DTYPES[dt]).itemsize * 8
    v &= (1 << bits) - 1
    return v - (1 << bits) if lo < 0 and v > hi else v


def cast_scalar(v, src, dst):
    """tg's cast: ints wrap, floats saturate into ints (NaN -> 0), f16 rounds to nearest even."""
    if dst == "bool":
        return bool(v != 0) if not (is_float(src) and math.isnan(v)) else True
    if src == "bool":
        v = int(v)
    if is_float(dst):
        return float(np.array(v, dtype=np.float64 if not is_float(src) else DTYPES[src]).astype(DTYPES[dst]))
    if is_float(src):
        if math.isnan(v):
            return 0
        lo, hi = int_range(dst)
        if math.isinf(v):
            return hi if v > 0 else lo
        t = int(math.trunc(v))
        return max(lo, min(hi, t))
    return wrap(int(v), dst)


def encode(v, dt):
    if dt == "bool":
        return bool(v)
    if not is_float(dt):
        return int(v)
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def tensor(arr, dt):
    arr = np.asarray(arr)
    flat = arr.reshape(-1).tolist()
    return {"dtype": dt, "shape": list(arr.shape), "data": [encode(v, dt) for v in flat]}


def sum_acc(dt):
    """tinygrad's sum_acc_dtype: the dtype a sum of `dt` accumulates (and returns) in."""
    if dt.startswith("uint"):
        return "uint64" if dt == "uint64" else "uint32"
    if dt.startswith("int") or dt == "bool":
        return "int64" if dt == "int64" else "int32"
    return "float64" if dt == "float64" else "float32"


def write(name, cases, root=ROOT):
    os.makedirs(root, exist_ok=True)
    path = os.path.join(root, name + ".json")
    with open(path, "w") as f:
        json.dump({"generator": "scripts/" + os.path.basename(__import__("sys").argv[0]), "cases": cases}, f,
                  separators=(",", ":"), allow_nan=False)
        f.write("\n")
    print(f"{path}: {len(cases)} cases")


def pattern(dt, shape, seed, lo, hi):
    """Deterministic pseudo-random values the Rust tests regenerate from a few numbers, so big
    inputs need not be stored: h = (i * 2654435761 + seed * 40503) mod 2^32, then floats are
    lo + (hi - lo) * h / 2^32 rounded to dt, integers lo + h mod (hi - lo + 1), bools h & 1."""
    n = int(np.prod(shape))
    i = np.arange(n, dtype=np.uint64)
    h = (i * np.uint64(2654435761) + np.uint64(seed * 40503)) % np.uint64(1 << 32)
    if dt == "bool":
        a = (h & np.uint64(1)).astype(bool)
    elif is_float(dt):
        a = (lo + (hi - lo) * (h.astype(np.float64) / 2.0**32)).astype(DTYPES[dt])
    else:
        a = (np.int64(lo) + (h % np.uint64(hi - lo + 1)).astype(np.int64)).astype(DTYPES[dt])
    spec = {"dtype": dt, "shape": list(shape), "pattern": {"seed": seed, "lo": lo, "hi": hi}}
    return a.reshape(shape), spec
