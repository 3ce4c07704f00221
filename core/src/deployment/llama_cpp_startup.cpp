// The scenario's llama.cpp settings handed to the buffer rule (engines/llama_cpp/buffers.cpp).
#include "kvcalc/deployment/llama_cpp_startup.h"

#include "engines/deploy_internal.h"
#include "kvcalc/engines/deployment.h"

#include <optional>
#include <utility>

namespace kvcalc {

namespace {

/// The resolved deployment's llama.cpp settings, or the diagnostics that say why there are none.
std::optional<std::pair<Deployment, LlamaCppSettings>> settings_of(const Scenario& s, Diagnostics& diags) {
    const std::optional<Deployment> d = resolve(s, diags);
    if (!d || has_error(diags)) {
        if (!has_error(diags)) diags.push_back({Severity::error, "unresolved", "model", "the scenario does not resolve"});
        return std::nullopt;
    }
    if (d->engine != EngineId::llama_cpp) {
        diags.push_back({Severity::error, "wrong_engine", "engine", "llama.cpp's buffer lines need engine \"llama.cpp\""});
        return std::nullopt;
    }
    Diagnostics plan_diags;
    const LlamaCppPlan plan = detail::make_llama_cpp(*d, plan_diags);
    if (has_error(plan_diags)) {
        diags = plan_diags;
        return std::nullopt;
    }
    LlamaCppSettings ls = detail::llama_cpp_load_settings(*d, plan, d->load());
    return std::make_pair(*d, ls);
}

}  // namespace

LlamaCppFit fit_llama_cpp_startup(const Scenario& s, const std::vector<GgufHeader>& parts,
                                  const LlamaCppPlacement& placement, LlamaCppFitRequest request) {
    LlamaCppFit out;
    const auto ds = settings_of(s, out.diagnostics);
    if (!ds) return out;
    request.n_ctx_auto = s.max_model_len == 0;
    return fit_llama_cpp(parts, *ds->first.model, ds->second, placement, request);
}

LlamaCppBuffers predict_llama_cpp_startup(const Scenario& s, const std::vector<GgufHeader>& parts,
                                          const LlamaCppPlacement& placement) {
    LlamaCppBuffers out;
    const auto ds = settings_of(s, out.diagnostics);
    if (!ds) return out;
    return predict_llama_cpp_buffers(parts, *ds->first.model, ds->second, placement);
}

}  // namespace kvcalc
