// SGLang in a deployment: the token pool (engine_sglang.cpp) holds max_model_len tokens per request at the
// pool's cell size; the recurrent state of hybrid models is taken from the same memory first.
#include <variant>

#include "engines/deploy_internal.h"
#include "config/served_model.h"
#include "engines/engine_common.h"
#include "kvcalc/base/units.h"
#include "kvcalc/model/layer_cache.h"
#include "kvcalc/model/layer_kinds.h"

namespace kvcalc::detail {

SglangPlan make_sglang(const Deployment& d, Diagnostics& diags) {
    SglangPlan p;
    p.settings.tp_size = d.settings.tensor_parallel_size;
    p.settings.kv_cache_dtype = sglang_spelling(d.format->id).k;
    const ModelFootprint& fp = d.footprint;
    if (fp.num_growing_layers == 0 && fp.num_sliding_layers == 0 && fp.num_recurrent_layers == 0)
        return p;  // encoder-only / embedding models keep no cache: no pool to size
    const SglangKvPrediction probe = predict_sglang_kv(*d.model, p.settings, 0);
    for (const auto& x : probe.diagnostics)
        if (x.severity == Severity::error) diags.push_back(x);
    p.cell_size_bytes = probe.cell_size_bytes;
    for (const auto& g : d.groups)
        if (const auto r = layer_recurrent_state(g.cache))
            p.state_bytes_per_request += recurrent_state_bytes_per_rank(*r, p.settings.tp_size) * g.count;
    return p;
}

void price_kv(const Deployment& d, const SglangPlan& p, const Load& load, BudgetTerms& t) {
    const std::int64_t tokens = load.max_model_len + d.kv_extra_tokens;
    t.kv_growing_requested_bytes = tokens * p.cell_size_bytes * load.max_num_seqs;
    t.kv_sliding_bytes = 0;  // SGLang's pool prices sliding layers at full length (engine note)
    t.recurrent_state_bytes = p.state_bytes_per_request * load.max_num_seqs;
    t.kv_one_sequence_bytes = tokens * p.cell_size_bytes + p.state_bytes_per_request;
    t.kv_requested_bytes = t.kv_one_sequence_bytes * load.max_num_seqs;
    t.kv_bytes_per_token = static_cast<double>(p.cell_size_bytes);
    t.max_concurrency = t.kv_one_sequence_bytes > 0 ? static_cast<double>(t.available_for_kv_bytes) /
                                                          static_cast<double>(t.kv_one_sequence_bytes)
                                                    : 0.0;
    t.block_tokens = 1;
}

EngineBucket bucket(const Deployment& d, const SglangPlan& p, const Load& load, std::size_t group) {
    const LayerGroup& g = d.groups[group];
    const SglangLayerCell c = sglang_layer_cell(g.cache, p.settings);
    EngineBucket b;
    if (c.state_bytes_per_request > 0) {
        b.term = BucketTerm::state;
        b.page_bytes = c.state_bytes_per_request;
        b.pages_per_request = 1;
    } else if (c.token_bytes > 0 && p.cell_size_bytes > 0) {
        // One token pool of single-token pages; windowed layers too keep the whole length (no SWA pool split).
        b.term = BucketTerm::growing;
        b.page_bytes = c.token_bytes;
        b.tokens_per_page = 1;
        b.pages_per_request = load.max_model_len + d.kv_extra_tokens;
        b.bytes_per_token_per_card = static_cast<double>(c.token_bytes) * g.count;
    }
    return b;
}

void startup(const Deployment& d, const SglangPlan& p, const Load& load, const BudgetTerms& t,
             bool explain, StartupPrediction& out) {
    if (explain) out.engine_rules = SglangKvPrediction{}.engine_rules;
    if (p.cell_size_bytes == 0) {
        if (explain) out.notes.push_back("the model keeps no KV cache: SGLang sizes no token pool for it");
        return;
    }
    const std::int64_t pool =
        std::max<std::int64_t>(0, t.available_for_kv_bytes - p.state_bytes_per_request * load.max_num_seqs);
    SglangKvPrediction g = predict_sglang_kv(*d.model, p.settings, pool);
    if (has_error(g.diagnostics)) {
        if (explain)
            for (const auto& x : g.diagnostics) out.notes.push_back(x.message);
        return;
    }
    const EngineKvSpelling s = deployment_kv_spelling(d);
    out.available = true;
    out.available_kv_bytes = pool;
    out.available_kv_gib = static_cast<double>(pool) / static_cast<double>(kBytesPerGib);
    out.kv_bytes_per_token = g.cell_size_bytes;
    out.gpu_kv_cache_tokens = g.max_total_num_tokens;
    out.max_concurrency = t.max_concurrency;
    if (!explain) return;
    // model_runner.py logs the pool as "max_total_num_tokens=N" (and the memory it was sized from).
    out.lines = {{"Available KV cache memory", two_decimals_text(out.available_kv_gib), "GiB"},
                 {"max_total_num_tokens", std::to_string(g.max_total_num_tokens), "tokens"}};
    out.notes = std::move(g.notes);
    if (!s.exact) out.notes.insert(out.notes.begin(), stand_in_note("SGLang", *d.format, s));
    out.notes.push_back("SGLang pool = gpu_memory_utilization (mem_fraction_static) × VRAM − weights per card; "
                        "SGLang reserves its activation and CUDA-graph memory inside the remaining fraction");
}

std::string command(const Deployment& d, const SglangPlan& p, const Load& load) {
    const EngineKvSpelling s = deployment_kv_spelling(d);
    std::string out;
    if (!s.exact) out += "# kvcalc: " + stand_in_note("SGLang", *d.format, s) + "\n";
    out += placeholder_comment(served_repo(d));
    out += "python -m sglang.launch_server --model-path " + served_repo(d) + " \\\n  --tp " +
           std::to_string(p.settings.tp_size) + " \\\n  --context-length " + std::to_string(load.max_model_len) +
           " \\\n  --max-running-requests " + std::to_string(load.max_num_seqs) + " \\\n  --kv-cache-dtype " + s.k +
           " \\\n  --mem-fraction-static " + fixed2(d.settings.gpu_memory_utilization);
    return out;
}

}  // namespace kvcalc::detail
