// Cache buckets: identical layer caches merged, one row per kind, with each row's share of the cache.
#include <algorithm>
#include <cmath>

#include "panels.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

const char* kind_label(std::string_view kind) {
    if (kind == "full_attention") return "full attention";
    if (kind == "sliding_window") return "sliding window";
    if (kind == "chunked_local_attention") return "chunked local attention";
    if (kind == "mla_latent") return "MLA latent";
    if (kind == "recurrent_state") return "recurrent state";
    if (kind == "none") return "no cache";
    return kind.data();  // the core's kind names are static, NUL-terminated text
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
    if (!narrow) ImGui::TableSetupColumn("Fixed", ImGuiTableColumnFlags_WidthStretch, 1.4f);
    ImGui::TableSetupColumn(u == ByteUnit::gib ? "Total GiB" : "Total GB", ImGuiTableColumnFlags_WidthStretch, 1.4f);
    if (!narrow) ImGui::TableSetupColumn("Share", ImGuiTableColumnFlags_WidthStretch, 1.6f);
    ImGui::TableHeadersRow();
    for (std::size_t i = 0; i < r.buckets.size(); ++i) {
        const CacheBucket& b = r.buckets[i];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(kind_label(b.kind));
        ImGui::TableNextColumn();
        ImGui::Text("%d", b.layer_count);
        ImGui::TableNextColumn();
        ImGui::Text("%.1f", b.bytes_per_token_per_card);
        if (!narrow) {
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(b.fixed_bytes_per_card ? format_bytes(b.fixed_bytes_per_card, u).c_str() : "—");
        }
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", in_unit(totals[i], u));
        if (!narrow) {
            ImGui::TableNextColumn();
            small_bar(static_cast<float>(totals[i]) / static_cast<float>(largest), term_color(static_cast<int>(i) + 1));
        } else {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (b.fixed_bytes_per_card) ImGui::TextDisabled("fixed %s", format_bytes(b.fixed_bytes_per_card, u).c_str());
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
