// The 38 config.json files of the shared config-examples-2 set (tests/data/configs, SOURCES.tsv), one row each: the
// layers vLLM builds, the K/V bytes per token it caches at TP 1 in bf16, and the parameters of the modules its model
// file creates. Every expected value is arithmetic over the config's own numbers, following the vLLM file named in
// the row's comment (vllm/model_executor/models/<file>.py), never kvcalc's output.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <variant>

#include "kvcalc/config/hf_config.h"
#include "kvcalc/config/param_count.h"
#include "kvcalc/engines/vllm/accounting.h"
#include "test_data.h"

using namespace kvcalc;

namespace {

using i64 = std::int64_t;

/// q + k + v + o of grouped-query attention: h × H·d, 2 × h × kv·d, H·d × h.
constexpr i64 gqa(i64 h, i64 heads, i64 kv, i64 d) { return h * heads * d + 2 * h * kv * d + heads * d * h; }
/// Embedding (+ an untied lm_head of the same shape) + layers × (mixer + MLP) + anything else.
constexpr i64 dense(i64 layers, i64 h, i64 vocab, i64 attn, i64 mlp, bool tied, i64 extra = 0) {
    return vocab * h * (tied ? 1 : 2) + layers * (attn + mlp) + extra;
}

struct Row {
    const char* file;
    int full = 0, sliding = 0, recurrent = 0, none = 0;
    i64 full_bytes_per_token = 0;     ///< K + V over the full-attention layers, 2 B per value
    i64 sliding_bytes_per_token = 0;  ///< K + V over the sliding layers, 2 B per value
    i64 window = 0;                   ///< tokens, when there are sliding layers
    i64 params = 0;                   ///< the vLLM modules' weights (biases and norms left out: < 0.1%)
    const char* error = "";           ///< diagnostic code when kvcalc refuses the file
    const char* warning = "";         ///< a warning code the file must raise
};

// clang-format off
const Row kRows[] = {
    // baichuan.py BaichuanForCausalLM (hidden 4096 → ROPE, Baichuan2-7B): W_pack 3h, o_proj, gated MLP, NormHead lm_head.
    {"baichuan2-7b.json", 32, 0, 0, 0, 32LL * 32 * 256 * 2, 0, 0, dense(32, 4096, 125696, 4 * 4096LL * 4096, 3 * 4096LL * 11008, false)},
    // bamba.py BambaForCausalLM: attention at attn_layer_indices 9, 18, 27 (8 KV heads × 128), Mamba-2 elsewhere,
    // a gated MLP in every layer. Mamba-2 mixer: in_proj h→2·8192 + 2·128 + 128 heads, conv1d 8448 × 4, out_proj.
    {"bamba-9b.json", 3, 0, 29, 0, 3LL * 8 * 256 * 2, 0, 0,
     128256LL * 4096 * 2 + 3 * gqa(4096, 32, 8, 128) +
         29 * (4096LL * (2 * 8192 + 2 * 128 + 128) + (8192 + 256) * 4LL + 8192LL * 4096) + 32 * 3 * 4096LL * 14336},
    // bloom.py BloomForCausalLM: MHA 32 × 80 (hidden 2560 / n_head 32), query_key_value 3h + dense, MLP 4h up + down,
    // lm_head = word_embeddings. float32 in the file, run as bf16.
    {"bloom-3b-finetune.json", 30, 0, 0, 0, 30LL * 32 * 160 * 2, 0, 0, dense(30, 2560, 250880, 4 * 2560LL * 2560, 8 * 2560LL * 2560, true)},
    // commandr.py CohereForCausalLM (Cohere2): sliding_window_pattern 4 → every 4th layer global, others 4096 tokens.
    {"c4ai-command-r7b-abliterated.json", 8, 24, 0, 0, 8LL * 8 * 256 * 2, 24LL * 8 * 256 * 2, 4096,
     dense(32, 4096, 256000, gqa(4096, 32, 8, 128), 3 * 4096LL * 14336, true)},
    // dbrx.py DbrxAttention (attn_config.kv_n_heads 8, head 6144 / 48 = 128), DbrxExperts 16 × (w1, v1, w2) + router.
    {"dbrx-instruct.json", 40, 0, 0, 0, 40LL * 8 * 256 * 2, 0, 0,
     dense(40, 6144, 100352, gqa(6144, 48, 8, 128), 16 * 3 * 6144LL * 10752 + 6144 * 16, false)},
    // deepseek_v4.py + layers/deepseek_v4_attention.py: a sliding cache plus a compressed cache per compress_ratios
    // entry; kvcalc has no layer kind for the compressed part, so it refuses.
    {"deepseek-v4-flash.json", 0, 0, 0, 0, 0, 0, 0, 0, "unsupported_architecture"},
    // deepseek_vl2.py → DeepseekForCausalLM (use_mla false): 10 heads of 128, layer 0 dense, 11 MoE layers of
    // 64 routed + 2 shared experts × 896, lm_head untied.
    {"deepseek-vl2-tiny.json", 12, 0, 0, 0, 12LL * 10 * 256 * 2, 0, 0,
     129280LL * 1280 * 2 + 12 * 4 * 1280LL * 1280 + 3 * 1280LL * 6848 + 11 * (66 * 3 * 1280LL * 896 + 1280 * 64)},
    // exaone4_5.py → exaone4.py: layer_types (LLLG), sliding layers 4096 tokens, 8 KV heads × 5120 / 40.
    {"exaone-4.5-33b.json", 16, 48, 0, 0, 16LL * 8 * 256 * 2, 48LL * 8 * 256 * 2, 4096,
     dense(64, 5120, 153600, gqa(5120, 40, 8, 128), 3 * 5120LL * 27392, false)},
    // gemma4.py Gemma4ForConditionalGeneration → text_config (a trimmed fixture without layer_types): transformers
    // Gemma4TextConfig makes every 6th layer and the last full (5, 11, 17, 23, 29, 34), the rest slide over 512
    // tokens; num_kv_shared_layers 20 → layers 15..34 reuse earlier K/V and cache nothing (Gemma4 KV sharing), so
    // 2 full (1 KV head × global_head_dim 512, popped default) + 13 sliding (1 × 256) keep a cache. Parameters:
    // param_count_test.cpp; the per-layer embeddings are not in this table's simple sum.
    {"gemma-4-e2b.json", 2, 13, 0, 20, 2LL * 1 * 1024 * 2, 13LL * 1 * 512 * 2, 512, 0},
    // falcon.py FalconAttention (new_decoder_architecture: num_kv_heads 8, head 8192 / 128 = 64), FalconMLP 4h
    // up + down, lm_head tied (FalconForCausalLM).
    {"falcon-40b.json", 60, 0, 0, 0, 60LL * 8 * 128 * 2, 0, 0, dense(60, 8192, 65024, gqa(8192, 128, 8, 64), 8 * 8192LL * 8192, true)},
    // gemma.py GemmaForCausalLM: MHA 16 × 256, GeGLU 24576, tied.
    {"gemma-7b.json", 28, 0, 0, 0, 28LL * 16 * 512 * 2, 0, 0, dense(28, 3072, 256000, gqa(3072, 16, 16, 256), 3 * 3072LL * 24576, true)},
    // gpt_j.py GPTJForCausalLM: 16 heads × 256, fc_in / fc_out 4 × n_embd (n_inner null), lm_head untied. The 8-bit
    // re-publication has no quantization_config vLLM reads: float32 → run as bf16.
    {"gpt-j-6b-8bit.json", 28, 0, 0, 0, 28LL * 16 * 512 * 2, 0, 0, dense(28, 4096, 50400, 4 * 4096LL * 4096, 8 * 4096LL * 4096, false)},
    // granite.py GraniteForCausalLM: 8 KV heads × 128, gated 12800, tied.
    {"granite-3.3-8b-instruct.json", 40, 0, 0, 0, 40LL * 8 * 256 * 2, 0, 0,
     dense(40, 4096, 49159, gqa(4096, 32, 8, 128), 3 * 4096LL * 12800, true)},
    // granitemoehybrid.py: layer_types all "attention", num_local_experts 0 → shared_mlp only (input_linear 2 × 12800).
    {"granite-4-8b-dense-hybrid.json", 40, 0, 0, 0, 40LL * 8 * 256 * 2, 0, 0,
     dense(40, 4096, 100352, gqa(4096, 32, 8, 128), 3 * 4096LL * 12800, true)},
    // hunyuan_v1.py HunYuanMoEV1ForCausalLM: moe_topk / moe_intermediate_size / num_shared_expert read at [layer_id];
    // 64 experts + 1 shared × 3072, router, tied.
    {"hunyuan-a13b.json", 32, 0, 0, 0, 32LL * 8 * 256 * 2, 0, 0,
     dense(32, 4096, 128167, gqa(4096, 32, 8, 128), 65 * 3 * 4096LL * 3072 + 4096 * 64, true)},
    // internlm2.py InternLM2ForCausalLM: wqkv 32 / 8 × 128, gated 14336, output untied.
    {"internlm2_5-7b-chat.json", 32, 0, 0, 0, 32LL * 8 * 256 * 2, 0, 0,
     dense(32, 4096, 92544, gqa(4096, 32, 8, 128), 3 * 4096LL * 14336, false)},
    // jamba.py JambaForCausalLM: attention where i % 8 == 4, Mamba-1 elsewhere (d_inner 8192, d_state 16, dt_rank 256,
    // conv 4); JambaMoE (16 experts) where i % expert_layer_period 2 == 1, a dense JambaMLP on the other 16 layers.
    {"jamba-v0.1.json", 4, 0, 28, 0, 4LL * 8 * 256 * 2, 0, 0,
     65536LL * 4096 * 2 + 4 * gqa(4096, 32, 8, 128) +
         28 * (4096LL * 2 * 8192 + 8192 * 4 + 8192LL * (256 + 32) + 256LL * 8192 + 8192 * 16 + 8192LL * 4096) +
         16 * (16 * 3 * 4096LL * 14336 + 4096 * 16) + 16 * 3 * 4096LL * 14336},
    // mllama.py (vLLM ≤ 0.10.2, V0): CacheEngine gives all 40 layers a K/V slot per token (cross-attention layers
    // included); embed_tokens vocab + 8. Removed after 0.10.2 (registry.py _PREVIOUSLY_SUPPORTED_MODELS): warned.
    {"llama-3.2-11b-vision-instruct.json", 40, 0, 0, 0, 40LL * 8 * 256 * 2, 0, 0,
     (128256 + 8) * 4096LL + 128256 * 4096LL + 40 * (gqa(4096, 32, 8, 128) + 3 * 4096LL * 14336), "", "vllm_removed"},
    // minicpm3.py MiniCPM3Attention: num_attention_heads K/V heads of 64 + 32 = 96 (V padded), MLA-shaped weights
    // q_a 768, q_b 40 × 96, kv_a 256 + 32, kv_b 40 × (64 + 64), o 40 × 64; gated 6400; tied.
    {"minicpm3-4b.json", 62, 0, 0, 0, 62LL * 40 * 192 * 2, 0, 0,
     73448LL * 2560 + 62 * (2560LL * 768 + 768LL * 40 * 96 + 2560LL * 288 + 256LL * 40 * 128 + 40LL * 64 * 2560 +
                            3 * 2560LL * 6400)},
    // minimax_m2.py MiniMaxM2ForCausalLM: 48 / 8 × 128, 256 experts × 1536 + router, untied.
    {"minimax-m2.7.json", 62, 0, 0, 0, 62LL * 8 * 256 * 2, 0, 0,
     dense(62, 3072, 200064, gqa(3072, 48, 8, 128), 256 * 3 * 3072LL * 1536 + 3072 * 256, false)},
    // mpt.py MPTAttention: n_heads 64 of d_model 7168 / 64 = 112, every head cached; MPTMLP expansion_ratio 4 up +
    // down; lm_head = wte (asserted tied).
    {"mpt-30b-chat.json", 48, 0, 0, 0, 48LL * 64 * 224 * 2, 0, 0, dense(48, 7168, 50432, 4 * 7168LL * 7168, 8 * 7168LL * 7168, true)},
    // olmo2.py Olmo2ForCausalLM: MHA 40 × 128, gated 13824, untied (float32 → bf16).
    {"olmo-2-1124-13b.json", 40, 0, 0, 0, 40LL * 40 * 256 * 2, 0, 0, dense(40, 5120, 100352, 4 * 5120LL * 5120, 3 * 5120LL * 13824, false)},
    // olmoe.py OlmoeForCausalLM: MHA 16 × 128, 64 experts × 1024 + router, untied.
    {"olmoe-1b-7b-0924.json", 16, 0, 0, 0, 16LL * 16 * 256 * 2, 0, 0,
     dense(16, 2048, 50304, 4 * 2048LL * 2048, 64 * 3 * 2048LL * 1024 + 2048 * 64, false)},
    // phi.py PhiForCausalLM: MHA 32 × 64, fc1 / fc2 8192, untied.
    {"phi-1.json", 24, 0, 0, 0, 24LL * 32 * 128 * 2, 0, 0, dense(24, 2048, 50295, 4 * 2048LL * 2048, 2 * 2048LL * 8192, false)},
    // phi3v.py → phi3 language model: MHA 32 × 96; sliding_window 131072 = max_position_embeddings never slides.
    {"phi-3-vision-128k-instruct.json", 32, 0, 0, 0, 32LL * 32 * 192 * 2, 0, 0,
     dense(32, 3072, 32064, 4 * 3072LL * 3072, 3 * 3072LL * 8192, false)},
    // qwen.py QWenLMHeadModel: 32 heads × kv_channels 128, QWenMLP(hidden, intermediate_size // 2) gated, untied.
    {"qwen-7b.json", 32, 0, 0, 0, 32LL * 32 * 256 * 2, 0, 0, dense(32, 4096, 151936, 4 * 4096LL * 4096, 3 * 4096LL * 11008, false)},
    // qwen2_moe.py: MHA 16 × 128; 60 experts × 1408, shared expert 5632 + its gate, router; use_sliding_window false.
    {"qwen1.5-moe-a2.7b.json", 24, 0, 0, 0, 24LL * 16 * 256 * 2, 0, 0,
     dense(24, 2048, 151936, 4 * 2048LL * 2048, 60 * 3 * 2048LL * 1408 + 3 * 2048LL * 5632 + 2048 + 2048 * 60, false)},
    // qwen2.py Qwen2ForCausalLM (use_sliding_window false → full attention).
    {"qwen2.5-1.5b-instruct.json", 28, 0, 0, 0, 28LL * 2 * 256 * 2, 0, 0, dense(28, 1536, 151936, gqa(1536, 12, 2, 128), 3 * 1536LL * 8960, true)},
    {"qwen2.5-3b.json", 36, 0, 0, 0, 36LL * 2 * 256 * 2, 0, 0, dense(36, 2048, 151936, gqa(2048, 16, 2, 128), 3 * 2048LL * 11008, true)},
    // qwen3_moe.py Qwen3MoeForCausalLM: 64 / 4 × 128, 128 experts × 1536 + router, untied.
    {"qwen3-235b-a22b-fp8.json", 94, 0, 0, 0, 94LL * 4 * 256 * 2, 0, 0,
     dense(94, 4096, 151936, gqa(4096, 64, 4, 128), 128 * 3 * 4096LL * 1536 + 4096 * 128, false)},
    // qwen3.py Qwen3ForCausalLM.
    {"qwen3-4b-2507.json", 36, 0, 0, 0, 36LL * 8 * 256 * 2, 0, 0, dense(36, 2560, 151936, gqa(2560, 32, 8, 128), 3 * 2560LL * 9728, true)},
    // qwen3_vl_moe.py → Qwen3MoeLLMModel (text_config): 32 / 4 × 128, 128 experts × 768.
    {"qwen3-vl-30b-a3b-instruct.json", 48, 0, 0, 0, 48LL * 4 * 256 * 2, 0, 0,
     dense(48, 2048, 151936, gqa(2048, 32, 4, 128), 128 * 3 * 2048LL * 768 + 2048 * 128, false)},
    // qwen3_vl.py → Qwen3LLMModel (text_config).
    {"qwen3-vl-8b-instruct.json", 36, 0, 0, 0, 36LL * 8 * 256 * 2, 0, 0, dense(36, 4096, 151936, gqa(4096, 32, 8, 128), 3 * 4096LL * 12288, false)},
    // stablelm.py StablelmForCausalLM: MHA 32 × 80, gated 6912, untied.
    {"stablelm-3b-4e1t.json", 32, 0, 0, 0, 32LL * 32 * 160 * 2, 0, 0, dense(32, 2560, 50304, 4 * 2560LL * 2560, 3 * 2560LL * 6912, false)},
    // gpt_bigcode.py GPTBigCodeAttention: multi_query → 1 K/V head of 128; c_fc / c_proj n_inner 24576; wte + wpe
    // (n_positions 8192); lm_head = wte.
    {"starcoder-co-format.json", 40, 0, 0, 0, 40LL * 1 * 256 * 2, 0, 0,
     dense(40, 6144, 49152, gqa(6144, 48, 1, 128), 2 * 6144LL * 24576, true, 8192LL * 6144)},
    // starcoder2.py: Attention gets no per-layer window, so the model-level sliding_window 4096 (cache_config) applies
    // to all 40 layers; c_fc / c_proj 24576; untied (float32 → bf16).
    {"starcoder2-15b.json", 0, 40, 0, 0, 0, 40LL * 4 * 256 * 2, 4096,
     dense(40, 6144, 49152, gqa(6144, 48, 4, 128), 2 * 6144LL * 24576, false)},
    // voxtral.py → llama.py language model (text_config): 32 / 8 × 128 on 3072, gated 8192, untied. The Whisper
    // audio encoder is outside the language model's count.
    {"voxtral-mini-3b-2507.json", 30, 0, 0, 0, 30LL * 8 * 256 * 2, 0, 0, dense(30, 3072, 131072, gqa(3072, 32, 8, 128), 3 * 3072LL * 8192, false)},
    // llama.py (XverseForCausalLM → LlamaForCausalLM): MHA 32 × 128, gated 11008, untied.
    {"xverse-7b.json", 32, 0, 0, 0, 32LL * 32 * 256 * 2, 0, 0, dense(32, 4096, 100534, 4 * 4096LL * 4096, 3 * 4096LL * 11008, false)},
};
// clang-format on

struct Typed {
    int full = 0, sliding = 0, recurrent = 0, none = 0;
    i64 full_bytes = 0, sliding_bytes = 0, window = 0;
};

Typed type_of(const HfConfig& c) {
    Typed t;
    for (const auto& l : c.spec.layers) {
        if (const auto* f = std::get_if<FullAttention>(&l)) {
            ++t.full;
            t.full_bytes += i64{f->num_key_value_heads} * (f->head_dim_k + f->head_dim_v) * 2;
        } else if (const auto* s = std::get_if<SlidingWindow>(&l)) {
            ++t.sliding;
            t.sliding_bytes += i64{s->num_key_value_heads} * (s->head_dim_k + s->head_dim_v) * 2;
            t.window = s->sliding_window;
        } else if (std::holds_alternative<RecurrentState>(l)) {
            ++t.recurrent;
        } else {
            ++t.none;  // NoCache (Gemma 4's KV-shared layers); no other kind appears among these 38 files
        }
    }
    return t;
}

bool has_code(const HfConfig& c, const std::string& code, Severity severity) {
    for (const auto& d : c.diagnostics)
        if (d.code == code && d.severity == severity) return true;
    return false;
}

}  // namespace

