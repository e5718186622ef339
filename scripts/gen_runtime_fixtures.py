"""Generates fixtures/runtime_*.json: reference values for every primitive op of tg-runtime
over every dtype, with edge cases, computed by numpy (scripts/graph_eval.py).

Run: python3 scripts/gen_runtime_fixtures.py   (numpy; deterministic output)"""

import numpy as np

from fixtures_common import ALL, DTYPES, INTS, int_range, is_float, pattern, tensor, write
from graph_eval import evaluate

rng = np.random.default_rng(1234)


def edge_values(dt):
    if dt == "bool":
        return [False, True]
    if is_float(dt):
        big = 1000.0 if dt == "float16" else 1e4
        return [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, -3.0, 2.5, -2.5, 7.25, -7.75, 100.0, 1e-3, big,
                -big, np.nan, np.inf, -np.inf]
    lo, hi = int_range(dt)
    vals = [0, 1, 2, 3, 7, 100 % (hi + 1), hi, hi - 1, lo, lo + 1]
    if lo < 0:
        vals += [-1, -2, -3, -7]
    return vals


def random_values(dt, n):
    if dt == "bool":
        return list(rng.integers(0, 2, n).astype(bool))
    if is_float(dt):
        return list((rng.standard_normal(n) * 4).astype(DTYPES[dt]))
    lo, hi = int_range(dt)
    return [int(v) for v in rng.integers(max(lo, -1000), min(hi, 1000) + 1, n)]


def arr(values, dt):
    return np.array(values, dtype=DTYPES[dt])


def case(name, nodes, inputs, rtol=0.0, atol=0.0):
    """inputs: (array, dtype) pairs, or (array, spec) from `pattern` for big ones."""
    ins = [{"array": a, "dtype": dt if isinstance(dt, str) else dt["dtype"]} for a, dt in inputs]
    out, out_dt = evaluate(nodes, ins)
    return {"name": name, "nodes": nodes, "inputs": [tensor(a, dt) if isinstance(dt, str) else dt for a, dt in inputs],
            "out": tensor(out, out_dt), "rtol": rtol, "atol": atol}


def float_tol(dt, transcendental):
    if dt == "float16":
        return (2e-3, 1e-3) if transcendental else (1e-3, 0.0)
    if dt == "float64":
        return (1e-14, 1e-15) if transcendental else (1e-15, 0.0)
    return (2e-6, 1e-6) if transcendental else (1e-7, 0.0)


def unary_cases():
    out = []
    for dt in ALL:
        for op in ["exp2", "log2", "sin", "sqrt", "recip", "neg", "trunc"]:
            if not is_float(dt) and op not in ("neg", "trunc"):
                continue
            vals = edge_values(dt)
            if op == "exp2" and is_float(dt):
                vals = vals + [200.0, -200.0, 15.5, -14.0] if dt != "float16" else vals + [20.0, -30.0]
            if op == "sin":
                vals = [v for v in vals if not (is_float(dt) and abs(v) > 200)]
            vals = vals + random_values(dt, 23)
            rtol, atol = float_tol(dt, op in ("exp2", "log2", "sin")) if is_float(dt) else (0.0, 0.0)
            if op in ("sqrt", "recip") and is_float(dt):
                rtol = max(rtol, 1e-6 if dt == "float32" else rtol)
            out.append(case(f"{op}/{dt}", [["input", 0], ["unary", 0, op]], [(arr(vals, dt), dt)], rtol, atol))
    return out


BINARY = ["add", "mul", "idiv", "mod", "max", "cmplt", "cmpne", "cmpeq", "and", "or", "xor", "shl", "shr", "pow"]


def binary_allowed(op, dt):
    if op in ("shl", "shr", "idiv"):
        return dt in INTS
    if op in ("and", "or", "xor"):
        return not is_float(dt)
    if op in ("pow", "mod"):
        return dt != "bool" and (op != "mod" or dt in INTS)
    return True


