// Serving panel: compose presets and the vLLM settings, each under its vLLM name.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include "keyboard_nav.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/engines/deployment.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/base/kv_format.h"
#include "kvcalc/engines/vllm/accounting.h"
#include "kvcalc/engines/vllm/defaults.h"
#include "model_lookup.h"
#include "panels.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

// The slider's span (people's contexts); the typed entry takes the whole range of the field table.
constexpr std::int64_t kSliderMinModelLen = 256;
constexpr std::int64_t kSliderMaxModelLen = 1 << 20;

/// What 0 / unset means for a field, from the field table ("vLLM's default for the card"), cut before the
/// engine remark in parentheses.
std::string zero_meaning(const ScenarioField& f) {
    std::string text = *f.zero_means ? f.zero_means : f.default_text;
    if (const auto paren = text.find(" ("); paren != std::string::npos) text.resize(paren);
    return text;
}

/// The field's meaning of 0 after the previous item, dimmed (on the next line when the line is full).
void default_note(UiState& ui, const ScenarioField& f, const char* hitbox) {
    const std::string text = zero_meaning(f);
    same_line_if_room(ImGui::CalcTextSize(text.c_str()).x);
    ImGui::TextDisabled("%s", text.c_str());
    record_hitbox(ui, hitbox);
}

bool preset_picker(UiState& ui, Scenario& s) {
    const std::string model_id = s.model ? std::string() : s.model_id;
    bool any = false;
    for (const ComposePreset& p : compose_presets()) any |= p.model_id == model_id;
    if (!any) return false;
    bool changed = false;
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5);
    describe_next_item("preset", s.compose.empty() ? "(none)" : s.compose);
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
    help_marker(ui, "Presets: the serving settings of deployments measured to boot.");
    return changed;
}

/// kv_cache_dtype: plain labels with the engine's own spelling and size; "auto" shows what it resolved to here.
bool kv_dtype_picker(UiState& ui, Scenario& s, const Report& report) {
    bool changed = false;
    const EngineInfo* engine = find_engine(s.engine);  // nullptr: a name no engine has, shown as kvcalc's names
    const std::string preview = is_auto_kv_cache_dtype(s.kv_cache_dtype) && report.ok
                                    ? std::string(report.settings.kv_cache_dtype)  // "auto (bf16)"
                                    : kv_format_label(s.kv_cache_dtype);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
    describe_next_item("kv_cache_dtype", preview);
    // On a phone the list is no wider than the screen and a long row wraps onto a second line: ImGui sizes a combo's
    // list to its widest row, and "turboquant ... · 0.4 B" rows ran off the right edge.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float list_w = ImGui::GetIO().DisplaySize.x - style.DisplaySafeAreaPadding.x * 2;
    if (ui.narrow_layout) ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(list_w, FLT_MAX));
    if (ImGui::BeginCombo("kv_cache_dtype", preview.c_str(), ImGuiComboFlags_HeightLarge)) {
        const ImVec2 row(0, ui.touch_layout ? std::max(44.0f, ImGui::GetFrameHeight()) : 0.0f);  // a fingertip
        const float label_w = ImGui::GetContentRegionAvail().x;
        if (ImGui::Selectable("auto (model dtype) · the default", is_auto_kv_cache_dtype(s.kv_cache_dtype), 0, row)) {
            s.kv_cache_dtype = std::string(kAutoKvCacheDtype);
            changed = true;
        }
        if (ImGui::IsItemVisible()) record_hitbox(ui, "kv_option_auto");
        for (const KvFormat& f : kv_formats()) {
            const EngineKvSpelling sp = engine ? engine_kv_spelling(engine->id, f.id) : EngineKvSpelling{f.name, f.name};
            const std::string spelled = sp.exact ? sp.k + (sp.v != sp.k ? "/" + sp.v : std::string())
                                                 : std::string("not in ") + engine->display_name;
            std::string label = kv_format_label(f.name) + " · " + spelled + " · " + f.bpe_exact + " B";
            if (ui.narrow_layout) label = break_at_spaces(label, label_w);
            if (ImGui::Selectable(label.c_str(), s.kv_cache_dtype == f.name, 0, row)) {
                s.kv_cache_dtype = f.name;
                changed = true;
            }
            if (ImGui::IsItemVisible()) record_hitbox(ui, (std::string("kv_option_") + f.name).c_str());
            if (ImGui::IsItemHovered() && !ui.touch_input && f.hardware_note[0])
                ImGui::SetTooltip("%s", f.hardware_note);
        }
        ImGui::EndCombo();
    }
    record_hitbox(ui, "kv_cache_dtype");
    help_marker(ui, "Element type of the KV cache, with the engine's own spelling. auto (every engine's default) keeps "
                    "it in the model's dtype: 2 bytes per element (bf16, or fp16 on cards older than sm_80).");
    return changed;
}

