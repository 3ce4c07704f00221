// Hardware panel: a catalog GPU or a custom VRAM figure (GB vs GiB said out loud), GPU count, tensor parallel.
#include <algorithm>
#include <cstdio>

#include "kvcalc/gpu_catalog.h"
#include "kvcalc/layer_cache.h"
#include "kvcalc/units.h"
#include "model_lookup.h"
#include "panels.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

std::string gpu_label(const GpuSpec& g) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s · %.0f GiB", short_gpu_name(g).c_str(), bytes_to_gib(g.vram_bytes));
    return buf;
}

bool gpu_picker(Scenario& s) {
    bool changed = false;
    const GpuSpec* gpu = s.gpu.empty() ? nullptr : find_gpu(s.gpu);
    const std::string preview = gpu ? gpu_label(*gpu) : std::string("Custom VRAM");
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::BeginCombo("##gpu", preview.c_str(), ImGuiComboFlags_HeightLarge)) {
        if (ImGui::Selectable("Custom VRAM", gpu == nullptr) && gpu) {
            s.vram_gib = bytes_to_gib(gpu->vram_bytes);
            s.vram_gb.reset();
            s.gpu.clear();
            changed = true;
        }
        for (const GpuSpec& g : gpu_catalog()) {
            if (ImGui::Selectable(gpu_label(g).c_str(), gpu == &g) && gpu != &g) {
                s.gpu = g.id;
                s.vram_gb.reset();
                s.vram_gib.reset();
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    if (gpu) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%s B per card (nvidia-smi %lld MiB)%s%s", format_count(gpu->vram_bytes).c_str(),
                            static_cast<long long>(gpu->vram_bytes >> 20), gpu->sm_x10 ? ", sm_" : "",
                            gpu->sm_x10 ? std::to_string(gpu->sm_x10).c_str() : "");
        ImGui::PopTextWrapPos();
        return changed;
    }
    // Custom VRAM: one number, and the user says which unit it is in.
    bool in_gib = !s.vram_gb.has_value();
    double value = s.vram_gb ? *s.vram_gb : s.vram_gib ? *s.vram_gib : 24.0;
    if (!s.vram_gb && !s.vram_gib) in_gib = false;  // the default is 24 GB decimal (seed CLI)
    ImGui::TextUnformatted("VRAM per card");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    const double step = 1.0;
    if (ImGui::InputScalar("##vram", ImGuiDataType_Double, &value, &step, &step, "%.1f")) changed = true;
    value = std::clamp(value, 1.0, 1024.0);
    ImGui::SameLine();
    if (ImGui::RadioButton("GiB", in_gib) && !in_gib) { in_gib = true; changed = true; }
    ImGui::SameLine();
    if (ImGui::RadioButton("GB", !in_gib) && in_gib) { in_gib = false; changed = true; }
    help_marker("GiB = 2^30 bytes (what nvidia-smi's MiB / 1024 shows; a \"24 GB\" card has 24 GiB). "
                "GB = 10^9 bytes (the seed CLI's --vram).");
    if (changed) {
        if (in_gib) { s.vram_gib = value; s.vram_gb.reset(); }
        else { s.vram_gb = value; s.vram_gib.reset(); }
    }
    return changed;
}

bool parallel_picker(Scenario& s, const ModelSpec* model, UiState& ui) {
    bool changed = false;
    const std::vector<int> valid = model ? valid_tensor_parallel_sizes(*model) : std::vector<int>{1};
    ImGui::TextUnformatted("tensor_parallel_size");
    help_marker("vLLM splits attention heads over the cards: only values that divide the heads are offered.");
    for (int tp : valid) {
        ImGui::SameLine();
        char label[8];
        std::snprintf(label, sizeof label, "%d##tp", tp);
        if (ImGui::RadioButton(label, s.tensor_parallel_size == tp) && s.tensor_parallel_size != tp) {
            s.tensor_parallel_size = tp;
            if (s.gpus != 0 && s.gpus < tp) s.gpus = 0;
            changed = true;
        }
        record_hitbox(ui, ("tp_" + std::to_string(tp)).c_str());
    }
    if (model) {
        std::string invalid;
        std::string why;
        for (int tp = 1; tp <= kMaxTensorParallel; ++tp) {
            if (std::find(valid.begin(), valid.end(), tp) != valid.end()) continue;
            invalid += (invalid.empty() ? "" : ", ") + std::to_string(tp);
            if (why.empty()) {
                const Diagnostics d = check_tensor_parallel(*model, tp);
                if (!d.empty()) why = d.front().message;
            }
        }
        if (!invalid.empty()) {
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextDisabled("Not offered: %s. %s", invalid.c_str(), why.c_str());
            ImGui::PopTextWrapPos();
        }
    }
    int box = s.gpus == 0 ? s.tensor_parallel_size : s.gpus;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (stepper("GPUs in the box", &box, 1, s.tensor_parallel_size, kMaxTensorParallel)) {
        s.gpus = box == s.tensor_parallel_size ? 0 : box;
        changed = true;
    }
    help_marker("Physical cards. kvcalc prices the tensor_parallel_size cards the model runs on; extra cards sit idle.");
    return changed;
}

/// Serving engine whose allocation rules apply (Scenario::engine): vLLM prices every term; llama.cpp and
/// SGLang are priced for weights and KV cache only (engine_rules.h).
bool engine_picker(Scenario& s) {
    static constexpr const char* kEngines[] = {"vllm", "llama.cpp", "sglang"};
    bool changed = false;
    ImGui::TextUnformatted("engine");
    for (const char* e : kEngines) {
        ImGui::SameLine();
        if (ImGui::RadioButton(e, s.engine == e) && s.engine != e) {
            s.engine = e;
            changed = true;
        }
    }
    help_marker("vllm: the whole per-card budget. llama.cpp and sglang: weights and KV cache sized by that engine's "
                "rules; their activation and runtime buffers are not modelled (the notes say so).");
    return changed;
}

}  // namespace

bool panel_hardware(App& app) {
    bool changed = gpu_picker(app.scenario);
    changed |= parallel_picker(app.scenario, current_model(app.scenario), app.ui);
    changed |= engine_picker(app.scenario);
    return changed;
}

}  // namespace kvcalc::ui
