#include "kvcalc/units.h"

#include <cmath>

namespace kvcalc {

std::int64_t gb_to_bytes(double gb) { return std::llround(gb * static_cast<double>(kBytesPerGb)); }
std::int64_t gib_to_bytes(double gib) { return std::llround(gib * static_cast<double>(kBytesPerGib)); }
double bytes_to_gb(std::int64_t bytes) { return static_cast<double>(bytes) / static_cast<double>(kBytesPerGb); }
double bytes_to_gib(std::int64_t bytes) { return static_cast<double>(bytes) / static_cast<double>(kBytesPerGib); }

}  // namespace kvcalc
