// weights_format_options(): each format priced through scenario_model(), the one path the CLI and the API use.
#include "kvcalc/deployment/weights_formats.h"

#include <algorithm>

#include "config/served_model.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/catalog/catalog_popular.h"
#include "kvcalc/engines/deployment.h"

namespace kvcalc {

namespace {

bool is_popular(const std::string& id) {
    for (const PopularModelSource& p : popular_model_sources())
        if (p.id == id) return true;
    return false;
}

/// The format a variant id names ("autoround-int4" → int4, "awq" → int4, "fp8-dynamic" → fp8), "" for none.
std::string variant_format(const std::string& name) {
    std::size_t at = 0;
    while (at <= name.size()) {
        const std::size_t end = std::min(name.find_first_of("-_", at), name.size());
        const std::string t = name.substr(at, end - at);
        if (t == "int4" || t == "awq" || t == "gptq" || t == "w4a16") return "int4";
        if (t == "int8" || t == "w8a8" || t == "w8a16") return "int8";
        if (t == "fp8" || t == "nvfp4" || t == "mxfp4" || t == "bf16") return t;
        at = end + 1;
    }
    return "";
}

std::string format_of(const WeightsVariant& v) {
    std::string f = variant_format(v.id);
    for (std::size_t i = 0; f.empty() && i < v.aliases.size(); ++i)
        if (v.aliases[i] != "default") f = variant_format(v.aliases[i]);
    return f;
}

std::string serves_text(const WeightsVariant& w) {
    std::string out = w.hf_repo.empty() ? std::string(detail::kModelDirPlaceholder) : w.hf_repo;
    if (!w.vllm_quantization.empty()) out += " --quantization " + w.vllm_quantization;
    return out;
}

/// A config.json or popular model: every format re-priced by the core.
std::vector<WeightsFormatOption> repriced(const Scenario& s, std::string_view only) {
    std::vector<WeightsFormatOption> out;
    for (const std::string_view f : kWeightsFormats) {
        // auto is priced first even for one other row: mxfp4 asks what the checkpoint's own format is.
        if (!only.empty() && f != only && !(f == "auto" && only == "mxfp4")) continue;
        WeightsFormatOption o;
        o.format = std::string(f);
        o.weights_dtype = f == "auto" ? std::string() : std::string(f);
        Scenario probe = s;
        probe.weights_dtype = o.weights_dtype;
        probe.weights_variant.clear();
        probe.weights_gb.reset();
        Diagnostics d;
        const auto m = scenario_model(probe, d);
        for (const Diagnostic& x : d)
            if (x.severity == Severity::error && o.reason.empty()) o.reason = x.message;
        if (m && !m->weights.empty()) {
            const WeightsVariant& w = m->weights.front();
            // out.front() is auto: the checkpoint's own format.
            o.available = m->num_experts > 0 || f != "mxfp4" || (!out.empty() && out.front().priced_as == "mxfp4");
            if (!o.available)
                o.reason = "mxfp4 is priced on routed experts only (gpt-oss's layout), and this model has none";
            o.priced_as = w.id == "checkpoint" ? std::string("the checkpoint's tensors") : w.id;
            o.size_gb = w.size_gb;
            o.serves = serves_text(w);
        }
        out.push_back(std::move(o));
    }
    return out;
}

/// A calibrated or inline model: the variants it lists.
std::vector<WeightsFormatOption> variants(const ModelSpec& m, std::string_view only) {
    std::vector<WeightsFormatOption> out;
    for (const std::string_view f : kWeightsFormats) {
        if (!only.empty() && f != only) continue;
        WeightsFormatOption o;
        o.format = std::string(f);
        const WeightsVariant* pick = nullptr;
        if (f == "auto") {
            if (!m.weights.empty()) pick = &m.weights.front();
        } else {
            for (const WeightsVariant& w : m.weights)
                if (!pick && format_of(w) == f) pick = &w;
        }
        if (pick) {
            o.available = true;
            o.weights_variant = f == "auto" ? std::string() : pick->id;
            o.priced_as = pick->id;
            o.size_gb = pick->size_gb;
            // What served_repo() (engines.cpp) names: the variant's repo, else a placeholder for it.
            o.serves = !pick->hf_repo.empty() ? serves_text(*pick)
                       : m.weights.size() > 1 ? "<" + m.id + "-" + pick->id + "-checkpoint>"
                                              : m.id;
        } else {
            o.reason = "the catalog lists no " + o.format + " checkpoint of " + m.display_name +
                       ": give its size (weights_gb) or load that checkpoint's config.json";
        }
        out.push_back(std::move(o));
    }
    return out;
}

}  // namespace

std::vector<WeightsFormatOption> weights_format_options(const Scenario& s, std::string_view only) {
    std::vector<WeightsFormatOption> out;
    if (!s.config_json.empty() || (!s.model && is_popular(s.model_id))) out = repriced(s, only);
    else if (s.model) out = variants(*s.model, only);
    else if (const ModelSpec* m = find_model(s.model_id)) out = variants(*m, only);
    if (!only.empty()) std::erase_if(out, [&](const WeightsFormatOption& o) { return o.format != only; });
    return out;
}

std::string weights_format_word(std::string_view word) {
    std::string w;
    for (char c : word) w += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (w == "4-bit" || w == "4bit" || w == "4-bits") return "int4";
    if (w == "8-bit" || w == "8bit" || w == "8-bits") return "int8";
    if (w == "16-bit" || w == "16bit") return "bf16";
    if (w == "fp4") return "nvfp4";
    return variant_format(w);
}

std::string current_weights_format(const Scenario& s) {
    if (!s.weights_dtype.empty() && s.weights_dtype != "auto") return s.weights_dtype;
    if (s.weights_variant.empty() || !s.config_json.empty()) return "auto";
    const ModelSpec* m = s.model ? &*s.model : find_model(s.model_id);
    if (!m || m->weights.empty()) return "auto";
    for (const WeightsVariant& w : m->weights) {
        bool named = w.id == s.weights_variant;
        for (const std::string& a : w.aliases) named = named || a == s.weights_variant;
        if (named) return format_of(w).empty() ? std::string("auto") : format_of(w);
    }
    return "auto";
}

void apply_weights_format(Scenario& s, const WeightsFormatOption& o) {
    s.weights_dtype = o.weights_dtype;
    s.weights_variant = o.weights_variant;
    s.weights_gb.reset();
}

}  // namespace kvcalc
