"""Generates fixtures/ops_movement.json, ops_reduce.json and ops_matmul.json: reference values
for tg-ops' movement ops, reductions and matrix products, computed by numpy.

Where tinygrad and numpy differ, the expected values follow tinygrad's documented semantics
(each such place says so in a comment), since tg carries tinygrad's op library.

Run: python3 scripts/gen_ops_shape.py   (numpy; deterministic output)"""

import math

import numpy as np

from fixtures_common import DTYPES, cast_scalar, encode, int_range, is_float, pattern, sum_acc, tensor, wrap, write

np.seterr(all="ignore")


def arr(values, dt):
    return np.array(values, dtype=DTYPES[dt])


def ramp(shape, dt, start=0):
    """Distinct small values (alternating signs for signed types) of shape `shape`."""
    n = int(np.prod(shape))
    if dt == "bool":
        v = (np.arange(n) * 7 + start) % 3 == 0
    elif dt.startswith("uint"):
        v = (np.arange(n) * 5 + start) % 97
    elif dt.startswith("int"):
        v = ((np.arange(n) * 5 + start) % 97) * np.where(np.arange(n) % 2 == 0, 1, -1)
    else:
        v = (np.arange(n) + start) * np.where(np.arange(n) % 2 == 0, 0.5, -0.75)
    return v.astype(DTYPES[dt]).reshape(shape)


def spec(a, dt):
    return dt if isinstance(dt, dict) else tensor(a, dt)


def case(name, op, inputs, out, args=None, rtol=0.0, atol=0.0):
    """inputs: (array, dtype) pairs, or (array, spec) from `pattern`; out: (array, dtype), or a
    list of them for ops with several outputs."""
    c = {"name": name, "op": op, "args": args or {}, "inputs": [spec(a, dt) for a, dt in inputs],
         "rtol": rtol, "atol": atol}
    if isinstance(out, list):
        c["outs"] = [tensor(np.asarray(a), dt) for a, dt in out]
    else:
        c["out"] = tensor(np.asarray(out[0]), out[1])
    return c


def dt_of(x):
    return {v: k for k, v in DTYPES.items()}[x.dtype.type]


# tinygrad's promotion lattice, for the few pairs the cases mix
LEAST_UPPER = {("int8", "uint8"): "int16", ("float16", "int32"): "float16", ("bool", "float32"): "float32",
               ("uint8", "int8"): "int16", ("int32", "float32"): "float32"}


def least_upper(a, b):
    return a if a == b else LEAST_UPPER[(a, b)]


# ---------------------------------------------------------------- movement

