// JSON of measured terms and of a calibrated report's "log" object (startup_calibration_json.h).
#include "kvcalc/io/startup_calibration_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <string>

#include "kvcalc/base/units.h"
#include "kvcalc/io/json_io.h"
#include "kvcalc/io/startup_log_json.h"

namespace kvcalc {

using nlohmann::json;

namespace {

constexpr double kMaxMeasuredGib = 1e6;
constexpr std::int64_t kMaxMeasuredTokens = std::int64_t{1} << 27;

double gib(std::int64_t bytes) { return static_cast<double>(bytes) / static_cast<double>(kBytesPerGib); }

struct TermKey {
    const char* key;
    std::optional<std::int64_t> MeasuredTerms::*member;
};
constexpr TermKey kTerms[] = {
    {"cuda_total_gib", &MeasuredTerms::cuda_total_bytes},   {"weights_gib", &MeasuredTerms::weights_bytes},
    {"torch_peak_gib", &MeasuredTerms::torch_peak_bytes},   {"non_torch_gib", &MeasuredTerms::non_torch_bytes},
    {"cudagraph_gib", &MeasuredTerms::cudagraph_bytes},     {"available_kv_gib", &MeasuredTerms::available_kv_bytes},
};
struct CountKey {
    const char* key;
    std::int64_t MeasuredTerms::*member;
};
constexpr CountKey kCounts[] = {
    {"max_model_len", &MeasuredTerms::max_model_len},
    {"max_num_seqs", &MeasuredTerms::max_num_seqs},
    {"max_num_batched_tokens", &MeasuredTerms::max_num_batched_tokens},
};

std::string shown(const json& v) {
    std::string s = v.dump();
    return s.size() > 64 ? s.substr(0, 64) + "…" : s;
}

}  // namespace

void to_json(json& j, const MeasuredTerms& m) {
    j = json::object();
    for (const CountKey& c : kCounts)
        if (m.*c.member > 0) j[c.key] = m.*c.member;
    if (m.gpu_memory_utilization > 0) j["gpu_memory_utilization"] = m.gpu_memory_utilization;
    for (const TermKey& t : kTerms)
        if (m.*t.member) j[t.key] = gib(*(m.*t.member));
    if (m.kv_cache_memory_fixed) j["kv_cache_memory_fixed"] = true;
}

bool read_measured_terms(const json& j, MeasuredTerms& m, Diagnostics& d) {
    const std::size_t errors_before = d.size();
    const auto bad = [&](const std::string& key, const json& v, const std::string& valid) {
        d.push_back({Severity::error, "bad_value", "measured." + key,
                     "measured." + key + " " + shown(v) + " is not valid: " + valid});
    };
    if (!j.is_object()) {
        d.push_back({Severity::error, "bad_type", "measured", "measured must be an object of start-up terms"});
        return false;
    }
    m = MeasuredTerms{};
    for (const auto& [k, v] : j.items()) {
        bool known = false;
        for (const CountKey& c : kCounts) {
            if (k != c.key) continue;
            known = true;
            if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > kMaxMeasuredTokens)
                bad(k, v, "an integer 0..134217728 (0 = the engine's default at that boot)");
            else
                m.*c.member = v.get<std::int64_t>();
        }
        for (const TermKey& t : kTerms) {
            if (k != t.key) continue;
            known = true;
            if (v.is_null()) continue;
            if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0 || v.get<double>() > kMaxMeasuredGib)
                bad(k, v, "GiB, a number 0..1000000, or null (not printed)");
            else
                m.*t.member = static_cast<std::int64_t>(std::llround(v.get<double>() * static_cast<double>(kBytesPerGib)));
        }
        if (k == "gpu_memory_utilization") {
            known = true;
            if (!v.is_number() || !(v.get<double>() >= 0 && v.get<double>() <= 1)) bad(k, v, "a number in (0, 1], or 0 (the default)");
            else m.gpu_memory_utilization = v.get<double>();
        } else if (k == "kv_cache_memory_fixed") {
            known = true;
            if (!v.is_boolean()) bad(k, v, "true or false");
            else m.kv_cache_memory_fixed = v.get<bool>();
        }
        if (!known)
            d.push_back({Severity::warning, "unknown_key", "measured." + k, "unknown key measured." + k + " ignored"});
    }
    for (std::size_t i = errors_before; i < d.size(); ++i)
        if (d[i].severity == Severity::error) return false;
    return true;
}

