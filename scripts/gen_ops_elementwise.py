"""Generates fixtures/ops_elementwise_*.json: reference values for the elementwise ops of
tg-ops (DynTensor methods), computed with numpy and scipy in float64, or with exact Python
integers, from the semantics documented in tg-ops/src/untyped/elementwise/.

Where tg follows tinygrad rather than numpy (integer true division gives float32, scalars are
weak, tinygrad's promotion lattice, clamp's order), the expected values are written from
tinygrad's rule here, with a comment. Float results are computed in float64 from the inputs as
tg sees them (integers converted to float32 first) and rounded once to the output dtype.

A case: {"name", "op", "args", "inputs": [tensor specs], "out", "rtol", "atol"}. Operands of
binary ops are {"input": i} or {"scalar": v, "kind": "float"|"int"|"bool"}.

Run: python3 scripts/gen_ops_elementwise.py   (numpy, scipy; deterministic output)"""

import math

import numpy as np
from scipy import special

from fixtures_common import DTYPES, FLOATS, INTS, int_range, is_float, pattern, tensor, wrap, write

rng = np.random.default_rng(20240611)
NAN, INF = float("nan"), float("inf")

# Below these, a device may flush results to zero (f32/f64: the smallest normal; f16: tg
# computes in f32 and rounds, so one f16 subnormal step).
TINY = {"float16": 6e-8, "float32": 1.1754943508222875e-38, "float64": 2.2250738585072014e-308}

# --- tinygrad's promotion lattice (tinygrad/dtype.py, bfloat16 and fp8 left out) -----------
PRIORITY = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
            "float64"]
PARENTS = {"bool": ["int8", "uint8"], "int8": ["int16"], "uint8": ["int16", "uint16"], "int16": ["int32"],
           "uint16": ["int32", "uint32"], "int32": ["int64"], "uint32": ["int64", "uint64"], "int64": ["float16"],
           "uint64": ["float16"], "float16": ["float32"], "float32": ["float64"], "float64": []}


def ancestors(dt):
    out = {dt}
    for p in PARENTS[dt]:
        out |= ancestors(p)
    return out


def least_upper(*dts):
    common = set.intersection(*[ancestors(d) for d in dts])
    return min(common, key=PRIORITY.index)


def weak(dt, kind):
    """tinygrad's weak scalars: a float scalar lifts ints and bool to the default float, an int
    scalar lifts bool to the default int; otherwise the tensor's dtype wins."""
    if kind == "float" and not is_float(dt):
        return "float32"
    if kind == "int" and dt == "bool":
        return "int32"
    return dt


# --- values ----------------------------------------------------------------------------------
def convert(values, src, dst):
    """tg's cast of a list of Python values from src to dst (ints wrap, floats saturate,
    NaN -> 0, anything -> bool is != 0)."""
    out = []
    for v in values:
        if dst == "bool":
            out.append(bool(v != 0) or (isinstance(v, float) and math.isnan(v)))
        elif is_float(dst):
            out.append(float(np.array(float(v) if src != "bool" else float(bool(v))).astype(DTYPES[dst])))
        elif is_float(src):
            if math.isnan(v):
                out.append(0)
            else:
                lo, hi = int_range(dst)
                out.append(hi if v == INF else lo if v == -INF else max(lo, min(hi, int(math.trunc(v)))))
        else:
            out.append(wrap(int(v), dst))
    return out


def arr(values, dt):
    if is_float(dt):
        return np.array([float(v) for v in values], dtype=np.float64).astype(DTYPES[dt])
    return np.array(values, dtype=DTYPES[dt])


def f64(values, dt):
    """The values as tg's float math sees them: floats as they are, others through float32."""
    src = values if is_float(dt) else convert(values, dt, "float32")
    return np.array([float(v) for v in src], dtype=np.float64)


def float_out(dt):
    return dt if is_float(dt) else "float32"


def spec(values, dt, shape=None):
    a = arr(values, dt)
    return tensor(a.reshape(shape) if shape is not None else a, dt)


def case(name, op, inputs, out_values, out_dt, rtol=0.0, atol=0.0, args=None, out_shape=None):
    """inputs: specs from `spec` or `pattern`; out_values: a flat list or array."""
    return {"name": name, "op": op, "args": args or {}, "inputs": inputs,
            "out": spec(list(np.asarray(out_values, dtype=object).reshape(-1)), out_dt, out_shape),
            "rtol": rtol, "atol": atol}


def with_f16_range(values):
    return [v for v in values if not (isinstance(v, float) and math.isfinite(v) and abs(v) > 60000)]


GENERIC = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 1e-7, -1e-7, 1e-3, 0.1, 0.7, 1.5, 10.0, -10.0,
           30.0, -30.0, NAN, INF, -INF]


def randoms(n, lo, hi):
    return list(rng.uniform(lo, hi, n))


# --- unary float math --------------------------------------------------------------------------
# name: (reference on float64 arrays, input values, f32 tolerance (rtol, atol), f64 rtol)
# f32 tolerances are a few ulp (1 ulp = 6e-8 to 1.2e-7 relative); f16 uses 1e-3 (one f16 ulp:
# tg computes in f32 and rounds once); f64 uses the given rtol.
PI = math.pi
LOG_VALUES = [0.0, -0.0, -1.0, 1.0, 1.0001, 0.9999, 1 + 2 ** -20, 1 - 2 ** -20, 0.5, 0.51, 0.75, 1.5, 1.99, 2.0, 2.01,
              1e-30, 1e-5, 0.1, 10.0, 1e10, 3e38, INF, NAN] + [10.0 ** e for e in rng.uniform(-6, 6, 12)]
TRIG_VALUES = [0.0, -0.0, PI / 6, PI / 4, PI / 2, -PI / 2, PI, 3 * PI / 2, 2 * PI, 1.0, -1.0, 10.0, -10.0, 100.0, -100.0,
               1000.0, 1e-5, 0.5, 3.14, 1.5707, INF, -INF, NAN] + randoms(16, -20, 20)
UNIT_VALUES = [-1.0, -0.999, -0.9, -0.5, -0.1, -1e-5, 0.0, -0.0, 1e-5, 0.1, 0.5, 0.7071, 0.9, 0.999, 0.9999999, 1.0,
               1.5, -2.0, NAN, INF] + randoms(12, -1, 1)
HYP_VALUES = [0.0, -0.0, 1e-7, 1e-4, -1e-4, 0.1, 0.3, 0.5, -0.5, 0.7, 1.0, -1.0, 5.0, 19.9, 20.1, -20.1, 50.0, 88.0,
              89.0, 89.5, -89.0, 100.0, NAN, INF, -INF] + randoms(8, -10, 10)