def movement_cases():
    out = []

    def mv(name, op, x, dt, args, want):
        out.append(case(f"{op}/{name}/{dt}", op, [(x, dt)], (want, dt), args))

    for dt in ["float32", "float16", "int8", "uint16", "bool", "int64"]:
        x = ramp((2, 3, 4), dt)
        mv("infer", "reshape", x, dt, {"shape": [4, -1]}, x.reshape(4, -1))
        mv("permute", "permute", x, dt, {"order": [2, 0, -2]}, np.transpose(x, (2, 0, 1)))
        mv("neg_axes", "transpose", x, dt, {"a": 0, "b": -1}, np.swapaxes(x, 0, 2))
        mv("last_two", "t", x, dt, {}, np.swapaxes(x, 1, 2))
        mv("two_axes", "flip", x, dt, {"axes": [-1, 0]}, np.flip(x, (2, 0)))
    x = ramp((2, 3), "float32")
    mv("empty_infer", "reshape", np.zeros((0, 3), np.float32), "float32", {"shape": [3, -1]}, np.zeros((3, 0), np.float32))
    mv("rank0", "reshape", np.array(2.5, np.float32), "float32", {"shape": [1, 1]}, np.array([[2.5]], np.float32))
    mv("to_rank0", "reshape", np.array([7], np.int32), "int32", {"shape": []}, np.array(7, np.int32))
    mv("2d", "t", x, "float32", {}, x.T)
    mv("same_axis", "transpose", x, "float32", {"a": 1, "b": -1}, x)
    mv("size1", "flip", ramp((1, 3), "int32"), "int32", {"axes": [0]}, ramp((1, 3), "int32"))

    # expand: -1 keeps an axis, new axes go on the left
    for dt in ["float32", "float16", "uint8", "bool"]:
        v = ramp((3,), dt)
        mv("new_axis", "expand", v, dt, {"shape": [2, -1]}, np.broadcast_to(v, (2, 3)))
        w = ramp((2, 1, 3), dt)
        mv("stretch", "expand", w, dt, {"shape": [2, 4, 3]}, np.broadcast_to(w, (2, 4, 3)))
    mv("to_empty", "expand", ramp((1, 3), "float32"), "float32", {"shape": [0, 3]}, np.zeros((0, 3), np.float32))
    mv("rank0", "expand", np.array(5, np.int32), "int32", {"shape": [2, 2]}, np.full((2, 2), 5, np.int32))

    # squeeze / unsqueeze / flatten / unflatten
    y = ramp((2, 1, 3, 1), "float32")
    mv("all", "squeeze", y, "float32", {"axis": None}, y.reshape(2, 3))
    mv("one", "squeeze", y, "float32", {"axis": -1}, y.reshape(2, 1, 3))
    # tinygrad (and torch): squeezing an axis that is not 1 returns the tensor unchanged
    mv("not_one", "squeeze", y, "float32", {"axis": 0}, y)
    mv("rank0", "squeeze", np.array(3.0, np.float32), "float32", {"axis": 0}, np.array(3.0, np.float32))
    mv("front", "unsqueeze", x, "float32", {"axis": 0}, x[None])
    mv("back", "unsqueeze", x, "float32", {"axis": -1}, x[..., None])
    mv("middle", "unsqueeze", ramp((2, 3), "int16"), "int16", {"axis": -2}, ramp((2, 3), "int16")[:, None])
    mv("rank0", "unsqueeze", np.array(1, np.int8), "int8", {"axis": 0}, np.array([1], np.int8))
    z = ramp((2, 3, 4), "int32")
    mv("all", "flatten", z, "int32", {"start": 0, "end": -1}, z.reshape(-1))
    mv("tail", "flatten", z, "int32", {"start": 1, "end": 2}, z.reshape(2, 12))
    mv("one_axis", "flatten", z, "int32", {"start": 1, "end": 1}, z)
    mv("rank0", "flatten", np.array(4, np.int32), "int32", {"start": 0, "end": -1}, np.array([4], np.int32))
    mv("empty", "flatten", np.zeros((2, 0, 3), np.float32), "float32", {"start": 0, "end": 1}, np.zeros((0, 3), np.float32))
    mv("infer", "unflatten", ramp((3, 4, 1), "float16"), "float16", {"axis": 1, "sizes": [-1, 2]},
       ramp((3, 4, 1), "float16").reshape(3, 2, 2, 1))
    mv("neg_axis", "unflatten", ramp((2, 6), "uint8"), "uint8", {"axis": -1, "sizes": [2, 3, 1]},
       ramp((2, 6), "uint8").reshape(2, 2, 3, 1))

    # pad: grouped (numpy) form, negative pads cut first, any fill value
    def pad_ref(a, pads, value, dt):
        sl = tuple(slice(max(-b, 0), a.shape[i] + min(e, 0)) for i, (b, e) in enumerate(pads))
        v = cast_scalar(value, "float64" if isinstance(value, float) else ("bool" if isinstance(value, bool) else "int64"), dt)
        return np.pad(a[sl], [(max(b, 0), max(e, 0)) for b, e in pads], constant_values=v)

    pad_sets = [([(1, 2), (0, 1)], 0.0), ([(1, 1), (2, 0)], -math.inf), ([(0, -1), (1, -2)], 3.0),
                ([(-1, 2), (0, 0)], math.nan), ([(0, 0), (0, 0)], 5.0)]
    for dt in ["float32", "float16", "int32", "uint8", "bool", "float64"]:
        a = ramp((3, 4), dt)
        for k, (pads, value) in enumerate(pad_sets):
            if dt == "bool":
                value = bool(k % 2)
            elif not is_float(dt):
                # the value is converted to the tensor's dtype (saturating -inf to the minimum,
                # NaN to 0); tinygrad would instead promote the result to a float dtype
                pass
            want = pad_ref(a, pads, value, dt)
            out.append(case(f"pad/{k}/{dt}", "pad", [(a, dt)], (want, dt),
                            {"pads": pads, "value": encode(value, "float64") if isinstance(value, float) else value}))
    a = ramp((1, 2, 3), "float32")
    # torch's flat form: pairs from the last axis backwards; tinygrad's example pad((1, 2, 0, -1))
    out.append(case("pad_flat/torch/float32", "pad_flat", [(a, "float32")], (pad_ref(a, [(0, 0), (0, -1), (1, 2)], 0.0, "float32"), "float32"),
                    {"pads": [1, 2, 0, -1], "value": 0.0}))
    out.append(case("pad_flat/value/int16", "pad_flat", [(ramp((2, 2), "int16"), "int16")],
                    (pad_ref(ramp((2, 2), "int16"), [(0, 0), (2, 1)], 9, "int16"), "int16"), {"pads": [2, 1], "value": 9}))
    e = np.zeros((2, 0), np.float32)
    out.append(case("pad/empty/float32", "pad", [(e, "float32")], (pad_ref(e, [(1, 0), (1, 1)], 2.0, "float32"), "float32"),
                    {"pads": [[1, 0], [1, 1]], "value": 2.0}))
    nz = arr([-0.0, 1.0, -0.0], "float32")
    out.append(case("pad/neg_zero_value/float32", "pad", [(nz, "float32")], (np.pad(nz, (1, 1), constant_values=-0.0), "float32"),
                    {"pads": [[1, 1]], "value": -0.0}))

    b = ramp((4, 5), "float32")
    mv("middle", "shrink", b, "float32", {"ranges": [[1, 3], [0, 5]]}, b[1:3])
    mv("to_empty", "shrink", b, "float32", {"ranges": [[2, 2], [1, 4]]}, b[2:2, 1:4])
    mv("grow", "pad_to", ramp((2, 3), "int32"), "int32", {"shape": [4, None]}, np.pad(ramp((2, 3), "int32"), ((0, 2), (0, 0))))
    mv("grow_both", "pad_to", ramp((2, 3), "float16"), "float16", {"shape": [3, 5]}, np.pad(ramp((2, 3), "float16"), ((0, 1), (0, 2))))
    mv("cut", "shrink_to", b, "float32", {"shape": [None, 2]}, b[:, :2])
    mv("cut_empty", "shrink_to", b, "float32", {"shape": [0, 5]}, b[:0])

    # split / split_every / chunk (several outputs)
    s = ramp((5, 2), "int32")
    out.append(case("split/sizes/int32", "split", [(s, "int32")], [(s[:1], "int32"), (s[1:], "int32")], {"sizes": [1, 4], "axis": 0}))
    out.append(case("split/with_empty/int32", "split", [(s, "int32")], [(s[:, :0], "int32"), (s, "int32")], {"sizes": [0, 2], "axis": -1}))
    out.append(case("split_every/ragged/float32", "split_every", [(s.astype(np.float32), "float32")],
                    [(s[:2].astype(np.float32), "float32"), (s[2:4].astype(np.float32), "float32"), (s[4:].astype(np.float32), "float32")],
                    {"size": 2, "axis": 0}))
    out.append(case("split_every/bigger/int32", "split_every", [(s, "int32")], [(s, "int32")], {"size": 9, "axis": 0}))
    c11 = np.arange(11, dtype=np.int32)
    out.append(case("chunk/11_by_6/int32", "chunk", [(c11, "int32")], [(c11[i:i + 2], "int32") for i in range(0, 11, 2)],
                    {"chunks": 6, "axis": 0}))
    c13 = np.arange(13, dtype=np.float16)
    out.append(case("chunk/13_by_6/float16", "chunk", [(c13, "float16")], [(c13[i:i + 3], "float16") for i in range(0, 13, 3)],
                    {"chunks": 6, "axis": -1}))
    ce = np.zeros((0, 2), np.float32)
    out.append(case("chunk/empty/float32", "chunk", [(ce, "float32")], [(ce, "float32")] * 3, {"chunks": 3, "axis": 0}))

    # cat / stack (several inputs)
    p, q = ramp((1, 2), "int32"), ramp((2, 2), "int32", 3)
    out.append(case("cat/rows/int32", "cat", [(p, "int32"), (q, "int32")], (np.concatenate([p, q]), "int32"), {"axis": 0}))
    out.append(case("cat/cols/int32", "cat", [(q, "int32"), (q, "int32"), (q, "int32")], (np.concatenate([q, q, q], 1), "int32"), {"axis": -1}))
    f1, f2 = arr([[-0.0, np.nan]], "float32"), arr([[np.inf, -0.0], [1.5, -2.0]], "float32")
    out.append(case("cat/keeps_bits/float32", "cat", [(f1, "float32"), (f2, "float32")], (np.concatenate([f1, f2]), "float32"), {"axis": 0}))
    i8, u8 = ramp((2, 2), "int8"), ramp((2, 1), "uint8", 1)
    # the result has the least upper dtype of the inputs (int8, uint8 -> int16)
    out.append(case("cat/promote/int8_uint8", "cat", [(i8, "int8"), (u8, "uint8")],
                    (np.concatenate([i8.astype(np.int16), u8.astype(np.int16)], 1), "int16"), {"axis": 1}))
    h, i32 = ramp((2,), "float16"), ramp((3,), "int32")
    out.append(case("cat/promote/float16_int32", "cat", [(h, "float16"), (i32, "int32")],
                    (np.concatenate([h, i32.astype(np.float16)]), "float16"), {"axis": 0}))
    em = np.zeros((0, 3), np.float32)
    g = ramp((2, 3), "float32")
    out.append(case("cat/empty_piece/float32", "cat", [(em, "float32"), (g, "float32"), (em, "float32")], (g, "float32"), {"axis": 0}))
    out.append(case("cat/all_empty/float32", "cat", [(em, "float32"), (em, "float32")], (np.zeros((0, 3), np.float32), "float32"), {"axis": 0}))
    bb = ramp((2, 2), "bool")
    out.append(case("cat/bool", "cat", [(bb, "bool"), (~bb, "bool")], (np.concatenate([bb, ~bb], 1), "bool"), {"axis": 1}))
    big1, sp1 = pattern("float32", (40, 7), 1, -3.0, 3.0)
    big2, sp2 = pattern("float32", (40, 5), 2, -3.0, 3.0)
    out.append(case("cat/big/float32", "cat", [(big1, sp1), (big2, sp2)], (np.concatenate([big1, big2], 1), "float32"), {"axis": 1}))
    for axis, dt in [(0, "float32"), (1, "int16"), (-1, "float16"), (-3, "bool")]:
        u, v = ramp((2, 3), dt), ramp((2, 3), dt, 4)
        out.append(case(f"stack/axis{axis}/{dt}", "stack", [(u, dt), (v, dt)], (np.stack([u, v], axis), dt), {"axis": axis}))
    out.append(case("stack/rank0/int32", "stack", [(np.array(1, np.int32), "int32"), (np.array(2, np.int32), "int32")],
                    (np.array([1, 2], np.int32), "int32"), {"axis": 0}))

    # repeat (numpy's tile), repeat_interleave (numpy's repeat), roll
    r = ramp((2, 3), "float32")
    for reps in [[2, 2], [2, 1, 3], [3], [1, 1], [0, 2]]:
        mv("x".join(map(str, reps)), "repeat", r, "float32", {"repeats": reps}, np.tile(r, reps))
    mv("bool", "repeat", ramp((2,), "bool"), "bool", {"repeats": [3]}, np.tile(ramp((2,), "bool"), 3))
    mv("int8", "repeat", ramp((1, 2), "int8"), "int8", {"repeats": [2, 1, 2]}, np.tile(ramp((1, 2), "int8"), (2, 1, 2)))
    mv("flat", "repeat_interleave", r, "float32", {"repeats": 2, "axis": None}, np.repeat(r, 2))
    mv("axis1", "repeat_interleave", ramp((2, 3), "uint8"), "uint8", {"repeats": 3, "axis": 1}, np.repeat(ramp((2, 3), "uint8"), 3, 1))
    mv("neg_axis", "repeat_interleave", ramp((2, 3), "int32"), "int32", {"repeats": 2, "axis": -2}, np.repeat(ramp((2, 3), "int32"), 2, 0))
    mv("zero", "repeat_interleave", r, "float32", {"repeats": 0, "axis": 0}, np.repeat(r, 0, 0))
    ro = ramp((3, 4), "int32")
    for shifts, axes in [([1], [0]), ([-1], [1]), ([5, -6], [1, 0]), ([0], [0]), ([4], [-1])]:
        mv(f"{shifts}_{axes}", "roll", ro, "int32", {"shifts": shifts, "axes": axes}, np.roll(ro, shifts, axes))
    mv("flat", "roll", ro, "int32", {"shifts": [5], "axes": None}, np.roll(ro, 5))
    mv("flat_neg", "roll", ramp((2, 2), "float16"), "float16", {"shifts": [-3], "axes": None}, np.roll(ramp((2, 2), "float16"), -3))
    mv("empty", "roll", np.zeros((0, 3), np.float32), "float32", {"shifts": [2], "axes": [0]}, np.zeros((0, 3), np.float32))

    # diagonal: numpy's and tinygrad's definition (the diagonal becomes the last axis); an
    # offset past the edge is empty as in numpy (tinygrad fails there)
    d = ramp((3, 3), "int32")
    d34 = ramp((3, 4), "float32")
    d3 = ramp((2, 3, 4), "float16")
    for x_, dt, off, a1, a2 in [(d, "int32", 0, 0, 1), (d, "int32", 1, 0, 1), (d, "int32", -1, 0, 1), (d, "int32", 0, 1, 0),
                                (d34, "float32", 0, 0, 1), (d34, "float32", 2, 0, 1), (d34, "float32", -2, 0, 1),
                                (d34, "float32", 4, 0, 1), (d34, "float32", -5, 0, 1),
                                (d3, "float16", 0, 1, 2), (d3, "float16", 1, -1, -2), (d3, "float16", 0, 0, 2)]:
        mv(f"{list(x_.shape)}_{off}_{a1}_{a2}", "diagonal", x_, dt, {"offset": off, "dim1": a1, "dim2": a2},
           np.diagonal(x_, off, a1, a2))
    big, sp = pattern("float32", (3, 16, 16), 5, -1.0, 1.0)
    out.append(case("diagonal/big/float32", "diagonal", [(big, sp)], (np.diagonal(big, 0, 1, 2), "float32"),
                    {"offset": 0, "dim1": 1, "dim2": 2}))
    return out


