// Report: the per-card budget terms, the verdict and the cache breakdown for one Scenario.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kvcalc/model/buckets.h"
#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/inline_list.h"
#include "kvcalc/base/load.h"

namespace kvcalc {

struct Deployment;

/// PASS: fits with margin. TIGHT: boots, but the KV pool holds fewer than max_num_seqs full-length requests
/// (the engine caps concurrency) or demand is within the error band of the budget (±1.5 GB for seed fits; the
/// wider uncalibrated band for config.json / popular models).
/// FAIL: the engine refuses to start — the non-KV terms leave less KV memory than one max_model_len request
/// needs under the engine's own rules (vLLM: check_enough_kv_cache_memory), or they exceed the budget.
enum class Verdict { pass, tight, fail };

/// "PASS" / "TIGHT" / "FAIL".
const char* verdict_name(Verdict v);

/// Width of the TIGHT band around the budget: 1.5 GB (docs/SOURCES.md "KV-pool capping and the verdict").
inline constexpr std::int64_t kTightBandBytes = 1'500'000'000;

/// Per-card memory terms in bytes (docs/SOURCES.md "Per-card budget", vLLM's worker subtraction).
/// fixed = weights + activation + cudagraph_workspace + drafter (the non-KV terms); available_for_kv = budget −
/// fixed is the engine's KV pool. Every KV byte (growing, sliding window, recurrent state) is priced by the
/// engine's per-layer plan and lives in that pool; kv_granted = min(kv_requested, available_for_kv) because the
/// engine sizes the pool to what is left (docs/SOURCES.md "KV-pool capping and the verdict").
struct BudgetTerms {
    /// The KV format the engine stores (Deployment::run_format) has a kernel on the load's card (kv_format_support;
    /// true when that is not known). false fails the verdict whatever the bytes: the engine cannot start there.
    bool kv_dtype_runs = true;
    /// false when kvcalc has no source for the format on that card (VRAM typed in, or no ROCm statement): the
    /// verdict then assumes it runs and a note says so.
    bool kv_dtype_support_known = true;
    std::int64_t weights_bytes = 0;
    std::int64_t kv_growing_requested_bytes = 0;  ///< full attention / MLA of max_num_seqs requests
    std::int64_t kv_growing_granted_bytes = 0;    ///< its share of the granted pool
    std::int64_t kv_sliding_bytes = 0;            ///< sliding-window layers, share of the granted pool
    std::int64_t recurrent_state_bytes = 0;       ///< Mamba / DeltaNet state, share of the granted pool
    std::int64_t kv_sliding_requested_bytes = 0;  ///< sliding-window layers of max_num_seqs requests
    std::int64_t recurrent_state_requested_bytes = 0;  ///< recurrent state of max_num_seqs requests
    std::int64_t kv_requested_bytes = 0;          ///< all KV of max_num_seqs full-length requests
    std::int64_t kv_granted_bytes = 0;            ///< min(kv_requested, available_for_kv)
    std::int64_t activation_bytes = 0;            ///< includes gdn_scratch_delta_bytes
    std::int64_t gdn_scratch_delta_bytes = 0;     ///< may be negative (smaller batch than calibrated)
    std::int64_t cudagraph_workspace_bytes = 0;
    std::int64_t drafter_bytes = 0;
    std::int64_t fixed_bytes = 0;                 ///< the non-KV terms
    std::int64_t budget_bytes = 0;                ///< gpu_memory_utilization × VRAM
    std::int64_t available_for_kv_bytes = 0;      ///< max(0, budget − fixed): the engine's KV pool
    std::int64_t demand_bytes = 0;                ///< fixed + kv_requested
    std::int64_t total_bytes = 0;                 ///< fixed + kv_granted (what the engine will reserve)
    std::int64_t kv_one_sequence_bytes = 0;       ///< KV one max_model_len request needs (the start-up check)
    std::int64_t kv_tokens_per_sequence = 0;      ///< max_model_len + MTP extra positions
    double kv_bytes_per_token = 0.0;              ///< growing KV per token per request on one card
    double max_concurrency = 0.0;                 ///< full-length requests the pool holds (vLLM "Maximum concurrency")
    std::int64_t block_tokens = 1;                ///< the engine's allocation step in tokens (vLLM block size)
    /// vLLM's max_num_batched_tokens at this load, which sizes each sliding-window layer's pages per request
    /// (the user's flag or vLLM's default for the card and load); 0 for the other engines.
    std::int64_t max_num_batched_tokens = 0;
    std::int64_t tight_band_bytes = kTightBandBytes;  ///< TIGHT when budget − demand is below this (the error band)
    /// --kv-cache-memory-bytes: available_for_kv_bytes is the flag (vLLM allocates it whole, without a profile) and
    /// budget_bytes is the card's CUDA total, which must hold it beside the fixed terms.
    bool kv_pool_fixed = false;
};

/// One per-card term for display, in the order the budget subtracts them (rendered by a loop).
/// id and label are static text (they outlive every Report).
struct Term {
    std::string_view id;     ///< "weights", "activation", "cudagraph_workspace", "drafter", "kv_growing",
                             ///< "kv_sliding", "recurrent_state"
    std::string_view label;  ///< people's wording, e.g. "KV cache (growing)"
    std::int64_t bytes;      ///< per card; KV terms as granted
};

/// The non-zero per-card terms of a report, in subtraction order, held inline (at most one of each of the seven
/// terms): iterate it like a vector.
using TermList = InlineList<Term, 7>;

/// The non-zero terms of `t` that make up total_bytes, in subtraction order.
TermList term_list(const BudgetTerms& t);
/// The same, written into `out` (predict() fills its Report's list in place).
void term_list(const BudgetTerms& t, TermList& out);

/// People's wording of a term id from the same table as term_list(), e.g. "kv_growing" → "KV cache (growing)",
/// "weights" → "Weights" (static text); an id not in the table comes back unchanged. Every sentence naming the
/// largest term (Report::limiting_term, SolveResult::limiting_term) reads it here.
std::string_view term_label(std::string_view id);
/// Position of a term id in term_list()'s subtraction order (0 = "weights"), the number of terms for an id that
/// is not one: front ends key a term's colour on it so that it stays the same from one report to the next.
std::size_t term_rank(std::string_view id);

/// --kv-breakdown: raw cache/state buckets per card (reporting only; docs/SOURCES.md "The KV formula").
struct CacheBreakdown {
    std::string_view layout;            ///< static text: "dense_gqa", "hybrid_mamba", "sliding_window", "mla", "compressed_sparse"
    std::int64_t growing_kv_bytes = 0;  ///< requested growing KV
    std::int64_t sliding_kv_bytes = 0;
    std::int64_t recurrent_state_bytes = 0;
    std::int64_t compressed_kv_bytes = 0;
    std::int64_t indexer_bytes = 0;
    std::int64_t draft_kv_bytes = 0;
    std::int64_t subtotal_bytes = 0;
};

/// The settings after defaults, presets and catalog look-ups. The text fields view text the deployment owns
/// (Deployment::names, shared by every copy of it and every Report of it) or static tables: they are valid as long
/// as the Report or the Deployment they came from lives. Copy them into a std::string to keep them longer.
struct ResolvedSettings {
    std::string_view model_id, display_name, family;
    std::string_view weights_variant;
    std::int64_t weights_bytes_total = 0;
    /// false when the model's weights are unknown (kUnknownWeightsId, no weights_gb): weights_bytes_total is 0
    /// and every total leaves the weights out; a "weights_unknown" warning says so.
    bool weights_known = true;
    /// The busiest card's weights from the checkpoint's tensor placement (WeightsVariant::bytes_per_rank_by_tp);
    /// 0 = weights_bytes_total split evenly. Such a size includes the vision tower.
    std::int64_t weights_bytes_per_rank = 0;
    /// Weights per card as priced: weights_bytes_per_rank, else weights_bytes_total / TP rounded up.
    std::int64_t weights_bytes_per_card() const {
        if (weights_bytes_per_rank > 0) return weights_bytes_per_rank;
        const std::int64_t tp = tensor_parallel_size > 0 ? tensor_parallel_size : 1;
        return weights_bytes_total / tp + (weights_bytes_total % tp != 0 ? 1 : 0);
    }
    std::string_view gpu;               ///< empty when VRAM was given as a number
    std::int64_t vram_bytes = 0;        ///< per card
    int gpus = 0;
    int tensor_parallel_size = 0;
    std::string_view kv_cache_dtype;    ///< the format's name, "auto (bf16)" when the engine picked it
    std::int64_t max_model_len = 0;
    std::int64_t max_num_seqs = 0;
    /// max_num_seqs is vLLM's default for the card (left unset): a cap on the batch, and the KV the verdict asks
    /// for is one max_model_len request (Load::max_num_seqs_is_default).
    bool max_num_seqs_is_default = false;
    double gpu_memory_utilization = 0.0;
    std::optional<std::int64_t> max_num_batched_tokens;
    std::string_view drafter;           ///< empty when none; "custom" for drafter_gb alone
    std::int64_t drafter_bytes_total = 0;
    int num_speculative_tokens = 0;
    std::string_view vllm_version;      ///< the vLLM era priced (vllm/accounting.h VllmEraRules::id)
    /// vLLM's profile-run sampler priced: "flashinfer" or "pytorch" (vllm_default_sampler() of the era for "auto");
    /// empty for engines that price no start-up accounting.
    std::string_view vllm_sampler;
    /// How vLLM is started, as priced: "openai_api_server" (`vllm serve`) or "llm_class" (`LLM(...)`, larger
    /// max_num_batched_tokens defaults); empty for engines that price no start-up accounting.
    std::string_view vllm_usage_context;
};

/// One model fact for display, with where it came from (config.json key path, catalog source, estimate).
struct ModelFact {
    std::string fact;    ///< e.g. "num_key_value_heads"
    std::string value;   ///< e.g. "8"
    std::string source;  ///< e.g. "config.json: text_config.num_key_value_heads"
};

/// Why an engine stops at start-up instead of serving, in the order it meets them (startup_stop.cpp).
enum class StartupStop {
    none,                ///< it starts
    kv_dtype_no_kernel,  ///< no attention kernel for the KV cache dtype on this card: the first forward pass fails
    weights_exceed_card, ///< the weights per card are more than the card holds: out of memory while loading them
    no_cache_memory,     ///< the fixed terms fill the budget: vLLM "No available memory for the cache blocks"
    kv_below_one_request ///< some KV is left but not one max_model_len request's: vLLM's estimated maximum model length
};

/// One line of the engine's start-up log as kvcalc predicts it, in the engine's own words: its label ("Available KV
/// cache memory", "max_total_num_tokens"), the value as the engine prints it ("12.34", "248909") and the unit
/// after it ("GiB", "tokens", "x", "MiB"; empty = none). Front ends write it with startup_line_text().
struct StartupLine {
    std::string label, value, unit;
};

/// "label: value unit"; a multiplier unit ("x") follows the value without a space, as vLLM prints "3.45x".
std::string startup_line_text(const StartupLine& line);

/// What the chosen engine prints at start-up, predicted per rank from the budget's available_for_kv_bytes
/// (vLLM) or from the same KV room (SGLang), or the KV buffers alone (llama.cpp). Zeros when not applicable.
struct StartupPrediction {
    std::string engine_rules;                   ///< which rules were applied (engine_rules.h); text (render_text)
    bool available = false;                     ///< false when the engine rules could not be applied (see notes)
    std::int64_t available_kv_bytes = 0;        ///< per rank: vLLM "Available KV cache memory", SGLang pool
    double available_kv_gib = 0.0;              ///< available_kv_bytes / 2^30
    std::int64_t kv_bytes_per_token = 0;        ///< growing layers, per rank (SGLang: cell size incl. indexer)
    std::int64_t gpu_kv_cache_tokens = 0;       ///< vLLM "GPU KV cache size: N tokens"; SGLang max_total_num_tokens
    double max_concurrency = 0.0;               ///< vLLM "Maximum concurrency for max_model_len tokens per request"
    int num_kv_cache_groups = 0;                ///< vLLM KV cache groups (> 1 for hybrid models)
    bool refuses_to_start = false;              ///< the engine stops at start-up (`stop` says why)
    StartupStop stop = StartupStop::none;       ///< why it stops; none when it starts
    std::string refusal;                        ///< the engine's error in its own terms; empty when it starts
    std::int64_t estimated_max_model_len = 0;   ///< vLLM's suggestion printed with the refusal (0 = none)
    /// The KV buffers summed over every cache and device, for an engine that prints that total (llama.cpp
    /// "llama_kv_cache: size"; JSON key llama_cpp_kv_total_bytes); 0 otherwise.
    std::int64_t kv_total_bytes_all_devices = 0;
    /// The engine's start-up lines about its KV cache, in its log's order (empty when not `available`), then
    /// the estimated maximum model length when it refuses (predict.cpp); text (render_text). `refusal` is apart.
    std::vector<StartupLine> lines;
    /// Engine notes (hybrid token count, rounding, what is not modelled); text (render_text).
    std::vector<std::string> notes;
};

/// Everything predict() answers. When `ok` is false only `diagnostics` is meaningful. The fields marked "text"
/// are the wording of the numbers: predict() writes them unless asked for ReportText::on_request, and then
/// render_text(report) writes the same text from `deployment` and `load` (predict.h).
struct Report {
    bool ok = false;
    Diagnostics diagnostics;
    ResolvedSettings settings;
    BudgetTerms terms;
    Verdict verdict = Verdict::fail;
    std::string reason;                 ///< one line; text
    std::string_view limiting_term;     ///< largest per-card term ("weights", "kv_growing", ...); static text
    std::vector<std::string> notes;     ///< advisory notes; text
    double effective_max_num_seqs = 0;  ///< full-length requests the granted pool holds (terms.max_concurrency)
    CacheBreakdown breakdown;
    BucketList buckets;
    TermList term_list;                  ///< term_list(terms)
    /// tensor_parallel_size 1..8 for this model, with reasons: per model, owned by `deployment` (valid while the
    /// Report lives); never null when ok.
    const std::vector<TpOption>* tp_options = nullptr;
    std::string command;                 ///< serve_command(): the engine's start command for this scenario; text
    std::string_view engine;             ///< "vllm", "llama.cpp" or "sglang"; static text
    /// true: the non-KV terms come from a seed family fit with ≥ 4 measured anchors. false: a projection
    /// (seed family with few anchors) or estimate_vllm_overheads (config.json / popular models, "uncalibrated").
    bool calibrated = false;
    std::int64_t error_band_bytes = 0;   ///< ± on the non-KV terms per card (1.5 GB for seed fits)
    /// Which model priced the non-KV terms: "calibrated fit (<family>)" or "vLLM <era> start-up accounting",
    /// with the logs behind error_band_bytes. Text.
    std::string non_kv_model;
    std::vector<std::string> assumed_defaults;  ///< vLLM defaults applied to flags the user left unset; text
    /// What the model was read as, with sources. Owned by `deployment` (catalog models share one list per model);
    /// valid while the Report lives; never null when ok.
    const std::vector<ModelFact>* model_facts = nullptr;
    StartupPrediction startup;
    /// The text fields are written (predict() with ReportText::all, or render_text()).
    bool text_rendered = false;
    /// What the report evaluated, for render_text(): the resolved deployment (shared and immutable) and the load.
    /// Null when not ok.
    std::shared_ptr<const Deployment> deployment;
    Load load;
    /// The scenario asked for draft / compressed / indexer breakdown estimates (a note says the verdict omits them).
    bool breakdown_estimates = false;
};

}  // namespace kvcalc
