// Report, solver and calibration results → JSON (docs/SCHEMA.md). Every memory field is integer bytes.
#include "kvcalc/io/json_io.h"
#include "kvcalc/io/json_results.h"
#include "kvcalc/deployment/result_sentence.h"
#include "kvcalc/base/units.h"

namespace kvcalc {

using nlohmann::json;

namespace {
const char* severity_name(Severity s) {
    switch (s) {
        case Severity::info: return "info";
        case Severity::warning: return "warning";
        case Severity::error: return "error";
    }
    return "error";
}

}  // namespace

void to_json(json& j, const Diagnostic& d) {
    j = json{{"severity", severity_name(d.severity)}, {"code", d.code}, {"field", d.field}, {"message", d.message}};
}

void to_json(json& j, const Report& r) {
    j = json{{"schema", kSchemaVersion}, {"ok", r.ok}, {"diagnostics", r.diagnostics}};
    if (!r.ok) return;
    const ResolvedSettings& s = r.settings;
    j["settings"] = {{"model_id", s.model_id}, {"display_name", s.display_name}, {"family", s.family},
                     {"weights_variant", s.weights_variant}, {"weights_bytes_total", s.weights_bytes_total},
                     {"weights_known", s.weights_known},
                     {"gpu", s.gpu}, {"vram_bytes", s.vram_bytes}, {"gpus", s.gpus},
                     {"tensor_parallel_size", s.tensor_parallel_size}, {"kv_cache_dtype", s.kv_cache_dtype},
                     {"max_model_len", s.max_model_len}, {"max_num_seqs", s.max_num_seqs},
                     {"max_num_seqs_is_default", s.max_num_seqs_is_default},
                     {"gpu_memory_utilization", s.gpu_memory_utilization},
                     {"max_num_batched_tokens", s.max_num_batched_tokens ? json(*s.max_num_batched_tokens) : json(nullptr)},
                     {"drafter", s.drafter}, {"drafter_bytes_total", s.drafter_bytes_total},
                     {"num_speculative_tokens", s.num_speculative_tokens}, {"vllm_version", s.vllm_version},
                     {"vllm_sampler", s.vllm_sampler}, {"vllm_usage_context", s.vllm_usage_context}};
    const BudgetTerms& t = r.terms;
    j["terms"] = {{"weights_bytes", t.weights_bytes},
                  {"kv_growing_requested_bytes", t.kv_growing_requested_bytes},
                  {"kv_growing_granted_bytes", t.kv_growing_granted_bytes},
                  {"kv_sliding_bytes", t.kv_sliding_bytes},
                  {"recurrent_state_bytes", t.recurrent_state_bytes},
                  {"kv_sliding_requested_bytes", t.kv_sliding_requested_bytes},
                  {"recurrent_state_requested_bytes", t.recurrent_state_requested_bytes},
                  {"kv_requested_bytes", t.kv_requested_bytes},
                  {"kv_granted_bytes", t.kv_granted_bytes},
                  {"max_concurrency", t.max_concurrency},
                  {"block_tokens", t.block_tokens},
                  {"activation_bytes", t.activation_bytes},
                  {"gdn_scratch_delta_bytes", t.gdn_scratch_delta_bytes},
                  {"cudagraph_workspace_bytes", t.cudagraph_workspace_bytes},
                  {"drafter_bytes", t.drafter_bytes},
                  {"fixed_bytes", t.fixed_bytes},
                  {"budget_bytes", t.budget_bytes},
                  {"available_for_kv_bytes", t.available_for_kv_bytes},
                  {"demand_bytes", t.demand_bytes},
                  {"total_bytes", t.total_bytes},
                  {"kv_one_sequence_bytes", t.kv_one_sequence_bytes},
                  {"kv_tokens_per_sequence", t.kv_tokens_per_sequence},
                  {"kv_bytes_per_token", t.kv_bytes_per_token},
                  {"tight_band_bytes", t.tight_band_bytes},
                  {"kv_pool_fixed", t.kv_pool_fixed}};
    j["verdict"] = verdict_name(r.verdict);
    j["reason"] = r.reason;
    j["result_sentence"] = result_sentence(r);  // in GiB, what the page shows by default
    j["limiting_term"] = r.limiting_term;
    j["notes"] = r.notes;
    j["effective_max_num_seqs"] = r.effective_max_num_seqs;
    json terms = json::array();
    for (const auto& x : r.term_list) terms.push_back({{"id", std::string(x.id)}, {"label", std::string(x.label)}, {"bytes", x.bytes}});
    j["term_list"] = terms;
    json tps = json::array();
    if (r.tp_options)
        for (const auto& x : *r.tp_options)
            tps.push_back({{"tensor_parallel_size", x.tensor_parallel_size}, {"valid", x.valid}, {"reason", x.reason}});
    j["tp_options"] = tps;
    j["command"] = r.command;
    const CacheBreakdown& b = r.breakdown;
    j["breakdown"] = {{"layout", b.layout},
                      {"growing_kv_bytes", b.growing_kv_bytes},
                      {"sliding_kv_bytes", b.sliding_kv_bytes},
                      {"recurrent_state_bytes", b.recurrent_state_bytes},
                      {"compressed_kv_bytes", b.compressed_kv_bytes},
                      {"indexer_bytes", b.indexer_bytes},
                      {"draft_kv_bytes", b.draft_kv_bytes},
                      {"subtotal_bytes", b.subtotal_bytes}};
    json buckets = json::array();
    for (const auto& x : r.buckets)
        buckets.push_back({{"kind", x.kind}, {"layer_count", x.layer_count}, {"cache", layer_cache_json(x.cache)},
                           {"term", bucket_term_name(x.engine.term)},
                           {"bytes_per_token_per_card", x.engine.bytes_per_token_per_card},
                           {"page_bytes", x.engine.page_bytes},
                           {"tokens_per_page", x.engine.tokens_per_page},
                           {"pages_per_request", x.engine.pages_per_request},
                           {"kv_bytes_per_card", x.kv_bytes_per_card}});
    j["buckets"] = buckets;
    j["engine"] = r.engine;
    j["calibrated"] = r.calibrated;
    j["error_band_bytes"] = r.error_band_bytes;
    j["non_kv_model"] = r.non_kv_model;
    j["assumed_defaults"] = r.assumed_defaults;
    json facts = json::array();
    if (r.model_facts)
        for (const auto& f : *r.model_facts) facts.push_back({{"fact", f.fact}, {"value", f.value}, {"source", f.source}});
    j["model_facts"] = facts;
    const StartupPrediction& p = r.startup;
    j["startup"] = {{"engine_rules", p.engine_rules},
                    {"available", p.available},
                    {"available_kv_bytes", p.available_kv_bytes},
                    {"available_kv_gib", p.available_kv_gib},
                    {"kv_bytes_per_token", p.kv_bytes_per_token},
                    {"gpu_kv_cache_tokens", p.gpu_kv_cache_tokens},
                    {"max_concurrency", p.max_concurrency},
                    {"num_kv_cache_groups", p.num_kv_cache_groups},
                    {"refuses_to_start", p.refuses_to_start},
                    {"refusal", p.refusal},
                    {"estimated_max_model_len", p.estimated_max_model_len},
                    {"llama_cpp_kv_total_bytes", p.kv_total_bytes_all_devices},
                    {"notes", p.notes}};
}

void to_json(json& j, const SolveResult& r) {
    j = json{{"ok", r.ok}, {"value", r.value}, {"value_rounded", r.value_rounded}, {"limiting_term", r.limiting_term},
             {"bound", r.bound}, {"safe_value", r.safe_value}, {"safe_value_rounded", r.safe_value_rounded},
             {"safe_band_bytes", r.safe_band_bytes}, {"diagnostics", r.diagnostics}};
    if (r.refused_to > 0) {  // lengths below the answer that do not boot (solver.h)
        j["refused_from"] = r.refused_from;
        j["refused_to"] = r.refused_to;
        j["fits_below"] = r.fits_below;
    }
}

const char* reserve_check_name(ReserveCheck c) {
    switch (c) {
        case ReserveCheck::within: return "within";
        case ReserveCheck::over: return "over";
        case ReserveCheck::under: return "under";
        case ReserveCheck::not_checked: break;
    }
    return "not_checked";
}

void to_json(json& j, const ShopRow& r) {
    j = json{{"gpu_index", r.gpu_index},         {"gpu", r.gpu_id},
             {"cards", r.cards},                 {"tensor_parallel_size", r.cards},
             {"total_vram_bytes", r.total_vram_bytes},
             {"max_num_seqs", r.max_num_seqs},   {"kv_cache_dtype", r.kv_cache_dtype},
             {"valid", r.valid},
             {"runs", r.runs},                   {"verdict", r.valid ? verdict_name(r.verdict) : "INVALID"},
             {"max_model_len", r.max_model_len}, {"max_concurrency", r.max_concurrency},
             {"limiting_term", r.limiting_term}, {"note", r.note}};
}

void to_json(json& j, const DemandCurve& c) {
    json points = json::array();
    for (const auto& p : c.points)
        points.push_back({{"max_model_len", p.max_model_len}, {"demand_bytes", p.demand_bytes},
                          {"verdict", verdict_name(p.verdict)}});
    j = json{{"budget_bytes", c.budget_bytes}, {"points", points}};
}

void to_json(json& j, const CalibrationSummary& c) {
    json rows = json::array();
    for (const auto& r : c.results) {
        const BudgetTerms& t = r.report.terms;
        rows.push_back({{"row_id", r.row_id}, {"model_id", r.model_id}, {"ok", r.report.ok},
                        {"verdict", r.report.ok ? verdict_name(r.report.verdict) : "ERROR"},
                        {"demand_bytes", t.demand_bytes}, {"total_bytes", t.total_bytes},
                        {"budget_bytes", t.budget_bytes}, {"measured_peak_bytes", r.measured_peak_bytes},
                        {"correct", r.correct}, {"circular", r.circular},
                        {"predicted_reserve_bytes", r.predicted_reserve_bytes}, {"band_bytes", r.band_bytes}, {"band_below_bytes", r.band_below_bytes},
                        {"reserve_check", reserve_check_name(r.reserve)},
                        {"reserve_check_weights_only", reserve_check_name(r.reserve_weights_only)},
                        {"diagnostics", r.report.diagnostics}});
    }
    json per_model = json::array();
    for (const auto& m : c.per_model)
        per_model.push_back({{"model_id", m.model_id}, {"correct", m.correct}, {"total", m.total}});
    j = json{{"schema", kSchemaVersion}, {"rows", rows}, {"per_model", per_model}, {"correct", c.correct}, {"total", c.total},
             {"reserve", {{"checked", c.reserve_checked}, {"within", c.reserve_within}, {"over", c.reserve_over},
                          {"under", c.reserve_under}, {"weights_only_within", c.weights_only_within}}}};
}

}  // namespace kvcalc
