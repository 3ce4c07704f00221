// vllm_rope_cache_positions and the Gemma 3 tower (vllm/accounting.h): the cos/sin caches vLLM builds at load count in
// its "Model loading took" line. Expected values: vLLM's rotary_embedding cache lengths and the logged weights of
// tests/data/real_cases/vllm-v019-h100-gemma3-27b-it.json (jgchn/llm-d-planner d3121e0, vLLM v0.19.0 on H100: 51.45 GiB).
#include <doctest/doctest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/config/param_count.h"
#include "kvcalc/engines/vllm/accounting.h"
#include "test_data.h"

using namespace kvcalc;

TEST_CASE("vllm_rope_cache_positions: scaled ropes make longer caches, Gemma 3 builds two") {
    // Plain and llama3 ropes: max_position_embeddings rows (Llama3RotaryEmbedding rescales frequencies, not length).
    CHECK(vllm_rope_cache_positions(R"({"model_type":"llama"})", 131072) == 131072);
    CHECK(vllm_rope_cache_positions(
              R"({"rope_scaling":{"rope_type":"llama3","factor":8.0,"original_max_position_embeddings":8192}})",
              131072) == 131072);
    // LinearScalingRotaryEmbedding / DynamicNTKScalingRotaryEmbedding: max_position × factor.
    CHECK(vllm_rope_cache_positions(R"({"rope_scaling":{"type":"linear","factor":4}})", 4096) == 16384);
    CHECK(vllm_rope_cache_positions(R"({"rope_scaling":{"rope_type":"dynamic","factor":2}})", 4096) == 8192);
    // YaRNScalingRotaryEmbedding: original_max_position_embeddings × factor (Qwen3's documented yarn 4 × 32768).
    CHECK(vllm_rope_cache_positions(
              R"({"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}})",
              40960) == 131072);
    // Gemma 3: the global layers' linear × 8 rope plus the sliding layers' unscaled one.
    const auto doc = nlohmann::json::parse(test::data_file("real_cases/vllm-v019-h100-gemma3-27b-it.json"));
    CHECK(vllm_rope_cache_positions(doc.at("config").dump(), 131072) == 131072 * 9);
    CHECK(vllm_rope_cache_positions("not json", 4096) == 0);
}

TEST_CASE("Gemma-3-27B-it weights: tower with one projection matrix and both rope caches match the v0.19 log") {
    const auto doc = nlohmann::json::parse(test::data_file("real_cases/vllm-v019-h100-gemma3-27b-it.json"));
    const std::string text = doc.at("config").dump();
    HfConfig cfg = read_hf_config(text);
    ModelSpec spec = cfg.spec;
    copy_profile_widths(cfg.arch, text, spec);
    const auto weights =
        static_cast<std::int64_t>(estimate_weights(count_parameters(cfg.spec, cfg.arch), cfg.arch, "auto").bytes);
    VllmServeFlags flags;
    flags.max_model_len = 8192;
    const VllmAccounting a =
        vllm_account(vllm_profile_dims(spec), vllm_device(*find_gpu("h100-80gb")), flags, VllmEra::v0_17, weights, false);
    // 288 MiB of rope caches (131072 × 9 rows × 128 × 2 B).
    CHECK(vllm_profile_dims(spec).rope_cache_bytes == 131072LL * 9 * 128 * 2);
    // "Model loading took 51.45 GiB"; kvcalc priced 51.18 GiB before the caches, the projector and the rounding.
    CHECK(std::abs(static_cast<double>(a.weights_bytes) / 1073741824.0 - 51.45) < 0.015);
}
