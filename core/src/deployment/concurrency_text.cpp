// concurrency_text: vLLM's %.2f (concurrency_text.h).
#include "kvcalc/deployment/concurrency_text.h"

#include "engines/deploy_internal.h"

namespace kvcalc {

std::string concurrency_text(double requests) { return detail::concurrency_text(requests); }

}  // namespace kvcalc
