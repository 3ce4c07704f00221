// Table-driven command-line parser for kvcalc: the scenario flags are the field table's rows (scenario_fields.h),
// the modes and output flags are listed here; both drive parsing and --help.
#include "flags.h"
#include "checkpoint_loader.h"
#include "gguf_loader.h"
#include "kvcalc/base/echo.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/base/kv_format.h"
#include "kvcalc/deployment/scenario_fields.h"
#include "kvcalc/deployment/suggest.h"
#include "kvcalc/io/url_check.h"
#include "kvcalc/io/link_config.h"
#include "kvcalc/io/url_codec.h"
#include "kvcalc/engines/vllm/accounting.h"

namespace kvcli {

namespace {

using kvcalc::Scenario;

/// Returns "" when the value was taken, otherwise what would have been valid.
using Setter = std::string (*)(Options&, std::string_view);

/// One flag. Scenario flags come from the field table (kvcalc/scenario_fields.h): name, aliases, value, help,
/// range and default are its row's. The rest (modes, output, --config, --no-mtp, --kv-breakdown) are listed here.
struct Flag {
    std::string section;               ///< help heading; "" = same as the previous row
    std::string name;                  ///< "--max-model-len"
    std::vector<std::string> aliases;  ///< other spellings that keep working ("--max-ctx")
    std::string metavar;               ///< "" = takes no value
    std::string field;                 ///< Scenario field it sets ("" when none), for mapping core diagnostics back
    std::string help;                  ///< meaning, unit, valid values, default
    const kvcalc::ScenarioField* row = nullptr;  ///< the table row of a scenario flag
    Setter set = nullptr;                        ///< CLI-only flags
};

/// A CLI-only flag, placed under `section` after that group's scenario flags.
struct ExtraFlag {
    const char* section;
    const char* name;
    const char* alias;
    const char* metavar;
    const char* field;
    const char* help;
    Setter set;
};

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

/// An integer flag value in lo..1000000 into `out`; "" or what is valid. The caller's error already names the
/// flag and echoes the value cut to kMaxEchoBytes, so neither is repeated here (a 4 MB value stays a short line).
std::string int_flag(std::string_view v, int lo, int& out) {
    int x = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc() || end != v.data() + v.size() || x < lo || x > 1000000)
        return "an integer from " + std::to_string(lo) + " to 1000000";
    out = x;
    return "";
}

// clang-format off
const ExtraFlag kExtraFlags[] = {
    {"Model", "--config", "", "PATH", "model",
     "Hugging Face config.json to describe the model (replaces --model)",
     [](Options& o, std::string_view v) { o.config_path = std::string(v); return std::string(); }},
    {"", "--offline", "", "", "",
     "with --model ORG/NAME or --gguf ORG/NAME/FILE.gguf: read the Hub files from the cache only "
     "($XDG_CACHE_HOME/kvcalc/hub or ~/.cache/kvcalc/hub), never the network",
     [](Options& o, std::string_view) { o.offline = true; return std::string(); }},
    {"", "--gguf", "", "FILE", "model",
     "GGUF file (llama.cpp's model format) to describe the model from its header; only the header is read, split "
     "files (NAME-00001-of-0000N.gguf) part by part; --model FILE.gguf does the same (replaces --model). A Hub "
     "GGUF, ORG/NAME[@REV]/FILE.gguf or its huggingface.co URL, is read by HTTP range requests (HF_ENDPOINT, "
     "HF_TOKEN) and its header cached",
     [](Options& o, std::string_view v) { o.gguf_path = std::string(v); return std::string(); }},
    {"llama.cpp", "--n-gpu-layers", "-ngl", "N", "",
     "llama.cpp -ngl with --gguf: layers on the GPU, counted from the last (-1 = all, the default); the per-device "
     "model / KV buffer lines follow it",
     [](Options& o, std::string_view v) { return int_flag(v, -1, o.placement.n_gpu_layers); }},
    {"", "--n-cpu-moe", "", "N", "",
     "llama.cpp --n-cpu-moe with --gguf: the expert tensors of the first N layers stay on the CPU",
     [](Options& o, std::string_view v) { return int_flag(v, 0, o.placement.n_cpu_moe); }},
    {"", "--fit-free-mib", "", "MIB", "",
     "llama.cpp --fit with --gguf: the GPU's free memory in MiB (llama.cpp logs it as \"using device CUDA0 (...) - N "
     "MiB free\"); prints the -c / -ngl / --n-cpu-moe llama.cpp's fit would choose and the buffers at that choice",
     [](Options& o, std::string_view v) {
         int x = 0;
         const std::string e = int_flag(v, 1, x);
         o.llama_fit.free_bytes = static_cast<std::int64_t>(x) << 20;
         return e;
     }},
    {"", "--fit-target", "", "MIB", "",
     "llama.cpp --fit-target with --fit-free-mib: MiB to leave free on the GPU (default 1024)",
     [](Options& o, std::string_view v) {
         int x = 0;
         const std::string e = int_flag(v, 0, x);
         o.llama_fit.margin_bytes = static_cast<std::int64_t>(x) << 20;
         o.fit_tuning_flag = "--fit-target";
         return e;
     }},
    {"", "--fit-ctx", "", "N", "",
     "llama.cpp --fit-ctx with --fit-free-mib: the smallest context per sequence the fit may cut to (default 4096); "
     "the fit cuts the context only when --max-model-len is not given (llama.cpp's -c 0)",
     [](Options& o, std::string_view v) {
         int x = 0;
         const std::string e = int_flag(v, 1, x);
         o.llama_fit.n_ctx_min = x;
         o.fit_tuning_flag = "--fit-ctx";
         return e;
     }},
    {"", "--gpu-device-name", "", "NAME", "",
     "the GPU's name in llama.cpp's buffer lines (CUDA0, ROCm0, Vulkan0, Metal; default CUDA0). Vulkan and Metal "
     "do not pad quantized rows as CUDA/ROCm do",
     [](Options& o, std::string_view v) {
         o.placement.gpu_name = std::string(v);
         o.placement.gpu_pads_quantized_rows = v.rfind("CUDA", 0) == 0 || v.rfind("ROCm", 0) == 0;
         return std::string();
     }},
    {"Speculative decoding", "--no-mtp", "", "", "mtp",
     "turn MTP off, also when the preset has it (a DFlash drafter stays)",
     [](Options& o, std::string_view) {
         o.scenario.mtp = false;
         if (is_mtp_drafter(o.scenario)) o.scenario.drafter.clear();
         return std::string();
     }},
    {"Cache breakdown (reporting only)", "--kv-breakdown", "", "", "",
     "also print the cache-architecture breakdown and the layer buckets table",
     [](Options& o, std::string_view) { o.kv_breakdown = true; return std::string(); }},

    {"What to answer", "--fit", "", "MODEL[:PRESET]", "model_id",
     "does this catalog model (with one of its presets, see --list-composes) fit on --card? The verdict, the "
     "largest max_model_len that boots and the start-up lines; other flags override the preset",
     [](Options& o, std::string_view) { return set_mode(o, Mode::fit); }},  // the model/preset is applied first
    {"", "--fit-all", "", "", "",
     "one verdict per serving preset on --card (only --model's presets when --model is given)",
     [](Options& o, std::string_view) { return set_mode(o, Mode::fit_all); }},
    {"", "--shop", "", "", "",
     "GPU shopping: every catalog GPU x 1, 2, 4, 8 cards for this scenario (verdict, largest max_model_len), best "
     "first, one row per GPU; with --gpu that GPU's rows only",
     [](Options& o, std::string_view) { return set_mode(o, Mode::shop); }},
    {"", "--every-count", "", "", "",
     "with --shop: every GPU at 1, 2, 4 and 8 cards (default: one row per GPU, the fewest cards that pass)",
     [](Options& o, std::string_view) { o.every_count = true; return std::string(); }},
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

    {"Start-up log", "--log", "", "FILE", "",
     "read an engine's start-up log (vLLM, llama.cpp, SGLang; - reads stdin) and print the numbers it printed, "
     "each with its line; alone, or beside a prediction (with --json under \"log\")",
     [](Options& o, std::string_view v) { o.log_path = std::string(v); return std::string(); }},

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

/// Help headings in order: the table's groups, then the CLI's own.
const char* const kSections[] = {"Model", "Hardware", "Serving", "llama.cpp", "Speculative decoding",
                                 "Cache breakdown (reporting only)", "What to answer", "Start-up log", "Output"};

/// The help line of a scenario flag: the row's help, what is valid (short lists only; catalogs have --list-*),
/// the default.
std::string row_help(const kvcalc::ScenarioField& f) {
    std::string h = f.help;
    const std::string valid = kvcalc::field_valid_text(f);
    if (f.type != kvcalc::FieldType::boolean && f.type != kvcalc::FieldType::text && valid.size() <= 120)
        h += "; " + valid;
    return h + ". Default: " + f.default_text;
}

const std::vector<Flag>& flags() {
    static const std::vector<Flag> all = [] {
        std::vector<Flag> out;
        for (const char* section : kSections) {
            bool first = true;
            auto add = [&](Flag f) {
                f.section = first ? section : "";
                first = false;
                out.push_back(std::move(f));
            };
            for (const auto& row : kvcalc::scenario_fields()) {
                if (!*row.cli_flag || std::string_view(row.group) != section) continue;
                Flag f{"", row.cli_flag, {}, row.metavar, row.name, row_help(row), &row, nullptr};
                for (const char* a : row.cli_aliases) f.aliases.emplace_back(a);
                add(std::move(f));
            }
            std::string_view in;  // a row with section "" continues the one above it
            for (const ExtraFlag& x : kExtraFlags) {
                if (*x.section) in = x.section;
                if (in != section) continue;
                Flag f{"", x.name, {}, x.metavar, x.field, x.help, nullptr, x.set};
                if (*x.alias) f.aliases.emplace_back(x.alias);
                add(std::move(f));
            }
        }
        return out;
    }();
    return all;
}

/// vLLM's argument parser takes --max_model_len for --max-model-len; so does kvcalc.
std::string dashed(std::string_view name) {
    std::string out(name);
    if (out.rfind("--", 0) == 0) std::replace(out.begin() + 2, out.end(), '_', '-');
    return out;
}

/// A scenario flag's value through the table: the same parse and range as links and JSON.
std::string set_row(Options& o, const kvcalc::ScenarioField& row, std::string_view value, std::string& reason) {
    if (std::string_view(row.name) == "compose") return "";  // applied before the other flags
    // --model FILE.gguf names a GGUF file, not a catalog id: main() reads it as --gguf.
    if (std::string_view(row.name) == "model_id" && is_gguf_path(std::string(value))) {
        o.gguf_path = std::string(value);
        return "";
    }
    // --model DIR or ORG/NAME[@REV]: a checkpoint, read by main() (checkpoint_loader.h).
    if (std::string_view(row.name) == "model_id" && is_checkpoint_source(std::string(value))) {
        o.checkpoint = std::string(value);
        return "";
    }
    if (row.metavar[0] == '\0') {                            // a switch: --mtp, --include-draft-kv
        kvcalc::set_field_from_text(row, "1", o.scenario);
        return "";
    }
    std::string_view v = value;
    if (!v.empty() && v.front() == '+' && (row.type == kvcalc::FieldType::integer || row.type == kvcalc::FieldType::number))
        v.remove_prefix(1);
    const kvcalc::FieldTextStatus st = kvcalc::set_field_from_text(row, v, o.scenario);
    if (st == kvcalc::FieldTextStatus::ok) return "";
    reason = kvcalc::field_status_text(row, st);
    return kvcalc::field_valid_text(row);
}

const Flag* find_flag(std::string_view typed) {
    const std::string name = dashed(typed);
    for (const Flag& f : flags()) {
        if (name == f.name) return &f;
        for (const auto& a : f.aliases)
            if (name == a) return &f;
    }
    return nullptr;
}

/// The known spelling nearest to `name`, or "" when none is near (kvcalc::closest_name: --modle → --model,
/// --max-ctxx → --max-ctx; --frob suggests nothing).
std::string closest_flag(std::string_view typed) {
    std::vector<std::string> names;
    for (const Flag& f : flags()) {
        names.push_back(f.name);
        names.insert(names.end(), f.aliases.begin(), f.aliases.end());
    }
    return kvcalc::closest_name(dashed(typed), names);
}

/// "--max-ctx (= --max-model-len): '0' is out of range; expected an integer 1..134217728 (tokens)".
std::string bad_value(const Flag& f, const std::string& spelled, std::string_view value, const std::string& reason,
                      const std::string& want) {
    const std::string who = dashed(spelled) == f.name ? f.name : spelled + " (= " + f.name + ")";
    std::string near;  // a catalog id or a format one typo away: say which before the whole list
    if (f.row && f.row->type == kvcalc::FieldType::choice && f.row->choices.list)
        near = kvcalc::closest_name(value, kvcalc::split_list(f.row->choices.list()));
    return who + ": '" + kvcalc::echo_cut(value) + "' " + (reason.empty() ? "is not valid" : reason) +
           (near.empty() ? "" : " (did you mean " + near + "?)") + "; expected " + want;
}

/// --compose: the preset under `model_hint` (may be empty), or an error naming the value and listing the valid
/// names: the model's presets, or every preset when the model has none (saying so) or no model was named.
std::string apply_compose(Options& o, std::string_view name, std::string_view model_hint) {
    if (const kvcalc::ComposePreset* p = kvcalc::find_preset(name, model_hint)) {
        o.scenario = p->scenario;
        return "";
    }
    const auto& all = kvcalc::compose_presets();
    std::vector<std::string> same_name, of_model, every, names;
    for (const auto& x : all) {
        every.push_back(x.id);
        if (kvcalc::typo_distance(x.name, name) == 0) same_name.push_back(x.id);
        if (!model_hint.empty() && kvcalc::typo_distance(x.model_id, model_hint) == 0) of_model.push_back(x.id);
    }
    const auto join = [](const std::vector<std::string>& v) {
        std::string out;
        for (const auto& x : v) out += (out.empty() ? "" : ", ") + x;
        return out;
    };
    const std::string head = std::string("--compose: '") + kvcalc::echo_cut(name) + "' ";
    if (same_name.size() > 1 && model_hint.empty())
        return head + "names a preset of several models; give one of " + join(same_name);
    const std::vector<std::string>& valid = of_model.empty() ? every : of_model;
    // A typo of the full id, of the name after "<model>:" or of its last part ("vllm/gemma-bf16-mtp").
    std::vector<std::string> owner;
    for (const auto& id : valid) {
        const std::string bare = id.substr(id.find(':') + 1);
        for (const std::string& n : {id, bare, bare.substr(bare.rfind('/') + 1)}) {
            names.push_back(n);
            owner.push_back(id);
        }
    }
    std::string near = kvcalc::closest_name(name, names);
    for (std::size_t i = 0; !near.empty() && i < names.size(); ++i)
        if (names[i] == near) near = owner[i], i = names.size();
    const std::string hint = near.empty() ? "" : "did you mean " + near + "? ";
    if (model_hint.empty()) return head + "is not a preset; " + hint + "valid: " + join(every);
    if (of_model.empty()) {
        std::vector<std::string> models;
        for (const auto& x : all)
            if (std::find(models.begin(), models.end(), x.model_id) == models.end()) models.push_back(x.model_id);
        return head + "is not a preset: model '" + kvcalc::echo_cut(model_hint) + "' has no serving presets (models with "
               "presets: " + join(models) + "); " + hint + "valid: " + join(every);
    }
    return head + "is not a preset of model '" + kvcalc::echo_cut(model_hint) + "'; " + hint + "valid: " + join(of_model);
}

}  // namespace

std::string flag_for_field(std::string_view field) {
    if (field == "model.gguf_file") return "--gguf";  // the model's file, which --gguf and --model FILE.gguf read
    for (const Flag& f : flags()) {
        if (f.field.empty() || field != f.field) continue;
        std::string out = f.name;
        for (const auto& a : f.aliases)
            if (a.rfind("--", 0) == 0) out += "/" + a;
        return out;
    }
    return "";
}

namespace {

/// One flag as typed, with its value.
struct Given {
    const Flag* flag;
    std::string value;
    std::string spelled;  ///< the name as typed (a flag and its alias are the same Flag)
};

bool any_given(const std::vector<Given>& given, std::string_view name) {
    return std::any_of(given.begin(), given.end(), [&](const Given& g) { return g.flag->name == name; });
}

/// Step 1: splits "--flag=value", finds each flag and takes its value; an error names the first bad argument.
std::string read_given(const std::vector<std::string>& args, std::vector<Given>& given) {
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
            if (name.empty() || name[0] != '-')
                return "unexpected argument '" + kvcalc::echo_cut(name) + "': kvcalc takes only --flags (see --help)";
            if (const std::string near = closest_flag(name); !near.empty())
                return "unknown flag '" + kvcalc::echo_cut(name) + "'; did you mean " + near + "? (see --help)";
            return "unknown flag '" + kvcalc::echo_cut(name) + "' (see --help for the list)";
        }
        std::string value;
        if (!f->metavar.empty()) {
            if (inline_value) {
                value = *inline_value;
            } else if (i + 1 < args.size()) {
                const std::string& next = args[i + 1];
                if (next.rfind("--", 0) == 0 && find_flag(next.substr(0, next.find('='))))
                    return name + " needs a value: " + f->metavar + " (" + f->help + "); got the flag " +
                           next.substr(0, next.find('=')) + " instead";
                value = args[++i];
            } else {
                return name + " needs a value: " + f->metavar + " (" + f->help + ")";
            }
        } else if (inline_value) {
            return f->name + " takes no value (got '" + kvcalc::echo_cut(*inline_value) + "')";
        }
        given.push_back({f, value, name});
    }
    return {};
}

