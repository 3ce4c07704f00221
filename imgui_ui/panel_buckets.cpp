// Cache buckets: identical layer caches merged, one row per kind, as the engine allocates them (its pages and
// blocks), with each row's share of the cache.
#include <algorithm>
#include <cmath>

#include "kvcalc/model/layer_kinds.h"
#include "panels.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

/// "193 × 128 KB pages of 16 tokens" or "1 × 1.6 MB state": what one request holds in one layer, as the engine
/// allocates it (the core's EngineBucket).
std::string pages_text(const EngineBucket& e, ByteUnit u) {
    if (e.page_bytes <= 0) return "—";
    std::string out = format_count(e.pages_per_request) + " × " + format_bytes(e.page_bytes, u);
    if (e.tokens_per_page > 1) out += " pages of " + format_count(e.tokens_per_page) + " tokens";
    else if (e.tokens_per_page == 1) out += " cells";
    else out += " state";
    return out;
}

}  // namespace

void panel_buckets(App& app) {
    const Report& r = app.report;
    if (!r.ok || r.buckets.empty()) {
        ImGui::TextDisabled("No cache layout for these settings.");
        return;
    }
    // Each bucket's share of the KV the verdict prices (the engine's pages and blocks): they add up to it.
    std::vector<std::int64_t> totals;
    std::int64_t largest = 1;
    for (const CacheBucket& b : r.buckets) {
        totals.push_back(b.kv_bytes_per_card);
        largest = std::max(largest, totals.back());
    }
    const ByteUnit u = app.ui.unit;
    ImGui::TextDisabled("Per card, at max_model_len %s × max_num_seqs %lld (kv_cache_dtype %s)",
                        format_count(r.settings.max_model_len).c_str(), static_cast<long long>(r.settings.max_num_seqs),
                        std::string(r.settings.kv_cache_dtype).c_str());
    const bool narrow = app.ui.narrow_layout;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("##buckets", narrow ? 4 : 6, flags)) return;
    ImGui::TableSetupColumn("Kind", ImGuiTableColumnFlags_WidthStretch, 2.2f);
    ImGui::TableSetupColumn("Layers", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("B/token", ImGuiTableColumnFlags_WidthStretch, 1.4f);
    if (!narrow) ImGui::TableSetupColumn("Pages", ImGuiTableColumnFlags_WidthStretch, 1.8f);
    ImGui::TableSetupColumn(u == ByteUnit::gib ? "Total GiB" : "Total GB", ImGuiTableColumnFlags_WidthStretch, 1.4f);
    if (!narrow) ImGui::TableSetupColumn("Share", ImGuiTableColumnFlags_WidthStretch, 1.6f);
    ImGui::TableHeadersRow();
    for (std::size_t i = 0; i < r.buckets.size(); ++i) {
        const CacheBucket& b = r.buckets[i];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(layer_kind_label(b.cache));
        ImGui::TableNextColumn();
        ImGui::Text("%d", b.layer_count);
        ImGui::TableNextColumn();
        ImGui::Text("%.1f", b.engine.bytes_per_token_per_card);
        if (!narrow) {
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(pages_text(b.engine, u).c_str());
        }
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", in_unit(totals[i], u));
        if (!narrow) {
            ImGui::TableNextColumn();
            small_bar(static_cast<float>(totals[i]) / static_cast<float>(largest), term_color(static_cast<int>(i) + 1));
        } else {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (b.engine.page_bytes) ImGui::TextDisabled("%s", pages_text(b.engine, u).c_str());
            ImGui::TableNextColumn();
            ImGui::TableNextColumn();
            ImGui::TableNextColumn();
            small_bar(static_cast<float>(totals[i]) / static_cast<float>(largest), term_color(static_cast<int>(i) + 1));
        }
    }
    ImGui::EndTable();
    const CacheBreakdown& c = r.breakdown;
    if (c.compressed_kv_bytes || c.indexer_bytes || c.draft_kv_bytes)
        ImGui::TextDisabled("Also: compressed KV %s, indexer %s, draft KV %s", format_bytes(c.compressed_kv_bytes, u).c_str(),
                            format_bytes(c.indexer_bytes, u).c_str(), format_bytes(c.draft_kv_bytes, u).c_str());
}

}  // namespace kvcalc::ui
