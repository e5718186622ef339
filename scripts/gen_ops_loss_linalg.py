"""Generates the fixtures of tg-ops' losses and linear algebra:

  fixtures/ops_loss.json    binary_crossentropy, binary_crossentropy_logits,
                            sparse_categorical_crossentropy, cross_entropy, nll_loss
  fixtures/ops_linalg.json  qr, svd (checked by reconstruction, orthogonality, |R| and the
                            singular values, since signs and order of factors are not unique),
                            newton_schulz

numpy has no such losses: torch's definitions (and tinygrad's, where they differ: noted in
comments) are written out below in numpy, in float64 from the (rounded) inputs, and rounded
once to the output dtype. Hashes are tested against the `sha3` crate in tests/ops/hash.rs.

Run: python3 scripts/gen_ops_loss_linalg.py   (numpy, scipy; deterministic output)"""

import numpy as np
from scipy.special import log_expit, logsumexp

from fixtures_common import DTYPES, tensor, write

np.seterr(all="ignore")

TOL = {"float16": (1e-2, 5e-3), "float32": (2e-5, 2e-6), "float64": (1e-12, 1e-14)}
rng = np.random.RandomState(1234)


def rnd(shape, dt, lo=-3.0, hi=3.0):
    return rng.uniform(lo, hi, size=shape).astype(DTYPES[dt])


def case(name, op, inputs, outs, args=None, dt=None, tol=None):
    """inputs: (array, dtype) pairs (None for an absent optional input); outs: (array, dtype)
    pairs."""
    rtol, atol = tol or TOL[dt or outs[0][1]]
    c = {"name": name, "op": op, "args": args or {}, "rtol": rtol, "atol": atol,
         "inputs": [tensor(a, d) for a, d in inputs]}
    c["outs"] = [tensor(np.asarray(a), d) for a, d in outs]
    return c


def least_upper(a, b):
    """tinygrad's promotion for the pairs these cases mix."""
    if a == b:
        return a
    order = ["float16", "float32", "float64"]
    fa, fb = a in order, b in order
    if fa and fb:
        return order[max(order.index(a), order.index(b))]
    return a if fa else b


def reduce(x, reduction):
    if reduction == "none":
        return x
    return x.sum() if reduction == "sum" else x.mean()


def f64(a):
    return np.asarray(a, dtype=np.float64)


# ---------------------------------------------------------------- losses

def log_softmax(x, axis):
    x = f64(x)
    return x - logsumexp(x, axis=axis, keepdims=True)


def at_label(logp, y, axis):
    """logp at the class y names along axis; 0 where y names none (tinygrad's one-hot)."""
    c = logp.shape[axis]
    y = np.asarray(y).astype(np.int64)
    inside = (y >= 0) & (y < c)
    picked = np.take_along_axis(logp, np.expand_dims(np.where(inside, y, 0), axis), axis=axis)
    return np.where(inside, np.squeeze(picked, axis), 0.0)


