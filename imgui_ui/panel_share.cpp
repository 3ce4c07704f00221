// Share: copy the link, a Markdown table, the vllm serve command or an embed snippet to the clipboard.
#include "kvcalc/url_codec.h"
#include "panels.h"
#include "platform.h"
#include "text_export.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

void copy_button(App& app, const char* label, const char* hitbox, const std::string& text, const char* done) {
    if (ImGui::Button(label)) app.ui.copied_note = copy_text(text) ? done : "No clipboard here: " + text;
    record_hitbox(app.ui, hitbox);
}

}  // namespace

void panel_share(App& app) {
    const std::string query = current_query(app);
    const std::string folder = page_folder(page_url());
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    copy_button(app, "Copy link", "copy_link", folder + "?" + query, "Link copied.");
    ImGui::SameLine(0, spacing);
    copy_button(app, "Copy Markdown table", "copy_markdown", markdown_table(app), "Markdown table copied.");
    copy_button(app, "Copy vllm serve command", "copy_vllm", vllm_serve_command(app), "vllm serve command copied.");
    ImGui::SameLine(0, spacing);
    copy_button(app, "Copy embed snippet", "copy_embed", embed_snippet(folder, query), "Embed snippet copied.");
    if (!app.ui.copied_note.empty()) ImGui::TextWrapped("%s", app.ui.copied_note.c_str());
    for (const Diagnostic& d : url_unrepresentable(app.scenario)) bullet_wrapped(d.message);
    if (ImGui::TreeNode("vllm serve command")) {
        ImGui::TextUnformatted(vllm_serve_command(app).c_str());
        ImGui::TreePop();
    }
}

}  // namespace kvcalc::ui
