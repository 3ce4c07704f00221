// GPU shopping: every catalog GPU × 1/2/4/8 cards at the current model and settings, sortable.
#include <algorithm>
#include <numeric>

#include "kvcalc/gpu_catalog.h"
#include "kvcalc/units.h"
#include "panels.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

int verdict_rank(const ShopRow& r) { return r.valid ? 3 - static_cast<int>(r.verdict) : 0; }  // pass 3 … invalid 0

bool less(const ShopRow& a, const ShopRow& b, ShopSort key) {
    const GpuSpec& ga = gpu_catalog()[static_cast<std::size_t>(a.gpu_index)];
    const GpuSpec& gb = gpu_catalog()[static_cast<std::size_t>(b.gpu_index)];
    switch (key) {
        case ShopSort::gpu: return short_gpu_name(ga) < short_gpu_name(gb);
        case ShopSort::vram: return ga.vram_bytes * a.cards < gb.vram_bytes * b.cards;
        case ShopSort::cards: return a.cards < b.cards;
        case ShopSort::verdict: return verdict_rank(a) < verdict_rank(b);
        case ShopSort::max_context: break;
    }
    return a.max_model_len < b.max_model_len;
}

void read_sort_specs(UiState& ui) {
    ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
    if (!specs || !specs->SpecsDirty || specs->SpecsCount == 0) return;
    ui.shop_sort = static_cast<ShopSort>(specs->Specs[0].ColumnUserID);
    ui.shop_sort_descending = specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
    specs->SpecsDirty = false;
}

}  // namespace

bool panel_shopping(App& app) {
    const std::vector<ShopRow>& rows = app.derived.shop;
    if (rows.empty()) {
        ImGui::TextDisabled("Pick a model first.");
        return false;
    }
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("At max_model_len %s, max_num_seqs %lld, kv_cache_dtype %s. \"Largest context\" is the longest "
                        "max_model_len that boots. Tap a GPU name to use it.",
                        format_count(app.scenario.max_model_len).c_str(), static_cast<long long>(app.scenario.max_num_seqs),
                        app.scenario.kv_cache_dtype.c_str());
    ImGui::PopTextWrapPos();
    const float em = ImGui::GetFontSize();
    const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    bool changed = false;
    if (!ImGui::BeginTable("##shop", 5, flags, ImVec2(0, em * 20.0f))) return false;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("GPU", ImGuiTableColumnFlags_WidthStretch, 3.0f, static_cast<ImGuiID>(ShopSort::gpu));
    ImGui::TableSetupColumn("×", ImGuiTableColumnFlags_WidthStretch, 0.6f, static_cast<ImGuiID>(ShopSort::cards));
    ImGui::TableSetupColumn("GiB", ImGuiTableColumnFlags_WidthStretch | ImGuiTableColumnFlags_PreferSortDescending, 1.0f,
                            static_cast<ImGuiID>(ShopSort::vram));
    ImGui::TableSetupColumn("Verdict", ImGuiTableColumnFlags_WidthStretch | ImGuiTableColumnFlags_PreferSortDescending,
                            1.2f, static_cast<ImGuiID>(ShopSort::verdict));
    ImGui::TableSetupColumn("Largest ctx",
                            ImGuiTableColumnFlags_WidthStretch | ImGuiTableColumnFlags_DefaultSort |
                                ImGuiTableColumnFlags_PreferSortDescending,
                            1.6f, static_cast<ImGuiID>(ShopSort::max_context));
    ImGui::TableHeadersRow();
    read_sort_specs(app.ui);
    std::vector<int> order(rows.size());
    std::iota(order.begin(), order.end(), 0);
    const ShopSort key = app.ui.shop_sort;
    const bool desc = app.ui.shop_sort_descending;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const ShopRow& ra = rows[static_cast<std::size_t>(a)];
        const ShopRow& rb = rows[static_cast<std::size_t>(b)];
        if (less(ra, rb, key) || less(rb, ra, key)) return desc ? less(rb, ra, key) : less(ra, rb, key);
        return less(ra, rb, ShopSort::vram);  // ties: the least total VRAM first, the cheaper buy
    });
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(order.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const ShopRow& r = rows[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
            const GpuSpec& g = gpu_catalog()[static_cast<std::size_t>(r.gpu_index)];
            ImGui::PushID(i);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (ImGui::Selectable(short_gpu_name(g).c_str(), false, ImGuiSelectableFlags_None) && r.valid) {
                app.scenario.gpu = g.id;
                app.scenario.vram_gb.reset();
                app.scenario.vram_gib.reset();
                app.scenario.tensor_parallel_size = r.cards;
                app.scenario.gpus = 0;
                changed = true;
            }
            ImGui::TableNextColumn();
            ImGui::Text("%d", r.cards);
            ImGui::TableNextColumn();
            ImGui::Text("%.0f", bytes_to_gib(g.vram_bytes * r.cards));
            ImGui::TableNextColumn();
            if (r.valid)
                ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(verdict_color(r.verdict, app.ui.dark_theme)), "%s",
                                   verdict_name(r.verdict));
            else
                ImGui::TextDisabled("n/a");
            if (!r.note.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.note.c_str());
            ImGui::TableNextColumn();
            if (r.valid && r.max_model_len > 0) ImGui::TextUnformatted(format_count(r.max_model_len).c_str());
            else ImGui::TextDisabled("—");
            ImGui::PopID();
        }
    }
    ImGui::EndTable();
    return changed;
}

}  // namespace kvcalc::ui
