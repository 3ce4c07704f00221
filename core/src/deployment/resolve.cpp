// Scenario → Deployment: look-ups and input validation, and the load check. Every error names the field, the value and
// what would be valid; nothing is clamped silently.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/engines/context_limit.h"
#include "kvcalc/engines/engine_rules.h"
#include "kvcalc/engines/vllm_sampler.h"
#include "kvcalc/deployment/input_limits.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/scenario_fields.h"
#include "kvcalc/base/units.h"

#include "engines/deploy_internal.h"
#include "deployment/predict_internal.h"
#include "util/text.h"

namespace kvcalc {

using text::iequal;

namespace {

void error(Diagnostics& d, const char* code, const char* field, std::string message) {
    d.push_back({Severity::error, code, field, std::move(message)});
}

/// max_model_len above the engine's derived maximum (context_limit.h), as each engine treats it. vLLM raises
/// (_get_and_verify_max_len) unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1, then only warns that positions past the
/// derived length give NaN under RoPE or out-of-bounds indexing with absolute positions; SGLang raises too
/// (ModelConfig context_length check) unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1; llama.cpp only warns
/// "n_ctx_per_seq > n_ctx_train" (llama-context.cpp) and runs. The scenario's allow_long_max_model_len stands
/// for the two variables. A model that keeps no KV cache at all (encoder-only) is not refused here: its memory
/// does not depend on the length, and the prediction says so.
void check_context_limit(Diagnostics& d, const ModelSpec& m, EngineId engine, const EngineContextLimit& limit,
                         std::int64_t max_model_len, bool allow_long) {
    const std::string what = "max_model_len " + std::to_string(max_model_len) + " exceeds " +
                             (m.id.empty() ? std::string("the model") : m.id) + "'s derived maximum " +
                             std::to_string(limit.max_model_len) + " (" + limit.source + ")";
    bool keeps_cache = !m.parallel_caches.empty();
    for (const auto& c : m.layers) keeps_cache = keeps_cache || !std::holds_alternative<NoCache>(c);
    const char* env = engine == EngineId::sglang ? "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1"
                                                 : "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1";
    const std::string engine_name = engine == EngineId::sglang ? "SGLang" : "vLLM";
    if (!keeps_cache) {
        d.push_back({Severity::warning, "max_model_len_too_long", "max_model_len",
                     what + ": the model reads at most that many tokens per input (it keeps no KV cache, so the "
                            "length does not change its memory)"});
    } else if (engine == EngineId::llama_cpp) {
        d.push_back({Severity::warning, "max_model_len_too_long", "max_model_len",
                     what + ": llama.cpp warns (n_ctx_per_seq > n_ctx_train) and runs; output quality past the "
                            "trained length is not guaranteed"});
    } else if (allow_long) {
        d.push_back({Severity::warning, "max_model_len_too_long", "allow_long_max_model_len",
                     what + ": priced because allow_long_max_model_len is set (" + env + "); " + engine_name +
                         " starts but warns that positions past the derived maximum can give NaN with rotary "
                         "embeddings or out-of-bounds errors with absolute ones: outputs may be wrong"});
    } else {
        error(d, "max_model_len_too_long", "max_model_len",
              what + ": " + engine_name + " refuses it; valid is 1.." + std::to_string(limit.max_model_len) +
                  ", or set allow_long_max_model_len (the engine's " + env + ") to price it anyway");
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
/// start-up (server_args.py), which kvcalc does not model. vLLM's own default is per release (vllm_accounting.h).
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
/// gpu_memory_utilization depend on the card and release: bind_non_kv fills them (vllm_accounting.h) and says so
/// in the report's assumed_defaults.
void fill_not_given(const Scenario& s, Deployment& r) {
    ResolvedSettings& out = r.settings;
    r.assumed = {};
    r.assumed.max_model_len = s.max_model_len == 0;
    out.max_model_len = s.max_model_len != 0 ? s.max_model_len : not_given_max_model_len(r);
    out.max_num_seqs = s.max_num_seqs;
    out.gpu_memory_utilization = s.gpu_memory_utilization;
    if (r.engine == EngineId::vllm) return;
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

namespace detail {

std::optional<Deployment> resolve_uncached(const Scenario& s, Diagnostics& diags, const ActivationFit** fit) {
    Diagnostics d;
    Deployment r;
    // Bytes of a size field; 0 when out of range (check_scenario_fields has reported it, nothing is priced).
    const auto gb_bytes_if_valid = [](const char* name, double gb) {
        return field_number_ok(*find_scenario_field(name), gb) ? gb_to_bytes(gb) : std::int64_t{0};
    };

    if (const EngineInfo* e = find_engine(s.engine)) r.engine = e->id;
    else error(d, "engine_unknown", "engine", "unknown engine " + text::quoted(s.engine) + ". Valid: " + detail::engine_name_list());

    r.model = scenario_model(s, d);
    r.allow_long_max_model_len = s.allow_long_max_model_len;

    // "auto" is resolved below, once the card is known (the model's dtype depends on it).
    // Any accepted spelling (vLLM's "bfloat16", "fp8", any case): the field table's normaliser.
    const std::string kv_name = canonical_kv_cache_dtype(s.kv_cache_dtype).value_or(s.kv_cache_dtype);
    const bool kv_auto = is_auto_kv_cache_dtype(kv_name);
    r.format = kv_auto ? nullptr : find_kv_format(kv_name);
    if (!kv_auto && !r.format)
        error(d, "kv_format_unknown", "kv_cache_dtype",
              "unknown kv_cache_dtype " + text::quoted(s.kv_cache_dtype) + ". Valid: " +
                  field_valid_text(*find_scenario_field("kv_cache_dtype")));

    // Every number's range comes from the field table, the same check the URL codec and the CLI flags make.
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

    const int tp = s.tensor_parallel_size;
    const bool tp_in_range = tp >= 1 && tp <= kMaxTensorParallel;  // else check_scenario_fields said so
    const ActivationFit* activation = nullptr;
    if (r.model && !r.model->layers.empty()) {
        const auto* cached = catalog_layer_groups(r.model.get());
        r.groups = cached ? *cached : group_layers(*r.model);
        if (tp_in_range)
            for (auto& x : check_tensor_parallel(*r.model, r.groups, tp)) d.push_back(std::move(x));
        activation = find_activation_fit(r.model->family);
        if (!activation) {
            d.push_back({Severity::warning, "family_unknown", "model.family",
                         "family \"" + r.model->family + "\" has no activation fit; using generic-dense"});
            activation = find_activation_fit("generic-dense");
        }
    }

    // GPUs in the box.
    const int gpus = s.gpus == 0 ? tp : s.gpus;
    if (s.gpus >= 0 && s.gpus <= kMaxTensorParallel && tp_in_range && gpus < tp)
        error(d, "gpus_below_tp", "gpus",
              "gpus = " + std::to_string(gpus) + " is fewer than tensor_parallel_size " + std::to_string(tp) +
                  ": each TP rank needs its own GPU");

    // VRAM per card: exactly one of gpu, vram_gb, vram_gib (none = 24 GB decimal, the command-line default that
    // docs/DIFFERENCES.md explains).
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

    // kv_cache_dtype auto: the dtype the engine runs this model in on this card (kv_format.h).
    if (kv_auto && r.model) {
        const AutoKvEngine engine = r.engine == EngineId::llama_cpp ? AutoKvEngine::llama_cpp
                                    : r.engine == EngineId::sglang  ? AutoKvEngine::sglang
                                                                    : AutoKvEngine::vllm;
        const AutoKvResolution a =
            resolve_auto_kv_format(engine, r.model->torch_dtype, r.model->model_type, r.gpu ? r.gpu->sm_x10 : 0,
                                   r.model->checkpoint_kv_cache_dtype);
        r.format = a.format;
        r.kv_auto = true;
        if (!r.format) error(d, "kv_auto_float32", "kv_cache_dtype", a.error);
        else if (!a.note.empty()) d.push_back({Severity::info, "kv_auto_dtype", "kv_cache_dtype", a.note});
    }

    // Weights.
    std::int64_t weights_total = 0;
    std::string weights_name;
    if (r.model) {
        // weights_gb wins, but a weights_variant given with it must still be a real one (it is echoed back).
        if (s.weights_gb && s.weights_variant.empty()) {
            weights_total = gb_bytes_if_valid("weights_gb", *s.weights_gb);
            weights_name = "override";
        } else if (r.model->weights.empty() && !s.weights_gb) {
            error(d, "weights_missing", "weights_gb", r.model->id + " has no catalogued weights: give weights_gb");
        } else if (s.weights_variant.empty()) {
            weights_total = gb_to_bytes(r.model->weights.front().size_gb);
            weights_name = r.model->weights.front().id;
        } else {
            const WeightsVariant* hit = nullptr;
            for (const auto& w : r.model->weights) {
                if (iequal(w.id, s.weights_variant)) hit = &w;
                for (const auto& a : w.aliases)
                    if (!hit && iequal(a, s.weights_variant)) hit = &w;
                if (hit) break;
            }
            if (!hit) {
                std::string ids;
                for (const auto& w : r.model->weights) ids += (ids.empty() ? "" : ", ") + w.id;
                error(d, "weights_variant_unknown", "weights_variant",
                      "weights_variant " + text::quoted(s.weights_variant) + " is not available for " + r.model->id +
                          ". Valid: " + ids + " (or give weights_gb)");
            } else {
                weights_total = gb_to_bytes(hit->size_gb);
                weights_name = hit->id;
            }
            if (s.weights_gb) {
                weights_total = gb_bytes_if_valid("weights_gb", *s.weights_gb);
                weights_name = "override";
            }
        }
    }

    // Drafter: explicit id, else the model's MTP drafter when mtp is true; mtp = false removes an MTP drafter.
    const Drafter* drafter = nullptr;
    if (r.model) {
        if (!s.drafter.empty()) {
            for (const auto& x : r.model->drafters)
                if (iequal(x.id, s.drafter)) drafter = &x;
            if (!drafter)
                error(d, "drafter_unknown", "drafter",
                      "drafter " + text::quoted(s.drafter) + " is not available for " + r.model->id + ". Valid: " + drafter_list(*r.model));
        } else if (s.mtp.value_or(false)) {
            for (const auto& x : r.model->drafters)
                if (!drafter && is_mtp_method(x.method)) drafter = &x;
            if (!drafter)
                error(d, "mtp_unavailable", "mtp",
                      r.model->id + " has no MTP head or MTP assistant drafter. Drafters: " + drafter_list(*r.model));
        }
        if (drafter && s.mtp.has_value() && !*s.mtp && is_mtp_method(drafter->method)) drafter = nullptr;
    }
    std::int64_t drafter_total = drafter ? gb_to_bytes(drafter->weights_gb) : 0;
    if (s.drafter_gb) drafter_total = gb_bytes_if_valid("drafter_gb", *s.drafter_gb);
    int spec_tokens = drafter ? drafter->num_speculative_tokens : 0;
    if (s.num_speculative_tokens) spec_tokens = *s.num_speculative_tokens;
    if (r.model && !drafter && drafter_total == 0 && spec_tokens > 0)
        error(d, "drafter_missing", "num_speculative_tokens",
              "num_speculative_tokens = " + std::to_string(spec_tokens) +
                  " needs a drafter: vLLM reads it only inside --speculative-config, next to a method or a draft "
                  "model. Set drafter (for " + r.model->id + ": " + drafter_list(*r.model) +
                  "), mtp, or drafter_gb for a draft model of your own — or leave num_speculative_tokens unset");

    // --kv-breakdown extras (their ranges: check_scenario_fields above).
    const std::string indexer_format = canonical_choice(*find_scenario_field("indexer_format"), s.indexer_format);
    if (indexer_bpe_x400(indexer_format) < 0)
        error(d, "indexer_format_unknown", "indexer_format",
              "unknown indexer_format " + text::quoted(s.indexer_format) + ". Valid: fp16, bf16, fp8_e5m2, fp8_e4m3, int8, fp4, int4");
    if (r.model && r.format && !has_error(d)) {  // bounded for every length and count a solver may probe
        const std::int64_t head_dim = model_head_dim(*r.model);
        check_breakdown_limits(s.compressed_layers, s.compression_ratio,
                               s.compressed_head_dim > 0 ? s.compressed_head_dim : head_dim, r.format->bpe_x400,
                               "compressed_layers", d);
        check_breakdown_limits(s.indexer_ratio_layers, s.indexer_compress_ratio,
                               s.indexer_head_dim > 0 ? s.indexer_head_dim : head_dim, indexer_bpe_x400(indexer_format),
                               "indexer_ratio_layers", d);
    }

    const bool failed = has_error(d);
    for (auto& x : d) diags.push_back(std::move(x));
    if (failed) return std::nullopt;

    auto names = std::make_shared<DeploymentNames>();
    names->model_id = r.model->id;
    names->display_name = r.model->display_name;
    names->family = activation->family;
    names->weights_variant = weights_name;
    names->gpu = r.gpu ? r.gpu->id : std::string();
    names->kv_cache_dtype = r.kv_auto ? std::string("auto (") + r.format->name + ")" : std::string(r.format->name);
    names->drafter = drafter ? drafter->id : (drafter_total > 0 ? std::string("custom") : std::string());
    ResolvedSettings& out = r.settings;
    out.model_id = names->model_id;
    out.display_name = names->display_name;
    out.family = names->family;
    out.weights_variant = names->weights_variant;
    out.weights_bytes_total = weights_total;
    out.gpu = names->gpu;
    out.vram_bytes = vram;
    out.gpus = gpus;
    out.tensor_parallel_size = tp;
    out.kv_cache_dtype = names->kv_cache_dtype;
    fill_not_given(s, r);
    out.max_num_batched_tokens = s.max_num_batched_tokens;
    out.drafter = names->drafter;
    r.names = std::move(names);
    r.max_model_len_limit = context_limit(*r.model, r.engine).max_model_len;
    out.drafter_bytes_total = drafter_total;
    out.num_speculative_tokens = spec_tokens;
    if (drafter) r.drafter = *drafter;
    r.run_format = &engine_run_format(r.engine, *r.format);
    r.footprint = model_footprint(*r.model, r.groups, *r.format, tp);
    r.buckets = bucket_template(*r.model, r.groups, *r.format, tp);
    r.kv_extra_tokens = drafter ? std::int64_t{drafter->kv_extra_tokens_per_speculative_token} * spec_tokens : 0;
    resolve_non_kv(s, *era, activation, r);
    r.tp_options = shared_tensor_parallel_options(*r.model);
    r.model_facts = shared_model_facts(*r.model);

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
    if (auto* p = std::get_if<VllmPlan>(&r.plan); p && p->max_num_batched_tokens != r.non_kv.batched_tokens) {
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
    if (d.assumed.max_num_seqs)
        out.push_back(d.engine == EngineId::llama_cpp
                          ? "max_num_seqs 1 (llama.cpp's -np default, common/common.h n_parallel)"
                          : "max_num_seqs 1 (SGLang's --max-running-requests is a cap derived from the pool; one "
                            "full-length request is priced)");
    if (d.assumed.gpu_memory_utilization)
        out.push_back(d.engine == EngineId::llama_cpp
                          ? "usable VRAM fraction 0.90 (kvcalc's share of the card: llama.cpp has no such flag)"
                          : "mem_fraction_static 0.90 (kvcalc's value: SGLang derives its own from the card)");
    return out;
}

}  // namespace detail

Diagnostics check_load(const Deployment& r, const Load& load) {
    Diagnostics d;
    // The rows are looked up once: check_load runs at every solver step and shopping cell.
    static const ScenarioField& len = *find_scenario_field("max_model_len");
    static const ScenarioField& seqs = *find_scenario_field("max_num_seqs");
    check_load_range(d, len, load.max_model_len);
    check_load_range(d, seqs, load.max_num_seqs);
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
