#include <doctest/doctest.h>

#include <string>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/config/hub_gguf.h"
#include "kvcalc/io/url_codec.h"

using namespace kvcalc;

namespace {

/// encode → decode → encode must give the same text, with no diagnostics on the way.
void check_round_trip(const Scenario& s) {
    const std::string q = encode_query(s);
    Diagnostics d;
    const Scenario back = decode_query(q, d);
    CHECK_MESSAGE(d.empty(), q);
    CHECK(encode_query(back) == q);
}

bool has_code(const Diagnostics& d, const std::string& code) {
    for (const auto& x : d) {
        if (x.code == code) return true;
    }
    return false;
}

int count_code(const Diagnostics& d, const std::string& code) {
    int n = 0;
    for (const auto& x : d) n += x.code == code ? 1 : 0;
    return n;
}

}  // namespace

TEST_SUITE("url_codec") {
    TEST_CASE("a default scenario is just the version") {
        CHECK(encode_query(Scenario{}) == "v=2");
        Diagnostics d;
        CHECK(decode_query("?v=2", d) == Scenario{});
        CHECK(decode_query("", d) == Scenario{});  // the page opened without a query
        CHECK(decode_query("?embed=1&theme=dark", d) == Scenario{});  // only the page's own keys
        CHECK(d.empty());
    }

    TEST_CASE("only changed fields, short keys, table order") {
        Scenario s;
        s.vram_gb = 20;
        s.gpu_memory_utilization = 0.82;
        s.max_model_len = 65536;
        CHECK(encode_query(s) == "v=2&vram=20&ctx=65536&util=0.82");
    }

    TEST_CASE("round trips") {
        SUBCASE("the dual-turbo preset on a 20 GB card") {
            const ComposePreset* p = find_preset("qwen3.6-27b:dual-turbo");
            REQUIRE(p != nullptr);
            Scenario s = p->scenario;
            s.vram_gb = 20;
            s.gpu_memory_utilization = 0.82;
            check_round_trip(s);
        }
        SUBCASE("every kind of field set") {
            Scenario s;
            s.model_id = "gemma-4-31b";
            s.gpu = "rtx-3090";
            s.gpus = 4;
            s.tensor_parallel_size = 2;
            s.kv_cache_dtype = "fp8_e4m3";
            s.max_model_len = 262144;
            s.max_num_seqs = 3;
            s.gpu_memory_utilization = 0.9;
            s.max_num_batched_tokens = 4096;
            s.mtp = false;
            s.drafter = "some drafter & co";  // needs escaping
            s.drafter_gb = 1.25;
            s.num_speculative_tokens = 3;
            s.weights_gb = 17.123456789;
            s.include_draft_kv = true;
            s.draft_kv_gb = 0.1;
            s.compressed_layers = 30;
            s.compression_ratio = 64;
            s.compressed_head_dim = 512;
            s.indexer_ratio_layers = 30;
            s.indexer_compress_ratio = 8;
            s.indexer_head_dim = 128;
            s.indexer_format = "fp8_e4m3";
            check_round_trip(s);
            Diagnostics d;
            const Scenario back = decode_query(encode_query(s), d);
            CHECK(back.drafter == "some drafter & co");
            CHECK(back.weights_gb == s.weights_gb);  // exact: shortest round-trip float text
            CHECK(back.mtp.has_value());
            CHECK_FALSE(*back.mtp);
        }
        SUBCASE("vram in GiB") {
            Scenario s;
            s.vram_gib = 23.5;
            check_round_trip(s);
        }
    }

    TEST_CASE("an inline model cannot travel; it is reported, and the link keeps no stale model_id") {
        Scenario s;
        s.model = *find_model("qwen3.6-27b");
        s.model_id = "qwen3.6-35b-a3b";
        const Diagnostics d = url_unrepresentable(s);
        REQUIRE(d.size() == 1);
        CHECK(d[0].code == "url_inline_model");
        // Issue 25: the page's link for a pasted config kept m=<the model picked before>, so the link without its
        // #cfg= fragment opened that other model.
        CHECK(encode_query(s).find("m=") == std::string::npos);
        CHECK(url_unrepresentable(Scenario{}).empty());
    }

    TEST_CASE("a Hub GGUF travels as gguf=ORG/NAME[@REV]/FILE.gguf, never with m=; its URLs are read to that form") {
        Scenario s;
        s.model = ModelSpec{};  // the model read from the header travels as the reference, not inline
        s.hub_gguf = "TheBloke/Llama-2-7B-GGUF/llama-2-7b.Q4_K_M.gguf";
        s.engine = "llama.cpp";
        const std::string q = encode_query(s);
        CHECK(q == "v=2&e=llama.cpp&gguf=TheBloke%2FLlama-2-7B-GGUF%2Fllama-2-7b.Q4_K_M.gguf");
        CHECK(url_unrepresentable(s).empty());
        Diagnostics d;
        CHECK(decode_query(q, d).hub_gguf == s.hub_gguf);
        CHECK(d.empty());
        // The forms a user pastes: the file's Hub page (/blob/), its download link (/resolve/, ?download=true).
        for (const char* url : {"https://huggingface.co/TheBloke/Llama-2-7B-GGUF/blob/main/llama-2-7b.Q4_K_M.gguf",
                                "https://huggingface.co/TheBloke/Llama-2-7B-GGUF/resolve/main/llama-2-7b.Q4_K_M.gguf?download=true",
                                "TheBloke/Llama-2-7B-GGUF@main/llama-2-7b.Q4_K_M.gguf"}) {
            CAPTURE(url);
            const auto r = parse_hub_gguf(url);
            REQUIRE(r);
            CHECK(hub_gguf_text(*r) == s.hub_gguf);
            CHECK(hub_gguf_url(*r) == "https://huggingface.co/TheBloke/Llama-2-7B-GGUF/resolve/main/llama-2-7b.Q4_K_M.gguf");
        }
        // A pull request's revision is refs/pr/N, which the Hub's own URLs write %2F-escaped (one path segment);
        // any %XX in the file is decoded too. The reference and the URL keep the revision as one segment.
        for (const char* url : {"https://huggingface.co/TheBloke/Llama-2-7B-GGUF/resolve/refs%2Fpr%2F1/llama-2-7b.Q4_K_M.gguf",
                                "https://huggingface.co/TheBloke/Llama-2-7B-GGUF/blob/refs%2fpr%2f1/llama-2-7b.Q4%5FK%5FM.gguf",
                                "TheBloke/Llama-2-7B-GGUF@refs%2Fpr%2F1/llama-2-7b.Q4_K_M.gguf"}) {
            CAPTURE(url);
            const auto r = parse_hub_gguf(url);
            REQUIRE(r);
            CHECK(r->revision == "refs/pr/1");
            CHECK(r->file == "llama-2-7b.Q4_K_M.gguf");
            CHECK(hub_gguf_text(*r) == "TheBloke/Llama-2-7B-GGUF@refs%2Fpr%2F1/llama-2-7b.Q4_K_M.gguf");
            CHECK(hub_gguf_url(*r) == "https://huggingface.co/TheBloke/Llama-2-7B-GGUF/resolve/refs%2Fpr%2F1/llama-2-7b.Q4_K_M.gguf");
            CHECK(parse_hub_gguf(hub_gguf_text(*r))->revision == "refs/pr/1");
        }
        for (const char* bad : {"https://huggingface.co/a/b/resolve/main/x%2.gguf", "https://huggingface.co/a/b/resolve/%2Fmain/x.gguf",
                                "https://huggingface.co/a/b/resolve/main/a%20b.gguf", "a/b@x%2F%2Fy/c.gguf"}) {
            CAPTURE(bad);
            CHECK_FALSE(parse_hub_gguf(bad));
        }
        const auto sub = parse_hub_gguf("unsloth/Qwen3-235B-A22B-GGUF@a1b2c3/Q4_K_M/Qwen3-235B-A22B-Q4_K_M-00001-of-00003.gguf");
        REQUIRE(sub);
        CHECK(sub->repo == "unsloth/Qwen3-235B-A22B-GGUF");
        CHECK(sub->revision == "a1b2c3");
        CHECK(sub->file == "Q4_K_M/Qwen3-235B-A22B-Q4_K_M-00001-of-00003.gguf");
        for (const char* bad : {"gguf=a/b", "gguf=a/b/c.txt", "gguf=a/b/../c.gguf", "gguf=a/b/x//y.gguf",
                                "gguf=https%3A%2F%2Fexample.com%2Fa%2Fb%2Fresolve%2Fmain%2Fc.gguf", "gguf=a/b@/c.gguf"}) {
            CAPTURE(bad);
            Diagnostics e;
            CHECK(decode_query(bad, e).hub_gguf.empty());
            REQUIRE(e.size() == 1);
            CHECK(e[0].field == "url.gguf");
        }
    }

    TEST_CASE("a Hub model travels as hf=ORG/NAME[@REV], never with m=") {
        Scenario s;
        s.config_json = R"({"model_type":"llama"})";
        s.hub_model = "RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic@main";
        s.model_id = "llama-3.1-8b";  // what the catalog showed before
        s.weights_dtype = "int4";
        const std::string q = encode_query(s);
        CHECK(q == "v=2&wd=int4&hf=RedHatAI%2FLlama-3.3-70B-Instruct-FP8-dynamic%40main");
        CHECK(url_unrepresentable(s).empty());
        Diagnostics d;
        const Scenario back = decode_query(q, d);
        CHECK(d.empty());
        CHECK(back.hub_model == s.hub_model);
        CHECK(back.model_id == Scenario{}.model_id);
        for (const char* bad : {"hf=noslash", "hf=a/b/c", "hf=a/..b", "hf=a/b@", "hf=-a/b"}) {
            Diagnostics e;
            CHECK(decode_query(bad, e).hub_model.empty());
            REQUIRE(e.size() == 1);
            CHECK(e[0].field == "url.hf");
        }
    }

    TEST_CASE("full URLs, fragments, '+' and reserved keys") {
        Diagnostics d;
        const Scenario s = decode_query("https://x.example/app/?v=1&tp=2&n=2&theme=dark&embed=1&unit=gib&panel=solver#top", d);
        CHECK(d.empty());
        CHECK(s.tensor_parallel_size == 2);
        CHECK(s.gpus == 2);
        Scenario t = decode_query("dr=a+b", d);
        CHECK(t.drafter == "a b");
    }

    TEST_CASE("a URL without '?' carries no scenario: nothing from its path or fragment is read as keys") {
        // QA: 'https://x/#%%%' was read as one key 'https://x/' (unknown) and a bare fragment as a query.
        for (const char* link : {"https://x/#%%%", "https://x.example/kvcalc/", "#v=1&tp=2", "/kvcalc/index.html#tp=2"}) {
            INFO(link);
            Diagnostics d;
            const Scenario s = decode_query(link, d);
            REQUIRE(d.size() == 1);
            CHECK(d[0].code == "url_no_query");
            CHECK(d[0].message.find("has no '?' part") != std::string::npos);
            CHECK(s == Scenario{});
        }
        // the query stops at '#', and a '?' inside the fragment is not a query
        Diagnostics d;
        CHECK(decode_query("https://x/?tp=2#frag?tp=4", d).tensor_parallel_size == 2);
        CHECK(d.empty());
        CHECK(decode_query("https://x/#frag?tp=4", d).tensor_parallel_size == 1);
        CHECK(has_code(d, "url_no_query"));
        // a bare query, with or without '?', is read as it is
        Diagnostics b;
        CHECK(decode_query("tp=2&n=2", b).gpus == 2);
        CHECK(decode_query("?tp=4", b).tensor_parallel_size == 4);
        CHECK(b.empty());
    }

    TEST_CASE("a malformed %-escape names the parameter, the escape and what a valid one is; the rest is read") {
        for (const char* bad : {"v=2&tp=2&ctx=%%%", "v=2&tp=2&ctx=4%2", "v=2&tp=2&ctx=%zz1", "v=2&tp=2&ctx%=4"}) {
            INFO(bad);
            Diagnostics d;
            const Scenario s = decode_query(bad, d);
            REQUIRE(d.size() == 1);
            CHECK(d[0].code == "url_bad_escape");
            CHECK(d[0].field.rfind("url.ctx", 0) == 0);
            CHECK(d[0].message.find("two hex digits") != std::string::npos);
            CHECK(s.tensor_parallel_size == 2);
            CHECK(s.max_model_len == Scenario{}.max_model_len);
        }
    }

    TEST_CASE("bad input becomes warnings naming key, value and what is valid; the default stays") {
        SUBCASE("unknown key") {
            Diagnostics d;
            decode_query("v=1&colour=red", d);
            REQUIRE(d.size() == 1);
            CHECK(d[0].severity == Severity::warning);
            CHECK(d[0].code == "url_unknown_key");
            CHECK(d[0].message.find("colour") != std::string::npos);
            CHECK(d[0].message.find("red") != std::string::npos);
        }
        SUBCASE("non-number, out of range, unknown catalog names") {
            const char* cases[][2] = {{"ctx=long", "max_model_len"},  {"util=1.5", "gpu_memory_utilization"},
                                      {"util=-0.1", "gpu_memory_utilization"}, {"tp=0", "tensor_parallel_size"},
                                      {"seqs=-1", "max_num_seqs"},    {"kv=fp7", "kv_cache_dtype"},
                                      {"m=gpt-9", "model_id"},        {"g=voodoo5", "gpu"},
                                      {"vram=-3", "vram_gb"},         {"mtp=yes", "mtp"}, {"vv=0.x", "vllm_version"},
                                      {"util=nan", "gpu_memory_utilization"}, {"ctx=12abc", "max_model_len"}};
            for (const auto& c : cases) {
                Diagnostics d;
                const Scenario s = decode_query(std::string("v=2&") + c[0], d);
                REQUIRE_MESSAGE(d.size() == 1, c[0]);
                CHECK(d[0].code == "url_bad_value");
                CHECK_MESSAGE(d[0].message.find(c[1]) != std::string::npos, d[0].message);
                CHECK_MESSAGE(d[0].message.find("expected") != std::string::npos, d[0].message);
                CHECK_MESSAGE(encode_query(s) == "v=2", c[0]);  // the field kept its default
            }
        }
        SUBCASE("the valid choices are listed") {
            Diagnostics d;
            decode_query("kv=fp7", d);
            REQUIRE(d.size() == 1);
            CHECK(d[0].message.find("fp8_e5m2") != std::string::npos);
        }
        SUBCASE("future version and bad escapes") {
            Diagnostics d;
            const Scenario s = decode_query("v=3&tp=2&dr=%zz&x=%4", d);
            CHECK(has_code(d, "url_future_version"));
            CHECK(has_code(d, "url_bad_escape"));
            CHECK(s.tensor_parallel_size == 2);
            CHECK(s.drafter.empty());
        }
        SUBCASE("repeated key: last wins, with a warning") {
            Diagnostics d;
            const Scenario s = decode_query("tp=2&tp=4", d);
            CHECK(s.tensor_parallel_size == 4);
            CHECK(has_code(d, "url_repeated_key"));
        }
    }

    TEST_CASE("a link's values and unknown keys are echoed cut to 64 bytes") {
        // Regression: the bad-value, unknown-key and version warnings repeated the whole value (a 300-byte vuc
        // came back whole on the CLI's stderr and in the API's diagnostics).
        const std::string longv(300, 'z');
        const std::string cut = "'" + std::string(64, 'z') + "\u2026'";
        for (const std::string& q : {"v=2&vuc=" + longv, "v=2&" + longv + "=red", "v=2&colour=" + longv,
                                     "v=" + longv + "&tp=2", "v=2&" + longv + "=%zz"}) {
            Diagnostics d;
            decode_query(q, d);
            REQUIRE_MESSAGE(d.size() == 1, q.substr(0, 20));
            CHECK_MESSAGE(d[0].message.find(std::string(65, 'z')) == std::string::npos, d[0].message);
            CHECK(d[0].field.size() <= std::string("url.").size() + 64 + 3);
        }
        Diagnostics d;
        decode_query("v=2&vuc=" + longv, d);
        REQUIRE(d.size() == 1);
        CHECK(d[0].message == "URL key 'vuc' (vllm_usage_context) = " + cut +
                                  " is not one of the valid values; expected one of openai_api_server, llm_class; "
                                  "any case; read as absent (openai_api_server)");
        Diagnostics u;
        decode_query("v=2&colour=" + longv, u);
        REQUIRE(u.size() == 1);
        CHECK(u[0].message.rfind("URL key 'colour' (value " + cut + ") is not known; ignored.", 0) == 0);
    }

    TEST_CASE("keys are unique and documented") {
        const auto keys = url_keys();
        CHECK(keys.size() >= 27);
        for (std::size_t i = 0; i < keys.size(); ++i) {
            CHECK(keys[i].key != "v");
            for (std::size_t j = i + 1; j < keys.size(); ++j) CHECK(keys[i].key != keys[j].key);
        }
    }
}

