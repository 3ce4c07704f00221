// Light and dark styles, sized in multiples of the font size.
#pragma once

namespace kvcalc::ui {

/// Applies the dark or light colours and the app's spacing (scaled so touch targets stay finger-sized).
void apply_theme(bool dark, bool touch_friendly);

}  // namespace kvcalc::ui
