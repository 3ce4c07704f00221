// A start-up log in words: each printed line beside kvcalc's predictions, the measured terms a link carries, and
// what the screen-reader mirror says about them. Plain string building from what the core returned.
#pragma once
#include <string>

#include "app.h"

namespace kvcalc::ui {

/// A printed or predicted value in the log's unit: "3.81 GiB", "14.9889 GiB" (as many decimals as printed, at
/// least two), "230,528 tokens", "10.79x".
std::string log_value_text(double value, const std::string& unit, bool as_printed);

/// "+0.06 GiB" / "−1,024 tokens": a prediction less the printed value, in the row's unit.
std::string log_difference_text(double predicted, double printed, const std::string& unit);

/// One printed line as a sentence: "Available KV cache memory (line 5): printed 3.81 GiB; kvcalc 3.87 GiB
/// (+0.06 GiB); calibrated 3.81 GiB (+0.00 GiB)". A side the core could not price is left out.
std::string log_row_text(const LogComparisonRow& row);

/// The measured terms of a calibrated scenario in words, per card: "weights 14.99 GiB, activation peak 2.07 GiB,
/// non-torch 0.35 GiB, KV cache 3.81 GiB, of a 23.58 GiB card at max_model_len 20,000 and utilization 0.90".
std::string measured_terms_words(const MeasuredTerms& m);

/// One fact as read: "kv_buffer_size_mib = 1,024.00 MiB (CUDA0, line 40)", "type_k = f16 (line 38)".
std::string log_fact_text(const LogFact& f);

/// "vLLM 0.10.2", "llama.cpp b4893", "SGLang": the engine that printed the log and its version as printed.
std::string log_engine_words(const StartupLog& log);

/// What the screen-reader mirror says about the log (or about the measured terms a link carried); "" when neither.
std::string log_mirror_text(const App& app);

}  // namespace kvcalc::ui
