// Compose presets as data (docs/SOURCES.md "Compose presets"): the original's Qwen 3.6 27B table and the values
// of every model profile's kvcalc_compose_presets entry (named by registry slug, so they never collide).
#include <vector>

#include "kvcalc/catalog/catalog.h"

namespace kvcalc {

namespace {

struct Row {
    const char* model;
    const char* name;
    const char* weights_variant;  // "" = model default
    const char* drafter;          // "" = none
    const char* kv;
    int tp;
    std::int64_t ctx;
    std::int64_t seqs;
    double mem_util;
    const char* source;
};

const char* const k003 = "seed 003 COMPOSES";
const char* const kRegistry = "reference/models.json kvcalc_compose_presets (registry values)";

// clang-format off
const Row kRows[] = {
    {"qwen3.6-27b", "minimal",           "", "",                 "fp8_e5m2",           1, 32768,  4, 0.90, k003},
    {"qwen3.6-27b", "long-text",         "", "qwen-mtp-builtin", "turboquant_3bit_nc", 1, 180000, 1, 0.93, k003},
    {"qwen3.6-27b", "long-text-no-mtp",  "", "",                 "turboquant_3bit_nc", 1, 200000, 1, 0.95, k003},
    {"qwen3.6-27b", "long-vision",       "", "qwen-mtp-builtin", "turboquant_3bit_nc", 1, 145000, 1, 0.95, k003},
    {"qwen3.6-27b", "bounded-thinking",  "", "qwen-mtp-builtin", "turboquant_3bit_nc", 1, 180000, 1, 0.95, k003},
    {"qwen3.6-27b", "tools-text",        "", "qwen-mtp-builtin", "fp8_e5m2",           1, 75000,  1, 0.97, k003},
    {"qwen3.6-27b", "dual",              "", "qwen-mtp-builtin", "fp8_e5m2",           2, 262144, 2, 0.95, k003},
    {"qwen3.6-27b", "dual-turbo",        "", "qwen-mtp-builtin", "turboquant_3bit_nc", 2, 262144, 4, 0.95, k003},
    {"qwen3.6-27b", "dual-dflash",       "", "zlab-qwen-dflash", "fp16",               2, 185000, 1, 0.95, k003},
    {"qwen3.6-27b", "dual-dflash-noviz", "", "zlab-qwen-dflash", "fp16",               2, 200000, 2, 0.95, k003},
    {"qwen3.6-27b", "dual4",             "", "qwen-mtp-builtin", "fp8_e5m2",           4, 262144, 4, 0.95, k003},
    {"qwen3.6-27b", "dual4-dflash",      "", "zlab-qwen-dflash", "fp16",               4, 262144, 2, 0.95, k003},

    {"qwen3.6-27b", "vllm/minimal",                "autoround-int4", "",                 "fp8_e4m3", 1, 32768,  1, 0.92, kRegistry},
    {"qwen3.6-27b", "vllm/dual",                   "autoround-int4", "qwen-mtp-builtin", "fp8_e4m3", 2, 262144, 2, 0.92, kRegistry},
    {"qwen3.6-27b", "vllm/qwen-27b-single-nvfp4",  "nvfp4",          "qwen-mtp-builtin", "fp8_e4m3", 1, 65536,  1, 0.85, kRegistry},
    {"qwen3.6-27b", "vllm/qwen-27b-dual-nvfp4",    "nvfp4",          "qwen-mtp-builtin", "fp8_e4m3", 2, 262144, 2, 0.92, kRegistry},
    {"qwen3.6-35b-a3b", "vllm/qwen-a3b-preview-single",   "autoround-int4", "", "fp8_e4m3", 1, 8192,   1, 0.95, kRegistry},
    {"qwen3.6-35b-a3b", "vllm/qwen-35b-a3b-dual",         "autoround-int4", "", "fp8_e4m3", 2, 262144, 1, 0.92, kRegistry},
    {"qwen3.6-35b-a3b", "vllm/qwen-35b-a3b-single-nvfp4", "nvfp4",          "", "fp8_e4m3", 1, 131072, 1, 0.92, kRegistry},
    {"qwen3.6-35b-a3b", "vllm/qwen-35b-a3b-dual-nvfp4",   "nvfp4",          "", "fp8_e4m3", 2, 262144, 1, 0.92, kRegistry},
    {"agents-a1", "vllm/agents-a1-dual", "fp8-dynamic", "", "fp8_e4m3", 2, 262144, 1, 0.92, kRegistry},
    {"qwen-agentworld-35b-a3b", "vllm/qwen-agentworld-35b-a3b-dual-awq-int4", "cyankiwi-awq-int4", "", "fp8_e4m3", 2, 262144, 4, 0.92, kRegistry},
    {"gemma-4-31b", "vllm/gemma-bf16-mtp",  "autoround-int4", "gemma-it-assistant", "bf16",                2, 131072, 4,   0.95, kRegistry},
    {"gemma-4-31b", "vllm/gemma-int8-mtp",  "autoround-int4", "gemma-it-assistant", "int8_per_token_head", 2, 262144, 4,   0.95, kRegistry},
    {"gemma-4-31b", "vllm/gemma-mtp-tp1",   "autoround-int4", "gemma-it-assistant", "fp8_e4m3",            1, 8192,   256, 0.95, kRegistry},
    {"gemma-4-26b-a4b", "vllm/gemma-26ba4b-single", "awq", "gemma-26b-it-assistant", "int8_per_token_head", 1, 176000, 256, 0.94, kRegistry},
    {"gemma-4-26b-a4b", "vllm/gemma-26ba4b-dual",   "awq", "",                       "bf16",                2, 262144, 256, 0.92, kRegistry},
    {"gemma-4-12b", "vllm/gemma-12b-dual-bf16-mtp",   "bf16",           "",                       "bf16", 2, 262144, 4, 0.90, kRegistry},
    {"gemma-4-12b", "vllm/gemma-12b-single-int8-mtp", "autoround-int8", "gemma-12b-it-assistant", "bf16", 1, 262144, 4, 0.92, kRegistry},
};
// clang-format on

std::vector<ComposePreset> build() {
    std::vector<ComposePreset> out;
    for (const Row& r : kRows) {
        ComposePreset p;
        p.model_id = r.model;
        p.name = r.name;
        p.id = p.model_id + ":" + p.name;
        p.source = r.source;
        Scenario& s = p.scenario;
        s.model_id = r.model;
        s.compose = p.id;
        s.weights_variant = r.weights_variant;
        s.drafter = r.drafter;
        s.mtp = r.drafter[0] != '\0';
        s.kv_cache_dtype = r.kv;
        s.tensor_parallel_size = r.tp;
        s.max_model_len = r.ctx;
        s.max_num_seqs = r.seqs;
        s.gpu_memory_utilization = r.mem_util;
        out.push_back(std::move(p));
    }
    return out;
}

}  // namespace

const std::vector<ComposePreset>& compose_presets() {
    static const std::vector<ComposePreset> presets = build();
    return presets;
}

}  // namespace kvcalc