TEST_SUITE("url_codec numbers") {
    TEST_CASE("whole and fractional numbers are written plainly, never with an exponent") {
        // Regression: a formatter that wrote 20 as "2e+01" made links carry "vram=2e%2B01", which the
        // reader rejected, silently dropping the card size from shared links.
        kvcalc::Scenario s;
        s.vram_gb = 20.0;
        s.gpu_memory_utilization = 0.82;
        const std::string q = kvcalc::encode_query(s);
        CHECK(q.find("vram=20&") != std::string::npos);
        CHECK(q.find("util=0.82") != std::string::npos);
        kvcalc::Diagnostics d;
        const kvcalc::Scenario back = kvcalc::decode_query(q, d);
        CHECK(d.empty());
        REQUIRE(back.vram_gb.has_value());
        CHECK(*back.vram_gb == 20.0);
        CHECK(back.gpu_memory_utilization == 0.82);
    }
    TEST_CASE("numbers the reader refuses") {
        for (const char* bad : {"vram=inf", "vram=nan", "vram=0x10", "vram=%2012", "vram=1.2.3", "vram=1e", "vram=-"}) {
            kvcalc::Diagnostics d;
            const kvcalc::Scenario back = kvcalc::decode_query(std::string("v=1&") + bad, d);
            CHECK_MESSAGE(d.size() == 1, bad);
            CHECK_FALSE(back.vram_gb.has_value());
        }
    }
}

