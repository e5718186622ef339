"""Generates fixtures/ops_by_name.json: reference values, computed with numpy in float64 (or
exact integers), for the ops tests/ops/by_name.rs runs by name through the dispatcher. A case
names its op and its arguments as the op's row in tg-core's op table names its parameters
(tg-core/src/ops/table/), so a new op's test is its cases here and nothing else.

Case format as scripts/gen_ops_elementwise.py's (whose helpers this uses).

Run: python3 scripts/gen_ops_by_name.py   (numpy, scipy; deterministic output)"""

import numpy as np

from fixtures_common import DTYPES, tensor, write
from gen_ops_elementwise import case

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


if __name__ == "__main__":
    write("ops_by_name", sum_as_cases())
