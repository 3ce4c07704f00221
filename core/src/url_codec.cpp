// URL-state codec: one table row per Scenario field, so adding a field is one line (docs/URL.md).
#include "kvcalc/url_codec.h"
#include "kvcalc/deployment.h"
#include "kvcalc/vllm_accounting.h"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cstdlib>
#include <cstdio>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>

#include "kvcalc/catalog.h"
#include "kvcalc/gpu_catalog.h"
#include "kvcalc/input_limits.h"
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

/// Shortest plain decimal (no exponent, so no '+' to escape) that reads back as exactly `x`.
/// Uses snprintf/strtod rather than std::to_chars: Emscripten 3.1.6's libc++ has no floating-point to_chars.
std::string format_double(double x) {
    char buf[400];
    for (int decimals = 0; decimals <= 17; ++decimals) {
        std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
        if (std::strtod(buf, nullptr) == x) return buf;
    }
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return buf;
}

/// A finite decimal number: optional '-', digits with at most one '.', optional exponent. Nothing else
/// (strtod alone would also take "inf", "nan", hex and leading blanks).
std::optional<double> parse_double(std::string_view t) {
    std::size_t i = 0;
    if (i < t.size() && t[i] == '-') ++i;
    std::size_t digits = 0, dots = 0;
    for (; i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.'); ++i) {
        if (t[i] == '.') ++dots; else ++digits;
    }
    if (digits == 0 || dots > 1) return std::nullopt;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
        std::size_t exp_digits = 0;
        for (; i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); ++i) ++exp_digits;
        if (exp_digits == 0) return std::nullopt;
    }
    if (i != t.size()) return std::nullopt;
    const std::string text(t);
    const double x = std::strtod(text.c_str(), nullptr);
    if (!std::isfinite(x)) return std::nullopt;
    return x;
}

std::optional<std::int64_t> parse_int(std::string_view t) {
    std::int64_t x = 0;
    if (t.empty()) return std::nullopt;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), x);
    if (r.ec != std::errc{} || r.ptr != t.data() + t.size()) return std::nullopt;
    return x;
}

// ---- row builders: one template for every number/flag field, plain or optional ----

template <class T> struct Plain { using type = T; };
template <class T> struct Plain<std::optional<T>> { using type = T; };

template <class T> std::string text_of(T v) {
    if constexpr (std::is_same_v<T, bool>) return v ? "1" : "0";
    else if constexpr (std::is_floating_point_v<T>) return format_double(v);
    else return std::to_string(v);
}

/// Reads a value of type T in [lo, hi] (lo excluded when lo_open); bools are "0"/"1".
template <class T> std::optional<T> read_as(std::string_view t, double lo, bool lo_open, double hi) {
    if constexpr (std::is_same_v<T, bool>) {
        if (t != "0" && t != "1") return std::nullopt;
        return t == "1";
    } else {
        std::optional<double> x;
        if constexpr (std::is_floating_point_v<T>) x = parse_double(t);
        else if (const auto i = parse_int(t)) x = static_cast<double>(*i);
        if (!x || *x < lo || (lo_open && *x == lo) || *x > hi) return std::nullopt;
        return static_cast<T>(*x);
    }
}

/// A number or 0/1 field. Plain fields are written when they differ from the default, optional ones when set.
/// Integer bounds stay well inside 2^53, so the double comparison is exact.
template <class M>
Row value_row(const char* key, const char* field, M Scenario::*m, double lo, bool lo_open, double hi,
              const char* values) {
    using T = typename Plain<M>::type;
    return {key, field, values,
            [m](const Scenario& s) -> std::optional<std::string> {
                const M& v = s.*m;
                if constexpr (std::is_same_v<M, T>) {
                    if (v == Scenario{}.*m) return std::nullopt;
                    return text_of<T>(v);
                } else {
                    if (!v) return std::nullopt;
                    return text_of<T>(*v);
                }
            },
            [=](std::string_view t, Scenario& s) -> Problem {
                const auto x = read_as<T>(t, lo, lo_open, hi);
                if (!x) return std::string(values);
                s.*m = *x;
                return std::nullopt;
            }};
}

constexpr double kHuge = 1e6;  ///< largest size in GB the core accepts (resolve(): "at most 1e6")

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

Problem check_model(std::string_view t) {
    if (find_model(t)) return std::nullopt;
    return "a catalog model id: " + model_id_list();
}

