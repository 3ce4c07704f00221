// URL-state codec: one table row per Scenario field, so adding a field is one line (docs/URL.md).
#include "kvcalc/url_codec.h"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "kvcalc/catalog.h"
#include "kvcalc/gpu_catalog.h"
#include "kvcalc/kv_format.h"

namespace kvcalc {

namespace {

/// Result of reading one value: empty = accepted, otherwise what would be valid.
using Problem = std::optional<std::string>;

/// One key: how to write the field when it differs from the default, and how to read it back.
struct Row {
    const char* key;
    const char* field;
    const char* values;  ///< what is valid, for docs and warnings
    std::function<std::optional<std::string>(const Scenario&)> encode;  ///< nullopt = default, omit
    std::function<Problem(std::string_view, Scenario&)> decode;
};

// ---- value text ----

// Floating-point std::to_chars / from_chars are missing from Emscripten 3.1.6's libc++ (deleted overloads), so
// doubles go through printf/strtod: the shorter of the shortest fixed and the shortest %g text that reads back
// exactly (fixed on a tie), which is what to_chars prints ("20", "0.82", "1e-07").
std::string shortest_round_trip(double x, const char* format, int max_precision) {
    char buf[400];
    for (int precision = 0; precision <= max_precision; ++precision) {
        std::snprintf(buf, sizeof buf, format, precision, x);
        if (std::strtod(buf, nullptr) == x) return buf;
    }
    return buf;
}

std::string format_double(double x) {
    const std::string fixed = shortest_round_trip(x, "%.*f", 20);
    const std::string sci = shortest_round_trip(x, "%.*g", 17);
    return sci.size() < fixed.size() ? sci : fixed;
}

std::optional<double> parse_double(std::string_view t) {
    if (t.empty() || t.size() > 64) return std::nullopt;
    for (std::size_t i = 0; i < t.size(); ++i) {  // from_chars' grammar: no spaces, no leading '+', no hex
        const char c = t[i];
        const bool exponent_sign = (c == '+' || c == '-') && i > 0 && (t[i - 1] == 'e' || t[i - 1] == 'E');
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || exponent_sign ||
              (c == '-' && i == 0)))
            return std::nullopt;
    }
    const std::string text(t);
    char* end = nullptr;
    const double x = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(x)) return std::nullopt;
    return x;
}

std::optional<std::int64_t> parse_int(std::string_view t) {
    std::int64_t x = 0;
    if (t.empty()) return std::nullopt;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), x);
    if (r.ec != std::errc{} || r.ptr != t.data() + t.size()) return std::nullopt;
    return x;
}

// ---- row builders (member pointer + range or lookup) ----

template <class I>
Row int_row(const char* key, const char* field, I Scenario::*m, std::int64_t lo, std::int64_t hi, const char* values) {
    return {key, field, values,
            [m](const Scenario& s) -> std::optional<std::string> {
                if (s.*m == Scenario{}.*m) return std::nullopt;
                return std::to_string(s.*m);
            },
            [m, lo, hi, values](std::string_view t, Scenario& s) -> Problem {
                const auto x = parse_int(t);
                if (!x || *x < lo || *x > hi) return std::string(values);
                s.*m = static_cast<I>(*x);
                return std::nullopt;
            }};
}

template <class I>
Row opt_int_row(const char* key, const char* field, std::optional<I> Scenario::*m, std::int64_t lo, std::int64_t hi,
                const char* values) {
    return {key, field, values,
            [m](const Scenario& s) -> std::optional<std::string> {
                if (!(s.*m)) return std::nullopt;
                return std::to_string(*(s.*m));
            },
            [m, lo, hi, values](std::string_view t, Scenario& s) -> Problem {
                const auto x = parse_int(t);
                if (!x || *x < lo || *x > hi) return std::string(values);
                s.*m = static_cast<I>(*x);
                return std::nullopt;
            }};
}

/// `lo_open`: the lower bound itself is not allowed (e.g. utilization must be > 0).
Row double_row(const char* key, const char* field, double Scenario::*m, double lo, bool lo_open, double hi,
               const char* values) {
    return {key, field, values,
            [m](const Scenario& s) -> std::optional<std::string> {
                if (s.*m == Scenario{}.*m) return std::nullopt;
                return format_double(s.*m);
            },
            [=](std::string_view t, Scenario& s) -> Problem {
                const auto x = parse_double(t);
                if (!x || *x < lo || (lo_open && *x == lo) || *x > hi) return std::string(values);
                s.*m = *x;
                return std::nullopt;
            }};
}

/// Optional decimal quantity that must be > 0 (GB sizes).
Row opt_positive_row(const char* key, const char* field, std::optional<double> Scenario::*m, const char* values) {
    return {key, field, values,
            [m](const Scenario& s) -> std::optional<std::string> {
                if (!(s.*m)) return std::nullopt;
                return format_double(*(s.*m));
            },
            [m, values](std::string_view t, Scenario& s) -> Problem {
                const auto x = parse_double(t);
                if (!x || *x <= 0) return std::string(values);
                s.*m = *x;
                return std::nullopt;
            }};
}

