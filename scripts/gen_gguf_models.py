"""Random-weight llama-architecture GGUF models for tg's language-model tests and benchmark.

    pip install gguf==0.19.0 numpy==2.4.6
    python3 scripts/gen_gguf_models.py tiny  [OUT_DIR]   # d 256, 4 layers, 4/2 heads, FFN 768, vocab 512
    python3 scripts/gen_gguf_models.py small [OUT_DIR]   # d 768, 12 layers, 12/4 heads, FFN 2048, vocab 32000
    python3 scripts/gen_gguf_models.py tiny-qwen2 [OUT_DIR] f32   # the qwen2 variant, 2 layers

Writes MODEL-{f32,f16,q8_0,q4_0,q4_k}.gguf (default OUT_DIR: target/gguf-models). Weights are
N(0, 0.02) from a seeded generator (norm weights N(1, 0.02)); every 2-D weight takes the file's
type (K-quants by gguf_kquant.py), norms stay F32. The vocabulary is synthesized
SentencePiece-style: <unk>, <s>, </s>, the 256 byte tokens <0x00>..<0xFF>, then pieces made of
letters (with "\u2581" for a leading space), scored by order, so llama.cpp's and tg's
tokenizers both accept it. A file already present with the same content is left alone, so the
test command may run this every time.
"""

import hashlib
import os
import sys

import numpy as np
import gguf
from gguf import GGMLQuantizationType as T
from gguf.quants import quantize

sys.path.insert(0, os.path.dirname(__file__))
from gguf_kquant import quantize_k  # noqa: E402

CONFIGS = {
    "tiny": dict(d=256, layers=4, heads=4, kv_heads=2, ffn=768, vocab=512, ctx=2048, tied=False),
    "small": dict(d=768, layers=12, heads=12, kv_heads=4, ffn=2048, vocab=32000, ctx=2048, tied=True),
    # the qwen2 variant: biases on q, k and v, RoPE over a head's two halves, base 1e6, tied
    "tiny-qwen2": dict(d=256, layers=2, heads=4, kv_heads=2, ffn=768, vocab=512, ctx=2048, tied=True,
                       arch="qwen2", rope_base=1e6),
}
TYPES = {"f32": T.F32, "f16": T.F16, "q8_0": T.Q8_0, "q4_0": T.Q4_0, "q4_k": T.Q4_K}
SPACE = "\u2581"


def vocabulary(n):
    tokens, scores, types = ["<unk>", "<s>", "</s>"], [0.0, 0.0, 0.0], [2, 3, 3]
    for b in range(256):
        tokens.append("<0x%02X>" % b)
        scores.append(0.0)
        types.append(6)
    letters = "etaoinshrdlcumwfgypbvkjxqz"
    pieces = [SPACE] + [SPACE + c for c in letters] + list(letters)
    pieces += [a + b for a in letters for b in letters]
    pieces += [SPACE + a + b for a in letters for b in letters]
    pieces += [SPACE + a + b + c for a in letters for b in letters for c in letters]
    seen = set(tokens)
    for p in pieces:
        if len(tokens) >= n:
            break
        if p not in seen:
            seen.add(p)
            tokens.append(p)
            scores.append(-float(len(tokens)))
            types.append(1)
    i = 0
    while len(tokens) < n:  # vocabularies past the pieces above: unused padding tokens
        tokens.append("<pad%d>" % i)
        scores.append(-1e9)
        types.append(5)
        i += 1
    return tokens, scores, types


