#include "kvcalc/model/activation.h"

#include <algorithm>
#include <vector>

#include "kvcalc/model/layer_cache.h"
#include "kvcalc/base/units.h"

namespace kvcalc {

namespace {
// Coefficient tables in KvFormatId order:
// fp16, bf16, fp8_e5m2, fp8_e4m3, int8_per_token_head, q4_0, k8v4, turboquant_3bit_nc, nvfp4, then the ggml types
// q8_0 (as fp8), q4_1, q5_0, q5_1, iq4_nl (as q4_0) — those run on llama.cpp, which prices no activation.
const std::vector<ActivationFit>& fits() {
    static const std::vector<ActivationFit> table{
        {"qwen3-next-hybrid", {135, 135, 130, 130, 130, 155, 155, 165, 130, 130, 155, 155, 155, 155}, 0, 0, 0, 0, true,
         "seed 003 GDN_ACTIVATION_COEF; constants.json activation.qwen_gdn_dense_coef_bytes (nvfp4, int8 mirror fp8)"},
        {"qwen3-next-moe", {110, 110, 105, 105, 105, 130, 130, 140, 105, 105, 130, 130, 130, 130}, 0, 0, 0, 200'000'000, true,
         "constants.json activation.qwen_moe_coef_bytes + qwen_moe_expert_dispatch_gb 0.20 GB per card "
         "(seed 000: expert dispatch buffers ~200-400 MB per card)"},
        {"gemma4-swa-dense", {}, 1'500'000'000, 8, 0, 0, false,
         "constants.json activation.gemma_dense_const_gb 1.5 + gemma_dense_per_token_bytes 8, both / TP"},
        {"gemma4-swa-moe", {}, 1'800'000'000, 12, 0, 0, false,
         "constants.json activation.gemma_moe_const_gb 1.8 + gemma_moe_per_token_bytes 12, both / TP"},
        {"generic-dense", {}, 1'500'000'000, 0, 6, 0, false,
         "constants.json activation.generic_dense_floor_gb 1.5 + 6 B × hidden_size per token, both / TP"},
    };
    return table;
}
}  // namespace

const ActivationFit* find_activation_fit(std::string_view family) {
    if (family == "generic" || family == "dense") family = "generic-dense";  // spellings used by config readers
    for (const auto& f : fits())
        if (family == f.family) return &f;
    return nullptr;
}

std::int64_t gdn_prefill_scratch_bytes(const ModelSpec& m, int tp, std::int64_t batched) {
    if (m.linear_num_value_heads <= 0 || m.linear_value_head_dim <= 0 || m.linear_key_head_dim <= 0 || tp <= 0)
        return 0;
    const std::int64_t heads = m.linear_num_value_heads / tp;
    const std::int64_t chunks = ceil_div(batched, 64);  // fla chunk size 64
    const std::int64_t h = chunks * heads * m.linear_value_head_dim * m.linear_key_head_dim * 2;
    const std::int64_t v_like = batched * heads * m.linear_value_head_dim * 2;
    return h + 2 * v_like;
}

std::int64_t activation_peak_bytes(const ActivationFit& fit, const ModelSpec& model, int num_recurrent_layers,
                                   const KvFormat& format, std::int64_t max_model_len, int tp,
                                   std::optional<std::int64_t> max_num_batched_tokens) {
    const std::int64_t coef = fit.gdn_coef_bytes[static_cast<int>(format.id)];
    const std::int64_t split = coef * num_recurrent_layers * max_model_len + fit.split_const_bytes +
                               fit.split_bytes_per_token * max_model_len +
                               fit.split_bytes_per_hidden_token * model.hidden_size * max_model_len;
    std::int64_t total = ceil_div(split, tp) + fit.per_card_const_bytes;
    if (fit.gdn_prefill_scratch && max_num_batched_tokens)
        total += gdn_prefill_scratch_bytes(model, tp, *max_num_batched_tokens) -
                 gdn_prefill_scratch_bytes(model, tp, kGdnCalibrationBatchedTokens);
    return std::max<std::int64_t>(total, 0);
}

}  // namespace kvcalc
