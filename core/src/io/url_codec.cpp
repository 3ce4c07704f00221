// URL-state codec over the scenario field table (scenario_fields.h): keys, ranges and choices come from its rows.
#include "kvcalc/io/startup_calibration_json.h"
#include "kvcalc/io/url_codec.h"
#include "kvcalc/base/echo.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/deployment/input_limits.h"
#include "kvcalc/deployment/scenario_fields.h"

namespace kvcalc {

namespace {

/// The fields a link carries: every table row with a URL key, in table order (scenario_fields.h).
const std::vector<const ScenarioField*>& rows() {
    static const std::vector<const ScenarioField*> carried = [] {
        std::vector<const ScenarioField*> out;
        for (const auto& f : scenario_fields())
            if (*f.url_key) out.push_back(&f);
        return out;
    }();
    return carried;
}

/// decode_query accepts only preset ids for 'c'; encode_query leaves any other label out.
bool is_preset_label(const Scenario& s) { return s.compose.empty() || find_preset(s.compose) != nullptr; }

std::optional<std::int64_t> parse_int(std::string_view t) {
    std::int64_t x = 0;
    if (t.empty()) return std::nullopt;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), x);
    if (r.ec != std::errc{} || r.ptr != t.data() + t.size()) return std::nullopt;
    return x;
}

bool is_reserved(std::string_view key) {
    return key == "embed" || key == "theme" || key == "unit" || key == "panel";
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void warn(Diagnostics& d, const std::string& code, const std::string& field, const std::string& message) {
    d.push_back({Severity::warning, code, field, message});
}

/// A piece of a link in single quotes, cut as every echoed value is (echo.h).
std::string quoted(std::string_view text) { return "'" + echo_cut(text) + "'"; }

/// The query part of what the user gave: a bare query is used as it is; a URL (a scheme "x://", a path "/…", a
/// fragment "#…") has one only after a '?', and its '#fragment' is not part of it. `is_url_without_query` is set
/// for a URL that has no '?'.
std::string_view query_part(std::string_view text, bool& is_url_without_query) {
    is_url_without_query = false;
    const auto q = text.find('?');
    const auto h = text.find('#');
    if (q != std::string_view::npos && (h == std::string_view::npos || q < h)) {
        text.remove_prefix(q + 1);
        return text.substr(0, text.find('#'));
    }
    const auto scheme = text.find("://");
    const bool url = (scheme != std::string_view::npos && scheme < text.find_first_of("&=")) ||
                     (!text.empty() && (text.front() == '/' || text.front() == '#'));
    if (url) {
        is_url_without_query = true;
        return {};
    }
    return text.substr(0, h);
}

/// Where a %-escape in `text` is malformed ("%" not followed by two hex digits), or npos.
std::size_t bad_escape_at(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') continue;
        if (i + 2 >= text.size() || hex_value(text[i + 1]) < 0 || hex_value(text[i + 2]) < 0) return i;
        i += 2;
    }
    return std::string_view::npos;
}

}  // namespace

std::string percent_encode(std::string_view text) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (const unsigned char c : text) {
        const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                                c == '-' || c == '.' || c == '_' || c == '~';
        if (unreserved) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

bool percent_decode(std::string_view text, std::string& out) {
    out.clear();
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '+') {
            out += ' ';
        } else if (c == '%') {
            if (i + 2 >= text.size()) return false;
            const int hi = hex_value(text[i + 1]);
            const int lo = hex_value(text[i + 2]);
            if (hi < 0 || lo < 0) return false;
            out += static_cast<char>(hi * 16 + lo);
            i += 2;
        } else {
            out += c;
        }
    }
    return true;
}

std::string encode_query(const Scenario& s) {
    std::string out = "v=" + std::to_string(kUrlVersion);
    for (const ScenarioField* f : rows()) {
        if (field_is_default(*f, s)) continue;
        // Not a preset id: left out (url_unrepresentable warns).
        if (std::string_view(f->name) == "compose" && !is_preset_label(s)) continue;
        // A Hub model (hf=) or a pasted config.json is not the catalog model model_id still names: a stale m= would
        // open another model where the fragment or the Hub files are not read.
        if (std::string_view(f->name) == "model_id" && (s.model || !s.config_json.empty() || !s.hub_model.empty() || !s.hub_gguf.empty()))
            continue;
        if (auto v = field_text(*f, s)) out += std::string("&") + f->url_key + "=" + percent_encode(*v);
    }
    // A calibrated scenario carries the boot's measured terms, not its log (startup_calibration_json.h).
    if (s.measured) out += "&mt=" + percent_encode(measured_terms_text(*s.measured));
    return out;
}

Scenario url_version_1_defaults() {
    Scenario s;
    s.kv_cache_dtype = "fp8_e5m2";
    s.max_model_len = 180000;
    s.max_num_seqs = 1;
    s.gpu_memory_utilization = 0.95;
    return s;
}

