// The seed models as data. Facts: seed 000 (architecture tables, per-model sections) and
// reference/models.json (club-3090 profiles @4a29ab57). Sizes are decimal GB as published.
#include <string>
#include <vector>

#include "kvcalc/catalog.h"
#include "kvcalc/layer_cache.h"

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
    return WeightsVariant{std::move(id), gb, std::move(repo), std::move(aliases), std::move(source)};
}

Drafter drafter(std::string id, std::string method, double gb, int n, int extra_tokens, std::string source) {
    return Drafter{std::move(id), std::move(method), gb, n, extra_tokens, std::move(source)};
}

const char* const kQwen27 = "reference/models.json qwen3.6-27b (scripts/lib/profiles/models/qwen3.6-27b.yml)";
const char* const kQwen35 = "reference/models.json qwen3.6-35b-a3b; seed 000 §Qwen 3.6 35B-A3B (config.json 2026-05-15)";
const char* const kGemma31 = "reference/models.json gemma-4-31b; seed 000 §Gemma 4 31B (config.json text_config)";
const char* const kGemma26 = "reference/models.json gemma-4-26b-a4b; seed 000 §Gemma 4 26B-A4B (config.json 2026-05-15)";
const char* const kGemma12 = "reference/models.json gemma-4-12b (scripts/lib/profiles/models/gemma-4-12b.yml)";

// Qwen3-Next MoE body shared by qwen3.6-35b-a3b and its fine-tunes (agents-a1, AgentWorld).
ModelSpec qwen_next_moe_body(std::string id, std::string name, const char* source) {
    ModelSpec m;
    m.id = std::move(id);
    m.display_name = std::move(name);
    m.family = "qwen3-next-moe";
    m.hidden_size = 2048;
    m.num_hidden_layers = 40;
    m.num_attention_heads = 16;
    m.linear_num_key_heads = 16;
    m.linear_num_value_heads = 32;
    m.linear_key_head_dim = 128;
    m.linear_value_head_dim = 128;
    m.linear_conv_kernel_dim = 4;
    m.layers = periodic_layers(40, 4, FullAttention{2, 256, 256, 2}, gated_deltanet_state(16, 32, 128, 128, 4));
    m.num_experts = 256;
    m.num_experts_per_tok = 8;
    m.max_position_embeddings = 262144;
    m.source = source;
    m.provenance = {{"layers", std::string("10 full_attention at 3,7,…,39 + 30 Gated DeltaNet: ") + source},
                    {"num_key_value_heads", std::string("2 (k_v_tensors 2): ") + source},
                    {"linear_attention", std::string("16 k-heads, 32 v-heads, dims 128, conv 4: ") + source},
                    {"recurrent_state", "k_dim×v_dim fp32 per value head + bf16 conv over 2·key_dim+value_dim "
                                        "(vLLM gated_delta_net state shapes; reference quirk 17)"},
                    {"max_position_embeddings", std::string("262144: ") + source}};
    return m;
}

