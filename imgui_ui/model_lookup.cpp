// Scenario edits with side effects, each decided in one place: switching models, choosing hardware, defaults.
#include "model_lookup.h"

#include <algorithm>
#include <cstdio>

#include "kvcalc/gpu_catalog.h"
#include "kvcalc/kv_format.h"
#include "kvcalc/layer_cache.h"

namespace kvcalc::ui {

namespace {

constexpr double kVllmDefaultUtilization = 0.90;  ///< vllm/config/cache.py gpu_memory_utilization (0.92 from v0.21)
constexpr std::int64_t kLandingContext = 32768;

std::string count_text(std::int64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

}  // namespace

std::string default_kv_cache_dtype() { return find_kv_format("auto") ? "auto" : "bf16"; }

std::int64_t default_max_num_seqs(const Scenario& s) {
    const GpuSpec* gpu = s.gpu.empty() ? nullptr : find_gpu(s.gpu);
    const double vram_gib = gpu ? static_cast<double>(gpu->vram_bytes) / (1 << 30)
                            : s.vram_gib ? *s.vram_gib
                            : s.vram_gb  ? *s.vram_gb * 1e9 / (1 << 30)
                                         : 0.0;
    const bool a100 = gpu && gpu->id.find("a100") != std::string::npos;
    return vram_gib >= 70.0 && !a100 ? 1024 : 256;
}

void apply_engine_defaults(Scenario& s) {
    s.compose.clear();
    s.kv_cache_dtype = default_kv_cache_dtype();
    s.gpu_memory_utilization = kVllmDefaultUtilization;
    s.max_num_seqs = default_max_num_seqs(s);
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
    const std::int64_t max_len = model.max_position_embeddings;
    const std::string name = model.display_name;
    if (inline_spec) {
        s.model = std::move(model);
    } else {
        s.model_id = model.id;
        s.model.reset();
    }
    s.config_json.clear();
    s.weights_variant.clear();
    s.weights_gb.reset();
    if (keep_settings) return {};
    std::string kept, reset;
    apply_engine_defaults(s);
    reset = "max_num_seqs " + std::to_string(s.max_num_seqs) + ", kv_cache_dtype " + s.kv_cache_dtype +
            ", gpu_memory_utilization 0.90";
    if (!tp.empty() && std::find(tp.begin(), tp.end(), s.tensor_parallel_size) == tp.end()) {
        reset += ", tensor_parallel_size " + std::to_string(tp.front()) + " (" + std::to_string(s.tensor_parallel_size) +
                 " does not split its heads)";
        s.tensor_parallel_size = tp.front();
        s.gpus = 0;
    } else {
        kept = "tensor_parallel_size " + std::to_string(s.tensor_parallel_size);
    }
    if (max_len > 0 && s.max_model_len > max_len) {
        reset += ", max_model_len " + count_text(max_len) + " (its maximum; " + count_text(s.max_model_len) +
                 " is longer)";
        s.max_model_len = max_len;
    } else {
        kept += (kept.empty() ? "" : ", ") + std::string("max_model_len ") + count_text(s.max_model_len);
    }
    return name + ": serving settings set to vLLM's defaults (" + reset + ")" +
           (kept.empty() ? "." : "; kept " + kept + ".");
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
