#!/usr/bin/env python3
"""Whole-model cases for `tg-onnx test`, each checked against onnxruntime's CPU provider.

Writes backend-test folders (model.onnx, test_data_set_0/input_J.pb and output_J.pb from
onnxruntime, tolerance.json with rtol 1e-3 and atol 1e-4) into OUT:

- light_*: the model-zoo graphs onnx's package ships (onnx/backend/test/data/light/), whose
  weights are ConstantOfShape(0.02) nodes (a uniform softmax: a weak check). Each such node is
  replaced by a seeded random initializer: He-normal convolution and dense weights, small
  biases, BatchNormalization statistics near (0, 1) with scales near 1, so activations stay
  finite through every layer. The originals run too (light_*_original, their shipped output).
- transformer_encoder: 2 layers, d 256, 4 heads, sequence 64 (LayerNormalization, MatMul,
  Softmax, Gelu), built with onnx.helper.
- mobilenetv2: a MobileNetV2-style stack (1x1 expand, 3x3 depthwise, 1x1 project, Clip as
  ReLU6, residual adds) at 3 x 96 x 96.
- gpt_decoder: a GPT-style decoder (token and position embeddings through Gather, a causal mask
  from Trilu, 2 blocks, tied output projection) over 32 tokens.
- mobilenetv2_qdq: mobilenetv2 quantized to int8 in QDQ form by onnxruntime's quantize_static.

Usage: gen_onnx_models.py OUT [--long]   (without --long: the light models that run in
seconds, squeezenet, shufflenet and resnet50; with it: all nine, the heavy AlexNet, DenseNet,
Inception, VGG-19 and ZFNet-512 too)
"""

import json
import os
import shutil
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

LIGHT = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")
SHORT = ["squeezenet", "shufflenet", "resnet50"]
ALL = ["bvlc_alexnet", "densenet121", "inception_v1", "inception_v2", "resnet50", "shufflenet",
       "squeezenet", "vgg19", "zfnet512"]


def write_case(out, name, model, inputs, rtol=1e-3, atol=1e-4, outputs=None):
    folder = os.path.join(out, name)
    if os.path.exists(folder):
        shutil.rmtree(folder)
    os.makedirs(os.path.join(folder, "test_data_set_0"))
    onnx.save(model, os.path.join(folder, "model.onnx"))
    if outputs is None:
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        sess = ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
        feeds = {i.name: x for i, x in zip(sess.get_inputs(), inputs)}
        outputs = sess.run(None, feeds)
    inits = {t.name for t in model.graph.initializer}
    data_inputs = [i for i in model.graph.input if i.name not in inits]
    for j, x in enumerate(inputs):
        t = numpy_helper.from_array(x, data_inputs[j].name)
        with open(os.path.join(folder, "test_data_set_0", f"input_{j}.pb"), "wb") as f:
            f.write(t.SerializeToString())
    for j, y in enumerate(outputs):
        t = numpy_helper.from_array(np.asarray(y), model.graph.output[j].name)
        with open(os.path.join(folder, "test_data_set_0", f"output_{j}.pb"), "wb") as f:
            f.write(t.SerializeToString())
    with open(os.path.join(folder, "tolerance.json"), "w") as f:
        json.dump({"rtol": rtol, "atol": atol}, f)


def randomize_light(model, rng):
    """Replaces every ConstantOfShape weight with a seeded random initializer."""
    g = model.graph
    consumers = {}
    for n in g.node:
        for k, name in enumerate(n.input):
            consumers.setdefault(name, []).append((n.op_type, k))
    inits = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    keep = []
    new_inits = []
    for n in g.node:
        if n.op_type != "ConstantOfShape" or n.input[0] not in inits:
            keep.append(n)
            continue
        shape = tuple(int(d) for d in inits[n.input[0]])
        out = n.output[0]
        use = consumers.get(out, [("", -1)])[0]
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
        if use[0] == "BatchNormalization" and use[1] == 1:
            v = rng.uniform(0.8, 1.2, shape)
        elif use[0] == "BatchNormalization" and use[1] == 4:
            v = rng.uniform(0.5, 1.5, shape)
        elif use[0] == "BatchNormalization":
            v = rng.normal(0.0, 0.1, shape)
        elif use[0] in ("Conv", "ConvTranspose") and use[1] == 1:
            v = rng.normal(0.0, np.sqrt(2.0 / fan_in), shape)
        elif use[0] == "Gemm" and use[1] == 1:
            v = rng.normal(0.0, np.sqrt(1.0 / shape[-1]), shape)
        else:
            v = rng.normal(0.0, 0.05, shape)
        new_inits.append(numpy_helper.from_array(v.astype(np.float32), out))
    del g.node[:]
    g.node.extend(keep)
    names = {t.name for t in new_inits}
    g.initializer.extend(new_inits)
    # the weights are initializers now, not graph inputs
    inputs = [i for i in g.input if i.name not in names]
    del g.input[:]
    g.input.extend(inputs)
    return model


