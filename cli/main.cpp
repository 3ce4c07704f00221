// kvcalc: the command-line front end over the core. Parses flags, asks the core, prints text or one JSON document.
// Exit status: 0 PASS/TIGHT (or an answer), 1 FAIL (or nothing fits), 2 bad input.
#include <algorithm>
#include <fstream>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "flags.h"
#include "human.h"
#include "safe_text.h"
#include "svg.h"
#include "catalog_json.h"
#include "config_loader.h"
#include "checkpoint_loader.h"
#include "gguf_loader.h"
#include "kvcalc/deployment/llama_cpp_startup.h"
#include "startup_log_text.h"
#include "kvcalc/engines/context_limit.h"
#include "kvcalc/deployment/calibration.h"
#include "kvcalc/base/json_safety.h"
#include "kvcalc/io/json_io.h"
#include "kvcalc/io/json_results.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/base/units.h"
#include "kvcalc/deployment/sweeps.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/io/link_config.h"
#include "kvcalc/io/url_codec.h"
#include "kvcalc/io/startup_log.h"
#include "kvcalc/io/startup_log_json.h"
#include "kvcalc/io/startup_calibration.h"
#include "kvcalc/io/startup_calibration_json.h"

#ifndef KVCALC_VERSION
#define KVCALC_VERSION "dev"
#endif

