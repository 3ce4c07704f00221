// A calibrated deployment: the terms a real boot printed (Scenario::measured) stand in for kvcalc's predicted
// ones, and kvcalc's rules only say how far a change of settings moves each of them. The measured boot is the
// anchor: at its own settings every term is the log's, so the pool is the printed one; at another load a term is
// the measured value × (kvcalc at the load / kvcalc at the boot). So a larger max_num_batched_tokens raises the
// torch peak as kvcalc's activation rule scales it, another max_model_len changes the KV demand (and V0's default
// batch, which is max_model_len), and gpu_memory_utilization changes the budget over the measured total.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "engines/deploy_internal.h"
#include "kvcalc/base/checked_math.h"
#include "kvcalc/base/units.h"

namespace kvcalc::detail {

namespace {

// measured × now / at, in long double (byte counts stay far below 2^63 / 2^40).
std::int64_t scaled(std::int64_t measured, std::int64_t now, std::int64_t at) {
    if (at <= 0) return sat_add(measured, std::max<std::int64_t>(now, 0));
    const long double x = static_cast<long double>(measured) * static_cast<long double>(now) / static_cast<long double>(at);
    return x <= 0 ? 0 : static_cast<std::int64_t>(std::min<long double>(x, static_cast<long double>(kMaxBytes)));
}

std::int64_t budget_of(double utilization, std::int64_t total) {
    // vllm/v1/worker/utils.py request_memory: ceil(total × gpu_memory_utilization).
    return static_cast<std::int64_t>(std::ceil(utilization * static_cast<double>(total)));
}

std::string gib_text(std::int64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(bytes) / static_cast<double>(kBytesPerGib));
    return buf;
}

}  // namespace

