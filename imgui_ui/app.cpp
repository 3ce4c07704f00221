#include "app.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "kvcalc/api.h"
#include "platform.h"

namespace kvcalc::ui {

bool recompute_if_dirty(App& app) {
    if (!app.dirty) return false;
    app.dirty = false;
    app.report_json = kvcalc::evaluate_json(app.request_json);
    const auto report = nlohmann::json::parse(app.report_json, nullptr, false);
    app.kv_growing_bytes_per_token =
        report.is_object() && report.contains("terms")
            ? static_cast<long long>(report["terms"].value("kv_bytes_per_token", 0.0))
            : 0LL;
    announce_result("Qwen 3.6 27B, fp8 KV cache: " + std::to_string(app.kv_growing_bytes_per_token) +
                    " bytes of growing KV per token");
    return true;
}

bool draw_app(App& app, float view_w, float view_h) {
    bool changed = false;
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(view_w, view_h));
    ImGui::Begin("kvcalc", nullptr,
                 ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                     ImGuiWindowFlags_NoBringToFrontOnFocus);
    ImGui::TextUnformatted("kvcalc: will it fit on my GPUs?");
    ImGui::Separator();
    ImGui::Text("Qwen 3.6 27B, kv_cache_dtype fp8: %lld B of growing KV per token", app.kv_growing_bytes_per_token);
    if (ImGui::Checkbox("Dark theme", &app.ui.dark_theme)) {
        if (app.ui.dark_theme) ImGui::StyleColorsDark(); else ImGui::StyleColorsLight();
        changed = true;
    }
    ImGui::End();
    return changed;
}

}  // namespace kvcalc::ui
