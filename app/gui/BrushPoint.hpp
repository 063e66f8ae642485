#pragma once
// Where the steering tool's brush is this frame, whichever view the window shows
// (docs/gui.md "Tools that act on the field"): the point of the field under the cursor in
// the 2D view, on a slice or surface of the 3D view, or along the line plot of a 1D run;
// how large a metre looks there (for the preview); and whether this frame's mouse input
// asks for a stroke. The three views answer these differently; SteeringPanel::use_in_view
// draws the preview and applies the tool from the answer alone, the same way for all.
#include <imgui.h>
#include <array>
#include <optional>

#include "app/gui/LinePlot.hpp"
#include "sim/core/Grid.hpp"

namespace fluxview::render {
class ViewRenderer;
}

namespace fluxview::app {

struct BrushPoint {
  std::array<double, 3> position{};  // where the tool is applied (m)
  ImVec2 cursor{0, 0};               // the window pixel the preview is centred on
  double metres_per_pixel = 0;       // at the point, per window pixel (0: unknown, no preview)
  // A 1D run's plot: the brush covers x ± radius along the run, so its preview is a band
  // across the plot between these heights (window pixels), not a circle.
  bool along_line = false;
  float band_top = 0, band_bottom = 0;
  bool stroke = false;  // this frame's input applies the tool here
};

// Window pixels to the framebuffer's GL pixels (y up): the views find points by GL pixel.
struct WindowToFramebuffer {
  double sx = 1, sy = 1;  // framebuffer pixels a window pixel
  int fb_height = 0;
  double x(float wx) const { return wx * sx; }
  double y(float wy) const { return fb_height - wy * sy; }
};

// The 2D view: the cell under the cursor (ViewRenderer::probe); a left click strokes.
std::optional<BrushPoint> brush_in_slice(const render::ViewRenderer& r,
                                         const WindowToFramebuffer& w);
// The 3D view: the opaque point under the cursor (ViewRenderer::pick_surface; never a
// guess along the ray where nothing is drawn). A left drag turns the box, so a stroke is
// a left click released where it was pressed (within 3 pixels) that began in the view;
// shift-click seeds streamlines and never strokes.
std::optional<BrushPoint> brush_in_scene(const render::ViewRenderer& r, const Grid& g,
                                         const WindowToFramebuffer& w);
// A 1D run's plot: the coordinate along the run under the cursor (PlotArea::x_at), the
// other two those of the run's one cell; a left click strokes.
std::optional<BrushPoint> brush_on_plot(const PlotArea& area, const Grid& g, int axis);

// The point (m) at fractions `f` of the box the views draw: cell i spans fractions
// [i, i + 1] / n along each axis, so that a cell's centre is at its coordinate.
std::array<double, 3> box_point(const Grid& g, const std::array<float, 3>& f);

}  // namespace fluxview::app
