// vLLM's start-up accounting (vllm/accounting.h) against vLLM's source and published start-up logs. The log
// fixtures themselves (torch peak, non-torch, CUDA-graph estimate, available KV from what a user types) are
// checked by real_cases_test.cpp over tests/data/real_cases/vllm-v019-h100-*.json and vllm-h100-*.json.
#include <doctest/doctest.h>

#include <cstdlib>

#include <cmath>
#include <fstream>
#include <sstream>

#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/config/param_count.h"
#include "kvcalc/base/units.h"
#include "kvcalc/engines/vllm/accounting.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/solver.h"

using namespace kvcalc;

namespace {

constexpr double kGiB = 1073741824.0;
double gib(std::int64_t b) { return static_cast<double>(b) / kGiB; }

// meta-llama/Llama-3.1-8B-Instruct config.json (the keys the reader uses).
const char* kLlama8b = R"({"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":4096,
"intermediate_size":14336,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,
"vocab_size":128256,"max_position_embeddings":131072,"tie_word_embeddings":false,"torch_dtype":"bfloat16"})";

struct Model {
    kvcalc::ModelSpec spec;
    std::int64_t weights = 0;
};
Model read(const char* text) {
    kvcalc::HfConfig cfg = kvcalc::read_hf_config(text);
    Model m{cfg.spec, 0};
    kvcalc::copy_profile_widths(cfg.arch, text, m.spec);
    m.weights = static_cast<std::int64_t>(
        kvcalc::estimate_weights(kvcalc::count_parameters(cfg.spec, cfg.arch), cfg.arch, "auto").bytes);
    return m;
}

bool mentions(const std::vector<std::string>& notes, const char* text) {
    for (const auto& n : notes)
        if (n.find(text) != std::string::npos) return true;
    return false;
}

// vllm-h100-llama31-8b-16k: vLLM 0.11.1-0.16 on an H100 80GB, `--max-model-len 16000`, everything else
// vLLM's default (gpu_memory_utilization 0.9, max_num_seqs 1024, max_num_batched_tokens 8192), bf16 KV.
Scenario llama8b_h100() {
    Scenario s;
    s.model_id = "llama-3.1-8b";
    s.gpu = "h100-80gb";
    s.vllm_version = "0.11.1-0.16";
    s.gpu_memory_utilization = 0;
    s.max_num_seqs = 0;
    s.max_model_len = 16000;
    s.kv_cache_dtype = "bf16";
    return s;
}

}  // namespace

