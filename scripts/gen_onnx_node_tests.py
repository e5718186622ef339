#!/usr/bin/env python3
"""Writes ONNX's node test cases in the backend-test folder layout, for `tg-onnx test`.

onnx's Python package generates them (its wheel ships no node test data):
`onnx.backend.test.case.node.collect_testcases(None)` gives every case with its model, data
sets and tolerances. Each case becomes `OUT/<name>/model.onnx`, `test_data_set_N/input_J.pb`
and `output_J.pb` (as `python -m onnx.backend.test.cmd_tools generate-data` lays them out),
plus `tolerance.json` with the case's rtol and atol, which the layout has no place for.

Usage: gen_onnx_node_tests.py OUT   (run by scripts/onnx_node_tests.sh, which pins onnx)
"""

import json
import os
import shutil
import sys

import onnx
from onnx import TensorProto, numpy_helper
from onnx.backend.test.case import node as node_cases


def proto_of(value, value_info):
    """The serialized protobuf of one input or output, by the graph's declared type."""
    kind = value_info.type.WhichOneof("value")
    if isinstance(value, TensorProto):
        return value.SerializeToString()
    if kind == "map_type":
        return numpy_helper.from_dict(value, value_info.name).SerializeToString()
    if kind == "sequence_type":
        return numpy_helper.from_list(value, value_info.name).SerializeToString()
    if kind == "optional_type":
        return numpy_helper.from_optional(value, value_info.name).SerializeToString()
    return numpy_helper.from_array(value, value_info.name).SerializeToString()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    if onnx.__version__ != "1.23.2":
        sys.exit(f"onnx 1.23.2 expected (the case list is pinned), found {onnx.__version__}")
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    cases = node_cases.collect_testcases(None)
    for case in cases:
        folder = os.path.join(out, case.name)
        os.makedirs(folder)
        model = case.model
        with open(os.path.join(folder, "model.onnx"), "wb") as f:
            f.write(model.SerializeToString())
        with open(os.path.join(folder, "tolerance.json"), "w") as f:
            json.dump({"rtol": float(case.rtol), "atol": float(case.atol)}, f)
        for i, (inputs, outputs) in enumerate(case.data_sets):
            data = os.path.join(folder, f"test_data_set_{i}")
            os.makedirs(data)
            for j, value in enumerate(inputs):
                with open(os.path.join(data, f"input_{j}.pb"), "wb") as f:
                    f.write(proto_of(value, model.graph.input[j]))
            for j, value in enumerate(outputs):
                with open(os.path.join(data, f"output_{j}.pb"), "wb") as f:
                    f.write(proto_of(value, model.graph.output[j]))
    print(f"{len(cases)} cases written to {out}")


if __name__ == "__main__":
    main()
