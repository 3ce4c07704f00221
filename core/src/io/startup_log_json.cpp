// StartupLog -> JSON (see kvcalc/io/startup_log_json.h).
#include "kvcalc/io/startup_log_json.h"

#include "kvcalc/base/json_safety.h"
#include "kvcalc/io/json_io.h"

namespace kvcalc {

void to_json(nlohmann::json& j, const StartupLog& log) {
    j = nlohmann::json::object();
    j["ok"] = log.ok;
    j["engine"] = log_engine_name(log.engine);
    j["engine_version"] = log.engine_version;
    j["lines"] = log.lines;
    j["known_lines"] = log.known_lines;
    j["read_lines"] = log.read_lines;
    j["runs"] = log.runs;
    j["run_first_line"] = log.run_first_line;
    nlohmann::json facts = nlohmann::json::array();
    for (const LogFact& f : log.facts) {
        nlohmann::json x;
        x["name"] = f.name;
        if (f.has_value) x["value"] = f.value;
        else x["text"] = f.detail;
        if (!f.unit.empty()) x["unit"] = f.unit;
        if (f.has_value && !f.detail.empty()) x["detail"] = f.detail;
        if (!f.rank.empty()) x["rank"] = f.rank;
        x["line"] = f.line;
        facts.push_back(std::move(x));
    }
    j["facts"] = std::move(facts);
    nlohmann::json diags = nlohmann::json::array();
    for (const Diagnostic& d : log.diagnostics) diags.push_back(d);
    j["diagnostics"] = std::move(diags);
}

nlohmann::json startup_log_document(const StartupLog& log) {
    return nlohmann::json{{"schema", kSchemaVersion}, {"ok", log.ok}, {"log", log}};
}

std::string startup_log_document(std::string_view log_text, int indent) {
    return dump_safe(startup_log_document(read_startup_log(log_text)), indent);
}

}  // namespace kvcalc