UNARY = {
    "reciprocal": (lambda x: 1.0 / x, GENERIC + [1e-30, 1e30, 7.0], (2.5e-7, 0.0), 1e-15),
    "sqrt": (np.sqrt, [0.0, -0.0, 1.0, 2.0, 4.0, 0.25, 1e-30, 1e30, -1.0, 1e-5, 3.0, INF, NAN] + randoms(8, 0, 100),
             (2.5e-7, 0.0), 1e-15),
    "rsqrt": (lambda x: 1.0 / np.sqrt(x), [0.0, 1.0, 2.0, 4.0, 0.25, 1e-30, 1e30, -1.0, 1e-5, 3.0, INF, NAN],
              (3e-7, 0.0), 1e-15),
    "exp": (np.exp, GENERIC + [20.0, -20.0, 50.0, -50.0, 80.0, -80.0, 88.5, -87.3, 89.0, 100.0, -100.0, -200.0, 1e-5,
                               -1e-5, 7.25] + randoms(12, -30, 30), (4e-7, 0.0), 1e-14),
    "exp2": (np.exp2, GENERIC + [10.0, -10.0, 100.0, -100.0, 127.5, -125.9, 0.25, 130.0] + randoms(8, -30, 30),
             (2.5e-7, 0.0), 1e-15),
    "log": (np.log, LOG_VALUES, (3e-7, 0.0), 1e-15),
    "log2": (np.log2, LOG_VALUES, (3e-7, 0.0), 1e-15),
    # f64: the runtime's f64 sin primitive reduces by pi/2 with a second part off by 2e-21, so
    # sin(k pi) is off by k 4e-21 (absolute): the atol below (tg-runtime's tg_sin_d)
    "sin": (np.sin, TRIG_VALUES, (2.5e-7, 1e-7), 1e-15),
    "cos": (np.cos, TRIG_VALUES, (3e-7, 1e-7), 1e-15),
    "tan": (np.tan, TRIG_VALUES, (5e-7, 1e-7), 1e-15),
    "asin": (np.arcsin, UNIT_VALUES, (3e-7, 0.0), 1e-15),
    "acos": (np.arccos, UNIT_VALUES, (3e-7, 0.0), 1e-15),
    "atan": (np.arctan, GENERIC + [1e10, -1e10, 0.4142, 0.42, 0.41, 2.414, 100.0] + randoms(8, -5, 5),
             (3e-7, 0.0), 1e-15),
    "sinh": (np.sinh, HYP_VALUES, (4e-7, 0.0), 1e-14),
    "cosh": (np.cosh, HYP_VALUES, (4e-7, 0.0), 1e-14),
    "tanh": (np.tanh, HYP_VALUES + [9.0, 10.0, -20.0], (3e-7, 0.0), 1e-15),
    "asinh": (np.arcsinh, GENERIC + [1e-5, 1e4, -1e4, 1e20, 5000.0, 4095.0, 4097.0] + randoms(8, -50, 50),
              (3e-7, 0.0), 1e-15),
    "acosh": (np.arccosh, [1.0, 1 + 1e-6, 1.0001, 1.5, 2.0, 10.0, 100.0, 4095.0, 4097.0, 1e20, 0.5, 0.0, -1.0, INF,
                           NAN] + randoms(8, 1, 50), (3e-7, 0.0), 1e-15),
    "atanh": (np.arctanh, [-1.0, 1.0, 0.0, -0.0, 1e-5, -1e-5, 0.1, 0.5, -0.5, 0.9, 0.999, -0.999, 2.0, NAN]
              + randoms(8, -1, 1), (3e-7, 0.0), 1e-15),
    "erf": (special.erf, GENERIC + [0.25, 0.49, 0.51, 0.8, 1.2, 3.5, 4.0, 6.0, -6.0, 1e-10, 1e-3] + randoms(8, -4, 4),
            (4e-7, 0.0), 1e-14),
}

# integer inputs inside each function's domain (int32 -> float32 results)
INT_DOMAIN = {"sqrt": [0, 1, 2, 4, 9, 100, -1], "rsqrt": [1, 2, 4, 100, 0], "log": [1, 2, 10, 1000, 0, -3],
              "log2": [1, 2, 8, 1000, 0, -3], "asin": [-1, 0, 1, 2], "acos": [-1, 0, 1, 2], "acosh": [1, 2, 10, 0],
              "atanh": [0, 1, -1, 2]}


def unary_cases():
    out = []
    for op, (ref, values, (rtol32, atol32), rtol64) in UNARY.items():
        for dt in FLOATS:
            vals = with_f16_range(values) if dt == "float16" else values
            x = arr(vals, dt)
            with np.errstate(all="ignore"):
                want = ref(x.astype(np.float64)).astype(DTYPES[dt])
            rtol, atol = {"float16": (1e-3, 0.0), "float32": (rtol32, atol32), "float64": (rtol64, 0.0)}[dt]
            if op == "sin" and dt == "float64":
                atol = 1e-19
            out.append(case(f"{op}/{dt}", op, [tensor(x, dt)], want, dt, rtol, max(atol, TINY[dt])))
        # integers and bool compute in float32 (tinygrad's default float)
        ints = INT_DOMAIN.get(op, [-3, -1, 0, 1, 2, 5])
        for dt, vals in [("int32", ints), ("uint8", [v for v in ints if 0 <= v <= 255]), ("bool", [False, True])]:
            with np.errstate(all="ignore"):
                want = ref(f64(vals, dt)).astype(np.float32)
            out.append(case(f"{op}/{dt}", op, [spec(vals, dt)], want, "float32", rtol32, max(atol32, TINY["float32"])))
    # a larger input through the pattern generator, in 2-D
    for op in ["exp", "log", "tanh", "erf", "sin"]:
        lo, hi = (0.01, 50.0) if op == "log" else (-8.0, 8.0)
        x, xs = pattern("float32", (7, 61), len(out), lo, hi)
        want = UNARY[op][0](x.astype(np.float64)).astype(np.float32)
        out.append(case(f"{op}/pattern", op, [xs], want, "float32", 2 * UNARY[op][2][0], TINY["float32"],
                        out_shape=[7, 61]))
    # empty and rank-0
    out.append(case("exp/empty", "exp", [spec([], "float32", [0, 3])], [], "float32", out_shape=[0, 3]))
    out.append(case("exp/rank0", "exp", [spec([1.0], "float32", [])], [math.e], "float32", 3e-7, out_shape=[]))
    return out


