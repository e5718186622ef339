"""Generates fixtures/ops_extra.json: reference values for the elementwise ops tg-ops took
from tinygrad's mixins for training (log10, fmod, copysign, logaddexp, masked_fill) and
pad_to_with, computed with numpy in float64 (or exact Python integers) from the semantics
documented in tg-ops/src/untyped/elementwise/more_math.rs, masked.rs and
tg-ops/src/untyped/movement/pad_fill.rs.

Where tg follows tinygrad rather than numpy (copysign keeps integer dtypes, weak scalars,
tinygrad's promotion lattice), the expected values are written from tinygrad's rule here, with
a comment. Case format and operands as scripts/gen_ops_elementwise.py, whose helpers this
reuses. Cases with args.signed_zeros also compare the sign of zero results (fmod and copysign
define it; the tolerance comparison alone does not see it).

Run: python3 scripts/gen_ops_extra.py   (numpy; deterministic output)"""

import math

import numpy as np

from fixtures_common import DTYPES, FLOATS, INTS, encode, int_range, is_float, pattern, tensor, wrap, write
from gen_ops_elementwise import TINY, case, convert, cross, int_edges, least_upper, spec, weak, with_f16_range

rng = np.random.default_rng(20250301)
NAN, INF = float("nan"), float("inf")


def operand(i):
    return {"input": i}


def scalar(v, kind):
    """A scalar operand; floats as fixtures_common encodes them (NaN and infinities as strings)."""
    return {"scalar": encode(v, "float64") if kind == "float" else v, "kind": kind}


def binary_args(extra=None):
    args = {"lhs": operand(0), "rhs": operand(1)}
    args.update(extra or {})
    return args


def f64_of(values, src, dst):
    """values converted by tg's cast to dst (a float dtype), as float64 numbers."""
    return np.array(convert(values, src, dst), np.float64)


# --- log10 -------------------------------------------------------------------------------------
LOG10_VALUES = [0.0, -0.0, -1.0, 1.0, 10.0, 100.0, 1000.0, 1e-3, 0.1, 0.5, 0.9999, 1.0001, 1 + 2 ** -20, 2.0, 3.0,
                1e-30, 1e10, 3e38, 7.5, INF, -INF, NAN] + [10.0 ** e for e in rng.uniform(-8, 8, 12)]


def log10_cases():
    out = []
    for dt in FLOATS:
        vals = with_f16_range(LOG10_VALUES) if dt == "float16" else LOG10_VALUES
        if dt == "float16":  # below f16's smallest subnormal the input itself is 0
            vals = [v for v in vals if not (v != 0 and abs(v) < 6e-8)]
        x = np.array(vals, np.float64).astype(DTYPES[dt])
        with np.errstate(all="ignore"):
            want = np.log10(x.astype(np.float64)).astype(DTYPES[dt])
        rtol = {"float16": 1e-3, "float32": 4e-7, "float64": 1e-15}[dt]
        out.append(case(f"log10/{dt}", "log10", [tensor(x, dt)], want, dt, rtol, TINY[dt]))
    # integers and bool compute in float32
    for dt, vals in [("int32", [1, 10, 1000, 7, 0, -5]), ("uint8", [1, 10, 100, 255]), ("bool", [False, True])]:
        with np.errstate(all="ignore"):
            want = np.log10(f64_of(vals, dt, "float32")).astype(np.float32)
        out.append(case(f"log10/{dt}", "log10", [spec(vals, dt)], want, "float32", 4e-7, TINY["float32"]))
    x, xs = pattern("float32", (6, 37), 11, 0.001, 1000.0)
    out.append(case("log10/pattern", "log10", [xs], np.log10(x.astype(np.float64)).astype(np.float32), "float32",
                    4e-7, TINY["float32"], out_shape=[6, 37]))
    out.append(case("log10/rank0", "log10", [spec([1e5], "float32", [])], [5.0], "float32", 4e-7, out_shape=[]))
    return out


# --- fmod --------------------------------------------------------------------------------------
def c_fmod_int(a, b, dt):
    """C's truncated remainder on Python ints: the dividend's sign; x fmod 0 == 0 (tg's integer
    rule; numpy gives 0 too), MIN fmod -1 == 0."""
    if b == 0:
        return 0
    r = abs(a) % abs(b)
    return wrap(-r if a < 0 else r, dt)