bool drafter_picker(UiState& ui, Scenario& s, const ModelSpec* model) {
    if (!model || model->drafters.empty()) return false;
    bool changed = false;
    const bool mtp_on = s.mtp.value_or(false);
    std::string current = s.drafter;
    if (current.empty() && mtp_on)
        for (const Drafter& d : model->drafters)
            if (d.method == "mtp") current = d.id;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    describe_next_item("speculative decoding", current.empty() ? "off" : current);
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
    help_marker(ui, "MTP / drafter: adds the drafter's weights and, for built-in MTP, extra KV positions per sequence.");
    if (!current.empty()) {
        std::int64_t n = s.num_speculative_tokens.value_or(0);
        for (const Drafter& d : model->drafters)
            if (d.id == current && !s.num_speculative_tokens) n = d.num_speculative_tokens;
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
        if (stepper(ui, "num_speculative_tokens", field_row("num_speculative_tokens"), &n, 1)) {
            s.num_speculative_tokens = static_cast<int>(n);
            changed = true;
        }
    }
    return changed;
}

/// Serving engine whose allocation rules apply (Scenario::engine): vLLM prices every term; llama.cpp and
/// SGLang are priced for weights and KV cache only (engine_rules.h).
bool engine_picker(UiState& ui, Scenario& s) {
    bool changed = false;
    const EngineInfo* current = find_engine(s.engine);
    ImGui::TextUnformatted("engine");
    for (const EngineInfo& e : engines()) {  // the core's engines table, one radio button per row
        // A radio is its circle, a gap and the name; on a phone the row wraps instead of running off the edge.
        same_line_if_room(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(e.name).x);
        if (ImGui::RadioButton(e.name, current == &e) && current != &e) {
            s.engine = e.name;  // 0 = "not given" holds for every engine (the core fills in the engine's default)
            changed = true;
        }
        record_hitbox(ui, (std::string("engine_") + e.name).c_str());
    }
    help_marker(ui, "vllm: the whole per-card budget. llama.cpp and sglang: weights and KV cache sized by that engine's "
                "rules; their activation and runtime buffers are not modelled (the notes say so).");
    return changed;
}

}  // namespace

