"""Generates the fixture of scaled dot-product attention's forward and gradients:

  fixtures/ops_attention.json   softmax(q k^T / sqrt(d) + mask) v, causal (query i attends
                                keys 0..=i), unmasked, or with a bool mask (false hides a
                                key) or an additive f32 one, and the gradients of q, k, v
                                (and an additive mask) of sum(out * r), in float64 from the
                                f32 inputs

Inputs are patterns the Rust test regenerates (fixtures_common.pattern), so only the
outputs are stored. Shapes cover a single query and key (T 1), lengths and widths that are
not multiples of 4, more keys than queries and the reverse, batch axes that broadcast, and no
batch axes at all; masks a row per query or one for all, per head, shared by every head
or broadcast along some batch axes, with key 0 hidden in some rows. tests/ops/attention.rs runs them through tg's fused attention.

Run: python3 scripts/gen_ops_attention.py   (numpy; deterministic output)"""

import numpy as np

from fixtures_common import pattern, tensor, write

# f32 against float64: each output sums up to S products (the gradients up to L of S); f16
# (computed in f32, rounded once) against float64 rounded to f16: an ulp or two
TOL = {"out": (1e-5, 1e-6), "grad": (1e-4, 1e-5)}
TOL16 = {"out": (2e-3, 1e-3), "grad": (4e-3, 2e-3)}


def attention(q, k, v, r, causal, mask=None):
    """The output and the gradients of q, k, v (and of an additive mask) of sum(out * r),
    broadcast batch axes summed back."""
    d = q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    if mask is not None and mask.dtype == bool:
        s = np.where(mask, s, -np.inf)
    elif mask is not None:
        s = s + mask
    if causal:
        ll, ss = s.shape[-2:]
        s = np.where(np.tril(np.ones((ll, ss), bool)), s, -np.inf)
    s = s - s.max(-1, keepdims=True)
    p = np.exp(s)
    p = p / p.sum(-1, keepdims=True)
    out = p @ v
    dp = r @ np.swapaxes(v, -1, -2)
    ds = p * (dp - (dp * p).sum(-1, keepdims=True))
    dq = ds @ k / np.sqrt(d)
    dk = np.swapaxes(ds, -1, -2) @ q / np.sqrt(d)
    dv = np.swapaxes(p, -1, -2) @ r

    def unbroadcast(g, shape):
        g = g.sum(axis=tuple(range(g.ndim - len(shape))))
        axes = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
        return g.sum(axis=axes, keepdims=True).reshape(shape)

    grads = [unbroadcast(dq, q.shape), unbroadcast(dk, k.shape), unbroadcast(dv, v.shape)]
    if mask is not None and mask.dtype != bool:
        grads.append(unbroadcast(ds, mask.shape))
    return [out] + grads


