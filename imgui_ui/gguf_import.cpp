// A picked .gguf file becomes the scenario's model. The page reads the first MiB of each file (web/bridge.js), the
// core's read_gguf_header says whether the header is whole, and the read doubles while it says "truncated", as the
// CLI's gguf_loader.cpp does with a file on disk; read_gguf_model builds the ModelSpec from the headers.
#include <algorithm>
#include <cctype>
#include <string_view>

#include <nlohmann/json.hpp>

#include "app.h"
#include "gguf_page.h"
#include "kvcalc/deployment/llama_cpp_startup.h"
#include "kvcalc/config/hub_gguf.h"
#include "model_lookup.h"
#include "platform.h"
#include "text_export.h"

namespace kvcalc::ui {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// "1.6 MB" style size for the status line (decimal, as file managers show file sizes).
std::string file_size_text(std::int64_t bytes) {
    char out[32];
    if (bytes < 1000) std::snprintf(out, sizeof out, "%lld B", static_cast<long long>(bytes));
    else if (bytes < 1000 * 1000) std::snprintf(out, sizeof out, "%.1f kB", static_cast<double>(bytes) / 1e3);
    else if (bytes < 1000LL * 1000 * 1000) std::snprintf(out, sizeof out, "%.1f MB", static_cast<double>(bytes) / 1e6);
    else std::snprintf(out, sizeof out, "%.2f GB", static_cast<double>(bytes) / 1e9);
    return out;
}

void fail(App& app, const std::string& message) {
    GgufPage& g = app.gguf;
    g.reading = false;
    g.files.clear();
    g.status = message;
    g.status_is_error = true;
    g.hub_reading.clear();
    // A Hub GGUF that could not be read (a link's gguf=) names no model in use: the link leaves it out.
    if (!gguf_model_in_use(app)) app.scenario.hub_gguf.clear();
    app.url_dirty = true;
}

/// The error sentences of the core's diagnostics, joined.
std::string errors_of(const Diagnostics& d) {
    std::string out;
    for (const Diagnostic& x : d)
        if (x.severity == Severity::error) out += (out.empty() ? "" : "; ") + x.message;
    return out;
}

/// What the user is told when a file's header cannot be read: not a GGUF at all, cut short, or too large.
std::string header_problem(const GgufPickedFile& f, const std::string& bytes, const GgufReadResult& r, bool hub) {
    const std::string& name = f.name;
    const std::size_t head = std::min<std::size_t>(bytes.size(), 4);
    if (std::string_view(bytes).substr(0, head) != std::string_view("GGUF").substr(0, head)) {
        const std::string n = lower(name);
        std::string hint = " Pick a llama.cpp model file (.gguf).";
        if (ends_with(n, ".safetensors") || ends_with(n, ".bin") || ends_with(n, ".pt") || ends_with(n, ".pth"))
            hint = " This looks like a PyTorch / Hugging Face checkpoint: paste its config.json in the Model section "
                   "instead, or pick the model's .gguf file.";
        else if (ends_with(n, ".json"))
            hint = " For a config.json use Paste config.json in the Model section.";
        else if (ends_with(n, ".ggml") || ends_with(n, ".ggjt"))
            hint = " Old GGML files are not read by today's llama.cpp either: convert it to GGUF.";
        return name + " is not a GGUF file: a GGUF file starts with the 4 bytes \"GGUF\", this one does not." + hint;
    }
    if (r.truncated) {
        if (f.read_bytes >= kGgufMaxHeaderBytes && f.size_bytes > f.read_bytes &&
            static_cast<std::int64_t>(bytes.size()) >= f.read_bytes)
            return name + ": its header is larger than " + std::to_string(kGgufMaxHeaderBytes >> 20) +
                   " MiB, the most kvcalc reads.";
        // Fewer bytes than asked: the file ends there. A Hub that hides Content-Range gives no size, so that end
        // is the only size known; a Hub file is not being downloaded, so only "cut short" can be asked.
        return name + " ends inside its GGUF header (the file ends after " +
               file_size_text(static_cast<std::int64_t>(bytes.size())) +
               " and the header goes on past it): " +
               (hub ? "is the file on the Hub cut short (an upload that did not finish)? ("
                    : "is the file cut short, or still downloading? (") +
               errors_of(r.diagnostics) + ")";
    }
    return name + ": not a GGUF header llama.cpp would read: " + errors_of(r.diagnostics);
}

/// The parts to read: the one picked file, or every part of a split file; "" and the parts, or why not.
std::string choose_parts(const std::vector<GgufPickedFile>& picked, std::vector<GgufPickedFile>& parts) {
    parts.clear();
    if (picked.empty()) return "No file was picked.";
    // A split model: the first split-named file decides which set; every part must be among the picked files.
    for (const GgufPickedFile& f : picked) {
        const GgufSplitName s = parse_gguf_split_name(f.name);
        if (s.part == 0) continue;
        std::vector<std::string> missing;
        for (int k = 1; k <= s.count; ++k) {
            const std::string want = gguf_split_part_name(s.stem, k, s.count);
            const auto it = std::find_if(picked.begin(), picked.end(),
                                         [&](const GgufPickedFile& p) { return lower(p.name) == lower(want); });
            if (it == picked.end()) missing.push_back(want);
            else parts.push_back(*it);
        }
        if (missing.empty()) return {};
        parts.clear();
        std::string list;
        for (std::size_t i = 0; i < missing.size() && i < 5; ++i) list += (i ? ", " : "") + missing[i];
        if (missing.size() > 5) list += " and " + std::to_string(missing.size() - 5) + " more";
        return f.name + " is part " + std::to_string(s.part) + " of a model split into " + std::to_string(s.count) +
               " files (gguf-split). Open the picker again and select all " + std::to_string(s.count) +
               " parts together, " + gguf_split_part_name(s.stem, 1, s.count) + " to " +
               gguf_split_part_name(s.stem, s.count, s.count) + ": each part lists its own tensors. Missing: " + list +
               ".";
    }
    parts.push_back(picked.front());
    return {};
}

/// Every part's header is in: the core builds the model, and the scenario takes it with the engine llama.cpp.
void finish(App& app) {
    GgufPage& g = app.gguf;
    g.reading = false;
    std::vector<GgufHeader> headers;
    std::int64_t read = 0;
    for (GgufPickedFile& f : g.files) {
        read += std::min(f.read_bytes, f.size_bytes);
        headers.push_back(std::move(*f.header));
    }
    const std::string name = g.files.front().name;
    GgufModel model = read_gguf_model(headers);
    std::string errors;
    std::vector<std::string> notes;
    for (const Diagnostic& d : model.diagnostics) {
        if (d.severity == Severity::error) errors += (errors.empty() ? "" : "; ") + d.field + ": " + d.message;
        else if (d.severity == Severity::warning || d.code == "gguf_weights_unknown") notes.push_back(d.message);
    }
    if (!errors.empty()) {
        fail(app, name + ": the header was read, but kvcalc cannot price this model: " + errors);
        return;
    }
    // The id is the file name without .gguf, as the CLI's --gguf names it; the llama-server command's -m is the
    // file's own name (an Ollama blob has no .gguf to add back).
    const std::string stem = ends_with(lower(name), ".gguf") ? name.substr(0, name.size() - 5) : name;
    model.spec.id = stem;
    const std::string hub = g.hub_reading;
    g.hub_reading.clear();
    if (hub.empty()) model.spec.gguf_file = name;  // a Hub GGUF is downloaded by the command (--hf-repo, --hf-file)
    model.spec.source = "GGUF header of " + (hub.empty() ? name + " (read in the browser)" : hub + " (read from the Hub)");
    Scenario& s = app.scenario;
    s.engine = "llama.cpp";  // before switch_model: the context limit is llama.cpp's
    switch_model(s, std::move(model.spec), true);
    s.hub_gguf = hub;  // after the switch, which clears it: the command downloads it, the link carries gguf=
    app.ui.model_note.clear();  // its wording is vLLM's; the GGUF section says what happened
    app.ui.model_status.clear();
    app.ui.pasted_config.clear();
    app.ui.pasted_source = "gguf";
    app.ui.clamp_notes.clear();
    g.headers = std::move(headers);
    g.model_id = stem;
    g.tensors_listed = model.tensors_listed;
    g.notes = std::move(notes);
    g.buffers.reset();
    const std::string parts = g.files.size() > 1 ? std::to_string(g.files.size()) + " parts, " : std::string();
    if (!hub.empty())
        g.status = "Read the header of " + hub + " from the Hub (" + parts + file_size_text(read) +
                   " by range requests; the tensor data was not downloaded). Engine set to llama.cpp.";
    else
        g.status = "Read the header of " + name + " (" + parts + file_size_text(read) + " of " +
               file_size_text([&] {
                   std::int64_t total = 0;
                   for (const GgufPickedFile& f : g.files) total += f.size_bytes;
                   return total;
               }()) +
               " read in this browser, nothing uploaded). Engine set to llama.cpp.";
    g.status_is_error = false;
    g.files.clear();
    app.dirty = true;
}

void take_bytes(App& app, const HostMessage& m) {
    GgufPage& g = app.gguf;
    int index = -1;
    try {
        index = std::stoi(m.text);
    } catch (...) {
        index = -1;
    }
    const auto it = std::find_if(g.files.begin(), g.files.end(), [&](const GgufPickedFile& p) { return p.page_index == index; });
    if (!g.reading || index < 0 || it == g.files.end()) return;  // a stale answer
    GgufPickedFile& f = *it;
    const std::string bytes = take_gguf_bytes(index);
    GgufReadResult r = read_gguf_header(bytes);
    if (r.header) {
        f.header = std::move(*r.header);
        const bool all = std::all_of(g.files.begin(), g.files.end(), [](const GgufPickedFile& p) { return p.header; });
        if (all) finish(app);
        return;
    }
    // Fewer bytes than asked: the file ends there, whatever size was given (a Hub that hides Content-Range gives
    // none, and the page then asked for ever larger ranges up to the 256 MiB cap and blamed the header's size).
    const auto got = static_cast<std::int64_t>(bytes.size());
    const bool more_left = got < f.size_bytes && got >= f.read_bytes;
    if (r.truncated && more_left && f.read_bytes < kGgufMaxHeaderBytes) {
        f.read_bytes = std::min({f.read_bytes * 2, kGgufMaxHeaderBytes, f.size_bytes});
        request_gguf_bytes(f.page_index, static_cast<double>(f.read_bytes));
        return;
    }
    fail(app, header_problem(f, bytes, r, !g.hub_reading.empty()));
}

void take_files(App& app, const HostMessage& m) {
    GgufPage& g = app.gguf;
    const nlohmann::json j = nlohmann::json::parse(m.text, nullptr, false);
    std::vector<GgufPickedFile> picked;
    if (j.is_array())
        for (std::size_t i = 0; i < j.size(); ++i) {
            const auto& e = j[i];
            if (e.is_object() && e.contains("name") && e["name"].is_string() && e.contains("size") &&
                e["size"].is_number())
                picked.push_back({e["name"].get<std::string>(), static_cast<int>(i), e["size"].get<std::int64_t>(), 0,
                                  std::nullopt});
        }
    if (picked.empty()) return;  // the picker was closed without a file
    if (m.source != "hub") g.hub_reading.clear();  // a pick or drop: local files
    std::vector<GgufPickedFile> parts;
    if (const std::string why = choose_parts(picked, parts); !why.empty()) {
        fail(app, why);
        return;
    }
    for (const GgufPickedFile& f : parts)
        if (f.size_bytes <= 0) {
            fail(app, f.name + " is empty (0 bytes): it is not a GGUF file.");
            return;
        }
    g.files = std::move(parts);
    g.reading = true;
    g.status = "Reading the header of " + (g.hub_reading.empty() ? g.files.front().name : g.hub_reading) +
               (g.hub_reading.empty() ? "…" : " from the Hub…");
    g.status_is_error = false;
    if (picked.size() > g.files.size())
        g.status += " (one model at a time: the other picked files are not read)";
    for (GgufPickedFile& f : g.files) {
        f.read_bytes = std::min(kGgufFirstReadBytes, f.size_bytes);
        request_gguf_bytes(f.page_index, static_cast<double>(f.read_bytes));
    }
    app.url_dirty = true;
}

}  // namespace

