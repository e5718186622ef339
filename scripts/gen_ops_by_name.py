"""Generates fixtures/ops_by_name.json: reference values, computed with numpy in float64 (or
exact integers), for the ops tests/ops/by_name.rs runs by name through the dispatcher. A case
names its op and its arguments as the op's row in tg-core's op table names its parameters
(tg-core/src/ops/table/), so a new op's test is its cases here and nothing else.

Case format as scripts/gen_ops_elementwise.py's (whose helpers this uses).

Run: python3 scripts/gen_ops_by_name.py   (numpy, scipy; deterministic output)"""

import numpy as np

from scipy import special

from fixtures_common import DTYPES, FLOATS, tensor, write
from gen_ops_creation import Stream
from gen_ops_elementwise import ACT_VALUES, TINY, arr, case, spec, with_f16_range

rng = np.random.default_rng(20250801)


# --- sum_as: the sum accumulated and returned in a stated dtype -------------------------------
def sum_as_cases():
    out = []
    x = rng.integers(-128, 128, (3, 5)).astype(np.int8)
    # integers wrap in the stated dtype, as numpy's sum(dtype=...) does
    for dt, axis, keepdim in [("int8", None, False), ("int16", 1, False), ("int32", 0, True), ("uint8", 1, True)]:
        want = np.sum(x.astype(DTYPES[dt]), axis=axis, dtype=DTYPES[dt], keepdims=keepdim)
        args = {"dtype": dt, "keepdim": keepdim}
        if axis is not None:
            args["axis"] = [axis]
        out.append(case(f"sum_as/int8->{dt}/{axis}", "sum_as", [tensor(x, "int8")], want, dt, args=args,
                        out_shape=list(np.shape(want))))
    f = rng.uniform(-1, 1, (4, 6)).astype(np.float16)
    want = np.sum(f.astype(np.float64), axis=1).astype(np.float32)
    out.append(case("sum_as/float16->float32", "sum_as", [tensor(f, "float16")], want, "float32", 1e-6, 1e-7,
                    {"axis": [1], "dtype": "float32"}, out_shape=[4]))
    return out


# --- swish: tinygrad's x * sigmoid(x) --------------------------------------------------------
def swish_cases():
    out = []
    for dt in FLOATS:
        vals = with_f16_range(ACT_VALUES) if dt == "float16" else ACT_VALUES
        x = arr(vals, dt)
        with np.errstate(all="ignore"):
            want = (x.astype(np.float64) * special.expit(x.astype(np.float64))).astype(DTYPES[dt])
        # f16 rounds the sigmoid, then the product; f32 and f64 as silu
        rtol = {"float16": 2e-3, "float32": 1e-6, "float64": 1e-14}[dt]
        out.append(case(f"swish/{dt}", "swish", [tensor(x, dt)], want, dt, rtol, 1e3 * TINY[dt]))
    vals = [-5, -1, 0, 1, 3, 7]
    want = np.array(vals, np.float64) * special.expit(np.array(vals, np.float64))
    out.append(case("swish/int32", "swish", [spec(vals, "int32")], want.astype(np.float32), "float32", 1e-6,
                    TINY["float32"]))
    return out


# --- scaled_dot_product_attention ------------------------------------------------------------
def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def attention(q, k, v, mask=None, causal=False):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if causal:
        mask = np.tril(np.ones(scores.shape[-2:], bool))
    if mask is not None:
        scores = np.where(mask, scores, -np.inf) if mask.dtype == bool else scores + mask
    return softmax(scores) @ v


def attention_cases():
    out = []
    q, k, v = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 5, 4)), rng.normal(size=(2, 5, 6))
    qs, ks, vs = (tensor(a.astype(np.float32), "float32") for a in (q, k, v))
    f = lambda a: a.astype(np.float32).astype(np.float64)
    want = attention(f(q), f(k), f(v))
    out.append(case("sdpa/plain", "scaled_dot_product_attention", [qs, ks, vs], want.astype(np.float32), "float32",
                    2e-6, 1e-7, {"key": {"input": 1}, "value": {"input": 2}}, out_shape=[2, 3, 6]))
    mask = rng.random((3, 5)) < 0.7
    mask[:, 0] = True  # every query attends somewhere
    want = attention(f(q), f(k), f(v), mask)
    out.append(case("sdpa/bool_mask", "scaled_dot_product_attention", [qs, ks, vs, tensor(mask, "bool")],
                    want.astype(np.float32), "float32", 2e-6, 1e-7,
                    {"key": {"input": 1}, "value": {"input": 2}, "attn_mask": {"input": 3}}, out_shape=[2, 3, 6]))
    add = rng.normal(size=(2, 1, 5)).astype(np.float32)
    want = attention(f(q), f(k), f(v), add.astype(np.float64))
    out.append(case("sdpa/additive_mask", "scaled_dot_product_attention", [qs, ks, vs, tensor(add, "float32")],
                    want.astype(np.float32), "float32", 2e-6, 1e-7,
                    {"key": {"input": 1}, "value": {"input": 2}, "attn_mask": {"input": 3}}, out_shape=[2, 3, 6]))
    # causal self-attention over (batch 2, heads 4, 8 positions, 16 features), in f64
    x = rng.normal(size=(2, 4, 8, 16))
    want = attention(x, x, x, causal=True)
    out.append(case("sdpa/causal_f64", "scaled_dot_product_attention", [tensor(x, "float64")], want, "float64",
                    1e-12, 1e-15, {"key": {"input": 0}, "value": {"input": 0}, "is_causal": True},
                    out_shape=[2, 4, 8, 16]))
    return out


