// Placeholder until the config.json reader work provides popular models described from their configs.
#include "kvcalc/catalog.h"

namespace kvcalc {

std::vector<ModelSpec> popular_models() { return {}; }

}  // namespace kvcalc
