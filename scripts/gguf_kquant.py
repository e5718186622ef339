"""Quantizers for the K-quant types (Q4_K, Q5_K, Q6_K), which the gguf package decodes but does
not encode. They write valid blocks with a plain rule (per sub-block range, 6/8-bit scales of
the super-block's scale, values rounded to the nearest level); ggml's search for the best
scales is not reproduced, since tg's checks compare decoders and logits on the same bytes,
not quantizers. Used by gen_gguf_fixtures.py and gen_gguf_models.py."""

import numpy as np

QK_K = 256


def _f16(x):
    return np.asarray(x, dtype=np.float32).astype(np.float16)


def _levels(x, scale, lo, hi):
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.where(scale == 0, 0, np.rint(x / np.where(scale == 0, 1, scale)))
    return np.clip(q, lo, hi).astype(np.int32)


def _q45k(blocks, bits):
    n = blocks.shape[0]
    top = (1 << bits) - 1
    sub = blocks.reshape(n, 8, 32)
    mins = np.minimum(sub.min(axis=-1), 0.0)  # x = d*sc*q - dmin*m with m >= 0
    scales = (sub.max(axis=-1) - mins) / top
    m_real = -mins
    d = _f16(scales.max(axis=-1) / 63)
    dmin = _f16(m_real.max(axis=-1) / 63)
    df, dminf = d.astype(np.float32)[:, None], dmin.astype(np.float32)[:, None]
    sc = _levels(scales, df, 0, 63)
    mn = _levels(m_real, dminf, 0, 63)
    eff_scale = (df * sc)[:, :, None]
    eff_min = (dminf * mn)[:, :, None]
    q = _levels(sub + eff_min, eff_scale, 0, top).reshape(n, 256)
    packed = np.zeros((n, 12), dtype=np.uint8)
    for j in range(4):
        packed[:, j] = sc[:, j] | ((sc[:, j + 4] >> 4) << 6)
        packed[:, j + 4] = mn[:, j] | ((mn[:, j + 4] >> 4) << 6)
        packed[:, j + 8] = (sc[:, j + 4] & 15) | ((mn[:, j + 4] & 15) << 4)
    q4 = q.reshape(n, 4, 2, 32)
    qs = ((q4[:, :, 0, :] & 15) | ((q4[:, :, 1, :] & 15) << 4)).astype(np.uint8).reshape(n, 128)
    parts = [d.reshape(n, 1).view(np.uint8), dmin.reshape(n, 1).view(np.uint8), packed]
    if bits == 5:
        hi = (q.reshape(n, 8, 32) >> 4) & 1
        qh = np.zeros((n, 32), dtype=np.uint8)
        for j in range(8):
            qh |= (hi[:, j, :] << j).astype(np.uint8)
        parts.append(qh)
    parts.append(qs)
    return np.concatenate(parts, axis=-1)


def _q6k(blocks):
    n = blocks.shape[0]
    sub = blocks.reshape(n, 16, 16)
    amax_idx = np.abs(sub).argmax(axis=-1)
    amax = np.take_along_axis(sub, amax_idx[..., None], axis=-1)[..., 0]
    scales = amax / -32  # the largest magnitude maps to -32
    d = _f16(np.abs(scales).max(axis=-1) / 127)
    df = d.astype(np.float32)[:, None]
    sc = _levels(scales, df, -128, 127)
    eff = (df * sc)[:, :, None]
    q = (_levels(sub, eff, -32, 31) + 32).reshape(n, 256)
    q2 = q.reshape(n, 2, 128)
    ql = np.zeros((n, 2, 64), dtype=np.uint8)
    qh = np.zeros((n, 2, 32), dtype=np.uint8)
    for r in range(128):
        ql[:, :, r % 64] |= ((q2[:, :, r] & 15) << (4 * (r // 64))).astype(np.uint8)
        qh[:, :, r % 32] |= (((q2[:, :, r] >> 4) & 3) << (2 * (r // 32))).astype(np.uint8)
    return np.concatenate(
        [ql.reshape(n, 128), qh.reshape(n, 64), sc.astype(np.int8).view(np.uint8), d.reshape(n, 1).view(np.uint8)],
        axis=-1,
    )


def quantize_k(data, qtype_name):
    """Rows of float32 (length a multiple of 256) to the packed bytes of Q4_K, Q5_K or Q6_K."""
    data = np.asarray(data, dtype=np.float32)
    rows = data.reshape(-1, QK_K)
    if qtype_name == "Q4_K":
        out = _q45k(rows, 4)
    elif qtype_name == "Q5_K":
        out = _q45k(rows, 5)
    elif qtype_name == "Q6_K":
        out = _q6k(rows)
    else:
        raise ValueError(qtype_name)
    return out.reshape(*data.shape[:-1], -1)
