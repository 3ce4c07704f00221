// Serving panel: compose presets and the vLLM settings, each under its vLLM name.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "kvcalc/catalog.h"
#include "kvcalc/gpu_catalog.h"
#include "kvcalc/kv_format.h"
#include "kvcalc/vllm_accounting.h"
#include "model_lookup.h"
#include "panels.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

constexpr std::int64_t kMinModelLen = 256;
constexpr std::int64_t kFallbackMaxModelLen = 1 << 20;

bool preset_picker(Scenario& s) {
    const std::string model_id = s.model ? std::string() : s.model_id;
    bool any = false;
    for (const ComposePreset& p : compose_presets()) any |= p.model_id == model_id;
    if (!any) return false;
    bool changed = false;
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5);
    if (ImGui::BeginCombo("preset", s.compose.empty() ? "(none)" : s.compose.c_str())) {
        for (const ComposePreset& p : compose_presets()) {
            if (p.model_id != model_id) continue;
            if (ImGui::Selectable(p.name.c_str(), p.id == s.compose)) {
                Scenario next = p.scenario;  // the preset sets serving fields; the hardware stays the user's
                next.gpu = s.gpu;
                next.vram_gb = s.vram_gb;
                next.vram_gib = s.vram_gib;
                next.compose = p.id;
                s = next;
                changed = true;
            }
            if (ImGui::IsItemHovered() && !p.source.empty()) ImGui::SetTooltip("%s", p.source.c_str());
        }
        ImGui::EndCombo();
    }
    help_marker("Compose presets: the serving settings of known working deployments (seed 003 / reference registry).");
    return changed;
}

bool kv_dtype_picker(Scenario& s) {
    bool changed = false;
    const GpuSpec* gpu = s.gpu.empty() ? nullptr : find_gpu(s.gpu);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
    if (ImGui::BeginCombo("kv_cache_dtype", s.kv_cache_dtype.c_str())) {
        for (const KvFormat& f : kv_formats()) {
            char label[96];
            std::snprintf(label, sizeof label, "%s  (%s B/element)", f.name, f.bpe_exact);
            if (ImGui::Selectable(label, s.kv_cache_dtype == f.name)) {
                s.kv_cache_dtype = f.name;
                changed = true;
            }
            if (ImGui::IsItemHovered() && f.hardware_note[0]) ImGui::SetTooltip("%s", f.hardware_note);
        }
        ImGui::EndCombo();
    }
    if (const KvFormat* f = find_kv_format(s.kv_cache_dtype)) {
        const bool too_old = gpu && gpu->sm_x10 && f->min_sm_x10 && gpu->sm_x10 < f->min_sm_x10;
        const bool too_new = gpu && gpu->sm_x10 && f->max_sm_x10 && gpu->sm_x10 > f->max_sm_x10;
        ImGui::PushTextWrapPos(0.0f);
        if (too_old || too_new)
            ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.0f, 1.0f), "%s does not run on sm_%d (%s). %s", f->name,
                               gpu->sm_x10, gpu->display_name.c_str(), f->hardware_note);
        else if (f->hardware_note[0])
            ImGui::TextDisabled("%s", f->hardware_note);
        ImGui::PopTextWrapPos();
    }
    return changed;
}

