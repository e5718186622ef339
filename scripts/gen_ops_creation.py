"""Generates fixtures/ops_creation*.json: reference values for tg's creation ops, random streams
and printing.

- ops_creation.json: zeros/ones/full/empty and their *_like forms over every dtype, with tg's
  cast rules for the fill value (ints wrap, floats truncate and saturate, NaN -> 0).
- ops_creation_random.json: the exact streams of rand/randn/randint/uniform/normal and the
  initialisers, from a numpy implementation of tinygrad's threefry2x32 stream (documented in
  tg-ops/src/untyped/random.rs), checked here against the values tinygrad's own test suite
  publishes for seed 1337.
- ops_creation_display.json: numpy's str() and a repr-style string (np.array2string with
  separator ', ') of arrays, which tg's Display and Debug must equal exactly.

Run: python3 scripts/gen_ops_creation.py   (numpy; deterministic output)"""

import hashlib
import math
import warnings

import numpy as np

from fixtures_common import ALL, DTYPES, FLOATS, INTS, cast_scalar, is_float, pattern, tensor, write

# ---------------------------------------------------------------- creation


def fill_cases():
    shapes = [[2, 3], [], [0, 3], [1], [2, 1, 2]]
    values = [("int", 0), ("int", 1), ("int", -1), ("int", 300), ("int", 2**40 + 5), ("float", 2.75),
              ("float", -2.5), ("float", -0.0), ("float", float("nan")), ("float", float("inf")),
              ("float", float("-inf")), ("float", 1e10), ("bool", True)]
    out = []
    for dt in ALL:
        for i, shape in enumerate(shapes):
            n = int(np.prod(shape))
            out.append({"name": f"zeros/{dt}/{shape}", "args": {"op": "zeros", "shape": shape, "dtype": dt},
                        "out": tensor(np.zeros(shape, dtype=DTYPES[dt]), dt)})
            out.append({"name": f"ones/{dt}/{shape}", "args": {"op": "ones", "shape": shape, "dtype": dt},
                        "out": tensor(np.ones(shape, dtype=DTYPES[dt]), dt)})
            out.append({"name": f"empty/{dt}/{shape}", "args": {"op": "empty", "shape": shape, "dtype": dt},
                        "out": tensor(np.zeros(shape, dtype=DTYPES[dt]), dt)})
            like = np.arange(n).reshape(shape).astype(DTYPES[dt])
            for op, fill in [("zeros_like", 0), ("ones_like", 1)] if i < 2 else []:
                out.append({"name": f"{op}/{dt}/{shape}", "args": {"op": op}, "inputs": [tensor(like, dt)],
                            "out": tensor(np.full(shape, fill, dtype=DTYPES[dt]), dt)})
            if i == 0:
                for kind, v in values:
                    if v == float("inf") and dt in ("int64", "uint64"):
                        # tg-runtime's host cast maps +inf to i64::MIN and u64 0 (max as f64
                        # rounds up past the range); left out until the runtime saturates
                        continue
                    src = {"int": "int64", "float": "float64", "bool": "bool"}[kind]
                    want = np.full(shape, cast_scalar(v, src, dt), dtype=DTYPES[dt])
                    arg = {"kind": kind, "value": encode_value(v)}
                    out.append({"name": f"full/{dt}/{kind}:{v}", "args": {"op": "full", "shape": shape, "dtype": dt,
                                                                           "fill": arg}, "out": tensor(want, dt)})
                    if kind != "float" or v in (2.75, -2.5):
                        out.append({"name": f"full_like/{dt}/{kind}:{v}", "args": {"op": "full_like", "fill": arg},
                                    "inputs": [tensor(like, dt)], "out": tensor(want, dt)})
    return out


def encode_value(v):
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


# ---------------------------------------------------------------- random

# tinygrad's first device key word: the low 32 bits of sha256(0 as 4 big-endian bytes)
KEY0 = int.from_bytes(hashlib.sha256((0).to_bytes(4, "big")).digest(), "big") & 0xFFFFFFFF
U32 = np.uint32