namespace {

/// What an absent key means in a link of `version`: the field table's default, or for a version 1 link the seed
/// CLI's value where that differs.
std::string absent_text(const ScenarioField& f, int version) {
    if (version == 1) {
        static const Scenario v1 = url_version_1_defaults();
        if (!field_is_default(f, v1))
            if (auto t = field_text(f, v1)) return *t + ", a version 1 link's default";
    }
    return f.default_text;
}

}  // namespace

namespace {

/// One "key=value" of a query, %-decoded; `decoded` is false when an escape is malformed.
struct QueryPair {
    std::string_view raw;
    std::string key, value;
    bool decoded = false;
};

/// A query's pairs in order; `too_many` when more than kMaxQueryParameters were left unread.
struct SplitQuery {
    std::vector<QueryPair> pairs;
    bool too_many = false;
};

/// The query's pairs, at most kMaxQueryParameters of its first kMaxQueryBytes: bounded work for any link.
SplitQuery split_query(std::string_view query, Diagnostics& diagnostics) {
    if (query.size() > kMaxQueryBytes) {
        warn(diagnostics, "url_too_long", "url",
             "the link's query is " + std::to_string(query.size()) + " characters; only the first " +
                 std::to_string(kMaxQueryBytes) + " are read (a kvcalc link is under 1,000)");
        query = query.substr(0, kMaxQueryBytes);
    }
    SplitQuery out;
    std::vector<QueryPair>& pairs = out.pairs;
    while (!query.empty()) {
        if (pairs.size() >= kMaxQueryParameters) {
            out.too_many = true;
            break;
        }
        const auto amp = query.find('&');
        const std::string_view raw = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
        if (raw.empty()) continue;
        QueryPair p;
        p.raw = raw;
        const auto eq = raw.find('=');
        p.decoded = percent_decode(raw.substr(0, eq), p.key) &&
                    (eq == std::string_view::npos || percent_decode(raw.substr(eq + 1), p.value));
        pairs.push_back(std::move(p));
    }
    return out;
}

/// The link version, which decides what an absent key means (url_codec.h), read first wherever 'v' stands. A link
/// with keys but no 'v' is an old one (version 1 wrote it, but trimmed links drop it); one with no scenario key at
/// all (nothing, or only the page's reserved keys) means today's defaults.
int link_version(const std::vector<QueryPair>& pairs, Diagnostics& diagnostics) {
    bool has_v = false, has_keys = false;
    for (const QueryPair& p : pairs) {
        has_v = has_v || (p.decoded && p.key == "v");
        has_keys = has_keys || !p.decoded || (p.key != "v" && !is_reserved(p.key));
    }
    int version = has_keys && !has_v ? 1 : kUrlVersion;
    for (const QueryPair& p : pairs) {
        if (!p.decoded || p.key != "v") continue;
        const auto v = parse_int(p.value);
        if (!v || *v < 1) {
            warn(diagnostics, "url_bad_value", "url.v",
                 "URL key 'v' (link version) = '" + echo_cut(p.value) + "' is not valid; expected 1 or " +
                     std::to_string(kUrlVersion) + "; read as version " + std::to_string(kUrlVersion));
        } else if (*v > kUrlVersion) {
            warn(diagnostics, "url_future_version", "url.v",
                 "URL key 'v' = '" + echo_cut(p.value) + "' is newer than this build understands (version " +
                     std::to_string(kUrlVersion) + "); keys are read as version " + std::to_string(kUrlVersion) +
                     " and unknown ones ignored");
        } else {
            version = static_cast<int>(*v);
        }
    }
    return version;
}

void warn_bad_escape(const QueryPair& p, Diagnostics& diagnostics) {
    const std::size_t at = bad_escape_at(p.raw);
    const std::string_view escape = at == std::string_view::npos ? p.raw : p.raw.substr(at, 3);
    const auto eq = p.raw.find('=');
    const std::string key = eq == std::string_view::npos ? std::string(p.raw) : std::string(p.raw.substr(0, eq));
    warn(diagnostics, "url_bad_escape", "url." + echo_cut(key),
         "URL parameter " + quoted(p.raw) + " has a malformed %-escape " + quoted(escape) +
             ": '%' must be followed by two hex digits (':' is %3A, '%' itself %25); the parameter is "
             "ignored and its field read as absent");
}

/// The measured start-up terms of a calibrated scenario (key mt); a bad value warns and reads as absent.
void apply_measured_terms(const std::string& value, Scenario& s, Diagnostics& diagnostics) {
    MeasuredTerms m;
    Diagnostics bad;
    if (parse_measured_terms_text(value, m, bad)) {
        s.measured = m;
        return;
    }
    warn(diagnostics, "url_bad_value", "url.mt",
         "URL key 'mt' (measured start-up terms): " + (bad.empty() ? std::string() : bad.front().message) +
             "; read as absent (kvcalc's own terms)");
}

/// The field table's row for a URL key; nullptr (with a warning listing the keys) when none has it.
const ScenarioField* row_for_key(const std::string& key, const std::string& value, Diagnostics& diagnostics) {
    for (const ScenarioField* f : rows())
        if (key == f->url_key) return f;
    std::string keys;
    for (const ScenarioField* f : rows()) keys += std::string(keys.empty() ? "" : ", ") + f->url_key;
    warn(diagnostics, "url_unknown_key", "url." + echo_cut(key),
         "URL key '" + echo_cut(key) + "' (value '" + echo_cut(value) + "') is not known; ignored. Known keys: v, " +
             keys);
    return nullptr;
}

/// Keys already read, so a repeated key warns once (not once per earlier copy).
struct SeenKeys {
    std::vector<std::string> seen, repeated;
    void note(const std::string& key, const ScenarioField& row, Diagnostics& diagnostics) {
        const auto has = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), key) != v.end(); };
        if (!has(seen)) {
            seen.push_back(key);
        } else if (!has(repeated)) {
            repeated.push_back(key);
            warn(diagnostics, "url_repeated_key", std::string("url.") + row.url_key,
                 "URL key '" + key + "' appears more than once; the last value is used");
        }
    }
};