TEST_CASE("config-examples-2: every file typed and priced as vLLM builds it") {
    int right = 0;
    for (const Row& r : kRows) {
        CAPTURE(r.file);
        const HfConfig c = read_hf_config(test::config_file(r.file));
        if (*r.error) {
            CHECK(has_code(c, r.error, Severity::error));
            ++right;
            continue;
        }
        for (const auto& d : c.diagnostics) {
            INFO(d.field, ": ", d.message);
            CHECK(d.severity != Severity::error);
        }
        if (*r.warning) CHECK(has_code(c, r.warning, Severity::warning));
        const Typed t = type_of(c);
        CHECK(t.full == r.full);
        CHECK(t.sliding == r.sliding);
        CHECK(t.recurrent == r.recurrent);
        CHECK(t.none == r.none);
        CHECK(t.full_bytes == r.full_bytes_per_token);
        CHECK(t.sliding_bytes == r.sliding_bytes_per_token);
        if (r.sliding > 0) CHECK(t.window == r.window);
        const i64 p = count_parameters(c.spec, c.arch).total();
        // Biases, norms and routers' biases are left out of the expected sums: within 0.1%.
        if (r.params > 0) CHECK(static_cast<double>(p) == doctest::Approx(static_cast<double>(r.params)).epsilon(0.001));
        right += t.full == r.full && t.sliding == r.sliding && t.full_bytes == r.full_bytes_per_token &&
                 t.sliding_bytes == r.sliding_bytes_per_token;
    }
    CHECK(sizeof(kRows) / sizeof(kRows[0]) == 38);
    MESSAGE(right, " of 38 rows typed right");
}