def binary_inputs(op, dt):
    if op in ("shl", "shr"):
        bits = np.dtype(DTYPES[dt]).itemsize * 8
        amounts = [0, 1, 3, bits - 1, bits, bits + 1, 40]
        if int_range(dt)[0] < 0:
            amounts.append(-1)
        base = edge_values(dt)
        a = [x for x in base for _ in amounts]
        b = [s for _ in base for s in amounts]
        return a, b
    if op == "pow" and dt in INTS:
        lo, _ = int_range(dt)
        bases = [0, 1, 2, 3, 5, 7] + ([-1, -2, -3] if lo < 0 else [])
        exps = [0, 1, 2, 3, 5, 9, 30] + ([-1, -2] if lo < 0 else [])
        return [x for x in bases for _ in exps], [e for _ in bases for e in exps]
    if op == "pow":
        bases = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, 3.0, -3.0, 10.0, np.inf, -np.inf, np.nan]
        exps = [0.0, 1.0, 2.0, 3.0, -1.0, -2.0, 0.5, -0.5, 2.5, np.inf, -np.inf, np.nan]
        if dt == "float16":
            bases = [b for b in bases if not (isinstance(b, float) and abs(b) == 10.0)]
        return [x for x in bases for _ in exps], [e for _ in bases for e in exps]
    edges = edge_values(dt)
    small = edges[:10] if len(edges) > 10 else edges
    a = [x for x in edges for _ in small] + random_values(dt, 32)
    b = [y for _ in edges for y in small] + random_values(dt, 32)
    return a, b


def binary_cases():
    out = []
    for dt in ALL:
        for op in BINARY:
            if not binary_allowed(op, dt):
                continue
            a, b = binary_inputs(op, dt)
            if is_float(dt):
                rtol, atol = float_tol(dt, op == "pow")
            else:
                rtol, atol = 0.0, 0.0
            out.append(case(f"{op}/{dt}", [["input", 0], ["input", 1], ["binary", 0, 1, op]],
                            [(arr(a, dt), dt), (arr(b, dt), dt)], rtol, atol))
    return out


def ternary_cases():
    out = []
    for dt in ALL:
        n = 40
        c = random_values("bool", n)
        a, b = random_values(dt, n), random_values(dt, n)
        out.append(case(f"where/{dt}", [["input", 0], ["input", 1], ["input", 2], ["where", 0, 1, 2]],
                        [(arr(c, "bool"), "bool"), (arr(a, dt), dt), (arr(b, dt), dt)]))
        x = random_values(dt, n)
        rtol = float_tol(dt, False)[0] * 4 if is_float(dt) else 0.0
        out.append(case(f"mulacc/{dt}", [["input", 0], ["input", 1], ["input", 2], ["mulacc", 0, 1, 2]],
                        [(arr(a, dt), dt), (arr(b, dt), dt), (arr(x, dt), dt)], rtol, 0.0))
    return out


def cast_values(src, dst):
    vals = edge_values(src) + random_values(src, 12)
    if is_float(src) and not is_float(dst) and dst != "bool":
        lo, hi = int_range(dst)
        extra = [lo - 0.5, lo + 0.75, hi + 0.5, hi - 0.75, 1e30, -1e30, 0.999, -0.999]
        if src == "float16":
            extra = [v for v in extra if abs(v) < 65504]
        vals += extra
    return vals


def cast_cases():
    out = []
    for src in ALL:
        for dst in ALL:
            if src == dst:
                continue
            vals = arr(cast_values(src, dst), src)
            if src == "float64" and dst == "float16":
                # ties and near-ties of the f16 grid, where f64 -> f32 -> f16 would round twice
                vals = np.concatenate([vals, np.array([1 + 2.0**-11, 1 + 2.0**-11 + 2.0**-40, 1 + 3 * 2.0**-11,
                                                       65519.99, 65520.0, 2.0**-25, 2.0**-24 * 1.5], np.float64)])
            if src == "float32" and dst == "float16":
                vals = np.concatenate([vals, np.array([1 + 2.0**-11, 1 + 3 * 2.0**-11, 2049.0, 2051.0, 65519.0,
                                                       65520.0, 6.0e-8, 2.0**-24 * 0.5, 2.0**-24 * 1.5, 3e-5],
                                                      np.float32)])
            # int -> f16 beyond 2^24 would round twice through f32 in both tg and numpy
            if dst == "float16" and src in ("int32", "uint32", "int64", "uint64"):
                vals = vals[np.abs(vals.astype(np.float64)) < 2.0**24]
            out.append(case(f"cast/{src}->{dst}", [["input", 0], ["cast", 0, dst]], [(vals, src)]))
    return out