# --- sign, magnitude, rounding ---------------------------------------------------------------
def exact_unary_cases():
    out = []
    fvals = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, -3.5, 0.49999997, -0.49999997, 0.50000006, 1.7, -1.7,
             7.0, -7.0, 4194304.5, -4194304.5, 8388609.0, 1e30, -1e30, 1e-30, INF, -INF, NAN] + randoms(10, -100, 100)
    refs = {"trunc": np.trunc, "floor": np.floor, "ceil": np.ceil, "round": np.round,  # numpy rounds half to even
            "neg": np.negative, "abs": np.abs, "square": np.square,
            # sign: NaN propagates (numpy); tinygrad's composition gives 1
            "sign": np.sign}
    for op, ref in refs.items():
        for dt in FLOATS:
            vals = with_f16_range(fvals) if dt == "float16" else fvals
            x = arr(vals, dt)
            with np.errstate(all="ignore"):
                want = ref(x)
            out.append(case(f"{op}/{dt}", op, [tensor(x, dt)], want, dt))
        for dt in INTS:
            lo, hi = int_range(dt)
            vals = [0, 1, 2, 7, hi, hi - 1, lo, lo + 1] + ([-1, -2, -7] if lo < 0 else [200 % (hi + 1)])
            if op in ("trunc", "floor", "ceil", "round"):
                want = vals  # integers are unchanged
            elif op == "neg":
                want = [wrap(-v, dt) for v in vals]  # wraps, as C and numpy
            elif op == "abs":
                want = [wrap(abs(v), dt) for v in vals]  # abs(MIN) wraps to MIN
            elif op == "square":
                want = [wrap(v * v, dt) for v in vals]
            else:
                want = [(v > 0) - (v < 0) for v in vals]
            out.append(case(f"{op}/{dt}", op, [spec(vals, dt)], want, dt))
    # bool: neg is logical not (tinygrad), abs and sign unchanged, rounding unchanged
    b = [False, True]
    out.append(case("neg/bool", "neg", [spec(b, "bool")], [True, False], "bool"))
    for op in ["abs", "sign", "trunc", "round"]:
        out.append(case(f"{op}/bool", op, [spec(b, "bool")], b, "bool"))
    return out


# --- activations -------------------------------------------------------------------------------
SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def where_neg(x, pos, neg):
    """pos where x > 0 else neg; NaN takes neg's value (NaN)."""
    return np.where(x > 0, pos, neg)


ACT_VALUES = GENERIC + [-5.0, -8.0, 5.0, 8.0, 20.0, -20.0, 40.0, -40.0, 90.0, -90.0, -100.0, 100.0, 1e-5, -1e-5,
                        6.0, 7.5, -3.5, 2.9]

# name: (args, reference, f32 rtol); atol is the flush-to-zero allowance
ACTIVATIONS = {
    # relu/relu6 keep the dtype and NaN (tinygrad's `(x > 0).where(x, 0)` gives relu(NaN) = 0)
    "relu": ({}, lambda x, a: np.where(x < 0, 0.0, x), 0.0),
    "relu6": ({}, lambda x, a: np.where(x < 0, 0.0, np.where(x > 6, 6.0, x)), 0.0),
    "leaky_relu": ({"negative_slope": 0.1}, lambda x, a: np.where(x < 0, a["negative_slope"] * x, x), 1.2e-7),
    "elu": ({"alpha": 1.0}, lambda x, a: where_neg(x, x, a["alpha"] * np.expm1(x)), 4e-7),
    "elu_a": ({"alpha": 0.5}, lambda x, a: where_neg(x, x, a["alpha"] * np.expm1(x)), 4e-7),
    "celu": ({"alpha": 2.0}, lambda x, a: where_neg(x, x, a["alpha"] * np.expm1(x / a["alpha"])), 4e-7),
    # the paper's constants (tinygrad rounds them to 1.67326, 1.0507)
    "selu": ({}, lambda x, a: SELU_SCALE * where_neg(x, x, SELU_ALPHA * np.expm1(x)), 4e-7),
    # tanh approximation: 0.5 x (1 + tanh(y)) == x expit(2y), which float64 keeps accurate in the tail
    "gelu": ({}, lambda x, a: x * special.expit(2 * SQRT_2_OVER_PI * (x + 0.044715 * x ** 3)), 1e-6),
    # exact: 0.5 x (1 + erf(x / sqrt 2)) == 0.5 x erfc(-x / sqrt 2)
    "gelu_erf": ({}, lambda x, a: 0.5 * x * special.erfc(-x / math.sqrt(2)), 1e-6),
    "quick_gelu": ({}, lambda x, a: x * special.expit(1.702 * x), 6e-7),
    "silu": ({}, lambda x, a: x * special.expit(x), 5e-7),
    "mish": ({}, lambda x, a: x * np.tanh(np.logaddexp(x, 0.0)), 1e-6),
    # log(1 + e^(beta x)) / beta without torch's threshold (a difference below 2e-9)
    "softplus": ({"beta": 1.0}, lambda x, a: np.logaddexp(a["beta"] * x, 0.0) / a["beta"], 4e-7),
    "softplus_b": ({"beta": 2.0}, lambda x, a: np.logaddexp(a["beta"] * x, 0.0) / a["beta"], 4e-7),
    "softsign": ({}, lambda x, a: x / (1 + np.abs(x)), 2.5e-7),
    "sigmoid": ({}, lambda x, a: special.expit(x), 4e-7),
    "logsigmoid": ({}, lambda x, a: special.log_expit(x), 4e-7),
    "hardsigmoid": ({}, lambda x, a: np.clip(x / 6 + 0.5, 0.0, 1.0), 2.5e-7),
    "hardswish": ({}, lambda x, a: x * np.clip(x + 3, 0.0, 6.0) / 6, 2.5e-7),
    "hardtanh": ({"min_val": -2.0, "max_val": 0.5}, lambda x, a: np.clip(x, a["min_val"], a["max_val"]), 0.0),
}


