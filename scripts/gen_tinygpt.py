"""Generates fixtures/tinygpt.json: examples/tinygpt's GPT at a small size (vocab 11, context 8,
width 16, 2 heads, 2 blocks, batch 2) computed in float64 with numpy from its definition
(pre-LN blocks: x + proj(attention(ln1(x))), x + out(gelu(fc(ln2(x)))), the query, key and
value projections without biases; causal softmax
attention scaled by 1/sqrt(head width); LayerNorm with eps 1e-5 and the biased variance;
GELU in its tanh form; learned token and position embeddings; logits against the token table;
mean cross-entropy), its gradients written out by hand (reverse mode, op by op), and two
AdamW steps with parameter groups (weight decay 0.1 on the parameters of 2 axes or more,
none on biases and LayerNorm's), learning rates 0.01 then 0.005.

One case. Inputs: the two steps' ids and targets (int32, (2, 8)), then the initial parameters
in the model's order (named by args.params; float32 values from a seeded generator). Outputs:
the first step's logits (2, 8, 11), its loss, the gradient of every parameter at the first
step (in order), the second step's loss (after one AdamW step), then every parameter after
the two steps.

The same at the size of examples/tinygpt and tg-bench-gpt's step (vocab 76, context 64, width
64, 4 heads, 2 blocks, batch 16), too big to commit (about 8 MB), is written where asked by
`full OUT.json`; the test command makes it under target/ and tests/nn/tinygpt.rs reads it.

Run: python3 scripts/gen_tinygpt.py [full OUT.json]   (numpy; deterministic output)"""

import math
import os
import sys

import numpy as np

from fixtures_common import tensor, write

V, T, D, H, L, B = 11, 8, 16, 2, 2, 2
HD = D // H
EPS = 1e-5
# the attention projections, named as tg::nn::SelfAttention names them (`attn` in a block)
QKV = ("attn.q", "attn.k", "attn.v")
rng = np.random.default_rng(20261205)


def f32(shape, scale):
    return (rng.uniform(-1, 1, size=shape) * scale).astype(np.float32).astype(np.float64)


def init():
    p = {"tok.weight": f32((V, D), 0.5), "pos.weight": f32((T, D), 0.5)}
    for i in range(L):
        b = f"blocks.{i}."
        for ln in ("ln1", "ln2"):
            p[b + ln + ".weight"] = 1 + f32((D,), 0.1)
            p[b + ln + ".bias"] = f32((D,), 0.1)
        # in the block's field order: ln1, attn (q, k, v, proj), ln2, fc, out
        for name, (o, i_) in [("attn.q", (D, D)), ("attn.k", (D, D)), ("attn.v", (D, D)),
                              ("attn.proj", (D, D)), ("fc", (4 * D, D)), ("out", (D, 4 * D))]:
            p[b + name + ".weight"] = f32((o, i_), 1 / math.sqrt(i_))
            if name not in QKV:
                p[b + name + ".bias"] = f32((o,), 0.1)
    p["ln.weight"] = 1 + f32((D,), 0.1)
    p["ln.bias"] = f32((D,), 0.1)
    order = ["tok.weight", "pos.weight"]
    for i in range(L):
        for name in ("ln1", *QKV, "attn.proj", "ln2", "fc", "out"):
            order += [f"blocks.{i}.{name}.weight"]
            if name not in QKV:
                order += [f"blocks.{i}.{name}.bias"]
    order += ["ln.weight", "ln.bias"]
    return p, order


def ln_fwd(x, w, b):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    inv = 1 / np.sqrt(var + EPS)
    xhat = (x - mu) * inv
    return xhat * w + b, (xhat, inv, w)


def ln_bwd(dy, cache):
    xhat, inv, w = cache
    dw = (dy * xhat).reshape(-1, D).sum(0)
    db = dy.reshape(-1, D).sum(0)
    dxh = dy * w
    dx = inv * (dxh - dxh.mean(-1, keepdims=True) - xhat * (dxh * xhat).mean(-1, keepdims=True))
    return dx, dw, db


def lin_fwd(x, w, b=None):
    return x @ w.T + (0 if b is None else b)