bool drafter_picker(Scenario& s, const ModelSpec* model) {
    if (!model || model->drafters.empty()) return false;
    bool changed = false;
    const bool mtp_on = s.mtp.value_or(false);
    std::string current = s.drafter;
    if (current.empty() && mtp_on)
        for (const Drafter& d : model->drafters)
            if (d.method == "mtp") current = d.id;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    if (ImGui::BeginCombo("speculative decoding", current.empty() ? "off" : current.c_str())) {
        if (ImGui::Selectable("off", current.empty())) {
            s.drafter.clear();
            s.mtp = false;
            s.num_speculative_tokens.reset();
            changed = true;
        }
        for (const Drafter& d : model->drafters) {
            char label[160];
            std::snprintf(label, sizeof label, "%s (%s, %.2f GB)", d.id.c_str(), d.method.c_str(), d.weights_gb);
            if (ImGui::Selectable(label, d.id == current)) {
                s.drafter = d.id;
                s.num_speculative_tokens.reset();
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    help_marker("MTP / drafter: adds the drafter's weights and, for built-in MTP, extra KV positions per sequence.");
    if (!current.empty()) {
        int n = s.num_speculative_tokens.value_or(0);
        for (const Drafter& d : model->drafters)
            if (d.id == current && !s.num_speculative_tokens) n = d.num_speculative_tokens;
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
        if (stepper("num_speculative_tokens", &n, 1, 1, 16)) {
            s.num_speculative_tokens = n;
            changed = true;
        }
    }
    return changed;
}

}  // namespace

bool panel_serving(App& app) {
    Scenario& s = app.scenario;
    const ModelSpec* model = current_model(s);
    const float em = ImGui::GetFontSize();
    const bool preset_changed = preset_picker(s);
    bool changed = false;

    const std::int64_t max_len =
        model && model->max_position_embeddings > 0 ? model->max_position_embeddings : kFallbackMaxModelLen;
    ImGui::TextUnformatted("max_model_len");
    help_marker("Longest request (prompt + output) in tokens. The slider is logarithmic; the box below is exact.");
    ImGui::PushItemWidth(-em * 0.5f);
    changed |= tokens_slider("##max_model_len", &s.max_model_len, std::min(kMinModelLen, max_len), max_len, &app.ui);
    ImGui::PopItemWidth();
    record_hitbox(app.ui, "max_model_len");

    ImGui::SetNextItemWidth(em * 9);
    changed |= stepper("max_num_seqs", &s.max_num_seqs, 1, 1, 65536, &app.ui);
    record_hitbox(app.ui, "max_num_seqs");
    help_marker("Sequences served at once; each needs its own growing KV and recurrent state.");

    changed |= kv_dtype_picker(s);

    float util = static_cast<float>(s.gpu_memory_utilization);
    ImGui::SetNextItemWidth(app.ui.narrow_layout ? em * 7 : em * 10);
    if (ImGui::SliderFloat("gpu_memory_utilization", &util, 0.50f, 0.99f, "%.2f", ImGuiSliderFlags_AlwaysClamp)) {
        s.gpu_memory_utilization = std::round(util * 100.0f) / 100.0;
        changed = true;
    }
    help_marker("Share of each card's VRAM vLLM may use: the budget line.");

    bool batched = s.max_num_batched_tokens.has_value();
    if (ImGui::Checkbox("max_num_batched_tokens", &batched)) {
        s.max_num_batched_tokens = batched ? std::optional<std::int64_t>(8192) : std::nullopt;
        changed = true;
    }
    help_marker("Chunked-prefill batch. Unset = vLLM's default; only hybrid (Gated DeltaNet) models price its scratch.");
    if (s.max_num_batched_tokens) {
        ImGui::SetNextItemWidth(em * 10);
        changed |= stepper("tokens##batched", &*s.max_num_batched_tokens, 1024, 256, 1 << 20);
    }
    if (s.engine.empty() || s.engine == "vllm") {  // whose start-up accounting prices uncalibrated models
        const std::string shown = s.vllm_version.empty() ? std::string("newest (") + vllm_eras().back().id + ")"
                                                         : s.vllm_version;
        ImGui::SetNextItemWidth(em * 10);
        if (ImGui::BeginCombo("vLLM version", shown.c_str())) {
            if (ImGui::Selectable("newest", s.vllm_version.empty())) {
                s.vllm_version.clear();
                changed = true;
            }
            for (const VllmEraRules& e : vllm_eras())
                if (ImGui::Selectable(e.id, s.vllm_version == e.id)) {
                    s.vllm_version = e.id;
                    changed = true;
                }
            ImGui::EndCombo();
        }
        help_marker("Release whose start-up accounting (sampler, CUDA graphs, defaults) prices models without a "
                    "calibrated fit.");
    }
    changed |= drafter_picker(s, model);
    if (changed) s.compose.clear();  // a hand edit means the settings are no longer exactly the preset
    return changed || preset_changed;
}

}  // namespace kvcalc::ui
