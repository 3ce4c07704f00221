// libFuzzer target: scenario JSON (docs/SCHEMA.md). read_scenario on any document; a clean read must survive
// to_json → read_scenario unchanged, predict and the four solvers sanely, and the link round trip.
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz_check.h"
#include "kvcalc/io/json_io.h"
#include "kvcalc/io/json_results.h"
#include "kvcalc/base/json_safety.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/io/url_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using nlohmann::json;
    if (size > kFuzzMaxInput) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (kvcalc::json_too_deep(text)) return 0;
    const json j = json::parse(text.begin(), text.end(), nullptr, false);
    if (j.is_discarded()) return 0;
    kvcalc::Scenario s;
    kvcalc::Diagnostics d;
    kvcalc::read_scenario(j, s, d);
    if (kvcalc::has_error(d)) return 0;

    const json first = s;
    kvcalc::Scenario again;
    kvcalc::Diagnostics d2;
    kvcalc::read_scenario(first, again, d2);
    fuzz_require(kvcalc::has_error(d2) ? "to_json output does not read back: " + d2.front().message : "", "json round trip");
    const json second = again;
    fuzz_require(first == second ? "" : "to_json → read_scenario → to_json changed the document", "json round trip");

    const kvcalc::Report r = kvcalc::predict(s);
    fuzz_require(kvinv::check_report(r), "predict");
    fuzz_require(kvinv::check_solve(kvcalc::solve_max_model_len(s), "max_model_len"), "solver");
    fuzz_require(kvinv::check_solve(kvcalc::solve_max_num_seqs(s), "max_num_seqs"), "solver");
    fuzz_require(kvinv::check_solve(kvcalc::solve_min_vram(s), "min_vram"), "solver");
    fuzz_require(kvinv::check_solve(kvcalc::solve_min_gpus(s), "min_gpus"), "solver");

    if (r.ok && kvcalc::url_unrepresentable(s).empty()) {  // a valid scenario the link can carry
        kvcalc::Diagnostics ud;
        const kvcalc::Scenario back = kvcalc::decode_query(kvcalc::encode_query(s), ud);
        fuzz_require(ud.empty() ? "" : "the scenario's link warned on decode: " + ud.front().message, "link round trip");
        fuzz_require(kvcalc::encode_query(back) == kvcalc::encode_query(s) ? "" : "link round trip changed the link",
                     "link round trip");
    }
    return 0;
}