# ---------------------------------------------------------------- reductions

def axes_of(x, axes):
    if x.ndim == 0:
        return ()  # a rank-0 tensor accepts axis 0 or -1 and reduces nothing (tinygrad)
    return tuple(range(x.ndim)) if axes is None else tuple(a % x.ndim for a in axes)


def ref_sum(x, dt, axes, keep):
    acc = sum_acc(dt)
    s = np.sum(x.astype(DTYPES[acc]), axis=axes_of(x, axes), keepdims=keep, dtype=DTYPES[acc])
    return s.astype(DTYPES["float16"]) if dt == "float16" else s, (dt if dt == "float16" else acc)


def ident_max(dt):
    if dt == "bool":
        return False
    return -np.inf if is_float(dt) else int_range(dt)[0]


def ident_min(dt):
    if dt == "bool":
        return True
    return np.inf if is_float(dt) else int_range(dt)[1]


def ref(op, x, dt, axes, keep):
    ax = axes_of(x, axes)
    if op == "sum":
        return ref_sum(x, dt, axes, keep)
    if op == "prod":
        if dt == "bool":
            return np.all(x, axis=ax, keepdims=keep), "bool"
        return np.prod(x, axis=ax, keepdims=keep, dtype=x.dtype).astype(x.dtype), dt
    if op == "max":
        if dt == "bool":
            return np.any(x, axis=ax, keepdims=keep), "bool"
        return np.max(x, axis=ax, keepdims=keep, initial=ident_max(dt)), dt
    if op == "min":
        if dt == "bool":
            return np.all(x, axis=ax, keepdims=keep), "bool"
        return np.min(x, axis=ax, keepdims=keep, initial=ident_min(dt)), dt
    if op == "mean":
        # tinygrad: the sum in sum_acc_dtype (integer sums wrap there), converted to the float
        # type, times 1/count in that type; numpy would accumulate integers in float64
        s, _ = ref_sum(x, dt, axes, keep)
        acc = sum_acc(dt)
        ft = acc if is_float(acc) else "float32"
        n = int(np.prod([x.shape[a] for a in ax])) if x.ndim else 1
        scale = DTYPES[ft](1.0 / n) if n else DTYPES[ft](np.inf)
        total = np.sum(x.astype(DTYPES[acc]), axis=ax, keepdims=keep, dtype=DTYPES[acc]).astype(DTYPES[ft])
        outdt = dt if is_float(dt) else "float32"
        return (total * scale).astype(DTYPES[outdt]), outdt
    if op == "any":
        return np.any(x != 0 if not is_float(dt) else (x != 0) | np.isnan(x), axis=ax, keepdims=keep), "bool"
    if op == "all":
        return np.all(x != 0 if not is_float(dt) else (x != 0) | np.isnan(x), axis=ax, keepdims=keep), "bool"
    raise ValueError(op)


