#!/usr/bin/env python3
"""Runs ONNX's node test cases (as scripts/gen_onnx_node_tests.py writes them) through
tinygrad's ONNX runner (tinygrad 0.14, `tinygrad/nn/onnx.py`, CPU backend), comparing as ONNX's
backend tests do (same dtype, then allclose with the case's rtol and atol), and writes the
names of the cases it passes, one a line. Kept outside the test command: the list it writes
is committed (fixtures/onnx/tinygrad_passes.txt) and the test command checks that tg passes
every case on it.

Usage: DEV=CPU python scripts/onnx_tinygrad_cases.py CASES_DIR OUT_FILE
Needs: pip install tinygrad==0.14.0 onnx==1.23.2; apt-get install clang
"""

import glob
import os
import signal
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def load_value(path, value_info):
    kind = value_info.type.WhichOneof("value")
    data = open(path, "rb").read()
    if kind == "sequence_type":
        s = onnx.SequenceProto()
        s.ParseFromString(data)
        return numpy_helper.to_list(s)
    if kind == "optional_type":
        o = onnx.OptionalProto()
        o.ParseFromString(data)
        return numpy_helper.to_optional(o)
    t = onnx.TensorProto()
    t.ParseFromString(data)
    return numpy_helper.to_array(t)


class Timeout(Exception):
    pass


def on_alarm(*_):
    raise Timeout()


def run_case(folder, OnnxRunner, Tensor):
    import json

    model = onnx.load(os.path.join(folder, "model.onnx"), load_external_data=False)
    tol = json.load(open(os.path.join(folder, "tolerance.json")))
    runner = OnnxRunner(os.path.join(folder, "model.onnx"))
    inputs_vi = [i for i in model.graph.input if i.name not in {t.name for t in model.graph.initializer}]
    for ds in sorted(glob.glob(os.path.join(folder, "test_data_set_*"))):
        feeds = {}
        for j, vi in enumerate(inputs_vi):
            p = os.path.join(ds, f"input_{j}.pb")
            if os.path.exists(p):
                feeds[vi.name] = load_value(p, vi)
        outs = runner(feeds)
        for j, vi in enumerate(model.graph.output):
            p = os.path.join(ds, f"output_{j}.pb")
            if not os.path.exists(p):
                continue
            want = load_value(p, vi)
            got = outs[vi.name]
            if isinstance(want, list):
                got = [g.numpy() if isinstance(g, Tensor) else np.asarray(g) for g in got]
                if len(got) != len(want):
                    return False
                pairs = list(zip(got, want))
            else:
                pairs = [(got.numpy() if isinstance(got, Tensor) else np.asarray(got), want)]
            for g, w in pairs:
                if w.dtype != object and g.dtype != w.dtype:
                    return False
                np.testing.assert_allclose(g, w, rtol=tol["rtol"], atol=tol["atol"])
    return True


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    os.environ.setdefault("DEV", "CPU")
    from tinygrad import Tensor
    from tinygrad.nn.onnx import OnnxRunner

    cases = sorted(d for d in glob.glob(os.path.join(sys.argv[1], "test_*")) if os.path.isdir(d))
    passed = []
    signal.signal(signal.SIGALRM, on_alarm)
    for i, case in enumerate(cases):
        name = os.path.basename(case)
        signal.alarm(120)
        try:
            ok = run_case(case, OnnxRunner, Tensor)
        except BaseException as e:  # noqa: BLE001 - a failing case is data here
            if isinstance(e, KeyboardInterrupt):
                raise
            ok = False
        finally:
            signal.alarm(0)
        if ok:
            passed.append(name)
        print(f"{i + 1}/{len(cases)} {name}: {'ok' if ok else 'FAIL'}", flush=True)
    with open(sys.argv[2], "w") as f:
        f.write("".join(n + "\n" for n in passed))
    print(f"{len(passed)} of {len(cases)} cases pass on tinygrad")


if __name__ == "__main__":
    main()