/// "a, b, c" from the `id` of every item.
template <class List> std::string join_ids(const List& items) {
    std::string ids;
    for (const auto& x : items) ids += (ids.empty() ? "" : ", ") + x.id;
    return ids;
}

Problem check_gpu(std::string_view t) {
    if (find_gpu(t)) return std::nullopt;
    return "a catalog GPU id: " + join_ids(gpu_catalog());
}

Problem check_kv(std::string_view t) {
    if (find_kv_format(t) || is_auto_kv_cache_dtype(t)) return std::nullopt;
    return "one of " + kv_format_name_list();
}

Problem check_compose(std::string_view t) {
    if (find_preset(t)) return std::nullopt;
    return "a preset id: " + join_ids(compose_presets());
}

Problem check_indexer(std::string_view t) {
    if (indexer_bpe_x400(t) >= 0) return std::nullopt;
    return std::string("one of fp16, bf16, fp8_e5m2, fp8_e4m3, int8, fp4, int4");
}

/// The engines table decides (ids and aliases, any case), exactly as resolve() does, so every engine a scenario
/// accepts survives a link.
Problem check_engine(std::string_view t) {
    if (find_engine(t)) return std::nullopt;
    return std::string("one of vllm, llama.cpp, sglang");
}

Problem check_vllm_version(std::string_view t) {
    if (parse_vllm_version(t)) return std::nullopt;
    return "a vLLM release such as 0.19, or one of " + vllm_era_ids();
}

Problem check_weights_dtype(std::string_view t) {
    for (const char* d : {"auto", "bf16", "fp16", "fp32", "fp8", "int8", "int4", "nvfp4", "mxfp4"})
        if (t == d) return std::nullopt;
    return std::string("one of auto, bf16, fp16, fp32, fp8, int8, int4, nvfp4, mxfp4");
}

/// The key table. Keys are stable forever: never rename or reuse one; add new rows at the end.
const std::vector<Row>& rows() {
    static const std::vector<Row> table = {
        string_row("m", "model_id", &Scenario::model_id, "a catalog model id", check_model),
        string_row("c", "compose", &Scenario::compose, "a preset id", check_compose),
        string_row("wv", "weights_variant", &Scenario::weights_variant, "a weights variant id of the model"),
        value_row("wgb", "weights_gb", &Scenario::weights_gb, 0, true, kHuge, "a number > 0, at most 1e6 (decimal GB)"),
        string_row("g", "gpu", &Scenario::gpu, "a catalog GPU id", check_gpu),
        value_row("vram", "vram_gb", &Scenario::vram_gb, 0, true, kHuge, "a number > 0, at most 1e6 (decimal GB per card)"),
        value_row("vgib", "vram_gib", &Scenario::vram_gib, 0, true, kHuge, "a number > 0, at most 1e6 (GiB per card)"),
        value_row("n", "gpus", &Scenario::gpus, 0, false, 8, "an integer 0..8 (0 = same as tp)"),
        value_row("tp", "tensor_parallel_size", &Scenario::tensor_parallel_size, 1, false, 8, "an integer 1..8"),
        string_row("kv", "kv_cache_dtype", &Scenario::kv_cache_dtype, "a KV format", check_kv),
        value_row("ctx", "max_model_len", &Scenario::max_model_len, 1, false, 134217728, "an integer 1..134217728 (tokens)"),
        value_row("seqs", "max_num_seqs", &Scenario::max_num_seqs, 0, false, 65536,
                  "an integer 0..65536 (0 = vLLM's default)"),
        value_row("util", "gpu_memory_utilization", &Scenario::gpu_memory_utilization, 0, false, 1,
                   "a number in [0, 1] (0 = the vLLM version's default)"),
        value_row("mnbt", "max_num_batched_tokens", &Scenario::max_num_batched_tokens, 1, false, 134217728,
                    "an integer 1..134217728 (tokens)"),
        value_row("mtp", "mtp", &Scenario::mtp, 0, false, 1, "0 or 1"),
        string_row("dr", "drafter", &Scenario::drafter, "a drafter id of the model"),
        value_row("dgb", "drafter_gb", &Scenario::drafter_gb, 0, false, kHuge, "a number >= 0, at most 1e6 (decimal GB)"),
        value_row("nst", "num_speculative_tokens", &Scenario::num_speculative_tokens, 0, false, 64, "an integer 0..64"),
        value_row("dkv", "include_draft_kv", &Scenario::include_draft_kv, 0, false, 1, "0 or 1"),
        value_row("dkvgb", "draft_kv_gb", &Scenario::draft_kv_gb, 0, false, 1e6, "a number >= 0, at most 1e6 (decimal GB per card)"),
        value_row("cl", "compressed_layers", &Scenario::compressed_layers, 0, false, 4096, "an integer 0..4096"),
        value_row("cr", "compression_ratio", &Scenario::compression_ratio, 1, false, 1048576, "an integer 1..1048576"),
        value_row("chd", "compressed_head_dim", &Scenario::compressed_head_dim, 0, false, 65536, "an integer 0..65536 (0 = model head dim)"),
        value_row("irl", "indexer_ratio_layers", &Scenario::indexer_ratio_layers, 0, false, 4096, "an integer 0..4096"),
        value_row("icr", "indexer_compress_ratio", &Scenario::indexer_compress_ratio, 1, false, 1048576, "an integer 1..1048576"),
        value_row("ihd", "indexer_head_dim", &Scenario::indexer_head_dim, 0, false, 65536, "an integer 0..65536 (0 = model head dim)"),
        string_row("ixf", "indexer_format", &Scenario::indexer_format, "an indexer format", check_indexer),
        string_row("e", "engine", &Scenario::engine, "vllm, llama.cpp or sglang", check_engine),
        string_row("wd", "weights_dtype", &Scenario::weights_dtype, "a weights dtype", check_weights_dtype),
        string_row("vv", "vllm_version", &Scenario::vllm_version, "a vLLM release or era", check_vllm_version),
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
        // decode_query accepts only preset ids for 'c'; anything else is left out (url_unrepresentable warns).
        if (r.field == std::string_view("compose") && !s.compose.empty() && check_compose(s.compose)) continue;
        if (auto v = r.encode(s)) out += std::string("&") + r.key + "=" + percent_encode(*v);
    }
    return out;
}

