// --list-models / --list-gpus / --list-composes as one JSON document ("schema": 1).
#pragma once
#include <nlohmann/json.hpp>

#include "options.h"

namespace kvcli {

/// {"schema":1,"models":[...]} (or "gpus" / "composes") for the given list mode. Sizes: *_gb decimal, *_bytes exact.
nlohmann::json catalog_json(Mode mode);

}  // namespace kvcli
