#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "kvcalc/io/api.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/base/json_safety.h"

using nlohmann::json;

TEST_SUITE("json_safety") {
    TEST_CASE("nesting depth is counted outside strings only") {
        // { [ { [ : four levels
        CHECK_FALSE(kvcalc::json_too_deep(R"({"a": [1, {"b": [2]}]})", 4));
        CHECK(kvcalc::json_too_deep(R"({"a": [1, {"b": [2]}]})", 3));
        CHECK_FALSE(kvcalc::json_too_deep(R"({"s": "[[[[[[[[[[\"[[[["})", 1));
    }
    TEST_CASE("a 100,000-deep request is an error document, not a stack overflow") {
        // Regression (QA): the wrong-type message printed the value recursively and crashed at this depth.
        const std::string deep = "{\"vram_gb\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
        const json out = json::parse(kvcalc::evaluate_json(deep));
        CHECK(out["ok"] == false);
        CHECK(out["diagnostics"][0]["code"] == "too_deep");
    }
    TEST_CASE("a 100,000-deep config.json is a diagnostic") {
        const std::string deep = "{\"num_hidden_layers\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
        const kvcalc::HfConfig cfg = kvcalc::read_hf_config(deep);
        REQUIRE_FALSE(cfg.diagnostics.empty());
        CHECK(cfg.diagnostics[0].code == "too_deep");
    }
    TEST_CASE("invalid UTF-8 in a request value comes back as U+FFFD, not an exception") {
        // Regression (QA): a model id of raw bytes 0xFF 0xFE made nlohmann's dump() throw (type_error.316).
        std::string req = "{\"model\":\"";
        req += '\xff';
        req += '\xfe';
        req += "\"}";
        const std::string out_text = kvcalc::evaluate_json(req);
        const json out = json::parse(out_text, nullptr, false);
        REQUIRE_FALSE(out.is_discarded());
        CHECK(out["ok"] == false);
    }
    TEST_CASE("NaN is not JSON, and the message says so") {
        const json out = json::parse(kvcalc::evaluate_json(R"({"vram_gb": NaN})"));
        CHECK(out["ok"] == false);
        CHECK(out["diagnostics"][0]["message"].get<std::string>().find("not valid JSON") != std::string::npos);
    }
    TEST_CASE("a number past a double's range names the key it is the value of") {
        // reliability-2 N12: "1e400" named the byte and the number but not the key.
        const kvcalc::HfConfig cfg = kvcalc::read_hf_config(
            R"({"num_hidden_layers": 2, "hidden_size": 64, "rope_theta": 1e400, "vocab_size": 100})");
        REQUIRE_FALSE(cfg.diagnostics.empty());
        const std::string m = cfg.diagnostics[0].message;
        CHECK(m.find("1e400") != std::string::npos);
        CHECK(m.find("\"rope_theta\"") != std::string::npos);
    }
    TEST_CASE("a UTF-16 request or config.json is named as UTF-16, not as an invalid literal") {
        // reliability-2 N12: Windows editors save UTF-16 (byte order mark FF FE, then NUL after each ASCII byte).
        static const char utf16le_bytes[] = "\xff\xfe{\0\"\0v\0\"\0:\0 \0001\0}\0";
        const std::string utf16le(utf16le_bytes, sizeof utf16le_bytes - 1);  // 18 bytes: BOM + 8 UTF-16LE units
        const json out = json::parse(kvcalc::evaluate_json(utf16le));
        CHECK(out["ok"] == false);
        CHECK(out["diagnostics"][0]["message"].get<std::string>().find("UTF-16") != std::string::npos);
        static const char no_bom_bytes[] = "{\0\"\0";
        const std::string no_bom(no_bom_bytes, sizeof no_bom_bytes - 1);
        const kvcalc::HfConfig cfg = kvcalc::read_hf_config(no_bom);
        REQUIRE_FALSE(cfg.diagnostics.empty());
        CHECK(cfg.diagnostics[0].message.find("must be UTF-8") != std::string::npos);
        CHECK(kvcalc::json_error_detail("[1, 2]").empty());
    }
}