/// String field; `check` returns the list of valid values when the text is not one of them.
Row string_row(const char* key, const char* field, std::string Scenario::*m, const char* values,
               std::function<Problem(std::string_view)> check = {}) {
    return {key, field, values,
            [m](const Scenario& s) -> std::optional<std::string> {
                if (s.*m == Scenario{}.*m) return std::nullopt;
                return s.*m;
            },
            [m, check](std::string_view t, Scenario& s) -> Problem {
                if (check && !t.empty()) {
                    if (auto p = check(t)) return p;
                }
                s.*m = std::string(t);
                return std::nullopt;
            }};
}

Row opt_bool_row(const char* key, const char* field, std::optional<bool> Scenario::*m) {
    return {key, field, "0 or 1",
            [m](const Scenario& s) -> std::optional<std::string> {
                if (!(s.*m)) return std::nullopt;
                return std::string(*(s.*m) ? "1" : "0");
            },
            [m](std::string_view t, Scenario& s) -> Problem {
                if (t != "0" && t != "1") return std::string("0 or 1");
                s.*m = (t == "1");
                return std::nullopt;
            }};
}

Row bool_row(const char* key, const char* field, bool Scenario::*m) {
    return {key, field, "0 or 1",
            [m](const Scenario& s) -> std::optional<std::string> {
                if (s.*m == Scenario{}.*m) return std::nullopt;
                return std::string(s.*m ? "1" : "0");
            },
            [m](std::string_view t, Scenario& s) -> Problem {
                if (t != "0" && t != "1") return std::string("0 or 1");
                s.*m = (t == "1");
                return std::nullopt;
            }};
}

Problem check_model(std::string_view t) {
    if (find_model(t)) return std::nullopt;
    return "a catalog model id: " + model_id_list();
}

Problem check_gpu(std::string_view t) {
    if (find_gpu(t)) return std::nullopt;
    std::string ids;
    for (const auto& g : gpu_catalog()) ids += (ids.empty() ? "" : ", ") + g.id;
    return "a catalog GPU id: " + ids;
}

Problem check_kv(std::string_view t) {
    if (find_kv_format(t)) return std::nullopt;
    return "one of " + kv_format_name_list();
}

Problem check_compose(std::string_view t) {
    if (find_preset(t)) return std::nullopt;
    std::string ids;
    for (const auto& p : compose_presets()) ids += (ids.empty() ? "" : ", ") + p.id;
    return "a preset id: " + ids;
}

Problem check_indexer(std::string_view t) {
    if (indexer_bpe_x400(t) >= 0) return std::nullopt;
    return std::string("one of fp16, bf16, fp8_e5m2, fp8_e4m3, int8, fp4, int4");
}

/// The key table. Keys are stable forever: never rename or reuse one; add new rows at the end.
const std::vector<Row>& rows() {
    static const std::vector<Row> table = {
        string_row("m", "model_id", &Scenario::model_id, "a catalog model id", check_model),
        string_row("c", "compose", &Scenario::compose, "a preset id", check_compose),
        string_row("wv", "weights_variant", &Scenario::weights_variant, "a weights variant id of the model"),
        opt_positive_row("wgb", "weights_gb", &Scenario::weights_gb, "a number > 0 (decimal GB)"),
        string_row("g", "gpu", &Scenario::gpu, "a catalog GPU id", check_gpu),
        opt_positive_row("vram", "vram_gb", &Scenario::vram_gb, "a number > 0 (decimal GB per card)"),
        opt_positive_row("vgib", "vram_gib", &Scenario::vram_gib, "a number > 0 (GiB per card)"),
        int_row("n", "gpus", &Scenario::gpus, 0, 8, "an integer 0..8 (0 = same as tp)"),
        int_row("tp", "tensor_parallel_size", &Scenario::tensor_parallel_size, 1, 8, "an integer 1..8"),
        string_row("kv", "kv_cache_dtype", &Scenario::kv_cache_dtype, "a KV format", check_kv),
        int_row("ctx", "max_model_len", &Scenario::max_model_len, 1, 100000000, "an integer 1..100000000 (tokens)"),
        int_row("seqs", "max_num_seqs", &Scenario::max_num_seqs, 1, 100000, "an integer 1..100000"),
        double_row("util", "gpu_memory_utilization", &Scenario::gpu_memory_utilization, 0, true, 1,
                   "a number in (0, 1]"),
        opt_int_row("mnbt", "max_num_batched_tokens", &Scenario::max_num_batched_tokens, 1, 100000000,
                    "an integer 1..100000000 (tokens)"),
        opt_bool_row("mtp", "mtp", &Scenario::mtp),
        string_row("dr", "drafter", &Scenario::drafter, "a drafter id of the model"),
        opt_positive_row("dgb", "drafter_gb", &Scenario::drafter_gb, "a number > 0 (decimal GB)"),
        opt_int_row("nst", "num_speculative_tokens", &Scenario::num_speculative_tokens, 1, 64, "an integer 1..64"),
        bool_row("dkv", "include_draft_kv", &Scenario::include_draft_kv),
        double_row("dkvgb", "draft_kv_gb", &Scenario::draft_kv_gb, 0, false, 1e6, "a number >= 0 (decimal GB per card)"),
        int_row("cl", "compressed_layers", &Scenario::compressed_layers, 0, 100000, "an integer >= 0"),
        int_row("cr", "compression_ratio", &Scenario::compression_ratio, 1, 1000000, "an integer >= 1"),
        int_row("chd", "compressed_head_dim", &Scenario::compressed_head_dim, 0, 1000000, "an integer >= 0"),
        int_row("irl", "indexer_ratio_layers", &Scenario::indexer_ratio_layers, 0, 100000, "an integer >= 0"),
        int_row("icr", "indexer_compress_ratio", &Scenario::indexer_compress_ratio, 1, 1000000, "an integer >= 1"),
        int_row("ihd", "indexer_head_dim", &Scenario::indexer_head_dim, 0, 1000000, "an integer >= 0"),
        string_row("ixf", "indexer_format", &Scenario::indexer_format, "an indexer format", check_indexer),
    };
    return table;
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
    for (const Row& r : rows()) {
        if (auto v = r.encode(s)) out += std::string("&") + r.key + "=" + percent_encode(*v);
    }
    return out;
}