def lin_bwd(dy, x, w):
    n = w.shape[0]
    dx = dy @ w
    dw = dy.reshape(-1, n).T @ x.reshape(-1, w.shape[1])
    db = dy.reshape(-1, n).sum(0)
    return dx, dw, db


C = math.sqrt(2 / math.pi)


def gelu(x):
    return 0.5 * x * (1 + np.tanh(C * (x + 0.044715 * x ** 3)))


def gelu_grad(x):
    t = np.tanh(C * (x + 0.044715 * x ** 3))
    return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * C * (1 + 3 * 0.044715 * x * x)


def heads(y):
    return y.reshape(B, T, H, HD).transpose(0, 2, 1, 3)


def unheads(y):
    return y.transpose(0, 2, 1, 3).reshape(B, T, D)


MASK = np.triu(np.full((T, T), -np.inf), 1)


def configure(vocab, context, dim, heads, layers, batch, dtype=np.float64):
    """The reference's sizes, which its functions read as module globals."""
    global V, T, D, H, L, B, HD, MASK
    V, T, D, H, L, B = vocab, context, dim, heads, layers, batch
    HD = dim // heads
    MASK = np.triu(np.full((context, context), -np.inf, dtype), 1)


# examples/tinygpt's sizes (its licence-text vocabulary has 76 characters), batch 16
FULL = (76, 64, 64, 4, 2, 16)


def forward_backward(p, ids, targets):
    """Logits, loss and every parameter's gradient."""
    g = {k: np.zeros_like(v) for k, v in p.items()}
    x = p["tok.weight"][ids] + p["pos.weight"][np.arange(T)]
    caches = []
    for i in range(L):
        b = f"blocks.{i}."
        x_in = x
        n1, c1 = ln_fwd(x, p[b + "ln1.weight"], p[b + "ln1.bias"])
        q, k, v = (heads(lin_fwd(n1, p[b + n + ".weight"])) for n in QKV)
        s = q @ k.transpose(0, 1, 3, 2) / math.sqrt(HD) + MASK
        s = s - s.max(-1, keepdims=True)
        pr = np.exp(s)
        pr /= pr.sum(-1, keepdims=True)
        a = unheads(pr @ v)
        x_mid = x_in + lin_fwd(a, p[b + "attn.proj.weight"], p[b + "attn.proj.bias"])
        n2, c2 = ln_fwd(x_mid, p[b + "ln2.weight"], p[b + "ln2.bias"])
        f = lin_fwd(n2, p[b + "fc.weight"], p[b + "fc.bias"])
        x = x_mid + lin_fwd(gelu(f), p[b + "out.weight"], p[b + "out.bias"])
        caches.append((n1, c1, q, k, v, pr, a, n2, c2, f))
    nf, cf = ln_fwd(x, p["ln.weight"], p["ln.bias"])
    logits = nf @ p["tok.weight"].T
    m = logits.max(-1, keepdims=True)
    lse = m[..., 0] + np.log(np.exp(logits - m).sum(-1))
    picked = np.take_along_axis(logits, targets[..., None], -1)[..., 0]
    loss = (lse - picked).mean()
    # backward
    dlogits = np.exp(logits - lse[..., None])
    np.put_along_axis(dlogits, targets[..., None], np.take_along_axis(dlogits, targets[..., None], -1) - 1, -1)
    dlogits /= B * T
    g["tok.weight"] += dlogits.reshape(-1, V).T @ nf.reshape(-1, D)
    dx, g["ln.weight"], g["ln.bias"] = ln_bwd(dlogits @ p["tok.weight"], cf)
    for i in reversed(range(L)):
        b = f"blocks.{i}."
        n1, c1, q, k, v, pr, a, n2, c2, f = caches[i]
        dgel, g[b + "out.weight"], g[b + "out.bias"] = lin_bwd(dx, gelu(f), p[b + "out.weight"])
        df = dgel * gelu_grad(f)
        dn2, g[b + "fc.weight"], g[b + "fc.bias"] = lin_bwd(df, n2, p[b + "fc.weight"])
        d, g[b + "ln2.weight"], g[b + "ln2.bias"] = ln_bwd(dn2, c2)
        dx = dx + d
        da, g[b + "attn.proj.weight"], g[b + "attn.proj.bias"] = lin_bwd(dx, a, p[b + "attn.proj.weight"])
        dah = heads(da)
        dpr = dah @ v.transpose(0, 1, 3, 2)
        dv = pr.transpose(0, 1, 3, 2) @ dah
        ds = pr * (dpr - (dpr * pr).sum(-1, keepdims=True)) / math.sqrt(HD)
        dq = ds @ k
        dk = ds.transpose(0, 1, 3, 2) @ q
        dn1 = np.zeros_like(n1)
        for name, dh in zip(QKV, (dq, dk, dv)):
            dn, g[b + name + ".weight"], _ = lin_bwd(unheads(dh), n1, p[b + name + ".weight"])
            dn1 += dn
        d, g[b + "ln1.weight"], g[b + "ln1.bias"] = ln_bwd(dn1, c1)
        dx = dx + d
    np.add.at(g["tok.weight"], ids.reshape(-1), dx.reshape(-1, D))
    g["pos.weight"] += dx.sum(0)
    return logits, loss, g


