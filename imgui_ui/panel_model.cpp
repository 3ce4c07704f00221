// Model panel: catalog search, weights variant, config.json paste / Hugging Face id, facts with provenance.
#include <algorithm>
#include <string>

#include "keyboard_nav.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/deployment/weights_formats.h"
#include "kvcalc/model/layer_cache.h"
#include "kvcalc/model/layer_kinds.h"
#include "model_lookup.h"
#include "panels.h"
#include "platform.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

/// "40 full attention, 8 sliding window": the layers of each kind that keeps a cache (layer_kinds.h).
std::string kind_counts(const ModelSpec& m) {
    std::string out;
    for (const LayerKindCount& k : layer_kind_counts(m.layers))
        out += (out.empty() ? "" : ", ") + std::to_string(k.count) + " " + k.label;
    return out.empty() ? std::string("none keeps a cache") : out;
}

void model_facts(const ModelSpec& m) {
    ImGui::TextWrapped("%s  (%s)", m.display_name.c_str(), m.id.c_str());
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("family %s%s", m.family.c_str(), m.calibrated ? ", calibrated against measured boots" : "");
    ImGui::PopTextWrapPos();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::Text("num_hidden_layers %d · hidden_size %d · num_attention_heads %d", m.num_hidden_layers, m.hidden_size,
                m.num_attention_heads);
    ImGui::Text("layers: %s", kind_counts(m).c_str());
    ImGui::PopTextWrapPos();
    ImGui::Text("max_position_embeddings %s", format_count(m.max_position_embeddings).c_str());
    if (m.num_experts > 0) ImGui::Text("MoE: %d experts, %d per token", m.num_experts, m.num_experts_per_tok);
    if (ImGui::TreeNode("Where each fact comes from")) {
        if (!m.source.empty()) ImGui::TextWrapped("entry: %s", m.source.c_str());
        for (const Provenance& p : m.provenance) bullet_wrapped(p.fact + ": " + p.source);
        for (const WeightsVariant& w : m.weights) {
            char size[32];
            std::snprintf(size, sizeof size, "%.2f", w.size_gb);
            bullet_wrapped("weights " + w.id + " = " + size + " GB: " + w.source);
        }
        ImGui::TreePop();
    }
}

/// The search without its format word ("qwen3 32b 4-bit" → "qwen3 32b", "int4"; the core's weights_format_word).
void split_format_word(const std::string& query, std::string& words, std::string& format) {
    words.clear();
    format.clear();
    std::size_t i = 0;
    while (i < query.size()) {
        const std::size_t j = std::min(query.find(' ', i), query.size());
        const std::string w = query.substr(i, j - i);
        const std::string f = weights_format_word(w);
        if (!f.empty() && format.empty()) format = f;
        else if (!w.empty()) words += (words.empty() ? "" : " ") + w;
        i = j + 1;
    }
}

/// "int4 · 19.2 GB · Qwen/Qwen3-32B-AWQ": one row of the weights-format list, as the core describes it.
std::string format_label(const WeightsFormatOption& o) {
    if (!o.available) return o.format + " · not available";
    char gb[32];
    std::snprintf(gb, sizeof gb, "%.1f GB", o.size_gb);
    std::string head = o.format == "auto" ? "auto (" + o.priced_as + ")" : o.format;
    return head + " · " + gb + " · " + o.serves;
}

