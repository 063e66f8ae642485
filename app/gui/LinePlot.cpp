#include "app/gui/LinePlot.hpp"

#include <algorithm>
#include <cstddef>

#include "render/ColorbarTicks.hpp"

namespace fluxview::app {

namespace {

constexpr ImU32 kInk = IM_COL32(210, 210, 215, 255);
constexpr ImU32 kGrid = IM_COL32(70, 70, 78, 255);
constexpr ImU32 kPaper = IM_COL32(22, 22, 26, 255);

// A range with room to spare: an empty one (a constant field) opened around its value.
void settle(double& lo, double& hi, double spare) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) {
    lo = 0;
    hi = 1;
    return;
  }
  if (hi <= lo) {
    const double d = lo == 0 ? 0.5 : 0.05 * std::abs(lo);
    lo -= d;
    hi += d;
    return;
  }
  const double d = spare * (hi - lo);
  lo -= d;
  hi += d;
}

// Dashes of 8 pixels with gaps of 5 along the polyline, the phase carried across points.
void dashed_polyline(ImDrawList* draw, const std::vector<ImVec2>& pts, ImU32 colour, float width) {
  constexpr float dash = 8, gap = 5;
  float phase = 0;  // distance into the current dash + gap period
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const ImVec2 a = pts[i - 1], b = pts[i];
    const float len = std::hypot(b.x - a.x, b.y - a.y);
    float s = 0;
    while (s < len) {
      const bool on = phase < dash;
      const float step = std::min(len - s, on ? dash - phase : dash + gap - phase);
      if (on) {
        const float t0 = s / len, t1 = (s + step) / len;
        // A polyline, not AddLine (which moves its ends by half a pixel): the dashes lie
        // on the same pixels as a solid curve through the same points.
        const ImVec2 seg[2] = {ImVec2(a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0),
                               ImVec2(a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1)};
        draw->AddPolyline(seg, 2, colour, ImDrawFlags_None, width);
      }
      s += step;
      phase = std::fmod(phase + step, dash + gap);
    }
  }
}

void curve(ImDrawList* draw, const PlotArea& area, const PlotCurve& c) {
  std::vector<ImVec2> run;  // the finite stretch being collected
  const auto flush = [&] {
    if (run.size() >= 2) {
      if (c.dashed)
        dashed_polyline(draw, run, c.colour, c.thickness);
      else
        draw->AddPolyline(run.data(), int(run.size()), c.colour, ImDrawFlags_None, c.thickness);
    }
    run.clear();
  };
  for (std::size_t i = 0; i < std::min(c.x.size(), c.y.size()); ++i) {
    if (!std::isfinite(c.y[i]) || !std::isfinite(c.x[i])) {
      flush();
      continue;
    }
    run.push_back(area.to_screen(c.x[i], c.y[i]));
  }
  if (run.size() == 1)  // a single point: a dot
    draw->AddCircleFilled(run[0], c.thickness + 1, c.colour);
  flush();
}

}  // namespace

ImVec2 PlotArea::to_screen(double x, double y) const {
  return ImVec2(float(lo.x + (x - x_lo) / (x_hi - x_lo) * (hi.x - lo.x)),
                float(hi.y - (y - y_lo) / (y_hi - y_lo) * (hi.y - lo.y)));
}

double PlotArea::x_at(float sx) const {
  return x_lo + (sx - lo.x) / double(hi.x - lo.x) * (x_hi - x_lo);
}

