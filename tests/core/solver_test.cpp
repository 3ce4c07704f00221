#include <doctest/doctest.h>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/solver.h"
#include <nlohmann/json.hpp>
#include <string>
#include "kvcalc/io/json_io.h"

using namespace kvcalc;

namespace {
// A one-layer generic-dense model whose answers can be worked out by hand:
// bf16 KV = 1 head × (64 + 64) × 2 B = 256 B/token; activation = 1.5 GB / TP (hidden_size 0); weights 1 GB.
Scenario toy() {
    ModelSpec m;
    m.id = "toy";
    m.family = "generic-dense";
    m.num_hidden_layers = 1;
    m.num_attention_heads = 8;  // query heads (TP 2 splits them); the one K/V head is replicated
    m.layers = {FullAttention{1, 64, 64, 0}};
    m.weights = {WeightsVariant{"w", 1.0, "", {}, ""}};
    Scenario s;
    s.model = m;
    s.kv_cache_dtype = "bf16";
    s.vram_gb = 10;
    s.gpu_memory_utilization = 0.5;
    s.max_model_len = 1'000'000;
    return s;
}

Scenario from_json_text(const std::string& text) {
    Scenario s;
    Diagnostics d;
    read_scenario(nlohmann::json::parse(text), s, d);
    REQUIRE_FALSE(kvcalc::has_error(d));
    return s;
}

// A Llama-shaped config small enough to price by hand.
std::string tiny_config(const std::string& extra) {
    return R"({"num_hidden_layers":2,"hidden_size":8,"num_attention_heads":1,"vocab_size":10,"intermediate_size":8,)"
           R"("max_position_embeddings":4096,"torch_dtype":"bfloat16")" +
           (extra.empty() ? "" : "," + extra) + "}";
}

constexpr double kGiB = 1073741824.0;

}  // namespace

