// The serving engines kvcalc prices, as an id low enough in the floors that per-engine facts of a model
// (ModelSpec::engine_context) can be kept in one array indexed by it.
#pragma once
#include <cstddef>

namespace kvcalc {

/// The serving engine whose rules apply (Scenario::engine). The engines table (deployment.h engines()) has one
/// row per value, in this order; a new engine is a new value and its row.
enum class EngineId { vllm, llama_cpp, sglang };

/// How many EngineId values there are: the size of every per-engine array (engines.cpp checks its table against it).
inline constexpr std::size_t kNumEngines = 3;

/// The position of an engine in per-engine arrays.
constexpr std::size_t engine_index(EngineId id) { return static_cast<std::size_t>(id); }

}  // namespace kvcalc
