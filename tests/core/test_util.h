// Helpers shared by the core tests.
#pragma once
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/base/kv_format.h"
#include "kvcalc/model/layer_cache.h"

namespace kvtest {

/// Growing-KV bytes per token per card (exact rational as a double).
inline double per_token(const char* model, const char* format, int tp) {
    const auto fp = kvcalc::model_footprint(*kvcalc::find_model(model), *kvcalc::find_kv_format(format), tp);
    return static_cast<double>(fp.growing_x400_per_token) / kvcalc::kBpeDenominator;
}

}  // namespace kvtest
