// predict() wired to the config.json reader and the engine rules (issue 5 end to end): popular models priced
// with uncalibrated overheads, vLLM / llama.cpp / SGLang start-up numbers, inline config.json, Falcon-H1's
// parallel Mamba state, hostile configs. Expected values come from real start-up logs
// (tests/data/real_cases/*.json) or are worked out by hand in the comments.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "kvcalc/io/json_io.h"
#include "kvcalc/io/json_results.h"
#include "kvcalc/deployment/predict.h"
#include "seed_cli.h"
#include "kvcalc/deployment/solver.h"

using namespace kvcalc;

namespace {
constexpr double kGiB = 1073741824.0;

bool mentions(const std::vector<std::string>& notes, const char* text) {
    for (const auto& n : notes)
        if (n.find(text) != std::string::npos) return true;
    return false;
}
bool has_diag(const Report& r, const char* code, const std::string& field, Severity sev = Severity::error) {
    for (const auto& d : r.diagnostics)
        if (d.code == code && d.field == field && d.severity == sev) return true;
    return false;
}
const ModelFact* fact(const Report& r, const char* name) {
    for (const auto& f : *r.model_facts)
        if (f.fact == name) return &f;
    return nullptr;
}

// Llama 3.1 8B config facts, as in tests/data/real_cases/vllm-h100-llama31-8b-16k.json.
const char* kLlama8bConfig = R"({"architectures":["LlamaForCausalLM"],"model_type":"llama","num_hidden_layers":32,
"hidden_size":4096,"num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,"intermediate_size":14336,
"vocab_size":128256,"tie_word_embeddings":false,"max_position_embeddings":131072,"torch_dtype":"bfloat16"})";

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

