#!/usr/bin/env python3
"""Kernels tinygrad's scheduler makes of examples/tinygpt's training step, for comparison
with tg-bench-gpt's "kernels a step".

The same model as examples/tinygpt at tg-bench-gpt's size (vocab 76, context 64, width 64,
4 heads, 2 pre-LN blocks, GELU MLP, query/key/value without bias, tied output head), batch
16, the mean cross-entropy, AdamW over every parameter; one step's forward, backward and
update realized together, counted on tinygrad's NULL device (the real scheduler, no
compute). The step is counted after a first one, as tg counts a replayed step. Prints one
JSON line, which tg-bench-gpt reads.

    pip install tinygrad==0.14.0
    DEV=NULL python3 scripts/tinygrad_gpt_kernels.py
"""

import json
import os
from importlib.metadata import version

os.environ.setdefault("DEV", "NULL")

from tinygrad import Context, GlobalCounters, Tensor, nn  # noqa: E402
from tinygrad.nn.optim import AdamW  # noqa: E402
from tinygrad.nn.state import get_parameters  # noqa: E402

VOCAB, CONTEXT, DIM, HEADS, LAYERS, BATCH = 76, 64, 64, 4, 2, 16


class Block:
    def __init__(self):
        self.ln1, self.ln2 = nn.LayerNorm(DIM), nn.LayerNorm(DIM)
        self.q, self.k, self.v = (nn.Linear(DIM, DIM, bias=False) for _ in range(3))
        self.proj = nn.Linear(DIM, DIM)
        self.fc, self.out = nn.Linear(DIM, 4 * DIM), nn.Linear(4 * DIM, DIM)

    def __call__(self, x):
        b, t, _ = x.shape
        h = self.ln1(x)

        def heads(y):
            return y.reshape(b, t, HEADS, DIM // HEADS).transpose(1, 2)

        a = heads(self.q(h)).scaled_dot_product_attention(
            heads(self.k(h)), heads(self.v(h)), is_causal=True
        )
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, DIM))
        return x + self.out(self.fc(self.ln2(x)).gelu())


class Gpt:
    def __init__(self):
        self.tok, self.pos = nn.Embedding(VOCAB, DIM), nn.Embedding(CONTEXT, DIM)
        self.blocks = [Block() for _ in range(LAYERS)]
        self.ln = nn.LayerNorm(DIM)

    def __call__(self, ids):
        x = self.tok(ids) + self.pos(Tensor.arange(ids.shape[1]))
        for block in self.blocks:
            x = block(x)
        return self.ln(x) @ self.tok.weight.T


def main():
    Tensor.manual_seed(0)
    model = Gpt()
    params = get_parameters(model)
    opt = AdamW(params, lr=3e-4, weight_decay=0.01)
    Tensor.realize(*params)
    x = Tensor.randint(BATCH, CONTEXT, high=VOCAB).realize()
    y = Tensor.randint(BATCH, CONTEXT, high=VOCAB).realize()
    counts = []
    with Context(TRAINING=1):
        for _ in range(2):
            GlobalCounters.reset()
            opt.zero_grad()
            loss = model(x).sparse_categorical_crossentropy(y)
            loss.backward()
            Tensor.realize(loss, *opt.schedule_step())
            counts.append(GlobalCounters.kernel_count)
    print(json.dumps({"tinygrad": version("tinygrad"), "kernels": counts[-1],
                      "first_step_kernels": counts[0], "parameters": len(params)}))


if __name__ == "__main__":
    main()
