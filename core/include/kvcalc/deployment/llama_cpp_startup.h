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

}  // namespace kvcalc