Diagnostics resolve_measured(const Scenario& s, Deployment& d) {
    Diagnostics out;
    d.non_kv.measured.reset();
    if (!s.measured) return out;
    if (d.non_kv.kind == NonKvModel::Kind::none) {
        out.push_back({Severity::warning, "measured_not_vllm", "measured",
                       std::string("measured start-up terms are used for vLLM only; ") + engine_info(d.engine).display_name +
                           " is priced from kvcalc's own terms"});
        return out;
    }
    const MeasuredTerms& m = *s.measured;
    const int tp = d.settings.tensor_parallel_size;

    // kvcalc's own terms at the boot's settings: the same deployment, its batch, utilization and load set to the
    // boot's (what the log did not print is vLLM's default at that boot).
    Deployment plain = d;
    VllmServeFlags& f = plain.non_kv.flags;
    f.max_num_batched_tokens =
        m.max_num_batched_tokens > 0 ? std::optional<std::int64_t>(m.max_num_batched_tokens) : std::nullopt;
    f.gpu_memory_utilization = m.gpu_memory_utilization > 0 ? std::optional<double>(m.gpu_memory_utilization) : std::nullopt;
    f.max_num_seqs = m.max_num_seqs > 0 ? std::optional<std::int64_t>(m.max_num_seqs) : std::nullopt;
    // Without the boot's length, the engine's derived maximum (what vLLM boots with when --max-model-len is not
    // given), never the load's: the anchor must not move with the load asked.
    f.max_model_len = m.max_model_len > 0 ? m.max_model_len : std::max<std::int64_t>(d.max_model_len_limit, 1);
    const VllmAccounting defaults = vllm_resolve_defaults(d.non_kv.device, f, d.non_kv.era, false);
    plain.settings.max_num_batched_tokens = f.max_num_batched_tokens;
    plain.settings.gpu_memory_utilization = defaults.gpu_memory_utilization;
    Load at{f.max_model_len, defaults.max_num_seqs, d.settings.vram_bytes, d.gpu, !f.max_num_seqs};
    BudgetTerms pt;
    pt.weights_bytes = ceil_div(d.settings.weights_bytes_total, tp);
    pt.budget_bytes = round_to_int64(defaults.gpu_memory_utilization * static_cast<double>(at.vram_bytes));
    non_kv_terms(plain, at, pt);
    const std::int64_t drafter = ceil_div(d.settings.drafter_bytes_total, tp);

    MeasuredAnchor a;
    a.cuda_total_bytes = m.cuda_total_bytes ? *m.cuda_total_bytes
                                            : d.non_kv.kind == NonKvModel::Kind::vllm_accounting
                                                  ? d.non_kv.device.cuda_total_bytes
                                                  : d.settings.vram_bytes;
    a.weights_hold_drafter = m.weights_bytes.has_value();
    a.weights_bytes = m.weights_bytes ? *m.weights_bytes : pt.weights_bytes;
    a.predicted_activation_bytes = pt.activation_bytes;
    a.predicted_workspace_bytes = pt.cudagraph_workspace_bytes;
    a.activation_bytes = m.torch_peak_bytes ? *m.torch_peak_bytes : pt.activation_bytes;
    const bool workspace_measured = m.non_torch_bytes.has_value();
    a.workspace_bytes = workspace_measured ? sat_add(*m.non_torch_bytes, m.cudagraph_bytes.value_or(0))
                                           : pt.cudagraph_workspace_bytes;
    a.available_kv_bytes = m.available_kv_bytes;
    a.kv_cache_memory_fixed = m.kv_cache_memory_fixed && m.available_kv_bytes.has_value();

    if (m.available_kv_bytes && !a.kv_cache_memory_fixed) {
        // The log's budget less the terms it printed: what the terms it did not print (and the rounding of the
        // printed ones) take. Split between the unprinted terms as kvcalc predicts them.
        const double util = m.gpu_memory_utilization > 0 ? m.gpu_memory_utilization : defaults.gpu_memory_utilization;
        const std::int64_t weights = a.weights_hold_drafter ? a.weights_bytes : sat_add(a.weights_bytes, drafter);
        std::int64_t rest = sat_sub(sat_sub(budget_of(util, a.cuda_total_bytes), weights), *m.available_kv_bytes);
        const bool peak_known = m.torch_peak_bytes.has_value();
        if (peak_known) rest = sat_sub(rest, a.activation_bytes);
        if (workspace_measured) rest = sat_sub(rest, a.workspace_bytes);
        if (!peak_known && !workspace_measured) {
            const std::int64_t sum = sat_add(pt.activation_bytes, pt.cudagraph_workspace_bytes);
            a.activation_bytes = sum > 0 ? scaled(std::max<std::int64_t>(rest, 0), pt.activation_bytes, sum) : 0;
            a.workspace_bytes = sat_sub(rest, a.activation_bytes);
        } else if (!peak_known) {
            a.activation_bytes = rest;
        } else {
            a.workspace_bytes = sat_add(workspace_measured ? a.workspace_bytes : 0, rest);
        }
        // A remainder below zero moves to the other term; one that stays below zero means the printed terms add
        // up to more than the budget kvcalc computes for the boot (another total or utilization than the boot's).
        if (a.workspace_bytes < 0) {
            a.activation_bytes = sat_add(a.activation_bytes, a.workspace_bytes);
            a.workspace_bytes = 0;
        }
        if (a.activation_bytes < 0) {
            out.push_back({Severity::warning, "measured_over_budget", "measured",
                           "the measured terms add up to " + gib_text(-a.activation_bytes) +
                               " GiB more than gpu_memory_utilization × the total: the boot's total or utilization "
                               "differs from the scenario's; the pool is priced " + gib_text(-a.activation_bytes) +
                               " GiB larger than printed"});
            a.activation_bytes = 0;
        }
    }
    d.non_kv.measured = a;
    return out;
}

void apply_measured(const Deployment& d, const Load& load, BudgetTerms& t) {
    const MeasuredAnchor& a = *d.non_kv.measured;
    t.weights_bytes = a.weights_bytes;
    if (a.weights_hold_drafter) t.drafter_bytes = 0;
    t.activation_bytes = scaled(a.activation_bytes, t.activation_bytes, a.predicted_activation_bytes);
    t.cudagraph_workspace_bytes = scaled(a.workspace_bytes, t.cudagraph_workspace_bytes, a.predicted_workspace_bytes);
    t.gdn_scratch_delta_bytes = 0;  // in the measured peak
    if (a.kv_cache_memory_fixed) {
        // --kv-cache-memory-bytes: vLLM skips the profile and allocates the flag's pool.
        t.budget_bytes = sat_add(sat_add(sat_add(t.weights_bytes, t.drafter_bytes), sat_add(t.activation_bytes, t.cudagraph_workspace_bytes)),
                                 *a.available_kv_bytes);
        return;
    }
    // The boot's card (its measured total); another card (shopping, the VRAM solver) keeps kvcalc's budget.
    const bool same_card = load.vram_bytes == d.settings.vram_bytes && (!load.gpu || load.gpu == d.gpu);
    if (same_card) t.budget_bytes = budget_of(d.settings.gpu_memory_utilization, a.cuda_total_bytes);
}

}  // namespace kvcalc::detail
