// Per-card budget: the non-KV terms are subtracted from gpu_memory_utilization × VRAM, the engine's plan prices
// the KV in what is left, and the verdict reads both (seed 000 "Per-card budget composition", Known limitations 1).
#include <algorithm>
#include <cmath>
#include <iterator>

#include "engines/deploy_internal.h"
#include "kvcalc/base/checked_math.h"
#include "kvcalc/deployment/input_limits.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/base/units.h"

namespace kvcalc {

const char* verdict_name(Verdict v) {
    switch (v) {
        case Verdict::pass: return "PASS";
        case Verdict::tight: return "TIGHT";
        case Verdict::fail: return "FAIL";
    }
    return "FAIL";
}

namespace {

// x × num / den without overflow for byte counts (all non-negative, den > 0).
std::int64_t scaled(std::int64_t x, std::int64_t num, std::int64_t den) {
    return static_cast<std::int64_t>(static_cast<long double>(x) * num / den);
}

}  // namespace

BudgetTerms evaluate(const Deployment& d, const Load& load) {
    BudgetTerms t;
    evaluate(d, load, t);
    return t;
}

void evaluate(const Deployment& d, const Load& load, BudgetTerms& t) {
    const ResolvedSettings& s = d.settings;
    const int tp = s.tensor_parallel_size;
    // The load's card (a shopping row), else the deployment's (the solvers vary only the numbers). The format checked
    // is the one the engine stores and the command names (a stand-in when it has no such dtype). Not known (VRAM
    // typed in, or no source for that vendor) is not failed: the notes say so.
    const KvSupport support = kv_format_support(d.run_format ? *d.run_format : *d.format, load.gpu ? load.gpu : d.gpu);
    t.kv_dtype_runs = support != KvSupport::does_not_run;
    t.kv_dtype_support_known = support != KvSupport::not_known;
    t.weights_bytes = s.weights_bytes_per_card();
    t.drafter_bytes = ceil_div(s.drafter_bytes_total, tp);
    t.budget_bytes = round_to_int64(s.gpu_memory_utilization * static_cast<double>(load.vram_bytes));
    detail::non_kv_terms(d, load, t);  // vLLM's accounting also sets weights (+ load buffers) and the budget
    t.fixed_bytes = sat_add(sat_add(t.weights_bytes, t.activation_bytes), sat_add(t.cudagraph_workspace_bytes, t.drafter_bytes));
    t.available_for_kv_bytes = std::max<std::int64_t>(0, sat_sub(t.budget_bytes, t.fixed_bytes));
    t.kv_tokens_per_sequence = load.max_model_len + d.kv_extra_tokens;
    if (load_beyond_limits(d, load)) {
        // The engines' own byte sums could overflow at this load: price it as kMaxBytes of KV, which fails every
        // fit and which predict() rejects as too_large (input_limits.h). Solvers probing such loads move on.
        t.kv_one_sequence_bytes = t.kv_requested_bytes = t.kv_growing_requested_bytes = kMaxBytes;
        t.kv_sliding_bytes = t.recurrent_state_bytes = 0;
        t.kv_bytes_per_token = static_cast<double>(d.footprint.growing_x400_per_token) / kBpeDenominator;
    } else {
        std::visit([&](const auto& plan) { detail::price_kv(d, plan, load, t); }, d.plan);
    }

    // The pool holds min(requested, available); each KV term gets its share of what is granted.
    const std::int64_t sliding = t.kv_sliding_bytes, state = t.recurrent_state_bytes;
    t.kv_sliding_requested_bytes = sliding;
    t.recurrent_state_requested_bytes = state;
    t.kv_granted_bytes = std::min(t.kv_requested_bytes, t.available_for_kv_bytes);
    if (t.kv_granted_bytes < t.kv_requested_bytes && t.kv_requested_bytes > 0) {
        t.kv_sliding_bytes = scaled(sliding, t.kv_granted_bytes, t.kv_requested_bytes);
        t.recurrent_state_bytes = scaled(state, t.kv_granted_bytes, t.kv_requested_bytes);
    }
    t.kv_growing_granted_bytes = t.kv_granted_bytes - t.kv_sliding_bytes - t.recurrent_state_bytes;
    t.demand_bytes = sat_add(t.fixed_bytes, t.kv_requested_bytes);
    t.total_bytes = sat_add(t.fixed_bytes, t.kv_granted_bytes);
    // The start-up accounting states the band its logs support (vllm_accounting.cpp); seed fits keep 1.5 GB.
    // (non_kv_terms() set it from the accounting at this load's card).
    if (d.non_kv.kind != NonKvModel::Kind::vllm_accounting)
        t.tight_band_bytes = std::max(kTightBandBytes, d.non_kv.error_band_bytes);
}

std::string kv_hardware_sentence(const Deployment& d, const GpuSpec* card) {
    const KvFormat& run = d.run_format ? *d.run_format : *d.format;
    const KvSupport support = kv_format_support(run, card);
    if (support == KvSupport::runs) return {};
    const std::string why = kv_format_support_reason(run, card);
    const std::string stand_in = &run == d.format ? std::string()
                                                  : std::string(" (") + engine_info(d.engine).display_name +
                                                        " stores its stand-in " + run.name + ")";
    if (!card) return "hardware: " + (stand_in.empty() ? why : "kv_cache_dtype " + std::string(d.format->name) + stand_in + ": " + why);
    std::string out = support == KvSupport::not_known ? "not known whether kv_cache_dtype " : "kv_cache_dtype ";
    out += d.format->name + stand_in;
    out += support == KvSupport::not_known ? " runs on " : " does not run on ";
    out += card->display_name;
    out += card->vendor == GpuVendor::amd ? " (" + card->gfx_arch + ")" : " (sm_" + std::to_string(card->sm_x10) + ")";
    return out + ": " + why;
}

Verdict classify(const BudgetTerms& t) {
    if (!t.kv_dtype_runs) return Verdict::fail;  // no kernel for the cache dtype on this card: it does not start
    if (t.budget_bytes <= 0 || t.fixed_bytes > t.budget_bytes) return Verdict::fail;
    if (t.available_for_kv_bytes <= 0 || t.available_for_kv_bytes < t.kv_one_sequence_bytes) return Verdict::fail;
    if (t.kv_requested_bytes > t.available_for_kv_bytes) return Verdict::tight;
    if (sat_sub(t.budget_bytes, t.demand_bytes) < t.tight_band_bytes) return Verdict::tight;
    return Verdict::pass;
}

namespace {

// The per-card terms in subtraction order, with people's wording: term_list() and term_label() read it.
struct TermRow {
    std::string_view id, label;
    std::int64_t BudgetTerms::*bytes;
};
constexpr TermRow kTermRows[] = {
    {"weights", "Weights", &BudgetTerms::weights_bytes},
    {"activation", "Activation peak", &BudgetTerms::activation_bytes},
    {"cudagraph_workspace", "CUDA graphs + workspace", &BudgetTerms::cudagraph_workspace_bytes},
    {"drafter", "Drafter weights", &BudgetTerms::drafter_bytes},
    {"kv_growing", "KV cache (growing)", &BudgetTerms::kv_growing_granted_bytes},
    {"kv_sliding", "KV cache (sliding window)", &BudgetTerms::kv_sliding_bytes},
    {"recurrent_state", "Recurrent state", &BudgetTerms::recurrent_state_bytes},
};

}  // namespace

std::string_view term_label(std::string_view id) {
    for (const TermRow& r : kTermRows)
        if (r.id == id) return r.label;
    return id;
}

std::size_t term_rank(std::string_view id) {
    std::size_t i = 0;
    while (i < std::size(kTermRows) && kTermRows[i].id != id) ++i;
    return i;
}

TermList term_list(const BudgetTerms& t) {
    TermList out;
    term_list(t, out);
    return out;
}

void term_list(const BudgetTerms& t, TermList& out) {
    out.clear();
    for (const TermRow& r : kTermRows)
        if (const std::int64_t bytes = t.*r.bytes; bytes != 0) out.emplace_back(r.id, r.label, bytes);
}

std::string_view largest_term(const BudgetTerms& t) {
    const std::pair<std::string_view, std::int64_t> terms[] = {
        {"weights", t.weights_bytes},
        {"kv_growing", t.kv_growing_requested_bytes},
        {"kv_sliding", t.kv_sliding_requested_bytes},
        {"recurrent_state", t.recurrent_state_requested_bytes},
        {"activation", t.activation_bytes},
        {"cudagraph_workspace", t.cudagraph_workspace_bytes},
        {"drafter", t.drafter_bytes},
    };
    const auto* best = &terms[0];
    for (const auto& x : terms)
        if (x.second > best->second) best = &x;
    return best->first;
}

}  // namespace kvcalc