BITCASTS = [("float32", "int32"), ("float32", "uint32"), ("int32", "float32"), ("uint32", "float32"),
            ("int32", "uint32"), ("uint32", "int32"), ("float16", "int16"), ("float16", "uint16"),
            ("int16", "float16"), ("uint16", "float16"), ("int16", "uint16"), ("int8", "uint8"),
            ("uint8", "int8"), ("float64", "int64"), ("float64", "uint64"), ("int64", "float64"),
            ("uint64", "float64"), ("int64", "uint64")]


def bitcast_cases():
    out = []
    for src, dst in BITCASTS:
        vals = [v for v in edge_values(src) + random_values(src, 12) if not (is_float(src) and v != v)]
        out.append(case(f"bitcast/{src}->{dst}", [["input", 0], ["bitcast", 0, dst]], [(arr(vals, src), src)]))
    return out


def reduce_cases():
    out = []
    shapes_axes = [((2, 3, 4), [1]), ((2, 3, 4), [0, 2]), ((2, 3, 4), [0, 1, 2]), ((5, 1, 7), [2]),
                   ((1, 1), [0, 1]), ((3, 0), [1]), ((0, 3), [0]), ((33, 65), [0]), ((7, 300), [1]),
                   ((4, 9, 130), [2])]
    for dt in ["float32", "float16", "float64", "int32", "uint8", "int64", "int8", "uint32", "bool"]:
        for op in ["add", "mul", "max"]:
            if dt == "bool" and op != "max":
                continue
            for k, (shape, axes) in enumerate(shapes_axes):
                if dt == "bool":
                    lo, hi = 0, 1
                elif is_float(dt):
                    lo, hi = (0.9, 1.1) if op == "mul" else (-4.0, 4.0)
                else:
                    lo, hi = max(int_range(dt)[0], -100), min(int_range(dt)[1], 100)
                x = pattern(dt, shape, k + 17 * len(out), lo, hi)
                size = int(np.prod([shape[a] for a in axes]))
                if is_float(dt):
                    rtol = {"float16": 5e-3, "float32": 2e-6 * max(1, size ** 0.5), "float64": 1e-12}[dt]
                    atol = rtol if op == "add" else 0.0
                else:
                    rtol = atol = 0.0
                out.append(case(f"reduce_{op}/{dt}/{list(shape)}/{axes}", [["input", 0], ["reduce", 0, op, axes]],
                                [x], rtol, atol))
    # NaN propagates through max and sum
    x = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]], np.float32)
    out.append(case("reduce_max/nan", [["input", 0], ["reduce", 0, "max", [1]]], [(x, "float32")]))
    out.append(case("reduce_add/nan", [["input", 0], ["reduce", 0, "add", [1]]], [(x, "float32")]))
    # long reduction to one value (split into two kernels)
    x = pattern("float32", (1 << 16,), 1, -1.0, 1.0)
    out.append(case("reduce_add/long", [["input", 0], ["reduce", 0, "add", [0]]], [x], 1e-4, 1e-3))
    x = pattern("int32", (1 << 17,), 2, -1000, 1000)
    out.append(case("reduce_max/long_int", [["input", 0], ["reduce", 0, "max", [0]]], [x]))
    x = pattern("float32", (3, 1 << 15), 3, -1.0, 1.0)
    out.append(case("reduce_add/long_rows", [["input", 0], ["reduce", 0, "add", [1]]], [x], 1e-4, 1e-3))
    return out


