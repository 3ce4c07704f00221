// A resolved deployment (model × KV format × TP × engine, with the engine's per-card layer plan and the non-KV
// model) and its evaluation at a load (max_model_len, max_num_seqs, VRAM). Everything kvcalc answers — the verdict,
// the solvers, GPU shopping, the demand curve and the predicted start-up lines — evaluates one Deployment.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "kvcalc/model/activation.h"
#include "kvcalc/engines/engine_rules.h"
#include "kvcalc/base/engine_id.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/base/kv_format.h"
#include "kvcalc/model/layer_cache.h"
#include "kvcalc/base/load.h"
#include "kvcalc/engines/report.h"
#include "kvcalc/base/scenario.h"
#include "kvcalc/engines/vllm/accounting.h"

namespace kvcalc {

/// The engine's spelling of a KV format (vLLM --kv-cache-dtype, llama.cpp -ctk/-ctv, SGLang --kv-cache-dtype);
/// `exact` is false when the engine has no such format and `k`/`v` name the stand-in that is priced instead.
struct EngineKvSpelling {
    std::string k, v;  ///< v differs from k only for llama.cpp's split K/V types
    bool exact = true;
    /// When !exact: the format `k`/`v` spell, which the engine's plan prices (engine_run_format) and the
    /// stand-in note quotes the bytes of. Each engine's table names it beside the spelling (kv_dtype.cpp).
    KvFormatId stand_in = KvFormatId::fp16;
};

/// What an engine does with max_model_len above its derived maximum (context_limit.h). vLLM raises
/// (_get_and_verify_max_len) unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1, then warns that positions past the derived
/// length give NaN under RoPE or out-of-bounds indexing with absolute positions; SGLang raises (ModelConfig
/// context_length check) unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1; llama.cpp only warns
/// "n_ctx_per_seq > n_ctx_train" (llama-context.cpp) and runs.
struct LongContextRule {
    /// The environment variable that lets the engine start past the maximum (Scenario::allow_long_max_model_len
    /// stands for it); nullptr when the engine never refuses.
    const char* allow_env;
    /// For an engine that never refuses: what it does instead (the warning's tail).
    const char* warns;
};

/// The engine's command-line defaults for load settings a scenario leaves at 0, when kvcalc fills them itself;
/// all nullptr for an engine whose own defaults depend on the card and release (vLLM: vllm/accounting.h).
struct LoadDefaultsText {
    const char* max_num_seqs;            ///< assumed_defaults line for max_num_seqs 1
    const char* gpu_memory_utilization;  ///< assumed_defaults line for the 0.90 share of the card
};

/// Why an engine stops at start-up, in its own words (startup_stop.cpp), where the engines differ.
struct StartupStopText {
    /// No memory left for the cache after the fixed terms: the sentence up to "(the …, X per card" (then
    /// EngineInfo::memory_fraction). nullptr for an engine without a memory fraction (llama.cpp allocates what it
    /// is asked for).
    const char* no_cache_memory;
    const char* fixed_terms;      ///< "the fixed terms", "the weights"
    /// The same stop as the result sentence's last clause (result_sentence.h), a whole sentence.
    const char* no_cache_memory_sentence;
    /// fp8_e4m3 on an NVIDIA card without the kernel, when the engine stops before the hardware rule's sentence
    /// would apply (vLLM's Triton path); nullptr = the hardware sentence.
    const char* fp8_e4m3_no_kernel;
    /// Engines that allocate every slot's cache at start-up (kv_for_every_slot): what the slots are called and
    /// how the context is sized, e.g. "-np slots (-c = max_num_seqs × max_model_len)"; nullptr otherwise.
    const char* all_slots;
    /// …and the stop when that cache does not fit, e.g. "llama.cpp cannot allocate it at start-up".
    const char* all_slots_stop;
};

/// One row of the engines table: everything kvcalc knows about an engine that is not its per-layer plan (the
/// KvPlan alternative and its deploy.cpp in core/src/engines/<engine>/).
struct EngineInfo {
    EngineId id;
    const char* name;                  ///< Scenario::engine value and Report::engine ("vllm", "llama.cpp", "sglang")
    const char* display_name;          ///< "vLLM", "llama.cpp", "SGLang"
    std::span<const char* const> aliases;  ///< other accepted spellings ("llama-cpp", "llamacpp")
    /// ModelSpec JSON key of the engine's derived context (ModelSpec::engine_context): "vllm_context".
    const char* context_key;
    LongContextRule long_context;
    /// The engine sets its own max_num_seqs / gpu_memory_utilization / max_num_batched_tokens defaults per card
    /// and release, and kvcalc prices its start-up accounting (activation, CUDA graphs, non-torch memory:
    /// NonKvModel). Only weights and KV cache are priced for the others.
    bool accounts_non_kv;
    LoadDefaultsText load_defaults;
    /// The engine's name for the share of VRAM it may use (ResolvedSettings::gpu_memory_utilization):
    /// "gpu_memory_utilization", "mem_fraction_static"; kvcalc's "usable VRAM fraction" for llama.cpp, which has
    /// none (it allocates what it is asked for, and kvcalc keeps a margin).
    const char* memory_fraction;
    /// The budget term's label in the CLI's table: "budget (mem-util x VRAM)".
    const char* budget_label;
    /// kv_cache_dtype "auto" for a model on a card (kv_format.h AutoKvResolution): the engine's own rule.
    AutoKvResolution (*resolve_auto_kv)(std::string_view torch_dtype, std::string_view model_type, int sm_x10,
                                        std::string_view checkpoint_kv_cache_dtype);
    /// The command writes kv_cache_dtype auto as "auto" (vLLM, SGLang); else it writes the resolved dtype
    /// (llama.cpp's default is f16).
    bool command_says_auto;
    /// The engine's spelling of a KV format (engine_kv_spelling).
    EngineKvSpelling (*kv_spelling)(KvFormatId format);
    StartupStopText stop_text;
    /// The engine reads vLLM's memory flags (--enforce-eager, --block-size, --kv-cache-memory-bytes,
    /// --data-parallel-size, --enable-expert-parallel, --cpu-offload-gb); the others ignore them with a warning.
    bool reads_vllm_memory_flags;
    /// The engine picks its attention backend per card, so a KV format's kernel note (kv_format_backend_note)
    /// applies: vLLM and SGLang; llama.cpp's ggml kernels store every cache type it lists.
    bool picks_attention_backend;
};

/// Every engine kvcalc prices, in EngineId order.
std::span<const EngineInfo> engines();
/// The engine for a name or alias (case-insensitive; empty = vllm); nullptr when unknown.
const EngineInfo* find_engine(std::string_view name);
/// The table row of an id.
const EngineInfo& engine_info(EngineId id);

/// llama.cpp's plan: the cache types (-ctk / -ctv) and context settings; n_ctx and n_seq_max come from the load.
struct LlamaCppPlan {
    LlamaCppSettings settings;
};

/// SGLang's plan: bytes per token of the token pool and the recurrent state per request, per rank.
struct SglangPlan {
    SglangSettings settings;
    std::int64_t cell_size_bytes = 0;           ///< all layers, K + V (+ indexer), one token
    std::int64_t state_bytes_per_request = 0;   ///< Mamba / DeltaNet state, one request
};

/// The chosen engine's per-card KV plan: one alternative per engine (EngineId order).
using KvPlan = std::variant<VllmPlan, LlamaCppPlan, SglangPlan>;

/// A calibrated deployment's terms (Scenario::measured) at the boot that printed them, beside kvcalc's own
/// prediction of the same terms at that boot. evaluate() prices each term at a load as the measured value times
/// kvcalc's ratio (its prediction at the load over its prediction at the boot), so a change moves a term only as
/// far as kvcalc's rule says it moves (core/src/deployment/measured_terms.cpp; docs/STARTUP_LOGS.md).
struct MeasuredAnchor {
    std::int64_t cuda_total_bytes = 0;       ///< the boot's total, else the card's
    std::int64_t weights_bytes = 0;          ///< per rank; holds the drafter's when `weights_hold_drafter`
    bool weights_hold_drafter = false;       ///< "Model loading took" counts every model the worker loaded
    std::int64_t activation_bytes = 0;       ///< torch peak at the boot (measured, or the log's remainder)
    std::int64_t workspace_bytes = 0;        ///< non-torch + subtracted CUDA graphs at the boot
    std::int64_t predicted_activation_bytes = 0;  ///< kvcalc's torch peak at the boot's settings
    std::int64_t predicted_workspace_bytes = 0;   ///< kvcalc's non-torch + graphs at the boot's settings
    std::optional<std::int64_t> available_kv_bytes;  ///< the pool the boot printed
    bool kv_cache_memory_fixed = false;      ///< --kv-cache-memory-bytes: the pool is the flag's
};

/// Where the non-KV terms (weights' load buffers, activation, non-torch memory, CUDA graphs) come from. The seed
/// families keep their fitted terms; other vLLM models use vLLM's start-up accounting (vllm/accounting.h);
/// llama.cpp and SGLang model none. For vLLM the era, widths, card and flags are kept either way: vLLM's
/// defaults for unset flags (max_num_batched_tokens, max_num_seqs) come from them.
struct NonKvModel {
    enum class Kind { seed_fit, vllm_accounting, none };
    Kind kind = Kind::none;
    const ActivationFit* activation = nullptr;  ///< seed_fit: the family's fit (immutable table row)
    VllmEra era = kNewestVllmEra;
    VllmProfileDims dims;
    VllmDevice device;                          ///< the scenario's card
    VllmServeFlags flags;                       ///< the flags the user set (unset = vLLM's default)
    /// At the scenario's own settings, numbers only (no wording): the whole start-up split for
    /// Kind::vllm_accounting, only vLLM's defaults for the unset flags (vllm_resolve_defaults) for Kind::seed_fit.
    VllmAccounting accounting;
    std::int64_t error_band_bytes = kTightBandBytes;  ///< ± per card on the non-KV terms
    /// vLLM's max_num_batched_tokens at `batched_at` (the scenario's own load, set when the load is bound): every
    /// evaluation at that load asks for it, and vLLM's default takes a whole defaults resolution. 0 = not kept.
    std::int64_t batched_tokens = 0;
    Load batched_at;
    /// Scenario::measured resolved against this deployment; nullopt = kvcalc's own terms.
    std::optional<MeasuredAnchor> measured;
};

/// The text behind a deployment's ResolvedSettings views (model id, display name, family, weights variant, GPU id,
/// kv_cache_dtype as shown, drafter). Immutable once resolved and shared by every copy of the Deployment and every
/// Report of it, so that a Report carries the settings' text without copying it.
struct DeploymentNames {
    std::string model_id, display_name, family, weights_variant, gpu, kv_cache_dtype, drafter;
};

/// A Scenario with every look-up done and every deployment-level input validated. Owns what it refers to
/// (the model is shared; formats, GPUs and activation fits are rows of immutable tables), so it can be copied,
/// stored and evaluated at any Load.
struct Deployment {
    std::shared_ptr<const ModelSpec> model;
    const KvFormat* format = nullptr;
    /// The scenario asked for kv_cache_dtype "auto": `format` is what it resolved to on this card, and the
    /// commands keep the engine's default spelling (vLLM/SGLang `--kv-cache-dtype auto`).
    bool kv_auto = false;
    /// What the engine stores and its command names: `format`, or the stand-in when the engine has no such dtype
    /// (engine_run_format). The hardware rule in evaluate() checks this one.
    const KvFormat* run_format = nullptr;
    const GpuSpec* gpu = nullptr;          ///< nullptr when VRAM was given as a number
    std::optional<Drafter> drafter;
    EngineId engine = EngineId::vllm;
    /// Scenario::allow_long_max_model_len: a length past the engine's derived maximum is priced with a warning.
    bool allow_long_max_model_len = false;
    /// Scenario::swa_full, n_ubatch (0 = 512) and llama_cpp_build (0 = newest): llama.cpp's KV rules read them.
    /// Scenario::hub_gguf: the command downloads that file (--hf-repo, --hf-file) instead of naming a local -m.
    struct LlamaCppFlags {
        bool swa_full = false;
        int n_ubatch = 0;
        int build = 0;
        std::string hub_gguf;
    } llama_cpp;
    ResolvedSettings settings;             ///< the scenario's own load is in here too (see load())
    std::shared_ptr<const DeploymentNames> names;  ///< owns the text settings' views point into
    /// The engine's derived maximum max_model_len for the model (context_limit(*model, engine).max_model_len),
    /// kept because check_load() asks at every solver step; -1 = not computed (check_load computes it).
    std::int64_t max_model_len_limit = -1;
    /// Load settings the scenario left at 0 ("not given") that resolve() filled in as the engine would: the
    /// report's assumed_defaults names them (vLLM's max_num_seqs and gpu_memory_utilization: non_kv.flags).
    struct Assumed {
        bool max_model_len = false;           ///< the engine's derived maximum (context_limit.h)
        bool max_num_seqs = false;            ///< llama.cpp / SGLang: 1
        bool gpu_memory_utilization = false;  ///< llama.cpp / SGLang: 0.90
    } assumed;
    std::vector<LayerGroup> groups;        ///< group_layers(*model)
    ModelFootprint footprint;              ///< kvcalc's per-layer view at this TP (breakdown layout, load bound)
    KvPlan plan;                           ///< the engine's per-card layer plan: prices every KV byte
    NonKvModel non_kv;
    std::int64_t kv_extra_tokens = 0;      ///< MTP positions added to every request
    /// Weights on one card (bytes): the checkpoint split by TP, routed experts by TP × data_parallel_size
    /// (vLLM always flattens MoE layers over the DP × TP cards), less --cpu-offload-gb (vllm_flags.cpp).
    std::int64_t weights_bytes_per_card = 0;
    /// --kv-cache-memory-bytes: the KV pool per card when set (vLLM skips the profile; the budget is the card).
    std::optional<std::int64_t> kv_cache_memory_bytes;
    int data_parallel_size = 1;            ///< --data-parallel-size: engine replicas of TP cards each
    bool enable_expert_parallel = false;   ///< --enable-expert-parallel (how experts split, not how much)
    std::int64_t cpu_offload_bytes = 0;    ///< --cpu-offload-gb × 2^30
    std::vector<std::string> plan_notes;   ///< e.g. the engine has no such KV format and a stand-in is priced
    /// tensor_parallel_options(*model) and the model's facts for display: per model, shared and immutable
    /// (computed once per catalog model), so that predict() does not rebuild them.
    std::shared_ptr<const std::vector<TpOption>> tp_options;
    std::shared_ptr<const std::vector<ModelFact>> model_facts;