TEST_SUITE("url_codec engine") {
    TEST_CASE("engine and weights_dtype travel in links; a bad engine is a warning naming the valid ones") {
        kvcalc::Scenario s;
        s.model_id = "llama-3.1-8b";
        s.engine = "llama.cpp";
        s.weights_dtype = "int4";
        const std::string q = kvcalc::encode_query(s);
        CHECK(q.find("e=llama.cpp") != std::string::npos);
        CHECK(q.find("wd=int4") != std::string::npos);
        kvcalc::Diagnostics d;
        const kvcalc::Scenario back = kvcalc::decode_query(q, d);
        CHECK(d.empty());
        CHECK(back.engine == "llama.cpp");
        CHECK(back.weights_dtype == "int4");
        CHECK(kvcalc::encode_query(back) == q);

        kvcalc::Diagnostics bad;
        const kvcalc::Scenario fallback = kvcalc::decode_query("v=1&e=tgi", bad);
        REQUIRE(bad.size() == 1);
        CHECK(bad[0].message.find("vllm, llama.cpp, sglang") != std::string::npos);
        CHECK(fallback.engine == "vllm");
    }
}

TEST_SUITE("url_codec ranges") {
    TEST_CASE("an engine spelled as resolve() accepts it (any case, an alias) survives a link") {
        // Found by fuzz_scenario_json: "Vllm" priced fine but the link dropped it with a warning.
        for (const char* e : {"Vllm", "SGLang", "llama-cpp"}) {
            Scenario s;
            s.engine = e;
            Diagnostics d;
            const Scenario back = decode_query(encode_query(s), d);
            CHECK(back.engine == e);
            CHECK(d.empty());
        }
    }
    TEST_CASE("the codec accepts the schema's whole range, so every valid scenario round-trips") {
        // Regression (QA): num_speculative_tokens 0 and max_num_batched_tokens 134,217,728 are valid in the
        // JSON schema but the link reader rejected them, so the link did not reproduce the scenario.
        kvcalc::Scenario s;
        s.num_speculative_tokens = 0;
        s.max_num_batched_tokens = 134217728;
        kvcalc::Diagnostics d;
        const kvcalc::Scenario back = kvcalc::decode_query(kvcalc::encode_query(s), d);
        CHECK(d.empty());
        CHECK(back.num_speculative_tokens == 0);
        CHECK(back.max_num_batched_tokens == 134217728);
    }
}