Scenario decode_query(std::string_view query, Diagnostics& diagnostics) {
    Scenario s;
    if (const auto q = query.find('?'); q != std::string_view::npos) query.remove_prefix(q + 1);
    if (const auto h = query.find('#'); h != std::string_view::npos) query = query.substr(0, h);

    // Bounded work for any link: a repeated key warns once (not once per earlier copy), and at most
    // kMaxQueryBytes / kMaxQueryParameters are read.
    if (query.size() > kMaxQueryBytes) {
        warn(diagnostics, "url_too_long", "url",
             "the link's query is " + std::to_string(query.size()) + " characters; only the first " +
                 std::to_string(kMaxQueryBytes) + " are read (a kvcalc link is under 1,000)");
        query = query.substr(0, kMaxQueryBytes);
    }
    std::vector<std::string> seen, repeated;
    std::size_t parameters = 0;
    while (!query.empty()) {
        if (++parameters > kMaxQueryParameters) {
            warn(diagnostics, "url_too_many_parameters", "url",
                 "the link has more than " + std::to_string(kMaxQueryParameters) +
                     " parameters; the rest are ignored (a kvcalc link has at most " + std::to_string(rows().size() + 1) +
                     ")");
            break;
        }
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
        const auto has = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), key) != v.end(); };
        if (!has(seen)) {
            seen.push_back(key);
        } else if (!has(repeated)) {
            repeated.push_back(key);
            warn(diagnostics, "url_repeated_key", std::string("url.") + row->key,
                 "URL key '" + key + "' appears more than once; the last value is used");
        }
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
    if (s.model || !s.config_json.empty()) {
        warn(d, "url_inline_model", s.model ? "model" : "config_json",
             "an inline model (from a config.json) cannot travel in a link; the link names model '" + s.model_id +
                 "' instead");
    }
    if (!s.compose.empty() && check_compose(s.compose))
        warn(d, "url_compose_dropped", "compose_source",
             "compose_source '" + s.compose + "' is not a preset id, so the link leaves it out (it is a label only: "
             "the settings it produced travel as their own keys)");
    return d;
}

std::vector<UrlKeyInfo> url_keys() {
    std::vector<UrlKeyInfo> out;
    for (const Row& r : rows()) out.push_back({r.key, r.field, r.values});
    return out;
}

}  // namespace kvcalc
