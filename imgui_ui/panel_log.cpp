// Start-up log panel: "Paste a start-up log", then each line the engine printed beside kvcalc's prediction and the
// calibrated one, the settings the log filled, and the verdict and solver answers priced from the boot's measured
// terms. Everything shown is what the core returned (log_import.cpp); this file only lays it out.
#include "answer_text.h"
#include "kvcalc/base/units.h"
#include "log_text.h"
#include "model_lookup.h"
#include "panels.h"
#include "platform.h"
#include "text_export.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

/// Desktop builds without the page's overlay read the log from the clipboard.
bool paste_button(App& app) {
    bool changed = false;
    if (tap_button(app.ui, "Paste a start-up log…") && !show_log_overlay()) {
        const char* text = ImGui::GetClipboardText();
        if (text && *text) {
            changed = apply_log_text(app, text, "clipboard");
        } else {
            app.log.status = "The clipboard is empty: copy the engine's start-up log first.";
            app.log.status_is_error = true;
        }
    }
    record_hitbox(app.ui, "paste_log");
    help_marker(app.ui, "The text vLLM (V0 or V1), llama.cpp or SGLang printed while it started, up to the KV cache "
                        "lines. kvcalc reads the numbers it printed; on a desktop you can also drop the log file on "
                        "the page. The link carries the measured terms, not the log.");
    return changed;
}

/// Printed vs predicted: a table on a wide column, one sentence a line on a phone.
void comparison(App& app) {
    const LogView& v = app.log;
    if (v.rows.empty()) return;
    text_dim("Printed by the engine, beside kvcalc's prediction without the log and with it:");
    std::string drawn;
    for (const LogComparisonRow& r : v.rows) drawn += log_row_text(r) + "\n";
    app.ui.drawn_text["log_rows"] = drawn;
    if (ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 26) {  // a phone or a narrow column
        for (const LogComparisonRow& r : v.rows) bullet_wrapped(log_row_text(r));
        return;
    }
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("##log_rows", 4, flags)) return;
    ImGui::TableSetupColumn("Printed line", ImGuiTableColumnFlags_WidthStretch, 2.6f);
    ImGui::TableSetupColumn("Printed", ImGuiTableColumnFlags_WidthStretch, 1.2f);
    ImGui::TableSetupColumn("kvcalc (difference)", ImGuiTableColumnFlags_WidthStretch, 1.9f);
    ImGui::TableSetupColumn("Calibrated", ImGuiTableColumnFlags_WidthStretch, 1.2f);
    ImGui::TableHeadersRow();
    for (const LogComparisonRow& r : v.rows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        text_wrapped(r.label + " (line " + std::to_string(r.line) + ")");
        ImGui::TableNextColumn();
        text_wrapped(log_value_text(r.printed, r.unit, true));
        ImGui::TableNextColumn();
        if (r.predicted)
            text_wrapped(log_value_text(*r.predicted, r.unit, false) + " (" +
                         log_difference_text(*r.predicted, r.printed, r.unit) + ")");
        else
            text_dim("—");
        ImGui::TableNextColumn();
        if (r.calibrated) text_wrapped(log_value_text(*r.calibrated, r.unit, false));
        else text_dim("—");
    }
    ImGui::EndTable();
}

/// The verdict and solver answers of the calibrated scenario (the app's report and solvers: the scenario carries
/// the measured terms).
void calibrated_answers(App& app) {
    if (!app.report.ok) return;
    std::string text = "Priced from the boot's terms: " + verdict_line(app) + ".";
    const Derived& d = app.derived;
    text += d.max_len.ok ? " Largest max_model_len that boots: " + format_count(d.max_len.value) + " tokens."
                         : " No max_model_len boots.";
    if (d.max_seqs.ok) text += " Largest max_num_seqs at full length: " + format_count(d.max_seqs.value) + ".";
    app.ui.drawn_text["log_answers"] = text;
    text_wrapped(text);
}

bool log_body(App& app) {
    bool changed = false;
    LogView& v = app.log;
    text_dim("Settings from the log:" + std::string(v.filled.empty() ? " none (the page's stay)" : ""));
    for (const std::string& f : v.filled) bullet_wrapped(f);
    for (const Diagnostic& d : v.notes) bullet_wrapped(d.message);
    comparison(app);
    if (v.rows.empty()) {  // llama.cpp and SGLang: kvcalc prices their terms alone; the numbers are listed as read
        constexpr std::size_t kFactsShown = 40;
        text_dim("Numbers the log printed:");
        std::string drawn;
        for (std::size_t i = 0; i < v.log.facts.size() && i < kFactsShown; ++i) {
            bullet_wrapped(log_fact_text(v.log.facts[i]));
            drawn += log_fact_text(v.log.facts[i]) + "\n";
        }
        if (v.log.facts.size() > kFactsShown)
            text_dim("… and " + std::to_string(v.log.facts.size() - kFactsShown) + " more.");
        app.ui.drawn_text["log_facts"] = drawn;
    }
    if (v.calibrated) {
        if (const ModelSpec* m = current_model(app.scenario); m && m->display_name != v.model_name)
            text_wrapped("The measured terms are of " + v.model_name + "'s boot; the model is now " + m->display_name +
                             ", priced with that boot's weights and overheads. Forget the log to price it alone.",
                         verdict_color(Verdict::tight, app.ui.dark_theme));
        if (!(app.scenario == v.boot)) {
            text_wrapped("Your settings differ from the boot's: the answers are a what-if on its measured terms.",
                         verdict_color(Verdict::tight, app.ui.dark_theme));
            if (tap_button(app.ui, "Use the boot's settings")) {
                app.scenario = v.boot;
                changed = true;
            }
            record_hitbox(app.ui, "log_boot_settings");
        }
        calibrated_answers(app);
    }
    return changed;
}

}  // namespace

bool panel_log(App& app) {
    bool changed = paste_button(app);
    const bool calibrated = app.scenario.measured.has_value();
    if (app.log.active || calibrated) {
        ImGui::SameLine();
        if (tap_button(app.ui, app.log.active ? "Forget the log" : "Forget the measured terms")) {
            forget_log(app);
            changed = true;
        }
        record_hitbox(app.ui, "forget_log");
    }
    if (!app.log.status.empty()) {
        text_wrapped(app.log.status, app.log.status_is_error ? verdict_color(Verdict::fail, app.ui.dark_theme) : 0);
        app.ui.drawn_text["log_status"] = app.log.status;
    } else if (!app.log.active && !calibrated) {
        text_dim("Booted once? Paste what the engine printed: kvcalc shows each line beside its prediction and "
                 "prices every answer from that boot.");
    }
    if (app.log.active) {
        changed |= log_body(app);
    } else if (calibrated) {
        const std::string text = "Calibrated by the link: a boot's measured terms price every answer (per card: " +
                                 measured_terms_words(*app.scenario.measured) + ").";
        text_wrapped(text);
        app.ui.drawn_text["log_link_terms"] = text;
        calibrated_answers(app);
    }
    return changed;
}

}  // namespace kvcalc::ui