/// Sets the field a pair names; a bad value leaves the field as an absent key leaves it (set_field_from_text
/// assigns only on success) and says what that means in this link's version.
void apply_pair(const QueryPair& p, int version, SeenKeys& keys, Scenario& s, Diagnostics& diagnostics) {
    if (!p.decoded) return warn_bad_escape(p, diagnostics);
    const std::string& key = p.key;
    const std::string& value = p.value;
    if (is_reserved(key) || key == "v") return;
    if (key == "mt") return apply_measured_terms(value, s, diagnostics);
    const ScenarioField* row = row_for_key(key, value, diagnostics);
    if (!row) return;
    keys.note(key, *row, diagnostics);
    if (const FieldTextStatus st = set_field_from_text(*row, value, s); st != FieldTextStatus::ok) {
        warn(diagnostics, "url_bad_value", std::string("url.") + row->url_key,
             "URL key '" + key + "' (" + row->name + ") = '" + echo_cut(value) + "' " + field_status_text(*row, st) +
                 "; expected " + field_valid_text(*row) + "; read as absent (" + absent_text(*row, version) + ")");
    }
}

}  // namespace

Scenario decode_query(std::string_view text, Diagnostics& diagnostics) {
    bool url_without_query = false;
    const std::string_view query = query_part(text, url_without_query);
    if (url_without_query)
        warn(diagnostics, "url_no_query", "url",
             "the link " + quoted(text) + " has no '?' part, so it carries no scenario (a kvcalc link reads "
             "…/?v=" + std::to_string(kUrlVersion) + "&m=…&g=…; a '#fragment' is not read); the defaults are used");
    const SplitQuery split = split_query(query, diagnostics);
    const int version = link_version(split.pairs, diagnostics);
    Scenario s = version == 1 ? url_version_1_defaults() : Scenario{};
    SeenKeys keys;
    for (const QueryPair& p : split.pairs) apply_pair(p, version, keys, s, diagnostics);
    if (split.too_many)  // the last word on the link, after the pairs' own warnings
        warn(diagnostics, "url_too_many_parameters", "url",
             "the link has more than " + std::to_string(kMaxQueryParameters) +
                 " parameters; the rest are ignored (a kvcalc link has at most " + std::to_string(rows().size() + 1) +
                 ")");
    return s;
}

Diagnostics url_unrepresentable(const Scenario& s) {
    Diagnostics d;
    if (s.model && !s.model->gguf_file.empty() && s.hub_model.empty() && s.hub_gguf.empty()) {
        warn(d, "url_inline_model", "model.gguf_file",
             "a model read from a local GGUF file ('" + s.model->gguf_file +
                 "') cannot travel in a link: only a Hub GGUF does (gguf=ORG/NAME/FILE.gguf); the link opens the "
                 "default model");
    } else if ((s.model || !s.config_json.empty()) && s.hub_model.empty() && s.hub_gguf.empty()) {
        warn(d, "url_inline_model", s.model ? "model" : "config_json",
             "an inline model (from a config.json) cannot travel in a link, and it names no Hub repo (hf=): the "
             "link opens the default model unless it carries the file (the page's #cfg= fragment)");
    }
    if (!is_preset_label(s))
        warn(d, "url_compose_dropped", "compose_source",
             "compose_source '" + s.compose + "' is not a preset id, so the link leaves it out (it is a label only: "
             "the settings it produced travel as their own keys)");
    return d;
}

std::vector<UrlKeyInfo> url_keys() {
    std::vector<UrlKeyInfo> out;
    for (const ScenarioField* f : rows()) out.push_back({f->url_key, f->name, field_valid_text(*f)});
    return out;
}

}  // namespace kvcalc
