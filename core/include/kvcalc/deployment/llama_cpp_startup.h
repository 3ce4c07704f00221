// llama.cpp's start-up buffers per device for a scenario whose model came from a GGUF file.
#pragma once
#include <vector>

#include "kvcalc/base/scenario.h"
#include "kvcalc/config/gguf.h"
#include "kvcalc/engines/llama_cpp_buffers.h"

namespace kvcalc {

/// predict_llama_cpp_buffers at the scenario's resolved load and KV settings (-c, -np, -ctk/-ctv, -ub,
/// --swa-full, the build): the model / KV buffer lines llama.cpp prints for `parts` (the headers the scenario's
/// inline model was read from) placed as `placement` says. Errors: the scenario does not resolve, its engine is
/// not llama.cpp, or the headers list no tensors.
LlamaCppBuffers predict_llama_cpp_startup(const Scenario& scenario, const std::vector<GgufHeader>& parts,
                                          const LlamaCppPlacement& placement);

/// fit_llama_cpp at the scenario's resolved KV settings: what llama.cpp's --fit would choose for `parts` on one GPU
/// with `request.free_bytes` free. The context is the fit's to cut when the scenario leaves max_model_len unset
/// (llama.cpp's -c 0); `request.n_ctx_auto` is set from that. Errors: as predict_llama_cpp_startup, and free_bytes ≤ 0.
LlamaCppFit fit_llama_cpp_startup(const Scenario& scenario, const std::vector<GgufHeader>& parts,
                                  const LlamaCppPlacement& placement, LlamaCppFitRequest request);

}  // namespace kvcalc