namespace {

using kvcalc::Severity;

constexpr int kExitFits = 0;
constexpr int kExitFails = 1;
constexpr int kExitBadInput = 2;

/// Prints diagnostics of at least `min` severity on stderr, naming the flag behind each field. Messages pass
/// through safe_text: a hostile value echoed in an error message cannot drive the terminal.
std::string printable(const std::string& text) { return kvcli::safe_text(text); }

void print_diagnostics(const kvcalc::Diagnostics& d, Severity min) {
    for (const auto& x : d) {
        if (static_cast<int>(x.severity) < static_cast<int>(min)) continue;
        const std::string flag = kvcli::flag_for_field(x.field);
        std::cerr << "kvcalc: " << (x.severity == Severity::error ? "error" : "warning") << ": ";
        if (!flag.empty()) std::cerr << flag << " (" << x.field << "): ";
        else if (!x.field.empty()) std::cerr << x.field << ": ";
        // the core speaks in Scenario field names; this one is about three flags at once
        std::cerr << (x.code == "vram_ambiguous" ? "give only one of --gpu, --vram, --vram-gib" : printable(x.message))
                  << "\n";
    }
}

/// The notes from reading the model's file (--gguf) join the report's own diagnostics, so --json carries them.
/// With --gguf, the llama-server command carries the run's own -ngl / --n-cpu-moe (the core's rule).
kvcalc::Report with_notes(const kvcli::Options& o, kvcalc::Report r) {
    r.diagnostics.insert(r.diagnostics.end(), o.model_notes.begin(), o.model_notes.end());
    if (!o.gguf_headers.empty()) r.command = kvcalc::llama_cpp_command_with_placement(r.command, o.placement);
    return r;
}

int bad_input(const std::string& message) {
    std::cerr << "kvcalc: error: " << printable(message) << "\n";
    return kExitBadInput;
}

/// Human-readable text (it echoes model names from config.json files) goes to stdout through safe_text.
template <class F> void print_safe(std::ostream& os, F&& print) {
    std::ostringstream text;
    print(text);
    os << kvcli::safe_text(text.str());
}

/// Writes the SVG; "" on success, else why not (the OS's reason).
std::string write_svg(const std::string& path, const kvcalc::Report& r) {
    std::ofstream f(path, std::ios::binary);
    if (!f) return std::strerror(errno);
    f << kvcli::render_svg(r);
    f.close();
    return f ? std::string() : std::string("write failed: ") + std::strerror(errno);
}

/// Shared tail of predict and solve: breakdown, link, SVG. Returns false when the SVG could not be written.
bool extras(const kvcli::Options& o, const kvcalc::Report& r) {
    if (!o.url_base.empty()) {
        print_diagnostics(kvcalc::link_unrepresentable(o.scenario), Severity::warning);
        // A --config model travels as the page carries a pasted one: its text in #cfg=, no stale m= (link_config.h).
        const std::string link = o.url_base + "?" + kvcalc::encode_link(o.scenario);
        (o.json ? std::cerr : std::cout) << (o.json ? "" : "\nLink: ") << printable(link) << "\n";
    }
    if (!o.svg_path.empty()) {
        if (const std::string why = write_svg(o.svg_path, r); !why.empty()) {
            bad_input("--svg: cannot write '" + o.svg_path + "': " + why);
            return false;
        }
    }
    return true;
}

/// A report the core could not make: its errors on stderr (and the report itself with --json), exit 2.
int bad_report(const kvcli::Options& o, const kvcalc::Report& r) {
    print_diagnostics(r.diagnostics, Severity::error);
    if (o.json) std::cout << kvcalc::dump_safe(nlohmann::json(r), 2) << "\n";
    return kExitBadInput;
}

/// llama.cpp's per-device buffer lines for a --gguf model that lists tensors, run with engine llama.cpp. When
/// -ngl or --n-cpu-moe was given and there are none, `why` says why (the flag is not dropped without a word).
std::optional<kvcalc::LlamaCppBuffers> gguf_buffers(const kvcli::Options& o, std::string& why) {
    const kvcalc::LlamaCppPlacement none;
    const char* flag = o.placement.n_gpu_layers != none.n_gpu_layers ? "--n-gpu-layers"
                       : o.placement.n_cpu_moe != none.n_cpu_moe     ? "--n-cpu-moe"
                                                                     : nullptr;
    if (o.gguf_headers.empty()) {
        if (flag) why = std::string(flag) + " needs --gguf FILE: llama.cpp places a GGUF file's tensors";
        return std::nullopt;
    }
    bool tensors = false;
    for (const auto& h : o.gguf_headers) tensors = tensors || !h.tensors.empty();
    if (!tensors) {
        if (flag)
            why = std::string(flag) + ": the --gguf file lists no tensors (a vocab-only file), so there is nothing "
                                      "to place; give the model's own GGUF file";
        return std::nullopt;
    }
    kvcalc::LlamaCppBuffers b = kvcalc::predict_llama_cpp_startup(o.scenario, o.gguf_headers, o.placement);
    for (const auto& d : b.diagnostics)
        if (d.severity == Severity::error) {
            if (flag)
                why = std::string(flag) + ": " + d.message + (d.code == "wrong_engine" ? " (add --engine llama.cpp)" : "");
            return std::nullopt;
        }
    return b;
}

/// llama.cpp's --fit for a --gguf model that lists tensors, when --fit-free-mib asks for it. When it asked and
/// there is no fit, `why` says why (the flag is not dropped without a word).
std::optional<kvcalc::LlamaCppFit> gguf_fit(const kvcli::Options& o, std::string& why) {
    if (o.llama_fit.free_bytes <= 0) {
        if (!o.fit_tuning_flag.empty())
            why = o.fit_tuning_flag + " tunes llama.cpp's fit, which runs only with --fit-free-mib MIB (the GPU's free "
                                      "memory, as llama.cpp logs it); add --fit-free-mib or drop " + o.fit_tuning_flag;
        return std::nullopt;
    }
    if (o.gguf_headers.empty()) {
        why = "--fit-free-mib needs --gguf FILE: llama.cpp's fit places a GGUF file's tensors";
        return std::nullopt;
    }
    // llama.cpp's fit stops when the user placed the tensors (common/fit.cpp: "n_gpu_layers already set by user",
    // "tensor_buft_overrides already set by user") and runs with that placement; a predicted fit would be a choice
    // llama.cpp never makes.
    if (o.placement.n_gpu_layers >= 0 || o.placement.n_cpu_moe > 0) {
        const std::string flag = o.placement.n_gpu_layers >= 0 ? "-ngl " + std::to_string(o.placement.n_gpu_layers)
                                                               : "--n-cpu-moe " + std::to_string(o.placement.n_cpu_moe);
        why = "--fit-free-mib with " + flag + ": llama.cpp's fit does not run when the placement is given (it keeps " +
              flag + "); drop " + flag + " to see the fit's choice, or --fit-free-mib to price " + flag;
        return std::nullopt;
    }
    bool tensors = false;
    for (const auto& h : o.gguf_headers) tensors = tensors || !h.tensors.empty();
    if (!tensors) {
        why = "--fit-free-mib: the --gguf file lists no tensors (a vocab-only file), so there is nothing to place; "
              "give the model's own GGUF file";
        return std::nullopt;
    }
    kvcalc::LlamaCppFit f = kvcalc::fit_llama_cpp_startup(o.scenario, o.gguf_headers, o.placement, o.llama_fit);
    for (const auto& d : f.diagnostics)
        if (d.severity == Severity::error) {
            why = "--fit-free-mib: " + d.message + (d.code == "wrong_engine" ? " (add --engine llama.cpp)" : "");
            return std::nullopt;
        }
    return f;
}

nlohmann::json buffers_json(const kvcalc::LlamaCppBuffers& b) {
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& l : b.lines)
        if (l.kind == "compute")
            lines.push_back({{"device", l.device}, {"kind", l.kind}, {"bytes", l.bytes}, {"lower_bytes", l.lower_bytes},
                             {"log_line", l.log_line}});
        else
            lines.push_back({{"device", l.device}, {"kind", l.kind}, {"bytes", l.bytes}, {"log_line", l.log_line}});
    return {{"offloaded_layers", b.offloaded_layers}, {"total_layers", b.total_layers},
            {"gpu_model_bytes", b.gpu_model_bytes}, {"cpu_model_bytes", b.cpu_model_bytes},
            {"gpu_kv_bytes", b.gpu_kv_bytes}, {"cpu_kv_bytes", b.cpu_kv_bytes},
            {"gpu_compute_lower_bytes", b.gpu_compute.lower_bytes}, {"gpu_compute_upper_bytes", b.gpu_compute.upper_bytes},
            {"lines", lines},
            {"notes", b.notes}};
}

