"""Generates fixtures/bf16_matmul.json: a bf16 matrix product whose partial sums pass bf16's
integer limit (256: bf16 keeps 8 significant bits), for tg-gguf's BF16 tensors, whose values
widen to f32 inside the kernel that reads them, so products and their sum are f32.

numpy has no bfloat16: values are made in f64, rounded to f32, then to bfloat16 here by
rounding the f32 bits to their upper 16, to nearest even (`to_bf16_bits`). Products of two
bf16 values are exact in f32 (16 significant bits); the expected sum is the exact f64 sum of
those products rounded once to f32. The script also computes what a bf16 accumulator would
reach (adding each product rounded to bf16 to a bf16 running sum) and checks that it is more
than 2% off, so the case separates f32 from bf16 accumulation.

Run: python3 scripts/gen_bf16_matmul.py   (numpy; deterministic output)"""

import json
import os

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")


def to_bf16_bits(x):
    """f32 values -> bfloat16 bits (uint16), round to nearest even; NaN stays a quiet NaN."""
    b = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(x, dtype=np.float32))
    return np.where(nan, np.uint16(0x7FC0), rounded)


def from_bf16_bits(bits):
    return (np.asarray(bits, dtype=np.uint32) << 16).view(np.float32)


def values(shape, seed):
    """bf16 values in [0.5, 2): a fixed hash of the index, rounded to bf16."""
    n = int(np.prod(shape))
    h = (np.arange(n, dtype=np.uint64) * np.uint64(2654435761) + np.uint64(seed * 40503)) % np.uint64(1 << 32)
    x = (0.5 + 1.5 * (h.astype(np.float64) / 2.0**32)).astype(np.float32)
    return to_bf16_bits(x).reshape(shape)


def bf16_running_sum(prod):
    """What a bf16 accumulator reaches adding the products (each rounded to bf16) in order."""
    acc = np.zeros(prod.shape[:-1], dtype=np.float32)
    for k in range(prod.shape[-1]):
        acc = from_bf16_bits(to_bf16_bits(acc + from_bf16_bits(to_bf16_bits(prod[..., k]))))
    return acc


def main():
    m, n, k = 2, 3, 600
    x_bits, w_bits = values((m, k), 31), values((n, k), 32)
    x, w = from_bf16_bits(x_bits).astype(np.float64), from_bf16_bits(w_bits).astype(np.float64)
    prod = x[:, None, :] * w[None, :, :]  # [m, n, k], each exact in f32
    assert np.array_equal(prod.astype(np.float32).astype(np.float64), prod)
    want = prod.sum(-1).astype(np.float32)  # x @ w^T, rounded once
    lost = bf16_running_sum(prod.astype(np.float32))
    assert np.all(want > 256)
    assert np.all(np.abs(lost.astype(np.float64) / want - 1) > 0.02), (lost, want)
    doc = {"generator": "scripts/gen_bf16_matmul.py", "m": m, "n": n, "k": k,
           "x_bf16_bits": x_bits.reshape(-1).tolist(), "w_bf16_bits": w_bits.reshape(-1).tolist(),
           "want_f32": want.reshape(-1).tolist(),
           "bf16_accumulation_f32": lost.reshape(-1).tolist()}
    path = os.path.join(ROOT, "bf16_matmul.json")
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"{path}: {m}x{k} @ ({n}x{k})^T; f32 {want.reshape(-1)}, bf16 accumulation {lost.reshape(-1)}")


if __name__ == "__main__":
    main()
