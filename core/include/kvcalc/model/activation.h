// Activation peak per family: empirical fits from the seeds, selected by ModelSpec::family.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "kvcalc/base/kv_format.h"
#include "kvcalc/base/model_spec.h"

namespace kvcalc {

/// Coefficients of one family's activation fit. Per card:
///   ( gdn_coef[format] × recurrent_layers × max_model_len + split_const_bytes
///     + split_bytes_per_token × max_model_len + split_bytes_per_hidden_token × hidden_size × max_model_len ) / tp
///   + per_card_const_bytes (+ GDN prefill scratch delta when max_num_batched_tokens is set and enabled)
/// Source: docs/SOURCES.md "Constants" "activation" (the original's GDN_ACTIVATION_COEF for qwen3-next-hybrid).
struct ActivationFit {
    const char* family;
    std::array<int, kNumKvFormats> gdn_coef_bytes{};   ///< bytes per recurrent layer per token, by KvFormatId
    std::int64_t split_const_bytes = 0;
    std::int64_t split_bytes_per_token = 0;
    std::int64_t split_bytes_per_hidden_token = 0;
    std::int64_t per_card_const_bytes = 0;
    bool gdn_prefill_scratch = false;
    const char* source;
};

/// The fit for a family string ("generic" and "dense" mean "generic-dense"); nullptr when the family is unknown
/// (callers fall back to "generic-dense" with a warning).
const ActivationFit* find_activation_fit(std::string_view family);

/// GDN chunked-prefill scratch on one card for a batch of `batched_tokens` (kv-calc.py @4a29ab57 lines 259-270):
/// h = ceil(batched/64) × (v_heads/tp) × v_dim × k_dim × 2 B, plus v_new and o = batched × (v_heads/tp) × v_dim × 2 B each.
std::int64_t gdn_prefill_scratch_bytes(const ModelSpec& model, int tp, std::int64_t batched_tokens);

/// Baseline batch the GDN coefficients were calibrated at (8192 tokens).
inline constexpr std::int64_t kGdnCalibrationBatchedTokens = 8192;

/// Activation peak bytes on one card; the scratch delta scratch(batched) − scratch(8192) is added when
/// `max_num_batched_tokens` is set and the fit enables it. Never negative.
std::int64_t activation_peak_bytes(const ActivationFit& fit, const ModelSpec& model, int num_recurrent_layers,
                                   const KvFormat& format, std::int64_t max_model_len, int tp,
                                   std::optional<std::int64_t> max_num_batched_tokens);

}  // namespace kvcalc