void gguf_request_hub(App& app, const std::string& text) {
    GgufPage& g = app.gguf;
    g.open_section = true;
    const std::optional<HubGguf> ref = parse_hub_gguf(text);
    if (!ref) {
        fail(app, "\"" + text + "\" is not a Hub GGUF file: type ORG/NAME/FILE.gguf (or ORG/NAME@REVISION/FILE.gguf), "
                  "or paste its https://huggingface.co/ORG/NAME/resolve/main/FILE.gguf link (a /blob/ link works too).");
        return;
    }
    // Every part of a split file, as a picked set: the same choose_parts / header reads follow.
    std::vector<std::string> files{ref->file};
    const GgufSplitName split = parse_gguf_split_name(ref->file);
    if (split.part > 0) {
        files.clear();
        for (int k = 1; k <= split.count; ++k) files.push_back(gguf_split_part_name(split.stem, k, split.count));
    }
    nlohmann::json request{{"ref", hub_gguf_text(*ref)}, {"files", nlohmann::json::array()}};
    for (const std::string& f : files) {
        HubGguf one = *ref;
        one.file = f;
        request["files"].push_back({{"name", f.substr(f.rfind('/') + 1)}, {"url", hub_gguf_url(one)}});
    }
    HubGguf first = *ref;
    first.file = files.front();
    g.hub_reading = hub_gguf_text(first);
    std::snprintf(g.hub_input, sizeof g.hub_input, "%s", hub_gguf_text(*ref).c_str());
    if (!request_gguf_hub(request.dump())) {
        g.hub_reading.clear();
        fail(app, "This build cannot fetch from the Hub: read it with the CLI, kvcalc --gguf " + hub_gguf_text(*ref) +
                      " --engine llama.cpp.");
        return;
    }
    g.reading = true;
    g.files.clear();
    g.status = "Reading the header of " + g.hub_reading + " from the Hub…";
    g.status_is_error = false;
}

