// The result in one sentence for people, built from a Report's terms. The page, the CLI and the JSON report all
// print this one text, so the verdict cannot be explained two ways.
#pragma once
#include <cstdint>
#include <string>

#include "kvcalc/report.h"

namespace kvcalc {

/// The unit byte figures are shown in: decimal GB (10^9 B) or GiB (2^30 B).
enum class ByteUnit { gb, gib };

/// "GB" or "GiB".
const char* byte_unit_name(ByteUnit unit);

/// `bytes` in `unit` as people read it: two decimals below 100 ("14.96 GiB"), none from 100 on ("141 GB").
std::string format_size(std::int64_t bytes, ByteUnit unit);

/// 180000 → "180,000".
std::string format_count(std::int64_t n);

/// The verdict in one sentence, every figure from `report.terms` in `unit`:
/// - the card has no kernel for kv_cache_dtype: Report::reason (a FAIL, whatever the bytes);
/// - FAIL: the fixed terms exceed the budget, or the KV room left is less than one max_model_len request needs
///   (the engine refuses to start; vLLM gpu_worker.py / kv_cache_utils.py check_enough_kv_cache_memory);
/// - boots, but the granted pool holds fewer full-length sequences than max_num_seqs asks for;
/// - TIGHT: demand within the error band of the budget;
/// - PASS under vLLM's default max_num_seqs (a cap, not a demand): one request's KV, the room to spare and the
///   concurrency; PASS with max_num_seqs given: every sequence gets its full context.
/// Empty when !report.ok (the diagnostics say why).
std::string result_sentence(const Report& report, ByteUnit unit = ByteUnit::gib);

}  // namespace kvcalc
