// "llama.cpp (GGUF)": open a .gguf file (only its header is read, in the browser), then the verdict, llama.cpp's
// start-up buffers per device in its own wording (model buffer, KV buffer, compute buffer) and the llama-server
// command. Every number is the core's (gguf_page.h); this file only lays them out.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>

#include "gguf_page.h"
#include "platform.h"
#include "text_export.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

/// "0.49" — MiB with two decimals, as llama.cpp prints its buffer sizes.
std::string mib(std::int64_t bytes) {
    char out[32];
    std::snprintf(out, sizeof out, "%.2f", static_cast<double>(bytes) / kMiB);
    return out;
}

/// One device's row of the table: the three buffers llama.cpp logs for it ("" where it logs none).
struct DeviceRow {
    std::string device, model, kv, compute;
};

std::vector<DeviceRow> device_rows(const LlamaCppBuffers& b) {
    std::vector<DeviceRow> rows;
    for (const LlamaCppBufferLine& l : b.lines) {
        auto it = std::find_if(rows.begin(), rows.end(), [&](const DeviceRow& r) { return r.device == l.device; });
        if (it == rows.end()) {
            rows.push_back({l.device, "", "", ""});
            it = rows.end() - 1;
        }
        if (l.kind == "model") it->model = mib(l.bytes);
        else if (l.kind == "KV") it->kv = mib(l.bytes);
        else if (l.kind == "compute") it->compute = mib(l.lower_bytes);  // the point, as the log line prints it
    }
    return rows;
}

void colored_wrapped(const App& app, const std::string& text, bool error) {
    text_wrapped(text, error ? verdict_color(Verdict::fail, app.ui.dark_theme) : 0);
}

void buffers_table(App& app, const LlamaCppBuffers& b) {
    char head[96];
    std::snprintf(head, sizeof head, "load_tensors: offloaded %d/%d layers to GPU", b.offloaded_layers, b.total_layers);
    ImGui::TextUnformatted(head);
    app.ui.drawn_text["gguf_offloaded"] = head;
    const std::vector<DeviceRow> rows = device_rows(b);
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
    if (ImGui::BeginTable("##gguf_buffers", 4, flags)) {
        ImGui::TableSetupColumn("device");
        ImGui::TableSetupColumn("model buffer");
        ImGui::TableSetupColumn("KV buffer");
        ImGui::TableSetupColumn("compute buffer");
        ImGui::TableHeadersRow();
        std::string drawn;
        for (const DeviceRow& r : rows) {
            ImGui::TableNextRow();
            const std::string cells[4] = {r.device, r.model, r.kv, r.compute};
            for (int c = 0; c < 4; ++c) {
                ImGui::TableSetColumnIndex(c);
                if (c == 0) ImGui::TextUnformatted(cells[c].c_str());
                else text_wrapped(cells[c].empty() ? std::string("–") : cells[c]);
            }
            app.ui.drawn_text["gguf_row_" + r.device] = r.model + " | " + r.kv + " | " + r.compute;
        }
        ImGui::EndTable();
    }
    text_dim("MiB, as llama.cpp prints them at start-up (-ngl all). The compute buffer is the peak of the tensors "
             "alive at once in the graph llama.cpp reserves at start; its allocator may place them up to one hidden "
             "state (n_embd x n_ubatch x 4 B) apart, which kvcalc's offload fit counts too.");
    if (ImGui::TreeNode("The lines as llama.cpp logs them")) {
        for (const LlamaCppBufferLine& l : b.lines) ImGui::TextUnformatted(l.log_line.c_str());
        ImGui::TreePop();
    }
}

