// Real config.json files (tests/data/configs/, sources in SOURCES.tsv) read and priced per engine. Every expected
// value is derived by hand from the engine's own layout (cited per row) or from a real start-up log, never from
// kvcalc: vLLM FullAttentionSpec.real_page_size_bytes / MLAAttentionSpec (vllm/v1/kv_cache_interface.py),
// llama.cpp llama_kv_cache (src/llama-kv-cache.cpp: K and V rows of n_embd_k_gqa / n_embd_v_gqa per cell),
// SGLang MHATokenToKVPool / MLATokenToKVPool / NSATokenToKVPool (python/sglang/srt/mem_cache/memory_pool.py).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <variant>

#include "test_data.h"
#include "kvcalc/engines/engine_rules.h"
#include "kvcalc/config/hf_config.h"

namespace {

/// Layers of each kind, in model_spec.h order.
struct Kinds {
    int full = 0, sliding = 0, chunked = 0, mla = 0, recurrent = 0, none = 0;
    bool operator==(const Kinds&) const = default;
};

Kinds kinds_of(const std::vector<kvcalc::LayerCache>& layers) {
    Kinds k;
    for (const auto& l : layers) {
        if (std::holds_alternative<kvcalc::FullAttention>(l)) ++k.full;
        else if (std::holds_alternative<kvcalc::SlidingWindow>(l)) ++k.sliding;
        else if (std::holds_alternative<kvcalc::ChunkedLocalAttention>(l)) ++k.chunked;
        else if (std::holds_alternative<kvcalc::MlaLatent>(l)) ++k.mla;
        else if (std::holds_alternative<kvcalc::RecurrentState>(l)) ++k.recurrent;
        else ++k.none;
    }
    return k;
}

/// One fixture and what each engine stores for it at TP 1, 16-bit cache (the checkpoint's dtype), per token.
struct Expect {
    const char* file;
    Kinds kinds;
    std::int64_t vllm_bytes_per_token;    ///< growing (full / MLA) layers, vLLM
    std::int64_t llama_cpp_bytes_per_token;///< non-SWA cache K + V per cell, llama.cpp f16
    std::int64_t sglang_cell_bytes;       ///< SGLang token pool cell (every attention layer at full length)
    const char* derivation;               ///< the arithmetic, from the engine layouts above
    std::int64_t vllm_state_bytes_per_sequence = 0;  ///< recurrent state pages per sequence, vLLM (TP 1)
};

/// Marks a value the test does not assert, with the reason in the row's derivation.
constexpr std::int64_t kNotAsserted = -1;
/// Bytes per token of `layers` attention layers with `kv` KV heads of head size k (and v) in a 16-bit cache.
constexpr std::int64_t kv16(int layers, int kv, int k, int v) { return std::int64_t{layers} * kv * (k + v) * 2; }
constexpr std::int64_t kv16(int layers, int kv, int d) { return kv16(layers, kv, d, d); }
/// MLA latent (kv_lora_rank + qk_rope_head_dim) in a 16-bit cache, plus a V3.2-style indexer key
/// (index_head_dim fp8 + one fp32 scale per 128) when `indexer`.
constexpr std::int64_t mla16(int layers, int lora, int rope, bool indexer = false) {
    return std::int64_t{layers} * ((lora + rope) * 2 + (indexer ? 128 + 4 : 0));
}

const Expect kCorpus[] = {
    {"gemma-3-27b-it.json", {10, 52, 0, 0, 0, 0}, 10 * 16 * 128 * 2 * 2, 10 * 16 * 128 * 2 * 2, 62 * 16 * 128 * 2 * 2,
     "Gemma3TextConfig sliding_window_pattern 6: layers 5, 11, … 59 global (10), 52 local; 16 KV heads × "
     "head_dim 128, K+V, bf16"},
    {"llava-1.5-7b-hf.json", {32, 0, 0, 0, 0, 0}, 32 * 32 * 128 * 2 * 2, 32 * 32 * 128 * 2 * 2, 32 * 32 * 128 * 2 * 2,
     "LlamaConfig defaults: 32 layers, 32 heads, MHA (num_key_value_heads None → heads), hidden 4096 → head_dim "
     "128; fp16"},
    {"llama-4-scout-17b-16e-instruct.json", {12, 0, 36, 0, 0, 0}, 12 * 8 * 128 * 2 * 2, 12 * 8 * 128 * 2 * 2,
     48 * 8 * 128 * 2 * 2,
     "Llama4TextConfig: no_rope_layers [] → every 4th layer global (12), 36 chunked (attention_chunk_size 8192); "
     "8 KV heads × 128"},
    {"nemotron-h-56b-base-8k.json", {10, 0, 0, 0, 54, 54}, 10 * 8 * 128 * 2 * 2, 10 * 8 * 128 * 2 * 2,
     10 * 8 * 128 * 2 * 2,
     "hybrid_override_pattern: 10 '*' attention (8 KV heads × attention_head_dim 128), 54 'M' Mamba-2, 54 '-' MLP; "
     "state 256 heads × 64 × 256 + conv 3 × (16384 + 2·8·256), both bf16 (no mamba_ssm_cache_dtype)",
     54 * (std::int64_t{256} * 64 * 256 * 2 + 3 * (256 * 64 + 2 * 8 * 256) * 2)},
    {"phi-3-mini-128k-instruct.json", {32, 0, 0, 0, 0, 0}, 32 * 32 * 96 * 2 * 2, 32 * 32 * 96 * 2 * 2,
     32 * 32 * 96 * 2 * 2,
     "sliding_window 262144 ≥ max_position_embeddings 131072 → full attention; 32 KV heads × 3072/32 = 96"},
    {"lfm2.5-vl-1.6b.json", {6, 0, 0, 0, 10, 0}, 6 * 8 * 64 * 2 * 2, 6 * 8 * 64 * 2 * 2, 6 * 8 * 64 * 2 * 2,
     "layer_types: 6 full_attention (8 KV heads × 2048/32 = 64), 10 conv (short-convolution state)",
     10 * 2 * 2048 * 2},
    // ---- dense GQA / MHA
    {"llama-3.1-8b.json", {32, 0, 0, 0, 0, 0}, kv16(32, 8, 128), kv16(32, 8, 128), kv16(32, 8, 128),
     "32 layers × 8 KV heads × 4096/32"},
    {"llama-3.1-70b.json", {80, 0, 0, 0, 0, 0}, kv16(80, 8, 128), kv16(80, 8, 128), kv16(80, 8, 128),
     "80 layers × 8 KV heads × 8192/64"},
    {"llama-3.2-1b.json", {16, 0, 0, 0, 0, 0}, kv16(16, 8, 64), kv16(16, 8, 64), kv16(16, 8, 64),
     "16 layers × 8 KV heads × head_dim 64"},
    {"mistral-7b-instruct.json", {32, 0, 0, 0, 0, 0}, kv16(32, 8, 128), kv16(32, 8, 128), kv16(32, 8, 128),
     "no sliding_window key: 32 full layers × 8 × 128"},
    {"qwen2-7b.json", {28, 0, 0, 0, 0, 0}, kv16(28, 4, 128), kv16(28, 4, 128), kv16(28, 4, 128),
     "use_sliding_window false: 28 full layers × 4 KV heads × 3584/28"},
    {"qwen2.5-7b.json", {28, 0, 0, 0, 0, 0}, kv16(28, 4, 128), kv16(28, 4, 128), kv16(28, 4, 128),
     "use_sliding_window false: 28 × 4 × 128"},
    {"qwen2.5-vl-7b.json", {28, 0, 0, 0, 0, 0}, kv16(28, 4, 128), kv16(28, 4, 128), kv16(28, 4, 128),
     "flat VL config, use_sliding_window false: 28 × 4 × 128"},
    {"qwen3-0.6b.json", {28, 0, 0, 0, 0, 0}, kv16(28, 8, 128), kv16(28, 8, 128), kv16(28, 8, 128),
     "28 × 8 KV heads × head_dim 128 (not 1024/16)"},
    {"qwen3-8b.json", {36, 0, 0, 0, 0, 0}, kv16(36, 8, 128), kv16(36, 8, 128), kv16(36, 8, 128), "36 × 8 × 128"},
    {"qwen3-embedding-8b.json", {36, 0, 0, 0, 0, 0}, kv16(36, 8, 128), kv16(36, 8, 128), kv16(36, 8, 128),
     "decoder embedding model (causal attention keeps a KV cache): 36 × 8 × 128"},
    {"mimo-7b-base.json", {36, 0, 0, 0, 0, 0}, kv16(36, 8, 128), kv16(36, 8, 128), kv16(36, 8, 128),
     "use_sliding_window false: 36 × 8 × 128"},
    {"command-r-35b.json", {40, 0, 0, 0, 0, 0}, kv16(40, 64, 128), kv16(40, 64, 128), kv16(40, 64, 128),
     "Cohere MHA: 40 × 64 KV heads × 8192/64"},
    {"exaone-3.5-7.8b.json", {32, 0, 0, 0, 0, 0}, kv16(32, 8, 128), kv16(32, 8, 128), kv16(32, 8, 128),
     "num_layers alias: 32 × 8 × 128"},
    {"chatglm3-6b.json", {28, 0, 0, 0, 0, 0}, kv16(28, 2, 128), kv16(28, 2, 128), kv16(28, 2, 128),
     "ChatGLM: num_layers 28, multi_query_group_num 2 KV heads × kv_channels 128"},
    {"glm-4-9b.json", {40, 0, 0, 0, 0, 0}, kv16(40, 2, 128), kv16(40, 2, 128), kv16(40, 2, 128),
     "ChatGLM: num_layers 40, multi_query_group_num 2 × kv_channels 128"},
    {"phi-3.5-moe.json", {32, 0, 0, 0, 0, 0}, kv16(32, 8, 128), kv16(32, 8, 128), kv16(32, 8, 128),
     "sliding_window 131072 = max_position_embeddings → full: 32 × 8 × 128"},
    // ---- MoE
    {"mixtral-8x7b-v0.1.json", {32, 0, 0, 0, 0, 0}, kv16(32, 8, 128), kv16(32, 8, 128), kv16(32, 8, 128),
     "sliding_window null: 32 × 8 × 128"},
    {"mixtral-8x22b-v0.1.json", {56, 0, 0, 0, 0, 0}, kv16(56, 8, 128), kv16(56, 8, 128), kv16(56, 8, 128),
     "56 × 8 × 6144/48"},
    {"qwen3-30b-a3b.json", {48, 0, 0, 0, 0, 0}, kv16(48, 4, 128), kv16(48, 4, 128), kv16(48, 4, 128), "48 × 4 × 128"},
    {"qwen3-235b-a22b.json", {94, 0, 0, 0, 0, 0}, kv16(94, 4, 128), kv16(94, 4, 128), kv16(94, 4, 128),
     "94 × 4 × 128"},
    {"qwen3-coder-480b-a35b-instruct.json", {62, 0, 0, 0, 0, 0}, kv16(62, 8, 128), kv16(62, 8, 128),
     kv16(62, 8, 128), "62 × 8 × 128"},
    {"minimax-m2.5.json", {62, 0, 0, 0, 0, 0}, kv16(62, 8, 128), kv16(62, 8, 128), kv16(62, 8, 128),
     "62 × 8 × 128"},
    // ---- MLA (latent not split by TP; llama.cpp keeps V as a view of K)
    {"deepseek-v3.json", {0, 0, 0, 61, 0, 0}, mla16(61, 512, 64), mla16(61, 512, 64), mla16(61, 512, 64),
     "61 layers × (kv_lora_rank 512 + qk_rope_head_dim 64) × 2 B"},
    {"kimi-k2-instruct.json", {0, 0, 0, 61, 0, 0}, mla16(61, 512, 64), mla16(61, 512, 64), mla16(61, 512, 64),
     "DeepseekV3 layout: 61 × 576 × 2 B"},
    {"deepseek-v3.2.json", {0, 0, 0, 61, 0, 0}, mla16(61, 512, 64, true), kNotAsserted, mla16(61, 512, 64, true),
     "61 × (576 × 2 B + indexer 128 fp8 + 4 B scale); llama.cpp not asserted (no sparse-attention indexer)"},
    {"glm-5.json", {0, 0, 0, 78, 0, 0}, mla16(78, 512, 64, true), kNotAsserted, mla16(78, 512, 64, true),
     "glm_moe_dsa: 78 MLA layers with a DSA indexer (index_head_dim 128); llama.cpp not asserted"},
    // ---- sliding-window hybrids (vLLM/llama.cpp: only the global layers grow; SGLang cell = every layer at
    //      full length, as with --disable-hybrid-swa-memory)
    {"gemma-2-2b-it.json", {13, 13, 0, 0, 0, 0}, kv16(13, 4, 256), kv16(13, 4, 256), kv16(26, 4, 256),
     "Gemma 2 alternates (even layers slide): 13 global × 4 KV heads × 256"},
    {"gemma-2-9b.json", {21, 21, 0, 0, 0, 0}, kv16(21, 8, 256), kv16(21, 8, 256), kv16(42, 8, 256),
     "Gemma 2: 21 global × 8 × 256"},
    {"gemma-3-text.json", {4, 22, 0, 0, 0, 0}, kv16(4, 1, 256), kv16(4, 1, 256), kv16(26, 1, 256),
     "sliding_window_pattern 6 over 26 layers: 5, 11, 17, 23 global; 1 KV head × 256"},
    {"gpt-oss-20b.json", {12, 12, 0, 0, 0, 0}, kv16(12, 8, 64), kv16(12, 8, 64), kv16(24, 8, 64),
     "layer_types 12 full + 12 sliding (window 128); 8 KV heads × 64"},
    {"gpt-oss-120b.json", {18, 18, 0, 0, 0, 0}, kv16(18, 8, 64), kv16(18, 8, 64), kv16(36, 8, 64),
     "layer_types 18 full + 18 sliding; 8 × 64"},
    {"gemma-4-26b-a4b.json", {5, 25, 0, 0, 0, 0}, kv16(5, 2, 512), kv16(5, 2, 512), kv16(5, 2, 512) + kv16(25, 8, 256),
     "global layers: num_global_key_value_heads 2 × global_head_dim 512; attention_k_eq_v drops their v_proj but every "
     "engine caches K and V (vLLM gemma4.py Gemma4Attention, llama.cpp gemma4-iswa.cpp Vcur = Kcur, SGLang "
     "gemma4_causal.py RadixAttention); sliding layers 8 × 256, K and V"},
    {"mimo-v2-flash.json", {9, 39, 0, 0, 0, 0}, kv16(9, 4, 192, 128), kNotAsserted,
     kv16(9, 4, 192, 128) + kv16(39, 8, 192, 128),
     "hybrid_layer_pattern: 9 global (4 KV heads, K 192 / V 128), 39 SWA (swa_num_key_value_heads 8, swa_head_dim "
     "192 / swa_v_head_dim 128); llama.cpp not asserted"},
    {"e5-mistral-7b-instruct.json", {0, 32, 0, 0, 0, 0}, kNotAsserted, kv16(32, 8, 128), kv16(32, 8, 128),
     "bare sliding_window 4096 on Mistral: llama.cpp has no SWA for it (full context), SGLang full length; "
     "vLLM not asserted (its handling of a Mistral-wide window changed between versions)"},
    // ---- chunked local attention
    {"llama-4-maverick-17b-128e-instruct.json", {12, 0, 36, 0, 0, 0}, kv16(12, 8, 128), kv16(12, 8, 128),
     kv16(48, 8, 128), "Llama 4: 12 global + 36 chunked (attention_chunk_size 8192); 8 × 128"},
    // ---- per-layer searched blocks (DeciLM)
    {"llama-3.3-nemotron-super-49b-v1.json", {49, 0, 0, 0, 0, 31}, kv16(49, 8, 128), kv16(49, 8, 128),
     kv16(49, 8, 128),
     "block_configs: 31 attention no_op, 49 attention layers with n_heads_in_group 8 → 64/8 = 8 KV heads × 128"},
    // ---- recurrent hybrids (state: vLLM mamba_utils shapes; conv in the model dtype, SSM per mamba_ssm_cache_dtype)
    {"nemotron-3-nano-30b-a3b.json", {6, 0, 0, 0, 23, 23}, kv16(6, 2, 128), kv16(6, 2, 128), kv16(6, 2, 128),
     "hybrid_override_pattern: 6 '*' (2 KV heads × 128), 23 'M', 23 'E'; Mamba-2 state 64 heads × 64 × 128 fp32 + "
     "conv 3 × (64·64 + 2·8·128) bf16 per layer",
     23 * (std::int64_t{64} * 64 * 128 * 4 + 3 * (64 * 64 + 2 * 8 * 128) * 2)},
    {"nemotron-3-super-120b-a12b-fp8.json", {8, 0, 0, 0, 40, 40}, kv16(8, 2, 128), kv16(8, 2, 128), kv16(8, 2, 128),
     "hybrid_override_pattern: 8 '*', 40 'M', 40 'E'; Mamba-2 state 128 × 64 × 128 fp32 + conv 3 × (8192 + 2048) bf16",
     40 * (std::int64_t{128} * 64 * 128 * 4 + 3 * (128 * 64 + 2 * 8 * 128) * 2)},
    {"qwen3.5-27b.json", {16, 0, 0, 0, 48, 0}, kv16(16, 4, 256), kv16(16, 4, 256), kv16(16, 4, 256),
     "layer_types 16 full (4 × 256) + 48 Gated DeltaNet: 48 v-heads × 128 × 128 fp32 + conv 3 × (2·16·128 + 48·128) bf16",
     48 * (std::int64_t{48} * 128 * 128 * 4 + 3 * (2 * 16 * 128 + 48 * 128) * 2)},
    {"qwen3.5-35b-a3b.json", {10, 0, 0, 0, 30, 0}, kv16(10, 2, 256), kv16(10, 2, 256), kv16(10, 2, 256),
     "layer_types 10 full (2 × 256) + 30 Gated DeltaNet: 32 × 128 × 128 fp32 + conv 3 × (2·16·128 + 32·128) bf16",
     30 * (std::int64_t{32} * 128 * 128 * 4 + 3 * (2 * 16 * 128 + 32 * 128) * 2)},
    // ---- encoder-only
    {"bge-large.json", {0, 0, 0, 0, 0, 24}, 0, 0, 0, "BertModel: encoder-only, no KV cache in any engine"},
};

}  // namespace