def movement_cases():
    out = []
    chains = [
        ("permute_pad_flip_shrink", (2, 3, 4),
         [["permute", 0, [2, 0, 1]], ["pad", 1, [[1, 0], [0, 2], [1, 1]]], ["flip", 2, [0, 2]],
          ["shrink", 3, [[0, 4], [1, 4], [0, 5]]]]),
        ("expand_permute_pad_flip_shrink", (3, 1, 4),
         [["expand", 0, [3, 5, 4]], ["permute", 1, [1, 0, 2]], ["pad", 2, [[1, 1], [0, 1], [2, 0]]],
          ["flip", 3, [0, 2]], ["shrink", 4, [[1, 6], [0, 3], [1, 6]]]]),
        ("pad_reshape_reshape_permute", (2, 3, 4),
         [["pad", 0, [[0, 0], [0, 1], [0, 0]]], ["reshape", 1, [8, 4]], ["reshape", 2, [4, 2, 4]],
          ["permute", 3, [2, 0, 1]]]),
        ("flip_reshape_shrink_reshape", (4, 6),
         [["flip", 0, [1]], ["reshape", 1, [2, 12]], ["shrink", 2, [[0, 2], [3, 9]]], ["reshape", 3, [3, 4]]]),
        ("shrink_pad_overlap", (5, 5),
         [["shrink", 0, [[1, 4], [0, 5]]], ["pad", 1, [[2, 2], [0, 0]]], ["shrink", 2, [[1, 6], [1, 4]]],
          ["pad", 3, [[0, 1], [1, 0]]]]),
        ("size_one_dims", (1, 3, 1),
         [["permute", 0, [2, 0, 1]], ["expand", 1, [2, 1, 3]], ["reshape", 2, [2, 3]], ["flip", 3, [0]]]),
        ("pad_empty", (2, 0, 3), [["pad", 0, [[0, 0], [1, 1], [0, 0]]], ["permute", 1, [1, 2, 0]]]),
        ("empty_permute", (2, 0, 3), [["permute", 0, [2, 0, 1]], ["reshape", 1, [3, 0]]]),
        ("pad_of_exp2", (2, 3), [["unary", 0, "exp2"], ["pad", 1, [[1, 1], [2, 0]]], ["flip", 2, [1]]]),
        ("view_plus_view", (3, 4),
         [["flip", 0, [0, 1]], ["binary", 0, 1, "add"], ["permute", 2, [1, 0]], ["pad", 3, [[0, 1], [1, 0]]]]),
        ("reshape_of_transpose", (6, 4), [["permute", 0, [1, 0]], ["reshape", 1, [2, 12]], ["reshape", 2, [24]]]),
    ]
    for name, shape, steps in chains:
        for dt in ["float32", "int8", "float16", "bool", "int64", "uint16"]:
            if "exp2" in name and not is_float(dt):
                continue
            if "view_plus_view" in name and dt == "bool":
                continue
            n = int(np.prod(shape))
            x = random_values(dt, n) if dt != "float32" else list(np.arange(n, dtype=np.float32) + 1)
            nodes = [["input", 0]] + steps
            rtol = float_tol(dt, True)[0] if "exp2" in name else 0.0
            out.append(case(f"movement/{name}/{dt}", nodes, [(arr(x, dt).reshape(shape), dt)], rtol, 0.0))
    return out