bool panel_serving(App& app) {
    Scenario& s = app.scenario;
    const ModelSpec* model = current_model(s);
    const float em = ImGui::GetFontSize();
    const bool preset_changed = preset_picker(app.ui, s);
    bool changed = engine_picker(app.ui, s);

    // 0 = not given: the report says what vLLM picks for this card and release; an edit makes it explicit.
    // Until the first report exists the field shows 0, the table's "not given".
    const ResolvedSettings& resolved = app.report.settings;
    const ScenarioField& seqs_row = field_row("max_num_seqs");
    std::int64_t seqs = s.max_num_seqs != 0 || !app.report.ok ? s.max_num_seqs : resolved.max_num_seqs;
    ImGui::SetNextItemWidth(em * 9);
    if (stepper(app.ui, "max_num_seqs", seqs_row, &seqs, 1)) {
        s.max_num_seqs = seqs;
        changed = true;
    }
    record_hitbox(app.ui, "max_num_seqs");
    help_marker(app.ui, "Sequences served at once; each needs its own growing KV and recurrent state. vLLM's default "
                        "is 256 (1024 on cards of 70 GiB and more, except the A100). Type 0 for vLLM's default.");
    if (s.max_num_seqs == 0) default_note(app.ui, seqs_row, "max_num_seqs_default");

    changed |= kv_dtype_picker(app.ui, s, app.report);

    // gpu_memory_utilization: typed (exact, the table's (0, 1]; 0 = vLLM's default) or slid over the usual
    // span (touch-guarded, two decimals as vLLM users write it).
    const ScenarioField& util_row = field_row("gpu_memory_utilization");
    double util = s.gpu_memory_utilization != 0 || !app.report.ok ? s.gpu_memory_utilization
                                                                    : resolved.gpu_memory_utilization;
    ImGui::SetNextItemWidth(em * 5);
    if (decimal_field(app.ui, "##util", util_row, &util, "%.4g", "gpu_memory_utilization")) {
        s.gpu_memory_utilization = util;
        changed = true;
    }
    record_hitbox(app.ui, "gpu_memory_utilization");
    ImGui::SameLine();
    float slider = static_cast<float>(util);
    ImGui::SetNextItemWidth(app.ui.narrow_layout ? -em * 1.0f : em * 8);
    if (touch_slider(app.ui, "##util_slider", &slider, 0.50f, 0.99f, "%.2f")) {
        s.gpu_memory_utilization = std::round(slider * 100.0f) / 100.0;
        changed = true;
    }
    ImGui::TextUnformatted("gpu_memory_utilization");
    if (s.gpu_memory_utilization == 0) default_note(app.ui, util_row, "gpu_memory_utilization_default");
    help_marker(app.ui, "Share of each card's VRAM vLLM may use: the budget line. vLLM's default is 0.90 (0.92 from "
                        "v0.21).");
    clamp_note(app.ui, "gpu_memory_utilization");

    // vLLM's flags (max_num_batched_tokens, its release): the engine whose start-up accounting kvcalc prices.
    const EngineInfo* row = find_engine(s.engine);
    const bool vllm = row && row->accounts_non_kv;
    bool batched = s.max_num_batched_tokens.has_value();
    if (vllm && ImGui::Checkbox("max_num_batched_tokens", &batched)) {
        // Starts at what vLLM would use here: the core's default for this card, release and load.
        const std::int64_t start = app.report.ok && app.report.deployment
                                       ? vllm_max_num_batched_tokens(*app.report.deployment, app.report.load)
                                       : 0;
        s.max_num_batched_tokens = batched ? std::optional<std::int64_t>(start > 0 ? start : static_cast<std::int64_t>(field_row("max_num_batched_tokens").min))
                                           : std::nullopt;
        changed = true;
    }
    if (vllm) {
        record_hitbox(app.ui, "max_num_batched_tokens_on");
        help_marker(app.ui, "Chunked-prefill batch. Unset = vLLM's default for the card; only hybrid (Gated DeltaNet) "
                            "models price its scratch.");
    }
    if (vllm && s.max_num_batched_tokens) {
        ImGui::SetNextItemWidth(em * 10);
        changed |= stepper(app.ui, "tokens##batched", field_row("max_num_batched_tokens"), &*s.max_num_batched_tokens, 1024);
    }
    if (vllm) {  // whose start-up accounting prices uncalibrated models
        const std::string shown = s.vllm_version.empty() ? std::string("newest (") + vllm_eras().back().id + ")"
                                                         : s.vllm_version;
        ImGui::SetNextItemWidth(em * 10);
        describe_next_item("vLLM version", shown);
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
        help_marker(app.ui, "Release whose start-up accounting (sampler, CUDA graphs, defaults) prices models without a "
                    "calibrated fit.");
    }
    if (vllm) changed |= vllm_memory_flags(app);
    changed |= drafter_picker(app.ui, s, model);
    if (changed) s.compose.clear();  // a hand edit means the settings are no longer exactly the preset
    return changed || preset_changed;
}

bool panel_context(App& app) {
    Scenario& s = app.scenario;
    const ModelSpec* model = current_model(s);
    // The core's derived maximum for this engine (rope scaling included), not max_position_embeddings.
    const EngineContextLimit limit = model ? engine_context_limit(s, *model) : EngineContextLimit{};
    const std::int64_t model_max = s.allow_long_max_model_len ? 0 : limit.max_model_len;
    const std::int64_t hi = model_max > 0 ? model_max : kSliderMaxModelLen;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("max_model_len");
    help_marker(app.ui, "Longest request (prompt + output) in tokens. Tap a size, type the exact number, or step by "
                        "powers of two.");
    // 0 = not given (the model's maximum): shown as the length the report priced; an edit makes it explicit.
    std::int64_t len = s.max_model_len != 0 ? s.max_model_len : app.report.ok ? app.report.settings.max_model_len : hi;
    const bool changed =
        context_editor(app.ui, &len, std::min(kSliderMinModelLen, hi), hi, model_max,
                       model ? model->display_name : "", limit.source);
    if (changed) {
        s.max_model_len = len;
        s.compose.clear();
    }
    return changed;
}

}  // namespace kvcalc::ui