TEST_SUITE("config corpus") {
    TEST_CASE("every fixture: layer typing and bytes per token per engine") {
        for (const auto& e : kCorpus) {
            CAPTURE(e.file);
            CAPTURE(e.derivation);
            const auto text = kvcalc::test::config_file(e.file);
            REQUIRE_FALSE(text.empty());
            const auto cfg = kvcalc::read_hf_config(text);
            for (const auto& d : cfg.diagnostics)
                if (d.severity == kvcalc::Severity::error) FAIL_CHECK(d.field << ": " << d.message);
            REQUIRE_FALSE(kvcalc::has_error(cfg.diagnostics));
            CHECK(kinds_of(cfg.spec.layers) == e.kinds);

            kvcalc::VllmSettings v;
            v.max_model_len = std::min<std::int64_t>(8192, cfg.spec.max_position_embeddings);
            const auto vp = kvcalc::predict_vllm_kv(cfg.spec, v, {40LL << 30});
            if (e.vllm_bytes_per_token != kNotAsserted) CHECK(vp.kv_bytes_per_token == e.vllm_bytes_per_token);
            CHECK(vp.state_bytes_per_sequence == e.vllm_state_bytes_per_sequence);

            kvcalc::LlamaCppSettings l;
            if (e.llama_cpp_bytes_per_token != kNotAsserted)
                CHECK(kvcalc::predict_llama_cpp_kv(cfg.spec, l).kv_bytes_per_token == e.llama_cpp_bytes_per_token);

            kvcalc::SglangSettings s;
            if (e.sglang_cell_bytes != kNotAsserted)
                CHECK(kvcalc::predict_sglang_kv(cfg.spec, s, 40LL << 30).cell_size_bytes == e.sglang_cell_bytes);
        }
    }
}