def loss_cases():
    out = []
    reductions = ["none", "sum", "mean"]

    # binary cross-entropy on probabilities: -(y ln p + (1 - y) ln(1 - p)), no clamping
    # (tinygrad; torch clamps ln at -100)
    for dt, ydt in [("float32", "float32"), ("float16", "float16"), ("float32", "int32"), ("float32", "bool")]:
        p = rnd((3, 4), dt, 0.02, 0.98)
        y = (rng.uniform(size=(3, 4)) > 0.5).astype(DTYPES[ydt]) if ydt != "float32" else rnd((3, 4), ydt, 0, 1)
        o = least_upper(dt, ydt)
        per = -f64(y) * np.log(f64(p)) - (1 - f64(y)) * np.log(1 - f64(p))
        for r in reductions:
            out.append(case(f"bce/{dt}/{ydt}/{r}", "binary_crossentropy", [(p, dt), (y, ydt)],
                            [(reduce(per, r), o)], {"reduction": r}))
    # broadcasting targets, and the edges: p = 0 or 1 gives inf or NaN (0 * -inf), as tinygrad
    p = np.array([0.0, 0.0, 1.0, 1.0, 0.5], np.float32)
    y = np.array([0.0, 1.0, 0.0, 1.0, 0.5], np.float32)
    per = -f64(y) * np.log(f64(p)) - (1 - f64(y)) * np.log(1 - f64(p))
    out.append(case("bce/edges", "binary_crossentropy", [(p, "float32"), (y, "float32")],
                    [(per, "float32")], {"reduction": "none"}))
    p = rnd((2, 3), "float32", 0.05, 0.95)
    y = np.array([1.0, 0.0, 1.0], np.float32)
    per = -f64(y) * np.log(f64(p)) - (1 - f64(y)) * np.log(1 - f64(p))
    out.append(case("bce/broadcast", "binary_crossentropy", [(p, "float32"), (y, "float32")],
                    [(per.mean(), "float32")], {"reduction": "mean"}))

    # binary cross-entropy on logits with pos_weight: -(w y logsigmoid(x) + (1 - y) logsigmoid(-x))
    for dt in ["float32", "float16"]:
        x = rnd((4, 3), dt, -6, 6)
        y = (rng.uniform(size=(4, 3)) > 0.5).astype(DTYPES[dt])
        w = np.array([0.5, 1.0, 3.0], DTYPES[dt])
        for pw in [None, w]:
            wt = 1.0 if pw is None else f64(pw)
            per = -(wt * f64(y) * log_expit(f64(x)) + (1 - f64(y)) * log_expit(-f64(x)))
            ins = [(x, dt), (y, dt)] + ([] if pw is None else [(pw, dt)])
            for r in reductions:
                name = f"bce_logits/{dt}/{'pos_weight' if pw is not None else 'plain'}/{r}"
                out.append(case(name, "binary_crossentropy_logits", ins, [(reduce(per, r), dt)], {"reduction": r}))
    x = np.array([-100.0, 100.0, -100.0, 100.0, 0.0], np.float32)
    y = np.array([0.0, 1.0, 1.0, 0.0, 0.25], np.float32)
    per = -(f64(y) * log_expit(f64(x)) + (1 - f64(y)) * log_expit(-f64(x)))
    out.append(case("bce_logits/large", "binary_crossentropy_logits", [(x, "float32"), (y, "float32")],
                    [(per, "float32")], {"reduction": "none"}))

    # sparse categorical cross-entropy: classes on the LAST axis (tinygrad); ignored labels
    # contribute nothing and are not counted; label smoothing mixes in the mean -log p
    def sparse(x, y, ignore, ls):
        lp = log_softmax(x, -1)
        keep = np.ones(y.shape, bool) if ignore is None else (y != ignore)
        nll = -at_label(lp, y, -1)
        smooth = -lp.mean(-1)
        per = np.where(keep, (1 - ls) * nll + ls * smooth, 0.0)
        return per, keep

    for dt, ydt in [("float32", "int32"), ("float16", "int64"), ("float32", "int64")]:
        x = rnd((5, 4), dt)
        y = np.array([0, 3, -100, 2, 1], DTYPES[ydt])
        for ignore, ls in [(None, 0.0), (-100, 0.0), (-100, 0.1), (None, 0.25)]:
            per, keep = sparse(x, y, ignore, ls)
            for r in reductions:
                want = per.sum() / keep.sum() if r == "mean" else reduce(per, r)
                out.append(case(f"sparse/{dt}/{ydt}/ignore={ignore}/ls={ls}/{r}", "sparse_categorical_crossentropy",
                                [(x, dt), (y, ydt)], [(want, dt)],
                                {"reduction": r, "ignore_index": ignore, "label_smoothing": ls}))
    # a 3-D batch, a label out of range (names no class: contributes only smoothing), all
    # ignored (the mean is 0/0 = NaN, as torch)
    x = rnd((2, 3, 5), "float32")
    y = np.array([[0, 4, 7], [2, -100, 1]], np.int32)
    per, keep = sparse(x, y, -100, 0.2)
    out.append(case("sparse/3d_out_of_range", "sparse_categorical_crossentropy", [(x, "float32"), (y, "int32")],
                    [(per.sum() / keep.sum(), "float32")], {"reduction": "mean", "ignore_index": -100,
                                                            "label_smoothing": 0.2}))
    out.append(case("sparse/3d_none", "sparse_categorical_crossentropy", [(x, "float32"), (y, "int32")],
                    [(per, "float32")],
                    {"reduction": "none", "ignore_index": -100, "label_smoothing": 0.2}))
    # an empty batch: the sum is 0, the mean 0/0 = NaN (torch); a single class: loss 0
    x0, y0 = np.zeros((0, 3), np.float32), np.zeros((0,), np.int32)
    for r, want in [("sum", 0.0), ("mean", np.nan)]:
        out.append(case(f"sparse/empty/{r}", "sparse_categorical_crossentropy", [(x0, "float32"), (y0, "int32")],
                        [(want, "float32")], {"reduction": r, "ignore_index": -100, "label_smoothing": 0.1}))
        out.append(case(f"ce/empty/{r}", "cross_entropy", [(x0, "float32"), (y0, "int32")],
                        [(want, "float32")], {"reduction": r, "label_smoothing": 0.0}))
        out.append(case(f"nll/empty/{r}", "nll_loss", [(x0, "float32"), (y0, "int32")],
                        [(want, "float32")], {"reduction": r, "ignore_index": None}))
    x1 = rnd((3, 1), "float32")
    out.append(case("sparse/one_class", "sparse_categorical_crossentropy", [(x1, "float32"), (np.zeros(3, np.int32), "int32")],
                    [(np.zeros(3), "float32")], {"reduction": "none", "ignore_index": None, "label_smoothing": 0.3}))
    y = np.array([-100, -100], np.int32)
    x = rnd((2, 3), "float32")
    out.append(case("sparse/all_ignored", "sparse_categorical_crossentropy", [(x, "float32"), (y, "int32")],
                    [(np.nan, "float32")], {"reduction": "mean", "ignore_index": -100, "label_smoothing": 0.0}))

    # cross_entropy: classes on axis 1 (axis 0 for 1-D); index or probability targets;
    # targets smoothed to (1 - s) y + s / C; no ignore_index
    def ce(x, y, ls, axis):
        lp = log_softmax(x, axis)
        c = x.shape[axis]
        if y.shape == x.shape:
            t = (1 - ls) * f64(y) + ls / c
            return -(lp * t).sum(axis)
        return -((1 - ls) * at_label(lp, y, axis) + ls / c * lp.sum(axis))

    for dt in ["float32", "float16"]:
        x = rnd((4, 3), dt)
        y = np.array([2, 0, 1, 1], np.int64)
        probs = np.abs(rnd((4, 3), dt, 0.1, 1.0))
        probs = (probs / probs.sum(1, keepdims=True)).astype(DTYPES[dt])
        for ls in [0.0, 0.1]:
            for r in reductions:
                # integer labels make tinygrad's targets f32, so f16 logits give an f32 loss
                out.append(case(f"ce/{dt}/index/ls={ls}/{r}", "cross_entropy", [(x, dt), (y, "int64")],
                                [(reduce(ce(x, y, ls, 1), r), least_upper(dt, "float32"))],
                                {"reduction": r, "label_smoothing": ls}, dt=dt))
                out.append(case(f"ce/{dt}/probs/ls={ls}/{r}", "cross_entropy", [(x, dt), (probs, dt)],
                                [(reduce(ce(x, probs, ls, 1), r), dt)], {"reduction": r, "label_smoothing": ls}))
    x = rnd((2, 4, 3), "float32")
    y = np.array([[0, 3, 1], [2, 2, 5]], np.int32)  # 5 is out of range: contributes only smoothing
    out.append(case("ce/spatial", "cross_entropy", [(x, "float32"), (y, "int32")],
                    [(ce(x, y, 0.1, 1), "float32")], {"reduction": "none", "label_smoothing": 0.1}))
    x = rnd((5,), "float32")
    y = np.array(3, np.int32)
    out.append(case("ce/1d", "cross_entropy", [(x, "float32"), (y, "int32")],
                    [(ce(x, y, 0.0, 0), "float32")], {"reduction": "mean", "label_smoothing": 0.0}))

    # nll_loss: log-probabilities (N, C, ...), weights per class, ignore_index; the mean divides
    # by the total weight of the labels taken (torch)
    def nll(lp, y, w, ignore):
        c = lp.shape[1]
        yi = np.asarray(y).astype(np.int64)
        inside = (yi >= 0) & (yi < c)
        wy = np.ones(yi.shape) if w is None else np.where(inside, f64(w)[np.where(inside, yi, 0)], 0.0)
        if ignore is not None:
            wy = np.where(yi != ignore, wy, 0.0)
        return -at_label(f64(lp), yi, 1) * wy, wy

    for dt in ["float32", "float16"]:
        lp = log_softmax(rnd((5, 4), dt), 1).astype(DTYPES[dt])
        y = np.array([3, 0, -100, 1, 3], np.int32)
        w = np.array([1.0, 2.0, 0.5, 4.0], DTYPES[dt])
        for weight in [None, w]:
            for ignore in [None, -100]:
                per, wy = nll(lp, y, weight, ignore)
                for r in reductions:
                    want = per.sum() / wy.sum() if r == "mean" else reduce(per, r)
                    ins = [(lp, dt), (y, "int32")] + ([] if weight is None else [(weight, dt)])
                    name = f"nll/{dt}/{'weight' if weight is not None else 'plain'}/ignore={ignore}/{r}"
                    out.append(case(name, "nll_loss", ins, [(want, dt)], {"reduction": r, "ignore_index": ignore}))
    lp = log_softmax(rnd((2, 3, 4), "float32"), 1).astype(np.float32)
    y = np.array([[0, 2, 1, -1], [1, 1, 0, 2]], np.int64)
    w = np.array([0.2, 1.0, 3.0], np.float32)
    per, wy = nll(lp, y, w, -1)
    out.append(case("nll/spatial_weight_ignore", "nll_loss", [(lp, "float32"), (y, "int64"), (w, "float32")],
                    [(per.sum() / wy.sum(), "float32")], {"reduction": "mean", "ignore_index": -1}))
    return out


