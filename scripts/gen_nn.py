"""Generates fixtures/nn.json: reference values for tg::nn's layers (forward passes, with
BatchNorm's running statistics), gradient clipping and tg::optim's optimizer steps, computed
in float64 with numpy from the published definitions (torch's and tinygrad's documentation of
each layer; the optimizers' update rules written out below).

Inputs are float32 values (so tg computes on exactly these numbers) from a seeded generator.
Layer cases list the layer's parameters by name in args["params"], after the input.
Optimizer cases give a parameter, three gradients and three learning rates (the rate changes
every step, as a schedule would); the outputs are the parameter after each step. The AdamW
parameter-groups case gives a matrix and a bias (decayed and not), their gradients by step.

Run: python3 scripts/gen_nn.py   (numpy; deterministic output)"""

import math

import numpy as np

from fixtures_common import tensor, write

rng = np.random.default_rng(20261201)


def f32(shape, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, size=shape).astype(np.float32).astype(np.float64)


def case(name, op, inputs, outs, args, rtol=1e-4, atol=1e-5):
    return {"name": name, "op": op, "args": args,
            "inputs": [tensor(x, dt) for x, dt in inputs],
            "outs": [tensor(o, "float32") for o in outs], "rtol": rtol, "atol": atol}


def conv2d(x, w, b, stride, pad, dil, groups):
    n, cin, h, wd = x.shape
    cout, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - dil * (kh - 1) - 1) // stride + 1
    ow = (wd + 2 * pad - dil * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, cout, oh, ow))
    per = cout // groups
    for o in range(cout):
        g = o // per
        for i in range(oh):
            for j in range(ow):
                patch = xp[:, g * cg:(g + 1) * cg,
                           i * stride:i * stride + dil * (kh - 1) + 1:dil,
                           j * stride:j * stride + dil * (kw - 1) + 1:dil]
                out[:, o, i, j] = (patch * w[o]).sum(axis=(1, 2, 3))
    if b is not None:
        out += b.reshape(1, -1, 1, 1)
    return out


def conv_transpose2d(x, w, b, stride, pad, out_pad):
    """torch's definition: every input pixel scatters weight * value into the output."""
    n, cin, h, wd = x.shape
    _, cout, kh, kw = w.shape
    full_h = (h - 1) * stride + kh
    full_w = (wd - 1) * stride + kw
    full = np.zeros((n, cout, full_h + out_pad, full_w + out_pad))
    for i in range(h):
        for j in range(wd):
            full[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw] += \
                np.einsum("nc,cokl->nokl", x[:, :, i, j], w)
    oh = (h - 1) * stride - 2 * pad + kh + out_pad
    ow = (wd - 1) * stride - 2 * pad + kw + out_pad
    out = full[:, :, pad:pad + oh, pad:pad + ow]
    if b is not None:
        out = out + b.reshape(1, -1, 1, 1)
    return out


