#include "kvcalc/diagnostic.h"

#include <algorithm>

namespace kvcalc {

bool has_error(const Diagnostics& d) {
    return std::any_of(d.begin(), d.end(), [](const Diagnostic& x) { return x.severity == Severity::error; });
}

}  // namespace kvcalc