namespace {

// Link names of the JSON keys (the link stays short and readable).
constexpr std::pair<const char*, const char*> kShort[] = {
    {"len", "max_model_len"},      {"seqs", "max_num_seqs"},       {"batch", "max_num_batched_tokens"},
    {"util", "gpu_memory_utilization"}, {"total", "cuda_total_gib"}, {"weights", "weights_gib"},
    {"peak", "torch_peak_gib"},     {"nontorch", "non_torch_gib"},  {"graphs", "cudagraph_gib"},
    {"kv", "available_kv_gib"},     {"fixed", "kv_cache_memory_fixed"},
};

}  // namespace

std::string measured_terms_text(const MeasuredTerms& m) {
    const json j = m;
    std::string out;
    for (const auto& [short_name, key] : kShort) {
        if (!j.contains(key)) continue;
        const json& v = j[key];
        std::string text;
        if (v.is_boolean()) text = v.get<bool>() ? "1" : "0";
        else if (v.is_number_integer()) text = std::to_string(v.get<std::int64_t>());
        else {
            char buf[40];
            std::snprintf(buf, sizeof buf, "%.9g", v.get<double>());
            text = buf;
        }
        out += (out.empty() ? "" : ",") + std::string(short_name) + ":" + text;
    }
    return out;
}

bool parse_measured_terms_text(std::string_view text, MeasuredTerms& m, Diagnostics& d) {
    json j = json::object();
    std::size_t pos = 0;
    while (pos <= text.size() && !text.empty()) {
        const std::size_t end = std::min(text.find(',', pos), text.size());
        const std::string_view pair = text.substr(pos, end - pos);
        const std::size_t colon = pair.find(':');
        const char* key = nullptr;
        if (colon != std::string_view::npos)
            for (const auto& [short_name, long_name] : kShort)
                if (pair.substr(0, colon) == short_name) key = long_name;
        const std::string value(colon == std::string_view::npos ? std::string_view() : pair.substr(colon + 1));
        char* stop = nullptr;
        const double x = value.empty() ? 0 : std::strtod(value.c_str(), &stop);
        if (!key || value.empty() || !stop || *stop != '\0' || !std::isfinite(x)) {
            d.push_back({Severity::error, "bad_value", "measured",
                         "measured term '" + std::string(pair.substr(0, 64)) +
                             "' is not readable: write name:value pairs joined by ',' (len, seqs, batch, util, total, "
                             "weights, peak, nontorch, graphs, kv, fixed)"});
            return false;
        }
        if (std::string_view(key) == "kv_cache_memory_fixed") j[key] = x != 0;
        else if (std::string_view(key).ends_with("_gib") || std::string_view(key) == "gpu_memory_utilization") j[key] = x;
        else if (x == std::floor(x) && std::abs(x) < 1e15) j[key] = static_cast<std::int64_t>(x);
        else j[key] = x;
        pos = end + 1;
        if (end == text.size()) break;
    }
    return read_measured_terms(j, m, d);
}

void to_json(json& j, const LogComparisonRow& r) {
    const auto opt = [](const std::optional<double>& x) { return x ? json(*x) : json(nullptr); };
    j = json{{"name", r.name},           {"label", r.label},
             {"unit", r.unit},           {"printed", r.printed},
             {"predicted", opt(r.predicted)}, {"calibrated", opt(r.calibrated)},
             {"difference", r.calibrated ? json(*r.calibrated - r.printed) : json(nullptr)},
             {"predicted_difference", r.predicted ? json(*r.predicted - r.printed) : json(nullptr)},
             {"line", r.line}};
}

json calibrated_log_json(const StartupLog& log, const StartupCalibration& c, const Report* predicted,
                         const Report* calibrated) {
    json j = log;
    j["filled"] = c.filled;
    j["measured"] = c.scenario.measured ? json(*c.scenario.measured) : json(nullptr);
    json rows = json::array();
    for (const LogComparisonRow& r : compare_with_log(log, predicted, calibrated)) rows.push_back(r);
    j["comparison"] = std::move(rows);
    for (const Diagnostic& x : c.diagnostics) j["diagnostics"].push_back(x);
    return j;
}

}  // namespace kvcalc
