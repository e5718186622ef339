"""Generates fixtures/ops_pool.json, ops_conv.json and ops_norm.json: reference values for
tg-ops' pooling, convolution and normalization ops.

Pooling and convolution are written out as explicit loops over output positions with torch's
semantics (numpy has no such ops), for any number of spatial axes, as tg's ops take. Where
tinygrad (whose op library tg carries) differs from torch, the expected values follow tinygrad,
and a comment says so.

Run: python3 scripts/gen_ops_conv.py   (numpy; deterministic output)"""

import itertools
import math

import numpy as np

from fixtures_common import DTYPES, is_float, pattern, tensor, wrap, write

np.seterr(all="ignore")

SUM_ACC = {"bool": "int32", "int8": "int32", "int16": "int32", "int32": "int32", "int64": "int64",
           "uint8": "uint32", "uint16": "uint32", "uint32": "uint32", "uint64": "uint64",
           "float16": "float16", "float32": "float32", "float64": "float64"}


def mean_dtype(dt):
    return dt if is_float(dt) else "float32"


def ramp(shape, dt, start=0):
    """Distinct small values of shape `shape`: halves and quarters for floats (exact in f16),
    alternating signs for signed types."""
    n = int(np.prod(shape))
    i = np.arange(n)
    if dt.startswith("uint"):
        v = (i * 7 + start) % 23
    elif dt.startswith("int"):
        v = ((i * 7 + start) % 23 - 11)
    else:
        v = ((i * 7 + start) % 23 - 11) * 0.25
    return v.astype(DTYPES[dt]).reshape(shape)


def inp(a, dt, seed=None, lo=-1.0, hi=1.0):
    """An input: its values, and the spec (a pattern for big inputs)."""
    if seed is not None:
        return pattern(dt, a, seed, lo, hi)
    return a, tensor(a, dt)


def case(name, op, inputs, outs, args, rtol=0.0, atol=0.0):
    c = {"name": name, "op": op, "args": args, "inputs": [s for _, s in inputs], "rtol": rtol, "atol": atol}
    if isinstance(outs, list):
        c["outs"] = [tensor(np.asarray(a), dt) for a, dt in outs]
    else:
        c["out"] = tensor(np.asarray(outs[0]), outs[1])
    return c


def tol(dt):
    return {"float16": (2e-3, 2e-3), "float32": (1e-5, 1e-5), "float64": (1e-12, 1e-12)}.get(dt, (0.0, 0.0))


# ---------------------------------------------------------------- padding and windows

def padding_arg(kind, value):
    return {"kind": kind, "value": value}


def resolve_pads(p, dims):
    """(before, after) per spatial axis, first axis first, from tg's Padding forms."""
    kind, v = p["kind"], p["value"]
    if kind == "uniform":
        return [(v, v)] * dims
    if kind == "per_axis":
        return [(x, x) for x in v]
    if kind == "flat":  # torch's order: the last axis first
        return [(v[2 * (dims - 1 - a)], v[2 * (dims - 1 - a) + 1]) for a in range(dims)]
    return [tuple(x) for x in v]


def make(v, dims):
    return list(v) * dims if len(v) == 1 else list(v)