def light_cases(out, names, rng):
    for name in names:
        path = os.path.join(LIGHT, f"light_{name}.onnx")
        original = onnx.load(path)
        inits = {t.name for t in original.graph.initializer}
        data = next(i for i in original.graph.input if i.name not in inits)
        shape = [d.dim_value for d in data.type.tensor_type.shape.dim]
        x = rng.standard_normal(shape).astype(np.float32)
        shipped = numpy_helper.to_array(onnx.load_tensor(os.path.join(LIGHT, f"light_{name}_output_0.pb")))
        # the shipped output is for an input of zeros... of anything: the weights are all
        # 0.02, so it is the uniform softmax
        write_case(out, f"light_{name}_original", original, [x], outputs=[shipped])
        model = randomize_light(onnx.load(path), rng)
        write_case(out, f"light_{name}", model, [x])


def const(name, a):
    return numpy_helper.from_array(np.asarray(a, dtype=np.float32), name)


class Builder:
    """Nodes and initializers of a graph being built."""

    def __init__(self, rng):
        self.rng = rng
        self.nodes = []
        self.inits = []
        self.count = 0

    def name(self, base):
        self.count += 1
        return f"{base}_{self.count}"

    def weight(self, shape, std):
        n = self.name("w")
        self.inits.append(const(n, self.rng.normal(0.0, std, shape)))
        return n

    def tensor(self, value, dtype=np.float32):
        n = self.name("c")
        self.inits.append(numpy_helper.from_array(np.asarray(value, dtype=dtype), n))
        return n

    def op(self, op_type, inputs, **attrs):
        out = self.name(op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], **attrs))
        return out

    def linear(self, x, d_in, d_out):
        y = self.op("MatMul", [x, self.weight((d_in, d_out), np.sqrt(1.0 / d_in))])
        return self.op("Add", [y, self.weight((d_out,), 0.02)])

    def layernorm(self, x, d):
        scale = self.tensor(1.0 + 0.1 * self.rng.standard_normal(d))
        bias = self.tensor(0.1 * self.rng.standard_normal(d))
        return self.op("LayerNormalization", [x, scale, bias], axis=-1, epsilon=1e-5)

    def attention(self, x, d, heads, seq, mask=None):
        hd = d // heads
        shape = self.tensor([1, seq, heads, hd], np.int64)

        def split(t):
            return self.op("Transpose", [self.op("Reshape", [t, shape])], perm=[0, 2, 1, 3])

        q, k, v = (split(self.linear(x, d, d)) for _ in range(3))
        kt = self.op("Transpose", [k], perm=[0, 1, 3, 2])
        s = self.op("Mul", [self.op("MatMul", [q, kt]), self.tensor(1.0 / np.sqrt(hd))])
        if mask is not None:
            s = self.op("Add", [s, mask])
        p = self.op("Softmax", [s], axis=-1)
        o = self.op("Transpose", [self.op("MatMul", [p, v])], perm=[0, 2, 1, 3])
        o = self.op("Reshape", [o, self.tensor([1, seq, d], np.int64)])
        return self.linear(o, d, d)

    def model(self, inputs, outputs, opset=17):
        graph = helper.make_graph(self.nodes, "g", inputs, outputs, self.inits)
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def gelu_builder(b, x):
    """tanh-free GELU through Erf (opset 17 has no Gelu op)."""
    inner = b.op("Erf", [b.op("Mul", [x, b.tensor(1.0 / np.sqrt(2.0))])])
    return b.op("Mul", [b.op("Mul", [x, b.tensor(0.5)]), b.op("Add", [inner, b.tensor(1.0)])])


def encoder(rng, d=256, heads=4, seq=64, layers=2):
    b = Builder(rng)
    x = "x"
    for _ in range(layers):
        h = b.op("Add", [x, b.attention(b.layernorm(x, d), d, heads, seq)])
        f = b.linear(gelu_builder(b, b.linear(b.layernorm(h, d), d, 4 * d)), 4 * d, d)
        x = b.op("Add", [h, f])
    y = b.layernorm(x, d)
    m = b.model([helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, seq, d])],
                [helper.make_tensor_value_info(y, TensorProto.FLOAT, [1, seq, d])])
    return m, [rng.standard_normal((1, seq, d)).astype(np.float32)]


