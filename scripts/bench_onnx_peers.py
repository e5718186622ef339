#!/usr/bin/env python3
"""Times an ONNX model on tg's peers, for tg-bench-onnx (which calls it between its own
rounds, so the figures are taken in turn): onnxruntime's CPU provider, tinygrad's CPU backend
(its ONNX runner under TinyJit), and ncnn's Vulkan backend (the model converted by pnnx) on
the same Vulkan device tg uses (lavapipe here). Prints one JSON object per peer:
{"peer": ..., "first_s": load + first inference, "median_ms": ..., "runs": N} or
{"peer": ..., "error": "..."} where a peer cannot run the model.

Usage: bench_onnx_peers.py MODEL.onnx INPUT.npy RUNS [PEER...]
Needs: pip install onnxruntime==1.32.0 tinygrad==0.14.0 ncnn pnnx; apt-get install clang
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def timed(first, step, runs):
    t0 = time.perf_counter()
    first()
    first_s = time.perf_counter() - t0
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        step()
        times.append((time.perf_counter() - t) * 1e3)
    return {"first_s": first_s, "median_ms": statistics.median(times), "runs": runs}


def onnxruntime_cpu(model, x, runs):
    import onnxruntime as ort

    state = {}

    def first():
        state["s"] = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
        state["name"] = state["s"].get_inputs()[0].name
        state["s"].run(None, {state["name"]: x})

    return timed(first, lambda: state["s"].run(None, {state["name"]: x}), runs)


def tinygrad_cpu(model, x, runs):
    os.environ.setdefault("DEV", "CPU")
    from tinygrad import Tensor, TinyJit
    from tinygrad.nn.onnx import OnnxRunner

    state = {}

    def first():
        runner = OnnxRunner(model)
        name = next(iter(runner.graph_inputs))

        @TinyJit
        def step(t):
            return next(iter(runner({name: t}).values())).realize()

        state["step"] = step
        step(Tensor(x)).numpy()

    # TinyJit captures on its second call and replays from the third
    def step():
        state["step"](Tensor(x)).numpy()

    return timed(first, step, runs)


def ncnn_vulkan(model, x, runs):
    import ncnn
    import onnx

    tmp = tempfile.mkdtemp()
    m = onnx.load(model)
    m.ir_version = min(m.ir_version, 10)  # pnnx's onnxruntime reads IR 10
    src = os.path.join(tmp, "m.onnx")
    onnx.save(m, src)
    shape = ",".join(str(d) for d in x.shape)
    subprocess.run(["pnnx", src, f"inputshape=[{shape}]"], cwd=tmp, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    state = {}

    def first():
        net = ncnn.Net()
        net.opt.use_vulkan_compute = True
        net.load_param(os.path.join(tmp, "m.ncnn.param"))
        net.load_model(os.path.join(tmp, "m.ncnn.bin"))
        state["net"] = net
        run()

    def run():
        with state["net"].create_extractor() as ex:
            ex.input("in0", ncnn.Mat(x[0]).clone())
            _, out = ex.extract("out0")
            np.array(out)

    return timed(first, run, runs)


PEERS = {"onnxruntime-cpu": onnxruntime_cpu, "tinygrad-cpu": tinygrad_cpu, "ncnn-vulkan": ncnn_vulkan}


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    model, x, runs = sys.argv[1], np.load(sys.argv[2]), int(sys.argv[3])
    for peer in sys.argv[4:] or list(PEERS):
        try:
            r = PEERS[peer](model, x, runs)
            r["peer"] = peer
        except Exception as e:  # noqa: BLE001 - a peer that cannot run is reported
            r = {"peer": peer, "error": f"{type(e).__name__}: {e}"[:300]}
        print(json.dumps(r), flush=True)


if __name__ == "__main__":
    main()
