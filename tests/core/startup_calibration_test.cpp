// Calibration from a start-up log, on the real logs in tests/data/startup_logs (each names its source). The
// printed values below are read off the log text; the model and card of each boot are the ones its source names,
// or a stand-in where the source names none (the pool a boot printed does not depend on which model kvcalc
// prices it with, its split between the unprinted terms does).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>

#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/io/startup_calibration.h"
#include "kvcalc/io/startup_log.h"
#include "test_data.h"

namespace {

using kvcalc::Scenario;
using kvcalc::StartupLog;

std::string log_file(const std::string& name) { return kvcalc::test::data_file("startup_logs/" + name); }

/// What the user would give beside the log: the model (and card) its source names.
struct Boot {
    const char* model;
    const char* gpu;       ///< "" = the log's CUDA total, or kvcalc's 24 GB default
    int tp = 1;
    bool stand_in = false; ///< the source does not name the model: a catalog model of its kind prices it
    const char* weights_dtype = "";
};

// Every vLLM log that prints its pool ("Available KV cache memory", V0's KV cache size).
const std::map<std::string, Boot>& boots() {
    static const std::map<std::string, Boot> b = {
        {"vllm-0.6.4-v0-llama31-8b-3090-20k.log", {"llama-3.1-8b", "rtx-3090"}},
        {"vllm-0.6.4-v0-llama31-8b-3090-29k-refusal.log", {"llama-3.1-8b", "rtx-3090"}},
        {"vllm-0.6.5-v0-table-llama3-8b-h100.log", {"llama-3.1-8b", "h100-80gb"}},  // Meta-Llama-3-8B: same widths
        {"vllm-0.7-v0-llama32-11b-vision-h100.log", {"llama-3.1-8b", "h100-80gb", 1, true}},
        {"vllm-0.8-v0-interleaved-workers-3090.log", {"llama-3.1-70b", "rtx-3090", 4, true}},
        {"vllm-0.10.2-v1-llava-mistral-7b-h100.log", {"mistral-7b-v0.1", "h100-80gb", 1, true}},
        // "Not enough SMs to use max_autotune_gemm", 21.42 GiB of weights and a 71.15 GiB pool at utilization 0.85:
        // more than a 96 GiB card holds, a GB10's unified memory.
        {"vllm-0.21-v1-cudagraph-estimate-mtp.log", {"qwen3-next-80b-a3b", "dgx-spark", 1, true}},
        // DeepSeek V4 on two SM120 cards: an MLA model of the catalog stands in.
        {"vllm-0.21-v1-tp2-workers-dsv4.log", {"deepseek-v2-lite", "rtx-pro-6000-blackwell", 2, true}},
        {"vllm-v1-fp8kv-two-runs-issue25350.log", {"qwen3-8b", "h100-80gb", 1, true}},
        {"vllm-v1-qwen3-235b-fp8-tp4-issue21348.log", {"qwen3-235b-a22b", "h100-80gb", 4, false, "fp8"}},
        {"vllm-v1-xpu-kv-cache-memory-bytes-wrapped.log", {"qwen3-8b", "rtx-pro-6000-blackwell", 1, true}},
    };
    return b;
}

Scenario user_scenario(const Boot& b) {
    Scenario s;
    s.model_id = b.model;
    s.gpu = b.gpu;
    s.tensor_parallel_size = b.tp;
    s.weights_dtype = b.weights_dtype;
    // A stand-in's derived maximum may be shorter than the boot's length.
    s.allow_long_max_model_len = b.stand_in;
    return s;
}

kvcalc::StartupCalibration calibrated(const std::string& text, const Boot& b) {
    const StartupLog log = kvcalc::read_startup_log(text);
    REQUIRE(log.ok);
    return kvcalc::calibrate_from_log(user_scenario(b), log, true);
}

double printed_pool_gib(const std::string& text) {
    const StartupLog log = kvcalc::read_startup_log(text);
    const kvcalc::LogFact* f = kvcalc::find_fact(log, "available_kv_cache_gib");
    REQUIRE(f);
    return f->value;
}

// The two boots of the two-runs log, each as its own text (its second boot has no banner for the reader to split at).
std::pair<std::string, std::string> two_runs() {
    const std::string text = log_file("vllm-v1-fp8kv-two-runs-issue25350.log");
    const std::size_t at = text.find("with kv-cache-dtype fp8 and --max-model-len 221000");
    REQUIRE(at != std::string::npos);
    return {text.substr(0, at), text.substr(at)};
}

}  // namespace

