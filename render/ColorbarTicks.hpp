#pragma once
#include <string>
#include <vector>

namespace fluxview::render {

// Tick marks of a colour bar: round values inside the range, each labelled in one format
// shared by all labels (the same number of decimals, or the same scientific form), so a
// reader never meets "5.4e+01", "40" and "2.0e+01" side by side, nor "4.62e-19" for 0.
struct ColorbarTick {
  double value = 0;
  float t = 0;  // place on the bar, 0 at the bottom (lo) and 1 at the top (hi)
  std::string label;
};

// Linear: multiples of 1, 2, 2.5 or 5 times a power of ten, between 2 and `max_ticks` of
// them in [lo, hi] (or within 1% of the range outside it, then placed at the end). Log
// (lo > 0): powers of ten, or 1-2-5 steps within a decade or two. Where no round value
// lies inside (a range narrower than its own rounding), the two ends.
std::vector<ColorbarTick> colorbar_ticks(double lo, double hi, bool log_scale, int max_ticks = 6);

// Labels for values that share one format: decimals enough for the smallest step
// between them, or scientific notation with one mantissa format where the numbers are
// very large or very small. An exact 0 is "0".
std::vector<std::string> format_tick_labels(const std::vector<double>& values);

}  // namespace fluxview::render
