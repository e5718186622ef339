// Prints llama.cpp's logits for a list of token ids, every position, as a float32 .npy file:
//   llama-logits MODEL.gguf OUT.npy ID,ID,...
// The reference tg's language-model tests compare against (scripts/gen_gguf_reference.py).
// The KV cache is f32 and flash attention off, so the F32 model's logits are not rounded
// through f16 on the way.
#include "llama.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char ** argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s MODEL.gguf OUT.npy ID,ID,...\n", argv[0]);
        return 2;
    }
    std::vector<llama_token> ids;
    for (char * p = argv[3]; *p;) {
        ids.push_back((llama_token) strtol(p, &p, 10));
        if (*p == ',') p++;
    }
    llama_backend_init();
    llama_model_params mp = llama_model_default_params();
    const char * ngl = getenv("LLAMA_LOGITS_NGL");
    mp.n_gpu_layers = ngl ? atoi(ngl) : 0;
    llama_model * model = llama_model_load_from_file(argv[1], mp);
    if (!model) { fprintf(stderr, "cannot load %s\n", argv[1]); return 1; }
    llama_context_params cp = llama_context_default_params();
    cp.n_ctx = ids.size() < 64 ? 64 : ids.size();
    cp.n_batch = cp.n_ctx;
    cp.n_ubatch = cp.n_ctx;
    cp.type_k = GGML_TYPE_F32;
    cp.type_v = GGML_TYPE_F32;
    cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
    llama_context * ctx = llama_init_from_model(model, cp);
    if (!ctx) { fprintf(stderr, "cannot make a context\n"); return 1; }
    const int n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(model));
    llama_batch batch = llama_batch_init((int32_t) ids.size(), 0, 1);
    for (size_t i = 0; i < ids.size(); i++) {
        batch.token[i] = ids[i];
        batch.pos[i] = (llama_pos) i;
        batch.n_seq_id[i] = 1;
        batch.seq_id[i][0] = 0;
        batch.logits[i] = 1;
    }
    batch.n_tokens = (int32_t) ids.size();
    if (llama_decode(ctx, batch) != 0) { fprintf(stderr, "llama_decode failed\n"); return 1; }
    FILE * f = fopen(argv[2], "wb");
    if (!f) { fprintf(stderr, "cannot write %s\n", argv[2]); return 1; }
    char header[128];
    int n = snprintf(header, sizeof header, "{'descr': '<f4', 'fortran_order': False, 'shape': (%zu, %d), }", ids.size(), n_vocab);
    int total = 10 + n + 1;
    int pad = (64 - total % 64) % 64;
    std::string h(header, n);
    h.append(pad, ' ');
    h.push_back('\n');
    unsigned short len = (unsigned short) h.size();
    fwrite("\x93NUMPY\x01\x00", 1, 8, f);
    fwrite(&len, 2, 1, f);
    fwrite(h.data(), 1, h.size(), f);
    for (size_t i = 0; i < ids.size(); i++) {
        fwrite(llama_get_logits_ith(ctx, (int32_t) i), sizeof(float), n_vocab, f);
    }
    fclose(f);
    llama_batch_free(batch);
    llama_free(ctx);
    llama_model_free(model);
    return 0;
}