def activation_cases():
    """Each activation on its core range (|x| <= 4, and the special values) with tight
    tolerances, and on its tails: where a result is e^y for a large |y| (gelu, silu, ... at very
    negative x), rounding the argument y in float32 costs |y| ulps of relative accuracy, as it
    does in any float32 evaluation; and intermediates below float32's smallest normal flush
    to zero, hence the tails' atol."""
    out = []
    core = [v for v in ACT_VALUES if not (abs(v) > 4)]
    tail = [v for v in ACT_VALUES if abs(v) > 4 and math.isfinite(v)]
    for name, (args, ref, rtol32) in ACTIVATIONS.items():
        op = name.split("_")[0] if name in ("elu_a", "softplus_b") else name
        for part, values in [("core", core), ("tail", tail)]:
            for dt in FLOATS:
                vals = with_f16_range(values) if dt == "float16" else values
                x = arr(vals, dt)
                with np.errstate(all="ignore"):
                    want = ref(x.astype(np.float64), args).astype(DTYPES[dt])
                if not rtol32:
                    rtol, atol = 0.0, 0.0
                elif part == "core":
                    rtol, atol = {"float16": 1e-3, "float32": rtol32, "float64": 1e-14}[dt], TINY[dt]
                else:
                    rtol, atol = {"float16": 1e-3, "float32": 4e-5, "float64": 1e-12}[dt], 1e3 * TINY[dt]
                out.append(case(f"{name}/{dt}/{part}", op, [tensor(x, dt)], want, dt, rtol, atol, args))
        vals = [-5, -1, 0, 1, 3, 7]
        with np.errstate(all="ignore"):
            want = ref(np.array(vals, np.float64), args)
        if op in ("relu", "relu6"):  # exact on integers: the dtype stays
            out.append(case(f"{name}/int32", op, [spec(vals, "int32")], want.astype(np.int32), "int32", 0.0, 0.0, args))
            out.append(case(f"{name}/int8", op, [spec(vals, "int8")], want.astype(np.int8), "int8", 0.0, 0.0, args))
        else:  # float functions: integers give float32
            out.append(case(f"{name}/int32", op, [spec(vals, "int32")], want.astype(np.float32), "float32", 4 * rtol32,
                            TINY["float32"], args))
    x, xs = pattern("float32", (3, 5, 40), 99, -12.0, 12.0)
    out.append(case("gelu_erf/pattern", "gelu_erf", [xs], 0.5 * x * special.erfc(-x.astype(np.float64) / math.sqrt(2)),
                    "float32", 4e-5, TINY["float32"], out_shape=[3, 5, 40]))
    return out


# --- binary arithmetic -----------------------------------------------------------------------
def operand(i):
    return {"input": i}


def scalar(v, kind):
    return {"scalar": v, "kind": kind}


def float_binary(op, a, b):
    with np.errstate(all="ignore"):
        if op == "add":
            return a + b
        if op == "sub":
            return a - b
        if op == "mul":
            return a * b
        if op == "div":
            return a / b
        if op == "maximum":
            return np.maximum(a, b)
        if op == "minimum":
            return np.minimum(a, b)
        if op == "floor_div":
            return np.floor_divide(a, b)
        if op == "modulo":
            return np.remainder(a, b)
        if op == "idiv":
            # tg's float idiv: trunc of the exact quotient; a / 0 as floor_div; NaN for inf / y
            q = (a - np.fmod(a, b)) / b
            q = np.where(np.isinf(b) & np.isfinite(a), a * 0.0, q)
            return np.where(b == 0, a / b, q)
        if op == "pow":
            return np.power(a, b)
    raise ValueError(op)


def int_binary(op, a, b, dt):
    """Python-integer semantics of tg's integer ops, wrapped into dt."""
    if op == "add":
        r = a + b
    elif op == "sub":
        r = a - b
    elif op == "mul":
        r = a * b
    elif op == "maximum":
        r = max(a, b)
    elif op == "minimum":
        r = min(a, b)
    elif op == "idiv":  # truncating; x / 0 == 0
        r = 0 if b == 0 else (abs(a) // abs(b)) * (1 if (a >= 0) == (b > 0) else -1)
    elif op == "floor_div":  # Python's //; x // 0 == 0 (numpy)
        r = 0 if b == 0 else a // b
    elif op == "modulo":  # Python's %; x % 0 == 0 (numpy)
        r = 0 if b == 0 else a % b
    elif op == "pow":  # exact, wrapping; negative exponents give 0 except for bases 1 and -1
        r = (1 if a == 1 else ((-1 if b % 2 else 1) if a == -1 else 0)) if b < 0 else pow(a, b)
    else:
        raise ValueError(op)
    return wrap(r, dt)


def expected(op, va, vb, dt_a, dt_b, out_dt=None):
    """The result of `a op b` for flat value lists, after tinygrad's promotion to out_dt."""
    dt = out_dt or least_upper(dt_a, dt_b)
    if op == "div":
        # true division: integers and bool give float32 (tinygrad; numpy gives float64)
        fdt = dt if is_float(dt) else "float32"
        a, b = np.array(convert(va, dt_a, fdt), np.float64), np.array(convert(vb, dt_b, fdt), np.float64)
        return float_binary(op, a, b).astype(DTYPES[fdt]), fdt
    a, b = convert(va, dt_a, dt), convert(vb, dt_b, dt)
    if is_float(dt):
        with np.errstate(all="ignore"):  # float16 overflows to inf, as on the device
            return float_binary(op, np.array(a, np.float64), np.array(b, np.float64)).astype(DTYPES[dt]), dt
    if dt == "bool":
        f = {"add": lambda x, y: x or y, "mul": lambda x, y: x and y, "maximum": lambda x, y: x or y,
             "minimum": lambda x, y: x and y}[op]
        return [f(x, y) for x, y in zip(a, b)], dt
    return [int_binary(op, x, y, dt) for x, y in zip(a, b)], dt


def cross(xs, ys):
    return [x for x in xs for _ in ys], [y for _ in xs for y in ys]


def int_edges(dt):
    lo, hi = int_range(dt)
    return [0, 1, 2, 3, 7, hi, hi - 1, lo, lo + 1] + ([-1, -2, -3, -7] if lo < 0 else [100])


FLOAT_EDGES = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 7.0, -7.0, 0.25, 5.5, 1e30, NAN, INF, -INF]

# f32 tolerances: + - * maximum minimum are exact; / is a * (1/b) (within 1.5 ulp); the float
# remainders are exact for these dyadic values; pow is the runtime's (up to a few ulp)
FLOAT_TOL = {"add": 0.0, "sub": 0.0, "mul": 0.0, "maximum": 0.0, "minimum": 0.0, "div": 2.5e-7, "idiv": 0.0,
             "floor_div": 0.0, "modulo": 0.0, "pow": 4e-6}