def fusion_cases():
    """Graphs whose kernels fuse elementwise ops, reductions and views together."""
    a = rng.standard_normal((4, 33)).astype(np.float32)
    b = rng.standard_normal((4, 33)).astype(np.float32)
    c = rng.standard_normal((4, 33)).astype(np.float32)
    out = [case("fused_add_mul_sum", [["input", 0], ["input", 1], ["input", 2], ["binary", 0, 1, "add"],
                                      ["binary", 3, 2, "mul"], ["reduce", 4, "add", [1]]],
                [(a, "float32"), (b, "float32"), (c, "float32")], 1e-5, 1e-5)]
    # softmax-like: x - max(x) broadcast back, exp2, normalized by the sum
    nodes = [["input", 0], ["reduce", 0, "max", [1]], ["expand", 1, [4, 33]], ["unary", 2, "neg"],
             ["binary", 0, 3, "add"], ["unary", 4, "exp2"], ["reduce", 5, "add", [1]], ["expand", 6, [4, 33]],
             ["unary", 7, "recip"], ["binary", 5, 8, "mul"]]
    out.append(case("softmax_like", nodes, [(a, "float32")], 1e-5, 1e-6))
    # a reduction of a reduction through a broadcast
    nodes = [["input", 0], ["reduce", 0, "add", [1]], ["expand", 1, [4, 33]], ["binary", 0, 2, "mul"],
             ["reduce", 3, "max", [0]], ["reshape", 4, [33]]]
    out.append(case("reduce_of_broadcast_reduce", nodes, [(a, "float32")], 1e-5, 1e-5))
    # a long elementwise chain over int8 with wrap-around at every step
    x = rng.integers(-128, 128, 50).astype(np.int8)
    nodes = [["input", 0]]
    for i in range(20):
        nodes.append(["binary", len(nodes) - 1, 0, ["add", "mul", "xor", "max"][i % 4]])
    out.append(case("int8_chain", nodes, [(x, "int8")]))
    # a sum of a padded, permuted view
    nodes = [["input", 0], ["permute", 0, [1, 0]], ["pad", 1, [[1, 2], [0, 3]]], ["reduce", 2, "add", [0]]]
    out.append(case("sum_of_view", nodes, [(a, "float32")], 1e-5, 1e-5))
    # the same subgraph used twice is one node
    nodes = [["input", 0], ["unary", 0, "sin"], ["unary", 0, "sin"], ["binary", 1, 2, "add"]]
    out.append(case("shared_subgraph", nodes, [(a, "float32")], 2e-6, 1e-6))
    # constants broadcast through views
    nodes = [["const", 2.5, "float32", [1, 33]], ["expand", 0, [4, 33]], ["input", 0], ["binary", 2, 1, "mul"],
             ["const", 3, "int32", [4, 33]], ["cast", 4, "float32"], ["binary", 3, 5, "add"]]
    out.append(case("const_broadcast", nodes, [(a, "float32")], 1e-7, 0.0))
    return out