TEST_SUITE("vllm accounting") {
    TEST_CASE("versions map to the eras whose accounting differs") {
        using kvcalc::VllmEra;
        CHECK(kvcalc::parse_vllm_version("") == kvcalc::kNewestVllmEra);
        CHECK(kvcalc::parse_vllm_version("latest") == VllmEra::v0_21);
        CHECK(kvcalc::parse_vllm_version("0.19") == VllmEra::v0_17);
        CHECK(kvcalc::parse_vllm_version("v0.19.1") == VllmEra::v0_17);
        CHECK(kvcalc::parse_vllm_version("0.17.0") == VllmEra::v0_17);
        CHECK(kvcalc::parse_vllm_version("0.16.0") == VllmEra::v0_11);
        CHECK(kvcalc::parse_vllm_version("0.11.1") == VllmEra::v0_11);
        CHECK(kvcalc::parse_vllm_version("0.11.0") == VllmEra::v0_9);  // still the FlashInfer sampler (#26859 later)
        CHECK(kvcalc::parse_vllm_version("0.10.1.1") == VllmEra::v0_9);
        CHECK(kvcalc::parse_vllm_version("0.8.5.post1") == VllmEra::v0);
        CHECK(kvcalc::parse_vllm_version("0.21.0") == VllmEra::v0_21);
        CHECK(kvcalc::parse_vllm_version("0.25") == VllmEra::v0_21);
        CHECK(kvcalc::parse_vllm_version("V0") == VllmEra::v0);
        CHECK(kvcalc::parse_vllm_version("0.17-0.20") == VllmEra::v0_17);
        CHECK_FALSE(kvcalc::parse_vllm_version("banana").has_value());
        CHECK_FALSE(kvcalc::parse_vllm_version("0.").has_value());
        // Nightly and source wheels (PEP 440: rcN, .postN, .devN, +local), as `vllm --version` prints them.
        CHECK(kvcalc::parse_vllm_version("0.29.1rc1.dev17+g3a9c1e2") == VllmEra::v0_21);
        CHECK(kvcalc::parse_vllm_version("0.10.2.dev2+gc39a5e8.d20250912") == VllmEra::v0_9);
        CHECK(kvcalc::parse_vllm_version("0.19.1.dev5") == VllmEra::v0_17);
        CHECK(kvcalc::vllm_version_note("0.29.1rc1.dev17+g3a9c1e2").has_value());  // newer than any checked release
        CHECK_FALSE(kvcalc::parse_vllm_version("0.19rc").has_value());
        CHECK_FALSE(kvcalc::parse_vllm_version("0.19.dev").has_value());
        CHECK_FALSE(kvcalc::parse_vllm_version("0.19.1+").has_value());
        CHECK(kvcalc::vllm_era_ids() == "V0, 0.9-0.11.0, 0.11.1-0.16, 0.17-0.20, 0.21+");
        // gpu_memory_utilization default: 0.90, then 0.92 from v0.21.0 (vllm/config/cache.py, #40465).
        CHECK(kvcalc::vllm_era_rules(VllmEra::v0_17).default_gpu_memory_utilization == 0.90);
        CHECK(kvcalc::vllm_era_rules(VllmEra::v0_21).default_gpu_memory_utilization == 0.92);
    }

    TEST_CASE("batch defaults by card class and entry point (arg_utils.py get_batch_defaults)") {
        kvcalc::VllmServeFlags f;
        f.max_model_len = 32768;
        const auto h100 = kvcalc::vllm_device(*kvcalc::find_gpu("h100-80gb"));
        const auto a100 = kvcalc::vllm_device(*kvcalc::find_gpu("a100-80gb"));
        const auto rtx = kvcalc::vllm_device(*kvcalc::find_gpu("rtx-4090"));
        auto a = kvcalc::vllm_resolve_defaults(h100, f, kvcalc::VllmEra::v0_17);
        CHECK(a.max_num_batched_tokens == 8192);
        CHECK(a.max_num_seqs == 1024);
        CHECK(a.assumed_defaults.size() == 4);  // tokens, seqs, utilization, block size
        // ≥ 70 GiB but named A100: small defaults (#17885).
        a = kvcalc::vllm_resolve_defaults(a100, f, kvcalc::VllmEra::v0_17);
        CHECK(a.max_num_batched_tokens == 2048);
        CHECK(a.max_num_seqs == 256);
        a = kvcalc::vllm_resolve_defaults(rtx, f, kvcalc::VllmEra::v0_21);
        CHECK(a.max_num_batched_tokens == 2048);
        CHECK(a.max_num_seqs == 256);
        CHECK(a.gpu_memory_utilization == 0.92);
        f.entry_point = kvcalc::VllmEntryPoint::llm_class;
        CHECK(kvcalc::vllm_resolve_defaults(h100, f, kvcalc::VllmEra::v0_17).max_num_batched_tokens == 16384);
        CHECK(kvcalc::vllm_resolve_defaults(rtx, f, kvcalc::VllmEra::v0_17).max_num_batched_tokens == 8192);
        // mnbt = min(mnbt, max_num_seqs × max_model_len); max_num_seqs = min(max_num_seqs, mnbt).
        f.entry_point = kvcalc::VllmEntryPoint::api_server;
        f.max_num_seqs = 1;
        f.max_model_len = 1000;
        a = kvcalc::vllm_resolve_defaults(rtx, f, kvcalc::VllmEra::v0_17);
        CHECK(a.max_num_batched_tokens == 1000);
        f.max_num_seqs.reset();
        f.max_num_batched_tokens = 64;
        CHECK(kvcalc::vllm_resolve_defaults(rtx, f, kvcalc::VllmEra::v0_17).max_num_seqs == 64);
    }

    TEST_CASE("vllm_usage_context: the offline LLM class gets its own batch default, spelled as vLLM's UsageContext") {
        CHECK(kvcalc::parse_vllm_usage_context("") == kvcalc::VllmEntryPoint::api_server);
        CHECK(kvcalc::parse_vllm_usage_context("OPENAI_API_SERVER") == kvcalc::VllmEntryPoint::api_server);
        CHECK(kvcalc::parse_vllm_usage_context("serve") == kvcalc::VllmEntryPoint::api_server);
        CHECK(kvcalc::parse_vllm_usage_context("LLM_CLASS") == kvcalc::VllmEntryPoint::llm_class);
        CHECK(kvcalc::parse_vllm_usage_context("llm-class") == kvcalc::VllmEntryPoint::llm_class);
        CHECK_FALSE(kvcalc::parse_vllm_usage_context("engine").has_value());
        // LMCache issue #3430: vLLM 0.21.0, Qwen/Qwen3-8B on one RTX A5000 through `LLM(...)` (cpu_offload.py),
        // gpu_memory_utilization 0.9764, max_model_len 16384; the log prints "Available KV cache memory: 6.37 GiB".
        std::ifstream in(std::string(KVCALC_TEST_DATA_DIR) + "/configs/qwen3-8b.json");
        std::stringstream text;
        text << in.rdbuf();
        Scenario s;
        s.config_json = text.str();
        s.gpu = "rtx-a5000";
        s.vllm_version = "0.21.0";
        s.gpu_memory_utilization = 0.9764;
        s.max_model_len = 16384;
        s.max_num_seqs = 0;
        s.kv_cache_dtype = "bf16";
        const Report serve = predict(s);
        s.vllm_usage_context = "llm_class";
        const Report offline = predict(s);
        REQUIRE(serve.ok);
        REQUIRE(offline.ok);
        CHECK(serve.settings.max_num_batched_tokens == 2048);
        CHECK(offline.settings.max_num_batched_tokens == 8192);  // get_batch_defaults, UsageContext.LLM_CLASS
        CHECK(offline.terms.activation_bytes > serve.terms.activation_bytes);
        // The offline boot's pool lies within the Report's band of the log (pessimistic: kvcalc under it).
        const double avail = gib(offline.terms.budget_bytes - offline.terms.weights_bytes -
                                 offline.terms.activation_bytes - offline.terms.cudagraph_workspace_bytes);
        CHECK(avail < 6.37);
        CHECK(std::fabs(avail - 6.37) <= gib(offline.error_band_bytes));
        s.vllm_usage_context = "batch";
        CHECK_FALSE(predict(s).ok);
    }

    TEST_CASE("CUDA-graph capture sizes (config/vllm.py _set_cudagraph_sizes)") {
        kvcalc::VllmServeFlags f;
        f.max_model_len = 32768;
        const auto h100 = kvcalc::vllm_device(*kvcalc::find_gpu("h100-80gb"));
        const auto rtx = kvcalc::vllm_device(*kvcalc::find_gpu("rtx-4090"));
        // max 512: [1, 2, 4] + 8…248 step 8 + 256…512 step 16 = 3 + 31 + 17 = 51 (reference §4).
        auto a = kvcalc::vllm_resolve_defaults(h100, f, kvcalc::VllmEra::v0_17);
        CHECK(a.cudagraph_capture_sizes == 51);
        CHECK(a.full_cudagraphs == 51);
        // max_num_seqs 256: FULL decode graphs only for sizes ≤ 256: 35.
        a = kvcalc::vllm_resolve_defaults(rtx, f, kvcalc::VllmEra::v0_17);
        CHECK(a.cudagraph_capture_sizes == 51);
        CHECK(a.full_cudagraphs == 35);
        // Before #26016 the step above 256 was 8: 3 + 31 + 33 = 67.
        CHECK(kvcalc::vllm_resolve_defaults(h100, f, kvcalc::VllmEra::v0_9).cudagraph_capture_sizes == 67);
        f.enforce_eager = true;
        CHECK(kvcalc::vllm_resolve_defaults(h100, f, kvcalc::VllmEra::v0_17).cudagraph_capture_sizes == 0);
    }

    TEST_CASE("Llama-3.1-8B v0.19 on H100: the log's split (llm-d-planner d3121e0, reference §8.1)") {
        const Model m = read(kLlama8b);
        kvcalc::VllmServeFlags f;
        f.max_model_len = 32768;
        f.gpu_memory_utilization = 0.95;
        const auto a = kvcalc::vllm_account(kvcalc::vllm_profile_dims(m.spec),
                                            kvcalc::vllm_device(*kvcalc::find_gpu("h100-80gb")), f,
                                            kvcalc::VllmEra::v0_17, m.weights);
        CHECK(gib(a.requested_bytes) == doctest::Approx(75.23).epsilon(0.0002));  // 0.95 × 79.19
        CHECK(gib(a.weights_bytes) == doctest::Approx(14.99).epsilon(0.001));     // incl. the 32 MiB rope cache
        CHECK(std::fabs(gib(a.torch_peak_bytes) - 1.89) <= 0.1);
        CHECK(gib(a.non_torch_bytes) == doctest::Approx(0.25));
        CHECK_FALSE(a.cudagraph_subtracted);  // 0.19 logs the estimate but does not subtract it
        CHECK(std::fabs(gib(a.available_kv_bytes) - 58.11) <= 0.25);
        // The same start-up on v0.21+: the estimate (0.84 logged on v0.19) comes off the budget and the default
        // gpu_memory_utilization is 0.92.
        f.gpu_memory_utilization.reset();
        const auto b = kvcalc::vllm_account(kvcalc::vllm_profile_dims(m.spec),
                                            kvcalc::vllm_device(*kvcalc::find_gpu("h100-80gb")), f,
                                            kvcalc::VllmEra::v0_21, m.weights);
        CHECK(b.cudagraph_subtracted);
        CHECK(std::fabs(gib(b.cudagraph_bytes) - 0.84) <= 0.15);
        CHECK(b.available_kv_bytes == b.requested_bytes - b.weights_bytes - b.torch_peak_bytes - b.non_torch_bytes -
                                          b.cudagraph_bytes);
        // On ROCm the worker skips the CUDA-graph profile (gpu_worker.py: "Skip on ROCm/HIP/XPU"): nothing to subtract.
        const auto amd = kvcalc::vllm_account(kvcalc::vllm_profile_dims(m.spec),
                                              kvcalc::vllm_device(*kvcalc::find_gpu("mi300x")), f,
                                              kvcalc::VllmEra::v0_21, m.weights);
        CHECK(amd.cudagraph_bytes == 0);
        CHECK_FALSE(amd.cudagraph_subtracted);
        CHECK(amd.max_num_seqs == 1024);  // 192 GiB, not an A100: the large batch defaults
    }

    TEST_CASE("the sampler term follows R = min(max_num_seqs, max_num_batched_tokens), not the token count") {
        const Model m = read(kLlama8b);
        const auto dims = kvcalc::vllm_profile_dims(m.spec);
        const auto rtx = kvcalc::vllm_device(*kvcalc::find_gpu("rtx-4090"));
        kvcalc::VllmServeFlags f;
        f.max_model_len = 32768;
        const auto a = kvcalc::vllm_account(dims, rtx, f, kvcalc::VllmEra::v0_17, m.weights);
        // 14.2 B × 256 rows × 128256 + 2 × 2048 × 4096 × 2 B = 0.466 GiB.
        CHECK(gib(a.sampler_bytes) == doctest::Approx(0.466).epsilon(0.005));
        // Sort era on the same card (reference §1: 24 GB log with R = 256, 1.40 GiB measured for a 152k vocab;
        // here 128k): 37.5 × 256 × 128256 + 32 MiB.
        const auto b = kvcalc::vllm_account(dims, rtx, f, kvcalc::VllmEra::v0_11, m.weights);
        CHECK(gib(b.sampler_bytes) == doctest::Approx(1.178).epsilon(0.005));
        // Below 8 rows every V1 era sorts (topk_topp_sampler.py apply_top_k_top_p): 37.5 B × 1 row.
        f.max_num_seqs = 1;
        const auto c = kvcalc::vllm_account(dims, rtx, f, kvcalc::VllmEra::v0_21, m.weights);
        CHECK(c.sampler_bytes == std::llround(37.5 * 128256) + 2 * 2048 * 4096 * 2);
        CHECK(c.torch_peak_bytes == c.forward_bytes);
    }

    TEST_CASE("MoE, gpt-oss and multimodal torch peaks on v0.19 H100 (reference §3.2 and §9, llm-d-planner d3121e0)") {
        // Measured "torch peak memory increase" at vLLM's H100 defaults (8192 tokens, 1024 sequences); configs are
        // the models' published config.json values.
        struct Case {
            const char* name;
            const char* config;
            int tp;
            double measured_gib;
            double tolerance_gib;  // the MoE / VLM band of vllm_account: these paths fit less tightly
        };
        const Case cases[] = {
            {"Qwen3-30B-A3B",
             R"({"architectures":["Qwen3MoeForCausalLM"],"model_type":"qwen3_moe","hidden_size":2048,
             "intermediate_size":6144,"moe_intermediate_size":768,"num_experts":128,"num_experts_per_tok":8,
             "num_hidden_layers":48,"num_attention_heads":32,"num_key_value_heads":4,"head_dim":128,
             "vocab_size":151936,"max_position_embeddings":40960,"tie_word_embeddings":false,"torch_dtype":"bfloat16"})",
             1, 2.68, 0.2},
            {"Mixtral-8x7B TP 2",
             R"({"architectures":["MixtralForCausalLM"],"model_type":"mixtral","hidden_size":4096,
             "intermediate_size":14336,"num_local_experts":8,"num_experts_per_tok":2,"num_hidden_layers":32,
             "num_attention_heads":32,"num_key_value_heads":8,"vocab_size":32000,"max_position_embeddings":32768,
             "tie_word_embeddings":false,"torch_dtype":"bfloat16"})",
             2, 1.21, 0.1},
            {"DeepSeek-V2-Lite",
             R"({"architectures":["DeepseekV2ForCausalLM"],"model_type":"deepseek_v2","hidden_size":2048,
             "intermediate_size":10944,"moe_intermediate_size":1408,"n_routed_experts":64,"n_shared_experts":2,
             "num_experts_per_tok":6,"first_k_dense_replace":1,"num_hidden_layers":27,"num_attention_heads":16,
             "num_key_value_heads":16,"kv_lora_rank":512,"q_lora_rank":null,"qk_rope_head_dim":64,
             "qk_nope_head_dim":128,"v_head_dim":128,"vocab_size":102400,"max_position_embeddings":163840,
             "tie_word_embeddings":false,"torch_dtype":"bfloat16"})",
             1, 1.93, 0.1},
            {"gpt-oss-20b (mxfp4 experts: no workspace term)",
             R"({"architectures":["GptOssForCausalLM"],"model_type":"gpt_oss","hidden_size":2880,
             "intermediate_size":2880,"num_local_experts":32,"num_experts_per_tok":4,"num_hidden_layers":24,
             "num_attention_heads":64,"num_key_value_heads":8,"head_dim":64,"vocab_size":201088,
             "max_position_embeddings":131072,"sliding_window":128,"tie_word_embeddings":false,
             "torch_dtype":"bfloat16"})",
             1, 2.87, 0.1},
        };
        for (const Case& c : cases) {
            INFO(c.name);
            const Model m = read(c.config);
            kvcalc::VllmServeFlags f;
            f.max_model_len = 8192;
            f.tensor_parallel_size = c.tp;
            const auto a = kvcalc::vllm_account(kvcalc::vllm_profile_dims(m.spec),
                                                kvcalc::vllm_device(*kvcalc::find_gpu("h100-80gb")), f,
                                                kvcalc::VllmEra::v0_17, m.weights / c.tp);
            CHECK(std::fabs(gib(a.torch_peak_bytes) - c.measured_gib) <= c.tolerance_gib);
        }
    }

    TEST_CASE("vision towers count in vLLM's weights (encoder_parameters)") {
        // Gemma 3 27B IT (tests/data/configs/gemma-3-27b-it.json): SigLIP-So400m tower of 417M parameters (Gemma 3
        // technical report, Table 1); its projector is one 1152 × 5376 matrix and a 1152-wide norm (vLLM gemma3_mm.py
        // Gemma3MultiModalProjector).
        std::ifstream in(std::string(KVCALC_TEST_DATA_DIR) + "/configs/gemma-3-27b-it.json");
        std::stringstream text;
        text << in.rdbuf();
        const std::int64_t all = kvcalc::encoder_parameters(text.str());
        const std::int64_t tower = all - (1152LL * 5376 + 1152);
        CHECK(static_cast<double>(tower) == doctest::Approx(417e6).epsilon(0.01));
        // Mistral-Small-3.2-24B's Pixtral tower: vLLM's logged 44.76 GiB minus the 43.94 GiB text weights = 0.82 GiB
        // (tests/data/real_cases/vllm-h100-mistral-small-3.2-24b.json).
        const char* pixtral = R"({"architectures":["Mistral3ForConditionalGeneration"],"text_config":{"hidden_size":5120},
            "vision_config":{"model_type":"pixtral","hidden_size":1024,"intermediate_size":4096,"num_hidden_layers":24,
            "hidden_act":"silu","image_size":1540,"patch_size":14,"num_channels":3}})";
        CHECK(std::fabs(gib(2 * kvcalc::encoder_parameters(pixtral)) - 0.82) <= 0.05);
        CHECK(kvcalc::encoder_parameters(kLlama8b) == 0);
        CHECK(kvcalc::encoder_parameters("not json") == 0);
    }

    TEST_CASE("TP ≥ 2 non-torch: the all-reduce fusion workspace only on Hopper / Blackwell (config/vllm.py)") {
        const Model m = read(kLlama8b);
        kvcalc::VllmServeFlags f;
        f.max_model_len = 8192;
        f.tensor_parallel_size = 2;
        const auto h = kvcalc::vllm_account(kvcalc::vllm_profile_dims(m.spec),
                                            kvcalc::vllm_device(*kvcalc::find_gpu("h100-80gb")), f,
                                            kvcalc::VllmEra::v0_17, m.weights / 2);
        const auto r = kvcalc::vllm_account(kvcalc::vllm_profile_dims(m.spec),
                                            kvcalc::vllm_device(*kvcalc::find_gpu("rtx-4090")), f,
                                            kvcalc::VllmEra::v0_17, m.weights / 2);
        // v0.19 H100 TP 2 logs: 2.06-2.11 GiB over 10 boots, mean 2.08 (docs/SOURCES.md "Non-torch memory at TP >= 2").
        CHECK(gib(h.non_torch_bytes) == doctest::Approx(2.08).epsilon(0.001));
        // PCIe: no fusion, few NCCL channels: the TP 1 value plus the V0 PCIe per-rank term, 0.13 GiB.
        CHECK(gib(r.non_torch_bytes) == doctest::Approx(0.38));
        // The forward term splits the MLP by TP; the sampler's logits are full-vocabulary on every rank.
        CHECK(h.forward_bytes < kvcalc::vllm_account(kvcalc::vllm_profile_dims(m.spec),
                                                     kvcalc::vllm_device(*kvcalc::find_gpu("h100-80gb")),
                                                     kvcalc::VllmServeFlags{8192}, kvcalc::VllmEra::v0_17, m.weights)
                                    .forward_bytes);
    }

    TEST_CASE("non-torch memory grows with the ranks where the snapshot precedes NCCL init, faster over NVLink") {
        const Model m = read(kLlama8b);
        auto non_torch = [&](const char* gpu, int tp, kvcalc::VllmEra era) {
            kvcalc::VllmServeFlags f;
            f.max_model_len = 8192;
            f.tensor_parallel_size = tp;
            return gib(kvcalc::vllm_account(kvcalc::vllm_profile_dims(m.spec), kvcalc::vllm_device(*kvcalc::find_gpu(gpu)),
                                            f, era, m.weights / tp)
                           .non_torch_bytes);
        };
        using kvcalc::VllmEra;
        // V0 TP 2 over PCIe: non_torch_memory 0.25 GiB on 2 × RTX 4090 (vllm-project/vllm issue #13061), 0.30 on
        // 2 × L40S (#15815), 0.29 on two 47.5 GiB cards (#12663): 0.15 + 0.13, within 0.03 of each.
        CHECK(non_torch("rtx-4090", 2, VllmEra::v0) == doctest::Approx(0.28));
        CHECK(non_torch("l40s", 2, VllmEra::v0) == doctest::Approx(0.28));
        // V0, 8 × A100 40 GB over NVLink: a reported boot printed 2.10 GiB; 0.15 + 7 × 0.28.
        CHECK(non_torch("a100-40gb", 8, VllmEra::v0) == doctest::Approx(2.11));
        CHECK(non_torch("a100-40gb", 8, VllmEra::v0) > non_torch("a100-40gb", 2, VllmEra::v0));
        // After #25359 (0.11) NCCL init is outside the budget: H100 TP 2 0.55 GiB (llm-d-benchmark 87ab01be).
        CHECK(non_torch("h100-80gb", 2, VllmEra::v0_11) == doctest::Approx(0.55));
        // v0.19 H100 TP 4 logs 2.13-2.21 GiB over 5 boots, mean 2.17 (Llama-3.1-8B, Qwen2.5-7B, Kimi-Dev-72B,
        // Llama-3.3-70B fp8, Llama-4-Scout; jgchn/llm-d-planner d3121e0): more than TP 2's 2.08.
        CHECK(non_torch("h100-80gb", 4, VllmEra::v0_17) == doctest::Approx(2.17).epsilon(0.001));
        CHECK(non_torch("h100-80gb", 4, VllmEra::v0_17) > non_torch("h100-80gb", 2, VllmEra::v0_17));
        CHECK(non_torch("h100-80gb", 8, VllmEra::v0_21) == doctest::Approx(2.35).epsilon(0.001));  // extrapolated
        CHECK(kvcalc::find_gpu("a100-40gb")->nvlink);
        CHECK_FALSE(kvcalc::find_gpu("l4")->nvlink);
        CHECK_FALSE(kvcalc::find_gpu("rtx-3090")->nvlink);
    }

    TEST_CASE("mxfp4 experts load padded (Mxfp4MoEMethod.create_weights): gpt-oss weights as vLLM logs them") {
        const char* gptoss120b = R"({"architectures":["GptOssForCausalLM"],"model_type":"gpt_oss","hidden_size":2880,
             "intermediate_size":2880,"num_local_experts":128,"num_experts_per_tok":4,"num_hidden_layers":36,
             "num_attention_heads":64,"num_key_value_heads":8,"head_dim":64,"vocab_size":201088,
             "max_position_embeddings":131072,"sliding_window":128,"tie_word_embeddings":false,
             "torch_dtype":"bfloat16","quantization_config":{"quant_method":"mxfp4"}})";
        const Model m = read(gptoss120b);
        const auto dims = kvcalc::vllm_profile_dims(m.spec);
        REQUIRE(dims.mxfp4_experts);
        auto weights = [&](const char* gpu, int tp) {
            kvcalc::VllmServeFlags f;
            f.max_model_len = 16384;
            f.tensor_parallel_size = tp;
            return gib(kvcalc::vllm_account(dims, kvcalc::vllm_device(*kvcalc::find_gpu(gpu)), f, kvcalc::VllmEra::v0_11,
                                            m.weights / tp)
                           .weights_bytes);
        };
        // H100 (Triton path), TP 1: the log's 64.38 GiB (tests/data/real_cases/vllm-h100-gptoss-120b-16k.json).
        CHECK(std::fabs(weights("h100-80gb", 1) - 64.38) <= 0.15);
        // A100 (Marlin, expert width 720 → 768, hidden 2880 → 3072), TP 4: "Model loading took 17.2217 GiB"
        // (tests/data/real_cases/vllm-gptoss-120b-a100-tp4-u08.json).
        CHECK(std::fabs(weights("a100-80gb", 4) - 17.22) <= 0.15);
        // Padding only: the checkpoint's own bytes are estimate_weights'.
        CHECK(kvcalc::vllm_mxfp4_padding_bytes(dims, kvcalc::vllm_device(*kvcalc::find_gpu("h100-80gb")), 1) > 0);
        CHECK(kvcalc::vllm_mxfp4_padding_bytes(kvcalc::vllm_profile_dims(read(kLlama8b).spec),
                                               kvcalc::vllm_device(*kvcalc::find_gpu("h100-80gb")), 1) == 0);
    }

    TEST_CASE("printed GPU KV cache size follows the version (kv_cache_utils.py, PR #41069)") {
        // Qwen3-14B, LMCache issue #1739: 2666 blocks of 16, one group, 32768 per request → 42,656 tokens, 1.30x.
        const double conc = 2666.0 / 2048.0;
        CHECK(kvcalc::vllm_printed_kv_tokens(kvcalc::VllmEra::v0_17, 2666, 1, 16, conc, 32768) == 42656);
        CHECK(kvcalc::vllm_printed_kv_tokens(kvcalc::VllmEra::v0_21, 2666, 1, 16, conc, 32768) ==
              static_cast<std::int64_t>(std::floor(conc * 32768)));
        // Hybrid with 2 groups before #41069: blocks // groups × block.
        CHECK(kvcalc::vllm_printed_kv_tokens(kvcalc::VllmEra::v0_17, 1001, 2, 16, 1.0, 4096) == 500 * 16);
        CHECK(kvcalc::vllm_printed_kv_tokens(kvcalc::VllmEra::v0, 1952, 1, 16, 1.56, 20000) == 31232);
    }

    TEST_CASE("CUDA-visible totals: logged where a log exists, the estimate rule close to every logged one") {
        const auto* h100 = kvcalc::find_gpu("h100-80gb");
        REQUIRE(h100 != nullptr);
        CHECK(gib(h100->cuda_total_bytes) == doctest::Approx(79.19));
        CHECK_FALSE(h100->cuda_total_estimated);
        CHECK(gib(kvcalc::find_gpu("rtx-3090")->cuda_total_bytes) == doctest::Approx(23.58));
        // L40S: "total_gpu_memory (44.42GiB)" on both ranks of a vLLM 0.7.1 TP 2 boot (vllm-project/vllm issue #15815);
        // RTX A5000: "a total capacity of 23.56 GiB" in a vLLM 0.21.0 OOM (LMCache/LMCache issue #3430).
        CHECK(gib(kvcalc::find_gpu("l40s")->cuda_total_bytes) == doctest::Approx(44.42));
        CHECK(gib(kvcalc::find_gpu("rtx-a5000")->cuda_total_bytes) == doctest::Approx(23.56));
        // RTX 5090: deviceQuery's 33677180928 bytes (31.36 GiB); a vLLM 2 × 5090 log prints "Free memory on device
        // (30.27/31.4 GiB)" (noonghunna/club-3090 issue #1087).
        CHECK(kvcalc::find_gpu("rtx-5090")->cuda_total_bytes == 33677180928LL);
        CHECK_FALSE(kvcalc::find_gpu("rtx-5090")->cuda_total_estimated);
        int logged = 0;
        for (const auto& g : kvcalc::gpu_catalog()) {
            INFO(g.id);
            CHECK(g.cuda_total_bytes > 0);
            CHECK(g.cuda_total_bytes < g.vram_bytes);
            CHECK_FALSE(g.cuda_total_source.empty());
            if (g.cuda_total_estimated) continue;
            ++logged;
            const bool ecc = g.id == "t4" || g.id == "l4" || g.id == "l40s";
            CHECK(std::fabs(gib(kvcalc::estimate_cuda_total_bytes(g.vram_bytes, ecc)) - gib(g.cuda_total_bytes)) <= 0.2);
        }
        CHECK(logged == 12);
    }
}

