"""Reference values for tg's size tests (fixtures/sizes.json): reductions, softmax family and
scans over tensors at and past the sizes where a device limit bites (lavapipe ends an
invocation's loops after 65,535 back-edges; 2^24 f32 elements fill 64 MiB, 2^25 the 128 MiB
of one storage-buffer binding).

Inputs are `pattern`s (see fixtures_common.pattern) the tests regenerate; numpy computes the
results in float64 from the float32 inputs. Small results are stored whole; a result as large
as the input is stored as its float64 sum and its values at 48 fixed positions (the first 16,
the last 16 and 16 spread between) with the sum of its absolute values, which catches a wrong
chunk, a wrong row or a partial result while keeping the file small.

Each case says whether it belongs to the default test run ("short") or only to the long run
(TG_LONG_TESTS=1)."""

import numpy as np

from fixtures_common import pattern, write

WHOLE = [1 << 24, (1 << 24) + 3, 1 << 25]
ROWS = [(4, 1 << 21), (2, 1 << 22)]
REDUCTIONS = ["sum", "prod", "max", "min", "mean", "var", "argmax", "argmin", "logsumexp"]
FULL = ["softmax", "log_softmax", "cumsum", "cummax"]
TOPK = 16
# sorting: a merge sort of (key, index) records, O(n log n) work per row, for sort and argsort
# (and topk of many); topk of a few runs part of a bitonic network, O(n log^2 k). The argsort
# of 2^24 + 3 merges 2^25 words of records per level (128 MiB and more: past one binding,
# read by device address)
SORTS = [("sort", 1 << 14, True), ("sort", 1 << 20, True), ("argsort", 1 << 12, True),
         ("argsort", 1 << 20, False), ("argsort", (1 << 24) + 3, False),
         ("topk_values", 1 << 14, True), ("topk_indices", 1 << 14, True),
         ("topk_values", 1 << 20, False), ("topk_indices", 1 << 20, False)]
# gathers: every position read once, in reverse and scattered (i * 40503 mod n, 64-bit
# positions), from values past 2^24 elements, filling one 128 MiB binding (2^25 f32) and past
# it (read by device address)
GATHERS = ["gather_reverse", "gather_scattered"]
# sums into positions (scatter_reduce sum, the transpose of a gather): every value summed into
# slot (i * 40503) mod (n // 2), two or three values a slot, through a merge sort of the
# 64-bit positions; 2^24 + 3 values (records past one 128 MiB binding) in the long run
SCATTERS = [((1 << 20) + 3, True), ((1 << 24) + 3, False)]
# register-blocked products at the sizes where a CPU's biggest tiles apply (32 rows of 4
# vectors while a workgroup of 256 remains per core: outputs of 512 x 512 and more on 2
# cores): a matmul, a batched one, one of a transposed view, and a convolution (padding 1)
# whose runs of 4 vectors cross rows of its 60 columns; checked at 48 fixed positions and
# every 101st output (a prime stride meets every row and column of every tile)
TILES = [("matmul", (512, 64), (64, 512)), ("matmul", (2, 512, 32), (2, 32, 512)),
         ("matmul_t", (64, 512), (64, 512)), ("conv2d", (8, 4, 60, 60), (32, 4, 3, 3))]
# elementwise kernels, which on a CPU compute 4 vectors an invocation, in pairs read and
# written as one where the count is a multiple of 8: ragged counts (the last invocation's
# vectors or pairs run past the end), 2^24, and past one binding (by address), in vectors
# and in pairs
ELEMENTWISE = [("exp", (1 << 18) + 3, True), ("scale_shift", (1 << 18) + 3, True),
               ("scale_shift", (1 << 18) + 8, True), ("exp", 1 << 24, True),
               ("scale_shift", (1 << 25) + 5, False), ("scale_shift", (1 << 25) + 8, False)]
SHORT_WHOLE = (1 << 24) + 3
SHORT_ROWS = (4, 1 << 21)