/// Verdict, per-device table and command for the model read from the file.
bool model_read(App& app) {
    bool changed = false;
    GgufPage& g = app.gguf;
    if (app.scenario.engine != "llama.cpp") {
        colored_wrapped(app, "The engine is " + app.scenario.engine + ": the start-up buffers below are llama.cpp's.",
                        true);
        if (tap_button(app.ui, "Use llama.cpp")) {
            app.scenario.engine = "llama.cpp";
            changed = true;
        }
        record_hitbox(app.ui, "gguf_use_llama_cpp");
        return changed;
    }
    const std::string verdict = verdict_line(app);
    const Verdict v = app.report.ok ? app.report.verdict : Verdict::fail;
    text_wrapped(verdict, verdict_color(v, app.ui.dark_theme));
    app.ui.drawn_text["gguf_verdict"] = verdict;
    record_hitbox(app.ui, "gguf_verdict");
    for (const std::string& n : g.notes) bullet_wrapped(n);
    if (!g.tensors_listed) {
        colored_wrapped(app,
                        "This file lists no tensors (a vocab-only GGUF: metadata and tokenizer only), so the weights "
                        "are unknown: the verdict prices the KV cache from the file's own keys and leaves the weights "
                        "out. Pick the model's own .gguf (the one llama-server loads) for the weights and the buffers "
                        "per device, or set the weights size in the Model section.",
                        false);
        app.ui.drawn_text["gguf_vocab_only"] = "weights unknown";
    } else if (g.buffers) {
        const std::string why = [&] {
            std::string out;
            for (const Diagnostic& d : g.buffers->diagnostics)
                if (d.severity == Severity::error) out += (out.empty() ? "" : "; ") + d.message;
            return out;
        }();
        if (why.empty()) buffers_table(app, *g.buffers);
        else colored_wrapped(app, "No start-up buffers: " + why, true);
    }
    const std::string command = serve_command_text(app);
    ImGui::Spacing();
    ImGui::TextUnformatted("llama-server command");
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(command.c_str());
    ImGui::PopTextWrapPos();
    app.ui.drawn_text["gguf_command"] = command;
    if (tap_button(app.ui, "Copy command"))
        app.ui.copied_note = copy_text(command) ? "llama-server command copied." : "No clipboard here: " + command;
    record_hitbox(app.ui, "gguf_copy_command");
    return changed;
}

}  // namespace

bool panel_gguf(App& app) {
    ImGui::Spacing();
    if (app.gguf.open_section) {
        ImGui::SetNextItemOpen(true);
        app.gguf.open_section = false;
    }
    const bool open = ImGui::CollapsingHeader("llama.cpp (GGUF)", gguf_model_in_use(app) ? ImGuiTreeNodeFlags_DefaultOpen : 0);
    record_hitbox(app.ui, "gguf_section");
    if (!open) return false;
    GgufPage& g = app.gguf;
    text_dim("Price a llama.cpp model file: kvcalc reads only its header (metadata and tensor list) in this browser; "
             "nothing is uploaded.");
    if (tap_button(app.ui, "Open a .gguf file…")) gguf_request_pick(app);
    record_hitbox(app.ui, "gguf_open");
    help_marker(app.ui, "One .gguf file, or every part of a split model (NAME-00001-of-0000N.gguf …) selected together; "
                        "on a desktop the files may also be dropped on the page. "
                        "The KV cache comes from the file's own keys, the weights from its tensor list, and the table "
                        "predicts the buffers llama.cpp prints per device at start.");
    // A Hub GGUF: the same header reads, by range requests instead of Blob.slice.
    const float em = ImGui::GetFontSize();
    const float read_w = ImGui::CalcTextSize("Read").x + ImGui::GetStyle().FramePadding.x * 2;
    ImGui::SetNextItemWidth(std::max(em * 8, ImGui::GetContentRegionAvail().x - read_w - ImGui::GetStyle().ItemSpacing.x));
    text_field(app.ui, "##gguf_hub", "Hub GGUF: ORG/NAME/FILE.gguf or its URL", g.hub_input, sizeof g.hub_input,
               FieldKind::url);
    record_hitbox(app.ui, "gguf_hub");
    ImGui::SameLine();
    if (tap_button(app.ui, "Read")) gguf_request_hub(app, g.hub_input);
    record_hitbox(app.ui, "gguf_hub_read");
    if (!g.status.empty()) {
        colored_wrapped(app, g.status, g.status_is_error);
        app.ui.drawn_text["gguf_status"] = g.status;
    }
    if (!gguf_model_in_use(app)) return false;
    return model_read(app);
}

}  // namespace kvcalc::ui