def gather_cases():
    """Reads at positions held in tensors: every dtype of values and of positions, positions
    out of range on both sides, and gathers fused with what computes their values and
    positions (a reduction under the values gets a buffer of its own)."""
    out = []
    for dt in ALL:
        x = random_values(dt, 35)
        pos = [0, 6, 3, -1, 7, 2, 100, 5, 1]
        ix = np.array([pos[(i * 4 + j) % 9] for i in range(5) for j in range(9)]).reshape(5, 9)
        nodes = [["input", 0], ["input", 1], ["gather", 0, 1, 1]]
        out.append(case(f"gather/axis1/{dt}", nodes, [(arr(x, dt).reshape(5, 7), dt), (ix.astype(np.int32), "int32")]))
    for pdt in [p for p in INTS if p != "bool"]:
        lo, hi = int_range(pdt)
        pos = [0, 1, 4, 3, hi, lo, 2, 5]
        ix = np.array([pos[(i * 3 + j) % 8] for i in range(4) for j in range(6)], dtype=DTYPES[pdt]).reshape(4, 6)
        x = rng.standard_normal((5, 6)).astype(np.float32)
        nodes = [["input", 0], ["input", 1], ["gather", 0, 1, 0]]
        out.append(case(f"gather/positions/{pdt}", nodes, [(x, "float32"), (ix, pdt)]))
    # axes longer than a narrow position dtype reaches: u8 and i8 positions are all below the
    # end, i16 ones pass it
    for pdt, pos in [("uint8", [0, 255, 43, 100, 7]), ("int8", [-1, 127, 5, -128, 0]),
                     ("int16", [299, 300, -1, 150, 0])]:
        x = rng.standard_normal((2, 300)).astype(np.float32)
        ix = np.array([pos, pos[::-1]], dtype=DTYPES[pdt])
        out.append(case(f"gather/long_axis/{pdt}", [["input", 0], ["input", 1], ["gather", 0, 1, 1]],
                        [(x, "float32"), (ix, pdt)]))
    a = rng.standard_normal((6, 8)).astype(np.float32)
    ix = rng.integers(-2, 10, (6, 5)).astype(np.int32)
    iy = rng.integers(0, 6, (4, 8)).astype(np.int64)
    fused = [
        # the values computed in the gathering kernel, the positions computed too
        ("exp2_values_shifted_positions", [["input", 0], ["input", 1], ["unary", 0, "exp2"],
                                           ["const", 1, "int32", [6, 5]], ["binary", 1, 3, "add"],
                                           ["gather", 2, 4, 1]], 2e-6),
        # values through a view: a transpose, a flip and padding
        ("view_values", [["input", 0], ["input", 1], ["permute", 0, [1, 0]], ["flip", 2, [0]],
                         ["pad", 3, [[1, 1], [0, 0]]], ["shrink", 4, [[1, 10], [0, 6]]],
                         ["permute", 5, [1, 0]], ["gather", 6, 1, 1]], 0.0),
        # a reduction under the values: row sums broadcast, then read at positions
        ("reduced_values", [["input", 0], ["input", 1], ["reduce", 0, "add", [1]], ["expand", 2, [6, 8]],
                            ["binary", 0, 3, "mul"], ["shrink", 4, [[0, 6], [0, 5]]],
                            ["gather", 5, 1, 1]], 1e-5),
        # a sum over gathered values: the read sits in the reduction's loop
        ("sum_of_gather", [["input", 0], ["input", 1], ["gather", 0, 1, 1], ["reduce", 2, "add", [1]]], 1e-6),
        # a gather of a gather, along the other axis
        ("gather_of_gather", [["input", 0], ["input", 1], ["input", 2], ["gather", 0, 1, 1],
                              ["shrink", 2, [[0, 4], [0, 5]]], ["gather", 3, 4, 0]], 0.0),
        # positions from a reduction (each row's largest position index)
        ("reduced_positions", [["input", 0], ["input", 1], ["reduce", 1, "max", [1]], ["expand", 2, [6, 5]],
                               ["gather", 0, 3, 1]], 0.0),
        # padding around a gather
        ("padded_gather", [["input", 0], ["input", 1], ["gather", 0, 1, 1], ["pad", 2, [[1, 0], [2, 1]]]], 0.0),
    ]
    for name, nodes, tol in fused:
        ins = [(a, "float32"), (ix, "int32"), (iy, "int64")]
        out.append(case(f"gather/fused/{name}", nodes, ins, tol, tol))
    # long rows: every position of a 3000-long axis read in a scrambled order
    big = rng.standard_normal((3, 3000)).astype(np.float32)
    perm = np.stack([rng.permutation(3000) for _ in range(3)]).astype(np.int32)
    out.append(case("gather/long_rows", [["input", 0], ["input", 1], ["gather", 0, 1, 1]],
                    [(big, "float32"), (perm, "int32")]))
    # an axis of one value (a select of the broadcast values, no indexed read): position 0
    # reads it, every other (negative, past the end, the dtype's extremes) reads 0; along
    # either axis, and fused with what computes the values (no rng: the cases after these
    # keep their values)
    for dt in ["float32", "int32", "float16", "uint8"]:
        x = (np.arange(5) * 3 - 4).astype(DTYPES[dt]).reshape(5, 1)
        lo, hi = int_range("int32")
        pos = [0, -1, 1, 0, hi, lo, 7, 0]
        ix = np.array([pos[(i * 3 + j) % 8] for i in range(5) for j in range(6)], dtype=np.int32).reshape(5, 6)
        out.append(case(f"gather/one_value_axis/{dt}", [["input", 0], ["input", 1], ["gather", 0, 1, 1]],
                        [(x, dt), (ix, "int32")]))
    x = (np.arange(4) * 0.5 - 1).astype(np.float32).reshape(1, 4)
    iy = np.array([[0, 1, -1, 0], [2, 0, 0, 0], [0, 0, 0, 5]], dtype=np.int64)
    out.append(case("gather/one_value_axis/axis0_fused", [["input", 0], ["input", 1], ["unary", 0, "exp2"],
                                                          ["gather", 2, 1, 0]],
                    [(x, "float32"), (iy, "int64")], 2e-6, 2e-6))
    return out