def cases():
    out = []
    shapes = [
        # name, q, k, v
        ("t1", (1, 1, 1, 4), (1, 1, 1, 4), (1, 1, 1, 4)),
        ("odd", (2, 3, 7, 5), (2, 3, 7, 5), (2, 3, 7, 3)),
        ("d16", (1, 2, 48, 16), (1, 2, 48, 16), (1, 2, 48, 16)),
        ("wide_values", (1, 2, 33, 8), (1, 2, 33, 8), (1, 2, 33, 12)),
        ("more_keys", (2, 1, 5, 4), (2, 1, 9, 4), (2, 1, 9, 4)),
        ("more_queries", (1, 2, 9, 4), (1, 2, 5, 4), (1, 2, 5, 6)),
        ("broadcast", (2, 3, 6, 4), (1, 3, 6, 4), (3, 6, 2)),
        ("no_batch", (5, 4), (5, 4), (5, 3)),
        ("long", (1, 1, 130, 4), (1, 1, 130, 4), (1, 1, 130, 4)),
    ]
    for name, qs, ks, vs in shapes:
        for causal in [False, True]:
            seed = len(out) * 4 + 1
            q, q_spec = pattern("float32", qs, seed, -1.0, 1.0)
            k, k_spec = pattern("float32", ks, seed + 1, -1.0, 1.0)
            v, v_spec = pattern("float32", vs, seed + 2, -1.0, 1.0)
            f64 = [a.astype(np.float64) for a in (q, k, v)]
            batch = np.broadcast_shapes(qs[:-2], ks[:-2], vs[:-2])
            r, r_spec = pattern("float32", batch + (qs[-2], vs[-1]), seed + 3, -1.0, 1.0)
            o, dq, dk, dv = attention(*f64, r.astype(np.float64), causal)
            outs = [(o, "out")] + [(g, "grad") for g in (dq, dk, dv)]
            out.append({
                "name": f"{name}/{'causal' if causal else 'full'}",
                "op": "scaled_dot_product_attention",
                "args": {"causal": causal},
                "inputs": [q_spec, k_spec, v_spec, r_spec],
                "outs": [tensor(a.astype(np.float32), "float32") for a, _ in outs],
                # per output: (rtol, atol)
                "tols": [TOL[kind] for _, kind in outs],
            })
    masks = [
        # name, q, k, v, mask, its dtype (a bool mask alternates along the keys: an even
        # seed with an even S hides key 0 of every row)
        ("bool_rows", (2, 3, 7, 5), (2, 3, 9, 5), (2, 3, 9, 3), (7, 9), "bool", 3),
        ("bool_heads", (2, 3, 5, 4), (2, 3, 8, 4), (2, 3, 8, 4), (2, 3, 1, 8), "bool", 4),
        ("add_full", (2, 3, 6, 4), (2, 3, 6, 4), (2, 3, 6, 5), (2, 3, 6, 6), "float32", 5),
        ("add_partial", (2, 3, 6, 4), (2, 3, 6, 4), (2, 3, 6, 4), (2, 1, 6, 6), "float32", 7),
        # a decode step of grouped heads: 3 query heads a key head as 3 rows, one row of mask
        ("add_shared", (4, 3, 16), (4, 10, 16), (4, 10, 16), (1, 10), "float32", 9),
    ]
    for name, qs, ks, vs, ms, mdt, mseed in masks:
        seed = len(out) * 4 + 1
        q, q_spec = pattern("float32", qs, seed, -1.0, 1.0)
        k, k_spec = pattern("float32", ks, seed + 1, -1.0, 1.0)
        v, v_spec = pattern("float32", vs, seed + 2, -1.0, 1.0)
        m, m_spec = pattern(mdt, ms, mseed * 1000, -2.0, 2.0)
        f64 = [a.astype(np.float64) for a in (q, k, v)]
        batch = np.broadcast_shapes(qs[:-2], ks[:-2], vs[:-2], ms[:-2])
        r, r_spec = pattern("float32", batch + (qs[-2], vs[-1]), seed + 3, -1.0, 1.0)
        mask = m if mdt == "bool" else m.astype(np.float64)
        res = attention(*f64, r.astype(np.float64), False, mask)
        outs = [(res[0], "out")] + [(g, "grad") for g in res[1:]]
        out.append({
            "name": f"mask_{name}",
            "op": "scaled_dot_product_attention",
            "args": {"causal": False, "mask": "bool" if mdt == "bool" else "add"},
            "inputs": [q_spec, k_spec, v_spec, r_spec, m_spec],
            "outs": [tensor(a.astype(np.float32), "float32") for a, _ in outs],
            "tols": [TOL[kind] for _, kind in outs],
        })
    # f16 queries, keys and values (and an f16 additive mask): the fused attention in f32
    halves = [
        ("causal", (2, 2, 9, 8), (2, 2, 9, 8), (2, 2, 9, 8), None),
        ("full", (1, 3, 6, 4), (1, 3, 11, 4), (1, 3, 11, 5), None),
        ("mask", (2, 2, 6, 8), (2, 2, 7, 8), (2, 2, 7, 8), (6, 7)),
    ]
    for name, qs, ks, vs, ms in halves:
        seed = len(out) * 4 + 1
        q, q_spec = pattern("float16", qs, seed, -1.0, 1.0)
        k, k_spec = pattern("float16", ks, seed + 1, -1.0, 1.0)
        v, v_spec = pattern("float16", vs, seed + 2, -1.0, 1.0)
        r, r_spec = pattern("float16", qs[:-1] + (vs[-1],), seed + 3, -1.0, 1.0)
        inputs = [q_spec, k_spec, v_spec, r_spec]
        mask = None
        if ms is not None:
            m, m_spec = pattern("float16", ms, seed * 1000, -2.0, 2.0)
            mask = m.astype(np.float64)
            inputs.append(m_spec)
        causal = name == "causal"
        f64 = [a.astype(np.float64) for a in (q, k, v, r)]
        res = attention(*f64, causal, mask)
        outs = [(res[0], "out")] + [(g, "grad") for g in res[1:]]
        args = {"causal": causal}
        if mask is not None:
            args["mask"] = "add"
        out.append({
            "name": f"f16_{name}",
            "op": "scaled_dot_product_attention",
            "args": args,
            "inputs": inputs,
            "outs": [tensor(a.astype(np.float16), "float16") for a, _ in outs],
            "tols": [TOL16[kind] for _, kind in outs],
        })
    return out


if __name__ == "__main__":
    write("ops_attention", cases())