TEST_SUITE("startup calibration") {
    TEST_CASE("the calibrated prediction of each boot prints the boot's own pool within 0.02 GiB") {
        int checked = 0;
        double worst = 0;
        for (const auto& entry : std::filesystem::directory_iterator(std::string(KVCALC_TEST_DATA_DIR) + "/startup_logs")) {
            const std::string name = entry.path().filename().string();
            const std::string text = log_file(name);
            const StartupLog log = kvcalc::read_startup_log(text);
            if (log.engine != kvcalc::LogEngine::vllm || !kvcalc::find_fact(log, "available_kv_cache_gib")) continue;
            CAPTURE(name);
            REQUIRE_MESSAGE(boots().count(name), "a vLLM log that prints its pool needs its boot in boots()");
            std::vector<std::string> texts{text};
            if (name == "vllm-v1-fp8kv-two-runs-issue25350.log") texts = {two_runs().first, two_runs().second};
            for (const std::string& t : texts) {
                const kvcalc::StartupCalibration c = calibrated(t, boots().at(name));
                REQUIRE(c.ok);
                REQUIRE(c.scenario.measured);
                const kvcalc::Report r = kvcalc::predict(c.scenario);
                REQUIRE_MESSAGE(r.ok, (r.diagnostics.empty() ? std::string() : r.diagnostics.front().message));
                for (const auto& d : r.diagnostics) CHECK_MESSAGE(d.code != "measured_over_budget", d.message);
                const double error = std::abs(r.startup.available_kv_gib - printed_pool_gib(t));
                CHECK(error <= 0.02);
                worst = std::max(worst, error);
                ++checked;
            }
        }
        CHECK(checked == 12);  // 11 logs, one of them two boots
        // The log prints the pool to 0.01 GiB and kvcalc gives it back from the printed terms: the worst error is
        // the rounding of the terms the boot printed, well inside the acceptance's 0.02 GiB.
        MESSAGE("calibrated pool vs printed: " << checked << " boots, worst error " << worst << " GiB");
        CHECK(worst <= 0.005 + 1e-9);
    }

    TEST_CASE("V0 on an RTX 3090: the 20k boot priced at 29000 tokens is the 29k boot (issue 10517's pair)") {
        // Same machine, model and flags; V0's default batch is max(max_model_len, 2048), so the profile's torch
        // peak grows with the length: 17.06 GiB (weights included) at 20000, 17.98 at 29000; pools 3.81 / 2.89 GiB.
        const Boot b{"llama-3.1-8b", "rtx-3090"};
        Scenario what_if = calibrated(log_file("vllm-0.6.4-v0-llama31-8b-3090-20k.log"), b).scenario;
        CHECK(what_if.max_model_len == 20000);
        CHECK(what_if.measured->max_model_len == 20000);
        what_if.max_model_len = 29000;
        const kvcalc::Report r = kvcalc::predict(what_if);
        REQUIRE(r.ok);
        CHECK(std::abs(r.startup.available_kv_gib - 2.89) <= 0.02);
        const double peak_gib = static_cast<double>(r.terms.weights_bytes + r.terms.activation_bytes) / (1 << 30);
        CHECK(std::abs(peak_gib - 17.98) <= 0.02);
        // "The model's max seq len (29000) is larger than the maximum number of tokens that can be stored in KV
        // cache (23648)": the boot refuses.
        CHECK(r.startup.refuses_to_start);
        CHECK(r.verdict == kvcalc::Verdict::fail);
        // And the other way: the 29k boot priced at 20000 tokens is the 20k boot.
        Scenario back = calibrated(log_file("vllm-0.6.4-v0-llama31-8b-3090-29k-refusal.log"), b).scenario;
        back.max_model_len = 20000;
        const kvcalc::Report r20 = kvcalc::predict(back);
        REQUIRE(r20.ok);
        CHECK(std::abs(r20.startup.available_kv_gib - 3.81) <= 0.02);
        CHECK_FALSE(r20.startup.refuses_to_start);
    }

    TEST_CASE("V0 on an RTX 3090: the longest length that boots is above 32K, and the lengths the 29k boot refused are named") {
        // Issue 10517's pair: 20,000 tokens boots, 29,000 refuses ("larger than the maximum number of tokens that
        // can be stored in KV cache (23648)"). V0 turns chunked prefill on above 32,768 tokens, where the profile
        // batch is 2048 again, so the longest length that boots lies above a range that does not.
        const Boot b{"llama-3.1-8b", "rtx-3090"};
        const Scenario at20k = calibrated(log_file("vllm-0.6.4-v0-llama31-8b-3090-20k.log"), b).scenario;
        const kvcalc::SolveResult s = kvcalc::solve_max_model_len(at20k);
        REQUIRE(s.ok);
        CHECK(s.value > 32768);
        CHECK(s.refused_to == 32768);
        CHECK(s.refused_from <= 29000);  // the logged refusal lies inside the range said not to boot
        CHECK(s.fits_below >= 20000);    // and the logged boot below it
        CHECK(s.refused_from == s.fits_below + 1);
        bool said = false;
        for (const auto& d : s.diagnostics) said = said || (d.code == "solve_gap" && d.message.find("32,768") != std::string::npos);
        CHECK(said);
        // Each end of the ranges as predict() prices it.
        Scenario at = at20k;
        for (const std::int64_t len : {s.fits_below, s.refused_from, s.refused_to, s.value}) {
            at.max_model_len = len;
            CAPTURE(len);
            const bool boots = !kvcalc::predict(at).startup.refuses_to_start;
            CHECK(boots == (len == s.fits_below || len == s.value));
        }
    }

    TEST_CASE("what a change moves: the budget with gpu_memory_utilization, the torch peak with the batch") {
        const Boot b{"llama-3.1-8b", "rtx-3090"};
        const Scenario boot = calibrated(log_file("vllm-0.6.4-v0-llama31-8b-3090-20k.log"), b).scenario;
        const kvcalc::Report base = kvcalc::predict(boot);
        REQUIRE(base.ok);
        // 0.95 instead of 0.90 of the measured 23.58 GiB total: 1.179 GiB more pool, nothing else moves.
        Scenario util = boot;
        util.gpu_memory_utilization = 0.95;
        const kvcalc::Report u = kvcalc::predict(util);
        REQUIRE(u.ok);
        CHECK(std::abs(u.startup.available_kv_gib - base.startup.available_kv_gib - 0.05 * 23.58) <= 0.001);
        CHECK(u.terms.activation_bytes == base.terms.activation_bytes);
        // Another KV dtype changes only the cache's bytes per token: the pool stays (fp8_e5m2 runs on sm_86).
        Scenario fp8 = boot;
        fp8.kv_cache_dtype = "fp8_e5m2";
        const kvcalc::Report f = kvcalc::predict(fp8);
        REQUIRE(f.ok);
        CHECK(f.startup.available_kv_bytes == base.startup.available_kv_bytes);
        CHECK(f.startup.max_concurrency > 1.9 * base.startup.max_concurrency);
        // A larger max_num_batched_tokens raises the torch peak, a smaller one lowers it.
        Scenario batch = boot;
        batch.max_num_batched_tokens = 40000;
        const kvcalc::Report big = kvcalc::predict(batch);
        REQUIRE(big.ok);
        CHECK(big.terms.activation_bytes > base.terms.activation_bytes);
        CHECK(big.startup.available_kv_bytes < base.startup.available_kv_bytes);
        // The solvers price the same calibrated terms: the longest length that boots fits in the pool that boots.
        const kvcalc::SolveResult ctx = kvcalc::solve_max_model_len(boot);
        REQUIRE(ctx.ok);
        Scenario at = boot;
        at.max_model_len = ctx.value;
        CHECK(kvcalc::predict(at).verdict != kvcalc::Verdict::fail);
        at.max_model_len = ctx.value + 1000;
        CHECK(kvcalc::predict(at).startup.refuses_to_start);
    }

    TEST_CASE("the log fills what the user left open and names its lines") {
        Scenario user;
        user.model_id = "llama-3.1-8b";
        const StartupLog log = kvcalc::read_startup_log(log_file("vllm-0.10.2-v1-llava-mistral-7b-h100.log"));
        const kvcalc::StartupCalibration c = kvcalc::calibrate_from_log(user, log, true);
        REQUIRE(c.ok);
        CHECK(c.scenario.max_model_len == 4096);
        CHECK(c.scenario.max_num_batched_tokens == 16384);
        CHECK(c.scenario.gpu_memory_utilization == doctest::Approx(0.9));
        CHECK(c.scenario.vllm_version == "0.10.2");
        REQUIRE(c.scenario.vram_gib);
        // The printed total as it reads ("79.19 GiB"), so the page and a link show vgib=79.19, not 79.190000000224.
        CHECK(*c.scenario.vram_gib == 79.19);
        // "Actual usage is 14.08 GiB for weight, 1.97 GiB for peak activation, 0.07 GiB for non-torch memory"
        const kvcalc::MeasuredTerms& m = *c.scenario.measured;
        CHECK(static_cast<double>(*m.weights_bytes) / (1 << 30) == doctest::Approx(14.08));
        CHECK(static_cast<double>(*m.torch_peak_bytes) / (1 << 30) == doctest::Approx(1.97));
        CHECK(static_cast<double>(*m.non_torch_bytes) / (1 << 30) == doctest::Approx(0.07));
        CHECK(static_cast<double>(*m.available_kv_bytes) / (1 << 30) == doctest::Approx(55.15));
        CHECK_FALSE(m.cudagraph_bytes);  // 0.10.2 does not subtract its graphs from the budget
        // A setting the user gave stays theirs.
        user.max_model_len = 8192;
        CHECK(kvcalc::calibrate_from_log(user, log, true).scenario.max_model_len == 8192);
        CHECK(kvcalc::calibrate_from_log(user, log, true).scenario.measured->max_model_len == 4096);
        // The model the log serves is not in the catalog: the user's stays, with a warning.
        const kvcalc::StartupCalibration open = kvcalc::calibrate_from_log(Scenario{}, log, false);
        bool warned = false;
        for (const auto& d : open.diagnostics) warned = warned || d.code == "log_model_unknown";
        CHECK(warned);
    }

    TEST_CASE("a log with errors is not priced from") {
        const StartupLog log = kvcalc::read_startup_log("\x01\x02\x03 binary");
        const kvcalc::StartupCalibration c = kvcalc::calibrate_from_log(Scenario{}, log, false);
        CHECK_FALSE(c.ok);
        CHECK_FALSE(c.scenario.measured);
    }

    TEST_CASE("--kv-cache-memory-bytes: the pool is the flag's whatever the utilization") {
        const Boot b{"qwen3-8b", "rtx-pro-6000-blackwell", 1, true};
        Scenario s = calibrated(log_file("vllm-v1-xpu-kv-cache-memory-bytes-wrapped.log"), b).scenario;
        REQUIRE(s.measured);
        CHECK(s.measured->kv_cache_memory_fixed);
        s.gpu_memory_utilization = 0.5;
        const kvcalc::Report r = kvcalc::predict(s);
        REQUIRE(r.ok);
        CHECK(std::abs(r.startup.available_kv_gib - 4.25) <= 0.005);
        // "(4.26 GiB KV cache is needed, which is larger than the available KV cache memory (4.25 GiB)"
        CHECK(r.startup.refuses_to_start);
    }
}
