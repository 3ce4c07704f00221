// vLLM in a deployment: its per-card plan prices every KV byte of the verdict, the solvers, shopping and the
// start-up lines (engine_vllm.cpp holds vLLM's rules; this file connects them to the budget).
#include <algorithm>
#include <optional>

#include "engines/deploy_internal.h"
#include "util/text.h"
#include "config/served_model.h"
#include "kvcalc/base/checked_math.h"
#include "kvcalc/base/units.h"

namespace kvcalc::detail {

std::int64_t vllm_batched_tokens(const Deployment& d, const Load& load) {
    // The user's flag; vLLM's default depends on the card and on max_num_seqs × max_model_len, so it is
    // resolved at each load (the one shown in the settings is the scenario's own).
    if (d.non_kv.flags.max_num_batched_tokens) return *d.non_kv.flags.max_num_batched_tokens;
    const Load& at = d.non_kv.batched_at;
    if (d.non_kv.batched_tokens > 0 && load.max_model_len == at.max_model_len && load.max_num_seqs == at.max_num_seqs &&
        load.vram_bytes == at.vram_bytes && load.gpu == at.gpu)
        return d.non_kv.batched_tokens;
    VllmServeFlags f = d.non_kv.flags;
    f.max_model_len = load.max_model_len;
    f.max_num_seqs = load.max_num_seqs;
    return vllm_resolve_defaults(vllm_device_for(d, load), f, d.non_kv.era, false).max_num_batched_tokens;
}

namespace {

VllmSettings settings_of(const Deployment& d) {
    VllmSettings vs;
    vs.tensor_parallel_size = d.settings.tensor_parallel_size;
    if (d.non_kv.flags.block_size) vs.block_size = *d.non_kv.flags.block_size;
    vs.max_num_batched_tokens = vllm_batched_tokens(d, d.load());
    vs.kv_cache_dtype = vllm_spelling(d.format->id).k;
    vs.model_type = d.model->model_type;
    return vs;
}


// What the data-parallel, expert-parallel and fixed-pool flags change in the lines vLLM prints.
void parallel_and_pool_notes(const Deployment& d, std::vector<std::string>& notes) {
    const int tp = d.settings.tensor_parallel_size, dp = d.data_parallel_size;
    if (dp > 1)
        notes.push_back("data_parallel_size " + std::to_string(dp) + ": " + std::to_string(dp) +
                        " engines (DP ranks) of " + std::to_string(tp) + (tp == 1 ? " card" : " cards") +
                        " each print these lines; every engine has its own KV pool of this size per card" +
                        (d.model->num_experts > 0
                             ? std::string("; the MoE layers are split over all ") + std::to_string(tp * dp) +
                                   " cards (FusedMoEParallelConfig: TP flattened across DP)"
                             : std::string()));
    if (d.enable_expert_parallel && d.model->num_experts > 0)
        notes.push_back("enable_expert_parallel: EP size " + std::to_string(tp * dp) + " (TP × DP), each card holds " +
                        std::to_string(d.model->num_experts / std::max(tp * dp, 1)) +
                        " whole experts instead of a slice of every expert; the weights per card are the same");
    if (d.kv_cache_memory_bytes)
        notes.push_back("kv_cache_memory_bytes: vLLM prints \"reserved " +
                        two_decimals_text(static_cast<double>(*d.kv_cache_memory_bytes) / static_cast<double>(kBytesPerGib)) +
                        " GiB memory for KV Cache as specified by kv_cache_memory_bytes config and skipped memory "
                        "profiling\" instead of \"Available KV cache memory\"");
}

}  // namespace

VllmPlan make_vllm(const Deployment& d, Diagnostics& diags) {
    VllmPlan p = make_vllm_plan(d.groups, settings_of(d));
    p.extra_tokens = d.kv_extra_tokens;
    for (const auto& x : p.diagnostics)
        if (x.severity == Severity::error) diags.push_back(x);
    return p;
}

void price_kv(const Deployment& d, const VllmPlan& p, const Load& load, BudgetTerms& t) {
    const std::int64_t batched = vllm_batched_tokens(d, load);
    t.max_num_batched_tokens = batched;
    const VllmRequestSplit one = vllm_request_split(p, load.max_model_len, batched);
    // vLLM's default max_num_seqs caps the batch; what it needs at start-up is one max_model_len request.
    const std::int64_t asked = priced_requests(load);
    // Saturating: the solvers probe lengths and batches before predict's 2^60 demand check can refuse them.
    t.kv_one_sequence_bytes = sat_add(sat_add(one.full_bytes, one.sliding_bytes), one.mamba_bytes);
    t.kv_growing_requested_bytes = sat_mul(one.full_bytes, asked);
    t.kv_sliding_bytes = sat_mul(one.sliding_bytes, asked);
    t.recurrent_state_bytes = sat_mul(one.mamba_bytes, asked);
    t.kv_requested_bytes = sat_mul(t.kv_one_sequence_bytes, asked);
    t.kv_bytes_per_token = static_cast<double>(p.kv_bytes_per_token);
    const std::int64_t blocks = one.blocks;  // vllm_blocks_per_request at the same length and batch
    t.max_concurrency = blocks > 0 ? static_cast<double>(vllm_num_blocks(p, t.available_for_kv_bytes)) /
                                         static_cast<double>(blocks)
                                   : 0.0;
    t.block_tokens = p.min_block;
    for (const auto& ty : p.types)
        if (ty.kind == VllmLayerType::Kind::full) t.block_tokens = std::max<std::int64_t>(t.block_tokens, ty.block);
}

EngineBucket bucket(const Deployment& d, const VllmPlan& p, const Load& load, std::size_t group) {
    if (group >= p.group_type.size() || p.group_type[group] < 0) return {};
    const VllmLayerType& t = p.types[static_cast<std::size_t>(p.group_type[group])];
    EngineBucket b;
    // The page every block is charged at (vllm_request_bytes): the unified page, which t.page equals unless the
    // types' pages are not multiples of each other (the plan's note says vLLM may reject such a model).
    b.page_bytes = p.page_size_bytes;
    b.pages_per_request = vllm_type_blocks(p, t, load.max_model_len, vllm_batched_tokens(d, load));
    switch (t.kind) {
        case VllmLayerType::Kind::full: b.term = BucketTerm::growing; break;
        case VllmLayerType::Kind::sliding:
        case VllmLayerType::Kind::chunked: b.term = BucketTerm::sliding; break;
        case VllmLayerType::Kind::mamba: b.term = BucketTerm::state; break;
    }
    if (b.term != BucketTerm::state) {
        b.tokens_per_page = t.block;
        b.bytes_per_token_per_card = static_cast<double>(t.bytes) * d.groups[group].count;
    }
    return b;
}

void startup(const Deployment& d, const VllmPlan& plan, const Load& load, const BudgetTerms& t,
             bool explain, StartupPrediction& out) {
    // V0 (0.8 and older) printed the same pool lines from its block manager; kvcalc prices them with V1's rules.
    const VllmEraRules& era = vllm_era_rules(d.non_kv.era);
    if (explain)
        out.engine_rules = era.v1_engine ? kVllmV1KvRules
                                         : "vLLM V0 (0.8 and older; its paged pool priced with V1's kv_cache_interface.py rules)";
    if (has_error(plan.diagnostics)) {
        if (explain)
            for (const auto& x : plan.diagnostics) out.notes.push_back(x.message);
        return;
    }
    // The pool at this load's max_num_batched_tokens (resolve() built the plan for the scenario's own). `t` is
    // evaluate(d, load): price_kv() priced one request at this plan and memory (unless the load is past what
    // kvcalc computes, which predict() reports as too large). Every rank has the same KV memory here.
    const VllmRequestCost priced{t.kv_one_sequence_bytes, t.max_concurrency};
    const VllmPool pool = vllm_pool(plan, load.max_model_len, t.available_for_kv_bytes,
                                    t.max_num_batched_tokens > 0 ? t.max_num_batched_tokens : vllm_batched_tokens(d, load),
                                    t.kv_one_sequence_bytes < kMaxBytes ? &priced : nullptr);
    if (explain) {
        out.notes = plan.notes;
        vllm_pool_notes(pool, d.settings.tensor_parallel_size, out.notes);
        parallel_and_pool_notes(d, out.notes);
    }
    if (plan.types.empty()) return;  // no KV cache: no cache lines to predict (the note says so)
    if (!vllm_dtype(d.format->id).exact) {
        if (explain)
            out.notes.insert(out.notes.begin(), "upstream vLLM has no kv_cache_dtype " + std::string(d.format->name) +
                                                    ": its start-up lines are not predicted; " +
                                                    stand_in_note("vLLM", *d.format, vllm_spelling(d.format->id)));
        return;
    }
    out.available = true;
    out.available_kv_bytes = pool.available_kv_bytes;
    out.available_kv_gib = pool.available_kv_gib;
    out.kv_bytes_per_token = pool.kv_bytes_per_token;
    // "GPU KV cache size" as the chosen release prints it (kv_cache_utils.py _report_kv_cache_config, #41069).
    out.gpu_kv_cache_tokens = era.v1_engine && !era.kv_size_from_concurrency
                                  ? pool.gpu_kv_cache_tokens  // blocks // groups × the unified block size
                                  : vllm_printed_kv_tokens(d.non_kv.era, pool.num_blocks, pool.num_kv_cache_groups,
                                                           plan.min_block, pool.max_concurrency, load.max_model_len);
    out.max_concurrency = pool.max_concurrency;
    out.num_kv_cache_groups = pool.num_kv_cache_groups;
    out.refuses_to_start = pool.refuses_to_start;
    out.estimated_max_model_len = pool.estimated_max_model_len;
    if (!explain) return;
    // gpu_worker.py "Available KV cache memory: %.2f GiB"; kv_cache_utils.py _report_kv_cache_config prints
    // "GPU KV cache size: {num_tokens:,} tokens" and "Maximum concurrency for {max_model_len:,} tokens per request".
    out.lines = {{"Available KV cache memory", two_decimals_text(pool.available_kv_gib), "GiB"},
                 {"GPU KV cache size", format_count(out.gpu_kv_cache_tokens), "tokens"},
                 {"Maximum concurrency for " + format_count(load.max_model_len) + " tokens per request",
                  concurrency_text(pool.max_concurrency), "x"}};
}

bool kv_grows_with_batch(const VllmPlan& p) {
    for (const auto& ty : p.types)
        if (ty.kind == VllmLayerType::Kind::sliding || ty.kind == VllmLayerType::Kind::chunked) return true;
    return false;
}

std::string command(const Deployment& d, const VllmPlan&, const Load& load) {
    const ResolvedSettings& s = d.settings;
    // kv_cache_dtype auto keeps vLLM's own default spelling (deployment_kv_spelling); auto resolves to an exact dtype.
    const VllmDtype dtype = d.kv_auto ? VllmDtype{"auto", true} : vllm_dtype(d.format->id);
    std::string out;
    out.reserve(320);  // one allocation: the flags below are about 250 characters
    if (!dtype.exact)
        out.append("# kvcalc: ").append(stand_in_note("vLLM", *d.format, vllm_spelling(d.format->id))).append("\n");
    if (d.non_kv.kind == NonKvModel::Kind::vllm_accounting)
        out.append("# kvcalc priced this for vLLM ")
            .append(vllm_era_rules(d.non_kv.era).id)
            .append(" (start-up accounting); every flag that changes memory is written out\n");
    out.append(placeholder_comment(served_repo(d)));
    out.append("vllm serve ").append(served_repo(d));
    out.append(" \\\n  --tensor-parallel-size ").append(std::to_string(s.tensor_parallel_size));
    out.append(" \\\n  --max-model-len ").append(std::to_string(load.max_model_len));
    out.append(" \\\n  --max-num-seqs ").append(std::to_string(load.max_num_seqs));
    out.append(" \\\n  --kv-cache-dtype ").append(dtype.name);
    out.append(" \\\n  --gpu-memory-utilization ").append(fixed2(s.gpu_memory_utilization));
    if (const WeightsVariant* w = priced_variant(d); w && !w->vllm_quantization.empty())
        out.append(" \\\n  --quantization ").append(w->vllm_quantization);
    if (d.non_kv.flags.max_num_batched_tokens) {
        out.append(" \\\n  --max-num-batched-tokens ").append(std::to_string(*d.non_kv.flags.max_num_batched_tokens));
    } else if (d.non_kv.kind == NonKvModel::Kind::vllm_accounting) {
        // The default the accounting assumed for this card, written out so the command boots what was priced.
        VllmServeFlags f = d.non_kv.flags;
        f.max_model_len = load.max_model_len;
        f.max_num_seqs = load.max_num_seqs;
        const VllmAccounting a = vllm_resolve_defaults(d.non_kv.device, f, d.non_kv.era, false);
        out.append(" \\\n  --max-num-batched-tokens ").append(std::to_string(a.max_num_batched_tokens));
    }
    // The other flags that change memory, when set (vLLM's defaults otherwise).
    if (d.data_parallel_size > 1)
        out.append(" \\\n  --data-parallel-size ").append(std::to_string(d.data_parallel_size));
    if (d.enable_expert_parallel) out.append(" \\\n  --enable-expert-parallel");
    if (d.non_kv.flags.enforce_eager) out.append(" \\\n  --enforce-eager");
    if (d.non_kv.flags.block_size)
        out.append(" \\\n  --block-size ").append(std::to_string(*d.non_kv.flags.block_size));
    if (d.kv_cache_memory_bytes)
        out.append(" \\\n  --kv-cache-memory-bytes ").append(std::to_string(*d.kv_cache_memory_bytes));
    if (d.cpu_offload_bytes > 0)
        out.append(" \\\n  --cpu-offload-gb ")
            .append(text::shortest_decimal(static_cast<double>(d.cpu_offload_bytes) / static_cast<double>(kBytesPerGib)));
    if (d.drafter) {
        const Drafter& dr = *d.drafter;
        out.append(" \\\n  --speculative-config '{\"method\":\"").append(dr.method).append("\"");
        if (dr.method != "mtp") out.append(",\"model\":\"").append(dr.id).append("\"");
        out.append(",\"num_speculative_tokens\":").append(std::to_string(s.num_speculative_tokens)).append("}'");
    }
    return out;
}

}  // namespace kvcalc::detail