namespace {
bool has_diag(const kvcalc::Diagnostics& ds, const std::string& code, const std::string& field) {
    for (const auto& d : ds)
        if (d.code == code && d.field == field) return true;
    return false;
}
std::string provenance(const kvcalc::ModelSpec& s, const std::string& fact) {
    for (const auto& p : s.provenance)
        if (p.fact == fact) return p.source;
    return "";
}
}  // namespace

TEST_SUITE("config corpus") {
    TEST_CASE("Nemotron-H 56B: the bare Infinity of time_step_limit reads as null with a warning naming it") {
        const auto cfg = kvcalc::read_hf_config(kvcalc::test::config_file("nemotron-h-56b-base-8k.json"));
        CHECK_FALSE(kvcalc::has_error(cfg.diagnostics));
        CHECK(has_diag(cfg.diagnostics, "non_standard_json", "time_step_limit[1]"));
        // Inside strings the words stay text; NaN and -Infinity are replaced too.
        const auto odd = kvcalc::read_hf_config(R"({"model_type":"llama","note":"Infinity","a":NaN,"b":[-Infinity],
            "num_hidden_layers":2,"hidden_size":64,"num_attention_heads":4,"max_position_embeddings":128})");
        CHECK_FALSE(kvcalc::has_error(odd.diagnostics));
        CHECK(has_diag(odd.diagnostics, "non_standard_json", "a"));
        CHECK(has_diag(odd.diagnostics, "non_standard_json", "b[0]"));
        CHECK_FALSE(has_diag(odd.diagnostics, "non_standard_json", "note"));
    }

    TEST_CASE("sparse wrappers take their text class's defaults, and say so") {
        const auto g = kvcalc::read_hf_config(kvcalc::test::config_file("gemma-3-27b-it.json"));
        CHECK(g.spec.model_type == "gemma3_text");
        CHECK(provenance(g.spec, "sliding_window_pattern").find("transformers default: Gemma3TextConfig") == 0);
        CHECK(provenance(g.spec, "sliding_window") == "config.json: text_config.sliding_window");  // 1024, not 4096
        CHECK(g.arch.vocab_size == 262208);        // Gemma3TextConfig default
        CHECK(g.arch.tie_word_embeddings);
        CHECK(has_diag(g.diagnostics, "class_defaults", "text_config.model_type"));
        const auto l = kvcalc::read_hf_config(kvcalc::test::config_file("llava-1.5-7b-hf.json"));
        CHECK(l.spec.model_type == "llama");
        CHECK(provenance(l.spec, "num_hidden_layers").find("transformers default: LlamaConfig") == 0);
        CHECK(l.spec.max_position_embeddings == 4096);  // from the file, not LlamaConfig's 2048
        // An explicit null is None in transformers: MistralConfig's default window of 4096 must not come back.
        const auto m = kvcalc::read_hf_config(R"({"model_type":"mistral","sliding_window":null,"num_hidden_layers":4,
            "hidden_size":512,"num_attention_heads":8,"num_key_value_heads":2,"max_position_embeddings":32768})");
        for (const auto& c : m.spec.layers) CHECK(std::holds_alternative<kvcalc::FullAttention>(c));
    }

    TEST_CASE("Phi-3-mini-128k: a window past max_position_embeddings is full attention") {
        const auto p = kvcalc::read_hf_config(kvcalc::test::config_file("phi-3-mini-128k-instruct.json"));
        CHECK(has_diag(p.diagnostics, "window_covers_context", "sliding_window"));
    }

    TEST_CASE("LFM2 short-convolution state: (conv_L_cache - 1) x hidden per sequence per conv layer") {
        const auto c = kvcalc::read_hf_config(kvcalc::test::config_file("lfm2.5-vl-1.6b.json"));
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        kvcalc::VllmSettings v;
        v.max_model_len = 8192;
        // vLLM lfm2.py: short_conv_state_shape(intermediate_size = hidden_size 2048, conv_kernel = conv_L_cache 3)
        // → (3 − 1) × 2048 values in the model dtype (bf16) = 8,192 B per layer per sequence, 10 conv layers.
        CHECK(kvcalc::predict_vllm_kv(c.spec, v, {40LL << 30}).state_bytes_per_sequence == 10 * 2 * 2048 * 2);
        // llama.cpp keeps the same r state in f32 (llama_memory_recurrent): 16,384 B per layer per sequence.
        kvcalc::LlamaCppSettings l;
        CHECK(kvcalc::predict_llama_cpp_kv(c.spec, l).recurrent_bytes == 10 * 2 * 2048 * 4);
    }
}