/// Step 2: flags that contradict each other are an error; a repeated flag warns.
std::string check_given(const std::vector<Given>& given, Options& o) {
    // An empty value is not "unset" (--gpu '' would mean the default card, --engine '' the default engine).
    for (const auto& g : given)
        if (g.value.empty() && !g.flag->metavar.empty() && (g.flag->field == "gpu" || g.flag->field == "engine"))
            return g.spelled + " needs a value: " + g.flag->metavar + " (" + g.flag->help + "); got ''";
    if (any_given(given, "--mtp") && any_given(given, "--no-mtp"))
        return "--mtp and --no-mtp contradict each other; give one of them";
    // A flag and its alias with different values (--max-num-seqs 4 --sequences 8) is a contradiction, not
    // "last wins": the user meant one of them. Repeating one spelling with another value lets the last win, as
    // vLLM's argparse does, but says so (a pasted command line with a flag twice is easy to miss).
    std::map<const Flag*, const Given*> last;
    for (const auto& g : given) {
        auto [it, fresh] = last.emplace(g.flag, &g);
        if (!fresh && !g.flag->metavar.empty() && it->second->value != g.value) {
            if (it->second->spelled != g.spelled)
                return it->second->spelled + " " + it->second->value + " and " + g.spelled + " " + g.value +
                       " both set " + g.flag->field + "; give one value";
            o.warnings.push_back(
                {kvcalc::Severity::warning, "flag_repeated", g.flag->field,
                 g.spelled + " is given twice (" + it->second->value + ", then " + g.value + "): the last, " + g.value +
                     ", is used, as vLLM's argument parser does"});
        }
        it->second = &g;
    }
    return {};
}