std::vector<ModelSpec> build() {
    std::vector<ModelSpec> out;

    {  // Qwen 3.6 27B: 16 full attention + 48 Gated DeltaNet.
        ModelSpec m;
        m.id = "qwen3.6-27b";
        m.display_name = "Qwen 3.6 27B";
        m.family = "qwen3-next-hybrid";
        m.hidden_size = 5120;
        m.num_hidden_layers = 64;
        m.num_attention_heads = 24;
        m.linear_num_key_heads = 16;
        m.linear_num_value_heads = 48;
        m.linear_key_head_dim = 128;
        m.linear_value_head_dim = 128;
        m.linear_conv_kernel_dim = 4;
        m.layers = periodic_layers(64, 4, FullAttention{4, 256, 256, 2}, gated_deltanet_state(16, 48, 128, 128, 4));
        m.max_position_embeddings = 262144;
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
        m.source = kQwen27;
        m.provenance = {{"layers", "16 full_attention (every 4th) + 48 Gated DeltaNet: seed 000 architecture table"},
                        {"num_key_value_heads", "4, head_dim 256, k_v_tensors 2: seed 000 §Qwen 27B 2"},
                        {"linear_attention", "16 k-heads, 48 v-heads, dims 128, conv 4: seed 003 QWEN36_27B"},
                        {"recurrent_state", "k_dim×v_dim fp32 per value head + bf16 conv over 2·key_dim+value_dim "
                                            "(vLLM gated_delta_net state shapes; reference quirk 17)"},
                        {"weights", kQwen27}};
        out.push_back(std::move(m));
    }
    {  // Qwen 3.6 35B-A3B (MoE).
        ModelSpec m = qwen_next_moe_body("qwen3.6-35b-a3b", "Qwen 3.6 35B-A3B (MoE)", kQwen35);
        m.weights = {weights("autoround-int4", 20.0, "", {"default", "int4"}, kQwen35),
                     weights("gptq_int4", 22.0, "", {"gptq"}, kQwen35),
                     weights("nvfp4", 24.0, "", {}, kQwen35),
                     weights("nvfp4-fast", 24.0, "", {}, kQwen35),
                     weights("bf16", 70.0, "", {}, "seed 000 §35B-A3B weights table (~70 GB, unquantized)")};
        // Built-in MTP head: no separate weights, but 0.10 GB of MTP workspace on the MoE (constants.json
        // qwen_moe_builtin_mtp_workspace_gb), sharded with the drafter.
        m.drafters = {drafter("qwen-mtp-builtin", "mtp", 0.10, 3, 32,
                              "mtp_num_hidden_layers 1 (seed 000); 0.10 GB workspace: constants.json")};
        m.calibrated = false;  // one measured anchor (reference calibration.json); seed 000 asks for ≥ 4
        out.push_back(std::move(m));
    }
    {  // Gemma 4 31B: 50 sliding (window 1024) + 10 global, K = V tied.
        ModelSpec m;
        m.id = "gemma-4-31b";
        m.display_name = "Gemma 4 31B";
        m.family = "gemma4-swa-dense";
        m.hidden_size = 5376;
        m.num_hidden_layers = 60;
        m.num_attention_heads = 32;
        m.layers = periodic_layers(60, 6, FullAttention{16, 512, 512, 1}, SlidingWindow{16, 256, 256, 1, 1024});
        m.max_position_embeddings = 262144;
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
        m.source = kGemma31;
        m.provenance = {{"layers", "[sliding ×5, full ×1] ×10: seed 000 §Gemma 4 31B"},
                        {"num_key_value_heads", "16 on both layer types; head_dim 256 sliding / 512 global: seed 000"},
                        {"k_v_tensors", "1 (attention_k_eq_v: true, confirmed against boot-log KV size): seed 000"},
                        {"sliding_window", "1024: seed 000"},
                        {"weights", kGemma31}};
        out.push_back(std::move(m));
    }
    {  // Gemma 4 26B-A4B (MoE): 25 sliding (8 KV heads) + 5 global (2 KV heads).
        ModelSpec m;
        m.id = "gemma-4-26b-a4b";
        m.display_name = "Gemma 4 26B-A4B (MoE)";
        m.family = "gemma4-swa-moe";
        m.hidden_size = 2816;
        m.num_hidden_layers = 30;
        m.num_attention_heads = 16;
        m.layers = periodic_layers(30, 6, FullAttention{2, 512, 512, 1}, SlidingWindow{8, 256, 256, 1, 1024});
        m.num_experts = 128;
        m.num_experts_per_tok = 8;
        m.max_position_embeddings = 262144;
        m.weights = {weights("awq", 17.0, "", {"default"}, kGemma26),
                     weights("autoround-int4-mixed", 16.0, "", {"int4"}, kGemma26),
                     weights("bf16", 52.0, "", {}, "seed 000 §26B-A4B weights table (~52 GB, unquantized)")};
        m.drafters = {drafter("gemma-26b-it-assistant", "mtp_assistant", 0.97, 4, 0,
                              "drafters/gemma-26b-it-assistant.yml 0.97 GB: reference/models.json")};
        m.calibrated = false;
        m.source = kGemma26;
        m.provenance = {{"layers", "full_attention at 5, 11, 17, 23, 29 (layer_types): seed 000"},
                        {"num_key_value_heads", "8 sliding / 2 global (num_global_key_value_heads): seed 000"},
                        {"k_v_tensors", "1 (attention_k_eq_v: true): seed 000"},
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
    {  // Gemma 4 12B: 40 sliding + 8 global; growing KV from a measured boot.
        ModelSpec m;
        m.id = "gemma-4-12b";
        m.display_name = "Gemma 4 12B";
        m.family = "gemma4-swa-dense";
        m.hidden_size = 3840;
        m.num_hidden_layers = 48;
        m.num_attention_heads = 16;
        m.layers = periodic_layers(48, 6, FullAttention{8, 512, 512, 1}, SlidingWindow{8, 256, 256, 1, 1024});
        m.max_position_embeddings = 262144;
        // 8.16 GiB of KV for 384,019 tokens at TP=2 bf16 → 22,816 B per token per card → 45,632 B at TP=1.
        m.measured_kv_growing_bytes_per_token_tp1_bf16 = 45632;
        m.weights = {weights("bf16", 23.9, "", {"default"}, kGemma12),
                     weights("autoround-int8", 13.0, "", {"int8"}, kGemma12),
                     weights("qat-w4a16", 9.6, "", {"int4"}, kGemma12)};
        m.drafters = {drafter("gemma-12b-it-assistant", "mtp_assistant", 0.85, 4, 0,
                              "drafters/gemma-12b-it-assistant.yml 0.85 GB: reference/models.json")};
        m.calibrated = false;  // its single anchor is circular (reference quirk 25)
        m.source = kGemma12;
        m.provenance = {{"layers", "8 global + 40 sliding (every 6th global): reference/models.json layer_split"},
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
