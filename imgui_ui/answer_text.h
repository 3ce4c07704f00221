// The context answers in words, and every answer the page shows as one text for the screen-reader mirror.
#pragma once
#include <string>

#include "app.h"

namespace kvcalc::ui {

/// What the two context solvers answer, labelled (the core's solve_context_limits): with max_num_seqs 8,
/// `width` 0 "8 users × 5,120 fit; one request up to 40K boots", 1 "8 × 5,120 fit; 1 × 40K boots",
/// 2 and 3 "8×5,120 fit, 1×40K boots", 4 (the narrowest) "8×5,120 fit". With one sequence (or when both agree) only one figure: "largest
/// context 40K" (0), "max context 40K" (1), "max 40K" (2 and up).
std::string context_answer(const App& app, int width);

/// Every answer the page shows, as text: the verdict and summary (announcement()), both context answers, the
/// first GPU-shopping rows, the predicted start-up lines and the serve command.
std::string full_text_answer(const App& app);

}  // namespace kvcalc::ui
