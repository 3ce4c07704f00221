// One memory rule: over random valid scenarios (every engine, catalog and config.json models, TP 1-8, every KV
// format, every catalog GPU) the verdict, the solvers, the GPU-shopping rows and the predicted start-up lines
// agree, because they evaluate the same Deployment. Nothing here restates a formula: each check compares two
// outputs that a user sees side by side.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/base/kv_format.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/deployment/sweeps.h"

using namespace kvcalc;

namespace {

constexpr int kScenarios = 10000;

// config.json fixtures of tests/data/configs (real Hub files; SOURCES.tsv names each one's commit).
std::vector<std::string> config_texts() {
    std::vector<std::string> out;
    const std::filesystem::path dir = std::string(KVCALC_TEST_DATA_DIR) + "/configs";
    if (!std::filesystem::exists(dir)) return out;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        if (e.path().extension() != ".json") continue;
        std::ifstream in(e.path());
        std::stringstream s;
        s << in.rdbuf();
        out.push_back(s.str());
    }
    return out;
}

struct Generator {
    std::mt19937_64 rng{20261201};
    std::vector<std::string> configs = config_texts();

    std::int64_t log_uniform(std::int64_t lo, std::int64_t hi) {
        std::uniform_real_distribution<double> u(std::log(static_cast<double>(lo)), std::log(static_cast<double>(hi)));
        return std::clamp<std::int64_t>(std::llround(std::exp(u(rng))), lo, hi);
    }
    template <class T>
    const T& pick(const std::vector<T>& v) {
        return v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng)];
    }

    /// A scenario a user could set: the model's own valid TP, a length within its limit, any card and format.
    Scenario next() {
        Scenario s;
        const bool use_config = !configs.empty() && std::uniform_int_distribution<int>(0, 4)(rng) == 0;
        std::shared_ptr<const ModelSpec> model;
        Diagnostics ignored;
        if (use_config) {
            s.config_json = pick(configs);
            model = scenario_model(s, ignored);
        } else {
            s.model_id = pick(model_catalog()).id;
            model = shared_catalog_model(s.model_id);
        }
        const char* engines[] = {"vllm", "llama.cpp", "sglang"};
        s.engine = engines[std::uniform_int_distribution<int>(0, 2)(rng)];
        s.kv_cache_dtype = pick(kv_formats()).name;
        s.gpu = pick(gpu_catalog()).id;
        std::vector<int> tps = model ? valid_tensor_parallel_sizes(*model) : std::vector<int>{1};
        if (tps.empty()) tps = {1};
        s.tensor_parallel_size = pick(tps);
        const std::int64_t limit = model && model->max_position_embeddings > 0 ? model->max_position_embeddings : 1 << 20;
        s.max_model_len = log_uniform(std::min<std::int64_t>(256, limit), limit);
        s.max_num_seqs = log_uniform(1, 64);
        // vLLM's own default (0 = unset) for a share of vLLM scenarios: the card decides it (get_batch_defaults).
        if (s.engine == "vllm" && chance(5)) s.max_num_seqs = 0;
        s.gpu_memory_utilization = std::uniform_real_distribution<double>(0.5, 0.98)(rng);
        if (chance(4)) s.max_num_batched_tokens = log_uniform(256, 16384);
        // A share asks for more than fits, as people do (vLLM then prints its estimated maximum model length).
        if (s.engine == "vllm" ? !chance(10) : chance(2)) ask_beyond_fit(s, limit, s.engine == "vllm");
        return s;
    }
    bool chance(int one_in) { return std::uniform_int_distribution<int>(0, one_in - 1)(rng) == 0; }

    /// Draws max_model_len above the largest that boots, up to 4 × it, within the model's limit. Where the whole
    /// context boots (or nothing does) on the drawn card, and `other_vram`, the card becomes a VRAM figure drawn
    /// between the least that boots a short request and the least that boots the model's whole context, so the
    /// boundary falls inside the model's range.
    void ask_beyond_fit(Scenario& s, std::int64_t limit, bool other_vram) {
        auto inside = [&](const SolveResult& fit) { return fit.ok && fit.bound == "budget" && fit.value < limit; };
        SolveResult fit = solve_max_model_len(s);
        if (!inside(fit) && other_vram) {
            Scenario probe = s;
            probe.max_model_len = std::min<std::int64_t>(256, limit);
            const SolveResult lo = solve_min_vram(probe);
            probe.max_model_len = limit;
            const SolveResult hi = solve_min_vram(probe);
            if (lo.ok && hi.ok && hi.value > lo.value + 1) {
                s.gpu.clear();
                s.vram_gb = static_cast<double>(std::uniform_int_distribution<std::int64_t>(lo.value, hi.value - 1)(rng)) / 1e9;
                fit = solve_max_model_len(s);
            }
        }
        if (inside(fit)) s.max_model_len = log_uniform(fit.value + 1, std::min<std::int64_t>(limit, 4 * fit.value + 1));
    }
};

