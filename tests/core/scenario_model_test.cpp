// copy_model_fields / use_catalog_model (base/scenario.h): the model half of a scenario moves as one unit. The
// checkpoint is RedHatAI/Meta-Llama-3-8B-Instruct-FP8's real config.json and safetensors index
// (tests/data/checkpoints/SOURCES.tsv); the log is vLLM 0.10.2's llava boot (tests/data/startup_logs).
#include <doctest/doctest.h>

#include "kvcalc/base/scenario.h"
#include "kvcalc/io/startup_calibration.h"
#include "kvcalc/io/startup_log.h"
#include "test_data.h"

namespace {

kvcalc::Scenario hub_checkpoint() {
    kvcalc::Scenario s;
    s.config_json = kvcalc::test::data_file("checkpoints/meta-llama-3-8b-instruct-fp8/config.json");
    s.safetensors_index_json = kvcalc::test::data_file("checkpoints/meta-llama-3-8b-instruct-fp8/model.safetensors.index.json");
    s.hub_model = "RedHatAI/Meta-Llama-3-8B-Instruct-FP8";
    s.gpu = "h100-80gb";
    return s;
}

}  // namespace

TEST_SUITE("scenario model fields") {
    TEST_CASE("a Hub checkpoint copied beside a log keeps its repo and its index, so the link keeps hf=") {
        const kvcalc::Scenario page = hub_checkpoint();
        kvcalc::Scenario boot;
        boot.max_model_len = 4096;
        kvcalc::copy_model_fields(page, boot);
        CHECK(boot.hub_model == "RedHatAI/Meta-Llama-3-8B-Instruct-FP8");
        CHECK(boot.safetensors_index_json == page.safetensors_index_json);
        CHECK(boot.config_json == page.config_json);
        CHECK(boot.max_model_len == 4096);  // the serving half is not the model's
        CHECK(boot.gpu.empty());
        boot.gpu = "h100-80gb";
        const kvcalc::StartupLog log = kvcalc::read_startup_log(kvcalc::test::data_file("startup_logs/vllm-0.10.2-v1-llava-mistral-7b-h100.log"));
        const kvcalc::StartupCalibration c = kvcalc::calibrate_from_log(boot, log, true);
        REQUIRE(c.ok);
        CHECK(c.scenario.hub_model == "RedHatAI/Meta-Llama-3-8B-Instruct-FP8");
        CHECK(c.scenario.safetensors_index_json == page.safetensors_index_json);
    }

    TEST_CASE("naming a catalog model forgets every other source of the model") {
        kvcalc::Scenario s = hub_checkpoint();
        s.weights_variant = "fp8";
        s.weights_gb = 9.08;
        s.weights_dtype = "fp8";
        s.compose = "dual-turbo";
        kvcalc::use_catalog_model(s, "llama-3.1-8b");
        CHECK(s.model_id == "llama-3.1-8b");
        CHECK(s.config_json.empty());
        CHECK(s.safetensors_index_json.empty());
        CHECK(s.hub_model.empty());
        CHECK(s.weights_variant.empty());
        CHECK_FALSE(s.weights_gb);
        CHECK(s.weights_dtype.empty());
        CHECK(s.compose.empty());
        CHECK(s.gpu == "h100-80gb");
    }
}