def binary_cases():
    out = []
    ops = ["add", "sub", "mul", "div", "idiv", "floor_div", "modulo", "maximum", "minimum"]
    for op in ops:
        for dt in FLOATS + INTS + ["bool"]:
            if dt == "bool" and op not in ("add", "mul", "maximum", "minimum"):
                continue
            if dt == "bool":
                a, b = cross([False, True], [False, True])
            elif is_float(dt):
                edges = with_f16_range(FLOAT_EDGES) if dt == "float16" else FLOAT_EDGES
                if op in ("modulo", "floor_div", "idiv"):  # tg's float remainder: |a / b| < 2^24
                    edges = [1e6 if v == 1e30 else v for v in edges]
                a, b = cross(edges, edges)
                ra, rb = list(rng.uniform(-50, 50, 16)), list(rng.uniform(-50, 50, 16))
                if op in ("modulo", "floor_div", "idiv"):  # quarters: products q * b stay exact
                    ra, rb = [round(v * 4) / 4 for v in ra], [round(v * 4) / 4 or 0.25 for v in rb]
                a, b = a + ra, b + rb
            else:
                a, b = cross(int_edges(dt), int_edges(dt)[:9])
            want, out_dt = expected(op, a, b, dt, dt)
            rtol = 0.0
            if is_float(out_dt):
                rtol = {"float16": 1e-3 if FLOAT_TOL[op] else 0.0, "float32": FLOAT_TOL[op],
                        "float64": 2.5e-16 if FLOAT_TOL[op] else 0.0}[out_dt]
            out.append(case(f"{op}/{dt}", op, [spec(a, dt), spec(b, dt)], want, out_dt, rtol, 0.0,
                            {"lhs": operand(0), "rhs": operand(1)}))
    # |a| far below |b|: the remainder a + b rounds to b, the quotient stays -1 (numpy)
    a, b = [-1.0, 1.0, -2.5, 0.0, -0.0, 3.0], [1e30, -1e30, 1e30, 1e30, -1e30, 1e30]
    for op in ["floor_div", "modulo", "idiv"]:
        for dt in ["float32", "float64"]:
            want, _ = expected(op, a, b, dt, dt)
            out.append(case(f"{op}/{dt}/small_over_huge", op, [spec(a, dt), spec(b, dt)], want, dt, 0.0, 0.0,
                            {"lhs": operand(0), "rhs": operand(1)}))
    # float remainders of general values: a - q b in float32 is within an ulp of |a|
    a, b = list(rng.uniform(-100, 100, 24)), list(rng.uniform(-10, 10, 24))
    for op in ["modulo", "floor_div"]:
        want, _ = expected(op, a, b, "float32", "float32")
        out.append(case(f"{op}/float32/general", op, [spec(a, "float32"), spec(b, "float32")], want, "float32",
                        1e-6, 2e-5, {"lhs": operand(0), "rhs": operand(1)}))
    out += pow_cases()
    out += promotion_cases()
    return out


def pow_cases():
    out = []
    bases = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, 3.0, -3.0, 10.0, INF, -INF, NAN]
    exps = [0.0, 1.0, 2.0, 3.0, -1.0, -2.0, 0.5, -0.5, 2.5, 5.0, INF, -INF, NAN]
    for dt in FLOATS:
        a, b = cross(bases, exps)
        want, _ = expected("pow", a, b, dt, dt)
        rtol = {"float16": 1e-3, "float32": 4e-6, "float64": 1e-14}[dt]
        out.append(case(f"pow/{dt}", "pow", [spec(a, dt), spec(b, dt)], want, dt, rtol, TINY[dt],
                        {"lhs": operand(0), "rhs": operand(1)}))
    # negative bases with integral exponents keep their sign; fractional ones are NaN
    a, b = cross([-2.0, -1.5, -0.5, -8.0], [2.0, 3.0, 7.0, -3.0, 0.5, 1.0 / 3])
    want, _ = expected("pow", a, b, "float32", "float32")
    out.append(case("pow/float32/negative_bases", "pow", [spec(a, "float32"), spec(b, "float32")], want, "float32",
                    4e-6, 0.0, {"lhs": operand(0), "rhs": operand(1)}))
    for dt in ["int32", "int8", "uint8", "int64"]:
        lo, _ = int_range(dt)
        bs = [0, 1, 2, 3, 5, 7] + ([-1, -2, -3] if lo < 0 else [])
        es = [0, 1, 2, 3, 5, 9, 30] + ([-1, -2] if lo < 0 else [])
        a, b = cross(bs, es)
        want, _ = expected("pow", a, b, dt, dt)
        out.append(case(f"pow/{dt}", "pow", [spec(a, dt), spec(b, dt)], want, dt, 0.0, 0.0,
                        {"lhs": operand(0), "rhs": operand(1)}))
    # scalar exponents and bases (weak scalars)
    x = [-3.0, -2.0, -0.5, 0.0, 0.5, 2.0, 3.0]
    out.append(case("pow/float32/scalar2", "pow", [spec(x, "float32")], np.array(x) ** 2, "float32", 0.0, 0.0,
                    {"lhs": operand(0), "rhs": scalar(2, "int")}))
    with np.errstate(all="ignore"):
        out.append(case("pow/float32/scalar_half", "pow", [spec(x, "float32")],
                        np.power(np.array(x), 0.5).astype(np.float32), "float32", 4e-6, 0.0,
                        {"lhs": operand(0), "rhs": scalar(0.5, "float")}))
    out.append(case("pow/float32/scalar_base", "pow", [spec(x, "float32")],
                    np.power(2.0, np.array(x)).astype(np.float32), "float32", 4e-6, 0.0,
                    {"lhs": scalar(2.0, "float"), "rhs": operand(0)}))
    xi = [-2, -1, 0, 1, 2, 3]
    out.append(case("pow/int32/scalar3", "pow", [spec(xi, "int32")], [v ** 3 for v in xi], "int32", 0.0, 0.0,
                    {"lhs": operand(0), "rhs": scalar(3, "int")}))
    # an integer tensor to a float scalar power is float32 (weak float scalar)
    with np.errstate(all="ignore"):
        out.append(case("pow/int32/scalar_half", "pow", [spec(xi, "int32")],
                        np.power(np.array(xi, np.float64), 0.5).astype(np.float32), "float32", 4e-6, 0.0,
                        {"lhs": operand(0), "rhs": scalar(0.5, "float")}))
    out.append(case("pow/int32/int_base", "pow", [spec([0, 1, 2, 10], "int32")], [1, 3, 9, 59049], "int32", 0.0, 0.0,
                    {"lhs": scalar(3, "int"), "rhs": operand(0)}))
    return out