Scenario decode_query(std::string_view query, Diagnostics& diagnostics) {
    Scenario s;
    if (const auto q = query.find('?'); q != std::string_view::npos) query.remove_prefix(q + 1);
    if (const auto h = query.find('#'); h != std::string_view::npos) query = query.substr(0, h);

    std::vector<std::string> seen;
    while (!query.empty()) {
        const auto amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
        if (pair.empty()) continue;

        const auto eq = pair.find('=');
        std::string key, value;
        const bool key_ok = percent_decode(pair.substr(0, eq), key);
        const bool value_ok = eq == std::string_view::npos || percent_decode(pair.substr(eq + 1), value);
        if (!key_ok || !value_ok) {
            warn(diagnostics, "url_bad_escape", "url", "URL parameter '" + std::string(pair) +
                                                           "' has a malformed %-escape; ignored");
            continue;
        }
        if (is_reserved(key)) continue;
        if (key == "v") {
            const auto v = parse_int(value);
            if (!v || *v < 1) {
                warn(diagnostics, "url_bad_value", "url.v",
                     "URL key 'v' (link version) = '" + value + "' is not valid; expected 1; read as version 1");
            } else if (*v > kUrlVersion) {
                warn(diagnostics, "url_future_version", "url.v",
                     "URL key 'v' = '" + value + "' is newer than this build understands (version " +
                         std::to_string(kUrlVersion) + "); keys are read as version " +
                         std::to_string(kUrlVersion) + " and unknown ones ignored");
            }
            continue;
        }
        const Row* row = nullptr;
        for (const Row& r : rows()) {
            if (key == r.key) row = &r;
        }
        if (!row) {
            std::string keys;
            for (const Row& r : rows()) keys += std::string(keys.empty() ? "" : ", ") + r.key;
            warn(diagnostics, "url_unknown_key", "url." + key,
                 "URL key '" + key + "' (value '" + value + "') is not known; ignored. Known keys: v, " + keys);
            continue;
        }
        for (const auto& k : seen) {
            if (k == key) {
                warn(diagnostics, "url_repeated_key", std::string("url.") + row->key,
                     "URL key '" + key + "' appears more than once; the last value is used");
            }
        }
        seen.push_back(key);
        if (const Problem p = row->decode(value, s)) {  // decoders assign only on success
            warn(diagnostics, "url_bad_value", std::string("url.") + row->key,
                 "URL key '" + key + "' (" + row->field + ") = '" + value + "' is not valid; expected " + *p +
                     "; the default is kept");
        }
    }
    return s;
}

Diagnostics url_unrepresentable(const Scenario& s) {
    Diagnostics d;
    if (s.model) {
        warn(d, "url_inline_model", "model",
             "an inline model (from a config.json) cannot travel in a link; the link names model '" + s.model_id +
                 "' instead");
    }
    return d;
}

std::vector<UrlKeyInfo> url_keys() {
    std::vector<UrlKeyInfo> out;
    for (const Row& r : rows()) out.push_back({r.key, r.field, r.values});
    return out;
}

}  // namespace kvcalc