TEST_SUITE("predict wiring") {
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
        // Tokens = whole 16-token blocks of 16 × 131,072 B = 2 MiB pages.
        CHECK(r.startup.gpu_kv_cache_tokens == r.startup.available_kv_bytes / (16 * 131072) * 16);
        // Concurrency = blocks / blocks per 16000-token request (1000).
        CHECK(r.startup.max_concurrency == doctest::Approx(static_cast<double>(r.startup.available_kv_bytes / (16 * 131072)) / 1000.0));
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
        // The question users ask most (issue 12): vLLM boots it with about 4-5 GiB of KV. Defaults: 0.21+,
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

    TEST_CASE("seed models keep the seed math and stay calibrated") {
        const Report r = predict(seed_cli_scenario());  // qwen3.6-27b at the seed CLI's settings
        REQUIRE(r.ok);
        CHECK(r.calibrated);
        CHECK(r.error_band_bytes == kTightBandBytes);
        CHECK(r.terms.tight_band_bytes == kTightBandBytes);
        CHECK_FALSE(mentions(r.notes, "uncalibrated"));
        // Seed 000 §4: CUDA graphs + workspace 0.5 + 1.0 × 0.95 GB at TP 1.
        CHECK(r.terms.cudagraph_workspace_bytes == 1'450'000'000);
        // Qwen 3.6 27B is a DeltaNet hybrid: vLLM makes several KV cache groups and its token count misleads.
        REQUIRE(r.startup.available);
        CHECK(r.startup.num_kv_cache_groups > 1);
        CHECK(mentions(r.startup.notes, "hybrid model"));
    }

    TEST_CASE("kv formats upstream vLLM lacks: no start-up numbers, a note and the command say what was priced") {
        Scenario s;
        s.kv_cache_dtype = "q4_0";  // llama.cpp's; vLLM's CacheDType has no q4_0
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK_FALSE(r.startup.available);
        CHECK(mentions(r.startup.notes, "q4_0"));
        CHECK(r.command.rfind("# kvcalc:", 0) == 0);
        CHECK(r.command.find("--kv-cache-dtype nvfp4") != std::string::npos);
        s.kv_cache_dtype = "turboquant_3bit_nc";  // vllm/config/cache.py CacheDType has it
        CHECK(predict(s).startup.available);
    }

    TEST_CASE("inline config.json gives the same prediction as the catalog entry, with key-path provenance") {
        Scenario s = llama8b_h100();
        s.config_json = kLlama8bConfig;
        const Report inline_r = predict(s);
        const Report catalog_r = predict(llama8b_h100());
        REQUIRE(inline_r.ok);
        CHECK(inline_r.settings.model_id == "config.json");
        CHECK(inline_r.terms.total_bytes == catalog_r.terms.total_bytes);
        CHECK(inline_r.startup.gpu_kv_cache_tokens == catalog_r.startup.gpu_kv_cache_tokens);
        const ModelFact* kv = fact(inline_r, "num_key_value_heads");
        REQUIRE(kv);
        CHECK(kv->value == "8");
        CHECK(kv->source == "config.json: num_key_value_heads");
        const ModelFact* layers = fact(inline_r, "layers");
        REQUIRE(layers);
        CHECK(layers->value == "32 full_attention");
    }

    TEST_CASE("weights_dtype prices the config's parameters; weights_gb overrides") {
        Scenario s = llama8b_h100();
        s.config_json = kLlama8bConfig;
        s.weights_dtype = "fp8";
        const Report fp8 = predict(s);
        REQUIRE(fp8.ok);
        // Embedding + lm_head 2 × 128,256 × 4,096 = 1,050,673,152 params stay bf16 (2.10 GB); the other
        // 8,030,261,248 − 1,050,673,152 = 6,979,588,096 params at 1 B → 9.08 GB (published count 8.03 B).
        CHECK(static_cast<double>(fp8.terms.weights_bytes - 131072 * 128 * 2) / 1e9 == doctest::Approx(9.08).epsilon(0.01));
        s.weights_gb = 5.0;  // plus the 32 MiB rope cache vLLM builds at load (131,072 × 128 × 2 B)
        CHECK(predict(s).terms.weights_bytes == 5'000'000'000 + 131072 * 128 * 2);
        s.weights_gb.reset();
        s.weights_dtype = "int3";
        const Report bad = predict(s);
        CHECK_FALSE(bad.ok);
        CHECK(has_diag(bad, "unknown_weights_dtype", "weights_dtype"));
    }

    TEST_CASE("JSON: config_json string, config object, engine and the new Report keys") {
        nlohmann::json req = {{"config", nlohmann::json::parse(kLlama8bConfig)}, {"gpu", "h100-80gb"},
                              {"gpu_memory_utilization", 0.9}, {"max_model_len", 16000}, {"kv_cache_dtype", "bf16"}};
        Scenario s;
        Diagnostics d;
        read_scenario(req, s, d);
        CHECK(d.empty());
        CHECK_FALSE(s.config_json.empty());
        const nlohmann::json out = predict(s);
        CHECK(out["engine"] == "vllm");
        CHECK(out["calibrated"] == false);
        CHECK(out["startup"]["kv_bytes_per_token"] == 131072);
        CHECK(out["model_facts"].size() > 5);
        Scenario t;
        read_scenario(nlohmann::json{{"config_json", kLlama8bConfig}, {"engine", "sglang"}}, t, d);
        CHECK(t.engine == "sglang");
        CHECK(t.config_json == kLlama8bConfig);
        read_scenario(nlohmann::json{{"config", 7}}, t, d);
        CHECK(d.back().field == "config");
    }

    TEST_CASE("llama.cpp: KV only, from llama.cpp's own cell rules") {
        Scenario s = llama8b_h100();
        s.engine = "llama.cpp";
        s.max_num_seqs = 1;               // llama.cpp has no "vLLM default"
        s.gpu_memory_utilization = 0.9;
        s.kv_cache_dtype = "fp16";
        s.max_model_len = 4096;
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.engine == "llama.cpp");
        CHECK(r.terms.activation_bytes == 0);
        CHECK(r.terms.cudagraph_workspace_bytes == 0);
        CHECK(mentions(r.notes, "only weights and KV cache are modelled"));
        REQUIRE(r.startup.available);
        // 32 layers × 4096 cells × 8 heads × 128 × (K + V) × 2 B = 512 MiB (llama.cpp prints "size = 512.00 MiB").
        CHECK(r.startup.kv_total_bytes_all_devices == 512LL * 1024 * 1024);
    }

    TEST_CASE("SGLang: cell size per rank at TP 4 (sglang-qwq-32b-4xL4-tp4 facts)") {
        Scenario s;
        s.config_json = R"({"architectures":["Qwen2ForCausalLM"],"model_type":"qwen2","num_hidden_layers":64,
            "hidden_size":5120,"num_attention_heads":40,"num_key_value_heads":8,"intermediate_size":27648,
            "vocab_size":152064,"max_position_embeddings":131072,"torch_dtype":"bfloat16"})";
        s.engine = "sglang";
        s.kv_cache_dtype = "bf16";
        s.tensor_parallel_size = 4;
        s.gpu = "l4";
        s.max_model_len = 32768;
        const Report r = predict(s);
        REQUIRE(r.ok);
        REQUIRE(r.startup.available);
        // 64 layers × (8 / 4) KV heads × head_dim 5120 / 40 = 128 × (K + V) × 2 B = 65,536 B per token per rank.
        CHECK(r.startup.kv_bytes_per_token == 65536);
        CHECK(r.startup.gpu_kv_cache_tokens == r.startup.available_kv_bytes / 65536);
    }

    TEST_CASE("Falcon-H1: the parallel Mamba state is in the footprint, the buckets and the breakdown") {
        Scenario s;
        s.model_id = "falcon-h1-7b";
        s.gpu = "h100-80gb";
        s.max_model_len = 32768;
        s.max_num_seqs = 2;
        s.kv_cache_dtype = "bf16";
        const Report r = predict(s);
        REQUIRE(r.ok);
        // The buckets keep the unpadded layer view: 44 × 2 × 1,594,368 = 140,304,384 B.
        // Per layer: state 24 heads × 128 × 256 × 2 B + conv (4 − 1) × (3072 + 2 × 256) × 2 B = 1,594,368 B. vLLM
        // raises the attention block to 16 × cdiv(1,594,368, 16 × 1,024) = 1,568 tokens and pads each state to
        // one page of 1,568 × 1,024 B = 1,605,632 B: 44 layers × 2 requests × 1,605,632 = 141,295,616 B.
        CHECK(r.terms.recurrent_state_requested_bytes == 141'295'616);
        CHECK(r.breakdown.layout == "hybrid_mamba");
        CHECK(r.breakdown.recurrent_state_bytes == 141'295'616);
        std::int64_t bucket_state = 0;
        int attention_layers = 0;
        for (const auto& b : r.buckets) {
            if (b.kind == "recurrent_state") bucket_state += b.fixed_bytes_per_card;
            if (b.kind == "full_attention") attention_layers += b.layer_count;
        }
        CHECK(bucket_state == 140'304'384);
        CHECK(attention_layers == 44);
        // Attention: 44 layers × 2 KV heads × 128 × 2 × 2 B = 45,056 B per token.
        CHECK(r.terms.kv_bytes_per_token == 45056.0);
    }

    TEST_CASE("hostile config.json through predict(): error diagnostics with key paths, never NaN") {
        auto run = [](const char* cfg) {
            Scenario s;
            s.config_json = cfg;
            return predict(s);
        };
        const Report zero = run(R"({"num_hidden_layers":0,"hidden_size":64,"num_attention_heads":1})");
        CHECK_FALSE(zero.ok);
        CHECK(has_diag(zero, "out_of_range", "config_json.num_hidden_layers"));
        const Report huge = run(R"({"num_hidden_layers":2,"hidden_size":64,"num_attention_heads":1e12})");
        CHECK_FALSE(huge.ok);
        CHECK(has_diag(huge, "out_of_range", "config_json.num_attention_heads"));
        const Report negative = run(R"({"num_hidden_layers":2,"hidden_size":64,"num_attention_heads":4,"head_dim":-8})");
        CHECK_FALSE(negative.ok);
        CHECK(has_diag(negative, "out_of_range", "config_json.head_dim"));
        const Report typed = run(R"({"num_hidden_layers":"32","hidden_size":64,"num_attention_heads":1})");
        CHECK_FALSE(typed.ok);
        CHECK(has_diag(typed, "wrong_type", "config_json.num_hidden_layers"));
        const Report broken = run(R"({"num_hidden_layers": 32,)");
        CHECK_FALSE(broken.ok);
        CHECK(has_diag(broken, "bad_json", "config_json"));
        const nlohmann::json j = broken;
        CHECK(j.dump().find("NaN") == std::string::npos);
    }

    TEST_CASE("bad engine and weights_dtype on a seed model are errors naming the field") {
        Scenario s;
        s.engine = "tensorrt";
        CHECK(has_diag(predict(s), "engine_unknown", "engine"));
        Scenario t;
        t.weights_dtype = "fp8";  // qwen3.6-27b is a seed model with its own variants
        CHECK(has_diag(predict(t), "weights_dtype_unsupported", "weights_dtype"));
    }

    TEST_CASE("solvers and the sweep work for popular models") {
        Scenario s;
        s.model_id = "llama-3.1-8b";
        s.gpu = "rtx-4090";
        s.kv_cache_dtype = "fp8_e4m3";
        s.max_model_len = 32768;
        s.max_num_seqs = 1;  // the hand-worked numbers below
        s.gpu_memory_utilization = 0.95;
        const SolveResult len = solve_max_model_len(s);
        REQUIRE(len.ok);
        // Hand-worked (vLLM 0.21+, max_num_seqs 1, max_num_batched_tokens min(2048, 1 × 32768)):
        // budget ceil(0.95 × 23.68 GiB) = 22.50 GiB − weights 14.99 GiB − torch peak (forward 2048 × 2 ×
        // (3 × 14336 + 4 × 4096) = 0.227 GiB) − non-torch 0.25 GiB − CUDA graphs (PIECEWISE 1, 2 and FULL 1:
        // 0.235 + 1 × 0.152 MiB × 32 layers = 0.240 GiB) leaves 6.79 GiB; fp8 KV is 32 × 8 × 128 × 2 × 1 B =
        // 65,536 B per token.
        const Report at = predict(s);
        const std::int64_t pool = at.terms.available_for_kv_bytes + at.terms.kv_growing_granted_bytes -
                                  at.terms.kv_growing_granted_bytes;
        CHECK(static_cast<double>(pool) / kGiB == doctest::Approx(6.79).epsilon(0.002));
        CHECK(len.value == pool / (16 * 65536) * 16);  // whole 16-token blocks of 65,536 B per token
        s.max_model_len = 16384;  // one 16K sequence needs 1,073,741,824 B: six fit, seven do not
        const SolveResult seqs = solve_max_num_seqs(s);
        REQUIRE(seqs.ok);
        CHECK(seqs.value == pool / (16384 * 65536));
        for (int tp : {1, 2, 4, 8}) {
            s.tensor_parallel_size = tp;
            s.gpus = tp;
            CHECK(predict(s).ok);
        }
    }
}