def fmod_expected(va, vb, da, db, out_dt):
    a, b = convert(va, da, out_dt), convert(vb, db, out_dt)
    if is_float(out_dt):
        with np.errstate(all="ignore"):
            return np.fmod(np.array(a, np.float64), np.array(b, np.float64)).astype(DTYPES[out_dt])
    return [c_fmod_int(x, y, out_dt) for x, y in zip(a, b)]


# |a / b| < 2^24 (tg's float remainder is exact there, as `%`)
FMOD_EDGES = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 6.0, -6.0, 7.0, -7.0, 0.25, 5.5, 3.0, -3.0, 1e6, NAN, INF, -INF]


def fmod_cases():
    out = []
    zeros = {"signed_zeros": True}
    for dt in FLOATS:
        edges = with_f16_range(FMOD_EDGES) if dt == "float16" else FMOD_EDGES
        a, b = cross(edges, edges)
        # quarters keep the products q * b exact, as the float remainder tests of `%` do
        ra = [round(v * 4) / 4 for v in rng.uniform(-60, 60, 24)]
        rb = [round(v * 4) / 4 or 0.25 for v in rng.uniform(-8, 8, 24)]
        a, b = a + ra, b + rb
        want = fmod_expected(a, b, dt, dt, dt)
        out.append(case(f"fmod/{dt}", "fmod", [spec(a, dt), spec(b, dt)], want, dt, 0.0, 0.0, binary_args(zeros)))
    # general float32 values: a - q b is within an ulp of |a|
    a, b = list(rng.uniform(-100, 100, 32)), list(rng.uniform(-10, 10, 32))
    want = fmod_expected(a, b, "float32", "float32", "float32")
    out.append(case("fmod/float32/general", "fmod", [spec(a, "float32"), spec(b, "float32")], want, "float32", 1e-6,
                    2e-5, binary_args()))
    for dt in INTS:
        a, b = cross(int_edges(dt), int_edges(dt))  # includes 0 divisors, MIN and -1
        want = fmod_expected(a, b, dt, dt, dt)
        out.append(case(f"fmod/{dt}", "fmod", [spec(a, dt), spec(b, dt)], want, dt, 0.0, 0.0, binary_args()))
    # promotion: int8 and uint8 meet in int16; f16 and f32 in f32
    a8, b8 = [-7, 7, -128, 100, 5], [3, 200, 7, 0, 255]
    out.append(case("fmod/int8+uint8", "fmod", [spec(a8, "int8"), spec(b8, "uint8")],
                    fmod_expected(a8, b8, "int8", "uint8", "int16"), "int16", 0.0, 0.0, binary_args()))
    ah, bf = [5.5, -5.5, 100.0], [2.0, 2.0, -7.0]
    out.append(case("fmod/float16+float32", "fmod", [spec(ah, "float16"), spec(bf, "float32")],
                    fmod_expected(ah, bf, "float16", "float32", "float32"), "float32", 0.0, 0.0, binary_args(zeros)))
    # weak scalars: an int scalar takes the tensor's dtype, a float scalar lifts ints to float32
    xi = [-7, 7, 9, -9, 0]
    out.append(case("fmod/int32_scalar_int", "fmod", [spec(xi, "int32")],
                    fmod_expected(xi, [-4] * 5, "int32", "int32", "int32"), "int32", 0.0, 0.0,
                    {"lhs": operand(0), "rhs": scalar(-4, "int")}))
    out.append(case("fmod/int32_scalar_float", "fmod", [spec(xi, "int32")],
                    fmod_expected(xi, [2.5] * 5, "int32", "float32", "float32"), "float32", 0.0, 0.0,
                    {"lhs": operand(0), "rhs": scalar(2.5, "float"), "signed_zeros": True}))
    xf = [7.5, -7.5, -0.0, 6.0]
    out.append(case("fmod/scalar_float_float32", "fmod", [spec(xf, "float32")],
                    fmod_expected([10.0] * 4, xf, "float32", "float32", "float32"), "float32", 0.0, 0.0,
                    {"lhs": scalar(10.0, "float"), "rhs": operand(0), "signed_zeros": True}))
    # broadcasting
    a = np.array([[7.0], [-7.0], [-6.0]], np.float32)
    b = np.array([2.0, -3.0, 3.0, 0.5], np.float32)
    with np.errstate(all="ignore"):
        want = np.fmod(a, b)
    out.append(case("fmod/broadcast", "fmod", [tensor(a, "float32"), tensor(b, "float32")], want, "float32", 0.0,
                    0.0, binary_args(zeros), out_shape=[3, 4]))
    return out


