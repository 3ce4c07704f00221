// Scenario edits with side effects, each decided in one place: switching models, choosing hardware, defaults.
#include "model_lookup.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "kvcalc/base/kv_format.h"
#include "kvcalc/model/layer_cache.h"

namespace kvcalc::ui {

namespace {

constexpr std::int64_t kLandingContext = 32768;

std::string count_text(std::int64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string lower(const std::string& text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string without_separators(const std::string& text) {
    std::string out;
    for (char c : text)
        if (c != ' ' && c != '-' && c != '_' && c != '.' && c != '/') out += c;
    return out;
}

}  // namespace

bool search_matches(const std::string& text, const std::string& query) {
    const std::string hay = lower(text), squeezed = without_separators(hay);
    const std::string q = lower(query);
    std::size_t i = 0;
    while (i < q.size()) {
        while (i < q.size() && q[i] == ' ') ++i;
        std::size_t j = i;
        while (j < q.size() && q[j] != ' ') ++j;
        if (j > i) {
            const std::string word = q.substr(i, j - i);
            const std::string bare = without_separators(word);
            if (hay.find(word) == std::string::npos && (bare.empty() || squeezed.find(bare) == std::string::npos))
                return false;
        }
        i = j;
    }
    return true;
}

EngineContextLimit engine_context_limit(const Scenario& s, const ModelSpec& model) {
    const EngineInfo* engine = find_engine(s.engine);
    return engine ? context_limit(model, engine->id) : EngineContextLimit{};  // no engine, no derived limit
}

std::string default_kv_cache_dtype() { return Scenario{}.kv_cache_dtype; }

void apply_engine_defaults(Scenario& s) {
    // The scenario's own defaults (the CLI's and the JSON API's): 0 = "not given", which the core resolves as the
    // engine does for the card and release (predict_resolve.cpp, vllm/accounting.h).
    static const Scenario defaults{};
    s.compose.clear();
    s.kv_cache_dtype = defaults.kv_cache_dtype;
    s.gpu_memory_utilization = defaults.gpu_memory_utilization;
    s.max_num_seqs = defaults.max_num_seqs;
    s.max_num_batched_tokens.reset();
    s.drafter.clear();
    s.mtp.reset();
    s.num_speculative_tokens.reset();
}

Scenario landing_scenario() {
    Scenario s;
    if (const ModelSpec* m = find_model("llama-3.1-8b")) {
        s.model_id = m->id;
    }
    set_catalog_gpu(s, "rtx-4090");
    apply_engine_defaults(s);
    s.max_model_len = kLandingContext;
    return s;
}

std::string switch_model(Scenario& s, ModelSpec model, bool inline_spec, bool keep_settings) {
    const std::vector<int> tp = valid_tensor_parallel_sizes(model);
    const std::int64_t max_len = engine_context_limit(s, model).max_model_len;
    const std::string name = model.display_name;
    if (inline_spec) {
        s.model = std::move(model);
    } else {
        s.model_id = model.id;
        s.model.reset();
    }
    s.config_json.clear();
    s.hub_model.clear();  // a Hub model sets it again after the switch (config_import.cpp)
    s.hub_gguf.clear();   // so does a Hub GGUF (gguf_import.cpp)
    s.weights_dtype.clear();
    s.weights_variant.clear();
    s.weights_gb.reset();
    if (keep_settings) return {};
    std::string kept, reset;
    // max_num_seqs is the workload (how many users), not the model's: it stays, as a pasted quantized checkpoint of
    // the same model is the usual reason to switch.
    const std::int64_t seqs = s.max_num_seqs;
    apply_engine_defaults(s);
    s.max_num_seqs = seqs;
    reset = "gpu_memory_utilization and kv_cache_dtype (" + s.kv_cache_dtype + ")";
    if (seqs > 0) kept = "max_num_seqs " + count_text(seqs);
    if (!tp.empty() && std::find(tp.begin(), tp.end(), s.tensor_parallel_size) == tp.end()) {
        reset += ", tensor_parallel_size " + std::to_string(tp.front()) + " (" + std::to_string(s.tensor_parallel_size) +
                 " does not split its heads)";
        s.tensor_parallel_size = tp.front();
        s.gpus = 0;
    } else {
        kept += (kept.empty() ? "" : ", ") + std::string("tensor_parallel_size ") + std::to_string(s.tensor_parallel_size);
    }
    if (max_len > 0 && s.max_model_len > max_len) {
        reset += ", max_model_len " + count_text(max_len) + " (its maximum; " + count_text(s.max_model_len) +
                 " is longer)";
        s.max_model_len = max_len;
    } else {
        kept += (kept.empty() ? "" : ", ") + std::string("max_model_len ") +
                (s.max_model_len == 0 ? std::string("= its maximum") : count_text(s.max_model_len));
    }
    return name + ": serving settings set to vLLM's defaults (" + reset + ")" +
           (kept.empty() ? "." : "; kept " + kept + ".");
}

std::string serving_settings_key(const Scenario& s) {
    return std::to_string(s.tensor_parallel_size) + "|" + std::to_string(s.max_model_len) + "|" +
           std::to_string(s.max_num_seqs) + "|" + s.kv_cache_dtype + "|" + std::to_string(s.gpu_memory_utilization);
}

void set_catalog_gpu(Scenario& s, const std::string& gpu_id) {
    s.gpu = gpu_id;
    s.vram_gb.reset();
    s.vram_gib.reset();
}

void set_custom_vram(Scenario& s, double value, bool in_gib) {
    s.gpu.clear();
    if (in_gib) {
        s.vram_gib = value;
        s.vram_gb.reset();
    } else {
        s.vram_gb = value;
        s.vram_gib.reset();
    }
}

}  // namespace kvcalc::ui
