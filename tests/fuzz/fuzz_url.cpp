// libFuzzer target: the URL codec (docs/URL.md). decode_query on any text, then the link round trip
// encode → decode → encode must be a fixed point without warnings, and the decoded scenario must predict sanely.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "kvcalc/deployment/input_limits.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/io/url_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > kFuzzMaxInput) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    kvcalc::Diagnostics d;
    const kvcalc::Scenario s = kvcalc::decode_query(text, d);
    // Bounded output whatever the link: one warning per parameter read at most, plus the two cap warnings.
    fuzz_require(d.size() <= kvcalc::kMaxQueryParameters + 2 ? "" : "too many diagnostics", "decode_query");
    fuzz_require(kvcalc::has_error(d) ? "decode_query reported an error (it only warns)" : "", "decode_query");

    const std::string q1 = kvcalc::encode_query(s);
    kvcalc::Diagnostics d2;
    const kvcalc::Scenario s2 = kvcalc::decode_query(q1, d2);
    fuzz_require(d2.empty() ? "" : "re-decoding an encoded link warned: " + d2.front().message, "round trip");
    fuzz_require(kvcalc::encode_query(s2) == q1 ? "" : "encode(decode(encode(x))) ≠ encode(x)", "round trip");

    const kvcalc::Report r = kvcalc::predict(s);
    fuzz_require(kvinv::check_report(r), "predict");
    // A Hub link (hf=, gguf=) names a model the front end reads again from the Hub; it carries no m= (the catalog
    // model it decoded beside it is not the link's model), so the core alone prices another stand-in for it.
    const bool hub_link = !s.hub_model.empty() || !s.hub_gguf.empty();
    fuzz_require(hub_link || kvcalc::predict(s2).ok == r.ok ? "" : "the re-decoded link predicts differently", "round trip");

    std::string back;
    fuzz_require(kvcalc::percent_decode(kvcalc::percent_encode(text), back) && back == text
                     ? ""
                     : "percent_decode(percent_encode(x)) ≠ x",
                 "percent codec");
    return 0;
}
