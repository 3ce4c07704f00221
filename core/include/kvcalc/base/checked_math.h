// Byte arithmetic that cannot overflow: saturating int64 helpers and the core's largest admissible byte count.
// Every product of an input-sized count (tokens × sequences × bytes per token, elements × bytes, …) goes
// through these, so a hostile or absurd input yields a huge number that validation rejects, never a wrapped
// negative one (signed overflow is undefined behaviour in C++).
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>

namespace kvcalc {

/// Largest byte count a Report may carry: 2^60 B (1.15 EB). predict() rejects a scenario whose demand reaches it
/// (error "too_large" naming max_model_len and max_num_seqs); 8× below INT64_MAX, so every sum of the terms
/// and every engine rule's padded variant of them (block rounding, per-sequence streams) still fits.
inline constexpr std::int64_t kMaxBytes = std::int64_t{1} << 60;

/// std::llround(x) (nearest integer, halves away from zero) without the libm call for |x| < 2^62, where the
/// truncation, the exact fraction x − trunc(x) and its comparison with 0.5 are all exact; std::llround otherwise.
/// predict() rounds the budget and the seed's CUDA-graph term per call.
inline std::int64_t round_to_int64(double x) {
    if (!(std::fabs(x) < 4.611686018427387904e18)) return std::llround(x);
    const auto whole = static_cast<std::int64_t>(x);  // toward zero
    const double fraction = x - static_cast<double>(whole);
    if (fraction >= 0.5) return whole + 1;
    if (fraction <= -0.5) return whole - 1;
    return whole;
}

/// a + b, clamped to [INT64_MIN, INT64_MAX] instead of wrapping.
constexpr std::int64_t sat_add(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r))
        return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
    return r;
}

/// a − b, clamped to [INT64_MIN, INT64_MAX].
constexpr std::int64_t sat_sub(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    if (__builtin_sub_overflow(a, b, &r))
        return b < 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
    return r;
}

/// a × b, clamped to [INT64_MIN, INT64_MAX].
constexpr std::int64_t sat_mul(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r))
        return (a < 0) != (b < 0) ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int64_t>::max();
    return r;
}

/// ceil(a / b) for a ≥ 0, b > 0 without the a + b − 1 overflow of the textbook form.
constexpr std::int64_t sat_ceil_div(std::int64_t a, std::int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

/// A saturating integer for formulas written with ordinary operators (parameter counts): every +, − and ×
/// clamps instead of wrapping. Built implicitly from int64; read back with .v.
struct SatInt {
    std::int64_t v = 0;
    constexpr SatInt() = default;
    constexpr SatInt(std::int64_t x) : v(x) {}  // NOLINT(google-explicit-constructor): drop-in for int64
    explicit constexpr operator std::int64_t() const { return v; }
    friend constexpr SatInt operator+(SatInt a, SatInt b) { return sat_add(a.v, b.v); }
    friend constexpr SatInt operator-(SatInt a, SatInt b) { return sat_sub(a.v, b.v); }
    friend constexpr SatInt operator*(SatInt a, SatInt b) { return sat_mul(a.v, b.v); }
    friend constexpr SatInt operator/(SatInt a, SatInt b) { return a.v / b.v; }
    constexpr SatInt& operator+=(SatInt b) { return *this = *this + b; }
    constexpr SatInt& operator*=(SatInt b) { return *this = *this * b; }
};
/// int64 += SatInt saturates too (accumulators that are plain int64 fields).
constexpr std::int64_t& operator+=(std::int64_t& a, SatInt b) { return a = sat_add(a, b.v); }

}  // namespace kvcalc