nlohmann::json fit_json(const kvcalc::LlamaCppFit& f) {
    return {{"fits", f.fits}, {"n_ctx", f.n_ctx}, {"n_gpu_layers", f.n_gpu_layers}, {"n_cpu_moe", f.n_cpu_moe},
            {"used_bytes", f.used_bytes}, {"arguments", f.arguments}, {"buffers", buffers_json(f.buffers)},
            {"notes", f.notes}};
}

void print_fit(std::ostream& os, const kvcalc::LlamaCppFit& f, const kvcli::Options& o) {
    constexpr double kMiB = 1024.0 * 1024.0;
    char head[200];
    std::snprintf(head, sizeof head, "\nllama.cpp --fit (predicted, %.0f MiB free, %.0f MiB to leave): ",
                  static_cast<double>(o.llama_fit.free_bytes) / kMiB, static_cast<double>(o.llama_fit.margin_bytes) / kMiB);
    os << head << (f.fits ? f.arguments : "does not fit, even with no layer on the GPU (" + f.arguments + ")") << "\n";
    char used[120];
    std::snprintf(used, sizeof used, "  GPU use at that choice: %.2f MiB (model + KV + the compute buffer's upper bound)\n",
                  static_cast<double>(f.used_bytes) / kMiB);
    os << used;
    for (const auto& l : f.buffers.lines) os << "  " << l.log_line << "\n";
    for (const auto& n : f.notes) os << "  note: " << n << "\n";
}