PlotArea draw_line_plot(ImDrawList* draw, ImVec2 lo, ImVec2 hi, const PlotAxes& axes,
                        const std::vector<PlotCurve>& curves) {
  PlotArea area;
  area.x_lo = axes.x_lo;
  area.x_hi = axes.x_hi;
  area.y_lo = axes.y_lo;
  area.y_hi = axes.y_hi;
  double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
  for (const PlotCurve& c : curves)
    for (std::size_t i = 0; i < std::min(c.x.size(), c.y.size()); ++i) {
      if (!std::isfinite(c.x[i]) || !std::isfinite(c.y[i])) continue;
      xmin = std::min(xmin, c.x[i]);
      xmax = std::max(xmax, c.x[i]);
      ymin = std::min(ymin, c.y[i]);
      ymax = std::max(ymax, c.y[i]);
    }
  if (!std::isfinite(area.x_lo) || !std::isfinite(area.x_hi)) {
    area.x_lo = xmin;
    area.x_hi = xmax;
    settle(area.x_lo, area.x_hi, 0);
  }
  if (!std::isfinite(area.y_lo) || !std::isfinite(area.y_hi)) {
    area.y_lo = ymin;
    area.y_hi = ymax;
    settle(area.y_lo, area.y_hi, 0.05);
  }

  const float font = ImGui::GetFontSize();
  const int y_count = std::clamp(int((hi.y - lo.y) / (2.5f * font)), 2, 8);
  const auto y_ticks = render::colorbar_ticks(area.y_lo, area.y_hi, false, y_count);
  float label_w = 0;
  for (const auto& t : y_ticks) label_w = std::max(label_w, ImGui::CalcTextSize(t.label.c_str()).x);
  // The y axis's name above the frame, the x axis's below the tick labels.
  area.lo = ImVec2(lo.x + label_w + 0.8f * font, lo.y + 1.6f * font);
  area.hi = ImVec2(hi.x - 0.8f * font, hi.y - 2.8f * font);
  if (area.hi.x - area.lo.x < 20 || area.hi.y - area.lo.y < 20) return area;

  draw->AddRectFilled(area.lo, area.hi, kPaper);
  draw->AddText(ImVec2(lo.x, lo.y), kInk, axes.y_label.c_str());
  for (const auto& t : y_ticks) {
    const float y = area.hi.y - t.t * (area.hi.y - area.lo.y);
    draw->AddLine(ImVec2(area.lo.x, y), ImVec2(area.hi.x, y), kGrid);
    draw->AddLine(ImVec2(area.lo.x - 4, y), ImVec2(area.lo.x, y), kInk);
    const float w = ImGui::CalcTextSize(t.label.c_str()).x;
    draw->AddText(ImVec2(area.lo.x - 6 - w, y - 0.5f * font), kInk, t.label.c_str());
  }
  float widest = 0;  // x tick labels may not overlap: as many as fit
  for (const auto& t : render::colorbar_ticks(area.x_lo, area.x_hi, false, 8))
    widest = std::max(widest, ImGui::CalcTextSize(t.label.c_str()).x);
  const int x_count = std::clamp(int((area.hi.x - area.lo.x) / (widest + 1.5f * font)), 2, 8);
  for (const auto& t : render::colorbar_ticks(area.x_lo, area.x_hi, false, x_count)) {
    const float x = area.lo.x + t.t * (area.hi.x - area.lo.x);
    draw->AddLine(ImVec2(x, area.lo.y), ImVec2(x, area.hi.y), kGrid);
    draw->AddLine(ImVec2(x, area.hi.y), ImVec2(x, area.hi.y + 4), kInk);
    const float w = ImGui::CalcTextSize(t.label.c_str()).x;
    draw->AddText(ImVec2(x - 0.5f * w, area.hi.y + 5), kInk, t.label.c_str());
  }
  const float xw = ImGui::CalcTextSize(axes.x_label.c_str()).x;
  draw->AddText(ImVec2(0.5f * (area.lo.x + area.hi.x - xw), area.hi.y + 5 + 1.2f * font), kInk,
                axes.x_label.c_str());
  draw->AddRect(area.lo, area.hi, kInk);

  // Curves without anti-aliasing: their pixels carry exactly their colour.
  const ImDrawListFlags flags = draw->Flags;
  draw->Flags &= ~(ImDrawListFlags_AntiAliasedLines | ImDrawListFlags_AntiAliasedLinesUseTex |
                   ImDrawListFlags_AntiAliasedFill);
  draw->PushClipRect(area.lo, area.hi, true);
  for (const PlotCurve& c : curves) curve(draw, area, c);
  draw->PopClipRect();
  // The legend in the upper right corner, one row a labelled curve.
  float row = area.lo.y + 0.4f * font;
  for (const PlotCurve& c : curves) {
    if (c.label.empty()) continue;
    const float w = ImGui::CalcTextSize(c.label.c_str()).x;
    const float x = area.hi.x - w - 3.2f * font;
    const std::vector<ImVec2> sample{ImVec2(x, row + 0.5f * font),
                                     ImVec2(x + 2.2f * font, row + 0.5f * font)};
    if (c.dashed)
      dashed_polyline(draw, sample, c.colour, c.thickness);
    else
      draw->AddPolyline(sample.data(), 2, c.colour, ImDrawFlags_None, c.thickness);
    draw->AddText(ImVec2(x + 2.6f * font, row), kInk, c.label.c_str());
    row += 1.2f * font;
  }
  draw->Flags = flags;
  return area;
}

PlotArea line_plot(const char* id, float height, const PlotAxes& axes,
                   const std::vector<PlotCurve>& curves) {
  const ImVec2 lo = ImGui::GetCursorScreenPos();
  const float width = std::max(ImGui::GetContentRegionAvail().x, 40.0f);
  ImGui::InvisibleButton(id, ImVec2(width, height));
  return draw_line_plot(ImGui::GetWindowDrawList(), lo, ImVec2(lo.x + width, lo.y + height), axes,
                        curves);
}

}  // namespace fluxview::app
