// echo_cut (kvcalc/base/echo.h) and the bidi escapes of dump_safe (json_safety.h): what a message repeats of
// a user's value.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "kvcalc/base/echo.h"
#include "kvcalc/base/json_safety.h"
#include "kvcalc/io/api.h"

using namespace kvcalc;
using nlohmann::json;

TEST_SUITE("echo") {
    TEST_CASE("a value longer than 64 bytes is cut to 64 bytes and an ellipsis") {
        CHECK(echo_cut(std::string(100000, 'a')) == std::string(64, 'a') + "…");
        CHECK(echo_cut(std::string(64, 'b')) == std::string(64, 'b'));
        // 63 ASCII bytes then "×" (2 bytes, C3 97): byte 64 is inside the character, so the cut is before it.
        CHECK(echo_cut(std::string(63, 'c') + "×x") == std::string(63, 'c') + "…");
    }

    TEST_CASE("bidi controls become '?': U+202E, U+2066, U+200F, U+061C") {
        CHECK(echo_cut("a\u202Eb\u2066c\u200Fd\u061Ce") == "a?b?c?d?e");
        CHECK(echo_cut("×≥日本") == "×≥日本");  // other non-ASCII text stays
    }

    TEST_CASE("dump_safe writes bidi controls as \\u escapes, which read back as the same string") {
        const json j = {{"name", "\u202ELlama"}};
        const std::string text = dump_safe(j);
        CHECK(text == R"({"name":"\u202eLlama"})");
        CHECK(json::parse(text)["name"] == "\u202ELlama");
    }

    TEST_CASE("a 100 KB weights_dtype is echoed as 64 bytes") {
        const std::string dtype(100000, 'z');
        const json out = json::parse(evaluate_json(
            json{{"model_id", "llama-3.1-8b"}, {"gpu", "h100-80gb"}, {"max_model_len", 8192}, {"weights_dtype", dtype}}
                .dump()));
        CHECK(out["ok"] == false);
        for (const auto& d : out["diagnostics"]) {
            const std::string m = d["message"];
            CHECK(m.find(std::string(65, 'z')) == std::string::npos);
        }
        CHECK(out.dump().size() < 4000);
    }

    TEST_CASE("unknown compose and unknown keys are cut too") {
        const json out = json::parse(evaluate_json(
            json{{"model_id", "llama-3.1-8b"}, {"compose", std::string(5000, 'q')}, {std::string(5000, 'k'), 1}}.dump()));
        for (const auto& d : out["diagnostics"]) {
            const std::string m = d["message"];
            CHECK(m.find(std::string(65, 'q')) == std::string::npos);
            CHECK(m.find(std::string(65, 'k')) == std::string::npos);
        }
    }
}