/// Step 3: the base scenario the flags then change: a link, then --fit's model or preset, then a preset.
std::string apply_base(const std::vector<Given>& given, Options& o) {
    if (any_given(given, "--config") && any_given(given, "--model"))
        o.warnings.push_back({kvcalc::Severity::warning, "model_ignored", "model_id",
                              "--model is ignored: --config describes the model (give one of them)"});
    std::string model_hint;
    for (const auto& g : given) {
        if (std::string_view(g.flag->name) == "--model") model_hint = g.value;
    }
    for (const auto& g : given) {
        if (std::string_view(g.flag->name) == "--from-url") {
            const std::size_t before = o.warnings.size();
            o.scenario = kvcalc::decode_link(g.value, o.warnings);  // the query, and a #cfg= config.json
            // The page opens a link whose model key it cannot read on the default model, with a notice; a script
            // would get numbers for a model it never named. Unless a model is typed too, that is an error here.
            const bool model_typed = any_given(given, "--model") || any_given(given, "--config") ||
                                     any_given(given, "--gguf") || any_given(given, "--fit");
            for (std::size_t i = before; i < o.warnings.size() && !model_typed; ++i) {
                const std::string& f = o.warnings[i].field;
                if (f == "url.m" || f == "url.hf" || f == "url.gguf")
                    return "--from-url: " + o.warnings[i].message +
                           "; the link's model cannot be read, so no model is priced (give --model, --gguf or "
                           "--config to choose one)";
            }
            if (model_hint.empty()) model_hint = o.scenario.model_id;
            // hf=ORG/NAME[@REV]: the link names a Hub model, read as --model ORG/NAME (a --model typed with it wins).
            if (!o.scenario.hub_model.empty() && !any_given(given, "--model") && !any_given(given, "--config")) {
                o.checkpoint = o.scenario.hub_model;
                o.checkpoint_named_by = "--from-url hf=";
            }
            // gguf=ORG/NAME/FILE.gguf: the link names a Hub GGUF, read again as --gguf (a --model or --gguf wins).
            if (!o.scenario.hub_gguf.empty() && !any_given(given, "--model") && !any_given(given, "--gguf") &&
                !any_given(given, "--config")) {
                o.gguf_path = o.scenario.hub_gguf;
                o.gguf_named_by = "--from-url gguf=";
            }
        }
    }
    for (const auto& g : given) {
        if (std::string_view(g.flag->name) != "--fit") continue;
        // MODEL or MODEL:PRESET (preset ids are "<model>:<name>", so the whole value is the preset id)
        o.fit_target = g.value;
        if (g.value.find(':') != std::string::npos) {
            if (const std::string error = apply_compose(o, g.value, ""); !error.empty()) return "--fit: " + error;
        } else if (!kvcalc::find_model(g.value)) {
            const std::string near = kvcalc::closest_name(g.value, kvcalc::split_list(kvcalc::model_id_list()));
            return "--fit: '" + kvcalc::echo_cut(g.value) + "' is not a catalog model (see --list-models); " +
                   (near.empty() ? "" : "did you mean " + near + "? ") + "valid: " + kvcalc::model_id_list();
        } else {
            o.scenario.model_id = g.value;
        }
        model_hint = o.scenario.model_id;
    }
    for (const auto& g : given) {
        if (std::string_view(g.flag->name) == "--compose")
            if (std::string error = apply_compose(o, g.value, model_hint); !error.empty()) return error;
    }
    return {};
}

