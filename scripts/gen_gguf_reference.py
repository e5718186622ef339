"""llama.cpp's logits for the tiny test models, the reference of tg's language-model tests.

    bash scripts/build_llama_cpp.sh                # once: llama.cpp (CPU and Vulkan) and llama-logits
    python3 scripts/gen_gguf_models.py tiny        # the models (the test command makes them too)
    python3 scripts/gen_gguf_reference.py

For each tiny model (F32, F16, Q8_0, Q4_0, Q4_K, and the qwen2 variant in F32) it runs llama.cpp's CPU backend
(scripts/llama_logits.cpp: f32 KV cache, no flash attention) over the same 64 token ids from
position 0 and writes fixtures/gguf/tiny-<type>.logits.npy (float32 [64, 512]), for the
quantized models also its Vulkan backend's on lavapipe (tiny-<type>.vulkan.logits.npy), and
fixtures/gguf/reference.json with the token ids and each model file's SHA3-256, so a test
knows it compares the same bytes llama.cpp read.
"""

import hashlib
import json
import os
import subprocess

import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
MODELS = os.path.join(ROOT, "target", "gguf-models")
OUT = os.path.join(ROOT, "fixtures", "gguf")
TOOLS = {
    # llama.cpp's CPU backend, and its Vulkan backend on lavapipe (all layers on the device)
    "cpu": (os.path.join(ROOT, "target", "llama.cpp", "cpu", "bin", "llama-logits"), {}),
    "vulkan": (os.path.join(ROOT, "target", "llama.cpp", "vulkan", "bin", "llama-logits"),
               {"GGML_VK_VISIBLE_DEVICES": "0", "LLAMA_LOGITS_NGL": "99"}),
}
TYPES = ["f32", "f16", "q8_0", "q4_0", "q4_k", "qwen2-f32"]


def main():
    rng = np.random.default_rng(64)
    tokens = [1] + [int(t) for t in rng.integers(3, 512, size=63)]
    ref = {"tokens": tokens, "models": {}}
    for t in TYPES:
        model = os.path.join(MODELS, "tiny-%s.gguf" % t)  # tiny-qwen2-f32 for the qwen2 variant
        sha = hashlib.sha3_256(open(model, "rb").read()).hexdigest()
        ref["models"][t] = {"sha3_256": sha}
        for backend, (tool, env) in TOOLS.items():
            if backend == "vulkan" and t not in ("q8_0", "q4_0", "q4_k"):
                continue  # the Vulkan reference is for the quantized models
            suffix = "" if backend == "cpu" else ".vulkan"
            out = os.path.join(OUT, "tiny-%s%s.logits.npy" % (t, suffix))
            subprocess.run([tool, model, out, ",".join(map(str, tokens))], check=True,
                           env=dict(os.environ, **env),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            logits = np.load(out)
            assert logits.shape == (64, 512) and np.isfinite(logits).all(), (t, logits.shape)
            ref["models"][t]["logits" if backend == "cpu" else "vulkan_logits"] = os.path.basename(out)
            print(t, backend, sha[:16], logits.shape)
    with open(os.path.join(OUT, "reference.json"), "w") as f:
        json.dump(ref, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