# --- multinomial: tinygrad's draws for a seed, from its threefry stream ----------------------
def multinomial(weights, n, replacement, seed):
    w = np.asarray(weights, np.float32)
    w2 = w[None] if w.ndim == 1 else w
    s = Stream(seed)
    if replacement or n == 1:
        cw = np.cumsum(w2, axis=1, dtype=np.float32)
        cdf = cw / cw[:, -1:]
        u = s.rand([n, w2.shape[0], 1], "float32")
        idx = (u >= cdf).sum(2).T
    else:
        keys = np.log2(s.rand(list(w2.shape), "float32")) / w2
        idx = np.argsort(-keys, axis=1, kind="stable")[:, :n]
    idx = idx.astype(np.int32)
    return idx[0] if w.ndim == 1 else idx


def multinomial_cases():
    out = []
    for name, w, n, repl, seed in [
        ("vector", [1.0, 2.0, 3.0, 4.0], 20, True, 42),
        ("rows", [[0.0, 1.0, 1.0, 2.0], [5.0, 0.0, 0.0, 3.0], [1.0, 1.0, 1.0, 1.0]], 7, True, 3),
        ("one_sample", [[2.0, 6.0], [6.0, 2.0]], 1, False, 11),
        ("without_replacement", [[1.0, 2.0, 4.0, 8.0, 16.0]], 3, False, 7),
    ]:
        want = multinomial(w, n, repl, seed)
        c = case(f"multinomial/{name}", "multinomial", [tensor(np.asarray(w, np.float32), "float32")], want, "int32",
                 args={"num_samples": n, "replacement": repl}, out_shape=list(want.shape))
        c["seed"] = seed
        out.append(c)
    return out


# --- select: the slice at one position of an axis (torch.select; numpy's take with one index) -
def select_cases():
    sel = np.random.default_rng(20260301)  # its own stream: the cases above keep their values
    out = []
    x = sel.uniform(-1, 1, (3, 4, 5)).astype(np.float32)
    xs = tensor(x, "float32")
    for name, axis, index, keepdim in [("middle", 1, 2, False), ("first_axis", 0, 0, False),
                                       ("last_from_end", -1, -1, True), ("negative", 1, -4, False)]:
        want = np.take(x, index, axis=axis)
        if keepdim:
            want = np.expand_dims(want, axis)
        out.append(case(f"select/{name}", "select", [xs], want, "float32",
                        args={"axis": axis, "index": index, "keepdim": keepdim}, out_shape=list(want.shape)))
    # a position out of range reads zeros (as a tensor index does), not an error
    want = np.zeros((3, 5), np.float32)
    out.append(case("select/out_of_range", "select", [xs], want, "float32",
                    args={"axis": 1, "index": 4}, out_shape=[3, 5]))
    # the position as a one-element integer tensor
    n = sel.integers(-100, 100, (6, 2)).astype(np.int32)
    pos = np.array([3], np.int32)
    want = np.take(n, 3, axis=0)
    out.append(case("select/tensor_position", "select", [tensor(n, "int32"), tensor(pos, "int32")], want, "int32",
                    args={"axis": 0, "index": {"input": 1}}, out_shape=[2]))
    # NaN and infinities elsewhere in the axis do not reach the picked slice
    h = np.array([[np.nan, 1.5], [np.inf, -2.0], [-np.inf, 0.25]], np.float16)
    out.append(case("select/float16_nonfinite_elsewhere", "select", [tensor(h, "float16")], h[:, 1], "float16",
                    args={"axis": 1, "index": 1}, out_shape=[3]))
    return out


def assign_window_cases():
    """numpy's slice assignment `x[.., start:start + T, ..] = value` on a copy of the receiver
    (host data, written in place), the start an integer or a one-element tensor, rows past the
    end dropped, a value of another dtype cast."""
    win = np.random.default_rng(20261208)  # its own stream: the cases above keep their values
    out = []
    x = win.uniform(-1, 1, (2, 6, 4)).astype(np.float32)
    v = win.uniform(-1, 1, (2, 3, 4)).astype(np.float32)
    for name, axis, start in [("middle", 1, 2), ("from_end", -2, 1), ("past_the_end", 1, 4), ("beyond", 1, 6)]:
        want = x.copy()
        rows = max(0, min(3, 6 - start))
        want[:, start:start + rows] = v[:, :rows]
        out.append(case(f"assign_window/{name}", "assign_window", [tensor(x, "float32"), tensor(v, "float32")], want,
                        "float32", args={"axis": axis, "start": start, "value": {"input": 1}},
                        out_shape=list(want.shape)))
    n = win.integers(-100, 100, (5, 3)).astype(np.int32)
    rows = win.integers(-5, 5, (2, 3)).astype(np.int64)
    pos = np.array([3], np.int32)
    want = n.copy()
    want[3:5] = rows.astype(np.int32)
    out.append(case("assign_window/tensor_start_cast_value", "assign_window",
                    [tensor(n, "int32"), tensor(rows, "int64"), tensor(pos, "int32")], want, "int32",
                    args={"axis": 0, "start": {"input": 2}, "value": {"input": 1}}, out_shape=[5, 3]))
    return out


if __name__ == "__main__":
    write("ops_by_name", sum_as_cases() + swish_cases() + attention_cases() + multinomial_cases() + select_cases()
          + assign_window_cases())
