// Invariants every Report and SolveResult must hold, whatever the input (docs/RELIABILITY.md). Shared by the property
// driver (tests/property) and the libFuzzer targets (tests/fuzz). Each returns "" or what is broken.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>

#include "kvcalc/base/checked_math.h"
#include "kvcalc/engines/report.h"
#include "kvcalc/deployment/solver.h"

namespace kvinv {

/// A byte count that may leave the core: 0 ≤ x < kMaxBytes.
inline bool sane_bytes(std::int64_t x) { return x >= 0 && x < kvcalc::kMaxBytes; }

/// ok=false ⇔ an error diagnostic; when ok: no negative or saturated term, the sums of report.h hold, the
/// verdict agrees with the terms, every double is finite.
inline std::string check_report(const kvcalc::Report& r) {
    using kvcalc::has_error;
    if (!r.ok) return has_error(r.diagnostics) ? "" : "ok=false without an error diagnostic";
    if (has_error(r.diagnostics)) return "ok=true with an error diagnostic";
    const kvcalc::BudgetTerms& t = r.terms;
    const std::pair<const char*, std::int64_t> bytes[] = {
        {"weights", t.weights_bytes}, {"kv_growing_requested", t.kv_growing_requested_bytes},
        {"kv_growing_granted", t.kv_growing_granted_bytes}, {"kv_sliding", t.kv_sliding_bytes},
        {"recurrent_state", t.recurrent_state_bytes}, {"kv_sliding_requested", t.kv_sliding_requested_bytes},
        {"recurrent_state_requested", t.recurrent_state_requested_bytes}, {"kv_requested", t.kv_requested_bytes},
        {"kv_granted", t.kv_granted_bytes}, {"activation", t.activation_bytes},
        {"cudagraph_workspace", t.cudagraph_workspace_bytes}, {"drafter", t.drafter_bytes}, {"fixed", t.fixed_bytes},
        {"budget", t.budget_bytes}, {"available_for_kv", t.available_for_kv_bytes}, {"demand", t.demand_bytes},
        {"total", t.total_bytes}, {"kv_one_sequence", t.kv_one_sequence_bytes},
        {"kv_tokens_per_sequence", t.kv_tokens_per_sequence}, {"block_tokens", t.block_tokens},
        {"breakdown.growing", r.breakdown.growing_kv_bytes}, {"breakdown.sliding", r.breakdown.sliding_kv_bytes},
        {"breakdown.recurrent", r.breakdown.recurrent_state_bytes},
        {"breakdown.compressed", r.breakdown.compressed_kv_bytes}, {"breakdown.indexer", r.breakdown.indexer_bytes},
        {"breakdown.draft", r.breakdown.draft_kv_bytes}, {"breakdown.subtotal", r.breakdown.subtotal_bytes},
        {"startup.available_kv", r.startup.available_kv_bytes}, {"startup.kv_bytes_per_token", r.startup.kv_bytes_per_token},
        {"startup.gpu_kv_cache_tokens", r.startup.gpu_kv_cache_tokens},
        {"startup.estimated_max_model_len", r.startup.estimated_max_model_len},
        {"startup.llama_cpp_kv_total", r.startup.kv_total_bytes_all_devices},
        {"settings.weights_total", r.settings.weights_bytes_total}, {"settings.vram", r.settings.vram_bytes},
        {"settings.drafter_total", r.settings.drafter_bytes_total}, {"error_band", r.error_band_bytes},
    };
    for (const auto& [name, v] : bytes)
        if (!sane_bytes(v)) return std::string(name) + " = " + std::to_string(v) + " is negative or ≥ 2^60";
    for (const auto& x : r.term_list)
        if (!sane_bytes(x.bytes)) return "term_list " + std::string(x.id) + " = " + std::to_string(x.bytes) + " is negative or ≥ 2^60";
    if (t.fixed_bytes != t.weights_bytes + t.activation_bytes + t.cudagraph_workspace_bytes + t.drafter_bytes)
        return "fixed ≠ weights + activation + CUDA graphs + drafter";
    if (t.demand_bytes != t.fixed_bytes + t.kv_requested_bytes) return "demand ≠ fixed + requested KV";
    if (t.total_bytes != t.fixed_bytes + t.kv_granted_bytes) return "total ≠ fixed + granted KV";
    if (t.kv_granted_bytes != std::min(t.kv_requested_bytes, t.available_for_kv_bytes))
        return "granted ≠ min(requested, available)";
    if (t.kv_growing_granted_bytes + t.kv_sliding_bytes + t.recurrent_state_bytes != t.kv_granted_bytes)
        return "the granted KV terms do not add up to the granted pool";
    // A fixed pool (vLLM's --kv-cache-memory-bytes) is the flag itself, whatever the budget leaves.
    if (t.kv_pool_fixed ? t.available_for_kv_bytes < 0
                        : t.available_for_kv_bytes != std::max<std::int64_t>(0, t.budget_bytes - t.fixed_bytes))
        return t.kv_pool_fixed ? "a fixed KV pool is negative" : "available ≠ max(0, budget − fixed)";
    if (r.verdict != kvcalc::Verdict::pass && r.verdict != kvcalc::Verdict::tight && r.verdict != kvcalc::Verdict::fail)
        return "verdict outside PASS/TIGHT/FAIL";
    const bool fails = !t.kv_dtype_runs || t.budget_bytes <= 0 || t.fixed_bytes > t.budget_bytes ||
                       (t.kv_pool_fixed && t.fixed_bytes + t.available_for_kv_bytes > t.budget_bytes) ||
                       t.available_for_kv_bytes <= 0 || t.available_for_kv_bytes < t.kv_one_sequence_bytes;
    if (fails != (r.verdict == kvcalc::Verdict::fail)) return "verdict FAIL disagrees with the terms";
    for (const double x : {t.kv_bytes_per_token, t.max_concurrency, r.effective_max_num_seqs, r.startup.available_kv_gib,
                           r.startup.max_concurrency})
        if (!std::isfinite(x) || x < 0) return "a double is NaN, infinite or negative";
    if (r.reason.empty() || r.limiting_term.empty()) return "reason or limiting_term empty";
    if (!r.model_facts) return "model_facts null";
    return "";
}

/// ok=false ⇔ an error; when ok, the value is in the solver's range.
inline std::string check_solve(const kvcalc::SolveResult& s, const char* what) {
    if (!s.ok) return kvcalc::has_error(s.diagnostics) ? "" : std::string(what) + ": ok=false without an error";
    if (s.value < 0 || s.value_rounded < 0) return std::string(what) + ": negative answer";
    const std::string w = what;
    if ((w == "max_model_len" && (s.value < 1 || s.value > (std::int64_t{1} << 27))) ||
        (w == "max_num_seqs" && (s.value < 1 || s.value > 65536)) || (w == "min_gpus" && (s.value < 1 || s.value > 8)) ||
        (w == "min_vram" && s.value < 1))
        return w + ": answer " + std::to_string(s.value) + " outside its range";
    if (s.bound.empty() || s.limiting_term.empty()) return w + ": bound or limiting_term empty";
    return "";
}

}  // namespace kvinv