def red_tol(op, dt, n):
    if not is_float(dt) or op in ("max", "min", "any", "all"):
        return 0.0, 0.0
    if dt == "float16":
        return 2e-3, 2e-3
    if dt == "float64":
        return 1e-12, 1e-12
    # f32 sums in another order than numpy's: errors grow with the count and the magnitudes
    return 1e-5, 2e-7 * max(1, n) * 4


def reduce_cases():
    out = []
    shapes_axes = [((2, 3, 4), None), ((2, 3, 4), [1]), ((2, 3, 4), [0, -1]), ((2, 3, 4), [-1]), ((5, 1, 7), [1]),
                   ((3, 0), [1]), ((3, 0), [0]), ((0, 3), None), ((), None), ((), [0]), ((4,), [])]
    ops = ["sum", "prod", "max", "min", "mean", "any", "all"]
    for dt in ["float32", "float16", "int32", "uint8", "int8", "bool", "int64", "uint32", "float64"]:
        for op in ops:
            for k, (shape, axes) in enumerate(shapes_axes):
                if dt in ("int64", "uint32", "float64") and k not in (1, 2, 5):
                    continue
                keep = k % 2 == 1
                if op == "prod":
                    x = (pattern(dt, shape, k + 3, -3, 3) if not is_float(dt) else pattern(dt, shape, k + 3, 0.5, 1.5))
                    x = (x[0], tensor(x[0], dt))
                elif dt == "bool":
                    x = (ramp(shape, "bool", k), "bool")
                else:
                    x = (ramp(shape, dt, k), dt)
                want, wdt = ref(op, x[0], dt, axes, keep)
                n = int(np.prod([x[0].shape[a] for a in axes_of(x[0], axes)])) if x[0].ndim else 1
                rt, at = red_tol(op, dt, n)
                out.append(case(f"{op}/{dt}/{list(shape)}/{axes}/keep={keep}", op, [x], (want, wdt),
                                {"axes": axes, "keepdim": keep}, rt, at))
    # NaN propagates through max, min, sum, mean; counts as true in any/all
    xn = arr([[1.0, np.nan, 3.0], [4.0, -np.inf, 6.0], [np.inf, 0.0, -1.0]], "float32")
    for op in ops:
        for axes in [[1], [0], None]:
            want, wdt = ref(op, xn, "float32", axes, False)
            out.append(case(f"{op}/nan_inf/{axes}", op, [(xn, "float32")], (want, wdt), {"axes": axes, "keepdim": False}, 1e-6, 1e-6))
    hn = arr([[1.0, np.nan], [-np.inf, 2.0]], "float16")
    for op in ["max", "min"]:
        want, wdt = ref(op, hn, "float16", [1], True)
        out.append(case(f"{op}/nan/float16", op, [(hn, "float16")], (want, wdt), {"axes": [1], "keepdim": True}))
    # ties and extremes: min/max of unsigned and signed extremes (min is !max(!x) for ints)
    for dt in ["uint8", "int8", "uint32", "int32", "uint64", "int64", "uint16", "int16"]:
        lo, hi = int_range(dt)
        x = arr([[lo, hi, 0, hi], [lo, lo, 1, 1], [0, 0, 0, 0]], dt)
        for op in ["max", "min"]:
            want, wdt = ref(op, x, dt, [1], False)
            out.append(case(f"{op}/extremes/{dt}", op, [(x, dt)], (want, wdt), {"axes": [1], "keepdim": False}))
    # sums widen: int8 and uint8 sums do not wrap at 8 bits; an int32 sum wraps at 32 bits
    x8 = np.full((4, 300), 120, np.int8)
    out.append(case("sum/widen/int8", "sum", [(x8, {"dtype": "int8", "shape": [4, 300], "pattern": {"seed": 0, "lo": 120, "hi": 120}})],
                    (np.full((4,), 36000, np.int32), "int32"), {"axes": [1], "keepdim": False}))
    xu, su = pattern("uint8", (1000,), 4, 200, 255)
    out.append(case("sum/widen/uint8", "sum", [(xu, su)], (np.array(xu.astype(np.uint32).sum(dtype=np.uint32)), "uint32"),
                    {"axes": None, "keepdim": False}))
    xi = arr([2**31 - 1, 1, 5], "int32")
    out.append(case("sum/wraps/int32", "sum", [(xi, "int32")], (np.array(wrap(2**31 + 5, "int32"), np.int32), "int32"),
                    {"axes": None, "keepdim": False}))
    xb, sb = pattern("bool", (3, 200), 6, 0, 1)
    out.append(case("sum/bool_counts", "sum", [(xb, sb)], (xb.sum(1, dtype=np.int32), "int32"), {"axes": [-1], "keepdim": False}))
    # mean of integers is f32; its sum accumulates in i32 first
    xm, sm = pattern("int16", (6, 50), 7, -30000, 30000)
    want, wdt = ref("mean", xm, "int16", [1], False)
    out.append(case("mean/int16", "mean", [(xm, sm)], (want, wdt), {"axes": [1], "keepdim": False}, 1e-6, 1e-3))
    # prod of integers wraps
    xp = arr([[1000, 1000, 1000, 7], [-3, 5, 2, 1]], "int32")
    out.append(case("prod/wraps/int32", "prod", [(xp, "int32")],
                    (np.array([wrap(7 * 10**9, "int32"), -30], np.int32), "int32"), {"axes": [1], "keepdim": False}))
    # long f16 sum: accumulated in f32, so it does not stall at 2048 as an f16 accumulator would
    xh = np.ones((4096,), np.float16)
    out.append(case("sum/long/float16", "sum", [(xh, {"dtype": "float16", "shape": [4096], "pattern": {"seed": 0, "lo": 1.0, "hi": 1.0}})],
                    (np.array(4096.0, np.float16), "float16"), {"axes": None, "keepdim": False}))
    # rows of a multiple of 8: a CPU reads 8 elements a load (pairs of vectors), so each
    # lane of those loads must land where it belongs (16-bit lanes four to a 64-bit word)
    for dt, seed, lo, hi in [("float16", 9, -2.0, 2.0), ("int16", 10, -3000, 3000)]:
        xw, sw = pattern(dt, (5, 96), seed, lo, hi)
        for op in ["sum", "max", "min"]:
            want, wdt = ref(op, xw, dt, [1], False)
            rt, at = red_tol(op, dt, 96)
            out.append(case(f"{op}/wide/{dt}", op, [(xw, sw)], (want, wdt), {"axes": [1], "keepdim": False}, rt, at))
    xf, sf = pattern("float32", (37, 129), 8, -2.0, 2.0)
    for op in ["sum", "max", "min", "mean"]:
        for axes in [[0], [1], None]:
            want, wdt = ref(op, xf, "float32", axes, False)
            n = int(np.prod([xf.shape[a] for a in axes_of(xf, axes)]))
            rt, at = red_tol(op, "float32", n)
            out.append(case(f"{op}/big/{axes}", op, [(xf, sf)], (want, wdt), {"axes": axes, "keepdim": False}, rt, at))
    # sum with an explicit accumulation dtype (tinygrad's sum(dtype=...)): wraps in it
    xs = arr([100, 100, 100], "int8")
    out.append(case("sum_as/int8", "sum_as", [(xs, "int8")], (np.array(44, np.int8), "int8"),
                    {"axes": None, "keepdim": False, "dtype": "int8"}))
    out.append(case("sum_as/float16_to_float64", "sum_as", [(ramp((2, 3), "float16"), "float16")],
                    (ramp((2, 3), "float16").astype(np.float64).sum(1), "float64"), {"axes": [1], "keepdim": False, "dtype": "float64"}))
    return out