def runs_cases():
    """The three ops with kernels from templates. Merges of sorted runs: every level of a merge
    sort of rows of u32 records of 1 to 4 words (repeated leading words, rows not a multiple of
    a run), and one level on runs sorted beforehand. Scans of runs: sums, products and (of
    integers) maxima in every dtype they take, runs that divide the row, do not, and are longer
    than it. Sorts of runs: rows a run divides, does not, and shorter than a run, alone and
    followed by the merges that finish the sort."""
    out = []
    for w, (rows, n) in [(1, (3, 37)), (2, (2, 100)), (3, (1, 9)), (4, (4, 5))]:
        x = rng.integers(0, 6, (rows, n, w)).astype(np.uint32)
        nodes, run = [["input", 0]], 1
        while run < n:
            nodes.append(["merge_runs", len(nodes) - 1, run])
            run *= 2
        out.append(case(f"runs/merge_sort/{w}_words", nodes, [(x, "uint32")]))
    x = rng.integers(0, 1 << 32, (2, 23, 2), dtype=np.uint64).astype(np.uint32)
    for r in range(2):
        for start in range(0, 23, 5):
            block = x[r, start:start + 5]
            x[r, start:start + 5] = block[np.lexsort(block.T[::-1], axis=0)]
    out.append(case("runs/merge_one_level", [["input", 0], ["merge_runs", 0, 5]], [(x, "uint32")]))
    for dt in ["float32", "float64", "int32", "uint32", "int64", "uint64"]:
        eps = float(np.finfo(DTYPES[dt]).eps) if is_float(dt) else 0.0
        for n, run in [(5, 3), (300, 7), (1000, 256), (300, 300), (40, 1000)]:
            k = rng.integers(0, 15, (2, n))
            for op in ["add", "mul"] + ([] if is_float(dt) else ["max"]):
                if not is_float(dt):
                    x = (k * 131 - 900).astype(DTYPES[dt])
                    rtol = 0.0
                elif op == "add":
                    # compensated sums: within a few roundings of the exact running sum
                    x = (k / 8.0 + 0.3).astype(DTYPES[dt])
                    rtol = 4 * eps
                else:
                    # products near 1 stay finite; each factor rounds once
                    x = (1.0 + (k - 7) / 64.0).astype(DTYPES[dt])
                    rtol = 2 * min(run, n) * eps
                out.append(case(f"runs/scan/{op}/{dt}/{n}_by_{run}", [["input", 0], ["scan_runs", 0, op, run]],
                                [(x, dt)], rtol, 0.0))
    # sorts of runs (a network in registers; the last run of a row short, or the whole row),
    # alone and as a merge sort's first step; a generator of their own keeps the cases above
    sort_rng = np.random.default_rng(4321)
    for w, (rows, n), run in [(1, (3, 37), 8), (2, (2, 100), 32), (3, (1, 9), 16), (4, (4, 5), 2)]:
        x = sort_rng.integers(0, 6, (rows, n, w)).astype(np.uint32)
        out.append(case(f"runs/sort/{w}_words/{n}_by_{run}", [["input", 0], ["sort_runs", 0, run]],
                        [(x, "uint32")]))
        nodes = [["input", 0], ["sort_runs", 0, run]]
        while run < n:
            nodes.append(["merge_runs", len(nodes) - 1, run])
            run *= 2
        out.append(case(f"runs/sort_then_merge/{w}_words", nodes, [(x, "uint32")]))
    return out