def promotion_cases():
    """Operands of different dtypes, scalars on either side, and broadcasting."""
    out = []
    pairs = [("int8", "uint8"), ("int8", "int32"), ("uint8", "int16"), ("uint32", "int32"), ("int32", "float16"),
             ("float16", "float32"), ("bool", "int8"), ("bool", "float32"), ("uint16", "int8"), ("int64", "uint64"),
             ("float32", "float64"), ("uint8", "float16")]
    for da, db in pairs:
        va = [0, 1, 5, 100, 127] if da != "bool" else [False, True, True, False, True]
        vb = [3, 0, 2, 7, 120] if db != "bool" else [True, True, False, False, True]
        if da == "int8":
            va = [0, -1, 5, -100, 127]
        if db == "int8":
            vb = [3, -128, 2, -7, 120]
        for op in ["add", "mul", "div", "maximum"]:
            want, out_dt = expected(op, va, vb, da, db)
            rtol = {"float16": 1e-3, "float32": 2.5e-7, "float64": 2.5e-16}.get(out_dt, 0.0) if op == "div" else 0.0
            out.append(case(f"{op}/{da}+{db}", op, [spec(va, da), spec(vb, db)], want, out_dt, rtol, 0.0,
                            {"lhs": operand(0), "rhs": operand(1)}))
    # weak scalars: the tensor's dtype wins, except float scalar + int/bool tensor -> float32 and
    # int scalar + bool tensor -> int32; the scalar is converted (300 wraps to 44 in uint8)
    scalar_cases = [("uint8", [0, 1, 250], "add", 300, "int"), ("int8", [0, -1, 100], "add", 100, "int"),
                    ("int32", [1, 2, 3], "add", 2.5, "float"), ("int32", [1, 2, 3], "mul", 0.5, "float"),
                    ("bool", [False, True], "add", 3, "int"), ("bool", [False, True], "mul", 2.5, "float"),
                    ("float16", [1.0, 2.0, 0.1], "mul", 3.3, "float"), ("float16", [1.0, 2.0, 65504.0], "add", 1, "int"),
                    ("float32", [1.0, -2.0, 3.5], "sub", 1, "int"), ("uint8", [1, 2, 3], "sub", 2, "int"),
                    ("int32", [7, -7, 9], "floor_div", 2, "int"), ("int32", [7, -7, 9], "modulo", -4, "int"),
                    ("int32", [7, -7, 9], "div", 2, "int"), ("float32", [7.0, -7.0, 9.5], "modulo", 2, "int"),
                    ("int32", [1, 5, 9], "minimum", 4.5, "float")]
    for dt, vals, op, s, kind in scalar_cases:
        sdt = {"int": "int64", "float": "float64", "bool": "bool"}[kind]
        out_dt = weak(dt, kind)
        # the scalar takes the result dtype; for div, integers then go to float32
        want, res_dt = expected(op, vals, [s] * len(vals), out_dt, out_dt, None)
        sv = convert([s], sdt, out_dt)[0]
        want, res_dt = expected(op, convert(vals, dt, out_dt), [sv] * len(vals), out_dt, out_dt)
        rtol = 2.5e-7 if op == "div" else (1e-3 if res_dt == "float16" and op == "mul" else 0.0)
        out.append(case(f"{op}/{dt}_scalar_{kind}", op, [spec(vals, dt)], want, res_dt, rtol, 0.0,
                        {"lhs": operand(0), "rhs": scalar(s, kind)}))
        # the scalar on the left
        want_r, res_dt = expected(op, [sv] * len(vals), convert(vals, dt, out_dt), out_dt, out_dt)
        out.append(case(f"{op}/scalar_{kind}_{dt}", op, [spec(vals, dt)], want_r, res_dt, rtol, 0.0,
                        {"lhs": scalar(s, kind), "rhs": operand(0)}))
    # numpy broadcasting
    a = rng.uniform(-5, 5, (2, 1, 3)).astype(np.float32)
    b = rng.uniform(-5, 5, (4, 3)).astype(np.float32)
    out.append(case("add/broadcast", "add", [tensor(a, "float32"), tensor(b, "float32")], a + b, "float32", 0.0, 0.0,
                    {"lhs": operand(0), "rhs": operand(1)}, out_shape=[2, 4, 3]))
    c = np.array([1, 2, 3], np.int32)
    d = np.array(5, np.int16)
    out.append(case("mul/broadcast_rank0", "mul", [tensor(c, "int32"), tensor(d, "int16")], c * 5, "int32", 0.0, 0.0,
                    {"lhs": operand(0), "rhs": operand(1)}, out_shape=[3]))
    e = np.zeros((0, 3), np.float32)
    out.append(case("sub/broadcast_empty", "sub", [tensor(e, "float32"), tensor(np.ones((1, 3), np.float32), "float32")],
                    [], "float32", 0.0, 0.0, {"lhs": operand(0), "rhs": operand(1)}, out_shape=[0, 3]))
    x, xs = pattern("float32", (5, 50), 5, -10.0, 10.0)
    y, ys = pattern("float32", (1, 50), 6, 0.5, 4.0)
    out.append(case("div/pattern", "div", [xs, ys], (x.astype(np.float64) / y).astype(np.float32), "float32", 2.5e-7,
                    0.0, {"lhs": operand(0), "rhs": operand(1)}, out_shape=[5, 50]))
    return out


