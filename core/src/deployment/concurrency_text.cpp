// concurrency_text: vLLM's %.2f (concurrency_text.h).
#include "kvcalc/deployment/concurrency_text.h"

#include <cmath>

#include "engines/deploy_internal.h"

namespace kvcalc {

std::string concurrency_text(double requests) {
    if (!std::isfinite(requests) || !(requests > 0)) return "0.00";
    return detail::fixed2(requests);  // printf's round-to-nearest, without printf for the usual values
}

}  // namespace kvcalc
