// Number-to-text helpers of util/text.h that need the C library.
#include "util/text.h"

#include <cstdio>
#include <cstdlib>

namespace kvcalc::text {

std::string shortest_decimal(double x) {
    char buf[400];  // %.17f of the largest double fits
    for (int decimals = 0; decimals <= 17; ++decimals) {
        std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
        if (std::strtod(buf, nullptr) == x) return buf;
    }
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return buf;
}

}  // namespace kvcalc::text