# --- comparisons, logical, bitwise, selection --------------------------------------------------
def compare_ref(op, a, b):
    # NaN compares false (ne true) in every comparison, as IEEE and numpy; tinygrad's le and ge
    # (`!(a > b)`, `!(a < b)`) would give true
    return {"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b, "eq": a == b, "ne": a != b}[op]


def logic_cases():
    out = []
    for op in ["lt", "le", "gt", "ge", "eq", "ne"]:
        for dt in ["float32", "float16", "int32", "uint8", "bool", "int64"]:
            if dt == "bool":
                a, b = cross([False, True], [False, True])
            elif is_float(dt):
                a, b = cross([0.0, -0.0, 1.0, -1.0, 2.5, NAN, INF, -INF], [0.0, 1.0, -1.0, NAN, INF])
            else:
                a, b = cross(int_edges(dt), int_edges(dt)[:6])
            want = [compare_ref(op, x, y) for x, y in zip(convert(a, dt, dt), convert(b, dt, dt))]
            out.append(case(f"{op}/{dt}", op, [spec(a, dt), spec(b, dt)], want, "bool", args={"lhs": operand(0),
                                                                                               "rhs": operand(1)}))
        # int8 vs uint8 meet in int16: -1 < 255
        a, b = [-1, 0, 127, -128], [255, 0, 128, 0]
        out.append(case(f"{op}/int8_vs_uint8", op, [spec(a, "int8"), spec(b, "uint8")],
                        [compare_ref(op, x, y) for x, y in zip(a, b)], "bool", args={"lhs": operand(0), "rhs": operand(1)}))
        # int tensor against a float scalar compares in float32; a scalar on the left
        xi = [1, 2, 3]
        out.append(case(f"{op}/int32_scalar_float", op, [spec(xi, "int32")], [compare_ref(op, x, 2.5) for x in xi],
                        "bool", args={"lhs": operand(0), "rhs": scalar(2.5, "float")}))
        out.append(case(f"{op}/scalar_int_float32", op, [spec([1.0, 2.0, NAN], "float32")],
                        [compare_ref(op, 2.0, x) for x in [1.0, 2.0, NAN]], "bool",
                        args={"lhs": scalar(2, "int"), "rhs": operand(0)}))
    # logical ops: any dtype, nonzero (and NaN) is true
    fvals = [0.0, -0.0, 1.0, NAN, -2.0]
    out.append(case("logical_not/float32", "logical_not", [spec(fvals, "float32")], [True, True, False, False, False],
                    "bool"))
    out.append(case("logical_not/int8", "logical_not", [spec([0, 1, -1], "int8")], [True, False, False], "bool"))
    out.append(case("logical_not/bool", "logical_not", [spec([False, True], "bool")], [True, False], "bool"))
    for op, f in [("logical_and", lambda x, y: x and y), ("logical_or", lambda x, y: x or y),
                  ("logical_xor", lambda x, y: x != y)]:
        a, b = cross([False, True], [False, True])
        out.append(case(f"{op}/bool", op, [spec(a, "bool"), spec(b, "bool")], [f(x, y) for x, y in zip(a, b)], "bool",
                        args={"lhs": operand(0), "rhs": operand(1)}))
        a, b = [0, 3, -1, 0], [0.0, 0.0, 2.5, NAN]
        out.append(case(f"{op}/int32_float32", op, [spec(a, "int32"), spec(b, "float32")],
                        [f(x != 0, y != 0 or math.isnan(y)) for x, y in zip(a, b)], "bool",
                        args={"lhs": operand(0), "rhs": operand(1)}))
    # bitwise ops on integers and bool
    for dt in INTS + ["bool"]:
        if dt == "bool":
            a, b = cross([False, True], [False, True])
        else:
            a, b = cross(int_edges(dt), int_edges(dt)[:7])
        for op, f in [("bitwise_and", lambda x, y: x & y), ("bitwise_or", lambda x, y: x | y),
                      ("bitwise_xor", lambda x, y: x ^ y)]:
            want = [bool(f(x, y)) if dt == "bool" else wrap(f(x, y), dt) for x, y in zip(a, b)]
            out.append(case(f"{op}/{dt}", op, [spec(a, dt), spec(b, dt)], want, dt,
                            args={"lhs": operand(0), "rhs": operand(1)}))
        vals = [False, True] if dt == "bool" else int_edges(dt)
        want = [not v for v in vals] if dt == "bool" else [wrap(~v, dt) for v in vals]
        out.append(case(f"bitwise_not/{dt}", "bitwise_not", [spec(vals, dt)], want, dt))
    # shifts: amounts outside 0..bits give 0 (or -1 for negative values shifted right), numpy's rule
    for dt in INTS:
        bits = np.dtype(DTYPES[dt]).itemsize * 8
        amounts = [0, 1, 3, bits - 1, bits, bits + 5] + ([-1] if int_range(dt)[0] < 0 else [])
        a, b = cross(int_edges(dt), amounts)
        shl = [0 if (s < 0 or s >= bits) else wrap(x << s, dt) for x, s in zip(a, b)]
        shr = [(-1 if x < 0 else 0) if (s < 0 or s >= bits) else (x >> s) for x, s in zip(a, b)]
        for op, want in [("shl", shl), ("shr", shr)]:
            out.append(case(f"{op}/{dt}", op, [spec(a, dt), spec(b, dt)], want, dt,
                            args={"lhs": operand(0), "rhs": operand(1)}))
    out.append(case("shl/uint8_scalar", "shl", [spec([1, 3, 31, 200], "uint8")], [4, 12, 124, 32], "uint8",
                    args={"lhs": operand(0), "rhs": scalar(2, "int")}))
    out.append(case("shr/scalar_int32", "shr", [spec([0, 1, 4], "int32")], [256, 128, 16], "int32",
                    args={"lhs": scalar(256, "int"), "rhs": operand(0)}))
    out += classify_cases() + select_cases()
    return out


def classify_cases():
    out = []
    vals = [0.0, -0.0, 1.0, -1.5, 1e30, NAN, INF, -INF]
    for dt in FLOATS:
        v = with_f16_range(vals)
        x = arr(v, dt)
        out.append(case(f"isnan/{dt}", "isnan", [tensor(x, dt)], np.isnan(x), "bool"))
        out.append(case(f"isfinite/{dt}", "isfinite", [tensor(x, dt)], np.isfinite(x), "bool"))
        for pos, neg in [(True, True), (True, False), (False, True), (False, False)]:
            want = (np.isposinf(x) & pos) | (np.isneginf(x) & neg)
            out.append(case(f"isinf/{dt}/{pos}_{neg}", "isinf", [tensor(x, dt)], want, "bool",
                            args={"detect_positive": pos, "detect_negative": neg}))
    for op, want in [("isnan", False), ("isinf", False), ("isfinite", True)]:
        out.append(case(f"{op}/int32", op, [spec([0, -5, 7], "int32")], [want] * 3, "bool",
                        args={"detect_positive": True, "detect_negative": True}))
    # isclose: numpy's formula |a - b| <= atol + rtol |b| for finite values, equal infinities,
    # and NaN == NaN only with equal_nan
    a = [1.0, 1.0, 1.0, 0.0, 1e-9, NAN, NAN, INF, INF, -INF, 1.0, 100.0, 5.0]
    b = [1.0, 1.000001, 1.0001, 1e-9, 0.0, NAN, 1.0, INF, -INF, -INF, INF, 100.001, 5.00004]
    for rtol, atol, equal_nan in [(1e-5, 1e-8, False), (1e-5, 1e-8, True), (0.0, 1e-3, False), (1e-3, 0.0, True)]:
        for dt in ["float32", "float64"]:
            x, y = arr(a, dt), arr(b, dt)
            want = np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)
            out.append(case(f"isclose/{dt}/{rtol}_{atol}_{equal_nan}", "isclose", [tensor(x, dt), tensor(y, dt)], want,
                            "bool", args={"rtol": rtol, "atol": atol, "equal_nan": equal_nan, "rhs": operand(1)}))
    xi, yi = [1, 100, 1000, -5], [1, 101, 1000, 5]
    out.append(case("isclose/int32_float32", "isclose", [spec(xi, "int32"), spec([1.0, 100.5, 1000.01, -5.0], "float32")],
                    np.isclose(np.array(xi, np.float32), np.array([1.0, 100.5, 1000.01, -5.0], np.float32), 1e-5, 1e-8),
                    "bool", args={"rtol": 1e-5, "atol": 1e-8, "equal_nan": False, "rhs": operand(1)}))
    out.append(case("isclose/int_scalar", "isclose", [spec(xi, "int32")], [x == 1000 for x in xi], "bool",
                    args={"rtol": 0.0, "atol": 0.5, "equal_nan": False, "rhs": scalar(1000, "int")}))
    del yi
    # allclose: a rank-0 bool
    for name, x, y, want in [("true", [1.0, 2.0], [1.0, 2.0000001], True), ("false", [1.0, 2.0], [1.0, 2.1], False),
                             ("empty", [], [], True)]:
        out.append(case(f"allclose/{name}", "allclose", [spec(x, "float32"), spec(y, "float32")], [want], "bool",
                        args={"rtol": 1e-5, "atol": 1e-8, "equal_nan": False, "rhs": operand(1)}, out_shape=[]))
    return out


