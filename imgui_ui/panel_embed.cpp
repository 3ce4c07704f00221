// embed=1: the result alone, compact, for an iframe in documentation; a link opens the full calculator.
#include "panels.h"
#include "platform.h"
#include "share_link.h"
#include "text_export.h"
#include "widgets.h"

namespace kvcalc::ui {

void panel_embed(App& app) {
    const Report& r = app.report;
    if (r.ok) {
        ImGui::TextWrapped("%s · %d × %s · max_model_len %s · max_num_seqs %lld · KV %s", std::string(r.settings.display_name).c_str(),
                           r.settings.tensor_parallel_size, gpu_name(r.settings).c_str(),
                           format_count(r.settings.max_model_len).c_str(), static_cast<long long>(r.settings.max_num_seqs),
                           std::string(r.settings.kv_cache_dtype).c_str());
        result_banner(app);
        result_bar(app);
    } else {
        panel_result(app);
    }
    const std::string fragment = share_fragment(app);
    if (ImGui::Button("Open in kvcalc ↗"))
        open_url(page_folder(page_url()) + "?" + current_query(app) + (fragment.empty() ? "" : "#" + fragment));
    record_hitbox(app.ui, "open_full");
}

void panel_url_warnings(App& app) {
    if (app.url_warnings.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(verdict_color(Verdict::tight, app.ui.dark_theme)));
    ImGui::TextWrapped("This link had problems; those settings use their defaults:");
    for (const Diagnostic& d : app.url_warnings) bullet_wrapped(d.message);
    ImGui::PopStyleColor();
    if (tap_button(app.ui, "Dismiss")) {
        app.url_warnings.clear();
        app.url_dirty = true;
    }
    ImGui::Separator();
}

}  // namespace kvcalc::ui