def layers():
    cases = []
    x = f32((3, 4)); w = f32((5, 4)); b = f32((5,))
    cases.append(case("linear", "linear", [(x, "float32"), (w, "float32"), (b, "float32")],
                      [x @ w.T + b], {"in": 4, "out": 5, "params": ["weight", "bias"]}))

    x = f32((2, 4, 7, 6)); w = f32((6, 2, 3, 3)); b = f32((6,))
    cases.append(case("conv2d stride 2 padding 1 groups 2", "conv2d",
                      [(x, "float32"), (w, "float32"), (b, "float32")],
                      [conv2d(x, w, b, 2, 1, 1, 2)],
                      {"cin": 4, "cout": 6, "kernel": 3, "stride": 2, "padding": 1, "dilation": 1,
                       "groups": 2, "bias": True, "params": ["weight", "bias"]}))
    x = f32((1, 3, 6, 6)); w = f32((2, 3, 3, 3))
    cases.append(case("conv2d dilation 2 padding 2 no bias", "conv2d",
                      [(x, "float32"), (w, "float32")], [conv2d(x, w, None, 1, 2, 2, 1)],
                      {"cin": 3, "cout": 2, "kernel": 3, "stride": 1, "padding": 2, "dilation": 2,
                       "groups": 1, "bias": False, "params": ["weight"]}))
    x = f32((2, 4, 3, 3)); w = f32((4, 2, 3, 3)); b = f32((2,))
    cases.append(case("conv_transpose2d stride 2 padding 1 output_padding 1", "conv_transpose2d",
                      [(x, "float32"), (w, "float32"), (b, "float32")],
                      [conv_transpose2d(x, w, b, 2, 1, 1)],
                      {"cin": 4, "cout": 2, "kernel": 3, "stride": 2, "padding": 1,
                       "output_padding": 1, "params": ["weight", "bias"]}))

    # BatchNorm2d: one training step (batch statistics; running statistics updated with the
    # unbiased variance, momentum 0.1), then evaluation with the updated running statistics
    x = f32((4, 3, 5, 5), -2, 3); w = f32((3,), 0.5, 1.5); b = f32((3,))
    rm = f32((3,)); rv = f32((3,), 0.5, 2.0)
    eps, mom = 1e-5, 0.1
    mean = x.mean(axis=(0, 2, 3)); var = x.var(axis=(0, 2, 3))
    n = x.size / x.shape[1]
    y = (x - mean.reshape(1, -1, 1, 1)) / np.sqrt(var.reshape(1, -1, 1, 1) + eps) * w.reshape(1, -1, 1, 1) + b.reshape(1, -1, 1, 1)
    rm2 = (1 - mom) * rm + mom * mean
    rv2 = (1 - mom) * rv + mom * var * n / (n - 1)
    x2 = f32((2, 3, 5, 5), -2, 3)
    y_eval = (x2 - rm2.reshape(1, -1, 1, 1)) / np.sqrt(rv2.reshape(1, -1, 1, 1) + eps) * w.reshape(1, -1, 1, 1) + b.reshape(1, -1, 1, 1)
    cases.append(case("batchnorm2d train then eval", "batchnorm2d",
                      [(x, "float32"), (w, "float32"), (b, "float32"), (rm, "float32"), (rv, "float32"), (x2, "float32")],
                      [y, rm2, rv2, y_eval],
                      {"channels": 3, "params": ["weight", "bias", "running_mean", "running_var"]}))

    x = f32((3, 6), -2, 2); w = f32((6,), 0.5, 1.5); b = f32((6,))
    mu = x.mean(-1, keepdims=True); var = x.var(-1, keepdims=True)
    cases.append(case("layernorm", "layernorm", [(x, "float32"), (w, "float32"), (b, "float32")],
                      [(x - mu) / np.sqrt(var + 1e-5) * w + b], {"dim": 6, "params": ["weight", "bias"]}))
    cases.append(case("rmsnorm", "rmsnorm", [(x, "float32"), (w, "float32")],
                      [x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-6) * w],
                      {"dim": 6, "params": ["weight"]}))
    x = f32((2, 6, 3, 3), -2, 2); w = f32((6,), 0.5, 1.5); b = f32((6,))
    g = x.reshape(2, 3, -1)
    gn = ((g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + 1e-5)).reshape(x.shape)
    cases.append(case("groupnorm 3 groups", "groupnorm", [(x, "float32"), (w, "float32"), (b, "float32")],
                      [gn * w.reshape(1, -1, 1, 1) + b.reshape(1, -1, 1, 1)],
                      {"groups": 3, "channels": 6, "params": ["weight", "bias"]}))

    ids = np.array([[0, 3, 6], [2, 2, 1]], dtype=np.int32); w = f32((7, 5))
    cases.append(case("embedding", "embedding", [(ids, "int32"), (w, "float32")], [w[ids]],
                      {"vocab": 7, "dim": 5, "params": ["weight"]}))

    def softmax(s):
        e = np.exp(s - s.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    q = f32((2, 4, 8)); k = f32((2, 5, 8)); v = f32((2, 5, 3))
    mask = np.array([[1, 1, 0, 1, 1], [0, 1, 1, 1, 0], [1, 0, 0, 0, 1], [1, 1, 1, 1, 1]], dtype=bool)
    s = q @ k.transpose(0, 2, 1) / math.sqrt(8)
    s = np.where(mask, s, -np.inf)
    cases.append(case("scaled_dot_product_attention bool mask", "sdpa",
                      [(q, "float32"), (k, "float32"), (v, "float32"), (mask, "bool")],
                      [softmax(s) @ v], {"causal": False}))
    q = f32((2, 4, 8)); k = f32((2, 4, 8)); v = f32((2, 4, 3))
    s = q @ k.transpose(0, 2, 1) / math.sqrt(8)
    s = np.where(np.tril(np.ones((4, 4), dtype=bool)), s, -np.inf)
    cases.append(case("scaled_dot_product_attention causal", "sdpa",
                      [(q, "float32"), (k, "float32"), (v, "float32")], [softmax(s) @ v],
                      {"causal": True}))

    g1 = f32((3, 4), -2, 2); g2 = f32((5,), -2, 2)
    norm = math.sqrt((g1 ** 2).sum() + (g2 ** 2).sum())
    scale = min(1.0, 1.5 / (norm + 1e-6))
    cases.append(case("clip_grad_norm", "clip_grad_norm", [(g1, "float32"), (g2, "float32")],
                      [g1 * scale, g2 * scale, np.array(norm)], {"max_norm": 1.5}))
    cases.append(case("clip_grad_value", "clip_grad_value", [(g1, "float32"), (g2, "float32")],
                      [np.clip(g1, -0.7, 0.7), np.clip(g2, -0.7, 0.7)], {"value": 0.7}))
    return cases


def sgd(p, grads, lrs, momentum, wd, nesterov):
    b = np.zeros_like(p)
    out = []
    for g, lr in zip(grads, lrs):
        g = g + wd * p
        if momentum:
            b = momentum * b + g
            g = g + momentum * b if nesterov else b
        p = p - lr * g
        out.append(p)
    return out


def adam(p, grads, lrs, wd, b1=0.9, b2=0.999, eps=1e-8):
    m = np.zeros_like(p); v = np.zeros_like(p)
    out = []
    for t, (g, lr) in enumerate(zip(grads, lrs), start=1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        mhat = m / (1 - b1 ** t); vhat = v / (1 - b2 ** t)
        p = p - lr * (mhat / (np.sqrt(vhat) + eps) + wd * p)
        out.append(p)
    return out


def optimizers():
    cases = []
    p = f32((2, 3), -1, 1)
    grads = [f32((2, 3), -1, 1) for _ in range(3)]
    lrs = [0.1, 0.05, 0.02]
    ins = [(p, "float32")] + [(g, "float32") for g in grads]
    for name, mom, wd, nest in [("sgd", 0.0, 0.0, False), ("sgd momentum", 0.9, 0.0, False),
                                ("sgd nesterov", 0.9, 0.0, True), ("sgd weight decay", 0.0, 0.1, False),
                                ("sgd momentum weight decay", 0.8, 0.05, False)]:
        cases.append(case(name, "sgd", ins, sgd(p, grads, lrs, mom, wd, nest),
                          {"lrs": lrs, "momentum": mom, "weight_decay": wd, "nesterov": nest}))
    cases.append(case("adam", "adam", ins, adam(p, grads, lrs, 0.0), {"lrs": lrs, "weight_decay": 0.0}))
    cases.append(case("adamw", "adamw", ins, adam(p, grads, lrs, 0.01), {"lrs": lrs, "weight_decay": 0.01}))
    # parameter groups (PyTorch users' AdamW): a matrix decayed, a bias not; the inputs are
    # the matrix, the bias, then each step's two gradients; the outputs each step's two
    w = f32((2, 3), -1, 1); b = f32((3,), -1, 1)
    wg = [f32((2, 3), -1, 1) for _ in range(3)]; bg = [f32((3,), -1, 1) for _ in range(3)]
    ins = [(w, "float32"), (b, "float32")]
    for gw, gb in zip(wg, bg):
        ins += [(gw, "float32"), (gb, "float32")]
    outs = [o for pair in zip(adam(w, wg, lrs, 0.1), adam(b, bg, lrs, 0.0)) for o in pair]
    cases.append(case("adamw groups", "adamw_groups", ins, outs, {"lrs": lrs, "weight_decay": 0.1}))
    return cases


def attention():
    """Causal multi-head self-attention (tg::nn::SelfAttention): q, k, v without biases,
    proj with one, weights `(out, in)` as torch stores them; drawn after the other cases so
    their values stay as they were."""
    b, t, d, h = 2, 5, 8, 2
    hd = d // h
    x = f32((b, t, d), -2, 2)
    wq, wk, wv, wp = (f32((d, d), -0.5, 0.5) for _ in range(4))
    bp = f32((d,), -0.5, 0.5)

    def heads(y):
        return y.reshape(b, t, h, hd).transpose(0, 2, 1, 3)

    q, k, v = heads(x @ wq.T), heads(x @ wk.T), heads(x @ wv.T)
    s = q @ k.transpose(0, 1, 3, 2) / math.sqrt(hd)
    s = np.where(np.tril(np.ones((t, t), dtype=bool)), s, -np.inf)
    e = np.exp(s - s.max(-1, keepdims=True))
    a = (e / e.sum(-1, keepdims=True)) @ v
    y = a.transpose(0, 2, 1, 3).reshape(b, t, d) @ wp.T + bp
    return [case("self_attention causal 2 heads", "self_attention",
                 [(x, "float32"), (wq, "float32"), (wk, "float32"), (wv, "float32"),
                  (wp, "float32"), (bp, "float32")], [y],
                 {"dim": d, "heads": h,
                  "params": ["q.weight", "k.weight", "v.weight", "proj.weight", "proj.bias"]})]


write("nn", layers() + optimizers() + attention())
