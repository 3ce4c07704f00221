// GPU shopping: what to buy for the current model and settings (catalog GPUs × 1/2/4/8 cards).
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/base/units.h"
#include "model_lookup.h"
#include "panels.h"
#include "shop_view.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

void read_sort_specs(UiState& ui) {
    ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
    if (!specs || !specs->SpecsDirty || specs->SpecsCount == 0) return;
    ui.shop_sort = static_cast<ShopSort>(specs->Specs[0].ColumnUserID);
    ui.shop_sort_descending = specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
    specs->SpecsDirty = false;
}

std::string row_text(const App& app, const ShopRow& r) {
    const GpuSpec& g = gpu_catalog()[static_cast<std::size_t>(r.gpu_index)];
    return std::to_string(r.cards) + "× " + short_gpu_name(g) + " (" + format_bytes(g.vram_bytes * r.cards, app.ui.unit) +
           " in all), largest context " + (r.max_model_len > 0 ? format_count(r.max_model_len) : "none");
}

/// A tap on a row or a headline: the scenario becomes that row's (its card, tensor_parallel_size = its card count),
/// so the verdict shown next is the row's own.
bool open_shop_row(App& app, const ShopRow& r) {
    if (!r.valid) return false;
    set_catalog_gpu(app.scenario, r.gpu_id);
    app.scenario.tensor_parallel_size = r.cards;
    app.scenario.gpus = 0;
    app.scenario.compose.clear();
    return true;
}

}  // namespace

