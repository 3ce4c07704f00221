// Switching models: one place decides which settings survive.
#include "model_lookup.h"

#include <algorithm>

#include "kvcalc/layer_cache.h"

namespace kvcalc::ui {

void switch_model(Scenario& s, ModelSpec model, bool inline_spec) {
    const std::vector<int> tp = valid_tensor_parallel_sizes(model);
    const std::int64_t max_len = model.max_position_embeddings;
    if (inline_spec) {
        s.model = std::move(model);
    } else {
        s.model_id = model.id;
        s.model.reset();
    }
    s.compose.clear();
    s.weights_variant.clear();
    s.weights_gb.reset();
    s.drafter.clear();
    s.mtp.reset();
    s.num_speculative_tokens.reset();
    if (!tp.empty() && std::find(tp.begin(), tp.end(), s.tensor_parallel_size) == tp.end()) {
        s.tensor_parallel_size = tp.front();
        s.gpus = 0;
    }
    if (max_len > 0) s.max_model_len = std::min(s.max_model_len, max_len);
}

}  // namespace kvcalc::ui
