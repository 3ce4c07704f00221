// Architectures whose keys sit in nested objects, per-layer lists or index lists (tests/data/configs, SOURCES.tsv):
// the layers vLLM builds and the K/V bytes per token it caches at TP 1 in bf16, derived from each vLLM model file.
#include <doctest/doctest.h>

#include <string>
#include <variant>

#include "kvcalc/config/hf_config.h"
#include "test_data.h"

using namespace kvcalc;

namespace {

struct Typed {
    int attention = 0, mamba = 0, other = 0;
    std::int64_t kv_bytes_per_token = 0;  ///< K + V over the full-attention layers, 2 bytes per value
};

Typed typed(const std::string& file) {
    const HfConfig c = read_hf_config(test::config_file(file));
    for (const auto& d : c.diagnostics) {
        INFO(d.field, ": ", d.message);
        CHECK(d.severity != Severity::error);
    }
    Typed t;
    for (const auto& l : c.spec.layers) {
        if (const auto* f = std::get_if<FullAttention>(&l)) {
            ++t.attention;
            t.kv_bytes_per_token += std::int64_t{f->num_key_value_heads} * (f->head_dim_k + f->head_dim_v) * 2;
        } else if (std::holds_alternative<RecurrentState>(l)) {
            ++t.mamba;
        } else {
            ++t.other;
        }
    }
    return t;
}

}  // namespace

TEST_CASE("Bamba: only attn_layer_indices are attention, the rest Mamba-2 (bamba.py BambaModel)") {
    const Typed t = typed("bamba-9b.json");
    CHECK(t.attention == 3);  // layers 9, 18, 27
    CHECK(t.mamba == 29);
    CHECK(t.kv_bytes_per_token == 3LL * 8 * (128 + 128) * 2);  // 8 KV heads of 4096 / 32
}

TEST_CASE("DBRX: attn_config.kv_n_heads K/V heads, ffn_config experts (dbrx.py DbrxAttention, DbrxExperts)") {
    const HfConfig c = read_hf_config(test::config_file("dbrx-instruct.json"));
    CHECK(c.spec.num_experts == 16);
    CHECK(c.spec.num_experts_per_tok == 4);
    CHECK(c.arch.moe_intermediate_size == 10752);
    CHECK(typed("dbrx-instruct.json").kv_bytes_per_token == 40LL * 8 * (128 + 128) * 2);  // d_model 6144 / 48 heads
}

TEST_CASE("MPT: n_heads over d_model, every head cached (mpt.py MPTAttention without kv_n_heads)") {
    const HfConfig c = read_hf_config(test::config_file("mpt-30b-chat.json"));
    CHECK(c.arch.intermediate_size == 4 * 7168);  // expansion_ratio × d_model (mpt.py MPTMLP)
    CHECK(typed("mpt-30b-chat.json").kv_bytes_per_token == 48LL * 64 * (112 + 112) * 2);
}

TEST_CASE("Hunyuan-A13B: per-layer moe_topk and moe_intermediate_size lists (hunyuan_v1.py reads [layer_id])") {
    const HfConfig c = read_hf_config(test::config_file("hunyuan-a13b.json"));
    CHECK(c.spec.num_experts == 64);
    CHECK(c.spec.num_experts_per_tok == 8);
    CHECK(c.arch.moe_intermediate_size == 3072);
    CHECK(c.arch.n_shared_experts == 1);
    CHECK(typed("hunyuan-a13b.json").kv_bytes_per_token == 32LL * 8 * (128 + 128) * 2);
}

TEST_CASE("DeepSeek-VL2-tiny: use_mla false with zero MLA dims runs as DeepseekForCausalLM (deepseek_vl2.py)") {
    // 10 heads of 1280 / 10 = 128, num_key_value_heads 10 (deepseek.py DeepseekAttention).
    const Typed t = typed("deepseek-vl2-tiny.json");
    CHECK(t.attention == 12);
    CHECK(t.kv_bytes_per_token == 12LL * 10 * (128 + 128) * 2);
}

TEST_CASE("MiniCPM3: MLA-shaped weights, full K and V cached (minicpm3.py MiniCPM3Attention)") {
    // Attention(num_heads 40, qk_nope_head_dim 64 + qk_rope_head_dim 32 = 96, num_kv_heads = num_heads); V padded to 96.
    const Typed t = typed("minicpm3-4b.json");
    CHECK(t.attention == 62);
    CHECK(t.kv_bytes_per_token == 62LL * 40 * (96 + 96) * 2);
}
