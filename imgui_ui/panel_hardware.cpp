// Hardware panel: a catalog GPU or a custom VRAM figure (GB vs GiB said out loud), GPU count, tensor parallel.
#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <vector>

#include "keyboard_nav.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/model/layer_cache.h"
#include "kvcalc/base/units.h"
#include "model_lookup.h"
#include "panels.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

std::string gpu_label(const GpuSpec& g) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s · %.0f GiB", short_gpu_name(g).c_str(), bytes_to_gib(g.vram_bytes));
    return buf;
}

/// The GPU combo and, for "Custom VRAM", one number with its unit. The scenario is the only source of truth: the
/// selection is read from it after the combo ran, so a pick and the custom-VRAM editor never act on the same frame.
bool gpu_picker(App& app) {
    Scenario& s = app.scenario;
    const GpuSpec* current = s.gpu.empty() ? nullptr : find_gpu(s.gpu);
    const std::string preview = current ? gpu_label(*current) : std::string("Custom VRAM");
    ImGui::SetNextItemWidth(-1.0f);
    bool picked = false;
    describe_next_item("GPU", preview);
    // Touch: rows at least 44 CSS px tall (a fingertip), and a list that holds whole rows: ImGui sizes a large combo
    // for 20 lines of text, which cut a 44 px row in half at the list's edge, and a finger aimed at that half
    // landed outside the list and closed it.
    const bool touch = app.ui.touch_layout;
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec2 row(0, touch ? std::max(44.0f, ImGui::GetFrameHeight()) : 0.0f);
    const float pitch = row.y + style.ItemSpacing.y;  // one row and the gap to the next
    const int rows_shown = std::clamp(static_cast<int>((ImGui::GetIO().DisplaySize.y * 0.6f) / pitch), 3, 9);
    if (touch)
        ImGui::SetNextWindowSizeConstraints(
            ImVec2(0, 0), ImVec2(FLT_MAX, rows_shown * pitch - style.ItemSpacing.y + style.WindowPadding.y * 2));
    if (ImGui::BeginCombo("##gpu", preview.c_str(), ImGuiComboFlags_HeightLarge)) {
        if (ImGui::Selectable("Custom VRAM", current == nullptr, 0, row) && current) {
            set_custom_vram(s, bytes_to_gib(current->vram_bytes), true);
            picked = true;
        }
        // In VRAM order, smallest first, as people shop.
        std::vector<const GpuSpec*> by_vram;
        for (const GpuSpec& g : gpu_catalog()) by_vram.push_back(&g);
        std::stable_sort(by_vram.begin(), by_vram.end(),
                         [](const GpuSpec* a, const GpuSpec* b) { return a->vram_bytes < b->vram_bytes; });
        int index = 1;  // row 0 is "Custom VRAM"
        for (const GpuSpec* gp : by_vram) {
            const GpuSpec& g = *gp;
            if (ImGui::Selectable(gpu_label(g).c_str(), current == &g, 0, row) && current != &g) {
                set_catalog_gpu(s, g.id);
                picked = true;
            }
            if (current == &g && ImGui::IsWindowAppearing()) {  // open at the current card
                if (touch) ImGui::SetScrollY(std::max(0, index - rows_shown / 2) * pitch);  // on a row boundary
                else ImGui::SetScrollHereY();
            }
            if (ImGui::IsItemVisible()) record_hitbox(app.ui, ("gpu_option_" + g.id).c_str());  // tests tap only rows on screen
            ++index;
        }
        const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();  // the list's box, for the tests
        app.ui.hitboxes["gpu_list"] = {pos.x, pos.y, size.x, size.y, 0};  // window 0: no scroll anchoring
        ImGui::EndCombo();
    }
    record_hitbox(app.ui, "gpu_combo");
    if (picked) return true;  // the editor below shows the new choice from the next frame on
    if (current) {
        text_dim(format_count(current->vram_bytes) + " B per card (nvidia-smi " +
                 std::to_string(current->vram_bytes >> 20) + " MiB)" +
                 (current->sm_x10 ? ", sm_" + std::to_string(current->sm_x10) : std::string()));
        return false;
    }
    // Custom VRAM: one number, and the user says which unit it is in (no field set = the core's 24 GB decimal).
    bool in_gib = s.vram_gib.has_value();
    double value = s.vram_gb ? *s.vram_gb : s.vram_gib ? *s.vram_gib : 24.0;
    bool changed = false;
    ImGui::TextUnformatted("VRAM per card");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    if (decimal_field(app.ui, "##vram", field_row(in_gib ? "vram_gib" : "vram_gb"), &value, "%.6g", "vram"))
        changed = true;
    ImGui::SameLine();
    if (ImGui::RadioButton("GiB", in_gib) && !in_gib) { in_gib = true; changed = true; }
    ImGui::SameLine();
    if (ImGui::RadioButton("GB", !in_gib) && in_gib) { in_gib = false; changed = true; }
    help_marker(app.ui, "GiB = 2^30 bytes (nvidia-smi's MiB / 1024; a card sold as \"24 GB\" has 24 GiB). "
                        "GB = 10^9 bytes.");
    clamp_note(app.ui, "vram");
    if (changed) set_custom_vram(s, value, in_gib);
    return changed;
}

