#include "kvcalc/base/units.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace kvcalc {

std::int64_t gb_to_bytes(double gb) { return std::llround(gb * static_cast<double>(kBytesPerGb)); }
std::int64_t gib_to_bytes(double gib) { return std::llround(gib * static_cast<double>(kBytesPerGib)); }
double bytes_to_gb(std::int64_t bytes) { return static_cast<double>(bytes) / static_cast<double>(kBytesPerGb); }
double bytes_to_gib(std::int64_t bytes) { return static_cast<double>(bytes) / static_cast<double>(kBytesPerGib); }

const char* byte_unit_name(ByteUnit unit) { return unit == ByteUnit::gb ? "GB" : "GiB"; }

std::string format_size(std::int64_t bytes, ByteUnit unit) {
    char buf[48];
    const double v = unit == ByteUnit::gb ? bytes_to_gb(bytes) : bytes_to_gib(bytes);
    std::snprintf(buf, sizeof buf, v >= 100.0 ? "%.0f %s" : "%.2f %s", v, byte_unit_name(unit));
    return buf;
}

std::string format_count(std::int64_t n) {
    const auto magnitude = n < 0 ? 0ull - static_cast<unsigned long long>(n) : static_cast<unsigned long long>(n);
    const std::string digits = std::to_string(magnitude);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return n < 0 ? "-" + out : out;
}

}  // namespace kvcalc
