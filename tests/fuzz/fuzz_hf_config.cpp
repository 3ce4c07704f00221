// libFuzzer target: the config.json reader (docs/CONFIG_JSON.md). read_hf_config on any text; a clean read is
// then priced through predict() as config_json at an engine, TP, length and concurrency picked from a hash of
// the input (lengths up to 2^27 and 65,536 sequences: the schema's whole range).
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/solver.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > kFuzzMaxInput) return 0;
    const std::string text(reinterpret_cast<const char*>(data), size);
    const kvcalc::HfConfig cfg = kvcalc::read_hf_config(text);
    if (kvcalc::has_error(cfg.diagnostics)) return 0;

    InputPicker pick(text);
    kvcalc::Scenario s;
    s.config_json = text;
    static const char* const engines[] = {"vllm", "llama.cpp", "sglang"};
    static const char* const formats[] = {"fp16", "bf16", "fp8_e5m2", "fp8_e4m3", "int8_per_token_head", "q4_0", "nvfp4"};
    s.engine = engines[pick(3)];
    s.kv_cache_dtype = formats[pick(7)];
    s.tensor_parallel_size = static_cast<int>(1 + pick(8));
    s.max_model_len = std::int64_t{1} << pick(28);
    s.max_model_len += pick(s.max_model_len);
    if (s.max_model_len > (std::int64_t{1} << 27)) s.max_model_len = std::int64_t{1} << 27;
    s.max_num_seqs = 1 + pick(65536);
    s.vram_gb = static_cast<double>(1 + pick(1000000));
    if (pick(2)) s.weights_gb = 0.5 + static_cast<double>(pick(2000));
    if (pick(4) == 0) s.max_num_batched_tokens = 1 + pick(1 << 20);

    const kvcalc::Report r = kvcalc::predict(s);
    fuzz_require(kvinv::check_report(r), "predict(config_json)");
    if (pick(8) == 0) {
        fuzz_require(kvinv::check_solve(kvcalc::solve_max_model_len(s), "max_model_len"), "solver");
        fuzz_require(kvinv::check_solve(kvcalc::solve_min_gpus(s), "min_gpus"), "solver");
    }
    return 0;
}
