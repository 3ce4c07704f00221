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

#include "kvcalc/engine_rules.h"
#include "kvcalc/hf_config.h"

namespace {

std::string read_fixture(const std::string& name) {
    std::ifstream f(std::string(KVCALC_TEST_DATA_DIR) + "/configs/" + name);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

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
};

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
     "hybrid_override_pattern: 10 '*' attention (8 KV heads × attention_head_dim 128), 54 'M' Mamba-2, 54 '-' MLP"},
    {"phi-3-mini-128k-instruct.json", {32, 0, 0, 0, 0, 0}, 32 * 32 * 96 * 2 * 2, 32 * 32 * 96 * 2 * 2,
     32 * 32 * 96 * 2 * 2,
     "sliding_window 262144 ≥ max_position_embeddings 131072 → full attention; 32 KV heads × 3072/32 = 96"},
    {"lfm2.5-vl-1.6b.json", {6, 0, 0, 0, 10, 0}, 6 * 8 * 64 * 2 * 2, 6 * 8 * 64 * 2 * 2, 6 * 8 * 64 * 2 * 2,
     "layer_types: 6 full_attention (8 KV heads × 2048/32 = 64), 10 conv (short-convolution state)"},
};

}  // namespace

TEST_SUITE("config corpus") {
    TEST_CASE("every fixture: layer typing and bytes per token per engine") {
        for (const auto& e : kCorpus) {
            CAPTURE(e.file);
            CAPTURE(e.derivation);
            const auto text = read_fixture(e.file);
            REQUIRE_FALSE(text.empty());
            const auto cfg = kvcalc::read_hf_config(text);
            for (const auto& d : cfg.diagnostics)
                if (d.severity == kvcalc::Severity::error) FAIL_CHECK(d.field << ": " << d.message);
            REQUIRE_FALSE(kvcalc::has_error(cfg.diagnostics));
            CHECK(kinds_of(cfg.spec.layers) == e.kinds);

            kvcalc::VllmSettings v;
            v.max_model_len = std::min<std::int64_t>(8192, cfg.spec.max_position_embeddings);
            const auto vp = kvcalc::predict_vllm_kv(cfg.spec, v, {40LL << 30});
            CHECK(vp.kv_bytes_per_token == e.vllm_bytes_per_token);

            kvcalc::LlamaCppSettings l;
            CHECK(kvcalc::predict_llama_cpp_kv(cfg.spec, l).kv_bytes_per_token == e.llama_cpp_bytes_per_token);

            kvcalc::SglangSettings s;
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
        const auto cfg = kvcalc::read_hf_config(read_fixture("nemotron-h-56b-base-8k.json"));
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
        const auto g = kvcalc::read_hf_config(read_fixture("gemma-3-27b-it.json"));
        CHECK(g.spec.model_type == "gemma3_text");
        CHECK(provenance(g.spec, "sliding_window_pattern").find("transformers default: Gemma3TextConfig") == 0);
        CHECK(provenance(g.spec, "sliding_window") == "config.json: text_config.sliding_window");  // 1024, not 4096
        CHECK(g.arch.vocab_size == 262208);        // Gemma3TextConfig default
        CHECK(g.arch.tie_word_embeddings);
        CHECK(has_diag(g.diagnostics, "class_defaults", "text_config.model_type"));
        const auto l = kvcalc::read_hf_config(read_fixture("llava-1.5-7b-hf.json"));
        CHECK(l.spec.model_type == "llama");
        CHECK(provenance(l.spec, "num_hidden_layers").find("transformers default: LlamaConfig") == 0);
        CHECK(l.spec.max_position_embeddings == 4096);  // from the file, not LlamaConfig's 2048
        // An explicit null is None in transformers: MistralConfig's default window of 4096 must not come back.
        const auto m = kvcalc::read_hf_config(R"({"model_type":"mistral","sliding_window":null,"num_hidden_layers":4,
            "hidden_size":512,"num_attention_heads":8,"num_key_value_heads":2,"max_position_embeddings":32768})");
        for (const auto& c : m.spec.layers) CHECK(std::holds_alternative<kvcalc::FullAttention>(c));
    }

    TEST_CASE("Phi-3-mini-128k: a window past max_position_embeddings is full attention") {
        const auto p = kvcalc::read_hf_config(read_fixture("phi-3-mini-128k-instruct.json"));
        CHECK(has_diag(p.diagnostics, "window_covers_context", "sliding_window"));
    }

    TEST_CASE("LFM2 short-convolution state: (conv_L_cache - 1) x hidden per sequence per conv layer") {
        const auto c = kvcalc::read_hf_config(read_fixture("lfm2.5-vl-1.6b.json"));
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

#include "kvcalc/predict.h"

TEST_SUITE("config corpus") {
    TEST_CASE("engine context limits: vLLM and SGLang refuse past max_position_embeddings, llama.cpp warns") {
        kvcalc::Scenario s;
        s.config_json = read_fixture("llava-1.5-7b-hf.json");  // max_position_embeddings 4096
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