TEST_SUITE("url_codec old links") {
    TEST_CASE("links written before the field table decode to the same scenario and re-encode byte for byte") {
        // The CLI's dual-turbo link (tests/node/url.test.mjs), docs/URL.md's example, and a link setting every
        // numeric key, as the per-codec key table wrote them (same keys, same order).
        const char* links[] = {
            "v=1&c=qwen3.6-27b%3Adual-turbo&vram=20&tp=2&kv=turboquant_3bit_nc&ctx=262144&seqs=4&util=0.82&mtp=1&"
            "dr=qwen-mtp-builtin",
            "v=1&c=qwen3.6-27b%3Adual-turbo&vram=20&util=0.82",
            "v=1&m=gemma-4-31b&wgb=17.123456789&g=rtx-3090&n=4&tp=2&kv=fp8_e4m3&ctx=262144&seqs=3&util=0.9&mnbt=4096&"
            "mtp=0&dr=some%20drafter%20%26%20co&dgb=1.25&nst=3&dkv=1&dkvgb=0.1&cl=30&cr=64&chd=512&irl=30&icr=8&"
            "ihd=128&ixf=fp8_e4m3",
            "v=1&m=llama-3.1-8b&vgib=23.5&e=llama.cpp&wd=int4&vv=0.19",
        };
        // Version 1's absent keys meant the seed CLI's settings; the same scenario re-encodes as version 2 with
        // those written out, and that link reads back to the same scenario.
        const char* as_v2[] = {
            "v=2&c=qwen3.6-27b%3Adual-turbo&vram=20&tp=2&kv=turboquant_3bit_nc&ctx=262144&seqs=4&util=0.82&mtp=1&"
            "dr=qwen-mtp-builtin",
            "v=2&c=qwen3.6-27b%3Adual-turbo&vram=20&kv=fp8_e5m2&ctx=180000&seqs=1&util=0.82",
            "v=2&m=gemma-4-31b&wgb=17.123456789&g=rtx-3090&n=4&tp=2&kv=fp8_e4m3&ctx=262144&seqs=3&util=0.9&mnbt=4096&"
            "mtp=0&dr=some%20drafter%20%26%20co&dgb=1.25&nst=3&dkv=1&dkvgb=0.1&cl=30&cr=64&chd=512&irl=30&icr=8&"
            "ihd=128&ixf=fp8_e4m3",
            "v=2&m=llama-3.1-8b&vgib=23.5&kv=fp8_e5m2&ctx=180000&seqs=1&util=0.95&e=llama.cpp&wd=int4&vv=0.19",
        };
        for (std::size_t i = 0; i < std::size(links); ++i) {
            INFO(links[i]);
            Diagnostics d;
            const Scenario s = decode_query(links[i], d);
            CHECK(d.empty());
            CHECK(encode_query(s) == as_v2[i]);
            Diagnostics d2;
            CHECK(decode_query(as_v2[i], d2) == s);
            CHECK(d2.empty());
        }
        // The second link as it decoded before version 2: only vram, util and the label set, the rest the seed's.
        Scenario before;
        before.compose = "qwen3.6-27b:dual-turbo";
        before.vram_gb = 20;
        before.gpu_memory_utilization = 0.82;
        before.kv_cache_dtype = "fp8_e5m2";
        before.max_model_len = 180000;
        before.max_num_seqs = 1;
        Diagnostics d;
        CHECK(decode_query(links[1], d) == before);
        // A trimmed old link without 'v' is still an old link.
        CHECK(decode_query("c=qwen3.6-27b%3Adual-turbo&vram=20&util=0.82", d) == before);
        // A bad value in a version 1 link says what its absence means there.
        Diagnostics bad;
        CHECK(decode_query("v=1&seqs=-4", bad).max_num_seqs == 1);
        REQUIRE(bad.size() == 1);
        CHECK(bad[0].message.find("read as absent (1, a version 1 link's default)") != std::string::npos);
        const Scenario t = decode_query(links[0], d);
        CHECK(t.compose == "qwen3.6-27b:dual-turbo");
        CHECK(t.vram_gb == 20.0);
        CHECK(t.tensor_parallel_size == 2);
        CHECK(t.kv_cache_dtype == "turboquant_3bit_nc");
        CHECK(t.max_model_len == 262144);
        CHECK(t.max_num_seqs == 4);
        CHECK(t.gpu_memory_utilization == 0.82);
        CHECK(t.mtp == true);
        CHECK(t.drafter == "qwen-mtp-builtin");
        const Scenario all = decode_query(links[2], d);
        CHECK(all.drafter == "some drafter & co");
        CHECK(all.max_num_batched_tokens == 4096);
        CHECK(all.indexer_head_dim == 128);
    }
}