def window_cases():
    """Window writes (`assign_window`): a value's rows written into a copy of the target at a
    start read on the device. Every dtype; starts at the first row, at the end, partly and
    wholly past it, negative (past the end, read as unsigned) and in every integer dtype;
    rows of whole vectors (the kernel covers the window) and not (it covers the target);
    values computed in the writing kernel, and one that reduces (computed first)."""
    wrng = np.random.default_rng(4242)
    out = []

    def write(name, target, value, start, axis, fused=None, tol=(0.0, 0.0)):
        (t, tdt), (v, vdt), (s, sdt) = target, value, start
        nodes = [["input", 0], ["input", 1], ["input", 2]]
        for node in fused or []:
            nodes.append(node)
        nodes.append(["assign_window", 0, len(nodes) - 1 if fused else 1, 2, axis])
        out.append(case(f"window/{name}", nodes, [(t, tdt), (v, vdt), (np.array([s], dtype=DTYPES[sdt]), sdt)],
                        *tol))

    for dt in ALL:
        t = arr(random_values(dt, 160), dt).reshape(2, 10, 8)
        v = arr(random_values(dt, 64), dt).reshape(2, 4, 8)
        write(f"dtype/{dt}", (t, dt), (v, dt), (3, "int32"), 1)
    t = wrng.standard_normal((2, 10, 8)).astype(np.float32)
    v = wrng.standard_normal((2, 4, 8)).astype(np.float32)
    for s in [0, 6, 7, 9, 10, 1000, -1, -4]:
        write(f"start/{s}", (t, "float32"), (v, "float32"), (s, "int32"), 1)
    one = wrng.standard_normal((2, 1, 8)).astype(np.float32)
    write("one_row", (t, "float32"), (one, "float32"), (5, "int32"), 1)
    whole = wrng.standard_normal((2, 10, 8)).astype(np.float32)
    write("whole_axis", (t, "float32"), (whole, "float32"), (0, "int32"), 1)
    long_t = (np.arange(1200, dtype=np.float32) / 8).reshape(300, 4)
    long_v = -wrng.integers(1, 9, (6, 4)).astype(np.float32)
    for sdt, s in [("uint8", 255), ("int16", 296), ("uint16", 300)]:
        write(f"start_dtype/{sdt}/{s}", (long_t, "float32"), (long_v, "float32"), (s, sdt), 0)
    for sdt, s in [("uint8", 4), ("int8", -3), ("int8", 6), ("uint32", 4294967295), ("uint32", 7)]:
        write(f"start_dtype/{sdt}/{s}", (t, "float32"), (v, "float32"), (s, sdt), 1)
    # rows that are not whole vectors: the kernel covers the target
    for shape, axis, rows, starts in [((3, 10), 1, 3, [0, 4, 8, 11]), ((2, 10, 3), 1, 4, [2, 8]),
                                      ((4, 5, 6), 2, 2, [5, 3]), ((7, 2, 2), 0, 3, [1, 6])]:
        t = wrng.standard_normal(shape).astype(np.float32)
        vs = list(shape)
        vs[axis] = rows
        v = wrng.standard_normal(vs).astype(np.float32)
        for s in starts:
            name = "x".join(map(str, shape))
            write(f"ragged/{name}/axis{axis}/{s}", (t, "float32"), (v, "float32"), (s, "int32"), axis)
    # rows of whole vectors over several axes: the window's axis first, and in the middle
    t = wrng.standard_normal((7, 3, 4)).astype(np.float32)
    v = wrng.standard_normal((2, 3, 4)).astype(np.float32)
    write("axis0/7x3x4", (t, "float32"), (v, "float32"), (4, "int32"), 0)
    t = wrng.standard_normal((2, 3, 9, 2, 6)).astype(np.float32)
    v = wrng.standard_normal((2, 3, 5, 2, 6)).astype(np.float32)
    write("middle/2x3x9x2x6", (t, "float32"), (v, "float32"), (6, "uint32"), 2)
    # values computed where they are written (a transcendental, a view), or first (a sum)
    t = wrng.standard_normal((2, 10, 8)).astype(np.float32)
    x = wrng.standard_normal((2, 8, 4)).astype(np.float32)
    write("fused/exp2_of_a_transpose", (t, "float32"), (x, "float32"), (2, "int32"), 1,
          [["permute", 1, [0, 2, 1]], ["unary", 3, "exp2"]], (2e-6, 1e-6))
    y = wrng.standard_normal((2, 3, 4)).astype(np.float32)
    write("fused/ragged_exp2", (wrng.standard_normal((2, 10, 3)).astype(np.float32), "float32"),
          (y.transpose(0, 2, 1).copy(), "float32"), (5, "int32"), 1,
          [["unary", 1, "exp2"]], (2e-6, 1e-6))
    z = wrng.standard_normal((2, 4, 8, 5)).astype(np.float32)
    write("reduced", (t, "float32"), (z, "float32"), (7, "int32"), 1,
          [["reduce", 1, "add", [3]], ["reshape", 3, [2, 4, 8]]], (1e-6, 1e-6))
    return out


if __name__ == "__main__":
    write("runtime_unary", unary_cases())
    write("runtime_binary", binary_cases())
    write("runtime_ternary", ternary_cases())
    write("runtime_cast", cast_cases() + bitcast_cases())
    write("runtime_reduce", reduce_cases())
    write("runtime_movement", movement_cases() + fusion_cases())
    write("runtime_gather", gather_cases())
    write("runtime_runs", runs_cases())
    write("runtime_window", window_cases())
