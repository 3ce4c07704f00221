// Which sampler vLLM's profile run exercises and its peak per (row × vocab entry) (vllm_sampler.h).
#include "kvcalc/engines/vllm/sampler.h"

#include <cctype>

namespace kvcalc {

namespace {
// Fitted on the published logs (vllm_sampler.h).
constexpr double kTritonOrFlashInferBytes = 14.2;
constexpr double kSortBytes = 37.5;
constexpr double kV0Bytes = 4.0;
// topk_topp_sampler.py (#33538): apply_top_k_top_p_triton only from 8 rows; fewer rows sort.
constexpr long long kTritonMinRows = 8;

std::string lower(std::string_view s) {
    std::string out;
    for (char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

VllmSampler resolved(VllmEra era, VllmSampler s) { return s == VllmSampler::pip_default ? vllm_default_sampler(era) : s; }
}  // namespace

std::optional<VllmSampler> parse_vllm_sampler(std::string_view text) {
    const std::string s = lower(text);
    if (s.empty() || s == "auto" || s == "pip") return VllmSampler::pip_default;
    if (s == "flashinfer") return VllmSampler::flashinfer;
    if (s == "pytorch" || s == "native" || s == "torch") return VllmSampler::pytorch;
    return std::nullopt;
}

std::string vllm_sampler_ids() { return "auto, flashinfer, pytorch"; }

VllmSampler vllm_default_sampler(VllmEra era) {
    return era == VllmEra::v0_21 ? VllmSampler::flashinfer : VllmSampler::pytorch;
}

double vllm_sampler_bytes_per_row_vocab(VllmEra era, VllmSampler sampler, long long rows) {
    const VllmSampler s = resolved(era, sampler);
    const double native = era == VllmEra::v0_17 || era == VllmEra::v0_21
                              ? (rows < kTritonMinRows ? kSortBytes : kTritonOrFlashInferBytes)
                              : kSortBytes;
    switch (era) {
        case VllmEra::v0: return kV0Bytes;
        case VllmEra::v0_9:
        case VllmEra::v0_11:
        case VllmEra::v0_17: return s == VllmSampler::flashinfer ? kTritonOrFlashInferBytes : native;
        case VllmEra::v0_21: return native;  // the warm-up's generator call takes forward_native either way
    }
    return native;
}

std::string vllm_sampler_label(VllmEra era, VllmSampler sampler) {
    if (era == VllmEra::v0) return "V0 sampler (fp32 logits)";
    const VllmSampler s = resolved(era, sampler);
    const bool triton = era == VllmEra::v0_17 || era == VllmEra::v0_21;
    std::string out = s == VllmSampler::flashinfer ? "FlashInfer top-k/top-p" : triton ? "Triton top-k/top-p" : "PyTorch sort top-k/top-p";
    if (s == VllmSampler::flashinfer && era == VllmEra::v0_21) out += ", then the Triton warm-up";
    if (sampler == VllmSampler::pip_default) out += " (what pip install vllm gets)";
    return out;
}

}  // namespace kvcalc