TEST_SUITE("vllm accounting") {
    TEST_CASE("popular model: vLLM's start-up accounting prices the non-KV terms, with its error band") {
        const Report r = predict(llama8b_h100());
        REQUIRE(r.ok);
        for (const auto& d : r.diagnostics) CHECK(d.code != "family_unknown");
        CHECK_FALSE(r.calibrated);
        CHECK(r.engine == "vllm");
        CHECK(mentions(r.notes, "start-up accounting"));
        CHECK(r.non_kv_model.find("vLLM 0.11.1-0.16 start-up accounting") == 0);
        CHECK(r.error_band_bytes == std::llround(0.35 * kGiB));  // vllm_accounting.cpp band for 0.11.1-0.16
        // The log's defaults: max_num_seqs 1024, max_num_batched_tokens 8192, gpu_memory_utilization 0.9.
        CHECK(r.settings.max_num_seqs == 1024);
        CHECK(r.settings.max_num_batched_tokens == 8192);
        CHECK(r.settings.gpu_memory_utilization == 0.9);
        CHECK(r.assumed_defaults.size() == 4);
        // Log: torch peak 4.76 GiB (sort sampler over 1024 rows × 128,256), non-torch 0.13 GiB, weights 14.99 GiB.
        CHECK(std::fabs(static_cast<double>(r.terms.activation_bytes) / kGiB - 4.76) <= 0.1);
        CHECK(std::fabs(static_cast<double>(r.terms.cudagraph_workspace_bytes) / kGiB - 0.13) <= 0.01);
        CHECK(static_cast<double>(r.terms.weights_bytes) / kGiB == doctest::Approx(14.99).epsilon(0.002));
        // Budget ceil(0.9 × 79.19 GiB): the CUDA total, not the nominal 80 GiB.
        CHECK(static_cast<double>(r.terms.budget_bytes) / kGiB == doctest::Approx(0.9 * 79.19).epsilon(1e-6));
    }

    TEST_CASE("vLLM start-up numbers for Llama 3.1 8B on an H100 match the log within the error band") {
        const Report r = predict(llama8b_h100());
        REQUIRE(r.ok);
        REQUIRE(r.startup.available);
        // Log: "Available KV cache memory: 51.38 GiB", predicted from nothing but the flags.
        CHECK(std::fabs(r.startup.available_kv_gib - 51.38) <= 0.25);
        // 32 layers × 8 KV heads × 128 × (K + V) × 2 B = 131,072 B per token.
        CHECK(r.startup.kv_bytes_per_token == 131072);
        // From the log's 51.38 GiB at 131,072 B per token: 51.38 × 2^30 / 131,072 = 420,905 tokens, and
        // 420,905 / 16,000 = 26.31 full-length requests; the 0.25 GiB tolerance above is 2,048 tokens, 0.128 requests.
        CHECK(std::llabs(r.startup.gpu_kv_cache_tokens - 420905) <= 2048 + 16);
        CHECK(std::fabs(r.startup.max_concurrency - 26.31) <= 0.13 + 0.01);
        CHECK_FALSE(r.startup.refuses_to_start);
        CHECK(r.startup.num_kv_cache_groups == 1);
    }

    TEST_CASE("vLLM refuses Llama 3.3 70B FP8 on one H100 (vllm-h100-llama33-70b-fp8-tp1-fail)") {
        Scenario s = llama8b_h100();
        s.model_id = "llama-3.3-70b";
        s.weights_dtype = "fp8";  // the log's checkpoint is FP8 (compressed-tensors, 8-bit float)
        const Report r = predict(s);
        REQUIRE(r.ok);
        // Log: "Model loading took 67.72 GiB" and available KV −1.44 GiB → refusal.
        CHECK(static_cast<double>(r.terms.weights_bytes) / kGiB == doctest::Approx(67.72).epsilon(0.02));
        CHECK(r.startup.refuses_to_start);
        CHECK(r.verdict == Verdict::fail);
    }

    TEST_CASE("Llama 3.1 8B bf16 on one RTX 4090 at 32K with vLLM's defaults boots with 3-5.5 GiB of KV") {
        // The question users ask most: vLLM boots it with about 4-5 GiB of KV. Defaults: 0.21+,
        // gpu_memory_utilization 0.92, max_num_seqs 256, max_num_batched_tokens 2048 (a card under 70 GiB).
        Scenario s;
        s.model_id = "llama-3.1-8b";
        s.gpu = "rtx-4090";
        s.kv_cache_dtype = "bf16";
        s.max_model_len = 32768;
        s.max_num_seqs = 0;
        s.gpu_memory_utilization = 0;
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.verdict != Verdict::fail);
        const double avail = static_cast<double>(r.terms.available_for_kv_bytes) / kGiB;
        CHECK(avail >= 3.0);
        CHECK(avail <= 5.5);
        CHECK(r.settings.max_num_seqs == 256);
        CHECK(r.settings.max_num_batched_tokens == 2048);
        const SolveResult len = solve_max_model_len(s);
        REQUIRE(len.ok);
        CHECK(len.value >= 32768);
        // The printed command boots exactly what was priced: vLLM's defaults are written out.
        CHECK(r.command.find("# kvcalc priced this for vLLM 0.21+") == 0);
        for (const char* flag : {"--max-model-len 32768", "--max-num-seqs 256", "--gpu-memory-utilization 0.92",
                                 "--max-num-batched-tokens 2048", "--kv-cache-dtype bfloat16"})
            CHECK_MESSAGE(r.command.find(flag) != std::string::npos, flag);
    }
}
