// link_config.h: a config.json carried in a link's #cfg= fragment, the page's form (docs/URL.md).
#include <doctest/doctest.h>

#include "kvcalc/io/link_config.h"
#include "kvcalc/io/url_codec.h"
#include "test_data.h"

using namespace kvcalc;

TEST_CASE("base64url: RFC 4648 section 5 alphabet, no padding; plain base64 and padding read too") {
    // Python: base64.urlsafe_b64encode(b'{"a":1}') = b'eyJhIjoxfQ==' ; bytes fb ff → '-_8='.
    CHECK(base64url_encode("{\"a\":1}") == "eyJhIjoxfQ");
    CHECK(base64url_encode(std::string("\xfb\xff", 2)) == "-_8");
    CHECK(base64url_decode("eyJhIjoxfQ==") == std::optional<std::string>("{\"a\":1}"));
    CHECK(base64url_decode("+/8") == std::optional<std::string>(std::string("\xfb\xff", 2)));
    CHECK_FALSE(base64url_decode("a").has_value());      // 6 bits: not a whole byte
    CHECK_FALSE(base64url_decode("ab$c").has_value());   // not base64
}

TEST_CASE("a config.json scenario links as query + #cfg=, without m=, and reads back") {
    Scenario s;
    s.model_id = "llama-3.1-8b";  // a stale catalog choice the config replaces
    s.config_json = test::config_file("falcon-40b.json");
    s.tensor_parallel_size = 2;
    const std::string link = encode_link(s);
    const std::string query = link.substr(0, link.find('#'));
    CHECK(query.find("m=") == std::string::npos);
    CHECK(query.find("tp=2") != std::string::npos);
    CHECK(link.substr(link.find('#')) == "#cfg=" + base64url_encode(s.config_json));
    CHECK(link_unrepresentable(s).empty());
    Diagnostics d;
    const Scenario back = decode_link("https://x.example/?" + link, d);
    CHECK(d.empty());
    CHECK(back.config_json == s.config_json);
    CHECK(back.tensor_parallel_size == 2);
    CHECK(back.model_id == Scenario{}.model_id);
}

TEST_CASE("a config.json too long for a link, or a broken fragment, is a warning") {
    Scenario big;
    big.config_json = std::string(kMaxLinkConfigJsonBytes + 1, ' ');
    REQUIRE(link_unrepresentable(big).size() == 1);
    CHECK(link_unrepresentable(big)[0].code == "url_config_too_long");
    CHECK(encode_link(big).find('#') == std::string::npos);
    Diagnostics d;
    const Scenario s = decode_link("?v=2&tp=2#cfg=ab$c", d);
    REQUIRE(d.size() == 1);
    CHECK(d[0].code == "url_config");
    CHECK(s.config_json.empty());
    CHECK(s.tensor_parallel_size == 2);
}
