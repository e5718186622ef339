"""Writes tg-nn/data/digits.bin: the UCI "Optical Recognition of Handwritten Digits" test set
(1,797 images of 8x8 pixels with values 0..16, and their labels 0..9) from the copy that
scikit-learn ships (sklearn.datasets.load_digits), in a small binary form that tg-nn embeds
with include_bytes! (tg-nn/src/data/digits.rs reads it; tg-nn/data/DIGITS_LICENSE.md says
where the data comes from and under which licence).

Layout, all integers little-endian:
    bytes  0..8    magic b"TGDIGITS"
    bytes  8..12   u32 format version (1)
    bytes 12..16   u32 sample count n
    byte  16       u8 rows (8)
    byte  17       u8 cols (8)
    byte  18       u8 largest pixel value (16)
    byte  19       u8 class count (10)
    bytes 20..24   u32 FNV-1a (32-bit) hash of everything after the header
    bytes 24..     n * rows * cols u8 pixels, sample-major, each image row-major
    then           n u8 labels

The samples keep scikit-learn's order. Running it again writes the same bytes.

Run: pip install scikit-learn; python3 scripts/export_digits.py"""

import os
import struct

import numpy as np
from sklearn.datasets import load_digits

OUT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "tg-nn", "data", "digits.bin"))


def fnv1a32(data: bytes) -> int:
    h = 0x811C9DC5
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def main():
    digits = load_digits()
    images = digits.images
    assert images.shape == (1797, 8, 8), images.shape
    pixels = images.astype(np.int64)
    assert (pixels == images).all() and pixels.min() >= 0 and pixels.max() <= 16, "pixels must be integers 0..16"
    labels = digits.target.astype(np.int64)
    assert labels.min() >= 0 and labels.max() <= 9
    payload = pixels.astype(np.uint8).tobytes() + labels.astype(np.uint8).tobytes()
    header = b"TGDIGITS" + struct.pack("<IIBBBBI", 1, len(labels), 8, 8, 16, 10, fnv1a32(payload))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "wb") as f:
        f.write(header + payload)
    print(f"{OUT}: {len(labels)} samples, {len(header) + len(payload)} bytes, "
          f"labels per class {np.bincount(labels, minlength=10).tolist()}, pixel sum {int(pixels.sum())}")


if __name__ == "__main__":
    main()