    /// The scenario's own max_model_len, max_num_seqs and VRAM.
    Load load() const {
        return {settings.max_model_len, settings.max_num_seqs, settings.vram_bytes, gpu,
                engine_info(engine).accounts_non_kv && !non_kv.flags.max_num_seqs};
    }
};

/// The deployment's own load on `gpu` instead: that card's VRAM and, when max_num_seqs was left to vLLM, that
/// card's default for it (vllm/engine/arg_utils.py get_batch_defaults: 1024 on cards of ≥ 70 GiB except A100,
/// else 256; capped at max_num_batched_tokens). GPU shopping evaluates each row at this load.
Load load_on(const Deployment& deployment, const GpuSpec& gpu);

/// The model a scenario names: config_json (read with read_hf_config), else the inline model, else the catalog
/// entry for model_id (a popular model re-read when weights_dtype is set). nullptr with an error otherwise.
std::shared_ptr<const ModelSpec> scenario_model(const Scenario& scenario, Diagnostics& diagnostics);

/// Validates and resolves the deployment part of `scenario` (model, format, TP, engine, GPU/VRAM, weights,
/// drafter); appends diagnostics (errors name the field, the value and what is valid). The load is checked by
/// check_load(). Returns nullopt when any error was found.
std::optional<Deployment> resolve(const Scenario& scenario, Diagnostics& diagnostics);

/// Errors for a load this deployment cannot take: max_model_len outside 1..2^27 or above the engine's derived
/// maximum (context_limit.h; a warning instead with allow_long_max_model_len), max_num_seqs outside 1..65536,
/// VRAM ≤ 0.
Diagnostics check_load(const Deployment& deployment, const Load& load);

/// Per-card terms at `load`: the non-KV terms, then the engine's plan prices the KV (the hot path).
BudgetTerms evaluate(const Deployment& deployment, const Load& load);
/// The same into `terms`, which must be a default BudgetTerms (predict() fills its new Report's in place).
void evaluate(const Deployment& deployment, const Load& load, BudgetTerms& terms);

/// The hardware sentence for the KV dtype the engine stores (Deployment::run_format) on `card` (nullptr = VRAM
/// typed in): "kv_cache_dtype X does not run on CARD (sm_89): why", with the stand-in named when the engine runs
/// another dtype, or "not known whether …" / "hardware: …" when kvcalc has no source; empty when it runs. The
/// verdict's reason, its notes and the shopping rows all use it, so they read the same.
std::string kv_hardware_sentence(const Deployment& deployment, const GpuSpec* card);

/// PASS / TIGHT / FAIL from the terms (rules in report.h).
Verdict classify(const BudgetTerms& terms);

/// Name of the largest per-card term ("weights", "kv_growing", "kv_sliding", "recurrent_state", "activation",
/// "cudagraph_workspace", "drafter"). When the fixed terms (weights, activation, CUDA graphs, drafter) alone exceed
/// the budget, the largest of those: the engine stops before it sizes any KV, so the KV asked for limits nothing.
std::string_view largest_term(const BudgetTerms& terms);

/// The engine's start-up lines at `load`, from the same plan and the same KV memory as `terms`. `explain` = false
/// leaves out the wording (engine_rules, notes) and keeps the numbers; `stop` and its `refusal` are set either way
/// (startup_stop.cpp: why the engine stops, the same rule for every engine).
StartupPrediction startup_lines(const Deployment& deployment, const Load& load, const BudgetTerms& terms,
                                bool explain = true);
/// The same into `out`, which must be a default StartupPrediction (predict() fills its new Report's in place).
void startup_lines(const Deployment& deployment, const Load& load, const BudgetTerms& terms, bool explain,
                   StartupPrediction& out);

/// The buckets table at `load` into `out`: one row per layer group (group_layers order) as the engine's plan
/// allocates it (page bytes, tokens per page, pages per request under the engine's window rule), each holding its
/// share of `terms`' requested KV (share_priced_kv), so the rows add up to terms.kv_requested_bytes.
void engine_buckets(const Deployment& deployment, const Load& load, const BudgetTerms& terms, BucketList& out);

/// The command that starts this deployment (`vllm serve …`, `llama-server …`, `python -m sglang.launch_server …`)
/// in the engine's own flag and dtype spelling; a format the engine does not have is left out with a `#` warning
/// line saying what was priced instead.
std::string serve_command(const Deployment& deployment, const Load& load);

/// engine_info(engine).kv_spelling(format).
EngineKvSpelling engine_kv_spelling(EngineId engine, KvFormatId format);

/// The format an engine stores for `format`: `format` itself when the engine has it, else the stand-in that
/// engine_kv_spelling names (vLLM q4_0 → nvfp4, q5_0 → fp8 = fp8_e4m3, q8_0 → bfloat16; llama.cpp fp8_* → q8_0,
/// nvfp4 → q4_0; SGLang nvfp4 → fp8_e5m2).
const KvFormat& engine_run_format(EngineId engine, const KvFormat& format);

/// A KV format that `engine` stores as itself and that runs on `card` (kv_format_support) without a caveat of its
/// own (TurboQuant 3-bit's model restriction): the one of `format`'s size per element, else the nearest larger one. nullptr when the card is
/// unknown or none qualifies. What to use instead of a format without a kernel on the card.
const KvFormat* engine_kv_format_that_runs(EngineId engine, const KvFormat& format, const GpuSpec* card);

}  // namespace kvcalc
