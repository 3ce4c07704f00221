// The non-KV terms of a deployment: weights' load buffers, activation peak, non-torch memory and CUDA graphs per
// card. The seed families keep their fitted terms (docs/SOURCES.md "Per-card budget", activation.cpp); other vLLM models are priced by
// vLLM's start-up accounting (vllm/accounting.h); llama.cpp and SGLang model none (their notes say so). This is
// the one seam between the budget and any non-KV accounting.
#include <cmath>
#include <optional>

#include "engines/deploy_internal.h"
#include "kvcalc/base/checked_math.h"
#include "kvcalc/base/units.h"
#include "kvcalc/engines/vllm/sampler.h"

namespace kvcalc::detail {

void resolve_non_kv(const Scenario& s, VllmEra era, const ActivationFit* fit, Deployment& d) {
    NonKvModel& m = d.non_kv;
    m.era = era;
    d.settings.vllm_version = vllm_era_rules(era).id;
    if (!engine_info(d.engine).accounts_non_kv) return;  // Kind::none
    m.dims = vllm_profile_dims(*d.model, s.weights_dtype);
    // The user's checkpoint size, or one read from its tensors, already holds the tower.
    if (s.weights_gb || d.settings.weights_bytes_per_rank > 0) m.dims.encoder_weights_bytes = 0;
    // A checkpoint placed tensor by tensor already pads the vocabulary and holds replicated tensors whole.
    if (d.settings.weights_bytes_per_rank > 0) m.dims.load_even_split_extra_bytes_by_tp.fill(0);
    // vLLM pads mxfp4 experts at load; a given checkpoint size or another weights dtype is priced as given.
    if (s.weights_gb || (!s.weights_dtype.empty() && s.weights_dtype != "auto" && s.weights_dtype != "mxfp4"))
        m.dims.mxfp4_experts = false;
    m.device = d.gpu ? vllm_device(*d.gpu) : vllm_device_from_total(d.settings.vram_bytes);
    // The flags that are not the load; bind_non_kv sets max_model_len and max_num_seqs at each load.
    VllmServeFlags& f = m.flags;
    f = VllmServeFlags{};
    f.tensor_parallel_size = d.settings.tensor_parallel_size;
    f.max_num_batched_tokens = s.max_num_batched_tokens;
    if (s.gpu_memory_utilization > 0) f.gpu_memory_utilization = s.gpu_memory_utilization;
    f.num_speculative_tokens = d.settings.num_speculative_tokens;
    f.sampler = parse_vllm_sampler(s.vllm_sampler).value_or(VllmSampler::pip_default);  // resolve() checked it
    f.entry_point = parse_vllm_usage_context(s.vllm_usage_context).value_or(VllmEntryPoint::api_server);
    f.enforce_eager = s.enforce_eager;
    const VllmSampler sampler = f.sampler == VllmSampler::pip_default ? vllm_default_sampler(era) : f.sampler;
    d.settings.vllm_sampler = sampler == VllmSampler::flashinfer ? "flashinfer" : "pytorch";
    d.settings.vllm_usage_context = f.entry_point == VllmEntryPoint::llm_class ? "llm_class" : "openai_api_server";
    if (s.block_size > 0) f.block_size = s.block_size;
    bind_non_kv(s, fit, d);
}

void bind_non_kv(const Scenario& s, const ActivationFit* fit, Deployment& d) {
    if (!engine_info(d.engine).accounts_non_kv) return;
    NonKvModel& m = d.non_kv;
    ResolvedSettings& set = d.settings;
    m.kind = NonKvModel::Kind::none;
    m.activation = nullptr;
    m.error_band_bytes = kTightBandBytes;
    VllmServeFlags& f = m.flags;
    f.max_model_len = set.max_model_len;
    f.max_num_seqs = s.max_num_seqs > 0 ? std::optional<std::int64_t>(s.max_num_seqs) : std::nullopt;
    // Numbers only: the wording (assumed defaults, band basis) is written by predict() (explain_non_kv). A seed
    // fit prices its own non-KV terms and needs only vLLM's defaults for the flags left unset.
    const bool accounted = d.model->family == "generic";  // config.json and popular models: no measured fit
    if (accounted)
        m.accounting = vllm_account(m.dims, m.device, f, m.era,
                                    d.weights_bytes_per_card, false);
    else  // in place: only the defaults' fields are kept for a seed fit, and this runs at every new load
        vllm_resolve_defaults_into(m.device, f, m.era, false, m.accounting);
    // vLLM's defaults stand in for what the user left unset, everywhere the settings are shown or priced.
    set.max_num_seqs = m.accounting.max_num_seqs;
    set.gpu_memory_utilization = m.accounting.gpu_memory_utilization;
    if (accounted) {
        m.kind = NonKvModel::Kind::vllm_accounting;
        set.max_num_batched_tokens = m.accounting.max_num_batched_tokens;
        m.error_band_bytes = m.accounting.error_band_bytes;
    } else {
        m.kind = NonKvModel::Kind::seed_fit;
        m.activation = fit;
    }
    m.batched_tokens = 0;
    m.batched_at = d.load();
    // With max_num_seqs set, the defaults above were resolved at exactly this load on this card.
    m.batched_tokens = f.max_num_seqs && *f.max_num_seqs == set.max_num_seqs ? m.accounting.max_num_batched_tokens
                                                                               : vllm_batched_tokens(d, m.batched_at);
}

VllmAccounting explain_non_kv(const Deployment& d) {
    const NonKvModel& m = d.non_kv;
    if (m.kind == NonKvModel::Kind::vllm_accounting)
        return vllm_account_worded(m.dims, m.device, m.flags, m.era,
                                   d.weights_bytes_per_card, true, false);
    // A seed fit shows the defaults of max_num_seqs and gpu_memory_utilization, and predict() adds the batch's
    // when sliding-window pages depend on it (its activation fit does not use vLLM's max_num_batched_tokens or
    // block size): nothing to word when all three are set.
    if (m.flags.max_num_seqs && m.flags.gpu_memory_utilization && m.flags.max_num_batched_tokens) return m.accounting;
    return vllm_resolve_defaults(m.device, m.flags, m.era, true);
}

VllmDevice vllm_device_for(const Deployment& d, const Load& load) {
    if (load.gpu && load.vram_bytes == load.gpu->vram_bytes) return vllm_device(*load.gpu);
    if (load.vram_bytes == d.settings.vram_bytes) return d.non_kv.device;
    // A card of another size (the VRAM solver): a catalog card's CUDA total follows its estimate rule.
    VllmDevice dev = d.gpu ? d.non_kv.device : vllm_device_from_total(load.vram_bytes);
    if (d.gpu) dev.cuda_total_bytes = estimate_cuda_total_bytes(load.vram_bytes, false);
    dev.name = "other";
    return dev;
}

void non_kv_terms(const Deployment& d, const Load& load, BudgetTerms& t) {
    const ResolvedSettings& s = d.settings;
    const int tp = s.tensor_parallel_size;
    switch (d.non_kv.kind) {
        case NonKvModel::Kind::none: break;
        case NonKvModel::Kind::vllm_accounting: {
            VllmServeFlags f = d.non_kv.flags;
            f.max_model_len = load.max_model_len;
            f.max_num_seqs = load.max_num_seqs;
            const VllmAccounting a = vllm_account(d.non_kv.dims, vllm_device_for(d, load), f, d.non_kv.era,
                                                  d.weights_bytes_per_card, false);
            t.weights_bytes = a.weights_bytes;
            t.activation_bytes = a.torch_peak_bytes;
            // With a fixed KV pool (--kv-cache-memory-bytes) the graphs, captured after it, must fit the card too.
            t.cudagraph_workspace_bytes =
                a.non_torch_bytes + (a.cudagraph_subtracted || d.kv_cache_memory_bytes ? a.cudagraph_bytes : 0);
            t.budget_bytes = a.requested_bytes;
            t.tight_band_bytes = a.error_band_bytes;  // the card's own band (an estimated CUDA total widens it)
            break;
        }
        case NonKvModel::Kind::seed_fit: {
            const ActivationFit& fit = *d.non_kv.activation;
            t.activation_bytes = activation_peak_bytes(fit, *d.model, d.footprint.num_recurrent_layers, *d.format,
                                                       load.max_model_len, tp, s.max_num_batched_tokens);
            if (fit.gdn_prefill_scratch && s.max_num_batched_tokens) {
                // Report the delta actually applied: activation_peak_bytes clamps the peak at 0, so a negative
                // delta larger than the rest of the peak only removes what was there.
                t.gdn_scratch_delta_bytes =
                    t.activation_bytes - activation_peak_bytes(fit, *d.model, d.footprint.num_recurrent_layers,
                                                               *d.format, load.max_model_len, tp, std::nullopt);
            }
            // CUDA graphs + FlashInfer workspace + NCCL buffers: 0.5 + 1.0 × mem_util + 0.3 × (TP − 1) GB (docs/SOURCES.md "Per-card budget").
            t.cudagraph_workspace_bytes = round_to_int64((0.5 + 1.0 * s.gpu_memory_utilization + 0.3 * (tp - 1)) * 1e9);
            break;
        }
    }
    if (const auto* llama = std::get_if<LlamaCppPlan>(&d.plan)) price_non_kv(d, *llama, load, t);
    if (d.non_kv.measured) apply_measured(d, load, t);  // a calibrated scenario: the boot's terms, scaled
}

}  // namespace kvcalc::detail

namespace kvcalc {

Load load_on(const Deployment& d, const GpuSpec& gpu) {
    Load load = d.load();
    load.vram_bytes = gpu.vram_bytes;
    load.gpu = &gpu;
    if (load.max_num_seqs_is_default) {
        VllmServeFlags f = d.non_kv.flags;
        f.max_model_len = load.max_model_len;
        load.max_num_seqs = vllm_resolve_defaults(vllm_device(gpu), f, d.non_kv.era, false).max_num_seqs;
    }
    return load;
}

}  // namespace kvcalc