def select_cases():
    out = []
    cond = [True, False, True, False]
    x, y = [1.5, 2.5, -3.0, NAN], [10.0, 20.0, 30.0, 40.0]
    out.append(case("where/float32", "where", [spec(cond, "bool"), spec(x, "float32"), spec(y, "float32")],
                    [a if c else b for c, a, b in zip(cond, x, y)], "float32", args={"x": operand(1), "y": operand(2)}))
    # the condition is any dtype, nonzero meaning true
    ci = [0, 3, -1, 0]
    out.append(case("where/int_cond", "where", [spec(ci, "int32"), spec(x, "float32"), spec(y, "float32")],
                    [a if c else b for c, a, b in zip(ci, x, y)], "float32", args={"x": operand(1), "y": operand(2)}))
    # branches meet like binary operands: int8 and uint8 -> int16; scalars are weak
    xa, yb = [-1, 2, 3, -4], [200, 100, 0, 255]
    out.append(case("where/int8_uint8", "where", [spec(cond, "bool"), spec(xa, "int8"), spec(yb, "uint8")],
                    [a if c else b for c, a, b in zip(cond, xa, yb)], "int16", args={"x": operand(1), "y": operand(2)}))
    out.append(case("where/tensor_scalar", "where", [spec(cond, "bool"), spec(xa, "int8")],
                    [a if c else 0 for c, a in zip(cond, xa)], "int8", args={"x": operand(1), "y": scalar(0, "int")}))
    out.append(case("where/int_tensor_float_scalar", "where", [spec(cond, "bool"), spec(xa, "int8")],
                    [float(a) if c else 0.5 for c, a in zip(cond, xa)], "float32",
                    args={"x": operand(1), "y": scalar(0.5, "float")}))
    # two scalars: the default int, or the default float if either is a float (tinygrad)
    out.append(case("where/scalars_int", "where", [spec(cond, "bool")], [1 if c else 3 for c in cond], "int32",
                    args={"x": scalar(1, "int"), "y": scalar(3, "int")}))
    out.append(case("where/scalars_float", "where", [spec(cond, "bool")], [1.0 if c else 2.5 for c in cond], "float32",
                    args={"x": scalar(1, "int"), "y": scalar(2.5, "float")}))
    # broadcasting of all three
    c2 = np.array([[True], [False], [True]])
    x2 = np.arange(4, dtype=np.float32).reshape(1, 4)
    out.append(case("where/broadcast", "where", [tensor(c2, "bool"), tensor(x2, "float32")],
                    np.where(c2, x2, -1.0).astype(np.float32), "float32", args={"x": operand(1), "y": scalar(-1, "int")},
                    out_shape=[3, 4]))
    # clamp: x < min gives min, then x > max gives max (max wins if min > max); NaN stays
    xs = [-3.0, -1.0, 0.0, 0.5, 1.0, 2.0, NAN, INF, -INF]
    for name, lo, hi in [("both", -1.0, 1.0), ("min", 0.0, None), ("max", None, 0.5), ("crossed", 2.0, 1.0)]:
        want = []
        for v in xs:
            r = lo if (lo is not None and v < lo) else v
            r = hi if (hi is not None and r > hi) else r
            want.append(r)
        args = {"min": None if lo is None else scalar(lo, "float"), "max": None if hi is None else scalar(hi, "float")}
        out.append(case(f"clamp/float32/{name}", "clamp", [spec(xs, "float32")], want, "float32", args=args))
    xi = [-5, 0, 3, 9, 127]
    out.append(case("clamp/int8", "clamp", [spec(xi, "int8")], [max(-2, min(4, v)) for v in xi], "int8",
                    args={"min": scalar(-2, "int"), "max": scalar(4, "int")}))
    # a float bound lifts an integer tensor to float32 (tinygrad's where promotes)
    out.append(case("clamp/int8_float_bound", "clamp", [spec(xi, "int8")], [max(-2.5, min(4.5, v)) for v in xi],
                    "float32", args={"min": scalar(-2.5, "float"), "max": scalar(4.5, "float")}))
    lo_t = np.array([[-1.0], [0.0]], np.float32)
    xt = np.array([[-2.0, 0.5, 3.0], [-2.0, 0.5, 3.0]], np.float32)
    out.append(case("clamp/tensor_bounds", "clamp", [tensor(xt, "float32"), tensor(lo_t, "float32")],
                    np.minimum(np.maximum(xt, lo_t), 1.0), "float32",
                    args={"min": operand(1), "max": scalar(1.0, "float")}, out_shape=[2, 3]))
    # lerp: a + (b - a) w
    a, b = [1.0, 2.0, -4.0, 0.0], [3.0, 6.0, 4.0, 1e-3]
    for w_name, w in [("scalar", 0.25), ("one", 1.0)]:
        want = (np.array(a, np.float32) + (np.array(b, np.float32) - np.array(a, np.float32)) * np.float32(w))
        out.append(case(f"lerp/float32/{w_name}", "lerp", [spec(a, "float32"), spec(b, "float32")], want, "float32",
                        2.5e-7, 0.0, {"end": operand(1), "weight": scalar(w, "float")}))
    wt = [0.0, 0.5, 0.75, 2.0]
    want = [x + (y - x) * t for x, y, t in zip(a, b, wt)]
    out.append(case("lerp/float32/tensor_weight", "lerp", [spec(a, "float32"), spec(b, "float32"), spec(wt, "float32")],
                    want, "float32", 2.5e-7, 0.0, {"end": operand(1), "weight": operand(2)}))
    ai, bi = [0, 10, 100], [10, 20, 0]
    out.append(case("lerp/int32_float_weight", "lerp", [spec(ai, "int32"), spec(bi, "int32")],
                    [x + (y - x) * 0.5 for x, y in zip(ai, bi)], "float32", 0.0, 0.0,
                    {"end": operand(1), "weight": scalar(0.5, "float")}))
    return out


if __name__ == "__main__":
    write("ops_elementwise_unary", unary_cases() + exact_unary_cases())
    write("ops_elementwise_activation", activation_cases())
    write("ops_elementwise_binary", binary_cases())
    write("ops_elementwise_logic", logic_cases())
