// libFuzzer target: the JSON API — evaluate_json (CLI --json, embind evaluate) and the two link entry points of
// the embind module (decodeQuery: decode_query → Scenario JSON; encodeQuery: read_scenario → encode_query),
// driven through the same core calls. Every answer must be one JSON object with "ok" and "diagnostics", never
// an internal error, and no negative or saturated byte count.
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz_check.h"
#include "kvcalc/io/api.h"
#include "kvcalc/io/json_io.h"
#include "kvcalc/base/json_safety.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/io/url_codec.h"

namespace {

using nlohmann::json;

std::string check_document(const std::string& out) {
    const json j = json::parse(out, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return "answer is not a JSON object";
    if (!j.contains("ok") || !j["ok"].is_boolean() || !j.contains("diagnostics") || !j["diagnostics"].is_array())
        return "answer lacks ok / diagnostics";
    bool error = false;
    for (const auto& d : j["diagnostics"]) {
        if (d.value("code", "") == "internal_error") return "internal error: " + d.value("message", "");
        error = error || d.value("severity", "") == "error";
    }
    if (!j["ok"].get<bool>() && !error) return "ok=false without an error diagnostic";
    if (j["ok"].get<bool>() && j.contains("terms"))
        for (const auto& [k, v] : j["terms"].items())
            if (v.is_number_integer() && k != "gdn_scratch_delta_bytes" && !kvinv::sane_bytes(v.get<std::int64_t>()))
                return "terms." + k + " = " + v.dump() + " is negative or ≥ 2^60";
    return "";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > kFuzzMaxInput) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    fuzz_require(check_document(kvcalc::evaluate_json(text)), "evaluate_json");

    // decodeQuery path: any text as a link → a Scenario document that evaluate_json reads back without error.
    kvcalc::Diagnostics d;
    const kvcalc::Scenario s = kvcalc::decode_query(text, d);
    json sj = s;
    const std::string back = kvcalc::evaluate_json(kvcalc::dump_safe(sj));
    fuzz_require(check_document(back), "decodeQuery → evaluate");

    // encodeQuery path: the text as a Scenario document → a link.
    if (!kvcalc::json_too_deep(text)) {
        const json j = json::parse(text.begin(), text.end(), nullptr, false);
        if (!j.is_discarded() && j.is_object()) {
            kvcalc::Scenario e;
            kvcalc::Diagnostics ed;
            kvcalc::read_scenario(j, e, ed);
            // The link of a valid scenario it can carry must decode without a warning (an invalid value,
            // e.g. weights_dtype "int3", is written as given and rejected on decode, like predict rejects it).
            if (!kvcalc::has_error(ed) && kvcalc::url_unrepresentable(e).empty() && kvcalc::predict(e).ok) {
                kvcalc::Diagnostics dd;
                kvcalc::decode_query(kvcalc::encode_query(e), dd);
                fuzz_require(dd.empty() ? "" : "an encoded link warned on decode: " + dd.front().message, "encodeQuery");
            }
        }
    }
    return 0;
}