TEST_SUITE("url_codec") {
    TEST_CASE("a repeated URL key warns once, and any link costs bounded work") {
        std::string link;
        for (int i = 0; i < 4000; ++i) link += "tp=1&";
        Diagnostics d;
        const Scenario s = decode_query(link, d);
        CHECK(s.tensor_parallel_size == 1);
        CHECK(count_code(d, "url_repeated_key") == 1);           // one per key, however often it repeats
        CHECK(count_code(d, "url_too_many_parameters") == 1);    // 4,000 > 256 read
        CHECK(d.size() == 2);

        std::string huge;  // 100 KB: the link that killed the CLI
        for (int i = 0; i < 20000; ++i) huge += "tp=2&";
        Diagnostics d2;
        CHECK(decode_query(huge, d2).tensor_parallel_size == 2);
        CHECK(count_code(d2, "url_too_long") == 1);
        CHECK(d2.size() == 3);

        Diagnostics d3;
        CHECK(decode_query("tp=2&seqs=3&tp=4&tp=8", d3).tensor_parallel_size == 8);  // last value wins
        CHECK(count_code(d3, "url_repeated_key") == 1);
    }

    TEST_CASE("a compose_source that is not a preset is left out of the link with a warning") {
        Scenario s;
        s.compose = "q";
        s.model_id = "llama-3.1-8b";
        s.max_model_len = 8192;
        CHECK(encode_query(s) == "v=2&m=llama-3.1-8b&ctx=8192");
        CHECK(count_code(url_unrepresentable(s), "url_compose_dropped") == 1);
        Scenario p = find_preset("qwen3.6-27b:minimal")->scenario;
        Diagnostics d;
        CHECK(decode_query(encode_query(p), d).compose == p.compose);
        CHECK(d.empty());
        CHECK(url_unrepresentable(p).empty());
    }
}
