// evaluate_json: the one JSON entry point (CLI --json, embind, page). Request = Scenario keys plus
// "action" ("predict" default, "solve", "shop", "curve", "catalog", "calibration"), "solve" (list of solvers) and
// "criterion".
#include "kvcalc/io/api.h"
#include "kvcalc/base/json_safety.h"

#include <algorithm>
#include <exception>
#include <optional>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/deployment/scenario_fields.h"
#include "kvcalc/deployment/input_limits.h"
#include "kvcalc/io/json_io.h"
#include "kvcalc/io/json_results.h"
#include "kvcalc/base/kv_format.h"
#include "kvcalc/model/layer_cache.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/io/url_check.h"
#include "kvcalc/io/startup_calibration.h"
#include "kvcalc/io/startup_calibration_json.h"
#include "kvcalc/io/startup_log.h"

namespace kvcalc {

using nlohmann::json;

namespace {

json failure(const Diagnostics& d) { return json{{"schema", kSchemaVersion}, {"ok", false}, {"diagnostics", d}}; }

/// The scenario field table (scenario_fields.h) as data, so a script or page takes its ranges and spellings from
/// the same rows as the JSON reader, the link codec and the CLI.
json fields_json() {
    static const char* const kTypes[] = {"integer", "number", "boolean", "text", "choice", "object"};
    json out = json::array();
    for (const auto& f : scenario_fields()) {
        json row{{"name", f.name},       {"group", f.group},         {"type", kTypes[static_cast<int>(f.type)]},
                 {"unit", f.unit},       {"default", f.default_text}, {"url_key", f.url_key},
                 {"cli_flag", f.cli_flag}, {"cli_aliases", f.cli_aliases}, {"help", f.help},
                 {"valid", field_valid_text(f)}};
        if (f.type == FieldType::integer || f.type == FieldType::number) {
            row["min"] = f.min;
            row["max"] = f.max;
            row["min_open"] = f.min_open;
            row["zero_means"] = f.zero_means;
        }
        out.push_back(std::move(row));
    }
    return out;
}

json catalog_json() {
    json models = json::array();
    for (const auto& m : model_catalog()) {
        json j = m;
        j["valid_tensor_parallel_sizes"] = valid_tensor_parallel_sizes(m);
        models.push_back(std::move(j));
    }
    json gpus = json::array();
    for (const auto& g : gpu_catalog())
        gpus.push_back({{"id", g.id}, {"display_name", g.display_name}, {"vram_bytes", g.vram_bytes},
                        {"sm_x10", g.sm_x10}, {"architecture", g.architecture}, {"aliases", g.aliases},
                        {"source", g.source}});
    json formats = json::array();
    for (const auto& f : kv_formats())
        formats.push_back({{"name", f.name}, {"bytes_per_element", static_cast<double>(f.bpe_x400) / kBpeDenominator},
                           {"bytes_per_element_exact", f.bpe_exact}, {"min_sm_x10", f.min_sm_x10},
                           {"max_sm_x10", f.max_sm_x10}, {"hardware_note", f.hardware_note}});
    json presets = json::array();
    for (const auto& p : compose_presets())
        presets.push_back({{"id", p.id}, {"model_id", p.model_id}, {"name", p.name}, {"scenario", p.scenario},
                           {"source", p.source}});
    return json{{"schema", kSchemaVersion}, {"ok", true},          {"diagnostics", json::array()},
                {"models", models},         {"gpus", gpus},        {"kv_formats", formats},
                {"presets", presets},       {"fields", fields_json()}};
}

/// The request's "solve" list and "criterion", checked without running a solver.
void check_solver_request(const json& req, Diagnostics& d) {
    if (req.contains("criterion") && req["criterion"] != "boots" && req["criterion"] != "uncapped")
        d.push_back({Severity::error, "bad_value", "criterion",
                     "criterion must be \"boots\" or \"uncapped\", got " + shown_value(req["criterion"])});
    if (!req.contains("solve")) return;
    if (!req["solve"].is_array()) {
        d.push_back({Severity::error, "bad_type", "solve", "solve must be an array of solver names"});
        return;
    }
    for (const auto& n : req["solve"])
        if (n != "max_model_len" && n != "max_num_seqs" && n != "min_vram" && n != "min_gpus")
            d.push_back({Severity::error, "solver_unknown", "solve",
                         "unknown solver " + shown_value(n) + ". Valid: max_model_len, max_num_seqs, min_vram, min_gpus"});
}

json solvers_json(const json& req, const Scenario& s, Diagnostics& d) {
    FitCriterion criterion = FitCriterion::boots;
    if (req.contains("criterion")) {
        const json& c = req["criterion"];
        if (c == "uncapped") criterion = FitCriterion::uncapped;
        else if (c != "boots")
            d.push_back({Severity::error, "bad_value", "criterion", "criterion must be \"boots\" or \"uncapped\", got " + shown_value(c)});
    }
    json names = req.contains("solve") ? req["solve"] : json::array({"max_model_len", "max_num_seqs", "min_vram", "min_gpus"});
    if (!names.is_array()) {
        d.push_back({Severity::error, "bad_type", "solve", "solve must be an array of solver names"});
        return json::object();
    }
    json out = json::object();
    for (const auto& n : names) {
        if (n == "max_model_len") out["max_model_len"] = solve_max_model_len(s, criterion);
        else if (n == "max_num_seqs") out["max_num_seqs"] = solve_max_num_seqs(s);
        else if (n == "min_vram") out["min_vram"] = solve_min_vram(s, criterion);
        else if (n == "min_gpus") out["min_gpus"] = solve_min_gpus(s, criterion);
        else
            d.push_back({Severity::error, "solver_unknown", "solve",
                         "unknown solver " + shown_value(n) + ". Valid: max_model_len, max_num_seqs, min_vram, min_gpus"});
    }
    return out;
}

/// The request as a JSON object, or the failure document that says why it is not one (too large, too deep, not
/// JSON, not an object).
std::optional<json> parse_request(std::string_view text, std::string& failed) {
    const auto fail = [&](const char* code, std::string message) {
        failed = dump_safe(failure({{Severity::error, code, "", std::move(message)}}));
        return std::nullopt;
    };
    if (text.size() > kMaxRequestBytes)
        return fail("too_large", "request is " + std::to_string(text.size()) + " bytes; at most " +
                                     std::to_string(kMaxRequestBytes) + " (8 MiB) are read");
    if (json_too_deep(text))
        return fail("too_deep", "request nests arrays/objects deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    json req = json::parse(text.begin(), text.end(), nullptr, false);
    if (req.is_discarded()) {
        const std::string detail = json_error_detail(text);
        return fail("bad_json", "request is not valid JSON (RFC 8259): " + detail +
                                    (detail.find("must be UTF-8") == std::string::npos
                                         ? "; check quotes, commas and brackets; NaN and Infinity are not JSON"
                                         : ""));
    }
    if (!req.is_object())
        return fail("bad_json", "request must be a JSON object ({ ... }), got " + std::string(req.type_name()));
    return req;
}

std::string action_catalog(const json&) { return dump_safe(catalog_json()); }

std::string action_calibration(const json&) {
    json j = run_calibration();
    j["ok"] = true;
    j["diagnostics"] = json::array();
    return dump_safe(j);
}

/// The shopping request's own errors, not each row's: every row sets the card and the TP, so the rest of the
/// scenario is checked at a card and TP that resolve (a bad value of those two is still reported by the field
/// table). One problem, one diagnostic (the table check and predict() both range-check).
Diagnostics shop_request_errors(const Scenario& s) {
    Scenario probe = s;
    probe.gpu.clear();
    probe.vram_gb.reset();
    probe.vram_gib = 24.0;
    probe.tensor_parallel_size = 1;
    probe.gpus = 0;
    Diagnostics top;
    check_scenario_fields(s, top);
    if (!s.gpu.empty() && !find_gpu(s.gpu))
        top.push_back({Severity::error, "gpu_unknown", "gpu",
                       "unknown gpu " + shown_value(s.gpu) + " (shopping tries every catalog card; give a known "
                       "id or none)"});
    for (auto& x : scenario_errors(probe))
        if (x.code != "out_of_range" || (x.field != "gpus" && x.field != "tensor_parallel_size")) top.push_back(std::move(x));
    std::erase_if(top, [](const Diagnostic& x) { return x.severity != Severity::error; });
    Diagnostics unique;
    for (auto& x : top)
        if (std::none_of(unique.begin(), unique.end(), [&](const Diagnostic& y) { return y.code == x.code && y.field == x.field; }))
            unique.push_back(std::move(x));
    return unique;
}

/// Every catalog GPU × 1, 2, 4, 8 cards (shopping(), sweeps.h).
std::string action_shop(const json&, const Scenario& s, Diagnostics& d) {
    const Diagnostics errors = shop_request_errors(s);
    if (!errors.empty()) {
        d.insert(d.end(), errors.begin(), errors.end());
        return dump_safe(failure(d));
    }
    json rows = shopping(s, gpu_catalog(), default_shop_counts());
    return dump_safe(json{{"schema", kSchemaVersion}, {"ok", true}, {"diagnostics", d}, {"rows", rows}});
}

/// Demand vs max_model_len at the scenario's seqs and card (demand_curve(), sweeps.h).
std::string action_curve(const json&, const Scenario& s, Diagnostics& d) {
    const std::optional<Deployment> dep = resolve(s, d);
    if (!dep) return dump_safe(failure(d));
    return dump_safe(json{{"schema", kSchemaVersion}, {"ok", true}, {"diagnostics", d},
                          {"curve", demand_curve(*dep, dep->load())}});
}

/// The report, with the solvers when the request lists them ("solve").
/// A request's "startup_log" (the text of an engine's start-up log): the scenario calibrated to it
/// (startup_calibration.h) and the report's "log" object. nullopt without one; errors in `d`.
struct LogRequest {
    StartupLog log;
    StartupCalibration calibration;
};
std::optional<LogRequest> read_log_request(const json& req, Scenario& s, Diagnostics& d) {
    if (!req.contains("startup_log")) return std::nullopt;
    const json& v = req["startup_log"];
    if (!v.is_string()) {
        d.push_back({Severity::error, "bad_type", "startup_log", "startup_log must be the log's text (a string)"});
        return std::nullopt;
    }
    LogRequest out;
    out.log = read_startup_log(v.get_ref<const std::string&>());
    bool model_given = false;
    for (const char* key : {"model", "model_id", "config", "config_json", "compose"}) model_given = model_given || req.contains(key);
    out.calibration = calibrate_from_log(s, out.log, model_given);
    for (const auto& x : out.log.diagnostics)
        if (x.severity == Severity::error) d.push_back(x);
    for (const auto& x : out.calibration.diagnostics) d.push_back(x);
    s = out.calibration.scenario;
    return out;
}

std::string action_predict(const json& req, const Scenario& s, Diagnostics& d, bool solving,
                           const LogRequest* log = nullptr) {
    if (solving) {  // a bad solver name or criterion fails the request before anything is priced (no verdict)
        Diagnostics bad;
        check_solver_request(req, bad);
        if (has_error(bad)) {
            d.insert(d.end(), bad.begin(), bad.end());
            return dump_safe(failure(d));
        }
    }
    Report report = predict(s);
    report.diagnostics.insert(report.diagnostics.begin(), d.begin(), d.end());
    json out = report;
    if (log) {  // each printed line beside kvcalc's own prediction of the same boot and the calibrated one
        Scenario own = s;
        own.measured.reset();
        const Report predicted = predict(own);
        out["log"] = calibrated_log_json(log->log, log->calibration, &predicted, &report);
    }
    if (solving) {
        Diagnostics sd;
        out["solvers"] = solvers_json(req, s, sd);
        for (const auto& x : sd) out["diagnostics"].push_back(x);
        if (has_error(sd)) out["ok"] = false;
    }
    return dump_safe(out);
}

std::string evaluate(std::string_view text) {
    std::string failed;
    const std::optional<json> parsed = parse_request(text, failed);
    if (!parsed) return failed;
    const json& req = *parsed;
    std::string action = "predict";
    if (req.contains("action")) {
        if (!req["action"].is_string())
            return dump_safe(failure({{Severity::error, "bad_type", "action", "action must be a string"}}));
        action = req["action"].get<std::string>();
    }
    // The actions that read no scenario.
    if (action == "catalog") return action_catalog(req);
    if (action == "calibration") return action_calibration(req);
    if (action != "predict" && action != "solve" && action != "shop" && action != "curve")
        return dump_safe(failure({{Severity::error, "bad_value", "action",
                                   "unknown action " + shown_value(req["action"]) +
                                       ". Valid: predict, solve, shop, curve, catalog, calibration"}}));
    Scenario s;
    Diagnostics d;
    read_scenario(req, s, d);
    if (has_error(d)) return dump_safe(failure(d));
    const std::optional<LogRequest> log = read_log_request(req, s, d);
    if (has_error(d)) return dump_safe(failure(d));
    // "solve" and "criterion" steer the solvers: read by action solve, and by predict when "solve" is given.
    const bool solving = action == "solve" || (action == "predict" && req.contains("solve"));
    for (const char* key : {"solve", "criterion"})
        if (req.contains(key) && !solving)
            d.push_back({Severity::warning, "key_ignored", key,
                         std::string(key) + " is ignored: only action solve (or predict with a \"solve\" list) runs "
                                            "the solvers, and this request's action is " + action});
    if (action == "shop") return action_shop(req, s, d);
    if (action == "curve") return action_curve(req, s, d);
    return action_predict(req, s, d, solving, log ? &*log : nullptr);
}

}  // namespace

std::string evaluate_json(std::string_view request_json) {
    try {
        return evaluate(request_json);
    } catch (const std::exception& e) {
        return dump_safe(failure({{Severity::error, "internal_error", "", std::string("internal error: ") + e.what()}}));
    } catch (...) {
        return dump_safe(failure({{Severity::error, "internal_error", "", "internal error"}}));
    }
}

}  // namespace kvcalc
