// The scenario field table drives JSON, links and flags alike: for every row, each path accepts the range's ends
// and rejects the values just outside, naming the same valid range. A range edited in one place only cannot pass.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "flags.h"
#include "kvcalc/io/api.h"
#include "kvcalc/io/json_io.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/scenario_fields.h"
#include "kvcalc/io/url_codec.h"

using kvcalc::FieldType;
using kvcalc::ScenarioField;

namespace {

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

struct Probe {
    double value;
    bool valid;
};

/// The ends of the row's range and the values just beyond them (0 where it is a sentinel).
std::vector<Probe> probes(const ScenarioField& f) {
    std::vector<Probe> out;
    const double inf = std::numeric_limits<double>::infinity();
    if (f.type == FieldType::integer) {
        out = {{f.min, true}, {f.max, true}, {f.max + 1, false}};
        if (*f.zero_means && f.min - 1 == 0) out.push_back({0, true}), out.push_back({-1, false});
        else out.push_back({f.min - 1, false});
    } else {
        out = {{f.max, true}, {std::nextafter(f.max, inf), false}, {std::nextafter(f.min, -inf), false}};
        if (f.min_open) out.push_back({std::nextafter(f.min, inf), true}), out.push_back({f.min, *f.zero_means && f.min == 0});
        else out.push_back({f.min, true});
        if (*f.zero_means) out.push_back({0, true});
    }
    return out;
}

std::string text_of(const ScenarioField& f, double v) {
    return f.type == FieldType::integer ? std::to_string(static_cast<long long>(v)) : kvcalc::format_field_number(v);
}

/// The out_of_range errors the core reports on `f` for a scenario read from JSON (read_scenario, then the
/// range checks resolve() runs).
std::vector<std::string> json_range_errors(const ScenarioField& f, double v) {
    nlohmann::json j{{"schema", 1}};
    if (f.type == FieldType::integer) j[f.name] = static_cast<long long>(v);
    else j[f.name] = v;
    kvcalc::Scenario s;
    kvcalc::Diagnostics d;
    kvcalc::read_scenario(j, s, d);
    kvcalc::check_scenario_fields(s, d);
    for (const auto& x : kvcalc::predict(s).diagnostics) d.push_back(x);
    std::vector<std::string> out;
    for (const auto& x : d)
        if (x.severity == kvcalc::Severity::error && x.field == f.name && contains(x.message, "is out of range"))
            out.push_back(x.message);
    return out;
}

}  // namespace