# --- copysign ----------------------------------------------------------------------------------
def copysign_int(a, b, dt):
    """|a| with b's sign in integer dtype dt: tinygrad keeps the integer dtype (numpy and torch
    go to float); |MIN| wraps to MIN, as tg's abs."""
    m = wrap(abs(a), dt)
    return wrap(-m, dt) if b < 0 else m


def copysign_expected(va, vb, da, db, out_dt):
    a, b = convert(va, da, out_dt), convert(vb, db, out_dt)
    if is_float(out_dt):
        return np.copysign(np.array(a, np.float64), np.array(b, np.float64)).astype(DTYPES[out_dt])
    return [copysign_int(x, y, out_dt) for x, y in zip(a, b)]


def copysign_cases():
    out = []
    zeros = {"signed_zeros": True}
    mags = [0.0, -0.0, 1.5, -2.0, 3.0, 1e-5, -1e30, INF, -INF, NAN]
    signs = [1.0, -1.0, 0.0, -0.0, 2.5, -7.0, INF, -INF]
    for dt in FLOATS:
        m = with_f16_range(mags) if dt == "float16" else mags
        a, b = cross(m, signs)
        out.append(case(f"copysign/{dt}", "copysign", [spec(a, dt), spec(b, dt)],
                        copysign_expected(a, b, dt, dt, dt), dt, 0.0, 0.0, binary_args(zeros)))
    for dt in INTS:
        lo, hi = int_range(dt)
        a = [0, 5, hi, lo] + ([-5, lo + 1] if lo < 0 else [200 % (hi + 1)])
        s = [1, 0, 7] + ([-1, -9] if lo < 0 else [hi])
        a, b = cross(a, s)
        out.append(case(f"copysign/{dt}", "copysign", [spec(a, dt), spec(b, dt)],
                        copysign_expected(a, b, dt, dt, dt), dt, 0.0, 0.0, binary_args()))
    # an integer tensor with a float scalar sign gives float32 (weak float scalar)
    xi = [-3, 4, 0]
    out.append(case("copysign/int32_scalar_float", "copysign", [spec(xi, "int32")],
                    copysign_expected(xi, [-0.0] * 3, "int32", "float32", "float32"), "float32", 0.0, 0.0,
                    {"lhs": operand(0), "rhs": scalar(-0.0, "float"), "signed_zeros": True}))
    # int8 magnitudes, float16 signs: they meet in float16
    a8, sh = [-3, 4, -128, 0], [1.0, -1.0, 2.0, -0.0]
    out.append(case("copysign/int8+float16", "copysign", [spec(a8, "int8"), spec(sh, "float16")],
                    copysign_expected(a8, sh, "int8", "float16", "float16"), "float16", 0.0, 0.0, binary_args(zeros)))
    a = np.array([[1.0, -2.0, 3.0]], np.float32)
    b = np.array([[-1.0], [0.0], [-0.0]], np.float32)
    out.append(case("copysign/broadcast", "copysign", [tensor(a, "float32"), tensor(b, "float32")],
                    np.copysign(a, b), "float32", 0.0, 0.0, binary_args(zeros), out_shape=[3, 3]))
    return out


# --- logaddexp ---------------------------------------------------------------------------------
LAE_VALUES = [0.0, -0.0, 1.0, -1.0, 0.5, 10.0, -10.0, 30.0, -30.0, 100.0, -100.0, 1000.0, -1000.0, 1e-7, 88.0,
              -88.0, 3e38, -3e38, INF, -INF, NAN]


def logaddexp_expected(va, vb, da, db, out_dt):
    """numpy's logaddexp in float64 on the operands as tg sees them (converted to the float
    dtype they meet in), rounded once to that dtype."""
    a, b = f64_of(va, da, out_dt), f64_of(vb, db, out_dt)
    with np.errstate(all="ignore"):
        return np.logaddexp(a, b).astype(DTYPES[out_dt])