void print_buffers(std::ostream& os, const kvcalc::LlamaCppBuffers& b) {
    os << "\nllama.cpp start-up buffers (predicted from the GGUF tensors):\n";
    os << "  load_tensors: offloaded " << b.offloaded_layers << "/" << b.total_layers << " layers to GPU\n";
    for (const auto& l : b.lines) os << "  " << l.log_line << "\n";
    for (const auto& n : b.notes) os << "  note: " << n << "\n";
}

/// A start-up log beside the prediction: the scenario calibrated to it (the predicted report is the
/// uncalibrated scenario's, for the comparison).
struct LogContext {
    const kvcalc::StartupLog* log = nullptr;
    const kvcalc::StartupCalibration* calibration = nullptr;
    const kvcalc::Report* predicted = nullptr;
};

int run_predict(const kvcli::Options& o, const LogContext& lc = {}) {
    const kvcalc::Scenario& s = lc.calibration ? lc.calibration->scenario : o.scenario;
    const kvcalc::Report r = with_notes(o, kvcalc::predict(s));
    if (!r.ok) return bad_report(o, r);
    std::string no_buffers, no_fit;
    const std::optional<kvcalc::LlamaCppBuffers> buffers = gguf_buffers(o, no_buffers);
    const std::optional<kvcalc::LlamaCppFit> fit = gguf_fit(o, no_fit);
    if (!no_fit.empty()) return bad_input(no_fit);
    if (!no_buffers.empty()) return bad_input(no_buffers);
    if (o.json) {
        nlohmann::json j = r;
        if (fit) j["llama_cpp_fit"] = fit_json(*fit);
        if (lc.log && lc.calibration) j["log"] = kvcalc::calibrated_log_json(*lc.log, *lc.calibration, lc.predicted, &r);
        else if (lc.log) j["log"] = *lc.log;
        if (buffers) j["llama_cpp_buffers"] = buffers_json(*buffers);
        std::cout << kvcalc::dump_safe(j, 2) << "\n";
    } else {
        print_safe(std::cout, [&](std::ostream& os) {
            kvcli::print_report(os, r);
            if (buffers) print_buffers(os, *buffers);
            if (fit) print_fit(os, *fit, o);
            if (o.kv_breakdown) kvcli::print_breakdown(os, r);
            if (lc.log) {
                os << "\n";
                if (lc.calibration)
                    kvcli::print_log_comparison(os, *lc.calibration,
                                                kvcalc::compare_with_log(*lc.log, lc.predicted, &r));
                kvcli::print_startup_log(os, *lc.log, o.log_path);
            }
        });
    }
    if (!extras(o, r)) return kExitBadInput;
    return r.verdict == kvcalc::Verdict::fail ? kExitFails : kExitFits;
}

