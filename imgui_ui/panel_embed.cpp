// embed=1: the result alone, compact, for an iframe in documentation; a link opens the full calculator.
#include <algorithm>

#include "panels.h"
#include "platform.h"
#include "share_link.h"
#include "text_export.h"
#include "widgets.h"

namespace kvcalc::ui {

void panel_embed(App& app) {
    // Verdict, bar and "Open in kvcalc" first, so a frame that is shorter than the view (a host page without the
    // height script of docs/EMBEDDING.md) still shows them; the settings line, which wraps the most on a phone, last.
    const Report& r = app.report;
    ImGui::BeginGroup();
    if (r.ok) result_banner(app);
    else panel_result(app);
    ImGui::EndGroup();
    record_hitbox(app.ui, "embed_verdict");
    if (r.ok) {
        ImGui::BeginGroup();
        result_bar(app);
        ImGui::EndGroup();
        record_hitbox(app.ui, "embed_bar");
    }
    const std::string fragment = share_fragment(app);
    if (tap_button(app.ui, "Open in kvcalc ↗"))
        open_url(page_folder(page_url()) + "?" + current_query(app) + (fragment.empty() ? "" : "#" + fragment));
    record_hitbox(app.ui, "open_full");
    if (r.ok)
        text_dim(std::string(r.settings.display_name) + " · " + std::to_string(r.settings.tensor_parallel_size) + " × " +
                 gpu_name(r.settings) + " · max_model_len " + format_count(r.settings.max_model_len) +
                 " · max_num_seqs " + std::to_string(r.settings.max_num_seqs) + " · KV " +
                 std::string(r.settings.kv_cache_dtype));
    // The height the view needs, for a host page that sizes the iframe to it (postMessage, docs/EMBEDDING.md).
    const ImGuiStyle& style = ImGui::GetStyle();
    report_content_height(ImGui::GetCursorPosY() - ImGui::GetScrollY() - style.ItemSpacing.y + style.WindowPadding.y);
}

void panel_url_warnings(App& app) {
    if (app.url_warnings.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(verdict_color(Verdict::tight, app.ui.dark_theme)));
    ImGui::TextWrapped("This link had problems; those settings use their defaults:");
    // A long broken link (a pasted 30 KB query) makes hundreds; the first few say what is wrong, a count the rest,
    // so the controls stay on the first screen.
    const std::size_t shown = std::min(app.url_warnings.size(), kUrlWarningsShown);
    for (std::size_t i = 0; i < shown; ++i) bullet_wrapped(app.url_warnings[i].message);
    if (app.url_warnings.size() > shown)
        bullet_wrapped("… and " + std::to_string(app.url_warnings.size() - shown) + " more problems in this link.");
    app.ui.drawn_text["url_warnings_shown"] = std::to_string(shown);
    ImGui::PopStyleColor();
    if (tap_button(app.ui, "Dismiss")) {
        app.url_warnings.clear();
        app.url_dirty = true;
    }
    ImGui::Separator();
}

}  // namespace kvcalc::ui