def weights(cfg, seed):
    rng = np.random.default_rng(seed)
    d, f, v = cfg["d"], cfg["ffn"], cfg["vocab"]
    hd = d // cfg["heads"]
    kv = hd * cfg["kv_heads"]
    w = {}

    def mat(name, rows, cols):
        w[name] = (rng.standard_normal((rows, cols), dtype=np.float32) * np.float32(0.02))

    def norm(name):
        w[name] = (1.0 + rng.standard_normal(d, dtype=np.float32) * np.float32(0.02)).astype(np.float32)

    mat("token_embd.weight", v, d)
    for i in range(cfg["layers"]):
        p = "blk.%d." % i
        norm(p + "attn_norm.weight")
        mat(p + "attn_q.weight", d, d)
        mat(p + "attn_k.weight", kv, d)
        mat(p + "attn_v.weight", kv, d)
        if cfg.get("arch") == "qwen2":
            for b, n in (("attn_q.bias", d), ("attn_k.bias", kv), ("attn_v.bias", kv)):
                w[p + b] = rng.standard_normal(n, dtype=np.float32) * np.float32(0.02)
        mat(p + "attn_output.weight", d, d)
        norm(p + "ffn_norm.weight")
        mat(p + "ffn_gate.weight", f, d)
        mat(p + "ffn_up.weight", f, d)
        mat(p + "ffn_down.weight", d, f)
    norm("output_norm.weight")
    if not cfg["tied"]:
        mat("output.weight", v, d)
    return w


def encode(x, t):
    if x.ndim == 1 or t == T.F32:
        return x, T.F32
    if t == T.F16:
        return x.astype(np.float16), T.F16
    if t in (T.Q4_K, T.Q5_K, T.Q6_K):
        return quantize_k(x, t.name), t
    return quantize(x, t), t


def write(path, name, cfg, w, t):
    tmp = path + ".tmp"
    g = gguf.GGUFWriter(tmp, arch=cfg.get("arch", "llama"))
    g.add_name("tg-%s-%s" % (name, t.name.lower()))
    g.add_context_length(cfg["ctx"])
    g.add_embedding_length(cfg["d"])
    g.add_block_count(cfg["layers"])
    g.add_feed_forward_length(cfg["ffn"])
    g.add_head_count(cfg["heads"])
    g.add_head_count_kv(cfg["kv_heads"])
    g.add_rope_dimension_count(cfg["d"] // cfg["heads"])
    g.add_rope_freq_base(cfg.get("rope_base", 10000.0))
    g.add_layer_norm_rms_eps(1e-5)
    g.add_vocab_size(cfg["vocab"])
    g.add_file_type(
        {T.F32: 0, T.F16: 1, T.Q4_0: 2, T.Q8_0: 7, T.Q4_K: 15}[t]
    )
    tokens, scores, types = vocabulary(cfg["vocab"])
    g.add_tokenizer_model("llama")
    g.add_token_list(tokens)
    g.add_token_scores(scores)
    g.add_token_types(types)
    g.add_bos_token_id(1)
    g.add_eos_token_id(2)
    g.add_unk_token_id(0)
    g.add_add_bos_token(True)
    g.add_add_eos_token(False)
    for k, x in w.items():
        data, qt = encode(x, t)
        if qt in (T.F32, T.F16):
            g.add_tensor(k, data)
        else:
            g.add_tensor(k, data, raw_shape=data.shape, raw_dtype=qt)
    g.write_header_to_file()
    g.write_kv_data_to_file()
    g.write_tensors_to_file()
    g.close()
    new = open(tmp, "rb").read()
    if os.path.exists(path) and open(path, "rb").read() == new:
        os.remove(tmp)
        return False
    os.replace(tmp, path)
    return True


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "tiny"
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "target", "gguf-models")
    which = sys.argv[3].split(",") if len(sys.argv) > 3 else list(TYPES)
    cfg = CONFIGS[name]
    os.makedirs(out, exist_ok=True)
    w = weights(cfg, seed={"tiny": 32, "small": 33, "tiny-qwen2": 34}[name])
    for suffix in which:
        path = os.path.join(out, "%s-%s.gguf" % (name, suffix))
        changed = write(path, name, cfg, w, TYPES[suffix])
        digest = hashlib.sha256(open(path, "rb").read()).hexdigest()[:16]
        print("%s %s %s" % (path, digest, "written" if changed else "unchanged"))


if __name__ == "__main__":
    main()
