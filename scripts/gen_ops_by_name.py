"""Generates fixtures/ops_by_name.json: reference values, computed with numpy in float64 (or
exact integers), for the ops tests/ops/by_name.rs runs by name through the dispatcher. A case
names its op and its arguments as the op's row in tg-core's op table names its parameters
(tg-core/src/ops/table/), so a new op's test is its cases here and nothing else.

Case format as scripts/gen_ops_elementwise.py's (whose helpers this uses).

Run: python3 scripts/gen_ops_by_name.py   (numpy, scipy; deterministic output)"""

import numpy as np

from scipy import special

from fixtures_common import DTYPES, FLOATS, tensor, write
from gen_ops_elementwise import ACT_VALUES, TINY, arr, case, spec, with_f16_range

rng = np.random.default_rng(20250801)


# --- sum_as: the sum accumulated and returned in a stated dtype -------------------------------
def sum_as_cases():
    out = []
    x = rng.integers(-128, 128, (3, 5)).astype(np.int8)
    # integers wrap in the stated dtype, as numpy's sum(dtype=...) does
    for dt, axis, keepdim in [("int8", None, False), ("int16", 1, False), ("int32", 0, True), ("uint8", 1, True)]:
        want = np.sum(x.astype(DTYPES[dt]), axis=axis, dtype=DTYPES[dt], keepdims=keepdim)
        args = {"dtype": dt, "keepdim": keepdim}
        if axis is not None:
            args["axis"] = [axis]
        out.append(case(f"sum_as/int8->{dt}/{axis}", "sum_as", [tensor(x, "int8")], want, dt, args=args,
                        out_shape=list(np.shape(want))))
    f = rng.uniform(-1, 1, (4, 6)).astype(np.float16)
    want = np.sum(f.astype(np.float64), axis=1).astype(np.float32)
    out.append(case("sum_as/float16->float32", "sum_as", [tensor(f, "float16")], want, "float32", 1e-6, 1e-7,
                    {"axis": [1], "dtype": "float32"}, out_shape=[4]))
    return out


# --- swish: tinygrad's x * sigmoid(x) --------------------------------------------------------
def swish_cases():
    out = []
    for dt in FLOATS:
        vals = with_f16_range(ACT_VALUES) if dt == "float16" else ACT_VALUES
        x = arr(vals, dt)
        with np.errstate(all="ignore"):
            want = (x.astype(np.float64) * special.expit(x.astype(np.float64))).astype(DTYPES[dt])
        # f16 rounds the sigmoid, then the product; f32 and f64 as silu
        rtol = {"float16": 2e-3, "float32": 1e-6, "float64": 1e-14}[dt]
        out.append(case(f"swish/{dt}", "swish", [tensor(x, dt)], want, dt, rtol, 1e3 * TINY[dt]))
    vals = [-5, -1, 0, 1, 3, 7]
    want = np.array(vals, np.float64) * special.expit(np.array(vals, np.float64))
    out.append(case("swish/int32", "swish", [spec(vals, "int32")], want.astype(np.float32), "float32", 1e-6,
                    TINY["float32"]))
    return out


if __name__ == "__main__":
    write("ops_by_name", sum_as_cases() + swish_cases())