/// Step 4: every flag in command-line order.
std::string apply_flags(const std::vector<Given>& given, Options& o) {
    for (const auto& g : given) {
        std::string reason;
        const std::string want = g.flag->row ? set_row(o, *g.flag->row, g.value, reason) : g.flag->set(o, g.value);
        if (!want.empty())
            return !g.flag->metavar.empty() ? bad_value(*g.flag, g.spelled, g.value, reason, want)
                                            : g.flag->name + ": " + want;
    }
    o.tp_given = std::any_of(given.begin(), given.end(),
                             [](const Given& g) { return g.flag->field == "tensor_parallel_size"; });
    return {};
}

/// Step 5: a link is checked as a whole, as predict() would (url_link_problems): a problem with a value the link
/// carries is an error naming its key, unless a flag typed with it set that field (predict() names the flag).
std::string check_link(const std::vector<Given>& given, const Options& o) {
    for (const auto& g : given) {
        if (g.flag->name != "--from-url") continue;
        const std::string query = "&" + g.value.substr(g.value.find('?') + 1) + "&";
        for (const auto& x : kvcalc::url_link_problems(o.scenario)) {
            const std::string key = x.field.rfind("url.", 0) == 0 ? x.field.substr(4) : "";
            if (key.empty() || query.find("&" + key + "=") == std::string::npos) continue;
            const bool typed = std::any_of(given.begin(), given.end(), [&](const Given& t) {
                return t.flag->row && key == t.flag->row->url_key;
            });
            if (typed) continue;
            return "--from-url: " + x.message;
        }
    }
    return {};
}

}  // namespace

ParseResult parse_args(const std::vector<std::string>& args) {
    ParseResult out;
    std::vector<Given> given;
    out.error = read_given(args, given);
    if (out.error.empty()) out.error = check_given(given, out.options);
    if (out.error.empty()) out.error = apply_base(given, out.options);
    if (out.error.empty()) out.error = apply_flags(given, out.options);
    if (out.error.empty()) out.error = check_link(given, out.options);
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
        "Flags take '--flag value' or '--flag=value' (vLLM's spellings; '_' for '-' works too). Sizes: GB = 1e9\n"
        "bytes, GiB = 2^30 bytes.\n";
    for (const Flag& f : flags()) {
        if (!f.section.empty()) h += "\n" + f.section + ":\n";
        std::string left = "  " + f.name;
        for (const auto& a : f.aliases) left += ", " + a;
        if (!f.metavar.empty()) left += " " + f.metavar;
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