TEST_SUITE("fields") {
    TEST_CASE("every numeric field: JSON, link and flag accept the range's ends and reject just outside") {
        int rows = 0, checks = 0;
        for (const ScenarioField& f : kvcalc::scenario_fields()) {
            if (f.type != FieldType::integer && f.type != FieldType::number) continue;
            ++rows;
            const std::string valid = kvcalc::field_valid_text(f);
            for (const Probe& p : probes(f)) {
                const std::string text = text_of(f, p.value);
                INFO(f.name << " = " << text << (p.valid ? " (valid)" : " (invalid)"));
                ++checks;
                // JSON, and the core's own check of the scenario it gives
                const auto errors = json_range_errors(f, p.value);
                if (p.valid) {
                    CHECK(errors.empty());
                } else {
                    REQUIRE(!errors.empty());
                    CHECK(contains(errors.front(), valid));
                }
                // link
                kvcalc::Diagnostics ud;
                const kvcalc::Scenario from_link = kvcalc::decode_query(std::string("v=2&") + f.url_key + "=" + text, ud);
                if (p.valid) {
                    CHECK(ud.empty());
                    CHECK(kvcalc::field_text(f, from_link) == text);
                } else {
                    REQUIRE(ud.size() == 1);
                    CHECK(contains(ud[0].message, valid));
                    CHECK(kvcalc::field_is_default(f, from_link));
                }
                // flag, under its own name and every alias
                std::vector<std::string> spellings{f.cli_flag};
                for (const char* a : f.cli_aliases) spellings.emplace_back(a);
                for (const auto& flag : spellings) {
                    const kvcli::ParseResult r = kvcli::parse_args({flag, text});
                    if (p.valid) {
                        CHECK_MESSAGE(r.error.empty(), r.error);
                    } else {
                        CHECK(contains(r.error, flag));
                        CHECK(contains(r.error, "'" + text + "'"));
                        CHECK(contains(r.error, valid));
                    }
                }
            }
        }
        CHECK(rows == 24);  // the integer and number rows of scenario_fields.h
        CHECK(checks >= 4 * rows);
    }

    TEST_CASE("every choice field: JSON (the core), link and flag reject a name outside the list, listing the same") {
        int rows = 0;
        for (const ScenarioField& f : kvcalc::scenario_fields()) {
            if (f.type != FieldType::choice) continue;
            ++rows;
            INFO(f.name);
            const std::string list = f.choices.list();
            const std::string bad = "no-such-" + std::string(f.name);
            kvcalc::Diagnostics ud;
            kvcalc::decode_query(std::string("v=2&") + f.url_key + "=" + bad, ud);
            REQUIRE(ud.size() == 1);
            CHECK(contains(ud[0].message, list));
            if (*f.cli_flag) {  // hub_model and hub_gguf have none: --model ORG/NAME and --gguf ORG/NAME/FILE.gguf set them
                const kvcli::ParseResult r = kvcli::parse_args({f.cli_flag, bad});
                CHECK(contains(r.error, bad));
                CHECK(contains(r.error, list));
            }
            // weights_dtype is checked against the model's pricing (a seed model refuses any), not the list
            if (std::string_view(f.name) == "weights_dtype") continue;
            kvcalc::Scenario s;
            kvcalc::Diagnostics d;
            kvcalc::read_scenario(nlohmann::json{{f.name, bad}}, s, d);
            for (const auto& x : kvcalc::predict(s).diagnostics) d.push_back(x);
            bool listed = false;
            for (const auto& x : d) listed = listed || (x.severity == kvcalc::Severity::error && contains(x.message, list));
            CHECK(listed);
        }
        CHECK(rows == 12);  // hub_gguf (gguf=) is the twelfth
    }

    TEST_CASE("the engines' own kv_cache_dtype spellings, in any case, read the same in JSON, links and flags") {
        // vLLM vllm/config/cache.py CacheDType ("fp8 (=fp8_e4m3)" on CUDA and ROCm); SGLang server_args.py
        // kv_cache_dtype choices (bf16, bfloat16); llama.cpp common/arg.cpp --cache-type-k values (f16, q8_0, ...).
        const char* pairs[][2] = {{"bfloat16", "bf16"},  {"float16", "fp16"},        {"fp8", "fp8_e4m3"},
                                  {"FP8_E4M3", "fp8_e4m3"}, {"BFloat16", "bf16"},    {"turboquant_k8v4", "k8v4"},
                                  {"fp8_e5m2", "fp8_e5m2"}, {"f16", "fp16"},         {"Q8_0", "q8_0"},
                                  {"q4_0", "q4_0"},       {"iq4_nl", "iq4_nl"},      {"AUTO", "auto"},
                                  {"nvfp4", "nvfp4"},     {"int8_per_token_head", "int8_per_token_head"}};
        const ScenarioField& row = *kvcalc::find_scenario_field("kv_cache_dtype");
        for (const auto& p : pairs) {
            INFO(p[0]);
            const kvcli::ParseResult r = kvcli::parse_args({"--kv-cache-dtype", p[0]});
            REQUIRE_MESSAGE(r.error.empty(), r.error);
            CHECK(r.options.scenario.kv_cache_dtype == p[1]);
            kvcalc::Diagnostics ud;
            CHECK(kvcalc::decode_query(std::string("v=1&kv=") + p[0], ud).kv_cache_dtype == p[1]);
            CHECK(ud.empty());
            kvcalc::Scenario s;
            kvcalc::Diagnostics d;
            kvcalc::read_scenario(nlohmann::json{{"kv_cache_dtype", p[0]}}, s, d);
            CHECK(s.kv_cache_dtype == p[1]);
            // a Scenario built in code with the engine's spelling resolves the same (resolve() uses the normaliser)
            kvcalc::Scenario raw;
            raw.kv_cache_dtype = p[0];
            raw.gpu = "rtx-4090";
            const kvcalc::Report rep = kvcalc::predict(raw);
            for (const auto& x : rep.diagnostics) {
                const bool kv_error = x.field == "kv_cache_dtype" && x.severity == kvcalc::Severity::error;
                CHECK_MESSAGE(!kv_error, x.message);
            }
            CHECK(kvcalc::canonical_choice(row, p[0]) == p[1]);
        }
        // vLLM's names kvcalc has no size for, and nonsense, stay errors naming the field, the value and the list
        for (const char* bad : {"fp8_inc", "fp4_e2m1", "f32", "fp9"}) {
            const kvcli::ParseResult r = kvcli::parse_args({"--kv-cache-dtype", bad});
            CHECK(contains(r.error, "--kv-cache-dtype"));
            CHECK(contains(r.error, std::string("'") + bad + "'"));
            CHECK(contains(r.error, "bfloat16 = bf16"));
            kvcalc::Scenario s;
            s.kv_cache_dtype = bad;
            bool named = false;
            for (const auto& x : kvcalc::predict(s).diagnostics)
                named = named || (x.field == "kv_cache_dtype" && contains(x.message, bad) && contains(x.message, "fp8_e5m2"));
            CHECK(named);
        }
        // every other choice field is case-insensitive too (engine, GPU and model already were)
        const auto caps = kvcli::parse_args({"--engine", "vLLM", "--indexer-format", "FP8_E4M3", "--gpu", "RTX-4090",
                                             "--weights-dtype", "INT4", "--model", "Llama-3.1-8B"});
        REQUIRE_MESSAGE(caps.error.empty(), caps.error);
        CHECK(caps.options.scenario.indexer_format == "fp8_e4m3");
        CHECK(caps.options.scenario.weights_dtype == "int4");
    }

    TEST_CASE("the --kv-cache-dtype kvcalc prints in a vllm serve line is accepted back as the same format") {
        for (const auto& f : kvcalc::kv_formats()) {
            kvcalc::Scenario s;
            s.model_id = "llama-3.1-8b";
            s.gpu = "b200";  // runs every format kvcalc has (nvfp4 needs sm_100)
            s.kv_cache_dtype = f.name;
            s.max_model_len = 8192;
            const kvcalc::Report rep = kvcalc::predict(s);
            INFO(f.name);
            REQUIRE(rep.ok);
            const std::string key = "--kv-cache-dtype ";
            const auto at = rep.command.find(key);
            REQUIRE(at != std::string::npos);
            const std::string printed = rep.command.substr(at + key.size(), rep.command.find_first_of(" \\\n", at + key.size()) - at - key.size());
            const kvcli::ParseResult back = kvcli::parse_args({"--kv-cache-dtype", printed});
            REQUIRE_MESSAGE(back.error.empty(), back.error);
            // an exact spelling names the same format; a stand-in (the command says so) names the stand-in
            if (rep.command.find("# kvcalc: vLLM has no KV cache format") == std::string::npos)
                CHECK(back.options.scenario.kv_cache_dtype == f.name);
        }
    }

    TEST_CASE("every field round-trips through JSON, and each link and flag name is unique") {
        kvcalc::Scenario s;
        s.model_id = "gemma-4-31b";
        s.vram_gib = 23.5;
        s.max_num_batched_tokens = 8192;
        s.mtp = false;
        s.num_speculative_tokens = 3;
        s.include_draft_kv = true;
        s.weights_dtype = "int4";
        const nlohmann::json j = s;
        kvcalc::Scenario back;
        kvcalc::Diagnostics d;
        kvcalc::read_scenario(j, back, d);
        CHECK(d.empty());
        std::vector<std::string> keys, names;
        for (const ScenarioField& f : kvcalc::scenario_fields()) {
            CHECK_MESSAGE(kvcalc::field_text(f, back) == kvcalc::field_text(f, s), f.name);
            const std::string_view name = f.name;  // the model, the preset label and an empty config.json aside
            if (f.type != FieldType::object && name != "compose" && name != "config_json") CHECK_MESSAGE(j.contains(f.name), name);
            if (*f.url_key) keys.emplace_back(f.url_key);
            if (*f.cli_flag) names.emplace_back(f.cli_flag);
            for (const char* a : f.cli_aliases) names.emplace_back(a);
        }
        // null = the default, for every field
        nlohmann::json nulls = nlohmann::json::object();
        for (const ScenarioField& f : kvcalc::scenario_fields()) nulls[f.name] = nullptr;
        kvcalc::Scenario reset = s;
        kvcalc::Diagnostics dn;
        kvcalc::read_scenario(nulls, reset, dn);
        CHECK(dn.empty());
        for (const ScenarioField& f : kvcalc::scenario_fields()) CHECK_MESSAGE(kvcalc::field_is_default(f, reset), f.name);
        for (auto* list : {&keys, &names})
            for (std::size_t i = 0; i < list->size(); ++i)
                for (std::size_t k = i + 1; k < list->size(); ++k) CHECK((*list)[i] != (*list)[k]);
    }

    TEST_CASE("vLLM's flag spellings are the primary names; the old ones keep working") {
        const char* triples[][3] = {{"--max-model-len", "--max-ctx", "4096"},
                                    {"--max-num-seqs", "--sequences", "3"},
                                    {"--gpu-memory-utilization", "--mem-util", "0.8"},
                                    {"--kv-cache-dtype", "--kv-format", "bf16"},
                                    {"--tensor-parallel-size", "--tp", "2"}};
        for (const auto& t : triples) {
            const auto vllm = kvcli::parse_args({t[0], t[2]});
            const auto old = kvcli::parse_args({t[1], t[2]});
            CHECK(vllm.error.empty());
            CHECK(kvcalc::encode_query(vllm.options.scenario) != "v=2");
            CHECK(kvcalc::encode_query(vllm.options.scenario) == kvcalc::encode_query(old.options.scenario));
        }
        const auto a = kvcli::parse_args({"--max-model-len", "32768", "--tensor-parallel-size", "2", "--kv-cache-dtype",
                                          "fp8_e4m3", "--gpu-memory-utilization", "0.9", "--max-num-seqs", "4"});
        REQUIRE(a.error.empty());
        CHECK(a.options.scenario.max_model_len == 32768);
        CHECK(a.options.scenario.tensor_parallel_size == 2);
        CHECK(a.options.scenario.kv_cache_dtype == "fp8_e4m3");
        CHECK(a.options.scenario.gpu_memory_utilization == 0.9);
        CHECK(a.options.scenario.max_num_seqs == 4);
        // vLLM's parser also takes underscores (--max_model_len) and -tp
        const auto b = kvcli::parse_args({"--max_model_len=8192", "-tp", "4"});
        REQUIRE(b.error.empty());
        CHECK(b.options.scenario.max_model_len == 8192);
        CHECK(b.options.scenario.tensor_parallel_size == 4);
        const std::string help = kvcli::help_text();
        CHECK(contains(help, "--max-model-len, --max-ctx, --context-length TOKENS"));
        CHECK(contains(help, "--tensor-parallel-size, --tp, -tp, --tp-size N"));
        // SGLang's and llama.cpp's names for the same settings (deploy_sglang.cpp / deploy_llama_cpp.cpp print them)
        const auto c = kvcli::parse_args({"--context-length", "4096", "--tp-size", "2", "--mem-fraction-static", "0.85",
                                          "--max-running-requests", "8", "--engine", "sglang"});
        REQUIRE(c.error.empty());
        CHECK(c.options.scenario.max_model_len == 4096);
        CHECK(c.options.scenario.tensor_parallel_size == 2);
        CHECK(c.options.scenario.gpu_memory_utilization == 0.85);
        CHECK(c.options.scenario.max_num_seqs == 8);
        CHECK(kvcli::parse_args({"-np", "3"}).options.scenario.max_num_seqs == 3);
    }

    TEST_CASE("a flag given twice with two values: the last is used, as vLLM's argparse does, with a warning") {
        const auto r = kvcli::parse_args({"--max-model-len", "4096", "--tp", "2", "--max-model-len", "8192"});
        REQUIRE(r.error.empty());
        CHECK(r.options.scenario.max_model_len == 8192);
        REQUIRE(r.options.warnings.size() == 1);
        CHECK(r.options.warnings[0].code == "flag_repeated");
        CHECK(contains(r.options.warnings[0].message, "--max-model-len"));
        CHECK(contains(r.options.warnings[0].message, "4096"));
        CHECK(contains(r.options.warnings[0].message, "8192"));
        // the same value twice says nothing; a flag and its alias with two values stays an error
        CHECK(kvcli::parse_args({"--tp", "2", "--tp", "2"}).options.warnings.empty());
        CHECK(contains(kvcli::parse_args({"--max-num-seqs", "4", "--sequences", "8"}).error, "give one value"));
    }

    TEST_CASE("flag messages: out of range says so, sizes name their unit, unknown flags suggest only near ones") {
        const auto big = kvcli::parse_args({"--max-ctx", "99999999999999999999"});
        CHECK(contains(big.error, "out of range"));
        CHECK(contains(big.error, "1..134217728"));
        CHECK_FALSE(contains(big.error, "not an integer"));
        const auto gib = kvcli::parse_args({"--vram-gib", "0"});
        CHECK(contains(gib.error, "GiB per card"));
        CHECK_FALSE(contains(gib.error, "decimal GB"));
        const auto frob = kvcli::parse_args({"--frob"});
        CHECK(contains(frob.error, "unknown flag '--frob'"));
        CHECK_FALSE(contains(frob.error, "did you mean"));
        CHECK(contains(kvcli::parse_args({"--max-ctxx", "5"}).error, "did you mean --max-ctx?"));
        CHECK(contains(kvcli::parse_args({"--max-model-length", "5"}).error, "did you mean --max-model-len?"));
    }

    TEST_CASE("a vLLM release newer than any kvcalc has checked is priced as the newest era, and says so") {
        // docs/SOURCES.md "Calibration rows"'s newest measured boot pins vllm-v0.25.1; "0.99" is no release.
        const auto r = kvcli::parse_args({"--vllm-version", "0.99"});
        REQUIRE(r.error.empty());
        const kvcalc::Report rep = kvcalc::predict(r.options.scenario);
        bool said = false;
        for (const auto& d : rep.diagnostics)
            said = said || (d.field == "vllm_version" && contains(d.message, "0.99") && contains(d.message, "0.21+"));
        CHECK(said);
        kvcalc::Scenario known;
        known.vllm_version = "0.19";
        for (const auto& d : kvcalc::predict(known).diagnostics) CHECK(d.field != "vllm_version");
    }

    TEST_CASE("the catalog action hands scripts the same table") {
        const auto cat = nlohmann::json::parse(kvcalc::evaluate_json(R"({"action": "catalog"})"));
        REQUIRE(cat["fields"].is_array());
        CHECK(cat["fields"].size() == kvcalc::scenario_fields().size());
        for (const auto& row : cat["fields"]) {
            const ScenarioField* f = kvcalc::find_scenario_field(row["name"].get<std::string>());
            REQUIRE(f != nullptr);
            CHECK(row["valid"] == kvcalc::field_valid_text(*f));
            CHECK(row["url_key"] == f->url_key);
            if (row["name"] == "max_model_len") {
                CHECK(row["max"] == 134217728.0);  // 2^27 tokens
                CHECK(row["cli_flag"] == "--max-model-len");
            }
        }
    }
}
