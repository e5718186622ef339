"""The baseline of tg-bench-gpt's tinygpt step row: examples/tinygpt's GPT at its full size
(`gen_tinygpt.FULL`: vocab 76, context 64, width 64, 4 heads, 2 blocks, batch 16) forward,
backward and AdamW with parameter groups, in float32 numpy on one BLAS thread. The model, its hand-written backward and AdamW are
scripts/gen_tinygpt.py's (its float64 reference), run here at the benchmark's sizes on float32
arrays. Prints one line of JSON: the median wall and CPU (process) milliseconds per step over
the timed steps, after two warm-up steps, and the last loss.

Run: python3 scripts/bench_tinygpt_numpy.py [STEPS]   (numpy; tg-bench-gpt runs it)"""

import os

# one BLAS thread, whichever library numpy was built with; set before numpy loads it
for var in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS", "BLIS_NUM_THREADS",
            "VECLIB_MAXIMUM_THREADS"):
    os.environ[var] = "1"

import json  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import gen_tinygpt as model  # noqa: E402


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    model.configure(*model.FULL, dtype=np.float32)
    p64, _ = model.init()
    p = {k: v.astype(np.float32) for k, v in p64.items()}
    rng = np.random.default_rng(1)
    state = {}
    walls, cpus, loss = [], [], float("nan")
    for t in range(1, steps + 3):
        seq = rng.integers(0, model.V, size=(model.B, model.T + 1))
        ids, targets = seq[:, :model.T], seq[:, 1:]
        w0, c0 = time.perf_counter(), time.process_time()
        _, loss, g = model.forward_backward(p, ids, targets)
        model.adamw(p, g, state, t, 3e-3)
        w1, c1 = time.perf_counter(), time.process_time()
        if t > 2:
            walls.append((w1 - w0) * 1e3)
            cpus.append((c1 - c0) * 1e3)
    assert all(v.dtype == np.float32 for v in p.values()), "a parameter left float32"
    assert math.isfinite(float(loss))
    med = lambda v: sorted(v)[len(v) // 2]
    print(json.dumps({"wall_ms": med(walls), "cpu_ms": med(cpus), "loss": float(loss),
                      "numpy": np.__version__, "steps": steps}))


if __name__ == "__main__":
    main()
