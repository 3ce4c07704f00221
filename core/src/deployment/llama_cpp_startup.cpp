// The scenario's llama.cpp settings handed to the buffer rule (engines/llama_cpp/buffers.cpp).
#include "kvcalc/deployment/llama_cpp_startup.h"

#include "engines/deploy_internal.h"
#include "kvcalc/engines/deployment.h"

namespace kvcalc {

LlamaCppBuffers predict_llama_cpp_startup(const Scenario& s, const std::vector<GgufHeader>& parts,
                                          const LlamaCppPlacement& placement) {
    LlamaCppBuffers out;
    const std::optional<Deployment> d = resolve(s, out.diagnostics);
    if (!d || has_error(out.diagnostics)) {
        if (!has_error(out.diagnostics))
            out.diagnostics.push_back({Severity::error, "unresolved", "model", "the scenario does not resolve"});
        return out;
    }
    if (d->engine != EngineId::llama_cpp) {
        out.diagnostics.push_back({Severity::error, "wrong_engine", "engine",
                                   "llama.cpp's buffer lines need engine \"llama.cpp\""});
        return out;
    }
    Diagnostics plan_diags;
    const LlamaCppPlan plan = detail::make_llama_cpp(*d, plan_diags);
    if (has_error(plan_diags)) {
        out.diagnostics = plan_diags;
        return out;
    }
    return predict_llama_cpp_buffers(parts, *d->model, detail::llama_cpp_load_settings(*d, plan, d->load()),
                                     placement);
}

}  // namespace kvcalc
