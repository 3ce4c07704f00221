// The seed models as data. Facts: docs/SOURCES.md "Model facts" (the original's model table and architecture
// notes, club-3090 profiles @4a29ab57). Sizes are decimal GB as published.
#include <string>
#include <vector>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/model/layer_cache.h"

namespace kvcalc {

namespace {

// Layer i (0-based) is `every` when (i + 1) is a multiple of `period`, otherwise `other`:
// Qwen 3.6 full_attention_interval 4 → 3, 7, 11, ...; Gemma 4 "5 sliding then 1 global" → 5, 11, 17, ...
std::vector<LayerCache> periodic_layers(int count, int period, const LayerCache& every, const LayerCache& other) {
    std::vector<LayerCache> out;
    out.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) out.push_back((i + 1) % period == 0 ? every : other);
    return out;
}

WeightsVariant weights(std::string id, double gb, std::string repo, std::vector<std::string> aliases, std::string source) {
    return WeightsVariant{std::move(id), gb, std::move(repo), std::move(aliases), std::move(source), {}, {}};
}

Drafter drafter(std::string id, std::string method, double gb, int n, int extra_tokens, std::string source) {
    return Drafter{std::move(id), std::move(method), gb, n, extra_tokens, std::move(source)};
}

const char* const kQwen27 = "reference/models.json qwen3.6-27b (scripts/lib/profiles/models/qwen3.6-27b.yml)";
const char* const kQwen35 = "reference/models.json qwen3.6-35b-a3b; seed 000 §Qwen 3.6 35B-A3B (config.json 2026-05-15)";
const char* const kGemma31 = "reference/models.json gemma-4-31b; seed 000 §Gemma 4 31B (config.json text_config)";
const char* const kGemma26 = "reference/models.json gemma-4-26b-a4b; seed 000 §Gemma 4 26B-A4B (config.json 2026-05-15)";
/// The real config.json files behind the Gemma 4 layer facts (tests/data/checkpoints/gemma-4-31b/config.json and
/// tests/data/configs/gemma-4-26b-a4b.json, text_config).
const std::string kGemma31Config = "google/gemma-4-31B-it config.json text_config";
const std::string kGemma26Config = "google/gemma-4-26B-A4B-it config.json text_config";
const char* const kGemma12 = "reference/models.json gemma-4-12b (scripts/lib/profiles/models/gemma-4-12b.yml)";

// The identity and size facts every catalog entry starts from.
ModelSpec base_spec(std::string id, std::string name, const char* family, int hidden_size, int layers, int heads,
                    const char* source) {
    ModelSpec m;
    m.id = std::move(id);
    m.display_name = std::move(name);
    m.family = family;
    m.hidden_size = hidden_size;
    m.num_hidden_layers = layers;
    m.num_attention_heads = heads;
    m.max_position_embeddings = 262144;  // every seed model (docs/SOURCES.md "Model facts" max_ctx_supported)
    m.source = source;
    return m;
}

// Shape of one Qwen3-Next hybrid: every 4th layer full attention (head_dim 256, K and V separate), the rest
// Gated DeltaNet with 16 key heads of 128, `v_heads` value heads of 128 and a 4-tap convolution.
struct QwenNextShape {
    const char* family;
    int hidden_size, num_hidden_layers, num_attention_heads, num_key_value_heads, linear_num_value_heads;
};

ModelSpec qwen_next(std::string id, std::string name, const QwenNextShape& q, const char* source) {
    ModelSpec m = base_spec(std::move(id), std::move(name), q.family, q.hidden_size, q.num_hidden_layers,
                            q.num_attention_heads, source);
    m.model_type = "qwen3_5_text";  // the text model of Qwen 3.5 / 3.6 (Qwen3_5ForConditionalGeneration)
    m.linear_num_key_heads = 16;
    m.linear_num_value_heads = q.linear_num_value_heads;
    m.linear_key_head_dim = 128;
    m.linear_value_head_dim = 128;
    m.linear_conv_kernel_dim = 4;
    m.layers = periodic_layers(q.num_hidden_layers, 4, FullAttention{q.num_key_value_heads, 256, 256, 0},
                               gated_deltanet_state(16, q.linear_num_value_heads, 128, 128, 4));
    const std::string kv = std::to_string(q.num_key_value_heads), vh = std::to_string(q.linear_num_value_heads);
    m.provenance = {{"layers", "full_attention every 4th layer (3, 7, …), the rest Gated DeltaNet: " + std::string(source)},
                    {"num_key_value_heads", kv + ", head_dim 256, K and V: " + source},
                    {"linear_attention", "16 k-heads, " + vh + " v-heads, dims 128, conv 4: " + source},
                    {"recurrent_state", "k_dim×v_dim fp32 per value head + bf16 conv over 2·key_dim+value_dim "
                                        "(vLLM gated_delta_net state shapes; docs/SOURCES.md quirk 17)"},
                    {"max_position_embeddings", std::string("262144: ") + source}};
    return m;
}

// Qwen3-Next MoE body shared by qwen3.6-35b-a3b and its fine-tunes (agents-a1, AgentWorld): 40 layers,
// 2 KV heads, 32 value heads, 256 experts × 8 active (docs/SOURCES.md "Model facts").
ModelSpec qwen_next_moe_body(std::string id, std::string name, const char* source) {
    ModelSpec m = qwen_next(std::move(id), std::move(name), {"qwen3-next-moe", 2048, 40, 16, 2, 32}, source);
    m.model_type = "qwen3_5_moe_text";
    m.num_experts = 256;
    m.num_experts_per_tok = 8;
    return m;
}

// Shape of one Gemma 4: every 6th layer global (head_dim 512), the rest sliding (head_dim 256, window 1024). With
// attention_k_eq_v the global layers hold no v_proj (K is reused as V) and the sliding ones do (vLLM gemma4.py
// Gemma4DecoderLayer: use_k_eq_v = is_full_attention and attention_k_eq_v); every layer caches K and V
// (docs/SOURCES.md "Model facts").
struct GemmaShape {
    const char* family;
    int hidden_size, num_hidden_layers, num_attention_heads, global_kv_heads, sliding_kv_heads;
};

ModelSpec gemma4(std::string id, std::string name, const GemmaShape& g, const char* source) {
    ModelSpec m = base_spec(std::move(id), std::move(name), g.family, g.hidden_size, g.num_hidden_layers,
                            g.num_attention_heads, source);
    m.model_type = "gemma4_text";  // llama.cpp builds its iSWA cache for it (model_traits.h)
    m.layers = periodic_layers(g.num_hidden_layers, 6, FullAttention{g.global_kv_heads, 512, 512, 1},
                               SlidingWindow{g.sliding_kv_heads, 256, 256, 0, 1024});
    return m;
}

std::vector<ModelSpec> build() {
    std::vector<ModelSpec> out;

    {  // Qwen 3.6 27B: 16 full attention + 48 Gated DeltaNet.
        // 64 layers, 24 heads, 4 KV heads, 48 value heads (docs/SOURCES.md "Model facts").
        ModelSpec m = qwen_next("qwen3.6-27b", "Qwen 3.6 27B", {"qwen3-next-hybrid", 5120, 64, 24, 4, 48}, kQwen27);
        m.weights = {weights("autoround-int4", 17.5, "Lorbus/Qwen3.6-27B-int4-AutoRound", {"default", "int4"}, kQwen27),
                     weights("awq", 17.0, "cyankiwi/Qwen3.6-27B-AWQ-INT4", {}, kQwen27),
                     weights("fp8", 29.0, "Qwen/Qwen3.6-27B-FP8", {}, kQwen27),
                     weights("nvfp4", 22.0, "nvidia/Qwen3.6-27B-NVFP4", {}, kQwen27),
                     weights("awq-bf16-int4", 27.0, "cyankiwi/Qwen3.6-27B-AWQ-BF16-INT4", {}, kQwen27)};
        m.drafters = {drafter("qwen-mtp-builtin", "mtp", 0.0, 3, 32,
                              "drafters/qwen-mtp-builtin.yml (0 GB, n 3); 32 KV positions per draft token: seed 003"),
                      drafter("zlab-qwen-dflash", "dflash", 1.75, 7, 0,
                              "z-lab/Qwen3.6-27B-DFlash, 1.75 GB fp16: seed 000 §Qwen 27B 6, seed 003")};
        m.calibrated = true;
        m.provenance.push_back({"weights", kQwen27});
        out.push_back(std::move(m));
    }
    {  // Qwen 3.6 35B-A3B (MoE).
        ModelSpec m = qwen_next_moe_body("qwen3.6-35b-a3b", "Qwen 3.6 35B-A3B (MoE)", kQwen35);
        m.weights = {weights("autoround-int4", 20.0, "", {"default", "int4"}, kQwen35),
                     weights("gptq_int4", 22.0, "", {"gptq"}, kQwen35),
                     weights("nvfp4", 24.0, "", {}, kQwen35),
                     weights("nvfp4-fast", 24.0, "", {}, kQwen35),
                     weights("bf16", 70.0, "", {}, "seed 000 §35B-A3B weights table (~70 GB, unquantized)")};
        // Built-in MTP head: no separate weights, but 0.10 GB of MTP workspace on the MoE (the original's
        // qwen_moe_builtin_mtp_workspace_gb, kv-calc.py @4a29ab57), sharded with the drafter.
        m.drafters = {drafter("qwen-mtp-builtin", "mtp", 0.10, 3, 32,
                              "mtp_num_hidden_layers 1 (seed 000); 0.10 GB workspace: constants.json")};
        m.calibrated = false;  // one measured boot (docs/SOURCES.md "Calibration rows"); calibrated needs at least 4
        out.push_back(std::move(m));
    }
    {  // Gemma 4 31B: 50 sliding (window 1024, 16 KV heads) + 10 global (4 KV heads, no v_proj).
        ModelSpec m = gemma4("gemma-4-31b", "Gemma 4 31B", {"gemma4-swa-dense", 5376, 60, 32, 4, 16}, kGemma31);
        m.weights = {weights("autoround-int4", 18.0, "", {"default", "int4"}, kGemma31),
                     weights("awq", 17.0, "cyankiwi/gemma-4-31B-it-AWQ-4bit", {}, kGemma31),
                     weights("qat-w4a16", 22.0, "", {}, kGemma31),
                     weights("google-qat-w4a16", 22.0, "", {}, kGemma31),
                     weights("qat-awq-int4", 20.0, "", {}, kGemma31),
                     weights("bf16", 58.0, "", {}, kGemma31)};
        m.drafters = {drafter("gemma-it-assistant", "mtp_assistant", 0.97, 4, 0,
                              "gemma-4-31b-it-assistant 0.97 GB fp16: seed 000 §Gemma 31B 6"),
                      drafter("zlab-gemma-dflash", "dflash", 2.9, 0, 0,
                              "z-lab gemma-4-31b-it-dflash 2.9 GB fp16: seed 000 §Gemma 31B 6")};
        m.calibrated = true;
        m.provenance = {{"layers", "[sliding ×5, full ×1] ×10: seed 000 §Gemma 4 31B"},
                        {"num_key_value_heads", "16 sliding (num_key_value_heads, head_dim 256) / 4 global "
                                                "(num_global_key_value_heads, global_head_dim 512): " + kGemma31Config},
                        {"attention_k_eq_v", "true: the global layers hold no v_proj; every layer caches K and V "
                                             "(vLLM gemma4.py Gemma4Attention): " + kGemma31Config},
                        {"sliding_window", std::string("1024: ") + kGemma31Config},
                        {"weights", kGemma31}};
        out.push_back(std::move(m));
    }
    {  // Gemma 4 26B-A4B (MoE): 25 sliding (8 KV heads) + 5 global (2 KV heads).
        ModelSpec m = gemma4("gemma-4-26b-a4b", "Gemma 4 26B-A4B (MoE)", {"gemma4-swa-moe", 2816, 30, 16, 2, 8}, kGemma26);
        m.num_experts = 128;
        m.num_experts_per_tok = 8;
        m.weights = {weights("awq", 17.0, "", {"default"}, kGemma26),
                     weights("autoround-int4-mixed", 16.0, "", {"int4"}, kGemma26),
                     weights("bf16", 52.0, "", {}, "seed 000 §26B-A4B weights table (~52 GB, unquantized)")};
        m.drafters = {drafter("gemma-26b-it-assistant", "mtp_assistant", 0.97, 4, 0,
                              "drafters/gemma-26b-it-assistant.yml 0.97 GB: reference/models.json")};
        m.calibrated = false;
        m.provenance = {{"layers", "full_attention at 5, 11, 17, 23, 29 (layer_types): seed 000"},
                        {"num_key_value_heads", "8 sliding (num_key_value_heads) / 2 global "
                                                "(num_global_key_value_heads): " + kGemma26Config},
                        {"attention_k_eq_v", "true: the global layers hold no v_proj; every layer caches K and V "
                                             "(vLLM gemma4.py Gemma4Attention): " + kGemma26Config},
                        {"weights", kGemma26}};
        out.push_back(std::move(m));
    }
    {
        ModelSpec m = qwen_next_moe_body("agents-a1", "Agents-A1 (InternScience 35B agentic MoE)",
                                         "reference/models.json agents-a1 (scripts/lib/profiles/models/agents-a1.yml)");
        m.weights = {weights("fp8-dynamic", 36.0, "", {"default"}, m.source)};
        m.calibrated = false;  // no measured anchor; no MTP head (mtp_num_hidden_layers 0)
        out.push_back(std::move(m));
    }
    {
        ModelSpec m = qwen_next_moe_body("qwen-agentworld-35b-a3b", "Qwen-AgentWorld 35B-A3B (language world model)",
                                         "reference/models.json qwen-agentworld-35b-a3b");
        m.weights = {weights("cyankiwi-awq-int4", 23.52, "", {"default", "int4", "awq"}, m.source)};
        m.calibrated = false;  // one measured anchor; no MTP head
        out.push_back(std::move(m));
    }
    {  // Gemma 4 12B: 40 sliding (8 KV heads) + 8 global (1 KV head, no v_proj).
        ModelSpec m = gemma4("gemma-4-12b", "Gemma 4 12B", {"gemma4-swa-dense", 3840, 48, 16, 1, 8}, kGemma12);
        // 8.16 GiB of KV for 384,019 tokens at TP=2 bf16 → 22,816 B per token per card → 45,632 B at TP=1.
        m.measured_kv_growing_bytes_per_token_tp1_bf16 = 45632;
        m.weights = {weights("bf16", 23.9, "", {"default"}, kGemma12),
                     weights("autoround-int8", 13.0, "", {"int8"}, kGemma12),
                     weights("qat-w4a16", 9.6, "", {"int4"}, kGemma12)};
        m.drafters = {drafter("gemma-12b-it-assistant", "mtp_assistant", 0.85, 4, 0,
                              "drafters/gemma-12b-it-assistant.yml 0.85 GB: reference/models.json")};
        m.calibrated = false;  // its single anchor is circular (docs/SOURCES.md quirk 25)
        m.provenance = {{"layers", "8 global + 40 sliding (every 6th global): reference/models.json layer_split"},
                        {"num_global_key_value_heads", "1: the KV buffers of a llama.cpp and a vLLM boot of this model "
                                                       "(docs/SOURCES.md \"Model facts\", Gemma 4 12B)"},
                        {"kv_growing", "measured 45,632 B/token bf16 TP1 (boot log: 8.16 GiB / 384,019 tokens, TP2) "
                                       "replaces the layer formula: reference/models.json measured_overrides"},
                        {"weights", kGemma12}};
        out.push_back(std::move(m));
    }
    return out;
}

}  // namespace

const std::vector<ModelSpec>& seed_models() {
    static const std::vector<ModelSpec> models = build();
    return models;
}

}  // namespace kvcalc
