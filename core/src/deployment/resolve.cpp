// Scenario → Deployment: look-ups and input validation, and the load check. Every error names the field, the value and
// what would be valid; nothing is clamped silently.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/engines/context_limit.h"
#include "kvcalc/engines/engine_rules.h"
#include "kvcalc/engines/vllm/sampler.h"
#include "kvcalc/deployment/input_limits.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/scenario_fields.h"
#include "kvcalc/base/units.h"
#include "kvcalc/model/layer_kinds.h"

#include "engines/deploy_internal.h"
#include "deployment/predict_internal.h"
#include "util/text.h"

namespace kvcalc {

using text::iequal;

namespace {

void error(Diagnostics& d, const char* code, const char* field, std::string message) {
    d.push_back({Severity::error, code, field, std::move(message)});
}

/// max_model_len above the engine's derived maximum (context_limit.h), as the engine's row says it treats it
/// (EngineInfo::long_context). The scenario's allow_long_max_model_len stands for the engine's environment
/// variable. A model that keeps no KV cache at all (encoder-only) is not refused here: its memory does not depend
/// on the length, and the prediction says so.
void check_context_limit(Diagnostics& d, const ModelSpec& m, EngineId engine, const EngineContextLimit& limit,
                         std::int64_t max_model_len, bool allow_long) {
    const std::string what = "max_model_len " + std::to_string(max_model_len) + " exceeds " +
                             (m.id.empty() ? std::string("the model") : m.id) + "'s derived maximum " +
                             std::to_string(limit.max_model_len) + " (" + limit.source + ")";
    bool keeps_cache = !m.parallel_caches.empty();
    for (const auto& c : m.layers) keeps_cache = keeps_cache || layer_cache_growth(c) != CacheGrowth::none;
    const EngineInfo& row = engine_info(engine);
    const LongContextRule& rule = row.long_context;
    if (!keeps_cache) {
        d.push_back({Severity::warning, "max_model_len_too_long", "max_model_len",
                     what + ": the model reads at most that many tokens per input (it keeps no KV cache, so the "
                            "length does not change its memory)"});
    } else if (!rule.allow_env) {
        d.push_back({Severity::warning, "max_model_len_too_long", "max_model_len", what + ": " + rule.warns});
    } else if (allow_long) {
        d.push_back({Severity::warning, "max_model_len_too_long", "allow_long_max_model_len",
                     what + ": priced because allow_long_max_model_len is set (" + rule.allow_env + "); " +
                         row.display_name +
                         " starts but warns that positions past the derived maximum can give NaN with rotary "
                         "embeddings or out-of-bounds errors with absolute ones: outputs may be wrong"});
    } else {
        error(d, "max_model_len_too_long", "max_model_len",
              what + ": " + row.display_name + " refuses it; valid is 1.." + std::to_string(limit.max_model_len) +
                  ", or set allow_long_max_model_len (the engine's " + rule.allow_env + ") to price it anyway");
    }
}

bool is_mtp_method(const std::string& method) { return method == "mtp" || method == "mtp_assistant"; }

std::string drafter_list(const ModelSpec& m) {
    std::string out;
    for (const auto& d : m.drafters) out += (out.empty() ? "" : ", ") + d.id;
    return out.empty() ? "none" : out;
}

[[gnu::noinline]] void out_of_range(Diagnostics& d, const ScenarioField& f, std::int64_t v) {
    error(d, "out_of_range", f.name, field_range_message(f, std::to_string(v)));
}
/// A load's value against the field's range (scenario_fields.h), the sentinel 0 excluded: by now it is resolved.
/// The range test inlines; the message is built out of line (this runs at every solver step).
inline void check_load_range(Diagnostics& d, const ScenarioField& f, std::int64_t v) {
    if (v < f.min || v > f.max) [[unlikely]]
        out_of_range(d, f, v);
}

/// llama.cpp and SGLang without a utilization flag: kvcalc sizes their pool from this share of the card.
/// llama.cpp has no such flag (it allocates what -c asks for); SGLang derives mem_fraction_static from the card at
/// start-up (server_args.py), which kvcalc does not model. vLLM's own default is per release (vllm/accounting.h).
constexpr double kOtherEngineUtilization = 0.90;
/// llama.cpp's -np default (common/common.h n_parallel = 1); SGLang's --max-running-requests is derived from the
/// pool, a cap like vLLM's default, of which one full-length request is priced.
constexpr std::int64_t kOtherEngineSeqs = 1;

/// The length the engine serves when max_model_len is not given (context_limit.h default_max_model_len: vLLM
/// ModelConfig._get_and_verify_max_len with max_model_len None, SGLang context_length None, llama.cpp n_ctx_train).
std::int64_t not_given_max_model_len(const Deployment& r) {
    return r.model ? context_limit(*r.model, r.engine).default_max_model_len : 0;
}

/// The load settings a user left at 0 ("not given"), as the engine fills them in: max_model_len from the model,
/// and for llama.cpp and SGLang max_num_seqs and gpu_memory_utilization. vLLM's own max_num_seqs and
/// gpu_memory_utilization depend on the card and release: bind_non_kv fills them (vllm/accounting.h) and says so
/// in the report's assumed_defaults.
void fill_not_given(const Scenario& s, Deployment& r) {
    ResolvedSettings& out = r.settings;
    r.assumed = {};
    r.assumed.max_model_len = s.max_model_len == 0;
    out.max_model_len = s.max_model_len != 0 ? s.max_model_len : not_given_max_model_len(r);
    out.max_num_seqs = s.max_num_seqs;
    out.gpu_memory_utilization = s.gpu_memory_utilization;
    if (engine_info(r.engine).accounts_non_kv) return;
    r.assumed.max_num_seqs = out.max_num_seqs == 0;
    r.assumed.gpu_memory_utilization = out.gpu_memory_utilization == 0;
    if (out.max_num_seqs == 0) out.max_num_seqs = kOtherEngineSeqs;
    if (out.gpu_memory_utilization == 0) out.gpu_memory_utilization = kOtherEngineUtilization;
}

}  // namespace

std::shared_ptr<const ModelSpec> scenario_model(const Scenario& s, Diagnostics& d) {
    std::shared_ptr<const ModelSpec> model;
    // Model: config_json text, else inline spec, else catalog id (a popular id with weights_dtype is re-read).
    const bool reprice = s.config_json.empty() && !s.model && !s.weights_dtype.empty();
    if (s.config_json.size() > kMaxConfigJsonBytes) {
        error(d, "too_large", "config_json",
              "config_json is " + std::to_string(s.config_json.size()) + " bytes; at most " +
                  std::to_string(kMaxConfigJsonBytes) + " (4 MiB) are read — a config.json is a few KB");
    } else if (!s.config_json.empty() || reprice) {
        model = detail::model_from_config(s, d);
        // User-supplied numbers: every product of them must stay in int64 (input_limits.h).
        if (model && !check_model_limits(*model, "config_json", d)) model = nullptr;
    } else if (s.model) {
        model = std::make_shared<const ModelSpec>(*s.model);
        if (model->layers.empty())
            error(d, "model_no_layers", "model.layers", "the inline model " + model->id + " has no layers");
        else if (!check_model_limits(*model, "model", d) || !check_inline_model(*model, "model", d))
            model = nullptr;
        if (!s.weights_dtype.empty() && s.weights_dtype != "auto")
            d.push_back({Severity::warning, "weights_dtype_ignored", "weights_dtype",
                         "weights_dtype " + text::quoted(s.weights_dtype) + " is ignored for an inline model: its weights "
                         "come from model.weights (or give weights_gb)"});
    } else {
        model = shared_catalog_model(s.model_id);
        if (!model)
            error(d, "model_unknown", "model_id",
                  "unknown model " + text::quoted(s.model_id) + ". Known models: " + model_id_list());
    }

    return model;
}

namespace {

/// Bytes of a size field; 0 when out of range (check_scenario_fields has reported it, nothing is priced).
std::int64_t gb_bytes_if_valid(const char* name, double gb) {
    return field_number_ok(*find_scenario_field(name), gb) ? gb_to_bytes(gb) : std::int64_t{0};
}

/// The engine's row for Scenario::engine.
void resolve_engine(const Scenario& s, Deployment& r, Diagnostics& d) {
    if (const EngineInfo* e = find_engine(s.engine)) r.engine = e->id;
    else error(d, "engine_unknown", "engine", "unknown engine " + text::quoted(s.engine) + ". Valid: " + detail::engine_name_list());
}

/// kv_cache_dtype as a table format; true for "auto", which resolve_auto_kv() resolves once the card is known (the
/// model's dtype depends on it). Any accepted spelling (vLLM's "bfloat16", "fp8", any case): the field table's
/// normaliser.
bool resolve_kv_format(const Scenario& s, Deployment& r, Diagnostics& d) {
    const std::string kv_name = canonical_kv_cache_dtype(s.kv_cache_dtype).value_or(s.kv_cache_dtype);
    const bool kv_auto = is_auto_kv_cache_dtype(kv_name);
    r.format = kv_auto ? nullptr : find_kv_format(kv_name);
    if (!kv_auto && !r.format)
        error(d, "kv_format_unknown", "kv_cache_dtype",
              "unknown kv_cache_dtype " + text::quoted(s.kv_cache_dtype) + ". Valid: " +
                  field_valid_text(*find_scenario_field("kv_cache_dtype")));
    return kv_auto;
}

/// Every number's range from the field table (the same check the URL codec and the CLI flags make), a length the
/// model can derive when none is given, and the vLLM release; the release when it names one.
std::optional<VllmEra> check_fields(const Scenario& s, const Deployment& r, Diagnostics& d) {
    check_scenario_fields(s, d);
    // max_model_len 0 = the engine's derived maximum for the model: the model must state one.
    if (r.model && s.max_model_len == 0 && not_given_max_model_len(r) <= 0)
        error(d, "max_model_len_unknown", "max_model_len",
              "max_model_len is not given and " + (r.model->id.empty() ? std::string("the model") : r.model->id) +
                  " states no context length (max_position_embeddings) to derive it from; give max_model_len (" +
                  field_valid_text(*find_scenario_field("max_model_len")) + ")");
    const std::optional<VllmEra> era = parse_vllm_version(s.vllm_version);
    if (!era)
        error(d, "vllm_version_unknown", "vllm_version",
              "vllm_version " + text::quoted(s.vllm_version) + " names no vLLM release; expected " +
                  field_valid_text(*find_scenario_field("vllm_version")) + " (empty = the newest)");
    else if (auto note = vllm_version_note(s.vllm_version))
        d.push_back({Severity::warning, "vllm_version_unchecked", "vllm_version", *note});
    if (!parse_vllm_sampler(s.vllm_sampler))
        error(d, "vllm_sampler_unknown", "vllm_sampler",
              "vllm_sampler " + text::quoted(s.vllm_sampler) + " names no vLLM sampler; expected " +
                  field_valid_text(*find_scenario_field("vllm_sampler")));
    if (!parse_vllm_usage_context(s.vllm_usage_context))
        error(d, "vllm_usage_context_unknown", "vllm_usage_context",
              "vllm_usage_context " + text::quoted(s.vllm_usage_context) + " names no vLLM usage context; expected " +
                  field_valid_text(*find_scenario_field("vllm_usage_context")));
    if (!s.hub_model.empty() && !find_scenario_field("hub_model")->choices.canonical(s.hub_model))
        error(d, "hub_model_invalid", "hub_model",
              "hub_model " + text::quoted(s.hub_model) + " is not a Hub repo; expected " +
                  field_valid_text(*find_scenario_field("hub_model")));
    if (!s.hub_gguf.empty() && !find_scenario_field("hub_gguf")->choices.canonical(s.hub_gguf))
        error(d, "hub_gguf_invalid", "hub_gguf",
              "hub_gguf " + text::quoted(s.hub_gguf) + " is not a Hub GGUF file; expected " +
                  field_valid_text(*find_scenario_field("hub_gguf")));
    return era;
}

/// The model's layer groups (checked against tensor_parallel_size when it is in range) and its family's
/// activation fit (generic-dense, with a warning, for an unknown family); nullptr without a model.
const ActivationFit* resolve_layers(int tp, bool tp_in_range, Deployment& r, Diagnostics& d) {
    if (!r.model || r.model->layers.empty()) return nullptr;
    const auto* cached = catalog_layer_groups(r.model.get());
    r.groups = cached ? *cached : group_layers(*r.model);
    if (tp_in_range)
        for (auto& x : check_tensor_parallel(*r.model, r.groups, tp)) d.push_back(std::move(x));
    const ActivationFit* activation = find_activation_fit(r.model->family);
    if (!activation) {
        d.push_back({Severity::warning, "family_unknown", "model.family",
                     "family " + text::quoted(r.model->family) + " has no activation fit; using generic-dense"});
        activation = find_activation_fit("generic-dense");
    }
    return activation;
}

/// GPUs in the box: `gpus`, 0 = one per rank (TP × vLLM's data_parallel_size); an error when fewer than the ranks.
int resolve_gpus(const Scenario& s, bool tp_in_range, EngineId engine, Diagnostics& d) {
    const int tp = s.tensor_parallel_size;
    const int dp = engine_info(engine).reads_vllm_memory_flags && s.data_parallel_size >= 1 && s.data_parallel_size <= kMaxTensorParallel
                       ? s.data_parallel_size
                       : 1;
    const int ranks = tp_in_range ? tp * dp : tp;
    const int gpus = s.gpus == 0 ? ranks : s.gpus;
    if (s.gpus >= 0 && s.gpus <= kMaxTensorParallel && tp_in_range && gpus < ranks)
        error(d, "gpus_below_tp", "gpus",
              "gpus = " + std::to_string(gpus) + " is fewer than tensor_parallel_size " + std::to_string(tp) +
                  (dp > 1 ? " × data_parallel_size " + std::to_string(dp) : std::string()) +
                  ": each rank needs its own GPU");
    return gpus;
}

/// VRAM per card: exactly one of gpu, vram_gb, vram_gib (none = 24 GB decimal, the command-line default that
/// docs/DIFFERENCES.md explains); sets r.gpu for a catalog card.
std::int64_t resolve_vram(const Scenario& s, Deployment& r, Diagnostics& d) {
    const int given = (s.gpu.empty() ? 0 : 1) + (s.vram_gb ? 1 : 0) + (s.vram_gib ? 1 : 0);
    std::int64_t vram = 0;
    if (given > 1) {
        error(d, "vram_ambiguous", "gpu", "give only one of gpu, vram_gb, vram_gib");
    } else if (!s.gpu.empty()) {
        r.gpu = find_gpu(s.gpu);
        if (!r.gpu) {
            std::string ids;
            for (const auto& g : gpu_catalog()) ids += (ids.empty() ? "" : ", ") + g.id;
            error(d, "gpu_unknown", "gpu", "unknown gpu " + text::quoted(s.gpu) + ". Known: " + ids + " (or give vram_gb / vram_gib)");
        } else {
            vram = r.gpu->vram_bytes;
        }
    } else if (s.vram_gib) {
        if (!has_error(d)) vram = gib_to_bytes(*s.vram_gib);  // range-checked above (at least one byte)
    } else if (s.vram_gb) {
        if (!has_error(d)) vram = gb_to_bytes(*s.vram_gb);
    } else {
        vram = gb_to_bytes(24.0);
        d.push_back({Severity::info, "vram_default", "vram_gb",
                     "no GPU or VRAM given: assumed 24 GB = 24e9 bytes per card; a real 24 GB card such as the RTX "
                     "3090 or 4090 has 24 GiB — choose it from the GPU list for that"});
    }
    return vram;
}

/// kv_cache_dtype auto: the dtype the engine runs this model in on this card (the engine row's rule).
void resolve_auto_kv(Deployment& r, Diagnostics& d) {
    const AutoKvResolution a = engine_info(r.engine).resolve_auto_kv(
        r.model->torch_dtype, r.model->model_type, r.gpu ? r.gpu->sm_x10 : 0, r.model->checkpoint_kv_cache_dtype);
    r.format = a.format;
    r.kv_auto = true;
    if (!r.format) error(d, "kv_auto_float32", "kv_cache_dtype", a.error);
    else if (!a.note.empty()) d.push_back({Severity::info, "kv_auto_dtype", "kv_cache_dtype", a.note});
}

/// The weights priced, all cards together, and the variant's name ("override" for weights_gb).
struct ResolvedWeights {
    std::int64_t total_bytes = 0;
    std::string name;
    bool known = true;
    std::int64_t per_rank_bytes = 0;  ///< from the checkpoint's tensor placement, 0 = even split
};

/// The variant's busiest card at the scenario's TP, when its size came from the checkpoint's tensors.
std::int64_t variant_per_rank(const WeightsVariant& v, const Scenario& s) {
    const int tp = s.tensor_parallel_size;
    return tp >= 1 && static_cast<std::size_t>(tp) <= v.bytes_per_rank_by_tp.size()
               ? v.bytes_per_rank_by_tp[static_cast<std::size_t>(tp - 1)]
               : 0;
}

/// weights_gb wins, but a weights_variant given with it must still be a real one (it is echoed back).
ResolvedWeights resolve_weights(const Scenario& s, const ModelSpec& m, Diagnostics& d) {
    ResolvedWeights w;
    if (s.weights_gb && s.weights_variant.empty()) {
        w = {gb_bytes_if_valid("weights_gb", *s.weights_gb), "override"};
    } else if (m.weights.empty() && !s.weights_gb) {
        error(d, "weights_missing", "weights_gb", m.id + " has no catalogued weights: give weights_gb");
    } else if (s.weights_variant.empty()) {
        w = {gb_to_bytes(m.weights.front().size_gb), m.weights.front().id, true, variant_per_rank(m.weights.front(), s)};
    } else {
        const WeightsVariant* hit = nullptr;
        for (const auto& v : m.weights) {
            if (iequal(v.id, s.weights_variant)) hit = &v;
            for (const auto& a : v.aliases)
                if (!hit && iequal(a, s.weights_variant)) hit = &v;
            if (hit) break;
        }
        if (!hit) {
            std::string ids;
            for (const auto& v : m.weights) ids += (ids.empty() ? "" : ", ") + v.id;
            error(d, "weights_variant_unknown", "weights_variant",
                  "weights_variant " + text::quoted(s.weights_variant) + " is not available for " + m.id +
                      ". Valid: " + ids + " (or give weights_gb)");
        } else {
            w = {gb_to_bytes(hit->size_gb), hit->id, true, variant_per_rank(*hit, s)};
        }
        if (s.weights_gb) w = {gb_bytes_if_valid("weights_gb", *s.weights_gb), "override"};
    }
    if (!s.weights_gb && w.name == kUnknownWeightsId) {
        // Priced as 0 B, never silently: the warning and ResolvedSettings::weights_known carry it to every front end.
        w.total_bytes = 0;
        w.known = false;
        d.push_back({Severity::warning, "weights_unknown", "weights_gb",
                     m.id + "'s weights are unknown (the model lists no tensors): the totals leave them out and "
                            "price the KV cache alone; give weights_gb for a verdict"});
    }
    return w;
}

/// The drafter priced: the catalog entry (nullptr for none or drafter_gb alone), its weights over all cards and
/// the speculative tokens.
struct ResolvedDrafter {
    const Drafter* drafter = nullptr;
    std::int64_t total_bytes = 0;
    int speculative_tokens = 0;
};

/// Explicit id, else the model's MTP drafter when mtp is true; mtp = false removes an MTP drafter. drafter_gb and
/// num_speculative_tokens override the entry's.
ResolvedDrafter resolve_drafter(const Scenario& s, const ModelSpec* m, Diagnostics& d) {
    ResolvedDrafter out;
    const Drafter*& drafter = out.drafter;
    if (m) {
        if (!s.drafter.empty()) {
            for (const auto& x : m->drafters)
                if (iequal(x.id, s.drafter)) drafter = &x;
            if (!drafter)
                error(d, "drafter_unknown", "drafter",
                      "drafter " + text::quoted(s.drafter) + " is not available for " + m->id + ". Valid: " + drafter_list(*m));
        } else if (s.mtp.value_or(false)) {
            for (const auto& x : m->drafters)
                if (!drafter && is_mtp_method(x.method)) drafter = &x;
            if (!drafter)
                error(d, "mtp_unavailable", "mtp",
                      m->id + " has no MTP head or MTP assistant drafter. Drafters: " + drafter_list(*m));
        }
        if (drafter && s.mtp.has_value() && !*s.mtp && is_mtp_method(drafter->method)) drafter = nullptr;
    }
    out.total_bytes = drafter ? gb_to_bytes(drafter->weights_gb) : 0;
    if (s.drafter_gb) out.total_bytes = gb_bytes_if_valid("drafter_gb", *s.drafter_gb);
    out.speculative_tokens = drafter ? drafter->num_speculative_tokens : 0;
    if (s.num_speculative_tokens) out.speculative_tokens = *s.num_speculative_tokens;
    if (m && !drafter && out.total_bytes == 0 && out.speculative_tokens > 0)
        error(d, "drafter_missing", "num_speculative_tokens",
              "num_speculative_tokens = " + std::to_string(out.speculative_tokens) +
                  " needs a drafter: vLLM reads it only inside --speculative-config, next to a method or a draft "
                  "model. Set drafter (for " + m->id + ": " + drafter_list(*m) +
                  "), mtp, or drafter_gb for a draft model of your own — or leave num_speculative_tokens unset");
    return out;
}

/// The --kv-breakdown extras: a known indexer_format, and compressed / indexer layers bounded for every length
/// and count a solver may probe (their ranges: check_scenario_fields).
void check_breakdown(const Scenario& s, const Deployment& r, Diagnostics& d) {
    const std::string indexer_format = canonical_choice(*find_scenario_field("indexer_format"), s.indexer_format);
    if (indexer_bpe_x400(indexer_format) < 0)
        error(d, "indexer_format_unknown", "indexer_format",
              "unknown indexer_format " + text::quoted(s.indexer_format) + ". Valid: fp16, bf16, fp8_e5m2, fp8_e4m3, int8, fp4, int4");
    if (!r.model || !r.format || has_error(d)) return;
    const std::int64_t head_dim = model_head_dim(*r.model);
    check_breakdown_limits(s.compressed_layers, s.compression_ratio,
                           s.compressed_head_dim > 0 ? s.compressed_head_dim : head_dim, r.format->bpe_x400,
                           "compressed_layers", d);
    check_breakdown_limits(s.indexer_ratio_layers, s.indexer_compress_ratio,
                           s.indexer_head_dim > 0 ? s.indexer_head_dim : head_dim, indexer_bpe_x400(indexer_format),
                           "indexer_ratio_layers", d);
}

/// The settings' text (owned by r.names) and numbers once every look-up succeeded.
void fill_settings(const Scenario& s, const ActivationFit& activation, const ResolvedWeights& weights,
                   const ResolvedDrafter& drafter, std::int64_t vram, int gpus, Deployment& r) {
    auto names = std::make_shared<DeploymentNames>();
    names->model_id = r.model->id;
    names->display_name = r.model->display_name;
    names->family = activation.family;
    names->weights_variant = weights.name;
    names->gpu = r.gpu ? r.gpu->id : std::string();
    names->kv_cache_dtype = r.kv_auto ? std::string("auto (") + r.format->name + ")" : std::string(r.format->name);
    names->drafter = drafter.drafter ? drafter.drafter->id
                                     : (drafter.total_bytes > 0 ? std::string("custom") : std::string());
    ResolvedSettings& out = r.settings;
    out.model_id = names->model_id;
    out.display_name = names->display_name;
    out.family = names->family;
    out.weights_variant = names->weights_variant;
    out.weights_bytes_total = weights.total_bytes;
    out.weights_known = weights.known;
    out.weights_bytes_per_rank = weights.per_rank_bytes;
    out.gpu = names->gpu;
    out.vram_bytes = vram;
    out.gpus = gpus;
    out.tensor_parallel_size = s.tensor_parallel_size;
    out.kv_cache_dtype = names->kv_cache_dtype;
    fill_not_given(s, r);
    out.max_num_batched_tokens = s.max_num_batched_tokens;
    out.drafter = names->drafter;
    r.names = std::move(names);
    out.drafter_bytes_total = drafter.total_bytes;
    out.num_speculative_tokens = drafter.speculative_tokens;
}

/// What the deployment derives from its settings: the length limit, the drafter, the format the engine runs,
/// kvcalc's per-layer view and buckets, the non-KV model and the per-model display tables.
void derive_terms(const Scenario& s, VllmEra era, const ActivationFit* activation, const Drafter* drafter,
                  Deployment& r) {
    const int tp = s.tensor_parallel_size;
    r.max_model_len_limit = context_limit(*r.model, r.engine).max_model_len;
    if (drafter) r.drafter = *drafter;
    r.run_format = &engine_run_format(r.engine, *r.format);
    r.footprint = model_footprint(*r.model, r.groups, *r.format, tp);
    r.kv_extra_tokens =
        drafter ? std::int64_t{drafter->kv_extra_tokens_per_speculative_token} * r.settings.num_speculative_tokens : 0;
    detail::resolve_non_kv(s, era, activation, r);
    r.tp_options = detail::shared_tensor_parallel_options(*r.model);
    r.model_facts = detail::shared_model_facts(*r.model);
}

}  // namespace

namespace detail {

std::optional<Deployment> resolve_uncached(const Scenario& s, Diagnostics& diags, const ActivationFit** fit) {
    Diagnostics d;
    Deployment r;
    resolve_engine(s, r, d);
    r.model = scenario_model(s, d);
    r.allow_long_max_model_len = s.allow_long_max_model_len;
    r.llama_cpp = {s.swa_full, s.n_ubatch, s.llama_cpp_build, s.hub_gguf};
    const bool kv_auto = resolve_kv_format(s, r, d);
    const std::optional<VllmEra> era = check_fields(s, r, d);

    const int tp = s.tensor_parallel_size;
    const bool tp_in_range = tp >= 1 && tp <= kMaxTensorParallel;  // else check_scenario_fields said so
    const ActivationFit* activation = resolve_layers(tp, tp_in_range, r, d);
    const int gpus = resolve_gpus(s, tp_in_range, r.engine, d);
    const std::int64_t vram = resolve_vram(s, r, d);
    if (kv_auto && r.model) resolve_auto_kv(r, d);
    const ResolvedWeights weights = r.model ? resolve_weights(s, *r.model, d) : ResolvedWeights{};
    const ResolvedDrafter drafter = resolve_drafter(s, r.model.get(), d);
    check_breakdown(s, r, d);
    detail::check_vllm_flags(s, r, d);

    const bool failed = has_error(d);
    for (auto& x : d) diags.push_back(std::move(x));
    if (failed) return std::nullopt;

    fill_settings(s, *activation, weights, drafter, vram, gpus, r);
    detail::resolve_vllm_flags(s, r, diags);
    derive_terms(s, *era, activation, drafter.drafter, r);
    for (auto& x : detail::resolve_measured(s, r)) diags.push_back(std::move(x));

    Diagnostics plan_diags;
    r.plan = make_plan(r, plan_diags);
    const bool plan_failed = has_error(plan_diags);
    for (auto& x : plan_diags) diags.push_back(std::move(x));
    if (plan_failed) return std::nullopt;
    if (fit) *fit = activation;
    return r;
}

bool rebind_load(const Scenario& s, const ActivationFit* activation, Deployment& r) {
    // The load checks resolve() makes (the field table's ranges, 0 = not given); check_load() does the rest. A
    // failing load is resolved afresh so that its errors come in resolve()'s order.
    static const ScenarioField* const len = find_scenario_field("max_model_len");
    static const ScenarioField* const seqs = find_scenario_field("max_num_seqs");
    if (!field_number_ok(*len, static_cast<double>(s.max_model_len)) ||
        !field_number_ok(*seqs, static_cast<double>(s.max_num_seqs)) ||
        (s.max_model_len == 0 && not_given_max_model_len(r) <= 0))
        return false;
    ResolvedSettings& out = r.settings;
    fill_not_given(s, r);
    out.max_num_batched_tokens = s.max_num_batched_tokens;
    bind_non_kv(s, activation, r);
    // vLLM's plan holds max_num_batched_tokens (sliding-window pages per request depend on it); bind_non_kv
    // resolved it at this load (vllm_batched_tokens).
    if (plan_stale_for_batch(r, r.non_kv.batched_tokens)) {
        Diagnostics plan_diags;
        r.plan = make_plan(r, plan_diags);
        if (has_error(plan_diags)) return false;
    }
    return true;
}

std::vector<std::string> load_assumed_defaults(const Deployment& d) {
    std::vector<std::string> out;
    const std::string engine = engine_info(d.engine).display_name;
    if (d.kv_auto && d.format)
        out.push_back(std::string("kv_cache_dtype auto = ") + d.format->name + " (the model's dtype on this card; " +
                      engine + "'s default)");
    if (d.assumed.max_model_len && d.model) {
        const EngineContextLimit limit = context_limit(*d.model, d.engine);
        out.push_back("max_model_len " + std::to_string(d.settings.max_model_len) + " (not given: " + engine +
                      "'s default, the model's derived maximum, " + limit.source + ")");
    }
    // Set only for an engine whose row has these lines (fill_not_given: !accounts_non_kv).
    const LoadDefaultsText& text = engine_info(d.engine).load_defaults;
    if (d.assumed.max_num_seqs && text.max_num_seqs) out.push_back(text.max_num_seqs);
    if (d.assumed.gpu_memory_utilization && text.gpu_memory_utilization) out.push_back(text.gpu_memory_utilization);
    return out;
}

}  // namespace detail

Diagnostics check_load(const Deployment& r, const Load& load) {
    Diagnostics d;
    // The rows are looked up once: check_load runs at every solver step and shopping cell.
    static const ScenarioField& len = *find_scenario_field("max_model_len");
    static const ScenarioField& seqs = *find_scenario_field("max_num_seqs");
    if (r.assumed.max_model_len && r.model && load.max_model_len > len.max) {
        // Not given, so the model set it: name the model's key, not a flag the user never typed. The solvers
        // that search the length drop this code (their search stops at the limit).
        error(d, "max_model_len_too_long", "max_model_len",
              "max_model_len is not given, and the model's derived maximum " + std::to_string(load.max_model_len) +
                  " (" + context_limit(*r.model, r.engine).source + ") is above kvcalc's limit of " +
                  std::to_string(static_cast<std::int64_t>(len.max)) + " tokens (2^27); set max_model_len to 1.." +
                  std::to_string(static_cast<std::int64_t>(len.max)));
    } else {
        check_load_range(d, len, load.max_model_len);
    }
    check_load_range(d, seqs, load.max_num_seqs);
    // Both are at most 2^27 and 2^16 here, so the product is exact in int64.
    const std::int64_t n_ctx = (load.max_model_len + r.kv_extra_tokens) * load.max_num_seqs;
    if (r.engine == EngineId::llama_cpp && load.max_num_seqs > kLlamaCppMaxSeqs)
        error(d, "llama_cpp_too_many_seqs", "max_num_seqs",
              "max_num_seqs " + std::to_string(load.max_num_seqs) + " is above the " +
                  std::to_string(kLlamaCppMaxSeqs) + " sequences llama.cpp takes (-np; llama_context: \"n_seq_max " +
                  "must be <= " + std::to_string(kLlamaCppMaxSeqs) + "\"); expected 1.." +
                  std::to_string(kLlamaCppMaxSeqs) + " for llama.cpp");
    if (r.engine == EngineId::llama_cpp && load.max_model_len > 0 && load.max_num_seqs > 0 && n_ctx > kLlamaCppMaxCtx)
        error(d, "llama_cpp_ctx_too_large", "max_model_len",
              "llama.cpp's -c is max_model_len × max_num_seqs = " + std::to_string(n_ctx) + ", above the " +
                  std::to_string(kLlamaCppMaxCtx) + " llama.cpp accepts (-c is an int); lower max_model_len or " +
                  "max_num_seqs");
    if (r.model) {
        const std::int64_t most = r.max_model_len_limit >= 0 ? r.max_model_len_limit
                                                             : context_limit(*r.model, r.engine).max_model_len;
        if (most > 0 && load.max_model_len > most)
            check_context_limit(d, *r.model, r.engine, context_limit(*r.model, r.engine), load.max_model_len,
                                r.allow_long_max_model_len);
    }
    if (load.vram_bytes <= 0)
        error(d, "out_of_range", "vram_gb", "VRAM per card must be positive, got " + std::to_string(load.vram_bytes) + " B");
    return d;
}

}  // namespace kvcalc
