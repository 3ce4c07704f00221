// The error band per vLLM era × set-up for docs/ACCURACY.md, from the real start-up logs in tests/data/real_cases.
#pragma once
#include <filesystem>
#include <ostream>
#include <vector>

namespace kvtools {

/// Markdown: per (vLLM era, TP 1 or ≥ 2, dense / MoE / multimodal) the number of logged boots, the median and
/// largest |predicted − logged| "Available KV cache memory" in GiB, and the sign: how many kvcalc priced above the
/// log (optimistic: it promises KV vLLM does not give) and below (pessimistic), the band the Report states for those
/// runs (Report::error_band_bytes, one value or its range) and how many runs were optimistic by more than that band.
/// Each run is priced end to end from what the user would type (config.json, gpu, vllm_version, vllm_sampler,
/// vllm_usage_context and the flags the fixture sets).
void band_table_section(std::ostream& out, const std::vector<std::filesystem::path>& fixture_files);

}  // namespace kvtools
