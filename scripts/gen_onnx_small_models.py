#!/usr/bin/env python3
"""Small ONNX models committed for `onnx_kernel!`: the trybuild cases (ui-tests/models/) and
the classify example (examples/models/), with seeded random weights, and the example's image.

- ui-tests/models/tiny_classifier.onnx: x float32 [batch, 4] -> Gemm -> Softmax -> y [batch, 3]
- ui-tests/models/unsupported.onnx: a Det node named "det_node" (tg has no determinant)
- examples/models/tiny_cnn.onnx: image float32 [batch, 3, 32, 32] -> conv/relu/pool x2 ->
  Gemm -> Softmax -> probs [batch, 10]
- examples/models/sample.png: a 32 x 32 RGB test picture

Usage: python scripts/gen_onnx_small_models.py   (onnx==1.23.2)
"""

import os
import struct
import zlib

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def save(model, *path):
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(ROOT, *path))


def tiny_classifier(rng):
    w = numpy_helper.from_array(rng.normal(0, 0.5, (4, 3)).astype(np.float32), "w")
    b = numpy_helper.from_array(rng.normal(0, 0.1, (3,)).astype(np.float32), "b")
    nodes = [helper.make_node("Gemm", ["x", "w", "b"], ["logits"], name="fc"),
             helper.make_node("Softmax", ["logits"], ["y"], axis=-1, name="softmax")]
    g = helper.make_graph(nodes, "tiny", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 3])], [w, b])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def unsupported():
    nodes = [helper.make_node("Det", ["x"], ["y"], name="det_node")]
    g = helper.make_graph(nodes, "det", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def tiny_cnn(rng):
    inits = []

    def w(name, shape, std):
        inits.append(numpy_helper.from_array(rng.normal(0, std, shape).astype(np.float32), name))
        return name

    nodes = [
        helper.make_node("Conv", ["image", w("c1", (8, 3, 3, 3), 0.3), w("c1b", (8,), 0.05)], ["h1"], pads=[1] * 4),
        helper.make_node("Relu", ["h1"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["p1", w("c2", (16, 8, 3, 3), 0.15), w("c2b", (16,), 0.05)], ["h2"], pads=[1] * 4),
        helper.make_node("Relu", ["h2"], ["r2"]),
        helper.make_node("GlobalAveragePool", ["r2"], ["g"]),
        helper.make_node("Flatten", ["g"], ["f"]),
        helper.make_node("Gemm", ["f", w("fc", (16, 10), 0.4), w("fcb", (10,), 0.05)], ["logits"]),
        helper.make_node("Softmax", ["logits"], ["probs"], axis=-1),
    ]
    g = helper.make_graph(nodes, "tiny_cnn",
                          [helper.make_tensor_value_info("image", TensorProto.FLOAT, ["batch", 3, 32, 32])],
                          [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["batch", 10])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def png(path, pixels):
    """A minimal RGB PNG writer (no imaging library needed)."""
    h, w, _ = pixels.shape
    raw = b"".join(b"\x00" + pixels[y].astype(np.uint8).tobytes() for y in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(data)


def main():
    assert onnx.__version__ == "1.23.2", onnx.__version__
    rng = np.random.default_rng(7)
    save(tiny_classifier(rng), "ui-tests", "models", "tiny_classifier.onnx")
    save(unsupported(), "ui-tests", "models", "unsupported.onnx")
    save(tiny_cnn(rng), "examples", "models", "tiny_cnn.onnx")
    y, x = np.mgrid[0:32, 0:32]
    pixels = np.stack([x * 8, y * 8, ((x - 16) ** 2 + (y - 16) ** 2 < 64) * 255], axis=-1)
    png(os.path.join(ROOT, "examples", "models", "sample.png"), pixels)
    print("wrote the small models")


if __name__ == "__main__":
    main()