def adamw(p, g, state, t, lr, wd=0.1, b1=0.9, b2=0.999, eps=1e-8):
    for k in p:
        m, v = state.setdefault(k, (np.zeros_like(p[k]), np.zeros_like(p[k])))
        m = b1 * m + (1 - b1) * g[k]
        v = b2 * v + (1 - b2) * g[k] ** 2
        state[k] = (m, v)
        decay = wd if p[k].ndim >= 2 else 0.0
        up = (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + eps) + decay * p[k]
        p[k] = p[k] - lr * up


def check_gradients(p, ids, targets, g):
    """Central differences on a few entries of every parameter: the hand-written backward."""
    for k in p:
        flat = p[k].reshape(-1)
        for j in rng.choice(flat.size, size=min(3, flat.size), replace=False):
            old = flat[j]
            flat[j] = old + 1e-6
            up = forward_backward(p, ids, targets)[1]
            flat[j] = old - 1e-6
            down = forward_backward(p, ids, targets)[1]
            flat[j] = old
            num = (up - down) / 2e-6
            got = g[k].reshape(-1)[j]
            assert abs(num - got) <= 1e-6 + 1e-5 * abs(num), (k, j, num, got)


def main():
    p, order = init()
    batches = []
    for _ in range(2):
        seq = rng.integers(0, V, size=(B, T + 1))
        batches.append((seq[:, :T].astype(np.int32), seq[:, 1:].astype(np.int32)))
    inputs = [tensor(x, "int32") for pair in batches for x in pair]
    inputs += [tensor(p[k], "float32") for k in order]
    logits, loss0, g0 = forward_backward(p, *batches[0])
    if (V, T, D, H, L, B) != FULL:
        # the backward's formulas do not depend on the sizes: checked at the small size, where
        # central differences take a second (at the full size, minutes)
        check_gradients(p, *batches[0], g0)
    state = {}
    adamw(p, g0, state, 1, 0.01)
    _, loss1, g1 = forward_backward(p, *batches[1])
    adamw(p, g1, state, 2, 0.005)
    outs = [tensor(logits, "float32"), tensor(loss0, "float32")]
    outs += [tensor(g0[k], "float32") for k in order]
    outs += [tensor(loss1, "float32")]
    outs += [tensor(p[k], "float32") for k in order]
    case = {"name": f"tinygpt two AdamW steps (d {D}, context {T}, batch {B})", "op": "tinygpt",
            "args": {"params": order, "lrs": [0.01, 0.005], "weight_decay": 0.1,
                     "vocab": V, "context": T, "dim": D, "heads": H, "layers": L, "batch": B},
            "inputs": inputs, "outs": outs, "rtol": 1e-4, "atol": 1e-5}
    return case


if __name__ == "__main__":  # scripts/bench_tinygpt_numpy.py imports the model
    if sys.argv[1:2] == ["full"]:
        configure(*FULL)
        out = sys.argv[2]
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        write(os.path.splitext(os.path.basename(out))[0], [main()],
              root=os.path.dirname(os.path.abspath(out)))
    else:
        write("tinygpt", [main()])
