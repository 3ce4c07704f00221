// Units at the edges. Inside the core every memory quantity is an integer number of bytes; decimal
// GB (1e9 B) and binary GiB (2^30 B) appear only when reading user input or printing.
#pragma once
#include <cstdint>
#include <string>

namespace kvcalc {

/// Bytes in one decimal gigabyte (what the seed tool calls "GB" everywhere).
inline constexpr std::int64_t kBytesPerGb = 1'000'000'000;
/// Bytes in one binary gibibyte (what nvidia-smi MiB/1024 and the VRAM of a "24 GB" card really are).
inline constexpr std::int64_t kBytesPerGib = 1LL << 30;

/// Decimal GB → bytes, rounded to the nearest byte. Input must be finite (callers validate).
std::int64_t gb_to_bytes(double gb);
/// GiB → bytes, rounded to the nearest byte.
std::int64_t gib_to_bytes(double gib);
/// Bytes → decimal GB (for display only).
double bytes_to_gb(std::int64_t bytes);
/// Bytes → GiB (for display only).
double bytes_to_gib(std::int64_t bytes);
/// Ceiling of a / b for a ≥ 0, b > 0.
constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

/// The unit byte figures are shown in: decimal GB (10^9 B) or GiB (2^30 B).
enum class ByteUnit { gb, gib };

/// "GB" or "GiB".
const char* byte_unit_name(ByteUnit unit);

/// `bytes` in `unit` as people read it: two decimals below 100 ("14.96 GiB"), none from 100 on ("141 GB").
std::string format_size(std::int64_t bytes, ByteUnit unit);

/// 180000 → "180,000".
std::string format_count(std::int64_t n);

}  // namespace kvcalc