def reference(op, x, axis):
    """The op in float64 over `axis` (None: the whole tensor), as tg defines it."""
    x = x.astype(np.float64)
    if op == "sum":
        return x.sum(axis=axis)
    if op == "prod":
        return x.prod(axis=axis)
    if op == "max":
        return x.max(axis=axis)
    if op == "min":
        return x.min(axis=axis)
    if op == "mean":
        return x.mean(axis=axis)
    if op == "var":
        return x.var(axis=axis, ddof=1)
    if op == "argmax":
        return np.argmax(x, axis=axis)
    if op == "argmin":
        return np.argmin(x, axis=axis)
    if op == "logsumexp":
        m = x.max(axis=axis, keepdims=True)
        return (np.log(np.exp(x - m).sum(axis=axis, keepdims=True)) + m).squeeze(axis=axis)
    if op == "softmax":
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)
    if op == "log_softmax":
        m = x.max(axis=axis, keepdims=True)
        return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))
    if op == "cumsum":
        return np.cumsum(x, axis=-1 if axis is None else axis)
    if op == "cummax":
        return np.maximum.accumulate(x, axis=-1 if axis is None else axis)
    if op == "sort":
        return np.sort(x, axis=-1, kind="stable")
    if op == "argsort":
        return np.argsort(x, axis=-1, kind="stable")
    if op == "gather_reverse":
        return x[::-1]
    if op == "gather_scattered":
        n = x.shape[0]
        return x[(np.arange(n, dtype=np.int64) * 40503) % n]
    if op == "scatter_sum":
        n = x.shape[0]
        at = (np.arange(n, dtype=np.int64) * 40503) % (n // 2)
        return np.bincount(at, weights=x, minlength=n // 2)
    if op == "exp":
        return np.exp(x)
    if op == "scale_shift":
        return x * 3.0 + 0.5
    if op == "topk_values":
        return -np.sort(-x, axis=-1, kind="stable")[..., :TOPK]
    if op == "topk_indices":
        return np.argsort(-x, axis=-1, kind="stable")[..., :TOPK]
    raise ValueError(op)


def tolerance(op, n):
    """(rtol, atol) for f32 arithmetic over `n` elements per output."""
    return {
        "sum": (1e-5, 1e-6 * n),
        "mean": (1e-5, 1e-6),
        "var": (1e-4, 1e-6),
        "prod": (2e-3, 0.0),
        "max": (0.0, 0.0),
        "min": (0.0, 0.0),
        "argmax": (0.0, 0.0),
        "argmin": (0.0, 0.0),
        "logsumexp": (1e-5, 1e-5),
        "softmax": (1e-3, 1e-12),
        "log_softmax": (1e-5, 1e-3),
        "cumsum": (1e-5, 1e-2),
        "cummax": (0.0, 0.0),
        "sort": (0.0, 0.0),
        "argsort": (0.0, 0.0),
        "topk_values": (0.0, 0.0),
        "topk_indices": (0.0, 0.0),
        "gather_reverse": (0.0, 0.0),
        "gather_scattered": (0.0, 0.0),
        "scatter_sum": (1e-6, 1e-6),
        "exp": (3e-7, 0.0),
        "scale_shift": (2e-7, 1e-6),
    }[op]


def positions(count):
    """48 fixed positions of a flat result of `count` values."""
    spread = np.linspace(16, count - 17, 16).astype(np.int64)
    return sorted(set(list(range(16)) + list(range(count - 16, count)) + spread.tolist()))


def sampled(ref, at):
    """A large result as its shape, its sum, the sum of its absolute values and its values at
    positions `at` of the flat result."""
    flat = ref.reshape(-1)
    return {
        "shape": list(ref.shape),
        "sum": float(flat.sum()),
        "abs_sum": float(np.abs(flat).sum()),
        "samples": [[i, float(flat[i])] for i in at],
    }


def case(op, shape, axis, seed, lo, hi, short):
    x, spec = pattern("float32", shape, seed, lo, hi)
    ref = np.asarray(reference(op, x, axis))
    n = x.size if axis is None else shape[axis]
    rtol, atol = tolerance(op, n)
    c = {
        "name": f"{op} {list(shape)} axis {axis}",
        "op": op,
        "axis": axis,
        "input": spec,
        "rtol": rtol,
        "atol": atol,
        "short": short,
    }
    if op in FULL or op in ("sort", "argsort", "scatter_sum") or op in GATHERS + [
        e for e, _, _ in ELEMENTWISE
    ]:
        c.update(sampled(ref, positions(ref.size)))
    else:
        c["shape"] = list(ref.shape)
        c["values"] = [float(v) for v in ref.reshape(-1)]
    return c


def product(op, x, y):
    """A product of two tensors in float64 from their float32 values."""
    x, y = x.astype(np.float64), y.astype(np.float64)
    if op == "matmul":
        return x @ y
    if op == "matmul_t":
        return np.swapaxes(x, -1, -2) @ y
    if op == "conv2d":
        # cross-correlation with one pixel of zero padding, stride 1
        kh, kw = y.shape[2:]
        xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
        win = np.lib.stride_tricks.sliding_window_view(xp, (kh, kw), axis=(2, 3))
        return np.einsum("nchwij,ocij->nohw", win, y)
    raise ValueError(op)


def tile_case(op, xs, ys, seed):
    x, xspec = pattern("float32", xs, seed, -1.0, 1.0)
    y, yspec = pattern("float32", ys, seed + 1, -1.0, 1.0)
    ref = product(op, x, y)
    at = sorted(set(positions(ref.size)) | set(range(0, ref.size, 101)))
    return {
        "name": f"{op} {list(xs)} x {list(ys)}",
        "op": op,
        "axis": None,
        "input": xspec,
        "other": yspec,
        "rtol": 1e-5,
        "atol": 1e-4,
        "short": True,
        **sampled(ref, at),
    }


def range_of(op):
    # products of values just above 1 stay finite over 2^25 elements and are well conditioned
    # in f32 (2^-24 steps: no cross-term rounding bias), while a missing chunk shifts them 3%
    return (1.0, 1.0 + 2.0**-21) if op == "prod" else (-1.0, 1.0)


def main():
    cases = []
    for n in WHOLE:
        for op in REDUCTIONS + FULL:
            lo, hi = range_of(op)
            short = n == SHORT_WHOLE and op not in FULL
            cases.append(case(op, (n,), None, 7, lo, hi, short))
    # a whole-tensor reduction over two axes
    for op in ["sum", "max", "argmax"]:
        lo, hi = range_of(op)
        cases.append(case(op, (4096, 4096), None, 11, lo, hi, op == "sum"))
    for rows in ROWS:
        for op in REDUCTIONS + FULL:
            lo, hi = range_of(op)
            short = rows == SHORT_ROWS and op in ["sum", "argmax", "logsumexp", "softmax",
                                                  "log_softmax", "cummax"]
            cases.append(case(op, rows, 1, 13, lo, hi, short))
    # a long leading axis: the reduced axis is not the contiguous one
    for op in ["sum", "max", "argmin", "cumsum", "cummax"]:
        lo, hi = range_of(op)
        cases.append(case(op, (1 << 22, 4), 0, 17, lo, hi, op == "sum"))
    for n in WHOLE + [(1 << 25) + 5]:
        for op in GATHERS:
            cases.append(case(op, (n,), None, 23, -1.0, 1.0, n == SHORT_WHOLE))
    for n, short in SCATTERS:
        cases.append(case("scatter_sum", (n,), None, 29, -1.0, 1.0, short))
    for op, n, short in SORTS:
        cases.append(case(op, (n,), None, 19, -1.0, 1.0, short))
    for op, n, short in ELEMENTWISE:
        cases.append(case(op, (n,), None, 37, -2.0, 2.0, short))
    for k, (op, xs, ys) in enumerate(TILES):
        cases.append(tile_case(op, xs, ys, 31 + 2 * k))
    write("sizes", cases)


if __name__ == "__main__":
    main()