bool panel_shopping(App& app) {
    if (app.derived.shop.empty()) {
        ImGui::TextDisabled("Pick a model first.");
        return false;
    }
    const std::vector<ShopRow> rows = shop_rows_in_order(app);
    bool changed = false;
    // The headlines come from the whole sweep (the core's shop_headlines), not from the one row per GPU below: a GPU
    // that passes at 2 cards may boot at 1. Each opens its row, as a tap on the table does.
    const ShopHeadlines head = shop_headlines(app.derived.shop);
    auto headline = [&](const char* hitbox, const std::string& what, const std::optional<ShopRow>& r) {
        if (!r) return;
        const std::string text = break_at_spaces(what + row_text(app, *r) + ".", ImGui::GetContentRegionAvail().x);
        if (ImGui::Selectable(text.c_str(), false)) changed |= open_shop_row(app, *r);
        record_hitbox(app.ui, hitbox);
        app.ui.drawn_text[hitbox] = text;
    };
    headline("shop_head_pass", "Least VRAM that passes: ", head.least_vram_pass);
    if (!head.least_vram_pass)
        text_wrapped("No catalog GPU passes at " +
                     (app.derived.shop_pinned_tp > 0 ? std::to_string(app.derived.shop_pinned_tp) + (app.derived.shop_pinned_tp == 1 ? " card" : " cards")
                                                     : std::string("up to 8 cards")) +
                     ": shorten max_model_len or lower max_num_seqs.");
    headline("shop_head_boots", "Least VRAM that boots (TIGHT): ", head.least_vram_boots);
    if (head.fewest_cards && app.derived.shop_pinned_tp == 0)
        headline("shop_head_fewest",
                 std::string(head.fewest_cards->verdict == Verdict::pass ? "Fewest cards that pass: "
                                                                         : "Fewest cards that boot: "),
                 head.fewest_cards);
    const ResolvedSettings& set = app.report.settings;  // as the verdict resolved them ("auto (bf16)", 256)
    if (app.report.ok)
        text_dim("At max_model_len " + format_count(set.max_model_len) + ", max_num_seqs " +
                 format_count(set.max_num_seqs) + ", kv_cache_dtype " + std::string(set.kv_cache_dtype) +
                 ". kvcalc has no prices: total VRAM stands in for cost. Tap a GPU to use it.");
    text_dim("\"Max context\" is the longest max_model_len that boots. PASS: the max_num_seqs you set all fit at full "
             "length (with max_num_seqs left to vLLM's default, a cap: one full-length request), with margin. TIGHT: "
             "boots, but fewer full-length sequences fit at once, or the demand is within the error band of the "
             "budget. FAIL: vLLM refuses to start, or the card has no kernel for the kv_cache_dtype. * = a limit of "
             "the card's generation (hover or tap the row).");
    if (ImGui::Checkbox("every card count", &app.ui.shop_all_counts)) {}
    record_hitbox(app.ui, "shop_all_counts");
    help_marker(app.ui, "Off: each GPU once, at the fewest cards that pass. On: every card count of each, sortable.");
    const std::string pin = "only tensor_parallel_size " + std::to_string(app.scenario.tensor_parallel_size);
    if (ImGui::Checkbox(pin.c_str(), &app.ui.shop_pin_tp)) {
        app.dirty = true;  // the sweep's card counts change
        changed = true;
    }
    record_hitbox(app.ui, "shop_pin_tp");
    help_marker(app.ui, "On: every GPU at the tensor_parallel_size set above only (kvcalc --shop --tp N). Off: each GPU "
                        "at 1, 2, 4 and 8 cards.");
    // No inner scrolling: the column (or the phone's page) scrolls through the rows, so a wheel or a swipe over the
    // table never gets stuck in it.
    const ImGuiTableFlags flags = (app.ui.shop_all_counts ? ImGuiTableFlags_Sortable : 0) | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("##shop", 4, flags)) return false;
    const std::string vram_header = std::string(unit_name(app.ui.unit)) + " total";
    // Width weights so every header fits in a third of a desktop or a phone's width; the GPU column says "2× …".
    ImGui::TableSetupColumn("GPUs", ImGuiTableColumnFlags_WidthStretch, 2.6f, static_cast<ImGuiID>(ShopSort::gpu));
    ImGui::TableSetupColumn(vram_header.c_str(), ImGuiTableColumnFlags_WidthStretch, 1.5f, static_cast<ImGuiID>(ShopSort::vram));
    ImGui::TableSetupColumn("Verdict", ImGuiTableColumnFlags_WidthStretch | ImGuiTableColumnFlags_DefaultSort, 1.3f,
                            static_cast<ImGuiID>(ShopSort::verdict));
    ImGui::TableSetupColumn("Max context", ImGuiTableColumnFlags_WidthStretch | ImGuiTableColumnFlags_PreferSortDescending,
                            1.7f, static_cast<ImGuiID>(ShopSort::max_context));
    ImGui::TableHeadersRow();
    if (app.ui.shop_all_counts) read_sort_specs(app.ui);
    // Every row is drawn (no list clipper): a long name wraps to a second line, and the clipper would price every row
    // at the first one's height. A few hundred rows at most, drawn only on frames after input.
    {
        for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
            const ShopRow& r = rows[static_cast<std::size_t>(i)];
            const GpuSpec& g = gpu_catalog()[static_cast<std::size_t>(r.gpu_index)];
            const bool possible = r.valid;  // a row whose KV dtype does not run on the card is a FAIL (core rule)
            const std::string caveat = possible ? shop_caveat(app, g) : std::string();
            ImGui::PushID(i);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            // The whole name, on two lines where the column is narrow ("1× RTX PRO 6000" / "Blackwell").
            const std::string name = break_at_spaces(
                std::to_string(r.cards) + "× " + short_gpu_name(g) + (caveat.empty() ? "" : " *"),
                ImGui::GetContentRegionAvail().x);
            if (ImGui::Selectable(name.c_str(), false, ImGuiSelectableFlags_None) && possible) changed |= open_shop_row(app, r);
            if (!caveat.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", caveat.c_str());
            else if (!r.runs && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.note.c_str());
            if (i == 0) record_hitbox(app.ui, "shop_first_row");
            app.ui.drawn_text["shop_gpu_" + std::to_string(i)] = name;
            ImGui::TableNextColumn();
            ImGui::Text("%.0f", in_unit(g.vram_bytes * r.cards, app.ui.unit));
            ImGui::TableNextColumn();
            if (possible)
                ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(verdict_color(r.verdict, app.ui.dark_theme)), "%s%s",
                                   verdict_name(r.verdict), r.runs ? "" : " *");
            else
                ImGui::TextDisabled("not possible");
            if (!r.note.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.note.c_str());
            ImGui::TableNextColumn();
            if (possible && r.max_model_len > 0) ImGui::TextUnformatted(short_tokens(r.max_model_len).c_str());
            else ImGui::TextDisabled("—");
            ImGui::PopID();
        }
    }
    ImGui::EndTable();
    return changed;
}

}  // namespace kvcalc::ui
