#include "app/gui/BrushPoint.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "render/SceneCamera.hpp"
#include "render/ViewRenderer.hpp"

namespace fluxview::app {

namespace {

// How far (window pixels) the mouse may wander between press and release for the 3D view
// to take it as a click rather than a turn of the box.
constexpr float kClickSlop = 3.0f;

}  // namespace

std::array<double, 3> box_point(const Grid& g, const std::array<float, 3>& f) {
  std::array<double, 3> p;
  for (int a = 0; a < 3; ++a) {
    const int n = std::max(1, g.n[a]);
    p[a] = g.origin[a] + (double(f[a]) * n - 0.5) * g.spacing[a];
  }
  return p;
}

std::optional<BrushPoint> brush_in_slice(const render::ViewRenderer& r,
                                         const WindowToFramebuffer& w) {
  const ImGuiIO& io = ImGui::GetIO();
  const double fx = w.x(io.MousePos.x), fy = w.y(io.MousePos.y);
  const auto here = r.probe(fx, fy);
  if (!here) return std::nullopt;
  BrushPoint b;
  b.position = here->position;
  b.cursor = io.MousePos;
  // Metres a window pixel: from a second probe a few pixels to the side (or above, at the
  // slice's right edge; the slice is drawn with its cells square).
  for (const auto& [dx, dy] : {std::pair{8.0, 0.0}, std::pair{-8.0, 0.0}, std::pair{0.0, 8.0}})
    if (const auto there = r.probe(fx + dx * w.sx, fy + dy * w.sy)) {
      double d2 = 0;
      for (int a = 0; a < 3; ++a)
        d2 += (there->position[a] - here->position[a]) * (there->position[a] - here->position[a]);
      b.metres_per_pixel = std::sqrt(d2) / 8.0;
      if (b.metres_per_pixel > 0) break;
    }
  b.stroke = ImGui::IsMouseClicked(ImGuiMouseButton_Left);
  return b;
}

std::optional<BrushPoint> brush_in_scene(const render::ViewRenderer& r, const Grid& g,
                                         const WindowToFramebuffer& w) {
  const ImGuiIO& io = ImGui::GetIO();
  const auto f = r.pick_surface(w.x(io.MousePos.x), w.y(io.MousePos.y));
  if (!f) return std::nullopt;
  BrushPoint b;
  b.position = box_point(g, *f);
  b.cursor = io.MousePos;
  // The brush is a ball: its picture is a circle of the radius the camera gives a length
  // facing it at that depth. (A second pick beside the cursor would measure along the
  // surface, too short where a slice is seen at a slant, and across a slice's edge would
  // land on another surface.)
  const render::SceneCamera& cam = r.camera();
  std::array<float, 3> in_box;
  for (int a = 0; a < 3; ++a) in_box[a] = (2 * (*f)[a] - 1) * cam.half[a];
  b.metres_per_pixel = render::SceneCamera::unit_length(g) / cam.pixels_per_unit(in_box) * w.sx;
  // Released where it was pressed, the press not on a panel: a click, not a turn.
  b.stroke = ImGui::IsMouseReleased(ImGuiMouseButton_Left) && !io.MouseDownOwned[0] &&
             !io.KeyShift && io.MouseDragMaxDistanceSqr[0] <= kClickSlop * kClickSlop;
  return b;
}

std::optional<BrushPoint> brush_on_plot(const PlotArea& area, const Grid& g, int axis) {
  const ImGuiIO& io = ImGui::GetIO();
  if (!area.contains(io.MousePos) || area.hi.x <= area.lo.x) return std::nullopt;
  BrushPoint b;
  // The run's one cell across the other two axes: its centre there.
  for (int a = 0; a < 3; ++a) b.position[a] = g.coord(a, 0);
  b.position[axis] = area.x_at(io.MousePos.x);
  b.cursor = io.MousePos;
  b.metres_per_pixel = (area.x_hi - area.x_lo) / (area.hi.x - area.lo.x);
  b.along_line = true;
  b.band_top = area.lo.y;
  b.band_bottom = area.hi.y;
  b.stroke = ImGui::IsMouseClicked(ImGuiMouseButton_Left);
  return b;
}

}  // namespace fluxview::app