void gguf_open_link(App& app) {
    const std::string ref = app.scenario.hub_gguf;
    if (!ref.empty()) gguf_request_hub(app, ref);
}

bool gguf_model_in_use(const App& app) {
    return app.scenario.model && !app.gguf.model_id.empty() && app.scenario.model->id == app.gguf.model_id;
}

void gguf_request_pick(App& app) {
    if (!request_gguf_pick()) {
        app.gguf.status = "This build has no file picker: read a GGUF with the CLI, kvcalc --gguf FILE --engine llama.cpp.";
        app.gguf.status_is_error = true;
    }
}

bool gguf_take_message(App& app, const HostMessage& m) {
    if (m.kind == "gguf_files" || m.kind == "gguf_error") app.gguf.open_section = true;
    if (m.kind == "gguf_files") take_files(app, m);
    else if (m.kind == "gguf_bytes") take_bytes(app, m);
    else if (m.kind == "gguf_error") fail(app, m.text);
    else return false;
    return true;
}

void gguf_recompute(App& app) {
    GgufPage& g = app.gguf;
    g.buffers.reset();
    if (!gguf_model_in_use(app) || !g.tensors_listed || !app.report.ok) return;
    // The CLI's defaults: every layer on the GPU (-ngl all), the device named CUDA0.
    g.buffers = predict_llama_cpp_startup(app.scenario, g.headers, LlamaCppPlacement{});
}

