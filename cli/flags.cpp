// Table-driven command-line parser for kvcalc. Each row: name, alias, value kind, Scenario field, help, setter.
#include "flags.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>

#include "kvcalc/catalog.h"
#include "kvcalc/kv_format.h"
#include "kvcalc/url_codec.h"
#include "kvcalc/vllm_accounting.h"

namespace kvcli {

namespace {

using kvcalc::Scenario;

/// Returns "" when the value was taken, otherwise what would have been valid.
using Setter = std::string (*)(Options&, std::string_view);

struct Flag {
    const char* section;   ///< help heading; "" = same as the previous row
    const char* name;      ///< "--max-ctx"
    const char* alias;     ///< "" when none
    const char* metavar;   ///< "" = takes no value
    const char* field;     ///< Scenario field it sets ("" when none), for mapping core diagnostics back
    const char* help;      ///< one line: meaning, unit, default
    Setter set;
};

// ---- value parsing: strict, whole string, finite ----

std::optional<std::int64_t> to_int(std::string_view t) {
    std::int64_t x = 0;
    if (t.empty()) return std::nullopt;
    if (t.front() == '+') t.remove_prefix(1);
    const auto r = std::from_chars(t.data(), t.data() + t.size(), x);
    if (r.ec != std::errc{} || r.ptr != t.data() + t.size()) return std::nullopt;
    return x;
}

std::optional<double> to_num(std::string_view t) {
    double x = 0;
    if (t.empty()) return std::nullopt;
    if (t.front() == '+') t.remove_prefix(1);
    const auto r = std::from_chars(t.data(), t.data() + t.size(), x);
    if (r.ec != std::errc{} || r.ptr != t.data() + t.size() || !std::isfinite(x)) return std::nullopt;
    return x;
}

constexpr const char* kWantInt = "an integer";
constexpr const char* kWantNum = "a number";

std::string set_int(int& out, std::string_view t) {
    const auto x = to_int(t);
    if (!x || *x < std::numeric_limits<int>::min() || *x > std::numeric_limits<int>::max()) return kWantInt;
    out = static_cast<int>(*x);
    return "";
}

std::string set_i64(std::int64_t& out, std::string_view t) {
    const auto x = to_int(t);
    if (!x) return kWantInt;
    out = *x;
    return "";
}

std::string set_num(double& out, std::string_view t) {
    const auto x = to_num(t);
    if (!x) return kWantNum;
    out = *x;
    return "";
}

template <class T, class F>
std::string set_opt(std::optional<T>& out, std::string_view t, F parse) {
    T x{};
    std::string e = parse(x, t);
    if (e.empty()) out = x;
    return e;
}

std::string set_mode(Options& o, Mode m) {
    if (o.mode != Mode::predict && o.mode != m)
        return "only one of --fit, --fit-all, --shop, --solve-max-ctx, --solve-max-seqs, --calibration, --list-*";
    o.mode = m;
    return "";
}

/// The MTP drafter of a model (method "mtp"), or nullptr.
bool is_mtp_drafter(const Scenario& s) {
    const kvcalc::ModelSpec* m = s.model ? &*s.model : kvcalc::find_model(s.model_id);
    if (!m || s.drafter.empty()) return false;
    for (const auto& d : m->drafters) {
        if (d.id == s.drafter) return d.method == "mtp";
    }
    return false;
}

// clang-format off
const Flag kFlags[] = {
    {"Model", "--model", "", "ID", "model_id",
     "catalog model id (see --list-models). Default: qwen3.6-27b",
     [](Options& o, std::string_view v) { o.scenario.model_id = std::string(v); return std::string(); }},
    {"", "--config", "", "PATH", "model",
     "Hugging Face config.json to describe the model (replaces --model)",
     [](Options& o, std::string_view v) { o.config_path = std::string(v); return std::string(); }},
    {"", "--engine", "", "NAME", "engine",
     "serving engine whose allocation rules apply: vllm (default, full budget), llama.cpp or sglang (weights + KV only)",
     [](Options& o, std::string_view v) {
         if (v != "vllm" && v != "llama.cpp" && v != "sglang") return std::string("one of vllm, llama.cpp, sglang");
         o.scenario.engine = std::string(v);
         return std::string();
     }},
    {"", "--compose", "", "NAME", "compose",
     "serving preset '<model>:<name>' or a bare name (see --list-composes); applied first, other flags override it",
     [](Options&, std::string_view) { return std::string(); }},  // applied before the other setters
    {"", "--weights-variant", "", "ID", "weights_variant",
     "quantized checkpoint variant id or alias. Default: the model's first variant",
     [](Options& o, std::string_view v) { o.scenario.weights_variant = std::string(v); return std::string(); }},
    {"", "--weights-gb", "", "GB", "weights_gb",
     "override the checkpoint size, decimal GB total (> 0)",
     [](Options& o, std::string_view v) { return set_opt(o.scenario.weights_gb, v, set_num); }},
    {"", "--weights-dtype", "", "DTYPE", "weights_dtype",
     "weights dtype for --config and catalog models priced from their parameter count: auto (quantization_config, "
     "else torch_dtype), bf16, fp16, fp32, fp8, int8, int4, nvfp4, mxfp4",
     [](Options& o, std::string_view v) { o.scenario.weights_dtype = std::string(v); return std::string(); }},

    {"Hardware", "--vram", "", "GB", "vram_gb",
     "VRAM per card in decimal GB (24 means 24e9 B). Default: 24 when neither --vram nor --gpu is given",
     [](Options& o, std::string_view v) { return set_opt(o.scenario.vram_gb, v, set_num); }},
    {"", "--vram-gib", "", "GIB", "vram_gib",
     "VRAM per card in GiB (2^30 B), what nvidia-smi MiB/1024 shows",
     [](Options& o, std::string_view v) { return set_opt(o.scenario.vram_gib, v, set_num); }},
    {"", "--gpu", "--card", "NAME", "gpu",
     "GPU from the catalog (see --list-gpus); sets exact VRAM and checks KV-format support",
     [](Options& o, std::string_view v) { o.scenario.gpu = std::string(v); return std::string(); }},
    {"", "--gpus", "", "N", "gpus",
     "physical GPUs in the box, 1..8 (informational; TP shards memory). Default: = --tp",
     [](Options& o, std::string_view v) { return set_int(o.scenario.gpus, v); }},
    {"", "--tp", "", "N", "tensor_parallel_size",
     "tensor_parallel_size, 1..8, must suit the model's KV heads. Default: 1",
     [](Options& o, std::string_view v) { return set_int(o.scenario.tensor_parallel_size, v); }},

    {"Serving (vLLM)", "--kv-format", "", "NAME", "kv_cache_dtype",
     "kv_cache_dtype. Default: fp8_e5m2",
     [](Options& o, std::string_view v) { o.scenario.kv_cache_dtype = std::string(v); return std::string(); }},
    {"", "--max-ctx", "", "TOKENS", "max_model_len",
     "max_model_len in tokens (>= 1). Default: 180000",
     [](Options& o, std::string_view v) { return set_i64(o.scenario.max_model_len, v); }},
    {"", "--max-num-seqs", "--sequences", "N", "max_num_seqs",
     "max_num_seqs, concurrent full-length sequences (>= 1; 0 = vLLM's default for the card). Default: 1",
     [](Options& o, std::string_view v) { return set_i64(o.scenario.max_num_seqs, v); }},
    {"", "--mem-util", "", "FRACTION", "gpu_memory_utilization",
     "gpu_memory_utilization, in (0, 1] (0 = the vLLM version's default). Default: 0.95",
     [](Options& o, std::string_view v) { return set_num(o.scenario.gpu_memory_utilization, v); }},
    {"", "--vllm-version", "", "VERSION", "vllm_version",
     "vLLM release whose start-up accounting prices models without a calibrated fit: a release (0.19, 0.11.1) or "
     "an era (V0, 0.9-0.11.0, 0.11.1-0.16, 0.17-0.20, 0.21+). Default: the newest",
     [](Options& o, std::string_view v) {
         if (!kvcalc::parse_vllm_version(v))
             return "a vLLM release such as 0.19, or one of " + kvcalc::vllm_era_ids();
         o.scenario.vllm_version = std::string(v);
         return std::string();
     }},
    {"", "--max-num-batched-tokens", "", "TOKENS", "max_num_batched_tokens",
     "max_num_batched_tokens; unset = vLLM's default for the card (calibrated Qwen 3.6 / Gemma 4 fits: no DeltaNet scratch change)",
     [](Options& o, std::string_view v) { return set_opt(o.scenario.max_num_batched_tokens, v, set_i64); }},

    {"Speculative decoding", "--mtp", "", "", "mtp",
     "turn the model's built-in MTP drafter on. Default: the preset's choice, else off",
     [](Options& o, std::string_view) { o.scenario.mtp = true; return std::string(); }},
    {"", "--no-mtp", "", "", "mtp",
     "turn MTP off, also when the preset has it (a DFlash drafter stays)",
     [](Options& o, std::string_view) {
         o.scenario.mtp = false;
         if (is_mtp_drafter(o.scenario)) o.scenario.drafter.clear();
         return std::string();
     }},
    {"", "--drafter", "", "ID", "drafter",
     "drafter id from the model's list (wins over --mtp). Default: none",
     [](Options& o, std::string_view v) { o.scenario.drafter = std::string(v); return std::string(); }},
    {"", "--drafter-gb", "--dflash-draft-gb", "GB", "drafter_gb",
     "drafter weights, decimal GB total, sharded by TP. Default: the drafter's own size, else 0",
     [](Options& o, std::string_view v) { return set_opt(o.scenario.drafter_gb, v, set_num); }},
    {"", "--num-speculative-tokens", "", "N", "num_speculative_tokens",
     "override the drafter's speculative token count",
     [](Options& o, std::string_view v) { return set_opt(o.scenario.num_speculative_tokens, v, set_int); }},

    {"Cache breakdown (reporting only)", "--kv-breakdown", "", "", "",
     "also print the cache-architecture breakdown and the layer buckets table",
     [](Options& o, std::string_view) { o.kv_breakdown = true; return std::string(); }},
    {"", "--include-draft-kv", "", "", "include_draft_kv",
     "add --draft-kv-gb to the breakdown",
     [](Options& o, std::string_view) { o.scenario.include_draft_kv = true; return std::string(); }},
    {"", "--draft-kv-gb", "", "GB", "draft_kv_gb",
     "draft-model KV per card, decimal GB (>= 0). Default: 0",
     [](Options& o, std::string_view v) { return set_num(o.scenario.draft_kv_gb, v); }},
    {"", "--compressed-layers", "", "N", "compressed_layers",
     "layers with a compressed/sparse KV cache. Default: 0",
     [](Options& o, std::string_view v) { return set_int(o.scenario.compressed_layers, v); }},
    {"", "--compression-ratio", "", "N", "compression_ratio",
     "tokens per compressed entry. Default: 128",
     [](Options& o, std::string_view v) { return set_int(o.scenario.compression_ratio, v); }},
    {"", "--compressed-head-dim", "", "N", "compressed_head_dim",
     "elements per compressed entry (0 = model head dim). Default: 0",
     [](Options& o, std::string_view v) { return set_int(o.scenario.compressed_head_dim, v); }},
    {"", "--indexer-ratio-layers", "", "N", "indexer_ratio_layers",
     "layers with a sparse-attention indexer cache. Default: 0",
     [](Options& o, std::string_view v) { return set_int(o.scenario.indexer_ratio_layers, v); }},
    {"", "--indexer-compress-ratio", "", "N", "indexer_compress_ratio",
     "tokens per indexer entry. Default: 4",
     [](Options& o, std::string_view v) { return set_int(o.scenario.indexer_compress_ratio, v); }},
    {"", "--indexer-head-dim", "", "N", "indexer_head_dim",
     "elements per indexer entry (0 = model head dim). Default: 0",
     [](Options& o, std::string_view v) { return set_int(o.scenario.indexer_head_dim, v); }},
    {"", "--indexer-format", "", "NAME", "indexer_format",
     "indexer element format: fp16, bf16, fp8_e5m2, fp8_e4m3, int8, fp4, int4. Default: fp4",
     [](Options& o, std::string_view v) { o.scenario.indexer_format = std::string(v); return std::string(); }},

    {"What to answer", "--fit", "", "MODEL[:PRESET]", "model_id",
     "does this catalog model (with one of its presets, see --list-composes) fit on --card? The verdict, the "
     "largest max_model_len that boots and the start-up lines; other flags override the preset",
     [](Options& o, std::string_view) { return set_mode(o, Mode::fit); }},  // the model/preset is applied first
    {"", "--fit-all", "", "", "",
     "one verdict per serving preset on --card (only --model's presets when --model is given)",
     [](Options& o, std::string_view) { return set_mode(o, Mode::fit_all); }},
    {"", "--shop", "", "", "",
     "GPU shopping: every catalog GPU x 1, 2, 4, 8 cards for this scenario (verdict, largest max_model_len)",
     [](Options& o, std::string_view) { return set_mode(o, Mode::shop); }},
    {"", "--solve-max-ctx", "", "", "",
     "largest max_model_len that boots with the other settings",
     [](Options& o, std::string_view) { return set_mode(o, Mode::solve_max_ctx); }},
    {"", "--solve-max-seqs", "", "", "",
     "largest max_num_seqs whose full-length sequences all fit",
     [](Options& o, std::string_view) { return set_mode(o, Mode::solve_max_seqs); }},
    {"", "--calibration", "", "", "",
     "predicted verdicts against every measured boot",
     [](Options& o, std::string_view) { return set_mode(o, Mode::calibration); }},
    {"", "--list-models", "", "", "",
     "catalog models with their weights variants and drafters",
     [](Options& o, std::string_view) { return set_mode(o, Mode::list_models); }},
    {"", "--list-gpus", "", "", "",
     "catalog GPUs with their VRAM",
     [](Options& o, std::string_view) { return set_mode(o, Mode::list_gpus); }},
    {"", "--list-composes", "", "", "",
     "serving presets and their settings",
     [](Options& o, std::string_view) { return set_mode(o, Mode::list_composes); }},
    {"", "--help", "-h", "", "",
     "this text",
     [](Options& o, std::string_view) { o.mode = Mode::help; return std::string(); }},
    {"", "--version", "", "", "",
     "print the version",
     [](Options& o, std::string_view) { o.mode = Mode::version; return std::string(); }},

    {"Output", "--json", "", "", "",
     "print one JSON document (\"schema\": 1) and nothing else on stdout",
     [](Options& o, std::string_view) { o.json = true; return std::string(); }},
    {"", "--url", "", "BASE", "",
     "also print the shareable link BASE?v=1&... of this scenario (on stderr with --json)",
     [](Options& o, std::string_view v) { o.url_base = std::string(v); return std::string(); }},
    {"", "--from-url", "", "URL", "",
     "start from the scenario in a kvcalc link (flags given too override it)",
     [](Options&, std::string_view) { return std::string(); }},  // applied before the other setters
    {"", "--svg", "", "PATH", "",
     "write the per-card breakdown as a standalone SVG file",
     [](Options& o, std::string_view v) { o.svg_path = std::string(v); return std::string(); }},
};
// clang-format on

const Flag* find_flag(std::string_view name) {
    for (const Flag& f : kFlags) {
        if (name == f.name || (*f.alias && name == f.alias)) return &f;
    }
    return nullptr;
}

std::string closest_flag(std::string_view name) {
    std::string best;
    std::size_t best_d = std::numeric_limits<std::size_t>::max();
    for (const Flag& f : kFlags) {
        for (const char* n : {f.name, f.alias}) {
            if (!*n) continue;
            const std::size_t d = edit_distance(name, n);
            if (d < best_d) best_d = d, best = n;
        }
    }
    return best;
}

std::string bad_value(const Flag& f, std::string_view value, const std::string& want) {
    return std::string(f.name) + ": '" + std::string(value) + "' is not valid; expected " + want;
}

/// --compose: the preset under `model_hint` (may be empty), or an error listing the valid names.
std::string apply_compose(Options& o, std::string_view name, std::string_view model_hint) {
    const kvcalc::ComposePreset* p = kvcalc::find_preset(name, model_hint);
    if (p) {
        o.scenario = p->scenario;
        return "";
    }
    std::string ids;
    for (const auto& x : kvcalc::compose_presets()) {
        if (model_hint.empty() || x.model_id == model_hint) ids += (ids.empty() ? "" : ", ") + x.id;
    }
    return std::string("--compose: '") + std::string(name) + "' is not a preset" +
           (model_hint.empty() ? "" : " of model '" + std::string(model_hint) + "'") + " (or is ambiguous); valid: " +
           ids;
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string flag_for_field(std::string_view field) {
    for (const Flag& f : kFlags) {
        if (*f.field && field == f.field) return f.name;
    }
    return "";
}

ParseResult parse_args(const std::vector<std::string>& args) {
    ParseResult out;
    struct Given {
        const Flag* flag;
        std::string value;
        std::string spelled;  ///< the name as typed (a flag and its alias are the same Flag)
    };
    std::vector<Given> given;

    // Pass 1: split "--flag=value", find each flag, take its value.
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string name = args[i];
        std::optional<std::string> inline_value;
        if (name.rfind("--", 0) == 0) {
            if (const auto eq = name.find('='); eq != std::string::npos) {
                inline_value = name.substr(eq + 1);
                name.resize(eq);
            }
        }
        const Flag* f = find_flag(name);
        if (!f) {
            if (name.empty() || name[0] != '-') {
                out.error = "unexpected argument '" + name + "': kvcalc takes only --flags (see --help)";
            } else {
                out.error = "unknown flag '" + name + "'; did you mean " + closest_flag(name) + "? (see --help)";
            }
            return out;
        }
        std::string value;
        if (*f->metavar) {
            if (inline_value) {
                value = *inline_value;
            } else if (i + 1 < args.size()) {
                const std::string& next = args[i + 1];
                if (next.rfind("--", 0) == 0 && find_flag(next.substr(0, next.find('=')))) {
                    out.error = std::string(f->name) + " needs a value: " + f->metavar + " (" + f->help + "); got the flag " +
                                next.substr(0, next.find('=')) + " instead";
                    return out;
                }
                value = args[++i];
            } else {
                out.error = std::string(f->name) + " needs a value: " + f->metavar + " (" + f->help + ")";
                return out;
            }
        } else if (inline_value) {
            out.error = std::string(f->name) + " takes no value (got '" + *inline_value + "')";
            return out;
        }
        given.push_back({f, value, name});
    }
    // A flag and its alias with different values (--max-num-seqs 4 --sequences 8) is a contradiction, not
    // "last wins": the user meant one of them. Repeating one spelling still lets the last value win.
    std::map<const Flag*, const Given*> last;
    for (const auto& g : given) {
        auto [it, fresh] = last.emplace(g.flag, &g);
        if (!fresh && *g.flag->metavar && it->second->spelled != g.spelled && it->second->value != g.value) {
            out.error = it->second->spelled + " " + it->second->value + " and " + g.spelled + " " + g.value +
                        " both set " + g.flag->field + "; give one value";
            return out;
        }
        it->second = &g;
    }

    // Pass 2: the base scenario — a link, then a preset — under the flags.
    Options& o = out.options;
    const auto given_flag = [&](std::string_view name) {
        return std::any_of(given.begin(), given.end(), [&](const Given& g) { return g.flag->name == name; });
    };
    if (given_flag("--config") && given_flag("--model"))
        o.warnings.push_back({kvcalc::Severity::warning, "model_ignored", "model_id",
                              "--model is ignored: --config describes the model (give one of them)"});
    std::string model_hint;
    for (const auto& g : given) {
        if (std::string_view(g.flag->name) == "--model") model_hint = g.value;
    }
    for (const auto& g : given) {
        if (std::string_view(g.flag->name) == "--from-url") {
            o.scenario = kvcalc::decode_query(g.value, o.warnings);
            if (model_hint.empty()) model_hint = o.scenario.model_id;
        }
    }
    for (const auto& g : given) {
        if (std::string_view(g.flag->name) != "--fit") continue;
        // MODEL or MODEL:PRESET (preset ids are "<model>:<name>", so the whole value is the preset id)
        o.fit_target = g.value;
        if (g.value.find(':') != std::string::npos) {
            out.error = apply_compose(o, g.value, "");
            if (!out.error.empty()) {
                out.error = "--fit: " + out.error;
                return out;
            }
        } else if (!kvcalc::find_model(g.value)) {
            out.error = "--fit: '" + g.value + "' is not a catalog model (see --list-models); valid: " +
                        kvcalc::model_id_list();
            return out;
        } else {
            o.scenario.model_id = g.value;
        }
        model_hint = o.scenario.model_id;
    }
    for (const auto& g : given) {
        if (std::string_view(g.flag->name) == "--compose") {
            out.error = apply_compose(o, g.value, model_hint);
            if (!out.error.empty()) return out;
        }
    }
    // Pass 3: every flag in command-line order.
    for (const auto& g : given) {
        const std::string want = g.flag->set(o, g.value);
        if (!want.empty()) {
            out.error = *g.flag->metavar ? bad_value(*g.flag, g.value, want) : std::string(g.flag->name) + ": " + want;
            return out;
        }
    }
    o.max_model_len_defaulted = !given_flag("--max-ctx") && !given_flag("--from-url") && !given_flag("--compose") &&
                                o.scenario.max_model_len == kvcalc::Scenario{}.max_model_len;
    return out;
}

std::string help_text() {
    std::string h =
        "kvcalc — will this model fit on these GPUs under vLLM? Per-card memory terms and a PASS/TIGHT/FAIL verdict.\n"
        "\n"
        "Usage: kvcalc [--model ID | --config PATH] [--compose NAME] [--vram GB | --gpu NAME] [--tp N] [flags]\n"
        "       kvcalc --solve-max-ctx | --solve-max-seqs [flags]\n"
        "       kvcalc --fit MODEL[:PRESET] [--card GPU] | --fit-all --card GPU | --shop [flags]\n"
        "       kvcalc --calibration | --list-models | --list-gpus | --list-composes\n"
        "Flags take '--flag value' or '--flag=value'. Sizes: GB = 1e9 bytes, GiB = 2^30 bytes.\n";
    for (const Flag& f : kFlags) {
        if (*f.section) h += std::string("\n") + f.section + ":\n";
        std::string left = std::string("  ") + f.name;
        if (*f.alias) left += std::string(", ") + f.alias;
        if (*f.metavar) left += std::string(" ") + f.metavar;
        if (left.size() < 34) left.resize(34, ' ');
        else left += "\n" + std::string(34, ' ');
        h += left + f.help + "\n";
    }
    h += "\nKV formats: " + kvcalc::kv_format_name_list() +
         "\n"
         "\nExit status: 0 PASS or TIGHT (solvers: an answer was found), 1 FAIL (solvers: nothing fits),\n"
         "             2 bad input (the message names the flag, the value and what is valid).\n";
    return h;
}

}  // namespace kvcli
