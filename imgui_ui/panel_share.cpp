// Share: copy the link, a Markdown table, the vllm serve command or an embed snippet to the clipboard. A link that
// would not reproduce the screen is not offered: the buttons are disabled and say why.
#include "panels.h"
#include "platform.h"
#include "share_link.h"
#include "text_export.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

void copy_button(App& app, const char* label, const char* hitbox, const std::string& text, const char* done,
                 bool enabled = true) {
    if (!enabled) ImGui::BeginDisabled();
    if (ImGui::Button(label)) app.ui.copied_note = copy_text(text) ? done : "No clipboard here: " + text;
    if (!enabled) ImGui::EndDisabled();
    record_hitbox(app.ui, hitbox);
}

}  // namespace

void panel_share(App& app) {
    const std::string blocker = share_blocker(app);
    const std::string fragment = share_fragment(app);
    const std::string query = current_query(app) + (fragment.empty() ? "" : "#" + fragment);
    const std::string folder = page_folder(page_url());
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    copy_button(app, "Copy link", "copy_link", folder + "?" + query, "Link copied.", blocker.empty());
    ImGui::SameLine(0, spacing);
    copy_button(app, "Copy Markdown table", "copy_markdown", markdown_table(app), "Markdown table copied.");
    copy_button(app, "Copy serve command", "copy_vllm", serve_command_text(app), "Serve command copied.");
    ImGui::SameLine(0, spacing);
    copy_button(app, "Copy embed snippet", "copy_embed", embed_snippet(folder, query), "Embed snippet copied.",
                blocker.empty());
    if (!blocker.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(verdict_color(Verdict::tight, app.ui.dark_theme)));
        bullet_wrapped("Copy link and the embed snippet are off: " + blocker);
        ImGui::PopStyleColor();
    } else if (!fragment.empty()) {
        ImGui::TextDisabled("The link carries the pasted config.json (after #cfg=).");
    }
    if (!app.ui.copied_note.empty()) ImGui::TextWrapped("%s", app.ui.copied_note.c_str());
    if (ImGui::TreeNode("Serve command")) {
        ImGui::TextUnformatted(serve_command_text(app).c_str());
        ImGui::TreePop();
    }
}

}  // namespace kvcalc::ui