# ---------------------------------------------------------------- linear algebra

def qr_case(name, a, dt):
    """outs: A (for Q R), I_m (for Q^T Q), |R| (numpy's R up to row signs), R's strictly lower
    part (zeros)."""
    a64 = f64(a)
    m, n = a.shape[-2:]
    r = np.linalg.qr(a64, mode="complete")[1]
    o = dt if dt.startswith("float") else "float32"
    eye = np.broadcast_to(np.eye(m), a.shape[:-2] + (m, m))
    zeros = np.zeros(a.shape)
    tol = (5e-3, 5e-3) if o == "float16" else (2e-5, 2e-5)
    return case(f"qr/{name}", "qr", [(a, dt)], [(a64, o), (eye, o), (np.abs(r), o), (zeros, o)], tol=tol)


def svd_case(name, a, dt, full, orthogonal=True):
    """outs: A (for U diag(S) Vh), S, and when the matrix has full rank I_u (for U^T U) and
    I_v (for Vh Vh^T) in the shapes full_matrices gives."""
    a64 = f64(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    s = np.linalg.svd(a64, compute_uv=False)
    # U's columns are defined (and orthonormal) only for nonzero singular values
    orthogonal = orthogonal and (s.size == 0 or bool((s.min(-1) > 1e-2 * s.max(-1)).all()))
    o = dt if dt.startswith("float") else "float32"
    outs = [(a64, o), (s, o)]
    if orthogonal:
        mu, nv = (m, n) if full else (k, k)
        outs += [(np.broadcast_to(np.eye(mu), a.shape[:-2] + (mu, mu)), o),
                 (np.broadcast_to(np.eye(nv), a.shape[:-2] + (nv, nv)), o)]
    tol = (5e-3, 5e-3) if o == "float16" else (5e-5, 5e-5)
    return case(f"svd/{name}/full={full}", "svd", [(a, dt)], outs, {"full_matrices": full}, tol=tol)


def newton_schulz_ref(a, steps, params, eps):
    g = f64(a)
    if g.shape[-2] > g.shape[-1]:
        return np.swapaxes(newton_schulz_ref(np.swapaxes(g, -1, -2), steps, params, eps), -1, -2)
    g = g / (np.sqrt((g * g).sum(axis=(-2, -1), keepdims=True)) + eps)
    for _ in range(steps):
        gram = g @ np.swapaxes(g, -1, -2)
        term, nxt = g, params[0] * g
        for p in params[1:]:
            term = gram @ term
            nxt = nxt + p * term
        g = nxt
    return g


def linalg_cases():
    out = []
    for name, shape in [("square", (4, 4)), ("tall", (5, 3)), ("wide", (3, 5)), ("batched_tall", (2, 4, 2)),
                        ("batched_wide", (2, 2, 3)), ("one_column", (3, 1)), ("one_row", (1, 3))]:
        out.append(qr_case(name, rnd(shape, "float32"), "float32"))
    for shape in [(0, 3), (3, 0), (2, 0, 0)]:
        out.append(qr_case(f"empty_{shape}", np.zeros(shape, np.float32), "float32"))
    out.append(qr_case("f16", rnd((3, 3), "float16"), "float16"))
    out.append(qr_case("int", rng.randint(-5, 6, size=(3, 2)).astype(np.int32), "int32"))
    # a zero column: that reflection is skipped; |R| still matches (its column is 0)
    z = rnd((3, 3), "float32")
    z[:, 1] = 0
    out.append(qr_case("zero_column", z, "float32"))

    for full in [True, False]:
        for name, shape in [("square", (4, 4)), ("tall", (5, 3)), ("wide", (3, 5)), ("batched_tall", (2, 4, 3)),
                            ("batched_wide", (2, 2, 4)), ("odd", (5, 5))]:
            out.append(svd_case(name, rnd(shape, "float32"), "float32", full))
    out.append(svd_case("vector", rnd((4, 1), "float32"), "float32", True))
    for shape in [(0, 3), (3, 0)]:
        for full in [True, False]:
            out.append(svd_case(f"empty_{shape}", np.zeros(shape, np.float32), "float32", full))
    out.append(svd_case("int", rng.randint(-5, 6, size=(3, 3)).astype(np.int32), "int32", True))
    out.append(svd_case("f16", rnd((3, 2), "float16"), "float16", False))
    # repeated singular values (an orthogonal matrix times 2) and a rank-deficient matrix: U's
    # column for the zero singular value is zero in tinygrad's method, so only A and S are checked
    q = np.linalg.qr(rng.normal(size=(3, 3)))[0]
    out.append(svd_case("repeated", (2 * q).astype(np.float32), "float32", True))
    low = (rnd((4, 1), "float32") @ rnd((1, 3), "float32")).astype(np.float32)
    out.append(svd_case("rank_one", low, "float32", True, orthogonal=False))

    cubic, quintic = [1.5, -0.5], [3.4445, -4.7750, 2.0315]
    for name, shape, params, steps, dt in [("cubic", (3, 3), cubic, 8, "float32"),
                                           ("quintic_wide", (2, 3, 4), quintic, 5, "float32"),
                                           ("quintic_tall", (4, 2), quintic, 5, "float32"),
                                           ("linear_only", (2, 2), [2.0], 3, "float32"),
                                           ("f16", (3, 3), cubic, 4, "float16")]:
        a = rnd(shape, dt)
        want = newton_schulz_ref(a, steps, params, 1e-7)
        tol = (2e-2, 2e-2) if dt == "float16" else (1e-4, 1e-5)
        out.append(case(f"newton_schulz/{name}", "newton_schulz", [(a, dt)], [(want, dt)],
                        {"steps": steps, "params": params, "eps": 1e-7}, tol=tol))
    return out


if __name__ == "__main__":
    write("ops_loss", loss_cases())
    write("ops_linalg", linalg_cases())
