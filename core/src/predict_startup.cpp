// Report::startup: the chosen engine's start-up numbers from the per-card budget (docs/ENGINE_RULES.md).
#include <algorithm>

#include "kvcalc/engine_rules.h"
#include "predict_internal.h"

namespace kvcalc::detail {

namespace {

constexpr double kBytesPerGibD = 1073741824.0;

// kvcalc's kv_cache_dtype → vLLM's --kv-cache-dtype; nullptr for formats upstream vLLM does not ship.
const char* vllm_dtype(KvFormatId id) {
    switch (id) {
        case KvFormatId::fp16: return "float16";
        case KvFormatId::bf16: return "bfloat16";
        case KvFormatId::fp8_e5m2: return "fp8_e5m2";
        case KvFormatId::fp8_e4m3: return "fp8_e4m3";
        case KvFormatId::int8_per_token_head: return "int8_per_token_head";
        case KvFormatId::nvfp4: return "nvfp4";
        default: return nullptr;
    }
}

// kvcalc's kv_cache_dtype → llama.cpp's -ctk / -ctv; false when llama.cpp has no such cache type.
bool llama_cpp_types(KvFormatId id, std::string& k, std::string& v) {
    switch (id) {
        case KvFormatId::fp16: k = v = "f16"; return true;
        case KvFormatId::bf16: k = v = "bf16"; return true;
        case KvFormatId::q4_0: k = v = "q4_0"; return true;
        case KvFormatId::k8v4: k = "q8_0"; v = "q4_0"; return true;
        default: return false;
    }
}

// kvcalc's kv_cache_dtype → SGLang's --kv-cache-dtype; nullptr when SGLang has no such pool dtype.
const char* sglang_dtype(KvFormatId id) {
    switch (id) {
        case KvFormatId::fp16:
        case KvFormatId::bf16: return "bf16";
        case KvFormatId::fp8_e5m2: return "fp8_e5m2";
        case KvFormatId::fp8_e4m3: return "fp8_e4m3";
        default: return nullptr;
    }
}

// Memory the engine hands to its KV pool on one card: the budget minus the non-KV terms (the sliding-window
// and recurrent-state pages live inside the engine's pool, so they are not subtracted here). Never negative.
std::int64_t kv_pool_bytes(const BudgetTerms& t) {
    const std::int64_t non_kv = t.weights_bytes + t.activation_bytes + t.cudagraph_workspace_bytes + t.drafter_bytes;
    return std::max<std::int64_t>(0, t.budget_bytes - non_kv);
}

/// When an engine's rules reported an error, its messages become the prediction's notes (the prediction stays
/// unavailable). Returns true in that case.
bool failed_into_notes(const Diagnostics& d, StartupPrediction& p) {
    if (!has_error(d)) return false;
    for (const auto& x : d) p.notes.push_back(x.message);
    return true;
}

void unavailable(StartupPrediction& p, const std::string& engine, const ResolvedScenario& r) {
    p.notes.push_back(engine + " has no kv_cache_dtype \"" + r.settings.kv_cache_dtype +
                      "\": its start-up numbers are not predicted (the budget above uses kvcalc's own per-layer math)");
}

StartupPrediction vllm(const ResolvedScenario& r, const BudgetTerms& t) {
    StartupPrediction p;
    const char* dtype = vllm_dtype(r.format->id);
    if (!dtype) {
        p.engine_rules = VllmKvPrediction{}.engine_rules;
        unavailable(p, "upstream vLLM", r);
        return p;
    }
    VllmSettings vs;
    vs.tensor_parallel_size = r.settings.tensor_parallel_size;
    vs.max_model_len = r.settings.max_model_len;
    vs.max_num_batched_tokens = r.settings.max_num_batched_tokens.value_or(vs.max_num_batched_tokens);
    if (r.vllm_accounting.max_num_batched_tokens > 0 && !r.settings.max_num_batched_tokens)
        vs.max_num_batched_tokens = r.vllm_accounting.max_num_batched_tokens;  // vLLM's default for the card
    vs.kv_cache_dtype = dtype;
    const std::vector<std::int64_t> per_rank(static_cast<std::size_t>(vs.tensor_parallel_size), kv_pool_bytes(t));
    VllmKvPrediction v = predict_vllm_kv(*r.model, r.groups, vs, per_rank);
    p.engine_rules = v.engine_rules;
    if (failed_into_notes(v.diagnostics, p)) return p;
    p.available = true;
    p.available_kv_bytes = v.available_kv_bytes;
    p.available_kv_gib = v.available_kv_gib;
    p.kv_bytes_per_token = v.kv_bytes_per_token;
    // "GPU KV cache size" as the chosen release prints it (kv_cache_utils.py _report_kv_cache_config, #41069).
    p.gpu_kv_cache_tokens = vllm_era_rules(r.vllm_era).v1_engine && !vllm_era_rules(r.vllm_era).kv_size_from_concurrency
                                ? v.gpu_kv_cache_tokens  // blocks // groups × the unified block size
                                : vllm_printed_kv_tokens(r.vllm_era, v.num_blocks, v.num_kv_cache_groups,
                                                         vs.block_size, v.max_concurrency, vs.max_model_len);
    p.max_concurrency = v.max_concurrency;
    p.num_kv_cache_groups = v.num_kv_cache_groups;
    p.refuses_to_start = v.refuses_to_start;
    p.estimated_max_model_len = v.estimated_max_model_len;
    p.notes = std::move(v.notes);
    return p;
}

StartupPrediction llama_cpp(const ResolvedScenario& r) {
    StartupPrediction p;
    LlamaCppSettings ls;
    p.engine_rules = LlamaCppKvPrediction{}.engine_rules;
    if (!llama_cpp_types(r.format->id, ls.cache_type_k, ls.cache_type_v)) {
        unavailable(p, "llama.cpp", r);
        return p;
    }
    ls.n_seq_max = static_cast<int>(r.settings.max_num_seqs);
    ls.n_ctx = r.settings.max_model_len * r.settings.max_num_seqs;  // -c is split over the -np sequences
    LlamaCppKvPrediction l = predict_llama_cpp_kv(*r.model, ls);
    if (failed_into_notes(l.diagnostics, p)) return p;
    p.available = true;
    p.kv_bytes_per_token = l.kv_bytes_per_token;
    p.llama_cpp_kv_total_bytes = l.total_bytes;
    p.gpu_kv_cache_tokens = l.full_cells * l.streams;
    p.notes = std::move(l.notes);
    p.notes.push_back("llama.cpp: -c " + std::to_string(ls.n_ctx) + " -np " + std::to_string(ls.n_seq_max) +
                      " -ctk " + ls.cache_type_k + " -ctv " + ls.cache_type_v +
                      "; KV buffers are summed over all devices (layer split)");
    return p;
}

StartupPrediction sglang(const ResolvedScenario& r, const BudgetTerms& t) {
    StartupPrediction p;
    p.engine_rules = SglangKvPrediction{}.engine_rules;
    const char* dtype = sglang_dtype(r.format->id);
    if (!dtype) {
        unavailable(p, "SGLang", r);
        return p;
    }
    SglangSettings ss;
    ss.tp_size = r.settings.tensor_parallel_size;
    ss.kv_cache_dtype = dtype;
    const std::int64_t pool = kv_pool_bytes(t);
    SglangKvPrediction g = predict_sglang_kv(*r.model, ss, pool);
    if (failed_into_notes(g.diagnostics, p)) return p;
    p.available = true;
    p.available_kv_bytes = pool;
    p.available_kv_gib = static_cast<double>(pool) / kBytesPerGibD;
    p.kv_bytes_per_token = g.cell_size_bytes;
    p.gpu_kv_cache_tokens = g.max_total_num_tokens;
    p.max_concurrency = r.settings.max_model_len > 0 ? static_cast<double>(g.max_total_num_tokens) /
                                                            static_cast<double>(r.settings.max_model_len)
                                                      : 0.0;
    p.notes = std::move(g.notes);
    p.notes.push_back("SGLang pool = gpu_memory_utilization (mem_fraction_static) × VRAM − weights per card; "
                      "SGLang reserves its activation and CUDA-graph memory inside the remaining fraction");
    return p;
}

}  // namespace

const char* engine_name(EngineId e) {
    switch (e) {
        case EngineId::vllm: return "vllm";
        case EngineId::llama_cpp: return "llama.cpp";
        case EngineId::sglang: return "sglang";
    }
    return "vllm";
}

StartupPrediction predict_startup(const ResolvedScenario& r, const BudgetTerms& t) {
    switch (r.engine) {
        case EngineId::llama_cpp: return llama_cpp(r);
        case EngineId::sglang: return sglang(r, t);
        case EngineId::vllm: break;
    }
    return vllm(r, t);
}

}  // namespace kvcalc::detail