TEST_SUITE("solver") {
    TEST_CASE("max_model_len by hand") {
        // budget 0.5 × 10e9 = 5e9; fixed = 1e9 weights + 1.5e9 activation + (0.5 + 0.5) GB overhead = 3.5e9;
        // 1.5e9 / (16 tokens × 256 B per block) = 366,210 whole blocks (vLLM allocates blocks of 16 tokens)
        // = 5,859,360 tokens; rounded down to 1024: 5,722 × 1024 = 5,859,328.
        const SolveResult r = solve_max_model_len(toy());
        REQUIRE(r.ok);
        CHECK(r.value == 5859360);
        CHECK(r.value_rounded == 5859328);
        CHECK(r.bound == "budget");
        CHECK(r.limiting_term == "activation");  // KV 1,499,996,160 B is just under the 1.5e9 activation
    }
    TEST_CASE("context limits: all max_num_seqs sequences vs one that boots, by hand") {
        // The pool holds 366,210 blocks of 16 tokens (max_model_len by hand). Booting needs one full sequence:
        // 5,859,360 tokens as above. Four full sequences at once need 4 × ceil(len / 16) ≤ 366,210 blocks, so
        // ceil(len / 16) ≤ 91,552 and len ≤ 1,464,832 tokens (rounded to 1024: 1,430 × 1024 = 1,464,320).
        Scenario s = toy();
        s.max_num_seqs = 4;
        const ContextLimits c = solve_context_limits(s);
        CHECK(c.max_num_seqs == 4);
        REQUIRE(c.boots.ok);
        CHECK(c.boots.value == 5859360);
        REQUIRE(c.all_sequences.ok);
        CHECK(c.all_sequences.value == 1464832);
        CHECK(c.all_sequences.value_rounded == 1464320);
        CHECK(c.all_sequences.bound == "budget");
        // One sequence: the two answers are the same question.
        s.max_num_seqs = 1;
        const ContextLimits one = solve_context_limits(s);
        CHECK(one.all_sequences.value == one.boots.value);
    }
    TEST_CASE("max_num_seqs by hand") {
        // one sequence of 1e6 tokens = 256e6 B; 1.5e9 / 256e6 = 5.86 → 5.
        const SolveResult r = solve_max_num_seqs(toy());
        REQUIRE(r.ok);
        CHECK(r.value == 5);
    }
    TEST_CASE("min VRAM by hand") {
        // need 3.5e9 + 0.256e9 at 50 % utilisation → 7.512e9 B.
        const SolveResult r = solve_min_vram(toy());
        REQUIRE(r.ok);
        CHECK(r.value >= 7'511'999'999);
        CHECK(r.value <= 7'512'000'001);
        CHECK(r.value_rounded == 7LL << 30);  // 7.512e9 B = 6.996 GiB → 7 GiB
    }
    TEST_CASE("min GPUs by hand") {
        // 4e9 B cards at 100 %: TP1 fixed = 1 + 1.5 + 1.5 = 4e9 → no KV room. TP2 fixed = 0.5 + 0.75 + 1.8 = 3.05e9,
        // 0.95e9 left ≥ 0.256e9 (the single KV head is replicated, 256 B/token per card).
        Scenario s = toy();
        s.vram_gb = 4;
        s.gpu_memory_utilization = 1.0;
        const SolveResult r = solve_min_gpus(s);
        REQUIRE(r.ok);
        CHECK(r.value == 2);
    }
    TEST_CASE("answers sit on the boundary of the predicate (catalog models)") {
        Scenario s;
        s.model_id = "gemma-4-31b";  // the original's recommended Gemma 4 31B rig: TP2, INT8 PTH, 24 GB cards, mem_util 0.92
        s.tensor_parallel_size = 2;
        s.kv_cache_dtype = "int8_per_token_head";
        s.gpu = "rtx-3090";
        s.gpu_memory_utilization = 0.92;
        for (FitCriterion c : {FitCriterion::boots, FitCriterion::uncapped}) {
            const SolveResult r = solve_max_model_len(s, c);
            REQUIRE(r.ok);
            Scenario at = s;
            at.max_model_len = r.value;
            CHECK(predict(at).verdict != Verdict::fail);
            if (r.bound == "budget") {
                at.max_model_len = r.value + 1;
                const Report over = predict(at);
                CHECK((over.verdict == Verdict::fail ||
                       (c == FitCriterion::uncapped && over.terms.kv_growing_requested_bytes > over.terms.available_for_kv_bytes)));
            }
        }
        const SolveResult q = solve_max_model_len(find_preset("qwen3.6-27b:dual")->scenario);
        CHECK(q.bound == "max_position_embeddings");  // 24 GB default: plenty of room at TP2
        CHECK(q.value == 262144);
    }
    TEST_CASE("invalid scenarios come back with diagnostics") {
        Scenario s;
        s.tensor_parallel_size = 3;
        const SolveResult r = solve_max_model_len(s);
        CHECK_FALSE(r.ok);
        CHECK_FALSE(r.diagnostics.empty());
        Scenario tiny;
        tiny.vram_gb = 1;
        CHECK_FALSE(solve_max_model_len(tiny).ok);
        CHECK_FALSE(solve_max_num_seqs(tiny).ok);
    }
    TEST_CASE("nothing fits: the message names the largest term by its label, not its id") {
        // Llama 3.1 8B config.json (meta-llama/Llama-3.1-8B-Instruct): 32 layers, 8 KV heads, head_dim 4096/32 = 128.
        // bf16 KV = 2 (K, V) × 32 × 8 × 128 × 2 B = 131,072 B/token, so one 131,072-token sequence needs 17.18 GB:
        // more than the 16.06 GB of bf16 weights (8.03e9 parameters) and, with them, more than any budget of a
        // 24 GB RTX 4090. The growing KV is the largest term; people read it as "KV cache (growing)".
        Scenario s;
        s.model_id = "llama-3.1-8b";
        s.gpu = "rtx-4090";
        s.kv_cache_dtype = "auto";
        s.max_model_len = 131072;
        const SolveResult r = solve_max_num_seqs(s);
        REQUIRE_FALSE(r.ok);
        CHECK(r.limiting_term == "kv_growing");
        REQUIRE_FALSE(r.diagnostics.empty());
        CHECK(r.diagnostics.front().message == "no max_num_seqs fits: the largest term is KV cache (growing)");
        // Llama 3.1 70B in bf16 is 141 GB of weights (70.6e9 parameters × 2 B): the largest term on a 24 GB card,
        // a plain word lowered mid-sentence.
        s.model_id = "llama-3.1-70b";
        const SolveResult w = solve_max_num_seqs(s);
        REQUIRE_FALSE(w.diagnostics.empty());
        CHECK(w.diagnostics.front().message == "no max_num_seqs fits: the largest term is weights");
        // The labels are term_list()'s; an unknown id comes back as given.
        CHECK(term_label("kv_growing") == "KV cache (growing)");
        CHECK(term_label("cudagraph_workspace") == "CUDA graphs + workspace");
        CHECK(term_label("weights") == "Weights");
        CHECK(term_label("no_such_term") == "no_such_term");
    }
}

TEST_SUITE("solver") {
    TEST_CASE("the max_model_len solver on a huge in-range model answers without overflow") {
        // 83,647 KV heads × (2,303 + 2,303) dims × 1 B (fp8_e5m2) = 385,278,082 B per token. Budget 0.95 × 24e9 =
        // 22.8e9; fixed = weights 1e9 + generic-dense activation 1.5e9 + CUDA graphs (0.5 + 0.95) e9 = 3.95e9,
        // leaving 18.85e9: 48 tokens (18,493,347,936 B) boot, 49 (18,878,626,018 B) do not.
        const Scenario s = from_json_text(R"({"model":{"num_attention_heads":83647,"layers":[{"kind":"full_attention",)"
                                          R"("num_key_value_heads":83647,"head_dim":2303}],"weights":[{"size_gb":1}]},"max_model_len":8,)"
                                          R"("kv_cache_dtype":"fp8_e5m2","max_num_seqs":1,"gpu_memory_utilization":0.95})");
        const SolveResult r = solve_max_model_len(s);
        REQUIRE(r.ok);
        CHECK(r.value == 48);
        CHECK(r.bound == "budget");
    }

    TEST_CASE("the max_model_len solver never answers above predict's 2^27 limit") {
        Scenario s;
        s.config_json = tiny_config("").replace(tiny_config("").find("4096"), 4, "1000000000");
        s.weights_gb = 1.0;
        s.vram_gb = 80.0;
        s.kv_cache_dtype = "fp8_e5m2";  // 1 B per element, one sequence: the numbers below
        s.max_num_seqs = 1;
        s.max_model_len = 4096;  // the solver's starting point (not given, it would be the config's 1e9)
        const SolveResult r = solve_max_model_len(s);
        REQUIRE(r.ok);
        // 2 layers × 1 head × 16 dims × 1 B = 32 B per token: 2^27 tokens are 4.3 GB, so the limit binds.
        CHECK(r.value == std::int64_t{1} << 27);
        CHECK(r.bound == "max_model_len_limit");
        Scenario at = s;
        at.max_model_len = r.value;
        CHECK(predict(at).ok);
    }
}

TEST_SUITE("solver") {
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