int run_solve(const kvcli::Options& o) {
    const bool ctx = o.mode == kvcli::Mode::solve_max_ctx;
    const char* what = ctx ? "max_model_len" : "max_num_seqs";
    // The max_model_len solver searches the length itself, so it does not check the scenario's own one.
    const kvcalc::SolveResult s = ctx ? kvcalc::solve_max_model_len(o.scenario) : kvcalc::solve_max_num_seqs(o.scenario);
    bool bad = false;
    for (const auto& d : s.diagnostics) bad = bad || (d.severity == Severity::error && d.code != "nothing_fits");
    if (bad) {
        print_diagnostics(s.diagnostics, Severity::error);
        kvcalc::Report failed;
        failed.diagnostics = s.diagnostics;
        if (o.json) std::cout << kvcalc::dump_safe(nlohmann::json(failed), 2) << "\n";
        return kExitBadInput;
    }
    kvcalc::Scenario at = o.scenario;
    if (s.ok) {
        if (ctx) at.max_model_len = s.value_rounded > 0 ? s.value_rounded : s.value;
        else at.max_num_seqs = s.value;
    }
    const kvcalc::Report r = with_notes(o, kvcalc::predict(at));
    // With several sequences the longest length that boots (one full request) is not the longest at which all of
    // them fit at once: --solve-max-ctx gives both, each named.
    const kvcalc::ContextLimits limits = ctx ? kvcalc::solve_context_limits(o.scenario) : kvcalc::ContextLimits{};
    const bool both = ctx && limits.max_num_seqs > 1 &&
                      !(limits.all_sequences.ok && s.ok && limits.all_sequences.value == s.value);
    if (o.json) {
        nlohmann::json j = r;
        j["solvers"] = {{what, s}};
        if (both) j["solvers"]["max_model_len_all_sequences"] = limits.all_sequences;
        std::cout << kvcalc::dump_safe(j, 2) << "\n";
    } else {
        print_safe(std::cout, [&](std::ostream& os) {
            if (both) {
                os << "Largest max_model_len for all " << limits.max_num_seqs << " sequences at once: "
                   << (limits.all_sequences.ok ? std::to_string(limits.all_sequences.value) + " tokens (" +
                                                     std::to_string(limits.all_sequences.value_rounded) + " rounded)"
                                               : std::string("none")) << "\n";
            }
            kvcli::print_solve(os, what, s, r);
            if (o.kv_breakdown && r.ok) kvcli::print_breakdown(os, r);
        });
    }
    kvcli::Options at_options = o;
    at_options.scenario = at;
    if (!extras(at_options, r)) return kExitBadInput;
    return s.ok ? kExitFits : kExitFails;
}

/// --fit MODEL[:PRESET]: the verdict on the card, the largest max_model_len that boots there, the start-up lines.
int run_fit(const kvcli::Options& o) {
    const kvcalc::Report r = kvcalc::predict(o.scenario);
    if (!r.ok) return bad_report(o, r);
    const kvcalc::SolveResult len = kvcalc::solve_max_model_len(o.scenario);
    // No card and no VRAM (nor a preset or link giving one): the core priced its default per-card VRAM. Say so.
    const bool vram_assumed = o.scenario.gpu.empty() && !o.scenario.vram_gb && !o.scenario.vram_gib;
    if (o.json) {
        nlohmann::json j = r;
        j["fit"] = o.fit_target;
        j["assumed_vram_gb"] = vram_assumed ? nlohmann::json(kvcalc::bytes_to_gb(r.settings.vram_bytes)) : nlohmann::json();
        j["solvers"] = {{"max_model_len", len}};
        std::cout << kvcalc::dump_safe(j, 2) << "\n";
    } else {
        print_safe(std::cout, [&](std::ostream& os) {
            os << "Fit: " << o.fit_target << "\n";
            if (vram_assumed) os << kvcli::assumed_vram_note(r) << "\n";
            kvcli::print_report(os, r);
            if (len.ok)
                os << "\nLargest max_model_len that boots here: " << len.value << " tokens (stopped by " << len.bound
                   << ")\n";
            else
                os << "\nNo max_model_len boots here.\n";
        });
    }
    if (!extras(o, r)) return kExitBadInput;
    return r.verdict == kvcalc::Verdict::fail ? kExitFails : kExitFits;
}

