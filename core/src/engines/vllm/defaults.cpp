#include "kvcalc/engines/vllm/defaults.h"

#include "engines/deploy_internal.h"

namespace kvcalc {

std::int64_t vllm_max_num_batched_tokens(const Deployment& d, const Load& load) {
    return d.engine == EngineId::vllm ? detail::vllm_batched_tokens(d, load) : 0;
}

}  // namespace kvcalc
