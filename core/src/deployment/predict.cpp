// predict(): resolve, evaluate the per-card terms at the load, classify, explain, break down, start-up lines.
#include "kvcalc/deployment/predict.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>

#include "kvcalc/base/checked_math.h"
#include "kvcalc/deployment/concurrency_text.h"
#include "kvcalc/deployment/input_limits.h"
#include "kvcalc/deployment/scenario_fields.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/base/units.h"
#include "kvcalc/model/layer_kinds.h"
#include "engines/deploy_internal.h"
#include "deployment/predict_internal.h"
#include "util/text.h"

namespace kvcalc {

namespace {

using text::cat;

// "12.34" from a value × 100 already rounded (integer formatting: snprintf dominated the prediction time).
std::string two_decimals(std::int64_t hundredths) {
    std::string out = hundredths < 0 ? "-" : "";
    if (hundredths < 0) hundredths = -hundredths;
    out += std::to_string(hundredths / 100);
    out += '.';
    out += static_cast<char>('0' + hundredths / 10 % 10);
    out += static_cast<char>('0' + hundredths % 10);
    return out;
}

// Bytes as GiB with two decimals, e.g. "0.25 GiB" (vLLM prints GiB).
std::string gib_text(std::int64_t bytes) {
    const std::int64_t h = bytes >= 0 ? (bytes * 100 + kBytesPerGib / 2) / kBytesPerGib
                                      : -((-bytes * 100 + kBytesPerGib / 2) / kBytesPerGib);
    return two_decimals(h) + " GiB";
}

// Bytes as decimal GB with two decimals, e.g. "7.30 GB".
std::string gb(std::int64_t bytes) {
    const std::int64_t h = bytes >= 0 ? (bytes + 5'000'000) / 10'000'000 : -((-bytes + 5'000'000) / 10'000'000);
    return two_decimals(h) + " GB";
}

std::string reason_for(Verdict v, const BudgetTerms& t, std::int64_t seqs, const EngineInfo& row) {
    const char* engine = row.display_name;
    if (t.budget_bytes <= 0 || t.fixed_bytes > t.budget_bytes)  // the engine's own name for its share of the card
        return cat("fixed terms ", gb(t.fixed_bytes), " exceed the budget ", gb(t.budget_bytes), " (",
                   row.memory_fraction, " × VRAM): nothing is left for KV");
    if (v == Verdict::fail) {
        // An engine that allocates every slot's cache at start-up needs every slot's KV, not one request's.
        if (row.stop_text.all_slots && seqs > 1)
            return cat("after the fixed terms only ", gb(t.available_for_kv_bytes), " is left for KV, but the cache of all ",
                       std::to_string(seqs), " ", row.stop_text.all_slots, " needs ", gb(t.kv_one_sequence_bytes),
                       ": ", row.stop_text.all_slots_stop);
        return cat("after the fixed terms only ", gb(t.available_for_kv_bytes),
                   " is left for KV, but one max_model_len request needs ", gb(t.kv_one_sequence_bytes), ": ", engine,
                   " refuses to start");
    }
    if (t.kv_requested_bytes > t.available_for_kv_bytes) {
        // rounded as vLLM's "Maximum concurrency" line, which the start-up lines print from the same number
        return cat("requested KV ", gb(t.kv_requested_bytes), " is capped to ", gb(t.available_for_kv_bytes),
                   ": about ", concurrency_text(t.max_concurrency), " full-length sequences fit at once (max_num_seqs ",
                   std::to_string(seqs), ")");
    }
    if (v == Verdict::tight)
        return cat("demand ", gb(t.demand_bytes), " is within ", gb(t.tight_band_bytes), " of the budget ",
                   gb(t.budget_bytes));
    return cat("demand ", gb(t.demand_bytes), " leaves ", gb(t.budget_bytes - t.demand_bytes), " of the ",
               gb(t.budget_bytes), " budget");
}

// `explained`: the non-KV accounting with its wording (vLLM only).
void add_notes(bool breakdown_estimates, const Deployment& r, const Load& load, const BudgetTerms& t,
               const VllmAccounting& explained, std::vector<std::string>& notes) {
    const ResolvedSettings& set = r.settings;
    const ModelSpec& m = *r.model;
    const KvFormat& f = *r.format;
    if (const int ranks = set.tensor_parallel_size * r.data_parallel_size; set.gpus > ranks)
        notes.push_back(std::to_string(set.gpus) + " GPUs but tensor_parallel_size " +
                        std::to_string(set.tensor_parallel_size) +
                        (r.data_parallel_size > 1 ? " × data_parallel_size " + std::to_string(r.data_parallel_size)
                                                  : std::string()) +
                        ": the other " + std::to_string(set.gpus - ranks) +
                        " GPU(s) are idle for this engine (run a second replica or raise TP)");
    const bool qwen_hybrid = set.family == "qwen3-next-hybrid";
    if (f.id == KvFormatId::turboquant_3bit_nc) {
        if (r.footprint.num_recurrent_layers == 0)
            notes.push_back(std::string(f.hardware_note) + "; " + m.id + " has no DeltaNet layers");
        else if (qwen_hybrid && load.vram_bytes < 24 * kBytesPerGib)
            // Measured on Qwen 3.6 rigs with 20 GB cards: the DeltaNet activation peak grows past ~90K tokens
            // with TurboQuant KV (the project's measured boots, docs/ACCURACY.md).
            notes.push_back("3-bit TurboQuant KV on cards under 24 GB raises the DeltaNet activation peak (out of "
                            "memory near 90K tokens on 20 GB cards): consider fp8_e5m2");
    }
    if (qwen_hybrid && load.max_model_len > 50000 && set.tensor_parallel_size == 1 && f.id != KvFormatId::fp16)
        // Measured on single-card Qwen 3.6 boots (the project's measured boots, docs/ACCURACY.md).
        notes.push_back("on one card, prompts above 50K tokens can run out of memory in the DeltaNet forward pass "
                        "even when the cache fits: the activation peak grows with the prompt");
    if (engine_info(r.engine).picks_attention_backend) {
        const KvFormat& run = r.run_format ? *r.run_format : f;
        if (std::string b = kv_format_backend_note(run, load.gpu ? load.gpu : r.gpu); !b.empty()) notes.push_back(std::move(b));
    }
    // The rule is evaluate()'s (the verdict is already FAIL when it does not run); the sentence is the core's.
    if (!t.kv_dtype_runs || !t.kv_dtype_support_known)
        notes.push_back(kv_hardware_sentence(r, load.gpu ? load.gpu : r.gpu) +
                        (t.kv_dtype_runs ? "" : "; the verdict is FAIL"));
    for (const auto& n : r.plan_notes) notes.push_back(n);
    if (r.footprint.num_growing_layers == 0 && r.footprint.num_sliding_layers == 0 &&
        r.footprint.num_recurrent_layers == 0)
        notes.push_back("no KV cache; weights only: " + m.id +
                        " keeps nothing between requests (encoder-only / embedding model), so max_model_len and "
                        "max_num_seqs change only its activations");
    if (r.engine == EngineId::llama_cpp)
        notes.push_back(cat("engine llama.cpp: weights, KV cache and the GPU compute buffer (",
                            gib_text(t.activation_bytes),
                            " per card: the graph llama.cpp reserves at start, with every layer on the GPU) are "
                            "modelled; the CUDA context and the host buffers are not, so leave room for them"));
    else if (!engine_info(r.engine).accounts_non_kv)
        notes.push_back(std::string("engine ") + engine_info(r.engine).name +
                        ": only weights and KV cache are modelled (activation, CUDA graphs and runtime buffers are "
                        "not); the verdict covers what is modelled");
    else if (r.non_kv.kind == NonKvModel::Kind::vllm_accounting) {
        const VllmAccounting& a = explained;
        notes.push_back(cat("non-KV terms: vLLM ", set.vllm_version, " start-up accounting (budget ceil(",
                            two_decimals(std::llround(set.gpu_memory_utilization * 100)), " × CUDA total ",
                            gib_text(a.cuda_total_bytes), r.non_kv.device.cuda_total_estimated ? ", estimated" : "",
                            "), torch peak ", gib_text(a.torch_peak_bytes), ", non-torch ",
                            gib_text(a.non_torch_bytes), ", CUDA graphs ", gib_text(a.cudagraph_bytes),
                            a.cudagraph_subtracted ? " subtracted" : " outside the budget", "); ±",
                            gib_text(r.non_kv.error_band_bytes), " per card: ", a.band_basis));
    }
    else if (!m.calibrated)
        notes.push_back(cat(m.id, " has fewer than 4 measured anchors: the ", set.family,
                            " activation fit is a projection, so expect more than the ±1.5 GB error band"));
    if (t.kv_dtype_runs && t.kv_requested_bytes > 0 && t.available_for_kv_bytes > t.kv_requested_bytes * 3 / 2)
        notes.push_back(cat("KV is cheap here: the pool could hold ", gb(t.available_for_kv_bytes), ", ",
                            gb(t.kv_requested_bytes), " requested — room for more max_num_seqs or max_model_len"));
    if (set.tensor_parallel_size > 4)
        notes.push_back("tensor_parallel_size above 4 is outside every measured anchor (all are TP ≤ 4)");
    if (breakdown_estimates)
        notes.push_back("draft / compressed / indexer KV are breakdown estimates only; the verdict does not include them");
}

CacheBreakdown breakdown_for(const Scenario& s, const Deployment& r, const Load& load, const BudgetTerms& t) {
    const ResolvedSettings& set = r.settings;
    const int tp = set.tensor_parallel_size;
    CacheBreakdown b;
    if (s.compressed_layers > 0 || s.indexer_ratio_layers > 0) b.layout = "compressed_sparse";
    else if (r.footprint.num_recurrent_layers > 0) b.layout = "hybrid_mamba";
    else if (r.footprint.num_sliding_layers > 0) b.layout = "sliding_window";
    else {
        b.layout = "dense_gqa";
        for (const auto& g : r.groups)
            if (layer_mixer_weights(g.cache) == MixerWeights::mla_attention) b.layout = "mla";
    }
    b.growing_kv_bytes = t.kv_growing_requested_bytes;
    b.sliding_kv_bytes = t.kv_sliding_requested_bytes;
    b.recurrent_state_bytes = t.recurrent_state_requested_bytes;
    // compressed_layers × floor(len / ratio) × head_dim × bpe × seqs / tp (docs/SOURCES.md "The KV formula"); head dim 0 =
    // the model's. Saturating; resolve() bounds the extras so that they stay below 2^58 at any load.
    const bool extras = s.compressed_layers > 0 || s.indexer_ratio_layers > 0;
    const std::int64_t head_dim = extras ? model_head_dim(*r.model) : 0;  // per call: only when it is used
    const std::int64_t compressed_dim = s.compressed_head_dim > 0 ? s.compressed_head_dim : head_dim;
    const std::int64_t indexer_dim = s.indexer_head_dim > 0 ? s.indexer_head_dim : head_dim;
    // (each product only when its layers exist: these are divisions by inputs, per predict())
    const std::int64_t compressed_per_seq =
        s.compressed_layers == 0
            ? 0
            : sat_ceil_div(sat_mul(sat_mul(std::int64_t{s.compressed_layers} * (load.max_model_len / s.compression_ratio),
                                           compressed_dim),
                                   r.format->bpe_x400),
                           kBpeDenominator);
    b.compressed_kv_bytes = compressed_per_seq == 0 ? 0 : sat_ceil_div(sat_mul(compressed_per_seq, priced_requests(load)), tp);
    // The field row is looked up once and the spelling read only when there are indexer layers: this runs per
    // predict() (with none, the product is 0 either way).
    static const ScenarioField& indexer_field = *find_scenario_field("indexer_format");
    const std::int64_t indexer_per_seq =
        s.indexer_ratio_layers == 0
            ? 0
            : sat_ceil_div(sat_mul(sat_mul(std::int64_t{s.indexer_ratio_layers} *
                                               (load.max_model_len / s.indexer_compress_ratio),
                                           indexer_dim),
                                   indexer_bpe_x400(canonical_choice(indexer_field, s.indexer_format))),
                           kBpeDenominator);
    b.indexer_bytes = indexer_per_seq == 0 ? 0 : sat_ceil_div(sat_mul(indexer_per_seq, priced_requests(load)), tp);
    b.draft_kv_bytes = s.include_draft_kv ? gb_to_bytes(s.draft_kv_gb) : 0;
    b.subtotal_bytes = sat_add(sat_add(sat_add(b.growing_kv_bytes, b.sliding_kv_bytes), sat_add(b.recurrent_state_bytes, b.compressed_kv_bytes)),
                               sat_add(b.indexer_bytes, b.draft_kv_bytes));
    return b;
}

// Error naming the input behind a byte count at or above kMaxBytes (2^60 B per card), the bound below which no
// sum of terms, and no engine rule's variant of them, can overflow int64 (input_limits.h). No real request is
// near it: a GPU has < 2^38 B.
bool too_large(const BudgetTerms& t, const Load& load, Diagnostics& d) {
    if (t.demand_bytes < kMaxBytes) return false;
    // The term that overflows, by bytes, even where the fixed terms also exceed the budget (largest_term would then
    // name a fixed one): an unbounded budget turns that rule off.
    BudgetTerms by_bytes = t;
    by_bytes.budget_bytes = std::numeric_limits<std::int64_t>::max();
    const std::string term(largest_term(by_bytes));
    const char* field = term == "recurrent_state" ? "max_num_seqs" : term == "activation" ? "max_num_batched_tokens"
                                                                                             : "max_model_len";
    d.push_back({Severity::error, "too_large", field,
                 "max_model_len " + std::to_string(load.max_model_len) + " × max_num_seqs " +
                     std::to_string(load.max_num_seqs) + " needs at least 2^60 bytes (1.15 EB) per card for this model, mostly " +
                     std::string(term_label(term)) +
                     ": more than kvcalc computes without overflow; lower max_model_len or max_num_seqs"});
    return true;
}

// The wording of a report whose numbers are evaluated: the same text whether predict() writes it at once or
// render_text() later.
void write_text(Report& rep, const Deployment& d, const Load& load) {
    rep.reason = reason_for(rep.verdict, rep.terms, load.max_num_seqs, engine_info(d.engine));
    if (!rep.terms.kv_dtype_runs) rep.reason = kv_hardware_sentence(d, load.gpu ? load.gpu : d.gpu);
    const bool accounts = engine_info(d.engine).accounts_non_kv;
    const VllmAccounting explained = accounts ? detail::explain_non_kv(d) : VllmAccounting{};
    rep.notes.clear();
    rep.notes.reserve(6);
    add_notes(rep.breakdown_estimates, d, load, rep.terms, explained, rep.notes);
    // Settings left unset, as the engine fills them in: resolve()'s (length, KV dtype, other engines' load),
    // then vLLM's accounting's.
    rep.assumed_defaults = detail::load_assumed_defaults(d);
    if (accounts) {
        const bool accounted = d.non_kv.kind == NonKvModel::Kind::vllm_accounting;
        rep.non_kv_model = accounted ? cat("vLLM ", d.settings.vllm_version, " start-up accounting (",
                                           explained.band_basis, ")")
                                     : cat("calibrated fit (", d.settings.family, ", measured boots)");
        // A calibrated fit prices activation itself, so of the batch only its reach into the KV cache shows:
        // vLLM's sliding-window and chunked pages hold window − 1 + max_num_batched_tokens tokens
        // (kv_cache_interface.py SlidingWindowSpec.max_memory_usage_bytes), so a card past 70 GiB that moves the
        // default batch from 2048 to 8192 grows that term, and the report says which batch it priced.
        const bool batch_sizes_kv = detail::plan_kv_grows_with_batch(d);
        for (const auto& x : explained.assumed_defaults)
            if (accounted || x.rfind("block_size", 0) != 0) {
                if (!accounted && !batch_sizes_kv && x.rfind("max_num_batched_tokens", 0) == 0) continue;
                rep.assumed_defaults.push_back(x);
            }
    }
    if (!rep.assumed_defaults.empty()) {
        std::string list;
        for (const auto& x : rep.assumed_defaults) list += (list.empty() ? "" : "; ") + x;
        rep.notes.push_back(cat("assumed ", engine_info(d.engine).display_name, " defaults: ", list));
    }
    StartupPrediction worded = startup_lines(d, load, rep.terms, true);
    rep.startup.engine_rules = std::move(worded.engine_rules);
    rep.startup.lines = std::move(worded.lines);
    // vLLM's refusal names the longest length that fits ("estimated maximum model length is N"): the length
    // predict() found from the verdict's own terms.
    if (rep.startup.refuses_to_start && rep.startup.estimated_max_model_len > 0)
        rep.startup.lines.push_back(
            {"estimated maximum model length", std::to_string(rep.startup.estimated_max_model_len), "tokens"});
    rep.startup.notes = std::move(worded.notes);
    if (rep.startup.refuses_to_start && rep.verdict == Verdict::fail)
        for (auto& n : rep.startup.notes)  // the engine's note states the length the verdict's terms boot
            if (n.find("estimated maximum model length is ") != std::string::npos)
                n = n.substr(0, n.rfind(' ') + 1) + std::to_string(rep.startup.estimated_max_model_len);
    rep.command = serve_command(d, load);
    rep.text_rendered = true;
}

// predict() at a load into `rep` (a default Report): the one body of both predict() overloads.
void fill_report(Report& rep, const Scenario& scenario, std::shared_ptr<const Deployment> dp, const Load& load,
                 ReportText text) {
    if (!dp->tp_options || !dp->model_facts) {  // a deployment made by hand: the Report points at its lists
        auto filled = std::make_shared<Deployment>(*dp);
        if (!filled->tp_options) filled->tp_options = detail::shared_tensor_parallel_options(*filled->model);
        if (!filled->model_facts) filled->model_facts = detail::shared_model_facts(*filled->model);
        dp = std::move(filled);
    }
    const Deployment& d = *dp;
    rep.diagnostics = check_load(d, load);
    if (has_error(rep.diagnostics)) return;
    evaluate(d, load, rep.terms);
    if (too_large(rep.terms, load, rep.diagnostics)) return;
    rep.ok = true;
    rep.verdict = classify(rep.terms);
    rep.engine = engine_info(d.engine).name;
    rep.limiting_term = largest_term(rep.terms);
    rep.effective_max_num_seqs = std::min(rep.terms.max_concurrency, static_cast<double>(load.max_num_seqs));
    term_list(rep.terms, rep.term_list);
    rep.breakdown_estimates = scenario.include_draft_kv || scenario.compressed_layers > 0 ||
                              scenario.indexer_ratio_layers > 0;
    rep.breakdown = breakdown_for(scenario, d, load, rep.terms);
    engine_buckets(d, load, rep.terms, rep.buckets);
    rep.tp_options = d.tp_options.get();
    rep.calibrated = d.model->calibrated && d.non_kv.kind == NonKvModel::Kind::seed_fit;
    rep.error_band_bytes = d.non_kv.error_band_bytes;
    rep.model_facts = d.model_facts.get();
    startup_lines(d, load, rep.terms, false, rep.startup);
    // llama.cpp sizes its buffers over all devices: the same 2^60 limit applies to what it would allocate.
    if (rep.startup.kv_total_bytes_all_devices >= kMaxBytes) {
        rep.diagnostics.push_back({Severity::error, "too_large", "max_model_len",
                                   std::string(engine_info(d.engine).display_name) + "'s KV buffers for max_model_len " + std::to_string(load.max_model_len) +
                                       " × max_num_seqs " + std::to_string(load.max_num_seqs) +
                                       " would need at least 2^60 bytes (1.15 EB), the most kvcalc computes without "
                                       "overflow: lower max_model_len or max_num_seqs"});
        rep.ok = false;
        return;
    }
    if (rep.startup.stop == StartupStop::kv_below_one_request && rep.verdict == Verdict::fail) {
        // The length that boots, from the same terms as the verdict (the non-KV fit may shrink with the length).
        const SolveResult fit = load.max_model_len > 1 ? solve_max_model_len(d, load, FitCriterion::boots, load.max_model_len - 1)
                                                       : SolveResult{};
        rep.startup.estimated_max_model_len = fit.ok ? fit.value : 0;
    }
    rep.settings = d.settings;
    rep.settings.max_model_len = load.max_model_len;
    rep.settings.max_num_seqs = load.max_num_seqs;
    rep.settings.max_num_seqs_is_default = load.max_num_seqs_is_default;
    rep.settings.vram_bytes = load.vram_bytes;
    rep.load = load;
    if (text == ReportText::all) write_text(rep, d, load);
    rep.deployment = std::move(dp);
}

}  // namespace

Report predict(const Scenario& scenario, std::shared_ptr<const Deployment> dp, const Load& load, ReportText text) {
    Report rep;
    fill_report(rep, scenario, std::move(dp), load, text);
    return rep;
}

Report predict(const Scenario& scenario, const Deployment& d, const Load& load) {
    return predict(scenario, std::make_shared<const Deployment>(d), load, ReportText::all);
}

void render_text(Report& rep) {
    if (!rep.ok || rep.text_rendered || !rep.deployment) return;
    write_text(rep, *rep.deployment, rep.load);
}

Report predict(const Scenario& scenario, ReportText text) {
    Diagnostics early;
    std::shared_ptr<const Deployment> d = detail::resolve_shared(scenario, early);
    // One named Report on every path, so that it is built in place (a Report is large: a moved copy and its
    // destruction cost as much as pricing the KV).
    Report rep;
    if (!d) {
        rep.diagnostics = std::move(early);
        for (auto& x : check_load(Deployment{}, {scenario.max_model_len != 0 ? scenario.max_model_len : 1, 1, 1})) {
            // resolve() range-checks max_model_len too: one problem, one diagnostic.
            const bool said = std::any_of(rep.diagnostics.begin(), rep.diagnostics.end(),
                                          [&](const Diagnostic& y) { return y.code == x.code && y.field == x.field; });
            if (!said) rep.diagnostics.push_back(std::move(x));
        }
        return rep;
    }
    const Load load = d->load();
    fill_report(rep, scenario, std::move(d), load, text);
    if (!early.empty()) {
        early.insert(early.end(), rep.diagnostics.begin(), rep.diagnostics.end());
        rep.diagnostics = std::move(early);
    }
    return rep;
}

}  // namespace kvcalc