/// --fit-all: one verdict per serving preset (only --model's when given) on the scenario's card.
int run_fit_all(const kvcli::Options& o, bool model_given) {
    // "Does each preset fit on my card?" has no answer without the card: no silent 24 GB.
    if (o.scenario.gpu.empty() && !o.scenario.vram_gb && !o.scenario.vram_gib)
        return bad_input("--fit-all needs the card: give --card GPU (= --gpu; ids from --list-gpus, e.g. --card "
                         "rtx-4090) or the VRAM per card, --vram GB or --vram-gib GiB");
    std::vector<kvcli::PresetFit> fits;
    for (const auto& p : kvcalc::compose_presets()) {
        if (model_given && p.model_id != o.scenario.model_id) continue;
        kvcalc::Scenario s = p.scenario;
        s.gpu = o.scenario.gpu;
        s.vram_gb = o.scenario.vram_gb;
        s.vram_gib = o.scenario.vram_gib;
        s.engine = o.scenario.engine;
        fits.push_back({p.id, kvcalc::predict(s), kvcalc::solve_max_model_len(s)});
    }
    if (fits.empty()) {  // an empty table would read as "nothing to worry about"
        std::vector<std::string> models;
        for (const auto& p : kvcalc::compose_presets())
            if (std::find(models.begin(), models.end(), p.model_id) == models.end()) models.push_back(p.model_id);
        std::string with;
        for (const auto& m : models) with += (with.empty() ? "" : ", ") + m;
        return bad_input("--fit-all: model \"" + o.scenario.model_id + "\" has no serving presets (see --list-composes; "
                         "models with presets: " + with + "); for its own defaults use --fit " + o.scenario.model_id);
    }
    bool any_bad = false, any_fail = false;
    for (const auto& f : fits) {
        any_bad = any_bad || !f.report.ok;
        any_fail = any_fail || (f.report.ok && f.report.verdict == kvcalc::Verdict::fail);
    }
    if (o.json) {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& f : fits) {
            nlohmann::json j = f.report;
            j["preset"] = f.preset;
            j["solvers"] = {{"max_model_len", f.max_len}};
            rows.push_back(std::move(j));
        }
        std::cout << kvcalc::dump_safe(nlohmann::json{{"schema", kvcalc::kSchemaVersion}, {"ok", !any_bad},
                                                      {"fits", rows}},
                                       2)
                  << "\n";
    } else {
        print_safe(std::cout, [&](std::ostream& os) { kvcli::print_fit_all(os, fits); });
    }
    if (any_bad) return kExitBadInput;
    return any_fail ? kExitFails : kExitFits;
}

/// --shop: every catalog GPU × 1, 2, 4, 8 cards for the scenario, in the core's buy order: one row per GPU unless
/// --every-count; with --gpu only that GPU's rows (every count). A VRAM number names no GPU to shop for: an error.
int run_shop(const kvcli::Options& o) {
    if (o.scenario.vram_gb || o.scenario.vram_gib)
        return bad_input(std::string(o.scenario.vram_gb ? "--vram" : "--vram-gib") +
                         " with --shop: shopping compares the catalog's GPUs, each with its own VRAM; leave the VRAM "
                         "out, or give --gpu ID (--list-gpus) for one GPU at 1, 2, 4 and 8 cards");
    const kvcalc::Report r = kvcalc::predict(o.scenario);
    if (!r.ok) return bad_report(o, r);
    std::vector<kvcalc::GpuSpec> gpus = kvcalc::gpu_catalog();
    kvcli::ShopView view = o.every_count ? kvcli::ShopView::every_count : kvcli::ShopView::best_per_gpu;
    if (!o.scenario.gpu.empty()) {  // predict() accepted it, so it is a catalog id or alias
        const kvcalc::GpuSpec* g = kvcalc::find_gpu(o.scenario.gpu);
        gpus.assign(1, *g);
        view = kvcli::ShopView::one_gpu;
    }
    // Each row's card count is its tensor_parallel_size; a --tp the user typed is the one count priced.
    const std::vector<int> counts =
        o.tp_given ? std::vector<int>{o.scenario.tensor_parallel_size} : kvcalc::default_shop_counts();
    std::vector<kvcalc::ShopRow> rows = kvcalc::shopping(o.scenario, gpus, counts);
    if (view == kvcli::ShopView::best_per_gpu) rows = kvcalc::best_row_per_gpu(rows);
    if (o.json) {
        std::cout << kvcalc::dump_safe(nlohmann::json{{"schema", kvcalc::kSchemaVersion}, {"ok", true},
                                                      {"diagnostics", r.diagnostics},
                                                      {"view", view == kvcli::ShopView::best_per_gpu ? "best_per_gpu"
                                                               : view == kvcli::ShopView::one_gpu  ? "one_gpu"
                                                                                                    : "every_count"},
                                                      {"card_counts", counts},
                                                      {"rows", rows}},
                                       2)
                  << "\n";
    } else {
        print_safe(std::cout, [&](std::ostream& os) {
            kvcli::print_shop(os, r, rows, view, o.tp_given ? o.scenario.tensor_parallel_size : 0);
        });
    }
    return kExitFits;
}

