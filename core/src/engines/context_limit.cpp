#include "kvcalc/engines/context_limit.h"

namespace kvcalc {

EngineContextLimit context_limit(const ModelSpec& m, EngineId engine) {
    const EngineContextLimit& read = m.engine_context[engine_index(engine)];
    if (read.max_model_len > 0 || !read.source.empty()) return read;
    EngineContextLimit out;
    out.max_model_len = out.default_max_model_len = m.max_position_embeddings;
    if (m.max_position_embeddings > 0) out.source = "max_position_embeddings " + std::to_string(m.max_position_embeddings);
    return out;
}

}  // namespace kvcalc