# ---------------------------------------------------------------- matmul

def product_dtype(dt, acc):
    """tg's DType::product_dtype: products form in the accumulator where it holds them exactly
    (f16 in f32 or f64, f32 in f64), else in the operands' dtype."""
    exact = {("float16", "float32"), ("float16", "float64"), ("float32", "float64")}
    return acc if (dt, acc) in exact else dt


def ref_dot(x, xdt, w, wdt, acc=None):
    """tinygrad's dot: products in the least upper dtype (wrapping or rounding there), summed
    in `acc` or sum_acc_dtype, cast to `acc` or the least upper dtype; tg forms the products
    in the accumulator where it holds them exactly (product_dtype)."""
    lu = least_upper(xdt, wdt)
    pdt = product_dtype(lu, acc or sum_acc(lu))
    xs, ws = x.astype(DTYPES[lu]).astype(DTYPES[pdt]), w.astype(DTYPES[lu]).astype(DTYPES[pdt])
    if w.ndim >= 2:
        we = np.swapaxes(ws, -1, -2)
        prod = xs[..., :, None, :] * we[..., None, :, :] if x.ndim > 1 else xs * we
    else:
        prod = xs * ws
    if lu == "bool":
        prod = prod.astype(bool)
    adt = acc or sum_acc(lu)
    total = prod.astype(DTYPES[adt]).sum(-1, dtype=DTYPES[adt])
    outdt = acc or lu
    return total.astype(DTYPES[outdt]), outdt