/// The weights-format control, for every model: the core's list (weights_format_options) of what each format
/// prices and what the command then serves. A pasted or fetched model is re-priced through its files.
bool weights_format_combo(App& app) {
    Scenario& s = app.scenario;
    const bool pasted = s.model && !app.ui.pasted_config.empty();
    if (s.model && !pasted) return false;
    const Scenario probe = pasted ? pasted_scenario(app) : s;
    const std::vector<WeightsFormatOption> options = weights_format_options(probe);
    if (options.empty()) return false;
    const std::string current = current_weights_format(probe);
    const WeightsFormatOption* shown = &options.front();
    for (const WeightsFormatOption& o : options)
        if (o.format == current) shown = &o;
    const float em = ImGui::GetFontSize();
    bool changed = false;
    ImGui::SetNextItemWidth(width_with_label_and_help(em * 14, "weights format"));
    const std::string preview = format_label(*shown);
    describe_next_item("weights format", preview);
    if (ImGui::BeginCombo("weights format", preview.c_str())) {
        for (std::size_t i = 0; i < options.size(); ++i) {
            const WeightsFormatOption& o = options[i];
            ImGui::PushID(static_cast<int>(i));
            if (!o.available) {
                ImGui::PushTextWrapPos(0.0f);
                ImGui::TextDisabled("%s: %s", o.format.c_str(), o.reason.c_str());
                ImGui::PopTextWrapPos();
            } else if (ImGui::Selectable(format_label(o).c_str(), &o == shown, 0,
                                         ImVec2(0, app.ui.touch_layout ? ImGui::GetFrameHeight() : 0))) {
                if (pasted) {
                    changed = set_pasted_weights_dtype(app, o.weights_dtype);
                } else {
                    apply_weights_format(s, o);
                    changed = true;
                }
            }
            record_hitbox(app.ui, ("weights_format_" + o.format).c_str());
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
    record_hitbox(app.ui, "weights_format");
    help_marker(app.ui, "The format the weights are priced in: auto is the checkpoint's own. Each row names what "
                        "the serve command then loads: a repo holding that format, the flag that makes it "
                        "(--quantization fp8), or a placeholder when kvcalc knows no such repo.");
    record_hitbox(app.ui, "weights_format_help");
    return changed;
}

}  // namespace

bool panel_model(App& app) {
    bool changed = false;
    Scenario& s = app.scenario;
    const float em = ImGui::GetFontSize();
    ImGui::SetNextItemWidth(-1);
    text_field(app.ui, "##search", "search models (name, id, family)", app.ui.model_search, sizeof app.ui.model_search,
               FieldKind::search);
    record_hitbox(app.ui, "model_search");
    ImGui::BeginChild("##models", ImVec2(0, em * (app.ui.touch_layout ? 9.0f : 7.5f)), true);
    int shown = 0;
    // A format word in the search ("qwen3 32b 4-bit") picks the model and that format in one tap.
    std::string words, format;
    split_format_word(app.ui.model_search, words, format);
    for (const ModelSpec& m : model_catalog()) {
        if (!search_matches(m.display_name + " " + m.id + " " + m.family, words)) continue;
        WeightsFormatOption pick;
        if (!format.empty()) {
            Scenario probe;
            probe.model_id = m.id;
            for (const WeightsFormatOption& o : weights_format_options(probe, format)) pick = o;
            if (!pick.available) continue;
        }
        ++shown;
        const bool selected = !s.model && m.id == s.model_id && (format.empty() || current_weights_format(s) == format);
        const std::string label = format.empty() ? m.display_name : m.display_name + " · " + format + " · " + pick.serves;
        if (ImGui::Selectable(label.c_str(), selected, 0,
                              ImVec2(0, app.ui.touch_layout ? ImGui::GetFrameHeight() : 0)) && !selected) {
            if (s.model || m.id != s.model_id) app.ui.model_note = switch_model(s, m, false);
            if (!format.empty()) apply_weights_format(s, pick);
            app.ui.model_note_settings = serving_settings_key(s);
            app.ui.pasted_config.clear();
            app.ui.pasted_index.clear();
            app.ui.pasted_headers.clear();
            app.ui.pasted_weights_dtype.clear();
            app.ui.clamp_notes.clear();
            changed = true;
        }
        record_hitbox(app.ui, ("model_" + m.id + (format.empty() ? "" : "_" + format)).c_str());
        if (selected && ImGui::IsWindowAppearing()) ImGui::SetScrollHereY();
    }
    if (shown == 0) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("No catalog model matches \"%s\". Paste its config.json or load its Hugging Face id "
                            "below.", app.ui.model_search);
        ImGui::PopTextWrapPos();
    }
    ImGui::EndChild();
    if (!app.ui.model_note.empty() && app.ui.model_note_settings != serving_settings_key(s)) app.ui.model_note.clear();
    if (!app.ui.model_note.empty()) {
        text_dim(app.ui.model_note);
    }

    const ModelSpec* model = current_model(s);
    changed |= weights_format_combo(app);
    if (model && !s.model && model->weights.size() > 1) {
        const std::string current = s.weights_variant.empty() ? model->weights.front().id : s.weights_variant;
        ImGui::SetNextItemWidth(width_with_label_and_help(em * 14, "weights variant"));
        describe_next_item("weights variant", current);
        if (ImGui::BeginCombo("weights variant", current.c_str())) {
            for (const WeightsVariant& w : model->weights) {
                char label[160];
                std::snprintf(label, sizeof label, "%s (%.1f GB)", w.id.c_str(), w.size_gb);
                if (ImGui::Selectable(label, w.id == current)) {
                    s.weights_variant = w.id;
                    s.weights_dtype.clear();
                    changed = true;
                }
            }
            ImGui::EndCombo();
        }
        record_hitbox(app.ui, "weights_variant");
        help_marker(app.ui, "Checkpoint quantization: sets the weights term (on-disk size in decimal GB, split over the "
                            "tensor-parallel cards).");
        record_hitbox(app.ui, "weights_variant_help");
    }

    if (ImGui::Button("Paste config.json…")) {
        if (!show_paste_overlay()) {  // desktop: take it from the clipboard
            const char* text = ImGui::GetClipboardText();
            app.ui.model_status = text && *text ? "" : "The clipboard is empty: copy a config.json first.";
            app.ui.model_status_is_error = !(text && *text);
            if (text && *text) changed |= apply_config_text(app, text, "clipboard");
        }
    }
    record_hitbox(app.ui, "paste_config");
    help_marker(app.ui, "Any model's config.json from Hugging Face: kvcalc reads the layer layout from it.");
    const float load_w = ImGui::CalcTextSize("Load").x + ImGui::GetStyle().FramePadding.x * 2;
    ImGui::SetNextItemWidth(std::max(em * 8, ImGui::GetContentRegionAvail().x - load_w - ImGui::GetStyle().ItemSpacing.x));
    text_field(app.ui, "##hf", "Hugging Face id, e.g. Qwen/Qwen3-8B[@rev]", app.ui.hf_id, sizeof app.ui.hf_id, FieldKind::url);
    record_hitbox(app.ui, "hf_id");
    ImGui::SameLine();
    if (ImGui::Button("Load")) {
        app.ui.model_status = "Reading " + std::string(app.ui.hf_id) + " from the Hub (config.json, index, shard "
                              "headers)…";
        app.ui.model_status_is_error = false;
        app.ui.hub_link_pending = false;
        if (!request_hf_model(app.ui.hf_id)) {
            app.ui.model_status = "This build cannot fetch from the Hub: use Paste config.json.";
            app.ui.model_status_is_error = true;
        }
    }
    record_hitbox(app.ui, "hf_load");
    if (!app.ui.model_status.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, app.ui.model_status_is_error
                                                 ? ImGui::ColorConvertU32ToFloat4(verdict_color(Verdict::fail, app.ui.dark_theme))
                                                 : ImGui::GetStyle().Colors[ImGuiCol_Text]);
        ImGui::TextWrapped("%s", app.ui.model_status.c_str());
        ImGui::PopStyleColor();
    }
    if (model) {
        if (!app.ui.narrow_layout || ImGui::TreeNode("Model facts")) {
            model_facts(*model);
            if (app.ui.narrow_layout) ImGui::TreePop();
        }
    } else {
        ImGui::TextWrapped("Unknown model \"%s\": pick one from the list.", s.model_id.c_str());
    }
    return changed;
}

}  // namespace kvcalc::ui
