#pragma once
// A line plot drawn with ImGui's draw lists: a frame with round ticks and labels on both
// axes (the colour bar's tick rules, render/ColorbarTicks.hpp), the axes' names, curves
// and a legend. The main view of a 1D run and the probes' plots are made of it.
#include <imgui.h>
#include <cmath>
#include <string>
#include <vector>

namespace fluxview::app {

// Points (x[i], y[i]) joined in order; a non-finite y breaks the line.
struct PlotCurve {
  std::vector<double> x, y;
  ImU32 colour = IM_COL32(255, 160, 40, 255);
  std::string label;  // in the legend (empty: not listed)
  float thickness = 2.0f;
  bool dashed = false;
};

struct PlotAxes {
  std::string x_label, y_label;  // names with units, e.g. "x [m]", "rho [kg/m^3]"
  // The ranges shown; a non-finite end is taken from the curves (y with 5% to spare).
  double x_lo = NAN, x_hi = NAN, y_lo = NAN, y_hi = NAN;
};

// Where a plot put its data: the rectangle inside the axes (screen pixels, y down) and
// the ranges it spans, to map between values and pixels.
struct PlotArea {
  ImVec2 lo{0, 0}, hi{0, 0};
  double x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1;
  ImVec2 to_screen(double x, double y) const;
  double x_at(float sx) const;
  bool contains(ImVec2 p) const { return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y; }
};

// Draws the plot into the rectangle [lo, hi] of `draw` (screen pixels). Lines are drawn
// without anti-aliasing, so that a curve's pixels carry its colour exactly (the render
// tests find curves by their colour).
PlotArea draw_line_plot(ImDrawList* draw, ImVec2 lo, ImVec2 hi, const PlotAxes& axes,
                        const std::vector<PlotCurve>& curves);

// The same as a widget of the current window, `height` pixels high and as wide as the
// space left.
PlotArea line_plot(const char* id, float height, const PlotAxes& axes,
                   const std::vector<PlotCurve>& curves);

}  // namespace fluxview::app
