// The solvers at the edges of their ranges (core/src/deployment/solver.cpp): answers below one 1024-token
// block, a model whose derived length is above predict's 2^27, and VRAM answers at the vram_gb limit.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/io/api.h"

using namespace kvcalc;
using nlohmann::json;

namespace {

/// Llama 3.1 8B's config.json widths (meta-llama/Llama-3.1-8B) with the given max_position_embeddings.
std::string llama_config(std::int64_t max_position_embeddings) {
    return json{{"architectures", {"LlamaForCausalLM"}}, {"model_type", "llama"}, {"hidden_size", 4096},
                {"num_hidden_layers", 32}, {"num_attention_heads", 32}, {"num_key_value_heads", 8},
                {"head_dim", 128}, {"intermediate_size", 14336}, {"vocab_size", 128256},
                {"max_position_embeddings", max_position_embeddings}, {"torch_dtype", "bfloat16"}}
        .dump();
}

}  // namespace

TEST_SUITE("solver_limits") {
    TEST_CASE("max_model_len below 1024: value_rounded is the exact answer, not 0") {
        Scenario s;
        s.config_json = llama_config(512);
        s.gpu = "h100-80gb";
        const SolveResult r = solve_max_model_len(s);
        REQUIRE(r.ok);
        // 512 tokens of 128 KiB (32 layers × 8 KV heads × 128 × 2 × 2 B) fit an 80 GB card many times over,
        // so the model's own maximum is the answer.
        CHECK(r.value == 512);
        CHECK(r.value_rounded == 512);
        CHECK(r.bound == "max_position_embeddings");

        Scenario small;
        small.model_id = "llama-3.1-8b";
        small.vram_gb = 19.2;
        const SolveResult t = solve_max_model_len(small);
        REQUIRE(t.ok);
        REQUIRE(t.value < 1024);
        CHECK(t.value > 0);
        CHECK(t.value_rounded == t.value);
    }

    TEST_CASE("max_position_embeddings 2e8 (above 2^27), max_model_len not given") {
        Scenario s;
        s.config_json = llama_config(200000000);
        s.gpu = "h100-80gb";
        const Report rep = predict(s);
        CHECK_FALSE(rep.ok);
        bool named = false;
        for (const auto& d : rep.diagnostics)
            if (d.code == "max_model_len_too_long" && d.field == "max_model_len" &&
                d.message.find("is not given") != std::string::npos &&
                d.message.find("max_position_embeddings") != std::string::npos &&
                d.message.find("134217728") != std::string::npos)
                named = true;
        CHECK(named);
        // The length solver searches 1..2^27 and answers.
        const SolveResult r = solve_max_model_len(s);
        REQUIRE(r.ok);
        CHECK(r.value > 0);
        CHECK(r.value <= 134217728);
        CHECK(r.bound == "budget");
    }

    TEST_CASE("min_vram never answers above vram_gb's 1e6 GB limit") {
        Scenario s;
        s.model_id = "llama-3.1-8b";
        s.vram_gb = 24;
        s.max_model_len = 131072;
        // 131,072 B of KV per token (32 × 8 × 128 × 2 × 2) × 131,072 tokens × 56,000 sequences = 9.62e14 B, at
        // gpu_memory_utilization 0.92 a card of 1.046e15 B: above the 1e15 B limit, so nothing fits.
        s.max_num_seqs = 56000;
        const SolveResult over = solve_min_vram(s, FitCriterion::uncapped);
        CHECK_FALSE(over.ok);
        CHECK(over.value == 0);
        // 50,000 sequences: 8.59e14 B of KV / 0.92 = 9.34e14 B, under the limit.
        s.max_num_seqs = 50000;
        const SolveResult under = solve_min_vram(s, FitCriterion::uncapped);
        REQUIRE(under.ok);
        CHECK(under.value >= 933688542608696);  // 131072 × 131072 × 50000 / 0.92, the KV alone
        CHECK(under.value_rounded <= 1000000000000000);
    }
}

TEST_SUITE("api_solver_request") {
    TEST_CASE("an unknown solver fails the request: ok false, no verdict, no result_sentence") {
        const json out = json::parse(evaluate_json(
            R"({"model_id":"llama-3.1-8b","gpu":"h100-80gb","max_model_len":8192,"action":"solve","solve":["max_fun"]})"));
        CHECK(out["ok"] == false);
        CHECK_FALSE(out.contains("verdict"));
        CHECK(out.value("result_sentence", std::string()) == "");
        bool named = false;
        for (const auto& d : out["diagnostics"])
            if (d["code"] == "solver_unknown" && d["field"] == "solve") named = true;
        CHECK(named);
    }
    TEST_CASE("a bad criterion fails the request the same way") {
        const json out = json::parse(evaluate_json(
            R"({"model_id":"llama-3.1-8b","gpu":"h100-80gb","action":"solve","criterion":"most"})"));
        CHECK(out["ok"] == false);
        CHECK_FALSE(out.contains("verdict"));
    }
}