def matmul_cases():
    out = []
    shapes = [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((2, 2, 3), (3, 4)), ((2, 3), (4, 3, 5)),
              ((2, 1, 2, 3), (3, 3, 4)), ((4, 2, 3), (4, 3, 2)), ((3,), (2, 3, 4)), ((2, 2, 3), (3,)), ((1, 1), (1, 1)),
              ((2, 0), (0, 3)), ((0, 3), (3, 2)), ((3, 2), (2, 0)), ((0,), (0,))]
    for dt, tol in [("float32", 1e-4), ("float16", 2e-3), ("int32", 0.0), ("int8", 0.0), ("uint8", 0.0)]:
        for k, (sa, sb) in enumerate(shapes):
            if dt != "float32" and k in (1, 8, 9, 10, 13):
                continue
            a, b = ramp(sa, dt, k), ramp(sb, dt, k + 1)
            if dt == "int8":
                a, b = a * 3, b * 5  # products and sums that wrap at 8 bits
            want, wdt = ref_dot(a, dt, b, dt)
            out.append(case(f"matmul/{dt}/{list(sa)}@{list(sb)}", "matmul", [(a, dt), (b, dt)], (want, wdt), {}, tol, tol))
    # mixed dtypes meet in the least upper dtype
    for adt, bdt in [("int8", "uint8"), ("float16", "int32"), ("bool", "float32")]:
        a, b = ramp((2, 3), adt, 1), ramp((3, 2), bdt, 2)
        want, wdt = ref_dot(a, adt, b, bdt)
        out.append(case(f"matmul/mixed/{adt}@{bdt}", "matmul", [(a, adt), (b, bdt)], (want, wdt), {}, 2e-3, 2e-3))
    a, b = ramp((3, 4), "bool", 1), ramp((4, 2), "bool", 2)
    want, wdt = ref_dot(a, "bool", b, "bool")
    out.append(case("matmul/bool", "matmul", [(a, "bool"), (b, "bool")], (want, wdt)))
    # explicit accumulation dtype: the result has it; products still form in the inputs' dtype
    a, b = ramp((2, 3), "int8", 1) * 7, ramp((3, 2), "int8", 2) * 9
    want, wdt = ref_dot(a, "int8", b, "int8", "int32")
    out.append(case("dot/acc_int32/int8", "dot", [(a, "int8"), (b, "int8")], (want, wdt), {"acc": "int32"}))
    a, b = ramp((2, 5), "float16", 1), ramp((5, 3), "float16", 2)
    want, wdt = ref_dot(a, "float16", b, "float16", "float32")
    out.append(case("dot/acc_float32/float16", "dot", [(a, "float16"), (b, "float16")], (want, wdt), {"acc": "float32"}, 1e-6, 1e-6))
    # f16 products that need 22 bits: exact in the f32 accumulator (rounding each to f16 first
    # would be off by up to 2^-11 of it); 4 products below 4 sum exactly in f32 in any order,
    # so the result is compared exactly
    a = (1 + ((np.arange(12) * 37) % 1024) / 1024).reshape(3, 4).astype(np.float16)
    b = (1 + ((np.arange(20) * 101 + 5) % 1024) / 1024).reshape(4, 5).astype(np.float16)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    assert np.array_equal(exact.astype(np.float32).astype(np.float64), exact)
    rounded = (a[:, :, None] * b[None]).astype(np.float32).sum(1)
    assert not np.array_equal(rounded, exact.astype(np.float32))
    out.append(case("dot/acc_float32/float16_exact_products", "dot", [(a, "float16"), (b, "float16")],
                    (exact.astype(np.float32), "float32"), {"acc": "float32"}, 0.0, 0.0))
    out.append(case("matmul/float16/exact_products", "matmul", [(a, "float16"), (b, "float16")],
                    (exact.astype(np.float16), "float16"), {}, 0.0, 0.0))
    # bigger products, through the real reduction path
    for (m, kk, n), seed in [((33, 65, 17), 1), ((8, 300, 4), 2)]:
        x, sx = pattern("float32", (m, kk), seed, -1.0, 1.0)
        y, sy = pattern("float32", (kk, n), seed + 10, -1.0, 1.0)
        want, wdt = ref_dot(x, "float32", y, "float32")
        out.append(case(f"matmul/big/{m}x{kk}x{n}", "matmul", [(x, sx), (y, sy)], (want, wdt), {}, 1e-5, 1e-5))
    xb, sxb = pattern("float32", (3, 9, 20), 3, -1.0, 1.0)
    yb, syb = pattern("float32", (3, 20, 11), 4, -1.0, 1.0)
    want, wdt = ref_dot(xb, "float32", yb, "float32")
    out.append(case("matmul/big/batched", "matmul", [(xb, sxb), (yb, syb)], (want, wdt), {}, 1e-5, 1e-5))
    xi, sxi = pattern("int32", (16, 40), 5, -50, 50)
    yi, syi = pattern("int32", (40, 12), 6, -50, 50)
    want, wdt = ref_dot(xi, "int32", yi, "int32")
    out.append(case("matmul/big/int32", "matmul", [(xi, sxi), (yi, syi)], (want, wdt)))
    # linear: x @ weight(in, out) + bias; a 1-D weight scales elementwise (tinygrad)
    x, w, bias = ramp((2, 3), "float32"), ramp((3, 4), "float32", 1), ramp((4,), "float32", 2)
    want, _ = ref_dot(x, "float32", w, "float32")
    out.append(case("linear/bias", "linear", [(x, "float32"), (w, "float32"), (bias, "float32")], (want + bias, "float32"), {}, 1e-6, 1e-6))
    out.append(case("linear/no_bias", "linear", [(x, "float32"), (w, "float32")], (want, "float32"), {}, 1e-6, 1e-6))
    w1 = ramp((3,), "float32", 1)
    out.append(case("linear/1d_weight", "linear", [(x, "float32"), (w1, "float32"), (bias[:3], "float32")], (x * w1 + bias[:3], "float32"),
                    {}, 1e-6, 1e-6))
    xh, wh, bh = ramp((2, 3), "float16"), ramp((3, 2), "float16", 1), ramp((2,), "float16", 3)
    want, _ = ref_dot(xh, "float16", wh, "float16")
    out.append(case("linear/float16", "linear", [(xh, "float16"), (wh, "float16"), (bh, "float16")], ((want + bh).astype(np.float16), "float16"),
                    {}, 2e-3, 2e-3))
    out += long_f16_cases()
    return out