def pool_out(i, k, s, d, pb, pa, ceil):
    """torch's output size: floor (or ceil) of the window count, and in ceil mode no window
    starting in the end padding."""
    span = i + pb + pa - d * (k - 1) - 1
    o = (-(-span // s) if ceil else span // s) + 1
    if ceil and (o - 1) * s >= i + pb:
        o -= 1
    # tinygrad's _apply_ceil_mode must give the same size
    if ceil:
        e = d * (k - 1) + 1
        ot = -(-(i + pb + pa - e) // s) + 1
        pa2 = pa + s * (ot - 1) + e - (i + pb + pa) - max(s * (ot - 1) - (pb + i - 1), 0)
        assert (i + pb + pa2 - e) // s + 1 == o, (i, k, s, d, pb, pa)
    return o


def windows(sp, k, s, d, pads, ceil):
    """For each output position: the list of (kernel index, input position) of its window."""
    dims = len(sp)
    outs = [pool_out(sp[a], k[a], s[a], d[a], pads[a][0], pads[a][1], ceil) for a in range(dims)]
    res = []
    for o in itertools.product(*[range(x) for x in outs]):
        w = []
        for j in itertools.product(*[range(x) for x in k]):
            w.append((j, tuple(o[a] * s[a] - pads[a][0] + j[a] * d[a] for a in range(dims))))
        res.append((o, w))
    return outs, res


def inside(p, lo, hi):
    return all(lo[a] <= p[a] < hi[a] for a in range(len(p)))


# ---------------------------------------------------------------- pooling references

def pool_view_ref(x, k, s, d):
    """tinygrad's _pool: (..., *o, *k) windows, no padding, o = ceil((i - d(k-1)) / s)."""
    dims = len(k)
    sp = x.shape[-dims:]
    outs, wins = windows(sp, k, s, d, [(0, 0)] * dims, False)
    res = np.zeros(x.shape[:-dims] + tuple(outs) + tuple(k), x.dtype)
    for o, w in wins:
        for j, p in w:
            res[(Ellipsis,) + o + j] = x[(Ellipsis,) + p]
    return res


def avg_ref(x, dt, k, s, d, pads, ceil, include_pad):
    dims = len(k)
    sp = x.shape[-dims:]
    outs, wins = windows(sp, k, s, d, pads, ceil)
    lead = x.shape[:-dims]
    xf = x.astype(np.float64).reshape((-1,) + sp)
    res = np.zeros((xf.shape[0],) + tuple(outs))
    lo_pad = [-pads[a][0] for a in range(dims)]
    hi_pad = [sp[a] + pads[a][1] for a in range(dims)]
    for o, w in wins:
        total = np.zeros(xf.shape[0])
        count = 0
        for _, p in w:
            if inside(p, [0] * dims, sp):
                total += xf[(slice(None),) + p]
            # torch: padding counts, but not what ceil mode adds past it
            if (inside(p, lo_pad, hi_pad) if include_pad else inside(p, [0] * dims, sp)):
                count += 1
        res[(slice(None),) + o] = total / count
    return res.reshape(lead + tuple(outs)).astype(DTYPES[mean_dtype(dt)])


def max_ref(x, dt, k, s, d, pads, ceil):
    """Values and flat spatial indices of the first maximum; NaN wins (the first NaN) -- tg's
    documented rule; tinygrad's composition would give an index past the end for NaN."""
    dims = len(k)
    sp = x.shape[-dims:]
    outs, wins = windows(sp, k, s, d, pads, ceil)
    lead = x.shape[:-dims]
    xf = x.reshape((-1,) + sp)
    vals = np.zeros((xf.shape[0],) + tuple(outs), x.dtype)
    idx = np.zeros((xf.shape[0],) + tuple(outs), np.int32)
    for b in range(xf.shape[0]):
        for o, w in wins:
            best, bi = None, None
            for _, p in w:
                if not inside(p, [0] * dims, sp):
                    continue
                v = xf[(b,) + p]
                fi = int(np.ravel_multi_index(p, sp))
                if best is None:
                    best, bi = v, fi
                elif is_float(dt) and math.isnan(float(best)):
                    pass
                elif (is_float(dt) and math.isnan(float(v))) or v > best:
                    best, bi = v, fi
            vals[(b,) + o] = best
            idx[(b,) + o] = bi
    return vals.reshape(lead + tuple(outs)), idx.reshape(lead + tuple(outs))


def unpool_ref(v, idx, dt, out_sp):
    """Values placed at their indices; repeated indices add up (tinygrad's one-hot sum; torch
    keeps one). The sum is in tinygrad's accumulation dtype."""
    bs, c = v.shape[:2]
    n = int(np.prod(out_sp))
    acc = SUM_ACC[dt]
    res = np.zeros((bs, c, n), np.float64 if is_float(dt) else np.int64)
    vf, fi = v.reshape(bs, c, -1), idx.reshape(bs, c, -1)
    for b in range(bs):
        for ch in range(c):
            for j in range(vf.shape[2]):
                res[b, ch, fi[b, ch, j]] += vf[b, ch, j]
    res = res.reshape((bs, c) + tuple(out_sp))
    if not is_float(dt):
        res = np.vectorize(lambda q: wrap(int(q), acc))(res) if res.size else res
    return res.astype(DTYPES[acc])


def pool_cases():
    out = []

    def pool_args(k, stride=None, dilation=(1,), padding=None, ceil=False, include_pad=True):
        return {"kernel": list(k), "stride": None if stride is None else list(stride), "dilation": list(dilation),
                "padding": padding or padding_arg("uniform", 0), "ceil_mode": ceil, "count_include_pad": include_pad}

    def resolved(x, a):
        dims = len(a["kernel"])
        k = a["kernel"]
        s = make(a["stride"], dims) if a["stride"] is not None else k
        return k, s, make(a["dilation"], dims), resolve_pads(a["padding"], dims)

    def avg(name, x, spec, dt, **kw):
        a = pool_args(**kw)
        k, s, d, pads = resolved(x, a)
        want = avg_ref(x, dt, k, s, d, pads, a["ceil_mode"], a["count_include_pad"])
        r, t = tol(mean_dtype(dt))
        out.append(case(f"avg_pool2d/{name}/{dt}", "avg_pool2d", [(x, spec)], (want, mean_dtype(dt)), a, r, t))

    def mx(name, x, spec, dt, indices=True, **kw):
        a = pool_args(**kw)
        k, s, d, pads = resolved(x, a)
        vals, idx = max_ref(x, dt, k, s, d, pads, a["ceil_mode"])
        if indices:
            out.append(case(f"max_pool2d_with_indices/{name}/{dt}", "max_pool2d_with_indices", [(x, spec)],
                            [(vals, dt), (idx, "int32")], a))
        else:
            out.append(case(f"max_pool2d/{name}/{dt}", "max_pool2d", [(x, spec)], (vals, dt), a))

    # the window view itself
    for name, shape, k, s, d in [("overlap", (2, 5, 6), (3, 2), (1, 2), (1, 1)), ("dilated", (7,), (2,), (2,), (3,)),
                                 ("apart", (1, 7, 8), (2, 3), (3, 4), (1, 1)), ("one", (3, 4), (1,), (1,), (1,)),
                                 ("3d", (2, 4, 3, 5), (2, 1, 3), (2, 1, 1), (1, 2, 2))]:
        for dt in ["float32", "int16"]:
            x = ramp(shape, dt)
            out.append(case(f"pool/{name}/{dt}", "pool", [(x, tensor(x, dt))], (pool_view_ref(x, k, s, d), dt),
                            {"kernel": list(k), "stride": list(s), "dilation": list(d)}))

    # average pooling
    x, sp = inp((2, 3, 5, 7), "float32", seed=11)
    avg("default", x, sp, "float32", k=(2, 2))
    avg("pad_include", x, sp, "float32", k=(3, 3), stride=(2,), padding=padding_arg("uniform", 1))
    avg("pad_exclude", x, sp, "float32", k=(3, 3), stride=(2,), padding=padding_arg("uniform", 1), include_pad=False)
    avg("stride_gt_kernel", x, sp, "float32", k=(2, 3), stride=(3, 1), padding=padding_arg("per_axis", [1, 1]))
    avg("dilated_flat_pad", x, sp, "float32", k=(2, 2), stride=(1,), dilation=(2,), padding=padding_arg("flat", [1, 0, 0, 2]))
    avg("dilated_flat_pad_exclude", x, sp, "float32", k=(2, 2), stride=(1,), dilation=(2,),
        padding=padding_arg("flat", [1, 0, 0, 2]), include_pad=False)
    avg("negative_pad", x, sp, "float32", k=(2, 2), stride=(1,), padding=padding_arg("pairs", [[-1, 0], [1, -2]]))
    x6, s6 = inp((1, 2, 6, 6), "float32", seed=12)
    # ceil mode: the last window hangs over the end; its divisor counts padding, not the overhang
    avg("ceil_include", x6, s6, "float32", k=(3, 3), stride=(2,), padding=padding_arg("uniform", 1), ceil=True)
    avg("ceil_exclude", x6, s6, "float32", k=(3, 3), stride=(2,), padding=padding_arg("uniform", 1), ceil=True, include_pad=False)
    avg("ceil_no_pad", x6, s6, "float32", k=(4, 4), stride=(3,), ceil=True)
    x5, s5 = inp((1, 1, 5, 5), "float32", seed=13)
    # a 4th window would start in the end padding: ceil mode drops it
    avg("ceil_drops_padding_window", x5, s5, "float32", k=(2, 2), stride=(2,), padding=padding_arg("uniform", 1), ceil=True)
    x1, s1 = inp((2, 3, 9), "float32", seed=14)
    avg("1d", x1, s1, "float32", k=(3,), stride=(2,), padding=padding_arg("pairs", [[2, 1]]), include_pad=False)
    avg("1d_ceil", x1, s1, "float32", k=(4,), stride=(3,), padding=padding_arg("uniform", 1), ceil=True)
    x3, s3 = inp((1, 2, 4, 5, 3), "float32", seed=15)
    avg("3d", x3, s3, "float32", k=(2, 2, 2), stride=(1,))
    avg("3d_ceil", x3, s3, "float32", k=(2, 3, 2), stride=(2,), padding=padding_arg("per_axis", [1, 0, 1]), ceil=True)
    avg("size1", ramp((1, 1, 1, 5), "float32"), tensor(ramp((1, 1, 1, 5), "float32"), "float32"), "float32", k=(1, 2))
    e = np.zeros((0, 2, 4, 4), np.float32)
    avg("empty_batch", e, tensor(e, "float32"), "float32", k=(2, 2))
    xh, sh = inp((1, 2, 5, 6), "float16", seed=16)
    avg("pad_include", xh, sh, "float16", k=(3, 3), stride=(2,), padding=padding_arg("uniform", 1))
    avg("ceil_exclude", xh, sh, "float16", k=(2, 2), ceil=True, include_pad=False)
    for dt in ["int8", "uint8", "int32"]:
        xi = ramp((1, 2, 5, 5), dt)
        # integer inputs average to f32 (tinygrad's mean and division)
        avg("pad_include", xi, tensor(xi, dt), dt, k=(2, 2), stride=(1,), padding=padding_arg("uniform", 1))
        avg("ceil_exclude", xi, tensor(xi, dt), dt, k=(2, 2), ceil=True, include_pad=False)

    # max pooling
    xm, sm = inp((2, 2, 7, 7), "float32", seed=21)
    mx("k3s2p1", xm, sm, "float32", k=(3, 3), stride=(2,), padding=padding_arg("uniform", 1))
    mx("default", xm, sm, "float32", k=(2, 2), indices=False)
    mx("dilated_ceil", xm, sm, "float32", k=(2, 2), stride=(2,), dilation=(2,), ceil=True)
    mx("stride_gt_kernel", xm, sm, "float32", k=(2, 1), stride=(3, 2), padding=padding_arg("per_axis", [1, 0]))
    mx("ceil_drops_padding_window", xm, sm, "float32", k=(2, 2), stride=(2,), padding=padding_arg("uniform", 1), ceil=True)
    mx("flat_pad", xm, sm, "float32", k=(3, 2), stride=(1, 2), padding=padding_arg("flat", [1, 0, 0, 1]))
    mx("negative_pad", xm, sm, "float32", k=(2, 2), stride=(2,), padding=padding_arg("uniform", -1))
    special = np.array([[1.0, np.nan, 3.0, -np.inf], [2.0, 5.0, np.inf, 0.0], [-np.inf, -np.inf, 4.0, 4.0],
                        [7.0, 7.0, np.nan, np.nan]], np.float32).reshape(1, 1, 4, 4)
    mx("nan_inf", special, tensor(special, "float32"), "float32", k=(2, 2))
    mx("nan_inf_overlap", special, tensor(special, "float32"), "float32", k=(2, 2), stride=(1,), padding=padding_arg("uniform", 1))
    ties = np.array([3, 3, 1, 3, 2, 2, 2, 2, -1], np.float32).reshape(1, 1, 3, 3)
    mx("ties", ties, tensor(ties, "float32"), "float32", k=(2, 2), stride=(1,))
    allneg = np.full((1, 1, 2, 3), -np.inf, np.float32)
    mx("all_neg_inf_padded", allneg, tensor(allneg, "float32"), "float32", k=(2, 2), padding=padding_arg("uniform", 1))
    xh, sh = inp((1, 3, 6, 5), "float16", seed=22)
    mx("k3s2p1", xh, sh, "float16", k=(3, 3), stride=(2,), padding=padding_arg("uniform", 1))
    for dt in ["int8", "uint8", "int32"]:
        xi = ramp((2, 1, 5, 6), dt)
        if dt == "int8":
            xi[0, 0, :2, :2] = -128  # a window of the minimum next to the padding, which is the minimum too
        mx("k3s2p1", xi, tensor(xi, dt), dt, k=(3, 3), stride=(2,), padding=padding_arg("uniform", 1))
        mx("ceil", xi, tensor(xi, dt), dt, k=(2, 2), ceil=True, indices=False)
    x1, s1 = inp((2, 3, 11), "float32", seed=23)
    mx("1d", x1, s1, "float32", k=(3,), stride=(2,), padding=padding_arg("uniform", 1))
    x3, s3 = inp((1, 2, 5, 4, 6), "float32", seed=24)
    mx("3d", x3, s3, "float32", k=(2, 2, 3), stride=(2, 1, 2), padding=padding_arg("per_axis", [1, 0, 1]))
    mx("size1", ramp((1, 1, 1, 5), "int32"), tensor(ramp((1, 1, 1, 5), "int32"), "int32"), "int32", k=(1, 3), stride=(1,))

    # unpooling the outputs of max pools
    def unpool(name, x, dt, pool_kw, output_size=None):
        a = pool_args(**pool_kw)
        k, s, d, pads = resolved(x, a)
        vals, idx = max_ref(x, dt, k, s, d, pads, a["ceil_mode"])
        sp = vals.shape[2:]
        if output_size is None:
            out_sp = [(sp[i] - 1) * s[i] - (pads[i][0] + pads[i][1]) + d[i] * (k[i] - 1) + 1 for i in range(len(sp))]
        else:
            out_sp = output_size[-len(sp):]
        want = unpool_ref(vals, idx, dt, out_sp)
        a["output_size"] = output_size
        r, t = tol(SUM_ACC[dt])
        out.append(case(f"max_unpool2d/{name}/{dt}", "max_unpool2d", [(vals, tensor(vals, dt)), (idx, tensor(idx, "int32"))],
                        (want, SUM_ACC[dt]), a, r, t))

    xu, _ = inp((2, 2, 4, 4), "float32", seed=31)
    unpool("k2", xu, "float32", {"k": (2, 2)})
    xo = pattern("float32", (1, 2, 5, 5), 32, -1.0, 1.0)[0]
    unpool("output_size", xo, "float32", {"k": (2, 2)}, output_size=[1, 2, 5, 5])
    unpool("k3s2p1", xo, "float32", {"k": (3, 3), "stride": (2,), "padding": padding_arg("uniform", 1)})
    # overlapping windows share maxima: repeated indices add up (tinygrad)
    unpool("overlap_adds", xo, "float32", {"k": (3, 3), "stride": (1,)})
    unpool("1d", pattern("float32", (2, 1, 7), 33, -1.0, 1.0)[0], "float32", {"k": (2,)}, output_size=[7])
    unpool("k2", ramp((1, 2, 4, 4), "float16"), "float16", {"k": (2, 2)})
    # i8 values sum in i32, tinygrad's accumulation dtype
    unpool("k2", ramp((1, 1, 4, 6), "int8"), "int8", {"k": (2, 3)})
    return out


# ---------------------------------------------------------------- convolution references

def operand(shape, dt, seed, lo, hi):
    """Inputs of convolutions: stored ramps for small float ones, patterns otherwise (integer
    patterns span enough that i8 and u8 products wrap)."""
    if is_float(dt) and np.prod(shape) <= 200:
        a = ramp(shape, dt, seed)
        return a, tensor(a, dt)
    return pattern(dt, shape, seed, lo, hi)


def conv_ref(x, w, b, dt, groups, stride, dilation, pads, acc=None):
    """torch's conv (a cross-correlation) for any number of spatial axes. Products are formed
    in the operands' dtype (f16 rounds them, integers wrap) and summed exactly, then rounded to
    the accumulation dtype, as tg's (and tinygrad's) conv sums products."""
    dims = x.ndim - 2
    bs, cin_all = x.shape[:2]
    cout, cin = w.shape[:2]
    k = w.shape[2:]
    sp = x.shape[2:]
    outs = [pool_out(sp[a], k[a], stride[a], dilation[a], pads[a][0], pads[a][1], False) for a in range(dims)]
    rc = cout // groups
    wide = np.float64 if is_float(dt) else np.int64
    res = np.zeros((bs, cout) + tuple(outs), wide)
    for o in itertools.product(*[range(n) for n in outs]):
        for g in range(groups):
            for j in itertools.product(*[range(n) for n in k]):
                p = tuple(o[a] * stride[a] - pads[a][0] + j[a] * dilation[a] for a in range(dims))
                if not inside(p, [0] * dims, sp):
                    continue
                xs = x[(slice(None), slice(g * cin, (g + 1) * cin)) + p]  # (bs, cin)
                ws = w[(slice(g * rc, (g + 1) * rc), slice(None)) + j]  # (rc, cin)
                prod = xs[:, None, :] * ws[None, :, :]  # in the operands' dtype
                res[(slice(None), slice(g * rc, (g + 1) * rc)) + o] += prod.astype(wide).sum(-1)
    out_dt = acc or SUM_ACC[dt]
    if b is not None:
        res = res + b.astype(wide).reshape((1, -1) + (1,) * dims)
    if not is_float(out_dt):
        res = np.vectorize(lambda q: wrap(int(q), out_dt))(res)
    return res.astype(DTYPES[out_dt])


def conv_transpose_ref(x, w, b, dt, groups, stride, dilation, pads, out_pad):
    """torch's conv_transpose: each input element scatters its kernel-weighted values to
    `i * stride - pad_before + k * dilation`; the output is cut by the pads and grown by
    output_padding at the end."""
    dims = x.ndim - 2
    bs, cin_all = x.shape[:2]
    cin_g = cin_all // groups
    rc = w.shape[1]
    k = w.shape[2:]
    sp = x.shape[2:]
    full = [(sp[a] - 1) * stride[a] + dilation[a] * (k[a] - 1) + 1 + out_pad[a] for a in range(dims)]
    outs = [full[a] - pads[a][0] - pads[a][1] for a in range(dims)]
    wide = np.float64 if is_float(dt) else np.int64
    res = np.zeros((bs, groups * rc) + tuple(outs), wide)
    for i in itertools.product(*[range(n) for n in sp]):
        for g in range(groups):
            for j in itertools.product(*[range(n) for n in k]):
                q = tuple(i[a] * stride[a] - pads[a][0] + j[a] * dilation[a] for a in range(dims))
                if not inside(q, [0] * dims, outs):
                    continue
                xs = x[(slice(None), slice(g * cin_g, (g + 1) * cin_g)) + i]  # (bs, cin_g)
                ws = w[(slice(g * cin_g, (g + 1) * cin_g), slice(None)) + j]  # (cin_g, rc)
                prod = xs[:, :, None] * ws[None, :, :]
                res[(slice(None), slice(g * rc, (g + 1) * rc)) + q] += prod.astype(wide).sum(1)
    if b is not None:
        res = res + b.astype(wide).reshape((1, -1) + (1,) * dims)
    out_dt = SUM_ACC[dt]
    if not is_float(out_dt):
        res = np.vectorize(lambda v: wrap(int(v), out_dt))(res)
    return res.astype(DTYPES[out_dt])


def conv_cases():
    out = []

    def conv(name, xs, ws, dt, groups=1, stride=(1,), dilation=(1,), padding=None, bias=True, seed=0, acc=None,
             algorithms=("direct",), wtol=None, residual=False, clip=None):
        padding = padding or padding_arg("uniform", 0)
        dims = len(xs) - 2
        lo, hi = (-1.0, 1.0) if is_float(dt) else ((-20, 20) if dt != "uint8" else (0, 20))
        x, sx = operand(xs, dt, seed + 1, lo, hi)
        w, sw = operand(ws, dt, seed + 2, lo, hi)
        inputs = [(x, sx), (w, sw)]
        b = None
        if bias:
            b = ramp((ws[0],), dt, seed + 5)
            inputs.append((b, tensor(b, dt)))
        s, d = make(stride, dims), make(dilation, dims)
        want = conv_ref(x, w, b, dt, groups, s, d, resolve_pads(padding, dims), acc)
        # what a model applies next, fused into the convolution's kernel: the input added back
        # (a residual block), then a clip (ReLU6), each rounded in the output's dtype
        if residual:
            want = (want + x).astype(want.dtype)
        if clip is not None:
            want = np.clip(want, clip[0], clip[1]).astype(want.dtype)
        out_dt = acc or SUM_ACC[dt]
        r, t = tol(out_dt)
        args = {"groups": groups, "residual": residual, "clip": clip, "stride": list(stride), "dilation": list(dilation), "padding": padding,
                "acc": acc, "algorithms": list(algorithms), "bias": bias,
                # Winograd rounds differently: its transforms add and scale many terms (f16 is
                # transformed in f32, so it differs from the f16 products of the direct form)
                "winograd_tol": wtol or ([1e-4, 1e-4] if dt == "float32" else [4e-3, 8e-3])}
        out.append(case(f"conv2d/{name}/{dt}", "conv2d", inputs, (want, out_dt), args, r, t))

    ALL3 = ("direct", "winograd", "image")
    conv("basic_3x3", (1, 2, 5, 5), (3, 2, 3, 3), "float32", algorithms=ALL3)
    conv("pad1_3x3", (2, 3, 6, 7), (4, 3, 3, 3), "float32", padding=padding_arg("uniform", 1), algorithms=("direct", "image"))
    conv("groups2", (2, 4, 6, 5), (6, 2, 3, 3), "float32", groups=2, padding=padding_arg("per_axis", [1, 0]), algorithms=ALL3)
    conv("depthwise", (1, 4, 5, 5), (4, 1, 3, 3), "float32", groups=4, padding=padding_arg("uniform", 1), algorithms=ALL3)
    conv("depthwise_mult2", (1, 4, 6, 6), (8, 1, 3, 3), "float32", groups=4, padding=padding_arg("uniform", 1),
         algorithms=("direct", "image"))
    conv("depthwise_odd", (1, 3, 5, 4), (3, 1, 3, 3), "float32", groups=3, algorithms=ALL3)
    conv("stride2_dil2", (1, 3, 9, 8), (2, 3, 3, 3), "float32", stride=(2,), dilation=(2,),
         padding=padding_arg("per_axis", [1, 2]), algorithms=("direct", "image"))
    conv("stride_gt_kernel", (1, 2, 8, 7), (3, 2, 2, 2), "float32", stride=(3,), algorithms=("direct", "image"))
    conv("flat_pad", (1, 2, 5, 6), (3, 2, 3, 3), "float32", padding=padding_arg("flat", [2, 0, 1, 3]), algorithms=ALL3)
    conv("negative_pad", (1, 2, 7, 7), (2, 2, 3, 3), "float32", padding=padding_arg("uniform", -1), algorithms=ALL3)
    conv("mixed_pad", (1, 2, 6, 7), (2, 2, 3, 2), "float32", padding=padding_arg("pairs", [[2, -1], [-2, 1]]),
         algorithms=("direct", "image"))
    conv("odd_channels", (1, 3, 5, 5), (5, 3, 3, 3), "float32", padding=padding_arg("uniform", 1), algorithms=ALL3)
    conv("cin8", (1, 8, 4, 4), (8, 8, 3, 3), "float32", padding=padding_arg("uniform", 1), algorithms=("direct", "image"))
    conv("1x1_on_1x1", (2, 8, 1, 1), (4, 8, 1, 1), "float32", algorithms=("direct", "image"))
    conv("1x1_on_1x1_odd", (2, 3, 1, 1), (5, 3, 1, 1), "float32", algorithms=("direct", "image"))
    conv("rect_kernel", (2, 2, 6, 5), (3, 2, 1, 3), "float32", stride=(1, 2), bias=False, algorithms=("direct", "image"))
    conv("tiles_not_multiple", (1, 1, 11, 9), (1, 1, 3, 3), "float32", padding=padding_arg("uniform", 2), algorithms=ALL3)
    conv("size1_out", (1, 2, 3, 3), (2, 2, 3, 3), "float32", algorithms=ALL3)
    conv("empty_batch", (0, 2, 5, 5), (3, 2, 3, 3), "float32", algorithms=("direct", "winograd"))
    conv("1d", (2, 3, 10), (4, 3, 3), "float32", stride=(2,), padding=padding_arg("uniform", 1))
    conv("1d_3", (2, 3, 10), (4, 3, 3), "float32", padding=padding_arg("pairs", [[1, 2]]), algorithms=("direct", "winograd"))
    conv("1d_dilated", (1, 2, 12), (2, 2, 4), "float32", dilation=(3,), padding=padding_arg("flat", [0, 2]))
    conv("3d", (1, 2, 4, 5, 4), (2, 2, 3, 3, 3), "float32", padding=padding_arg("uniform", 1), algorithms=("direct", "winograd"))
    conv("3d_stride", (1, 2, 5, 4, 6), (3, 2, 2, 2, 3), "float32", stride=(2, 1, 2), padding=padding_arg("per_axis", [0, 1, 1]))
    conv("3x3", (1, 3, 6, 6), (4, 3, 3, 3), "float16", padding=padding_arg("uniform", 1), algorithms=ALL3)
    conv("3x3_groups", (1, 4, 5, 5), (4, 2, 3, 3), "float16", groups=2, stride=(2,), algorithms=("direct", "image"))
    # the accumulation dtype: f16 products summed and returned in f32 (tinygrad's dtype=)
    conv("acc_f32", (1, 3, 6, 6), (4, 3, 3, 3), "float16", padding=padding_arg("uniform", 1), acc="float32",
         algorithms=("direct", "image"))
    # i8 products wrap in i8 before the i32 sum (tinygrad)
    conv("3x3", (1, 2, 5, 5), (3, 2, 3, 3), "int8", padding=padding_arg("uniform", 1))
    conv("groups", (1, 4, 5, 4), (4, 2, 2, 2), "int32", groups=2, stride=(2, 1))
    conv("3x3", (1, 2, 5, 5), (2, 2, 3, 3), "uint8", algorithms=("direct", "winograd"))  # ints fall back to direct
    # outputs whose last axis is not a whole number of vectors: the direct form computes up to a
    # quarter more columns so the scheduler tiles it, and cuts them off (7 -> 8 as ResNet's last
    # stage, 14 -> 16, 13 -> 16 with stride 2, 7 -> 8 dilated, a transposed gradient's input)
    conv("resnet_7x7", (1, 8, 7, 7), (8, 8, 3, 3), "float32", padding=padding_arg("uniform", 1))
    conv("resnet_14x14", (1, 4, 14, 14), (8, 4, 3, 3), "float32", padding=padding_arg("uniform", 1))
    conv("stride2_13", (1, 4, 27, 27), (8, 4, 3, 3), "float32", stride=(2,))
    conv("dilated_7", (2, 4, 11, 11), (4, 4, 3, 3), "float32", dilation=(2,), bias=False)
    conv("pad_right_7", (1, 4, 7, 5), (4, 4, 3, 3), "float32", padding=padding_arg("pairs", [[1, 1], [0, 4]]))
    # pointwise convolutions whose rows are too short to widen (6 -> 8 is a third more): summed
    # along the flattened image (MobileNet's 1 x 1 convolutions on 6 x 6), groups, 3-D
    conv("pointwise_6x6", (2, 16, 6, 6), (24, 16, 1, 1), "float32")
    conv("pointwise_groups_5x3", (1, 8, 5, 3), (4, 4, 1, 1), "float32", groups=2)
    conv("pointwise_3d", (1, 4, 3, 2, 3), (5, 4, 1, 1, 1), "float32", bias=False)
    # ... and then a clip, or the input added back: the kernel runs over the image flattened
    # (36 columns, whole vectors) so the scheduler can tile it
    conv("pointwise_6x6_clip", (2, 16, 6, 6), (32, 16, 1, 1), "float32", clip=(-0.5, 0.75))
    conv("pointwise_6x6_residual", (1, 24, 6, 6), (24, 24, 1, 1), "float32", residual=True, clip=(-1.0, 1.0))
    conv("pointwise_3x4x3_residual", (1, 32, 3, 4, 3), (32, 32, 1, 1, 1), "float32", residual=True)

    # transposed convolution
    def convt(name, xs, ws, dt, groups=1, stride=(1,), dilation=(1,), padding=None, out_pad=(0,), bias=True, seed=40,
              algorithms=("direct",)):
        padding = padding or padding_arg("uniform", 0)
        dims = len(xs) - 2
        lo, hi = (-1.0, 1.0) if is_float(dt) else (-20, 20)
        x, sx = operand(xs, dt, seed + 1, lo, hi)
        w, sw = operand(ws, dt, seed + 2, lo, hi)
        inputs = [(x, sx), (w, sw)]
        b = None
        if bias:
            b = ramp((groups * ws[1],), dt, seed + 5)
            inputs.append((b, tensor(b, dt)))
        s, d, op = make(stride, dims), make(dilation, dims), make(out_pad, dims)
        want = conv_transpose_ref(x, w, b, dt, groups, s, d, resolve_pads(padding, dims), op)
        r, t = tol(SUM_ACC[dt])
        args = {"groups": groups, "stride": list(stride), "dilation": list(dilation), "padding": padding,
                "output_padding": list(out_pad), "algorithms": list(algorithms), "bias": bias, "winograd_tol": [1e-4, 1e-4]}
        out.append(case(f"conv_transpose2d/{name}/{dt}", "conv_transpose2d", inputs, (want, SUM_ACC[dt]), args, r, t))

    convt("basic", (1, 2, 4, 4), (2, 3, 3, 3), "float32", algorithms=("direct", "winograd", "image"))
    convt("stride2_pad1_outpad1", (1, 2, 4, 3), (2, 3, 3, 3), "float32", stride=(2,), padding=padding_arg("uniform", 1),
          out_pad=(1,))
    convt("groups2_dilated", (2, 4, 3, 3), (4, 2, 3, 3), "float32", groups=2, stride=(2,), dilation=(2,))
    convt("stride_gt_kernel", (1, 2, 3, 4), (2, 2, 2, 2), "float32", stride=(3, 2), padding=padding_arg("flat", [1, 0, 0, 1]))
    convt("1d", (2, 3, 5), (3, 2, 2), "float32", stride=(3,), out_pad=(2,))
    convt("1d_pairs", (1, 2, 6), (2, 2, 3), "float32", stride=(2,), padding=padding_arg("pairs", [[2, 1]]))
    convt("3d", (1, 2, 3, 2, 3), (2, 2, 2, 3, 2), "float32", stride=(2, 1, 1), padding=padding_arg("per_axis", [0, 1, 0]))
    convt("depthwise", (1, 3, 4, 4), (3, 1, 3, 3), "float32", groups=3, padding=padding_arg("uniform", 1),
          algorithms=("direct", "image"))
    convt("stride2", (1, 2, 3, 3), (2, 2, 3, 3), "float16", stride=(2,), padding=padding_arg("uniform", 1))
    convt("stride2", (1, 2, 3, 3), (2, 2, 2, 2), "int32", stride=(2,))
    return out


# ---------------------------------------------------------------- normalization

def norm_cases():
    out = []

    def layernorm(name, x, spec, dt, axes, eps=1e-5):
        xf = x.astype(np.float64)
        ax = tuple(axes)
        m = xf.mean(axis=ax, keepdims=True)
        v = ((xf - m) ** 2).mean(axis=ax, keepdims=True)
        want = ((xf - m) / np.sqrt(v + eps)).astype(DTYPES[mean_dtype(dt)])
        r, t = {"float16": (4e-3, 4e-3), "float32": (2e-5, 2e-5)}.get(mean_dtype(dt), (1e-12, 1e-12))
        out.append(case(f"layernorm/{name}/{dt}", "layernorm", [(x, spec)], (want, mean_dtype(dt)), {"axes": axes, "eps": eps}, r, t))

    x, s = pattern("float32", (4, 16), 51, -3.0, 5.0)
    layernorm("last", x, s, "float32", [-1])
    layernorm("first", x, s, "float32", [0])
    layernorm("all", x, s, "float32", [0, 1], eps=0.1)
    x3, s3 = pattern("float32", (2, 3, 5), 52, -2.0, 2.0)
    layernorm("two_trailing", x3, s3, "float32", [1, 2])
    layernorm("outer_and_inner", x3, s3, "float32", [0, -1])
    layernorm("middle", x3, s3, "float32", [-2])
    offset = (np.arange(24, dtype=np.float32).reshape(3, 8) % 5 + 1000.0).astype(np.float32)
    # a large mean: the centred second pass keeps the digits
    layernorm("large_mean", offset, tensor(offset, "float32"), "float32", [-1])
    one = ramp((3, 1), "float32")
    layernorm("size1_axis", one, tensor(one, "float32"), "float32", [-1])  # var 0: 0 * rsqrt(eps)
    nanrow = np.array([[1.0, np.nan, 2.0], [1.0, 2.0, 3.0], [np.inf, 0.0, 1.0]], np.float32)
    layernorm("nan_inf", nanrow, tensor(nanrow, "float32"), "float32", [-1])
    xh, sh = pattern("float16", (3, 40), 53, -2.0, 2.0)
    layernorm("last", xh, sh, "float16", [-1])
    xi = ramp((2, 6), "int32")
    layernorm("last", xi, tensor(xi, "int32"), "int32", [-1])  # integers normalize to f32 (tinygrad's mean)

    def batchnorm(name, x, spec, dt, axes, weight=True, bias=True, full_invstd=False):
        shape = tuple(x.shape[a] for a in axes)
        bshape = tuple(s if i in [a % x.ndim for a in axes] else 1 for i, s in enumerate(x.shape))
        mean = ramp(shape, dt, 3)
        inputs = [(x, spec), (mean, tensor(mean, dt))]
        if full_invstd:
            inv = (np.abs(ramp(x.shape[1:], dt, 5)) + 0.5).astype(DTYPES[dt])
            inv_b = inv
        else:
            inv = (np.abs(ramp(shape, dt, 5)) + 0.5).astype(DTYPES[dt])
            inv_b = inv.reshape(bshape)
        inputs.append((inv, tensor(inv, dt)))
        xf = x.astype(np.float64) - mean.astype(np.float64).reshape(bshape)
        if weight:
            w = ramp(shape, dt, 7)
            inputs.append((w, tensor(w, dt)))
            xf = xf * w.astype(np.float64).reshape(bshape)
        xf = xf * inv_b.astype(np.float64)
        if bias:
            b = ramp(shape, dt, 9)
            inputs.append((b, tensor(b, dt)))
            xf = xf + b.astype(np.float64).reshape(bshape)
        r, t = {"float16": (3e-3, 3e-3)}.get(dt, (1e-6, 1e-6))
        out.append(case(f"batchnorm/{name}/{dt}", "batchnorm", inputs, (xf.astype(DTYPES[dt]), dt),
                        {"axes": axes, "weight": weight, "bias": bias}, r, t))

    xb, sb = pattern("float32", (2, 3, 4, 4), 61, -2.0, 2.0)
    batchnorm("channels", xb, sb, "float32", [1])
    batchnorm("no_affine", xb, sb, "float32", [1], weight=False, bias=False)
    batchnorm("weight_only", xb, sb, "float32", [-3], bias=False)
    batchnorm("two_axes", xb, sb, "float32", [1, 3])
    # invstd of the whole shape but the batch axis: used as it is, broadcast (tinygrad's rule)
    batchnorm("full_invstd", xb, sb, "float32", [1], full_invstd=True)
    xh, sh = pattern("float16", (2, 4, 3), 62, -2.0, 2.0)
    batchnorm("channels", xh, sh, "float16", [1])
    return out


if __name__ == "__main__":
    write("ops_pool", pool_cases())
    write("ops_conv", conv_cases())
    write("ops_norm", norm_cases())
