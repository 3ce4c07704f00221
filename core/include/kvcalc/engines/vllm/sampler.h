// Which top-k/top-p sampler vLLM's profile run exercises, and the bytes its dummy sampler run peaks at.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "kvcalc/engines/vllm/accounting.h"

namespace kvcalc {

/// "auto" / "" → pip_default, "flashinfer", "pytorch" (also "native", "torch"); any case. nullopt otherwise.
std::optional<VllmSampler> parse_vllm_sampler(std::string_view text);
/// "auto, flashinfer, pytorch" for error messages and the field table.
std::string vllm_sampler_ids();

/// The sampler a plain `pip install vllm` of `era` runs (never pip_default):
///   0.9-0.11.0: pytorch. The wheels did not require FlashInfer (requirements/cuda.txt lists flashinfer-python only
///     from #26443, 2025-10-09), so the sampler logs "FlashInfer is not available. Falling back to the
///     PyTorch-native implementation of top-p & top-k sampling". The Docker images ship FlashInfer: flashinfer.
///   0.11.1-0.20: pytorch. FlashInfer is installed but off unless VLLM_USE_FLASHINFER_SAMPLER=1 (#26859).
///   0.21+: flashinfer, on by default (#40376).
///   V0: pytorch (the V0 sampler; VLLM_USE_FLASHINFER_SAMPLER is off there by default).
VllmSampler vllm_default_sampler(VllmEra era);

/// Bytes per (row × vocabulary entry) of the profile's dummy sampler run (gpu_model_runner.py
/// _dummy_sampler_run: top-k V − 1, top-p 0.9 on every row) with `sampler` on `rows` rows. Fitted on the
/// published logs (docs/SOURCES.md "vLLM start-up accounting"):
///   FlashInfer or the Triton kernels (≥ 8 rows, 0.17+): 14.2 B (bf16 logits, fp32 copy, probs, noise; v0.19 and
///     v0.11.0 logs);
///   the sort path (apply_top_k_top_p: fp32 values and int64 indices of logits.sort() and its temporaries):
///     37.5 B (v0.11-v0.16 logs). Below 8 rows every V1 era sorts;
///   V0: 4 B (the fp32 logits; vllm issue #13061's profile peak leaves room for no more).
/// From 0.21 the warm-up's second call passes a generator, which FlashInfer hands to forward_native, so the
/// Triton path's 14.2 B holds for either sampler.
double vllm_sampler_bytes_per_row_vocab(VllmEra era, VllmSampler sampler, long long rows);

/// The sampler's name for the accounting's sources: "PyTorch sort top-k/top-p", "FlashInfer top-k/top-p", ….
std::string vllm_sampler_label(VllmEra era, VllmSampler sampler);

}  // namespace kvcalc
