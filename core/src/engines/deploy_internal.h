// Private seams of the deployment: the per-engine plan builders, KV pricing, start-up lines and commands
// (engines/<engine>/deploy.cpp and kv_dtype.cpp each), and the non-KV model (non_kv.cpp).
#pragma once
#include <string>
#include <string_view>

#include "kvcalc/engines/deployment.h"

namespace kvcalc::detail {

/// The engine's per-card plan for `d` (model, format, TP and groups already resolved); errors in `diags`.
KvPlan make_plan(const Deployment& d, Diagnostics& diags);
/// The plan's engine's kv_grows_with_batch / plan_batch_stale (below, one per engine).
bool plan_kv_grows_with_batch(const Deployment& d);
bool plan_stale_for_batch(const Deployment& d, std::int64_t batched);

/// Sets d.non_kv (seed fit, vLLM's start-up accounting, none for llama.cpp/SGLang) and applies vLLM's defaults
/// to max_num_seqs = 0 / gpu_memory_utilization = 0 / unset max_num_batched_tokens in d.settings.
void resolve_non_kv(const Scenario& s, VllmEra era, const ActivationFit* fit, Deployment& d);

/// The load-dependent part of resolve_non_kv (the load's flags, accounting, kind, vLLM's defaults in
/// d.settings), for a deployment whose d.non_kv dims, device, era and other flags were resolved from a scenario
/// that differs from `s` at most in its load, and whose settings hold `s`'s load. No-op for llama.cpp / SGLang.
void bind_non_kv(const Scenario& s, const ActivationFit* fit, Deployment& d);

/// vllm_account() whose wording (`explain`) may leave out the source list (`sources` = false): predict()'s notes
/// show the assumed defaults and the band's basis, never the sources.
VllmAccounting vllm_account_worded(const VllmProfileDims& dims, const VllmDevice& device, const VllmServeFlags& flags,
                                   VllmEra era, std::int64_t weights_bytes_per_rank, bool explain, bool sources);

/// d.non_kv.accounting with its wording (assumed_defaults; band_basis for Kind::vllm_accounting, no sources),
/// which resolve() leaves out: only predict() shows it. vLLM engine only.
VllmAccounting explain_non_kv(const Deployment& d);

/// The card of a load as vLLM sees it: the load's catalog GPU, else the deployment's card, else a card of that
/// VRAM.
VllmDevice vllm_device_for(const Deployment& d, const Load& load);

/// Fills t.activation_bytes, t.gdn_scratch_delta_bytes and t.cudagraph_workspace_bytes at `load`.
void non_kv_terms(const Deployment& d, const Load& load, BudgetTerms& t);

/// Checks the vLLM memory flags of `s` against the resolved model and TP (vllm_flags.cpp): --block-size outside
/// vLLM's list, TP × DP above kvcalc's 8 cards, flags another engine does not read (warnings), an offload larger
/// than the weights.
void check_vllm_flags(const Scenario& s, const Deployment& r, Diagnostics& diags);
/// Copies the vLLM memory flags into `r` and sets r.weights_bytes_per_card (after fill_settings, before
/// resolve_non_kv, which prices the weights on a card); a warning when the offload exceeds the weights.
void resolve_vllm_flags(const Scenario& s, Deployment& r, Diagnostics& diags);
/// Routed-expert share of the model's parameters (0 for dense models or when the count is unknown):
/// layers × experts × 3 × hidden × moe_intermediate over num_parameters, at most 1.
double routed_expert_share(const ModelSpec& m);

/// Resolves Scenario::measured into d.non_kv.measured (kvcalc's own terms at the measured boot, the log's terms
/// split where it printed only their sum); warnings when the log's terms do not add up. No-op without it.
Diagnostics resolve_measured(const Scenario& s, Deployment& d);

/// Replaces the predicted non-KV terms in `t` (set by non_kv_terms at `load`) by the measured ones, each scaled
/// by kvcalc's ratio between `load` and the measured boot; the budget from the measured total on the boot's card.
void apply_measured(const Deployment& d, const Load& load, BudgetTerms& t);

/// "vllm, llama.cpp, sglang" for diagnostics.
std::string engine_name_list();

// ---- per engine: plan, KV at a load (fills the kv_* fields, max_concurrency, block_tokens from
// t.available_for_kv_bytes), start-up lines (`explain` = false: numbers only), command ----
VllmPlan make_vllm(const Deployment& d, Diagnostics& diags);
void price_kv(const Deployment& d, const VllmPlan& p, const Load& load, BudgetTerms& t);
void startup(const Deployment& d, const VllmPlan& p, const Load& load, const BudgetTerms& t, bool explain,
             StartupPrediction& out);
std::string command(const Deployment& d, const VllmPlan& p, const Load& load);
/// Layer group `group` of d.groups as the plan allocates it at `load` (a buckets row, buckets.h).
EngineBucket bucket(const Deployment& d, const VllmPlan& p, const Load& load, std::size_t group);
EngineKvSpelling vllm_spelling(KvFormatId id);
/// vLLM's kv_cache_dtype auto (EngineInfo::resolve_auto_kv; vllm/kv_dtype.cpp cites the rule).
AutoKvResolution vllm_auto_kv(std::string_view torch_dtype, std::string_view model_type, int sm_x10,
                              std::string_view checkpoint_kv_cache_dtype);
/// vllm_spelling() as static text (no allocation: the start-up lines and the command use it per call).
struct VllmDtype {
    const char* name;
    bool exact;
    KvFormatId stand_in = KvFormatId::fp16;  ///< when !exact: the format priced instead (EngineKvSpelling)
};
VllmDtype vllm_dtype(KvFormatId id);
/// One max_model_len request at a plan and KV memory, as price_kv() found it: its bytes (vllm_request_split) and
/// the concurrency the pool holds (free blocks / blocks per request), so that the start-up lines reuse them.
struct VllmRequestCost {
    std::int64_t kv_needed_bytes = 0;
    double max_concurrency = 0.0;
};
/// The numbers of vLLM's KV pool lines for a plan without errors (kv_cache_utils.py _report_kv_cache_config and
/// the start-up check): the numeric fields of VllmKvPrediction, without its text. `batched`: the
/// max_num_batched_tokens vLLM runs at this load (0 = the plan's). `known`: the request's cost at this plan,
/// length and memory, already priced (nullptr: computed here by the same functions).
struct VllmPool {
    std::int64_t available_kv_bytes = 0;
    double available_kv_gib = 0.0;
    std::int64_t kv_bytes_per_token = 0;
    int num_kv_cache_groups = 0;
    std::int64_t page_size_bytes = 0;
    std::int64_t num_blocks = 0;
    std::int64_t gpu_kv_cache_tokens = 0;  ///< blocks // groups × the smallest block (V1's unified count)
    double max_concurrency = 0.0;
    std::int64_t kv_needed_bytes = 0;
    bool refuses_to_start = false;
    std::int64_t estimated_max_model_len = 0;
};
VllmPool vllm_pool(const VllmPlan& plan, std::int64_t max_model_len, std::int64_t available_kv_bytes,
                   std::int64_t batched, const VllmRequestCost* known);
/// The engine's notes on a pool (`ranks` sharing it; the refusal and its suggested length; hybrid groups),
/// appended to `notes`.
void vllm_pool_notes(const VllmPool& pool, int ranks, std::vector<std::string>& notes);
/// vllm_kv_lines() with the same available KV memory on each of `ranks` ranks (no per-rank vector): the plan's
/// diagnostics, vllm_pool and its notes.
VllmKvPrediction vllm_kv_lines_uniform(const VllmPlan& plan, std::int64_t max_model_len, std::int64_t available_kv_bytes,
                                       int ranks);
/// Whether the plan's KV pages depend on max_num_batched_tokens: vLLM's sliding-window and chunked pages hold
/// window − 1 + max_num_batched_tokens tokens (kv_cache_interface.py SlidingWindowSpec.max_memory_usage_bytes).
bool kv_grows_with_batch(const VllmPlan& p);
/// The plan was sized for another max_num_batched_tokens than `batched` and must be made again.
inline bool plan_batch_stale(const VllmPlan& p, std::int64_t batched) { return p.max_num_batched_tokens != batched; }
/// max_num_batched_tokens as vLLM runs it at `load`: the scenario's, else vLLM's default for the card, the
/// release and max_num_seqs × max_model_len.
std::int64_t vllm_batched_tokens(const Deployment& d, const Load& load);

LlamaCppPlan make_llama_cpp(const Deployment& d, Diagnostics& diags);
/// The settings llama.cpp runs at `load`: -c = (max_model_len + MTP positions) × max_num_seqs over -np sequences.
LlamaCppSettings llama_cpp_load_settings(const Deployment& d, const LlamaCppPlan& p, const Load& load);
/// llama.cpp's non-KV term at `load`: the GPU compute buffer (llama_cpp_compute_band's upper bound) as
/// activation_bytes. Weights are the deployment's; CUDA context and runtime buffers are not priced.
void price_non_kv(const Deployment& d, const LlamaCppPlan& p, const Load& load, BudgetTerms& t);
void price_kv(const Deployment& d, const LlamaCppPlan& p, const Load& load, BudgetTerms& t);
void startup(const Deployment& d, const LlamaCppPlan& p, const Load& load, const BudgetTerms& t, bool explain,
             StartupPrediction& out);
/// The first words of the llama-server command, naming the model: a comment line and `llama-server -m X.gguf`,
/// or `llama-server --hf-repo ORG/NAME --hf-file FILE` for a Hub GGUF (Deployment::LlamaCppFlags::hub_gguf).
std::string llama_cpp_model_args(const Deployment& d);
std::string command(const Deployment& d, const LlamaCppPlan& p, const Load& load);
EngineBucket bucket(const Deployment& d, const LlamaCppPlan& p, const Load& load, std::size_t group);
EngineKvSpelling llama_cpp_spelling(KvFormatId id);
/// llama.cpp sizes its caches by -c and -np; n_batch / n_ubatch size only the compute buffer.
inline bool kv_grows_with_batch(const LlamaCppPlan&) { return false; }
inline bool plan_batch_stale(const LlamaCppPlan&, std::int64_t) { return false; }
/// llama.cpp's default cache type, f16 (EngineInfo::resolve_auto_kv).
AutoKvResolution llama_cpp_auto_kv(std::string_view torch_dtype, std::string_view model_type, int sm_x10,
                                   std::string_view checkpoint_kv_cache_dtype);

SglangPlan make_sglang(const Deployment& d, Diagnostics& diags);
void price_kv(const Deployment& d, const SglangPlan& p, const Load& load, BudgetTerms& t);
void startup(const Deployment& d, const SglangPlan& p, const Load& load, const BudgetTerms& t, bool explain,
             StartupPrediction& out);
std::string command(const Deployment& d, const SglangPlan& p, const Load& load);
EngineBucket bucket(const Deployment& d, const SglangPlan& p, const Load& load, std::size_t group);
EngineKvSpelling sglang_spelling(KvFormatId id);
/// SGLang's token pool is max_total_num_tokens, whatever the prefill chunk.
inline bool kv_grows_with_batch(const SglangPlan&) { return false; }
inline bool plan_batch_stale(const SglangPlan&, std::int64_t) { return false; }
/// SGLang's kv_cache_dtype auto (EngineInfo::resolve_auto_kv; sglang/kv_dtype.cpp cites the rule).
AutoKvResolution sglang_auto_kv(std::string_view torch_dtype, std::string_view model_type, int sm_x10,
                                std::string_view checkpoint_kv_cache_dtype);

/// The KV dtype spelling a deployment's command and notes use: the engine's default "auto" when the scenario
/// asked for it (vLLM, SGLang; llama.cpp's default is f16, written out), else engine_kv_spelling of the format.
EngineKvSpelling deployment_kv_spelling(const Deployment& d);

/// The note for a format the engine lacks: which stand-in was priced.
std::string stand_in_note(const char* engine, const KvFormat& f, const EngineKvSpelling& s);

/// Model repository to serve: the resolved weights variant's hf_repo, else any hf_repo, else the model id.
const std::string& served_repo(const Deployment& d);  ///< refers into d.model
/// The weights variant the deployment prices (settings.weights_variant), or nullptr; refers into d.model.
const WeightsVariant* priced_variant(const Deployment& d);

/// "0.95" style two-decimal text.
std::string fixed2(double x);
/// printf's "%.2f" of `x` (start-up lines: the engines print their GiB and MiB so).
std::string two_decimals_text(double x);
/// Requests the pool holds as vLLM writes them, "%.2f" rounded to nearest; "0.00" for negative or non-finite
/// input (the public concurrency_text.h calls this).
std::string concurrency_text(double requests);

}  // namespace kvcalc::detail