#include "kvcalc/deployment/predict.h"

TEST_SUITE("config corpus") {
    TEST_CASE("engine context limits: vLLM and SGLang refuse past max_position_embeddings, llama.cpp warns") {
        kvcalc::Scenario s;
        s.config_json = kvcalc::test::config_file("llava-1.5-7b-hf.json");  // max_position_embeddings 4096
        s.max_model_len = 8192;
        s.max_num_seqs = 1;
        s.vram_gb = 80;
        for (const char* engine : {"vllm", "sglang", "llama.cpp"}) {
            CAPTURE(engine);
            s.engine = engine;
            const auto r = kvcalc::predict(s);
            bool refused = false, warned = false;
            for (const auto& d : r.diagnostics) {
                if (d.code != "max_model_len_too_long") continue;
                refused = refused || d.severity == kvcalc::Severity::error;
                warned = warned || d.severity == kvcalc::Severity::warning;
            }
            if (std::string(engine) == "llama.cpp") {
                CHECK(r.ok);
                CHECK(warned);
            } else {
                CHECK_FALSE(r.ok);
                CHECK(refused);
            }
        }
    }
}

#include "kvcalc/config/param_count.h"

TEST_SUITE("config corpus") {
    TEST_CASE("llama.cpp Falcon-H1 1.5B: KV 768.00 MiB and recurrent state 72.98 MiB at 32768 cells, as logged") {
        // Start-up log (GeniePod/genie-claw issue #410, Falcon-H1-1.5B, -c 32768 -np 1):
        //   llama_kv_cache: KV buffer size = 768.00 MiB ( 32768 cells, 24 layers, K 384 + V 384 )
        //   llama_memory_recurrent: RS buffer size = 72.98 MiB ( 1 cells, 24 layers, R 0.98 + S 72.00 )
        // No stored copy of the model's config.json was found, so this one carries its published dimensions
        // (tiiuae/Falcon-H1-1.5B-Instruct), which the log's own numbers confirm: K 384 MiB = 24 × 2 × 128 × 2 B ×
        // 32768; S 72 MiB = 24 × 48 × 64 × 256 × 4 B; R 0.98 MiB = 24 × 3 × (3072 + 2 × 256) × 4 B.
        const auto cfg = kvcalc::read_hf_config(R"({"architectures":["FalconH1ForCausalLM"],"model_type":"falcon_h1",
            "num_hidden_layers":24,"hidden_size":2048,"num_attention_heads":8,"num_key_value_heads":2,"head_dim":128,
            "mamba_d_ssm":3072,"mamba_n_heads":48,"mamba_d_head":64,"mamba_d_state":256,"mamba_n_groups":1,
            "mamba_d_conv":4,"max_position_embeddings":131072,"torch_dtype":"bfloat16","vocab_size":65537,
            "intermediate_size":8192})");
        REQUIRE_FALSE(kvcalc::has_error(cfg.diagnostics));
        kvcalc::LlamaCppSettings l;
        l.n_ctx = 32768;
        const auto p = kvcalc::predict_llama_cpp_kv(cfg.spec, l);
        constexpr double kMiB = 1024.0 * 1024.0;
        CHECK(static_cast<double>(p.full_bytes) / kMiB == doctest::Approx(768.00).epsilon(0.00001));
        CHECK(static_cast<double>(p.recurrent_bytes) / kMiB == doctest::Approx(72.98).epsilon(0.0001));
        CHECK(p.recurrent_layers == 24);
    }

    TEST_CASE("weights of per-layer architectures: every block's parameters are counted") {
        auto billions = [](const char* file) {
            const auto c = kvcalc::read_hf_config(kvcalc::test::config_file(file));
            return static_cast<double>(kvcalc::count_parameters(c.spec, c.arch).total()) / 1e9;
        };
        // Published totals (model cards): Nemotron-3-Nano-30B-A3B 31.6B (its 23 MoE blocks hold most of the
        // parameters), Nemotron-3-Super-120B-A12B 120B (latent MoE), Llama-3.3-Nemotron-Super-49B 49B
        // (DeciLM per-layer FFN widths), Llama-4-Maverick 400B (MoE every other layer + shared expert),
        // MiMo-V2-Flash 309B.
        CHECK(billions("nemotron-3-nano-30b-a3b.json") == doctest::Approx(31.6).epsilon(0.01));
        CHECK(billions("nemotron-3-super-120b-a12b-fp8.json") == doctest::Approx(120.0).epsilon(0.02));
        CHECK(billions("llama-3.3-nemotron-super-49b-v1.json") == doctest::Approx(49.0).epsilon(0.03));
        CHECK(billions("llama-4-maverick-17b-128e-instruct.json") == doctest::Approx(400.0).epsilon(0.02));
        CHECK(billions("mimo-v2-flash.json") == doctest::Approx(309.0).epsilon(0.01));
        // Llama 4 Scout: 109B on the card includes the vision encoder, which is not counted.
        CHECK(billions("llama-4-scout-17b-16e-instruct.json") > 104.0);
        CHECK(billions("llama-4-scout-17b-16e-instruct.json") < 109.0);
    }

    TEST_CASE("Llama 4 Scout's chunked local attention layers hold attention weights like its full ones") {
        // Counted by hand from tests/data/configs/llama-4-scout-17b-16e-instruct.json (text_config: hidden_size
        // 5120, 40 attention heads, 8 KV heads, head_dim 128, 48 layers of which 36 chunked, no attention bias;
        // Llama4TextAttention's q/k/v/o projections are the same in chunked and full layers, and its qk norm is
        // an L2 norm without weights). Per layer q 5120 × 5120 + k, v 2 × 5120 × 1024 + o 5120 × 5120 =
        // 62,914,560; × 48 = 3,019,898,880. With experts (48 × (16 + 1 shared) × 3 × 5120 × 8192 + router
        // 48 × 5120 × 16), embedding and untied lm_head (2 × 202,048 × 5120) and norms (48 × 2 × 5120 + 5120),
        // the language model holds 107,769,861,120: the 109B of the model card less its ~0.8B vision encoder.
        const auto c = kvcalc::read_hf_config(kvcalc::test::config_file("llama-4-scout-17b-16e-instruct.json"));
        const kvcalc::ParamBreakdown p = kvcalc::count_parameters(c.spec, c.arch);
        CHECK(p.attention == 3'019'898'880);
        CHECK(p.total() == 107'769'861'120);
    }

    TEST_CASE("model facts name the facts that came from class defaults") {
        kvcalc::Scenario s;
        s.config_json = kvcalc::test::config_file("gemma-3-27b-it.json");
        s.max_model_len = 32768;
        s.max_num_seqs = 1;
        s.vram_gb = 80;
        const auto r = kvcalc::predict(s);
        REQUIRE(r.ok);
        REQUIRE(r.model_facts);
        int checked = 0;
        for (const auto& f : *r.model_facts) {
            if (f.fact == "num_hidden_layers") {
                CHECK(f.source == "config.json: text_config.num_hidden_layers");
                ++checked;
            }
            if (f.fact == "max_position_embeddings") {  // not in the file: Gemma3TextConfig's 131072
                CHECK(f.value == "131072");
                CHECK(f.source.find("transformers default: Gemma3TextConfig.max_position_embeddings") == 0);
                ++checked;
            }
        }
        CHECK(checked == 2);
    }

    TEST_CASE("encoder-only: a clear result, not a context-length refusal") {
        kvcalc::Scenario s;
        s.config_json = kvcalc::test::config_file("bge-large.json");  // max_position_embeddings 512
        s.max_model_len = 8192;
        s.max_num_seqs = 4;
        s.vram_gb = 24;
        const auto r = kvcalc::predict(s);
        CHECK(r.ok);
        bool note = false;
        for (const auto& n : r.notes) note = note || n.find("no KV cache; weights only") == 0;
        CHECK(note);
        CHECK(r.terms.kv_growing_requested_bytes == 0);
    }
}

TEST_SUITE("config corpus") {
    TEST_CASE("llama.cpp ggml cache types: q8_0 is accepted, K and V types apart") {
        // ggml-common.h: a row of 128 values is 4 blocks; q8_0 block 34 B → 136 B, q4_0 block 18 B → 72 B.
        kvcalc::Scenario s;
        s.config_json = kvcalc::test::config_file("llama-3.1-8b.json");
        s.engine = "llama.cpp";
        s.kv_cache_dtype = "q8_0";
        s.max_model_len = 32768;
        s.max_num_seqs = 1;
        s.vram_gb = 24;
        const auto r = kvcalc::predict(s);
        REQUIRE(r.ok);
        CHECK(r.startup.kv_total_bytes_all_devices == std::int64_t{32} * 8 * 136 * 2 * 32768);  // K and V, 32 layers
        const auto cfg = kvcalc::read_hf_config(kvcalc::test::config_file("llama-3.1-8b.json"));
        kvcalc::LlamaCppSettings l;
        l.n_ctx = 32768;
        l.cache_type_k = "q8_0";
        l.cache_type_v = "q4_0";
        const auto p = kvcalc::predict_llama_cpp_kv(cfg.spec, l);
        CHECK(p.k_bytes == std::int64_t{32} * 8 * 136 * 32768);
        CHECK(p.v_bytes == std::int64_t{32} * 8 * 72 * 32768);
    }
}

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/config/model_traits.h"

TEST_SUITE("config corpus") {
    TEST_CASE("every catalog entry carries its model_type, and kvcalc has traits for it") {
        for (const auto& m : kvcalc::model_catalog()) {
            CAPTURE(m.id);
            CHECK_FALSE(m.model_type.empty());
        }
        // Engine rules that key on model_type see the seed Gemma 4 as what llama.cpp builds an iSWA cache for.
        const auto* g = kvcalc::find_model("gemma-4-31b");
        REQUIRE(g);
        const auto* t = kvcalc::find_model_traits(g->model_type);
        REQUIRE(t);
        CHECK(t->llama_cpp_swa);
    }
}

#include "kvcalc/io/json_io.h"

TEST_SUITE("config corpus") {
    TEST_CASE("a model written as JSON and read back keeps model_type and Falcon-H1's parallel Mamba state") {
        const auto cfg = kvcalc::read_hf_config(R"({"model_type":"falcon_h1","num_hidden_layers":4,"hidden_size":256,
            "num_attention_heads":4,"num_key_value_heads":2,"head_dim":64,"mamba_d_ssm":512,"mamba_n_heads":8,
            "mamba_d_head":64,"mamba_d_state":16,"mamba_n_groups":1,"mamba_d_conv":4,"max_position_embeddings":4096})");
        REQUIRE_FALSE(kvcalc::has_error(cfg.diagnostics));
        REQUIRE(cfg.spec.parallel_caches.size() == 4);
        nlohmann::json j;
        kvcalc::to_json(j, cfg.spec);
        kvcalc::ModelSpec back;
        kvcalc::Diagnostics d;
        kvcalc::read_model(j, back, d, "model");
        CHECK_FALSE(kvcalc::has_error(d));
        CHECK(back.model_type == "falcon_h1");
        CHECK(back.parallel_caches == cfg.spec.parallel_caches);
        CHECK(back.layers == cfg.spec.layers);
    }
}