Scenario at_length(Scenario s, std::int64_t len) {
    s.max_model_len = len;
    return s;
}
Scenario at_seqs(Scenario s, std::int64_t n) {
    s.max_num_seqs = n;
    return s;
}

}  // namespace

TEST_SUITE("one memory rule") {
    TEST_CASE("solvers, shopping rows and start-up lines agree with the verdict on 10,000 random scenarios") {
        Generator gen;
        int evaluated = 0, len_checked = 0, estimate_checked = 0, seqs_checked = 0, shop_checked = 0;
        int default_rows_checked = 0;
        // vllm/engine/arg_utils.py get_batch_defaults: >= 70 GiB and not an A100 -> the large defaults.
        std::vector<GpuSpec> big_cards, small_cards;
        for (const GpuSpec& g : gpu_catalog()) {
            const bool large = g.vram_bytes >= 70LL * (1LL << 30) && g.id.find("a100") == std::string::npos;
            (large ? big_cards : small_cards).push_back(g);
        }
        REQUIRE(!big_cards.empty());
        REQUIRE(!small_cards.empty());
        int engines_seen[3] = {0, 0, 0};
        for (int i = 0; i < kScenarios; ++i) {
            const Scenario s = gen.next();
            const Report r = predict(s);
            if (!r.ok) continue;  // e.g. weights unknown for a config model: not a valid scenario
            ++evaluated;
            ++engines_seen[r.engine == "vllm" ? 0 : r.engine == "llama.cpp" ? 1 : 2];
            INFO("scenario ", i, ": ", r.settings.model_id, std::string(s.config_json.empty() ? "" : " (config.json)"),
                 " mnbt ", s.max_num_batched_tokens.value_or(0), " engine ", s.engine,
                 " ", s.kv_cache_dtype, " tp ", s.tensor_parallel_size, " ", s.gpu, " len ", s.max_model_len,
                 " seqs ", s.max_num_seqs, " util ", s.gpu_memory_utilization, " vram_gb ", s.vram_gb.value_or(0));

            // The max_model_len solver's answer boots; one more token (and one more block) does not.
            const SolveResult len = solve_max_model_len(s);
            if (len.ok) {
                ++len_checked;
                const Report at = predict(at_length(s, len.value));
                REQUIRE(at.ok);
                INFO("at the answer ", len.value, ": ", at.reason);
                CHECK(at.verdict != Verdict::fail);
                if (len.bound == "budget") {
                    const Report plus_one = predict(at_length(s, len.value + 1));
                    CHECK(plus_one.verdict == Verdict::fail);
                    // One more block fails too, also where the fixed terms shrink with the length (vLLM's default
                    // max_num_batched_tokens follows max_num_seqs × max_model_len on short requests): the answer is
                    // the longest length the verdict accepts, not the first boundary.
                    const Report next = predict(at_length(s, len.value + at.terms.block_tokens));
                    CHECK(next.verdict == Verdict::fail);
                }
            } else {
                CHECK(predict(at_length(s, 1)).verdict == Verdict::fail);
            }
            // The start-up line's estimated maximum model length is that answer.
            if (r.startup.available && r.startup.refuses_to_start && r.startup.estimated_max_model_len > 0) {
                ++estimate_checked;
                REQUIRE(len.ok);
                CHECK(r.startup.estimated_max_model_len == len.value);
            }
            // The booting verdict and the engine's refusal are the same statement.
            // (A KV dtype the card has no kernel for also fails, while the byte count alone would boot.)
            if (r.startup.available && r.engine == "vllm" && r.terms.kv_dtype_runs)
                CHECK(r.startup.refuses_to_start == (r.verdict == Verdict::fail));

            // The max_num_seqs solver equals ⌊predicted concurrency⌋ (vLLM's "Maximum concurrency", SGLang's pool
            // over max_model_len). Under vLLM's start-up accounting the non-KV terms grow with max_num_seqs, so
            // there the answer is checked at itself: n requests fit, n + 1 do not.
            if (!r.terms.kv_dtype_runs) {  // no kernel on the card: nothing boots, whatever the byte count
                CHECK(r.verdict == Verdict::fail);
                CHECK_FALSE(solve_max_num_seqs(s).ok);
            } else if (r.engine != "llama.cpp" && r.terms.kv_one_sequence_bytes > 0) {
                ++seqs_checked;
                const SolveResult seqs = solve_max_num_seqs(s);
                const std::int64_t n = seqs.ok ? seqs.value : 0;
                if (n == 65536) {
                    CHECK(r.terms.max_concurrency >= 65536.0);  // the solver's limit
                } else if (r.non_kv_model.rfind("vLLM", 0) != 0) {
                    CHECK(n == static_cast<std::int64_t>(std::floor(r.terms.max_concurrency)));
                } else if (n > 0 && n < 65536) {
                    CHECK(predict(at_seqs(s, n)).terms.max_concurrency >= static_cast<double>(n));
                    CHECK(predict(at_seqs(s, n + 1)).terms.max_concurrency < static_cast<double>(n + 1));
                }
            }

            // The cache buckets are shares of the KV the verdict priced (the engine's plan), nothing else.
            {
                std::int64_t sum = 0;
                for (const auto& b : r.buckets) sum += b.kv_bytes_per_card;
                CHECK(sum == r.terms.kv_requested_bytes);
            }

            // Under vLLM's default max_num_seqs, a shopping list of a >= 70 GiB card (1024 sequences) and a smaller
            // one (256) gives each row its own card's defaults: the row is predict() on that card.
            if (s.max_num_seqs == 0 && i % 2 == 0) {
                const GpuSpec& big = gen.pick(big_cards);
                const GpuSpec& small = gen.pick(small_cards);
                const auto rows = shopping(s, {big, small}, {s.tensor_parallel_size});
                REQUIRE(rows.size() == 2);
                for (const ShopRow& row : rows) {
                    Scenario one = s;
                    one.gpu = row.gpu_id;
                    one.vram_gb.reset();
                    one.gpus = 0;
                    const Report direct = predict(one);
                    INFO("default-seqs row on ", row.gpu_id, ": ", direct.reason);
                    CHECK(rows[0].valid == rows[1].valid);
                    if (!direct.ok || !row.valid) continue;
                    ++default_rows_checked;
                    CHECK(row.verdict == direct.verdict);
                    CHECK(row.max_concurrency == doctest::Approx(direct.terms.max_concurrency));
                    const SolveResult at_card = solve_max_model_len(one);
                    CHECK(row.max_model_len == (at_card.ok ? at_card.value : 0));
                }
            }

            // The GPU-shopping row for this (GPU, count, format) is predict() of that scenario.
            if (i % 4 == 0 && !s.gpu.empty()) {
                ++shop_checked;
                const GpuSpec& gpu = *find_gpu(s.gpu);
                const auto rows = shopping(s, {gpu}, {s.tensor_parallel_size});
                REQUIRE(rows.size() == 1);
                Scenario one = s;
                one.gpus = 0;
                const Report direct = predict(one);
                CHECK(rows[0].valid == direct.ok);
                if (direct.ok) {
                    CHECK(rows[0].verdict == direct.verdict);
                    CHECK(rows[0].max_concurrency == doctest::Approx(direct.terms.max_concurrency));
                    CHECK(rows[0].max_model_len == (len.ok ? len.value : 0));
                }
            }
        }
        MESSAGE("evaluated ", evaluated, " of ", kScenarios, " scenarios (vLLM ", engines_seen[0], ", llama.cpp ",
                engines_seen[1], ", SGLang ", engines_seen[2], "); max_model_len checks ", len_checked,
                ", estimated-length checks ", estimate_checked, ", max_num_seqs checks ", seqs_checked,
                ", shopping rows ", shop_checked, ", default-seqs shopping rows ", default_rows_checked);
        CHECK(evaluated >= kScenarios * 9 / 10);
        CHECK(estimate_checked >= 900);  // 951: scenarios whose KV dtype has no kernel on the card have no estimate
        CHECK(default_rows_checked >= 200);
        for (int e : engines_seen) CHECK(e > kScenarios / 5);
    }
}