def f16_running_sum(prod):
    """The sum an f16 accumulator would reach, adding the (f16-rounded) products one at a
    time: what accumulating in the inputs' dtype loses. Not tg's result; the cases check
    that theirs is far from it."""
    return np.cumsum(prod.astype(np.float16), axis=-1, dtype=np.float16)[..., -1]


def long_f16_cases():
    """f16 products summed over a long inner axis, partial sums passing 2048 (where f16's
    spacing becomes 2, then 4 past 4096): an f16 accumulator would drop most of each addend.
    tinygrad's default (sum_acc_dtype: f32, result cast back to f16) and an explicit f32
    accumulation (result f32) both hold the sum; appended last, so earlier cases keep their
    bytes."""
    out = []
    for name, (sa, sb) in [("dot", ((4100,), (4100,))), ("matmul", ((4, 3000), (3000, 5)))]:
        a, sa_spec = pattern("float16", sa, 21, 0.5, 2.0)
        b, sb_spec = pattern("float16", sb, 22, 0.5, 2.0)
        want16, dt16 = ref_dot(a, "float16", b, "float16")
        want32, dt32 = ref_dot(a, "float16", b, "float16", "float32")
        assert (dt16, dt32) == ("float16", "float32")
        prod = a[..., :, None] * b if a.ndim > 1 else a * b
        lost = f16_running_sum(np.swapaxes(prod, -1, -2) if a.ndim > 1 else prod)
        assert np.all(np.abs(lost.astype(np.float64) / want32 - 1) > 0.02), "f16 accumulation must visibly lose"
        assert np.all(want32 > 2048)
        k = sa[-1]
        ins = [(a, sa_spec), (b, sb_spec)]
        out.append(case(f"{name}/float16/long_k{k}/default_acc", "matmul", ins,
                        (want16, dt16), {}, 1e-3, 0.0))
        out.append(case(f"dot/acc_float32/float16/long_k{k}/{name}", "dot", ins, (want32, dt32), {"acc": "float32"},
                        1e-5, 0.0))
    return out


if __name__ == "__main__":
    write("ops_movement", movement_cases())
    write("ops_reduce", reduce_cases())
    write("ops_matmul", matmul_cases())