/// --log FILE: reads the log; alone it prints the facts (exit 0, or 2 when nothing may be priced from the log),
/// beside a model (--model, --config, --compose, --from-url) the prediction with the facts after it.
int run_log(const kvcli::Options& o, bool scenario_given) {
    std::string text;
    if (const std::string error = kvcli::read_log_text(o.log_path, text); !error.empty()) return bad_input(error);
    const kvcalc::StartupLog log = kvcalc::read_startup_log(text);
    print_diagnostics(log.diagnostics, Severity::warning);
    // With a model (given, or named by the log and in the catalog): the scenario calibrated to the log.
    const kvcalc::StartupCalibration c = kvcalc::calibrate_from_log(o.scenario, log, scenario_given);
    const bool model_from_log = !c.filled.empty() && c.filled.front().rfind("model ", 0) == 0;
    if (scenario_given || model_from_log) {
        if (!log.ok) return kExitBadInput;
        print_diagnostics(c.diagnostics, Severity::warning);
        // kvcalc's own prediction of the same boot: the log's settings, kvcalc's terms.
        kvcalc::Scenario own = c.scenario;
        own.measured.reset();
        // The solvers on the measured terms: the same answers the JSON API's startup_log gives with "solve".
        if (o.mode == kvcli::Mode::solve_max_ctx || o.mode == kvcli::Mode::solve_max_seqs) {
            kvcli::Options calibrated = o;
            calibrated.scenario = c.scenario;
            return run_solve(calibrated);
        }
        const kvcalc::Report predicted = kvcalc::predict(own);
        return run_predict(o, {&log, &c, &predicted});
    }
    // A solver needs the model's layers, which a log does not print: no answer is better than the log alone.
    const kvcalc::LogFact* served = kvcalc::find_fact(log, "model");
    if (o.mode == kvcli::Mode::solve_max_ctx || o.mode == kvcli::Mode::solve_max_seqs)
        return bad_input(std::string(o.mode == kvcli::Mode::solve_max_ctx ? "--solve-max-ctx" : "--solve-max-seqs") +
                         " with --log needs the model's layers, which the log does not print, and " +
                         (served && !served->detail.empty() ? "the model it serves, '" + served->detail.substr(0, 64) +
                                                                  "', is not a catalog model"
                                                            : "it names no model") +
                         ": give --model, --config or --gguf beside --log");
    if (o.json) {
        std::cout << kvcalc::dump_safe(kvcalc::startup_log_document(log), 2) << "\n";
    } else {
        print_safe(std::cout, [&](std::ostream& os) { kvcli::print_startup_log(os, log, o.log_path); });
    }
    return log.ok ? kExitFits : kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    bool model_given = false;  // --fit-all keeps to one model's presets when --model is given
    for (const auto& a : args) model_given = model_given || a == "--model" || a.rfind("--model=", 0) == 0;
    kvcli::ParseResult parsed = kvcli::parse_args(args);
    if (!parsed.error.empty()) return bad_input(parsed.error);
    kvcli::Options& o = parsed.options;
    print_diagnostics(o.warnings, Severity::warning);

    switch (o.mode) {
        case kvcli::Mode::help: std::cout << kvcli::help_text(); return kExitFits;
        case kvcli::Mode::version:
            std::cout << "kvcalc " << KVCALC_VERSION << " (JSON schema " << kvcalc::kSchemaVersion << ", URL v"
                      << kvcalc::kUrlVersion << ")\n";
            return kExitFits;
        default: break;
    }
    if (!o.config_path.empty()) {
        std::string error = kvcli::load_config(o.config_path, o.scenario);
        if (!error.empty()) return bad_input(error);
    }
    // One source of the model: --fit MODEL, --config, --model ORG/NAME (or a link's hf=) and --gguf (or gguf=)
    // each name one, and a second would silently replace the first.
    if (!o.fit_target.empty() && (!o.config_path.empty() || !o.checkpoint.empty() || !o.gguf_path.empty()))
        return bad_input("--fit " + o.fit_target + " and " +
                         (!o.gguf_path.empty() ? o.gguf_named_by + o.gguf_path
                          : !o.checkpoint.empty() ? o.checkpoint_named_by + o.checkpoint
                                                  : "--config " + o.config_path) +
                         " both describe the model: give one of them");
    if (!o.checkpoint.empty() && !o.gguf_path.empty())
        return bad_input(o.checkpoint_named_by + o.checkpoint + " and " + o.gguf_named_by + o.gguf_path +
                         " both describe the model: give one of them");
    if (!o.checkpoint.empty()) {
        if (!o.config_path.empty()) return bad_input("--model " + o.checkpoint + " and --config both describe the model: give one of them");
        std::string error = kvcli::load_checkpoint(o.checkpoint, o.offline, o.scenario, o.checkpoint_named_by);
        if (!error.empty()) return bad_input(error);
    }
    if (!o.gguf_path.empty()) {
        if (!o.config_path.empty()) return bad_input("--gguf and --config both describe the model: give one of them");
        std::string error = kvcli::load_gguf(o.gguf_path, o.offline, o.scenario, o.model_notes, o.gguf_headers,
                                             o.gguf_named_by);
        if (!error.empty()) return bad_input(error);
        print_diagnostics(o.model_notes, Severity::warning);
    }
    switch (o.mode) {
        case kvcli::Mode::list_models:
        case kvcli::Mode::list_gpus:
        case kvcli::Mode::list_composes:
            if (o.json) std::cout << kvcalc::dump_safe(kvcli::catalog_json(o.mode), 2) << "\n";
            else if (o.mode == kvcli::Mode::list_models) kvcli::print_models(std::cout);
            else if (o.mode == kvcli::Mode::list_gpus) kvcli::print_gpus(std::cout);
            else kvcli::print_composes(std::cout);
            return kExitFits;
        case kvcli::Mode::calibration: {
            const kvcalc::CalibrationSummary c = kvcalc::run_calibration();
            if (o.json) std::cout << kvcalc::dump_safe(nlohmann::json(c), 2) << "\n";
            else kvcli::print_calibration(std::cout, c);
            return kExitFits;
        }
        default: break;
    }
    if (!o.log_path.empty()) {
        if (o.mode != kvcli::Mode::predict && o.mode != kvcli::Mode::solve_max_ctx &&
            o.mode != kvcli::Mode::solve_max_seqs)
            return bad_input("--log goes alone, with a plain prediction (--model, --config, ...) or with "
                             "--solve-max-ctx / --solve-max-seqs, not with --fit or --shop");
        bool scenario_given = false;
        for (const auto& a : args)
            for (const char* flag : {"--model", "--config", "--compose", "--from-url"})
                scenario_given = scenario_given || a == flag || a.rfind(std::string(flag) + "=", 0) == 0;
        return run_log(o, scenario_given);
    }
    switch (o.mode) {
        case kvcli::Mode::solve_max_ctx:
        case kvcli::Mode::solve_max_seqs: return run_solve(o);
        case kvcli::Mode::fit: return run_fit(o);
        case kvcli::Mode::fit_all: return run_fit_all(o, model_given);
        case kvcli::Mode::shop: return run_shop(o);
        default: return run_predict(o);
    }
}
