// llama.cpp in a deployment: the KV buffers llama.cpp allocates at start (engine_llama_cpp.cpp) are the verdict's
// KV terms, spread evenly over the cards (layer split), and the same numbers are the start-up lines.
#include "engines/deploy_internal.h"
#include "kvcalc/base/units.h"
#include "kvcalc/config/hub_gguf.h"
#include "kvcalc/engines/llama_cpp_buffers.h"

namespace kvcalc::detail {

LlamaCppSettings llama_cpp_load_settings(const Deployment& d, const LlamaCppPlan& p, const Load& load) {
    LlamaCppSettings ls = p.settings;
    ls.n_seq_max = static_cast<int>(load.max_num_seqs);
    ls.n_ctx = (load.max_model_len + d.kv_extra_tokens) * load.max_num_seqs;  // -c is split over -np sequences
    return ls;
}

namespace {

LlamaCppKvPrediction buffers(const Deployment& d, const LlamaCppPlan& p, const Load& load) {
    return predict_llama_cpp_kv(*d.model, llama_cpp_load_settings(d, p, load));
}

}  // namespace

LlamaCppPlan make_llama_cpp(const Deployment& d, Diagnostics& diags) {
    LlamaCppPlan p;
    const EngineKvSpelling s = llama_cpp_spelling(d.format->id);
    p.settings.cache_type_k = s.k;
    p.settings.cache_type_v = s.v;
    p.settings.swa_full = d.llama_cpp.swa_full;
    if (d.llama_cpp.n_ubatch > 0) p.settings.n_ubatch = d.llama_cpp.n_ubatch;
    if (p.settings.n_ubatch > kLlamaCppBatch)
        diags.push_back({Severity::warning, "llama_cpp_ubatch_above_batch", "n_ubatch",
                         "n_ubatch " + std::to_string(p.settings.n_ubatch) + " is above llama.cpp's -b " +
                             std::to_string(kLlamaCppBatch) + " (common.h's default; kvcalc has no -b flag): " +
                             "llama.cpp runs at most min(-b, -ub) = " + std::to_string(kLlamaCppBatch) +
                             " tokens per ubatch (fewer when -c is smaller), and the sliding cache and the compute "
                             "buffer are priced at that"});
    p.settings.build = d.llama_cpp.build;
    const LlamaCppKvPrediction probe = buffers(d, p, {1, 1, 0});
    for (const auto& x : probe.diagnostics)
        if (x.severity == Severity::error) diags.push_back(x);
    return p;
}

void price_non_kv(const Deployment& d, const LlamaCppPlan& p, const Load& load, BudgetTerms& t) {
    // Full offload, as the verdict prices the weights: the GPU's compute buffer at this -c and -np, its upper bound
    // (the point the log prints plus ggml-alloc's fragmentation, llama_cpp_buffers.h). In a layer split each card
    // reserves its own; kvcalc gives each the whole graph's, logits included (only the last card makes them).
    const LlamaCppComputeBand c =
        llama_cpp_compute_band(llama_cpp_compute_shape(*d.model, llama_cpp_load_settings(d, p, load), true));
    t.activation_bytes = c.upper_bytes;
}

void price_kv(const Deployment& d, const LlamaCppPlan& p, const Load& load, BudgetTerms& t) {
    // Every stream is allocated at start, so booting needs all of it; the cards share it by layers.
    const LlamaCppKvPrediction b = buffers(d, p, load);
    const int cards = d.settings.tensor_parallel_size;
    t.kv_growing_requested_bytes = ceil_div(b.full_bytes, cards);
    t.kv_sliding_bytes = ceil_div(b.swa_bytes, cards);
    t.recurrent_state_bytes = ceil_div(b.recurrent_bytes, cards);
    t.kv_requested_bytes = t.kv_growing_requested_bytes + t.kv_sliding_bytes + t.recurrent_state_bytes;
    t.kv_one_sequence_bytes = t.kv_requested_bytes;
    t.kv_bytes_per_token = static_cast<double>(b.kv_bytes_per_token) / cards;
    t.max_concurrency = t.kv_requested_bytes > 0 ? static_cast<double>(t.available_for_kv_bytes) *
                                                       static_cast<double>(load.max_num_seqs) /
                                                       static_cast<double>(t.kv_requested_bytes)
                                                 : 0.0;
    t.block_tokens = p.settings.flash_attn ? 256 : 32;
}

EngineBucket bucket(const Deployment& d, const LlamaCppPlan& p, const Load& load, std::size_t group) {
    LlamaCppSettings ls = p.settings;  // as buffers() sizes them at this load
    ls.n_seq_max = static_cast<int>(load.max_num_seqs);
    ls.n_ctx = (load.max_model_len + d.kv_extra_tokens) * load.max_num_seqs;
    const LayerGroup& g = d.groups[group];
    const LlamaCppLayerCells c = llama_cpp_layer_cells(*d.model, ls, g.cache);
    EngineBucket b;
    if (c.cell_bytes <= 0) return b;
    b.term = c.recurrent ? BucketTerm::state : c.swa ? BucketTerm::sliding : BucketTerm::growing;
    b.page_bytes = c.cell_bytes;
    b.pages_per_request = c.cells_per_stream;  // one stream per sequence (no --kv-unified)
    if (!c.recurrent) {
        b.tokens_per_page = 1;
        // Layer split: the cards share the layers, so one card holds 1/cards of them on average.
        b.bytes_per_token_per_card = static_cast<double>(c.cell_bytes) * g.count / d.settings.tensor_parallel_size;
    }
    return b;
}

void startup(const Deployment& d, const LlamaCppPlan& p, const Load& load, const BudgetTerms&,
             bool explain, StartupPrediction& out) {
    LlamaCppKvPrediction b = buffers(d, p, load);
    if (explain) out.engine_rules = b.engine_rules;
    if (has_error(b.diagnostics)) {
        if (explain)
            for (const auto& x : b.diagnostics) out.notes.push_back(x.message);
        return;
    }
    const EngineKvSpelling s = llama_cpp_spelling(d.format->id);
    out.available = true;
    out.kv_bytes_per_token = b.kv_bytes_per_token;
    out.kv_total_bytes_all_devices = b.total_bytes;
    out.gpu_kv_cache_tokens = b.full_cells * b.streams;
    if (!explain) return;
    // llama-kv-cache.cpp prints "llama_kv_cache: size = %7.2f MiB" per cache; kvcalc gives the sum.
    out.lines = {{"llama_kv_cache size, all devices",
                  two_decimals_text(static_cast<double>(b.total_bytes) / static_cast<double>(1LL << 20)), "MiB"}};
    out.notes = std::move(b.notes);
    if (!s.exact) out.notes.insert(out.notes.begin(), stand_in_note("llama.cpp", *d.format, s));
}

std::string llama_cpp_model_args(const Deployment& d) {
    // A Hub GGUF: llama.cpp's own Hub flags (common/arg.cpp: -hfr/--hf-repo REPO, -hff/--hf-file FILE, which
    // "will override the quant in --hf-repo"), so the file run is the one whose header was read. llama.cpp
    // downloads from <HF_ENDPOINT>/REPO/resolve/main/FILE (common/arg.cpp), and HF_TOKEN for a gated repo.
    if (const std::optional<HubGguf> hub = parse_hub_gguf(d.llama_cpp.hub_gguf)) {
        std::string out = "# --hf-repo / --hf-file: llama-server downloads " + hub->file + " from " + hub->repo;
        if (hub->revision != "main")
            out += " (from its main branch: llama.cpp has no revision flag; kvcalc read revision " + hub->revision + ")";
        return out + "\nllama-server --hf-repo " + hub->repo + " --hf-file " + hub->file;
    }
    // A local GGUF file: the one the model was read from (ModelSpec::gguf_file).
    if (!d.model->gguf_file.empty()) return "llama-server -m " + d.model->gguf_file;
    // -m takes a local GGUF file; the Hub repo names the checkpoint it is made from, not a file that exists.
    const std::string repo = served_repo(d);
    return "# -m: a GGUF file of " + repo + " (convert_hf_to_gguf.py, or a GGUF repo's file of the same model)\n" +
           "llama-server -m " + repo.substr(repo.rfind('/') + 1) + ".gguf";
}

std::string command(const Deployment& d, const LlamaCppPlan& p, const Load& load) {
    const EngineKvSpelling s = llama_cpp_spelling(d.format->id);
    std::string out;
    if (!s.exact) out += "# kvcalc: " + stand_in_note("llama.cpp", *d.format, s) + "\n";
    out += llama_cpp_model_args(d);
    out += " \\\n  -c " +
           std::to_string((load.max_model_len + d.kv_extra_tokens) * load.max_num_seqs) + " \\\n  -np " +
           std::to_string(load.max_num_seqs) + " \\\n  -ctk " + s.k + " -ctv " + s.v + " \\\n  -ub " +
           std::to_string(p.settings.n_ubatch) + " \\\n  -fa " + (p.settings.flash_attn ? "on" : "off") +
           " \\\n  -ngl 999";
    if (p.settings.swa_full) out += " \\\n  --swa-full";
    if (d.settings.tensor_parallel_size > 1)
        out += " \\\n  --split-mode layer  # over " + std::to_string(d.settings.tensor_parallel_size) + " GPUs";
    return out;
}

}  // namespace kvcalc::detail