def mobilenetv2(rng, size=96):
    b = Builder(rng)

    def conv(x, cin, cout, k, stride=1, groups=1, relu6=True):
        w = b.weight((cout, cin // groups, k, k), np.sqrt(2.0 / (cin // groups * k * k)))
        y = b.op("Conv", [x, w, b.weight((cout,), 0.02)], kernel_shape=[k, k], strides=[stride, stride],
                 pads=[k // 2] * 4, group=groups)
        if relu6:
            y = b.op("Clip", [y, b.tensor(0.0), b.tensor(6.0)])
        return y

    x = conv("x", 3, 16, 3, stride=2)
    cfg = [(16, 16, 1, 1), (16, 24, 6, 2), (24, 24, 6, 1), (24, 32, 6, 2), (32, 32, 6, 1),
           (32, 64, 6, 2), (64, 64, 6, 1), (64, 96, 6, 1)]
    for cin, cout, t, s in cfg:
        h = conv(x, cin, cin * t, 1) if t != 1 else x
        h = conv(h, cin * t, cin * t, 3, stride=s, groups=cin * t)
        h = conv(h, cin * t, cout, 1, relu6=False)
        x = b.op("Add", [x, h]) if (s == 1 and cin == cout) else h
    x = conv(x, 96, 320, 1)
    x = b.op("GlobalAveragePool", [x])
    x = b.op("Flatten", [x], axis=1)
    y = b.op("Gemm", [x, b.weight((320, 100), np.sqrt(1.0 / 320)), b.weight((100,), 0.02)])
    m = b.model([helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, size, size])],
                [helper.make_tensor_value_info(y, TensorProto.FLOAT, [1, 100])], opset=13)
    return m, [rng.standard_normal((1, 3, size, size)).astype(np.float32)]


def gpt_decoder(rng, vocab=512, d=128, heads=4, seq=32, layers=2):
    b = Builder(rng)
    emb_name = b.weight((vocab, d), 0.02)
    tok = b.op("Gather", [emb_name, "ids"], axis=0)
    pos = b.op("Gather", [b.weight((seq, d), 0.02), b.tensor(np.arange(seq), np.int64)], axis=0)
    x = b.op("Add", [tok, pos])
    # causal mask: 0 on and below the diagonal, -1e9 above
    upper = b.op("Trilu", [b.tensor(np.ones((seq, seq))), b.tensor(1, np.int64)], upper=1)
    mask = b.op("Mul", [upper, b.tensor(-1e9)])
    for _ in range(layers):
        h = b.op("Add", [x, b.attention(b.layernorm(x, d), d, heads, seq, mask)])
        f = b.linear(gelu_builder(b, b.linear(b.layernorm(h, d), d, 4 * d)), 4 * d, d)
        x = b.op("Add", [h, f])
    x = b.layernorm(x, d)
    logits = b.op("MatMul", [x, b.op("Transpose", [emb_name], perm=[1, 0])])
    m = b.model([helper.make_tensor_value_info("ids", TensorProto.INT64, [1, seq])],
                [helper.make_tensor_value_info(logits, TensorProto.FLOAT, [1, seq, vocab])])
    return m, [rng.integers(0, vocab, (1, seq)).astype(np.int64)]


def qdq(model, inputs, rng):
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    class Reader(CalibrationDataReader):
        def __init__(self):
            name = model.graph.input[0].name
            self.data = iter([{name: rng.standard_normal(inputs[0].shape).astype(np.float32)} for _ in range(4)])

        def get_next(self):
            return next(self.data, None)

    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "f32.onnx")
        dst = os.path.join(tmp, "qdq.onnx")
        onnx.save(model, src)
        quantize_static(src, dst, Reader(), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QInt8, weight_type=QuantType.QInt8)
        return onnx.load(dst)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    long = "--long" in sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(20240531)
    light_cases(out, ALL if long else SHORT, rng)
    m, x = encoder(rng)
    write_case(out, "transformer_encoder", m, x)
    m, x = mobilenetv2(rng)
    write_case(out, "mobilenetv2", m, x)
    q = qdq(m, x, rng)
    # int8 rounding: a quantized activation one step off moves the output by a step of the
    # output's scale, so the comparison allows one step
    write_case(out, "mobilenetv2_qdq", q, x, rtol=1e-3, atol=5e-2)
    m, x = gpt_decoder(rng)
    write_case(out, "gpt_decoder", m, x)
    print(f"model cases written to {out}")


if __name__ == "__main__":
    main()
