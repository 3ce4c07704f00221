// A calibrated scenario through the JSON API ("startup_log", "measured") and in a link (`mt`), on the real
// RTX 3090 boot of tests/data/startup_logs/vllm-0.6.4-v0-llama31-8b-3090-20k.log (vLLM issue 10517): it printed
// 14.9888 GB of weights, total 23.58 GiB × 0.90, torch peak 17.06 GiB with the weights, non-torch 0.35 GiB and a
// 3.81 GiB pool.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "kvcalc/deployment/predict.h"
#include "kvcalc/io/api.h"
#include "kvcalc/io/startup_calibration.h"
#include "kvcalc/io/startup_calibration_json.h"
#include "kvcalc/io/url_codec.h"
#include "test_data.h"

namespace {

using nlohmann::json;

std::string boot_log() { return kvcalc::test::data_file("startup_logs/vllm-0.6.4-v0-llama31-8b-3090-20k.log"); }

const json* row(const json& rows, const std::string& name) {
    for (const json& r : rows)
        if (r["name"] == name) return &r;
    return nullptr;
}

bool has_code(const json& diagnostics, const std::string& code) {
    for (const json& d : diagnostics)
        if (d["code"] == code) return true;
    return false;
}

}  // namespace

TEST_SUITE("startup calibration JSON") {
    TEST_CASE("the API's startup_log: the calibrated report and each printed line beside kvcalc's") {
        const json req{{"model", "llama-3.1-8b"}, {"gpu", "rtx-3090"}, {"startup_log", boot_log()}};
        const json out = json::parse(kvcalc::evaluate_json(req.dump()));
        REQUIRE(out["ok"] == true);
        CHECK(std::abs(out["startup"]["available_kv_gib"].get<double>() - 3.81) <= 0.005);
        CHECK(out["settings"]["max_model_len"] == 20000);
        const json& log = out["log"];
        CHECK(log["engine"] == "vllm");
        CHECK(log["measured"]["max_model_len"] == 20000);
        CHECK(log["measured"]["cuda_total_gib"].get<double>() == doctest::Approx(23.58));
        const json* pool = row(log["comparison"], "available_kv_cache_gib");
        REQUIRE(pool);
        CHECK((*pool)["printed"].get<double>() == doctest::Approx(3.81));
        CHECK((*pool)["line"] == 5);
        CHECK(std::abs((*pool)["difference"].get<double>()) <= 0.005);
        // kvcalc's own terms for this boot (V0 accounting, no log): 3.87 GiB, 0.06 over the printed pool.
        CHECK(std::abs((*pool)["predicted"].get<double>() - 3.87) <= 0.005);
        const json* peak = row(log["comparison"], "peak_torch_memory_gib");
        REQUIRE(peak);
        CHECK(std::abs((*peak)["calibrated"].get<double>() - 17.06) <= 0.005);
    }

    TEST_CASE("a log with errors fails the request, naming it") {
        const json req{{"model", "llama-3.1-8b"}, {"startup_log", std::string("\x01\x02\x03\x04 not a log")}};
        const json out = json::parse(kvcalc::evaluate_json(req.dump()));
        CHECK(out["ok"] == false);
        CHECK(has_code(out["diagnostics"], "log_not_priced"));
        const json bad{{"startup_log", 42}};
        CHECK(json::parse(kvcalc::evaluate_json(bad.dump()))["diagnostics"][0]["field"] == "startup_log");
    }

    TEST_CASE("measured terms as a request key: read back, range-checked") {
        const json req{{"model", "llama-3.1-8b"},
                       {"gpu", "rtx-3090"},
                       {"max_model_len", 20000},
                       {"vllm_version", "V0"},
                       {"measured",
                        {{"max_model_len", 20000}, {"gpu_memory_utilization", 0.9}, {"cuda_total_gib", 23.58},
                         {"weights_gib", 14.9888}, {"torch_peak_gib", 2.0712}, {"non_torch_gib", 0.35},
                         {"available_kv_gib", 3.81}}}};
        const json out = json::parse(kvcalc::evaluate_json(req.dump()));
        REQUIRE(out["ok"] == true);
        CHECK(std::abs(out["startup"]["available_kv_gib"].get<double>() - 3.81) <= 0.005);
        json bad = req;
        bad["measured"]["weights_gib"] = -1;
        const json err = json::parse(kvcalc::evaluate_json(bad.dump()));
        CHECK(err["ok"] == false);
        CHECK(err["diagnostics"][0]["field"] == "measured.weights_gib");
    }

    TEST_CASE("a calibrated scenario travels in a link as its measured terms, not the log") {
        kvcalc::Scenario user;
        user.model_id = "llama-3.1-8b";
        user.gpu = "rtx-3090";
        const kvcalc::StartupCalibration c =
            kvcalc::calibrate_from_log(user, kvcalc::read_startup_log(boot_log()), true);
        REQUIRE(c.scenario.measured);
        const std::string query = kvcalc::encode_query(c.scenario);
        CHECK(query.find("mt=") != std::string::npos);
        CHECK(query.find("Memory") == std::string::npos);  // no log text
        kvcalc::Diagnostics d;
        const kvcalc::Scenario back = kvcalc::decode_query(query, d);
        CHECK(d.empty());
        REQUIRE(back.measured);
        CHECK(back.measured->max_model_len == 20000);
        CHECK(std::llabs(*back.measured->available_kv_bytes - *c.scenario.measured->available_kv_bytes) < 1000);
        const kvcalc::Report a = kvcalc::predict(c.scenario), b = kvcalc::predict(back);
        REQUIRE(a.ok);
        REQUIRE(b.ok);
        CHECK(std::abs(a.startup.available_kv_gib - b.startup.available_kv_gib) < 1e-6);
        // An unreadable pair drops the key with a warning: kvcalc's own terms are priced.
        kvcalc::Diagnostics w;
        const kvcalc::Scenario broken = kvcalc::decode_query("v=2&m=llama-3.1-8b&mt=kv:abc", w);
        CHECK_FALSE(broken.measured);
        REQUIRE(w.size() == 1);
        CHECK(w[0].field == "url.mt");
    }
}