def threefry2x32(k0, k1, x0, x1):
    """Threefry-2x32 with 20 rounds (Random123), on uint32 arrays; returns (out0, out1)."""
    k0, k1 = U32(k0), U32(k1)
    x0, x1 = np.asarray(x0, dtype=U32), np.asarray(x1, dtype=U32)
    ks = [k1, k0 ^ k1 ^ U32(0x1BD11BDA), k0]
    a, b = x0 + ks[2], x1 + ks[0]
    rotations = [[13, 15, 26, 6], [17, 29, 16, 24]]
    for i in range(5):
        for r in rotations[i % 2]:
            a = a + b
            b = a ^ ((b << U32(r)) | (b >> U32(32 - r)))
        a = a + ks[i % 3]
        b = b + ks[(i + 1) % 3] + U32(i + 1)
    return a, b


class Stream:
    """tinygrad's Tensor.rand stream: a key (KEY0, seed) and a 64-bit counter of words."""

    def __init__(self, seed, counter=0):
        self.seed, self.counter = seed & 0xFFFFFFFF, counter

    def bits(self, num):
        c = self.counter
        self.counter += num
        s0, s1 = threefry2x32(KEY0, self.seed, [c & 0xFFFFFFFF], [c >> 32])
        h = (num + 1) // 2
        j = np.arange(h, dtype=U32)
        y0, y1 = threefry2x32(s0[0], s1[0], j, j + U32(h))
        return np.concatenate([y0, y1])[:num]

    def rand(self, shape, dt):
        n = int(np.prod(shape))
        if n == 0:
            return np.zeros(shape, dtype=DTYPES[dt])
        itemsize = np.dtype(DTYPES[dt]).itemsize
        words = self.bits((n * itemsize + 3) // 4)
        uint = {2: np.uint16, 4: np.uint32, 8: np.uint64}[itemsize]
        nmant = {2: 10, 4: 23, 8: 52}[itemsize]
        u = words.view(uint)  # little-endian: the low half of a word first
        one = np.array(1, dtype=DTYPES[dt]).view(uint)
        f = ((u >> uint(itemsize * 8 - nmant)) | one).view(DTYPES[dt])[:n]
        return (f - DTYPES[dt](1)).reshape(shape)

    def randn(self, shape, dt):
        src = self.rand([2] + list(shape), "float32")
        f = np.float32
        with np.errstate(all="ignore"):
            # tinygrad: cos(x) = sin(pi/2 - x), log(x) = log2(x) * ln 2, all in float32
            cos = np.sin(f(math.pi / 2) + -(src[0] * f(2 * math.pi)))
            radius = np.sqrt(np.log2(f(1) + -src[1]) * f(math.log(2)) * f(-2))
        return (cos * radius).astype(DTYPES[dt])

    def scaled(self, shape, width, low, dt):
        """(width * rand_f32).cast(dt) + low, with low cast to dt first (a weak scalar)."""
        r = self.rand(shape, "float32")
        x = (r * np.float32(width)).astype(DTYPES[dt]) if is_float(dt) else cast_f32_to_int(r * np.float32(width), dt)
        lo = np.array(cast_scalar(low, "float64" if isinstance(low, float) else "int64", dt), dtype=DTYPES[dt])
        with np.errstate(all="ignore"):
            return (x + lo).astype(DTYPES[dt])


def cast_f32_to_int(a, dt):
    return np.array([cast_scalar(float(v), "float32", dt) for v in a.reshape(-1)], dtype=DTYPES[dt]).reshape(a.shape)


def run_call(s, call):
    op, shape, dt = call["op"], call["shape"], call.get("dtype", "float32")
    if op == "random_bits":
        return s.bits(call["num"]), "uint32"
    if op == "rand":
        return s.rand(shape, dt), dt
    if op == "randn":
        return s.randn(shape, dt), dt
    if op == "uniform":
        return s.scaled(shape, call["high"] - call["low"], float(call["low"]), dt), dt
    if op == "randint":
        return s.scaled(shape, call["high"] - call["low"], int(call["low"]), dt), dt
    if op == "normal":
        z = s.randn(shape, dt)
        return (z * DTYPES[dt](call["std"]) + DTYPES[dt](call["mean"])).astype(DTYPES[dt]), dt
    fan_in = int(np.prod(shape[1:]))
    if op == "kaiming_uniform":
        b = (6 / (1 + call["a"] ** 2) / fan_in) ** 0.5
        return s.scaled(shape, 2 * b, -b, dt), dt
    if op == "glorot_uniform":
        b = (6 / (shape[0] + fan_in)) ** 0.5
        return s.scaled(shape, 2 * b, -b, dt), dt
    if op == "kaiming_normal":
        std = (2 / (1 + call["a"] ** 2) / fan_in) ** 0.5
        z = s.randn(shape, dt)
        return (z * DTYPES[dt](std) + DTYPES[dt](0.0)).astype(DTYPES[dt]), dt
    if op == "scaled_uniform":
        u = s.scaled(shape, 2.0, -1.0, dt)
        return (u * DTYPES[dt](int(np.prod(shape)) ** -0.5)).astype(DTYPES[dt]), dt
    raise ValueError(op)


# values tinygrad's test_randomness.py publishes for manual_seed(1337): rand(20), rand(20), rand(10)
TINYGRAD_1337 = [
    [0.45735931396484375, 0.6311527490615845, 0.15571284294128418, 0.8149417638778687, 0.7862188816070557],
    [0.09199333190917969, 0.9130761623382568, 0.7048608064651489, 0.22254979610443115, 0.0014830827713012695],
    [0.3198714256286621, 0.7984923124313354, 0.320881724357605, 0.4716068506240845, 0.7323365211486816],
]


def random_case(name, seed, calls, rtol=0.0, atol=0.0, counter=0):
    s = Stream(seed, counter)
    outs = [tensor(*run_call(s, c)) for c in calls]
    return {"name": name, "args": {"seed": seed, "counter": counter, "calls": calls}, "outs": outs,
            "rtol": rtol, "atol": atol}


def random_cases():
    s = Stream(1337)
    for want, n in zip(TINYGRAD_1337, [20, 20, 10]):
        got = s.rand([n], "float32")
        assert np.array_equal(got[:5], np.array(want, dtype=np.float32)), (got[:5], want)

    rand = lambda shape, dt="float32": {"op": "rand", "shape": shape, "dtype": dt}
    out = [
        random_case("tinygrad_seed_1337", 1337, [rand([20]), rand([20]), rand([10])]),
        random_case("bits", 5, [{"op": "random_bits", "shape": [7], "num": 7},
                                {"op": "random_bits", "shape": [4], "num": 4}]),
        # the subkey takes the counter's high word: start just below 2^32 words
        random_case("bits_counter_carry", 9, [{"op": "random_bits", "shape": [6], "num": 6}, rand([3, 2])],
                    counter=2**32 - 3),
        random_case("rand_dtypes", 42, [rand([3, 5], "float16"), rand([2, 3], "float64"), rand([0, 4]),
                                        rand([1]), rand([]), rand([2, 1, 3], "float16"), rand([1], "float16")]),
        random_case("rand_big", 3, [rand([300], "float32"), rand([257], "float16")]),
        random_case("randint", 0, [
            {"op": "randint", "shape": [50], "dtype": "int32", "low": -2, "high": 5},
            {"op": "randint", "shape": [4, 6], "dtype": "uint8", "low": 0, "high": 256},
            {"op": "randint", "shape": [30], "dtype": "int8", "low": -128, "high": 128},
            {"op": "randint", "shape": [16], "dtype": "int64", "low": -10**12, "high": 10**12},
            {"op": "randint", "shape": [9], "dtype": "uint16", "low": 5, "high": 6},
            {"op": "randint", "shape": [10], "dtype": "int16", "low": -300, "high": 301},
            {"op": "randint", "shape": [10], "dtype": "uint32", "low": 0, "high": 2**32},
            {"op": "randint", "shape": [10], "dtype": "uint64", "low": 1, "high": 3},
        ]),
        # products and sums of f32 values may contract into one fma on the device
        random_case("uniform", 11, [
            {"op": "uniform", "shape": [5, 4], "dtype": "float32", "low": -3.0, "high": 5.0},
            {"op": "uniform", "shape": [7], "dtype": "float16", "low": 0.5, "high": 2.5},
            {"op": "uniform", "shape": [6], "dtype": "float64", "low": -1.0, "high": 1.0},
            {"op": "kaiming_uniform", "shape": [4, 6], "dtype": "float32", "a": 0.01},
            {"op": "kaiming_uniform", "shape": [3, 2, 2], "dtype": "float32", "a": 2.0},
            {"op": "glorot_uniform", "shape": [3, 4, 2], "dtype": "float32"},
            {"op": "glorot_uniform", "shape": [5], "dtype": "float16"},
            {"op": "scaled_uniform", "shape": [2, 8], "dtype": "float32"},
        ], rtol=1e-6, atol=1e-7),
        # sin/log2/sqrt are approximate on devices: values agree to f32 noise
        random_case("randn_f32", 7, [
            {"op": "randn", "shape": [4, 5], "dtype": "float32"},
            {"op": "randn", "shape": [2, 2], "dtype": "float64"},
            {"op": "normal", "shape": [6], "dtype": "float32", "mean": 2.0, "std": 0.5},
            {"op": "kaiming_normal", "shape": [4, 3], "dtype": "float32", "a": 0.01},
            {"op": "randn", "shape": [300], "dtype": "float32"},
        ], rtol=2e-5, atol=2e-5),
        # f16 rounds the f32 result: noise there can move a value one f16 step
        random_case("randn_f16", 8, [
            {"op": "randn", "shape": [3], "dtype": "float16"},
            {"op": "normal", "shape": [2, 5], "dtype": "float16", "mean": -1.0, "std": 3.0},
        ], rtol=1e-3, atol=1e-3),
    ]
    return out


# ---------------------------------------------------------------- printing


def display_case(name, arr, dt, spec=None):
    a = np.asarray(arr, dtype=DTYPES[dt])
    shape = list(a.shape)
    suffix = f", shape={shape}, dtype={dt})"
    debug = "DynTensor(" + np.array2string(a, separator=", ", prefix="DynTensor(", suffix=suffix) + suffix
    return {"name": name, "input": spec if spec is not None else tensor(a, dt), "str": str(a), "debug": debug}


def display_cases():
    nan, inf = float("nan"), float("inf")
    out = [
        display_case("f32_2x2", [[1, 2], [3, 4]], "float32"),
        display_case("f32_mixed", [1.5, 2.25, -0.125], "float32"),
        display_case("f32_tenths", [0.1, 0.2, 0.3], "float32"),
        display_case("f64_tenths", [0.1, 0.2, 0.1 + 0.2], "float64"),
        display_case("f32_thirds", np.arange(5) / 3, "float32"),
        display_case("f64_thirds", np.arange(5) / 3, "float64"),
        display_case("f32_big_exp", [1e8, 1.0], "float32"),
        display_case("f32_small_exp", [1e-5, 1.0], "float32"),
        display_case("f32_ratio_exp", [1.0, 5000.0], "float32"),
        display_case("f64_ratio_exp", [123456.789, 0.5, -7.0], "float64"),
        display_case("f64_exp3", [1e300, 1e-300, -2.5e-7], "float64"),
        display_case("f32_1e-4_edge", [0.0001, 0.1], "float32"),
        display_case("f64_1e-4_edge", [0.0001, 0.1], "float64"),
        display_case("f32_1e8_pair", [1e8, 2e8], "float32"),
        # numpy 2 switches to scientific at 1e3 for f16, 1e6 for f32, 1e8 for f64, and compares
        # with 1e-4 rounded to the array's dtype
        display_case("f16_cutoff_below", [999.5, 500.0], "float16"),
        display_case("f16_cutoff", [1000.0, 2000.0], "float16"),
        display_case("f32_cutoff_below", [999999.0, 5e5], "float32"),
        display_case("f32_cutoff", [1e6, 2e6], "float32"),
        display_case("f64_cutoff_below", [1e7, 2e7], "float64"),
        display_case("f64_cutoff", [1e8, 2e8], "float64"),
        display_case("f16_small_edge", [0.0001, 0.0002], "float16"),
        display_case("f32_small_edge", [0.0001, 0.0002], "float32"),
        display_case("f64_small_edge", [0.0001, 0.0002], "float64"),
        display_case("f64_below_small", [0.0000999, 0.0001], "float64"),
        display_case("f64_ties", [0.001953125, 1.0, 1.001953125], "float64"),
        display_case("f64_long_int", [12345678.9, 2.0], "float64"),
        display_case("f64_many_digits", [1.23456789012, 2.0], "float64"),
        display_case("nan_inf", [nan, 1.0, -inf], "float32"),
        display_case("all_nan", [nan, nan], "float32"),
        display_case("pos_inf", [inf, 2.5], "float64"),
        display_case("nan_exp", [nan, 1e10, 1.0], "float32"),
        display_case("neg_zero", [-0.0, 0.0, 1.0], "float32"),
        display_case("all_zero", [[0.0, 0.0]], "float64"),
        display_case("f16_exp", [0.1, 0.2, 65504], "float16"),
        display_case("f16_plain", [0.1, 0.25, 3.0, -7.5], "float16"),
        display_case("f16_small", [1e-3, 2e-3], "float16"),
        display_case("f16_neg_exp", [-1e-5, 1.0], "float16"),
        display_case("f16_inf", [65504, -inf, 1.0], "float16"),
        display_case("i32", [1, -20, 300], "int32"),
        display_case("u8", [[0, 255, 7]], "uint8"),
        display_case("i8", [-128, 127, 0], "int8"),
        display_case("i16", [-3, 1000], "int16"),
        display_case("u16", [65535, 1], "uint16"),
        display_case("u32", [4294967295, 0], "uint32"),
        display_case("i64", [-2**63, 2**63 - 1], "int64"),
        display_case("u64", [2**64 - 1, 0, 12], "uint64"),
        display_case("bool", [True, False], "bool"),
        display_case("bool_col", [[True], [True]], "bool"),
        display_case("scalar_f32_one", 1.0, "float32"),
        display_case("scalar_f32_big", 1e20, "float32"),
        display_case("scalar_f32_1e-4", 0.0001, "float32"),
        display_case("scalar_f32_1e8", 1e8, "float32"),
        display_case("scalar_f32_third", 1 / 3, "float32"),
        display_case("scalar_f16_max", 65504, "float16"),
        display_case("scalar_f16_999", 999.5, "float16"),
        display_case("scalar_f16_1000", 1000, "float16"),
        display_case("scalar_f16_1e-4", 0.0001, "float16"),
        display_case("scalar_f16_tiny", 9.9e-5, "float16"),
        display_case("scalar_f32_1e6", 1e6, "float32"),
        display_case("scalar_f32_999999", 999999, "float32"),
        display_case("scalar_f64_1e15", 1e15, "float64"),
        display_case("scalar_f64_1e16", 1e16, "float64"),
        display_case("scalar_f64_third", 1 / 3, "float64"),
        display_case("scalar_f64_sci", 1.5e-7, "float64"),
        display_case("scalar_nan", nan, "float32"),
        display_case("scalar_neg_inf", -inf, "float64"),
        display_case("scalar_neg_zero", -0.0, "float32"),
        display_case("scalar_i32", -5, "int32"),
        display_case("scalar_u64", 2**64 - 1, "uint64"),
        display_case("scalar_bool", True, "bool"),
        display_case("empty_0x3", np.zeros((0, 3)), "float32"),
        display_case("empty_2x0", np.zeros((2, 0)), "int32"),
        display_case("rank3", np.arange(12).reshape(2, 2, 3) - 5.5, "float32"),
        display_case("rank4_ones", np.arange(6).reshape(1, 2, 1, 3), "int64"),
        display_case("wrap_f32", np.linspace(-3, 7, 30), "float32"),
        display_case("wrap_i64", [(-1) ** i * 10**i for i in range(18)] * 2, "int64"),
        display_case("wrap_rows_f64", np.linspace(0, 1, 60).reshape(3, 20), "float64"),
        display_case("wrap_bool", [i % 3 == 0 for i in range(40)], "bool"),
        display_case("wrap_exp", np.geomspace(1e-6, 1e6, 25), "float64"),
    ]
    big = [("sum_1d_f32", "float32", [2000], -50.0, 50.0), ("sum_2d_f32", "float32", [40, 50], -1.0, 1.0),
           ("sum_3d_i32", "int32", [11, 10, 12], -1000, 1000), ("sum_bool", "bool", [1001], 0, 1),
           ("sum_f16_rows", "float16", [3, 400], 0.0, 100.0), ("sum_f64_exp", "float64", [5, 300], 1e-3, 1e4),
           ("sum_1_col", "uint8", [1500, 1], 0, 255)]
    for i, (name, dt, shape, lo, hi) in enumerate(big):
        a, spec = pattern(dt, shape, 100 + i, lo, hi)
        out.append(display_case(name, a, dt, spec))
    return out


if __name__ == "__main__":
    warnings.simplefilter("ignore", RuntimeWarning)  # casts of inf and NaN are intended
    write("ops_creation", fill_cases())
    write("ops_creation_random", random_cases())
    write("ops_creation_display", display_cases())