std::string gguf_state_json(const App& app) {
    const GgufPage& g = app.gguf;
    nlohmann::json j;
    j["status"] = g.status;
    j["status_is_error"] = g.status_is_error;
    j["reading"] = g.reading;
    j["in_use"] = gguf_model_in_use(app);
    j["hub"] = app.scenario.hub_gguf;
    j["tensors_listed"] = g.tensors_listed;
    j["notes"] = g.notes;
    nlohmann::json files = nlohmann::json::array();
    for (const GgufPickedFile& f : g.files) files.push_back({{"name", f.name}, {"size", f.size_bytes}, {"read", f.read_bytes}});
    j["files"] = files;
    if (g.buffers) {
        nlohmann::json lines = nlohmann::json::array();
        for (const LlamaCppBufferLine& l : g.buffers->lines)
            lines.push_back({{"device", l.device}, {"kind", l.kind}, {"bytes", l.bytes}, {"lower_bytes", l.lower_bytes},
                             {"log_line", l.log_line}});
        j["buffers"] = {{"offloaded_layers", g.buffers->offloaded_layers}, {"total_layers", g.buffers->total_layers},
                        {"lines", lines}, {"error", errors_of(g.buffers->diagnostics)}};
    }
    j["command"] = gguf_model_in_use(app) ? serve_command_text(app) : std::string();
    // The report's own terms for the model read (the browser test compares them with kvcalc --gguf --json).
    if (gguf_model_in_use(app) && app.report.ok)
        j["terms"] = {{"kv_bytes_per_token", app.report.terms.kv_bytes_per_token},
                      {"weights_bytes", app.report.terms.weights_bytes},
                      {"weights_known", app.report.settings.weights_known}};
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace kvcalc::ui