TEST_CASE("config-examples-2: float32 checkpoints priced as the bfloat16 vLLM runs") {
    // vllm/config/model.py _get_and_verify_dtype: dtype auto turns a float32 config into bfloat16 (float16 before
    // 0.10.1); the weights vLLM holds are then 2 bytes each. OLMo-2-13B: torch_dtype float32.
    const HfConfig c = read_hf_config(test::config_file("olmo-2-1124-13b.json"));
    const ParamBreakdown p = count_parameters(c.spec, c.arch);
    const WeightsEstimate w = estimate_weights(p, c.arch, "auto");
    CHECK(static_cast<double>(w.bytes) == doctest::Approx(2.0 * static_cast<double>(p.total())).epsilon(0.001));
    CHECK(estimate_weights(p, c.arch, "fp32").bytes == doctest::Approx(4.0 * static_cast<double>(p.total())));
}

TEST_CASE("config-examples-2: Mamba states of Bamba (Mamba-2) and Jamba (Mamba-1), vLLM mamba_utils shapes") {
    // MambaStateShapeCalculator.mamba2_state_shape: conv (d_conv − 1) × (intermediate + 2·n_groups·d_state),
    // temporal heads × head_dim × d_state. mamba1_state_shape: conv (d_conv − 1) × intermediate, temporal
    // intermediate × d_state (intermediate = mamba_expand × hidden).
    const HfConfig bamba = read_hf_config(test::config_file("bamba-9b.json"));
    const auto& b = std::get<RecurrentState>(bamba.spec.layers[0]);
    CHECK(b.conv_elements == 3LL * (128 * 64 + 2 * 1 * 128));
    CHECK(b.state_elements == 128LL * 64 * 128);
    const HfConfig jamba = read_hf_config(test::config_file("jamba-v0.1.json"));
    const auto& j = std::get<RecurrentState>(jamba.spec.layers[0]);
    CHECK(j.conv_elements == 3LL * 2 * 4096);
    CHECK(j.state_elements == 2LL * 4096 * 16);
    CHECK(std::holds_alternative<FullAttention>(jamba.spec.layers[4]));
}

TEST_CASE("config-examples-2: vision and audio towers vLLM loads beside the language model") {
    // Published totals (the Hub's safetensors parameter counts): Voxtral-Mini-3B-2507 4.68B (Whisper encoder +
    // adapter, voxtral.py), Phi-3-vision-128k-instruct 4.15B (CLIP ViT-L/14-336 named by img_processor, phi3v.py),
    // DeepSeek-VL2-tiny 3.37B (SigLIP so400m: vision_config layers / width / mlp_ratio, deepseek_vl2.py).
    struct Case {
        const char* file;
        double published;
    };
    for (const Case& k : {Case{"voxtral-mini-3b-2507.json", 4.68e9}, Case{"phi-3-vision-128k-instruct.json", 4.15e9},
                          Case{"deepseek-vl2-tiny.json", 3.37e9}}) {
        CAPTURE(k.file);
        const std::string text = test::config_file(k.file);
        const HfConfig c = read_hf_config(text);
        const double total = static_cast<double>(count_parameters(c.spec, c.arch).total()) +
                             static_cast<double>(encoder_parameters(text));
        CHECK(total == doctest::Approx(k.published).epsilon(0.015));
    }
}
