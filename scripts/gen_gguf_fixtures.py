"""Fixtures of tg-gguf's dequantization: fixtures/gguf/quant.gguf holds, for every type tg
decodes, a tensor `T` of 4 rows x 512 columns and `T.expected`, its values from the gguf
package's own numpy dequantizer (`gguf.quants.dequantize`) as F32. Rows 0-1 are normal data
quantized by the package (`gguf.quants.quantize`; K-quants by
`gguf_kquant.py`, as the package has no K-quant encoder), rows 2-3 random bytes, so every bit pattern
of scales, minimums and quants is met (subnormal, infinite and NaN scales included).

    pip install gguf==0.19.0 numpy==2.4.6 && python3 scripts/gen_gguf_fixtures.py
"""

import os

import numpy as np
import gguf
from gguf import GGMLQuantizationType as T
from gguf.quants import dequantize, quantize

from gguf_kquant import quantize_k

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "fixtures", "gguf"))
TYPES = [T.F32, T.F16, T.BF16, T.Q8_0, T.Q4_0, T.Q4_1, T.Q5_0, T.Q5_1, T.Q4_K, T.Q5_K, T.Q6_K]
ROWS, COLS = 4, 512


def main():
    rng = np.random.default_rng(32)
    os.makedirs(ROOT, exist_ok=True)
    w = gguf.GGUFWriter(os.path.join(ROOT, "quant.gguf"), arch="tg-fixture")
    for t in TYPES:
        block, size = gguf.GGML_QUANT_SIZES[t]
        row_bytes = COLS // block * size
        data = rng.standard_normal((2, COLS)).astype(np.float32)
        data[0] *= 0.02
        data[1, :64] *= 1000.0  # a block of large values, and one of zeros
        data[1, 64:96] = 0.0
        if t == T.F32:
            normal = data.view(np.uint8)
        elif t == T.F16:
            normal = data.astype(np.float16).view(np.uint8)
        elif t in (T.Q4_K, T.Q5_K, T.Q6_K):
            normal = quantize_k(data, t.name)
        else:
            normal = quantize(data, t)
        raw = rng.integers(0, 256, size=(2, row_bytes), dtype=np.uint8)
        packed = np.concatenate([normal.reshape(2, row_bytes), raw], axis=0)
        values = dequantize(packed, t)
        assert values.shape == (ROWS, COLS), (t, values.shape)
        w.add_tensor(t.name, packed, raw_shape=packed.shape, raw_dtype=t)
        w.add_tensor(t.name + ".expected", values.astype(np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    main()