/// tensor_parallel_size 1..8 as the core lists them for the priced model (Report::tp_options, so a config.json
/// model gets its own heads): the values it accepts as choices, the others greyed out with the core's reason.
bool parallel_picker(App& app) {
    Scenario& s = app.scenario;
    UiState& ui = app.ui;
    bool changed = false;
    std::vector<TpOption> options = app.report.tp_options ? *app.report.tp_options : std::vector<TpOption>{};
    if (options.empty())  // no report yet (or it failed): the same core list for the catalog model
        if (const ModelSpec* model = current_model(s)) options = tensor_parallel_options(*model);
    std::string invalid, reasons;
    for (const TpOption& o : options) {
        if (o.valid) continue;
        invalid += (invalid.empty() ? "" : ", ") + std::to_string(o.tensor_parallel_size);
        reasons += "\n" + std::to_string(o.tensor_parallel_size) + ": " + o.reason;
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("tensor_parallel_size");
    const std::string help = "vLLM splits attention heads over the cards: only values that divide the heads can be "
                             "chosen." + (invalid.empty() ? std::string() : "\n\nNot offered:" + reasons);
    help_marker(ui, help.c_str());
    bool first = true;
    for (const TpOption& o : options) {
        const int tp = o.tensor_parallel_size;
        char label[8];
        std::snprintf(label, sizeof label, "%d##tp", tp);
        // A radio is its circle, a gap and the digit; on a phone the row wraps instead of running off the edge.
        const float width = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
                            ImGui::CalcTextSize(label, nullptr, true).x;
        if (!first || !ui.narrow_layout) same_line_if_room(width);
        first = false;
        ImGui::BeginDisabled(!o.valid);
        if (ImGui::RadioButton(label, s.tensor_parallel_size == tp) && o.valid && s.tensor_parallel_size != tp) {
            s.tensor_parallel_size = tp;
            if (s.gpus != 0 && s.gpus < tp) s.gpus = 0;
            changed = true;
        }
        ImGui::EndDisabled();
        if (!o.valid && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("%s", o.reason.c_str());
        if (o.valid) record_hitbox(ui, ("tp_" + std::to_string(tp)).c_str());
    }
    if (!invalid.empty()) {
        text_dim("Greyed out: " + invalid + " (they do not split the heads; see ? for each reason)");
    }
    // Typed: the table's range (fewer than tensor_parallel_size is the core's error); the buttons stay at or above it.
    std::int64_t box = s.gpus == 0 ? s.tensor_parallel_size : s.gpus;
    const ScenarioField& gpus_row = field_row("gpus");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (stepper(ui, "GPUs in the box", gpus_row, &box, 1, s.tensor_parallel_size, static_cast<std::int64_t>(gpus_row.max))) {
        s.gpus = box == s.tensor_parallel_size ? 0 : static_cast<int>(box);
        changed = true;
    }
    help_marker(ui, "Physical cards. kvcalc prices the tensor_parallel_size cards the model runs on; extra cards sit idle.");
    return changed;
}

}  // namespace

bool panel_hardware(App& app) {
    bool changed = gpu_picker(app);
    changed |= parallel_picker(app);
    return changed;
}

}  // namespace kvcalc::ui
