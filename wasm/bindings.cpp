// embind surface of the core: strings in, strings out. Every entry point catches everything, so a bad
// request becomes an {"ok": false, "diagnostics": [...]} document in JavaScript, never an abort.
#include <emscripten/bind.h>

#include <string>

#include "kvcalc/io/api.h"
#include "kvcalc/base/json_safety.h"
#include "kvcalc/io/json_io.h"
#include "kvcalc/io/url_check.h"
#include "kvcalc/io/url_codec.h"
#include "kvcalc/deployment/input_limits.h"

namespace {

/// An error document for whatever escaped the core (it should not: the core reports problems as data).
std::string error_document(const char* what) {
    nlohmann::json out{{"schema", kvcalc::kSchemaVersion}, {"ok", false}};
    out["diagnostics"] = kvcalc::Diagnostics{
        {kvcalc::Severity::error, "internal", "", what ? std::string("internal error: ") + what : "internal error"}};
    return kvcalc::dump_safe(out);
}

/// Runs one entry point so that nothing crosses into JavaScript as an exception or an abort.
template <class F> std::string guarded(F&& body) {
    try {
        return body();
    } catch (const std::exception& e) {
        return error_document(e.what());
    } catch (...) {
        return error_document(nullptr);
    }
}

/// evaluate(requestJson) → reportJson. See docs/SCHEMA.md for both documents.
std::string evaluate(const std::string& request_json) {
    return guarded([&] { return kvcalc::evaluate_json(request_json); });
}

/// decodeQuery(query) → {"schema":1, "ok", "scenario": {…every Scenario key…}, "diagnostics": [...]}.
/// Accepts "v=1&…", "?v=1&…" or a whole URL (cut at '?'). Unknown keys and bad values are warnings and keep
/// the default, so "ok" is false only when the codec reports an error. What evaluate() would reject in the
/// decoded scenario is a warning too (url_link_problems, naming the link key). See docs/URL.md.
std::string decode_query(const std::string& query) {
    return guarded([&] {
        kvcalc::Diagnostics d;
        const kvcalc::Scenario s = kvcalc::decode_query(query, d);
        if (!kvcalc::has_error(d))
            for (auto& x : kvcalc::url_link_problems(s)) d.push_back(std::move(x));
        nlohmann::json out{{"schema", kvcalc::kSchemaVersion}, {"ok", !kvcalc::has_error(d)}};
        out["scenario"] = s;
        out["diagnostics"] = d;
        return kvcalc::dump_safe(out);
    });
}

/// encodeQuery(scenarioJson) → {"schema":1, "ok", "query": "v=1&…", "diagnostics": [...]}.
/// The input is a Scenario document (docs/SCHEMA.md; a "compose" key applies that preset first). Reading
/// errors, and every error evaluate() would give for the scenario (ranges, catalog ids, TP), give ok=false and
/// an empty query; an inline "model" cannot travel in a URL and adds a warning.
std::string encode_query(const std::string& scenario_json) {
    return guarded([&] {
        kvcalc::Diagnostics d;
        // The same cap as evaluate(): past it the answer is an error, not a copy of megabytes of input.
        const bool too_large = scenario_json.size() > kvcalc::kMaxRequestBytes;
        const bool too_deep = !too_large && kvcalc::json_too_deep(scenario_json);
        const nlohmann::json j = too_large || too_deep ? nlohmann::json()
                                                       : nlohmann::json::parse(scenario_json, nullptr, false);
        if (too_large) {
            d.push_back({kvcalc::Severity::error, "too_large", "",
                         "scenario is " + std::to_string(scenario_json.size()) + " bytes; at most " +
                             std::to_string(kvcalc::kMaxRequestBytes) + " (8 MiB) are read"});
        } else if (too_deep) {
            d.push_back({kvcalc::Severity::error, "too_deep", "", "scenario nests arrays/objects too deeply"});
        } else if (j.is_discarded() || !j.is_object()) {
            d.push_back({kvcalc::Severity::error, "bad_json", "", "scenario is not a JSON object"});
        }
        kvcalc::Scenario s;
        if (d.empty()) kvcalc::read_scenario(j, s, d);
        if (!kvcalc::has_error(d))
            for (auto& x : kvcalc::scenario_errors(s)) d.push_back(std::move(x));
        const bool ok = !kvcalc::has_error(d);
        if (ok)
            for (auto& w : kvcalc::url_unrepresentable(s)) d.push_back(std::move(w));
        nlohmann::json out{{"schema", kvcalc::kSchemaVersion}, {"ok", ok},
                           {"query", ok ? kvcalc::encode_query(s) : std::string()}};
        out["diagnostics"] = d;
        return kvcalc::dump_safe(out);
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(kvcalc) {
    emscripten::function("evaluate", &evaluate);
    emscripten::function("decodeQuery", &decode_query);
    emscripten::function("encodeQuery", &encode_query);
}