def logaddexp_cases():
    out = []
    for dt in FLOATS:
        v = with_f16_range(LAE_VALUES) if dt == "float16" else LAE_VALUES
        a, b = cross(v, v)
        ra, rb = list(rng.uniform(-20, 20, 24)), list(rng.uniform(-20, 20, 24))
        a, b = a + ra, b + rb
        # f64: exp's tolerance (1e-14, as gen_ops_elementwise.py), seen where e^-|a-b| is the result
        rtol = {"float16": 1e-3, "float32": 4e-7, "float64": 1e-14}[dt]
        out.append(case(f"logaddexp/{dt}", "logaddexp", [spec(a, dt), spec(b, dt)],
                        logaddexp_expected(a, b, dt, dt, dt), dt, rtol, TINY[dt], binary_args()))
    # integers (and bool) give float32, tinygrad's default float
    for da, db in [("int32", "int32"), ("int8", "uint8"), ("bool", "bool")]:
        va = [0, 1, -5, 100, 3] if da != "bool" else [False, True, True, False, True]
        vb = [0, 2, 7, 90, 3] if db != "bool" else [False, False, True, True, True]
        if da == "int8":
            vb = [0, 200, 7, 255, 3]
        out.append(case(f"logaddexp/{da}+{db}", "logaddexp", [spec(va, da), spec(vb, db)],
                        logaddexp_expected(va, vb, da, db, "float32"), "float32", 4e-7, 0.0, binary_args()))
    # float16 with float32 meets in float32; scalars are weak
    ah, bf = [0.5, -2.0, 60000.0], [0.25, 3.0, 60000.0]
    out.append(case("logaddexp/float16+float32", "logaddexp", [spec(ah, "float16"), spec(bf, "float32")],
                    logaddexp_expected(ah, bf, "float16", "float32", "float32"), "float32", 4e-7, 0.0, binary_args()))
    xh = [0.0, 1.0, -3.0, 11.0]
    out.append(case("logaddexp/float16_scalar_float", "logaddexp", [spec(xh, "float16")],
                    logaddexp_expected(xh, [0.5] * 4, "float16", "float16", "float16"), "float16", 1e-3, 0.0,
                    {"lhs": operand(0), "rhs": scalar(0.5, "float")}))
    xi = [-2, 0, 5]
    out.append(case("logaddexp/scalar_int_int32", "logaddexp", [spec(xi, "int32")],
                    logaddexp_expected([1] * 3, xi, "int32", "int32", "float32"), "float32", 4e-7, 0.0,
                    {"lhs": scalar(1, "int"), "rhs": operand(0)}))
    x, xs = pattern("float32", (4, 33), 21, -40.0, 40.0)
    y, ys = pattern("float32", (1, 33), 22, -40.0, 40.0)
    with np.errstate(all="ignore"):
        want = np.logaddexp(x.astype(np.float64), y.astype(np.float64)).astype(np.float32)
    out.append(case("logaddexp/broadcast_pattern", "logaddexp", [xs, ys], want, "float32", 4e-7, TINY["float32"],
                    binary_args(), out_shape=[4, 33]))
    return out


