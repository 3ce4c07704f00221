// The vLLM flags that change start-up memory, under their vLLM names, in one fold of the Serving panel. What each
// does to the budget is the core's (docs/ENGINE_RULES.md "Flags that change memory"); this only edits the scenario.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "keyboard_nav.h"
#include "panels.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

// vllm/config/cache.py BlockSize; 0 = vLLM's default.
constexpr int kBlockSizes[] = {0, 1, 8, 16, 32, 64, 128, 256};
constexpr std::int64_t kGib = std::int64_t{1} << 30;

}  // namespace

bool vllm_memory_flags(App& app) {
    Scenario& s = app.scenario;
    const float em = ImGui::GetFontSize();
    bool changed = false;
    if (!ImGui::TreeNode("vLLM memory flags")) return false;
    record_hitbox(app.ui, "vllm_memory_flags");

    changed |= ImGui::Checkbox("--enforce-eager", &s.enforce_eager);
    record_hitbox(app.ui, "enforce_eager");
    help_marker(app.ui, "No CUDA graphs: their memory is 0. From vLLM 0.21 the pool grows by their estimate.");

    const std::string shown = s.block_size == 0 ? std::string("default (16)") : std::to_string(s.block_size);
    ImGui::SetNextItemWidth(em * 8);
    describe_next_item("--block-size", shown);
    if (ImGui::BeginCombo("--block-size", shown.c_str())) {
        for (int b : kBlockSizes)
            if (ImGui::Selectable(b == 0 ? "default (16)" : std::to_string(b).c_str(), s.block_size == b)) {
                s.block_size = b;
                changed = true;
            }
        ImGui::EndCombo();
    }
    record_hitbox(app.ui, "block_size");

    bool fixed_pool = s.kv_cache_memory_bytes.has_value();
    if (ImGui::Checkbox("--kv-cache-memory-bytes", &fixed_pool)) {
        // Starts at the pool kvcalc predicts now, in whole GiB, so turning it on changes as little as possible.
        const std::int64_t now = app.report.ok ? app.report.terms.available_for_kv_bytes / kGib * kGib : 0;
        s.kv_cache_memory_bytes = fixed_pool ? std::optional<std::int64_t>(now > 0 ? now : kGib) : std::nullopt;
        changed = true;
    }
    record_hitbox(app.ui, "kv_cache_memory_bytes_on");
    help_marker(app.ui, "A KV pool of exactly this many bytes per card: vLLM skips its memory profile and "
                        "gpu_memory_utilization; the whole card must hold it.");
    if (s.kv_cache_memory_bytes) {
        ImGui::SetNextItemWidth(em * 12);
        changed |= int_field(app.ui, "bytes##kvpool", field_row("kv_cache_memory_bytes"), &*s.kv_cache_memory_bytes,
                             "kv_cache_memory_bytes");
        clamp_note(app.ui, "kv_cache_memory_bytes");
    }

    std::int64_t dp = s.data_parallel_size;
    ImGui::SetNextItemWidth(em * 8);
    const std::int64_t most = std::max<std::int64_t>(1, 8 / std::max(s.tensor_parallel_size, 1));
    if (stepper(app.ui, "--data-parallel-size", field_row("data_parallel_size"), &dp, 1, 1, most)) {
        s.data_parallel_size = static_cast<int>(dp);
        changed = true;
    }
    help_marker(app.ui, "Engine replicas of tensor_parallel_size cards each. MoE layers split over all of them.");

    changed |= ImGui::Checkbox("--enable-expert-parallel", &s.enable_expert_parallel);
    record_hitbox(app.ui, "enable_expert_parallel");
    help_marker(app.ui, "Whole experts per card instead of a slice of each: the same weights per card.");

    double offload = s.cpu_offload_gib;
    ImGui::SetNextItemWidth(em * 8);
    if (decimal_field(app.ui, "--cpu-offload-gb (GiB)", field_row("cpu_offload_gib"), &offload, "%.4g",
                      "cpu_offload_gib")) {
        s.cpu_offload_gib = offload;
        changed = true;
    }
    clamp_note(app.ui, "cpu_offload_gib");
    ImGui::TreePop();
    return changed;
}

}  // namespace kvcalc::ui