# --- masked_fill -------------------------------------------------------------------------------
def masked_fill_cases():
    """`value` where the mask is set, else x: tinygrad's mask.where(value, x). The dtype is
    where's: a weak scalar takes x's dtype, a float scalar lifts integers to float32; the mask
    and value broadcast to x's shape."""
    out = []
    x = np.array([[1.0, -2.0, NAN], [4.0, 5.0, INF]], np.float32)
    m = np.array([True, False, True])
    out.append(case("masked_fill/float32_row_mask", "masked_fill", [tensor(x, "float32"), tensor(m, "bool")],
                    np.where(m, -INF, x), "float32", args={"value": scalar(-INF, "float")}, out_shape=[2, 3]))
    m2 = np.array([[True, False, False], [False, True, True]])
    out.append(case("masked_fill/float32_full_mask", "masked_fill", [tensor(x, "float32"), tensor(m2, "bool")],
                    np.where(m2, 0.5, x), "float32", args={"value": scalar(0.5, "float")}, out_shape=[2, 3]))
    v = np.array([[10.0], [20.0]], np.float32)
    out.append(case("masked_fill/tensor_value", "masked_fill",
                    [tensor(x, "float32"), tensor(m, "bool"), tensor(v, "float32")],
                    np.where(m, v, x), "float32", args={"value": operand(2)}, out_shape=[2, 3]))
    xi = np.array([1, 2, 3, 4], np.int32)
    mi = np.array([False, True, True, False])
    out.append(case("masked_fill/int32_scalar_int", "masked_fill", [tensor(xi, "int32"), tensor(mi, "bool")],
                    np.where(mi, -7, xi), "int32", args={"value": scalar(-7, "int")}))
    # a float scalar lifts an integer tensor to float32 (tinygrad's where; torch keeps int32)
    out.append(case("masked_fill/int32_scalar_float", "masked_fill", [tensor(xi, "int32"), tensor(mi, "bool")],
                    np.where(mi, 2.5, xi).astype(np.float32), "float32", args={"value": scalar(2.5, "float")}))
    # an int scalar is converted to a uint8 tensor's dtype (300 wraps to 44)
    xu = np.array([1, 2, 3], np.uint8)
    mu = np.array([True, False, True])
    out.append(case("masked_fill/uint8_wraps", "masked_fill", [tensor(xu, "uint8"), tensor(mu, "bool")],
                    np.where(mu, 44, xu), "uint8", args={"value": scalar(300, "int")}))
    xh = np.array([0.5, 1.5, -2.0], np.float16)
    out.append(case("masked_fill/float16_nan", "masked_fill", [tensor(xh, "float16"), tensor(mu, "bool")],
                    np.where(mu, np.float16(NAN), xh), "float16", args={"value": scalar(NAN, "float")}))
    # an int8 tensor and an int16 value tensor meet in int16
    x8 = np.array([[1, -2], [3, -4]], np.int8)
    v16 = np.array([1000, -1000], np.int16)
    m8 = np.array([[True, False], [False, True]])
    out.append(case("masked_fill/int8_int16_value", "masked_fill",
                    [tensor(x8, "int8"), tensor(m8, "bool"), tensor(v16, "int16")],
                    np.where(m8, v16, x8.astype(np.int16)), "int16", args={"value": operand(2)}, out_shape=[2, 2]))
    # a rank-0 mask
    out.append(case("masked_fill/rank0_mask", "masked_fill", [tensor(xi, "int32"), tensor(np.array(True), "bool")],
                    [0, 0, 0, 0], "int32", args={"value": scalar(0, "int")}))
    # an attention-style causal mask on a pattern
    s, ss = pattern("float32", (2, 5, 5), 31, -3.0, 3.0)
    causal = np.triu(np.ones((5, 5), bool), 1)
    out.append(case("masked_fill/causal", "masked_fill", [ss, tensor(causal, "bool")],
                    np.where(causal, -INF, s), "float32", args={"value": scalar(-INF, "float")}, out_shape=[2, 5, 5]))
    return out


# --- pad_to_with -------------------------------------------------------------------------------
def pad_to_with_cases():
    """Pads at the end of each axis up to `shape` (null keeps the axis) with `value` converted to
    the tensor's dtype by tg's cast."""
    out = []

    def add(name, x, dt, shape, value, kind):
        target = [x.shape[i] if s is None else s for i, s in enumerate(shape)]
        fill = convert([value], {"int": "int64", "float": "float64", "bool": "bool"}[kind], dt)[0]
        want = np.full(target, fill, dtype=DTYPES[dt])
        want[tuple(slice(0, n) for n in x.shape)] = x
        out.append(case(f"pad_to_with/{name}", "pad_to_with", [tensor(x, dt)], want, dt,
                        args={"shape": shape, "value": scalar(value, kind)}, out_shape=target))

    xf = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
    add("float32_neg_inf", xf, "float32", [4, 5], -INF, "float")
    add("float32_keep_axis", xf, "float32", [None, 6], 7.25, "float")
    add("float32_zero", xf, "float32", [3, 3], 0.0, "float")
    add("float32_no_growth", xf, "float32", [2, 3], 9.0, "float")
    add("float16_nan", xf.astype(np.float16), "float16", [3, 4], NAN, "float")
    add("float64_neg_zero", xf.astype(np.float64), "float64", [2, 5], -0.0, "float")
    add("int8_wraps", np.array([[1, -2, 3]], np.int8), "int8", [2, 4], 300, "int")
    add("int32_float_value", np.array([5, 6], np.int32), "int32", [5], -2.75, "float")  # truncates to -2
    add("uint16", np.array([[1], [2]], np.uint16), "uint16", [3, 2], 65535, "int")
    add("bool_true", np.array([[False, True]]), "bool", [2, 3], True, "bool")
    x3, _ = pattern("float32", (2, 3, 4), 41, -1.0, 1.0)
    add("rank3", x3, "float32", [3, None, 6], -1.0, "float")
    add("empty_axis", np.zeros((0, 2), np.float32), "float32", [2, 3], 4.0, "float")
    return out


if __name__ == "__main__":
    write("ops_extra", log10_cases() + fmod_cases() + copysign_cases() + logaddexp_cases() + masked_fill_cases()
          + pad_to_with_cases())
