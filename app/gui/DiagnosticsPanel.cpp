#include "app/gui/DiagnosticsPanel.hpp"

#include <imgui.h>
#include <map>
#include <type_traits>
#include <vector>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>

#include "app/gui/Tooltips.hpp"
#include "render/ViewRenderer.hpp"

namespace fluxview::app {

namespace {

// Vertical lines on the plot just drawn, at the samples where a steering change took effect.
void change_markers(const Session& session, std::size_t samples) {
  if (samples < 2) return;
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (const Session::Marker& m : session.markers) {
    if (m.sample >= samples) continue;
    const float x = lo.x + (hi.x - lo.x) * float(m.sample) / float(samples - 1);
    draw->AddLine(ImVec2(x, lo.y), ImVec2(x, hi.y), IM_COL32(255, 200, 60, 200), 1.0f);
  }
}

}  // namespace

void DiagnosticsPanel::draw(PanelContext& c) {
  const Session& session = c.session;
  // On the CPU a worker thread steps beside the drawing, in chunks of its own length: its
  // time is not part of a frame's, and is not shown as if it were.
  if (session.threaded())
    ImGui::Text("%.0f fps (%.1f ms a frame); worker: %.1f ms a chunk", c.times.fps,
                c.times.frame_ms, session.last_step_ms);
  else
    ImGui::Text("%.0f fps (%.1f ms a frame, of which %.1f ms stepping)", c.times.fps,
                c.times.frame_ms, std::min(session.last_step_ms, c.times.frame_ms));
  ImGui::Text("%.4g steps/s   %.4g cell-updates/s", session.steps_per_second,
              session.cell_updates_per_second);
  // On the adaptive mesh: the blocks of each level now, in one line (the plots below hold
  // their history).
  if (const std::string levels = session.blocks_per_level(); !levels.empty()) {
    ImGui::Text("blocks per level: %s", levels.c_str());
    help_marker("The adaptive mesh's blocks at each level from 0, and all of them.");
  }
  if (session.strokes.count > 0) {
    ImGui::Text("tool strokes: %d, last %.2f ms, longest %.2f ms", session.strokes.count,
                session.strokes.last_ms, session.strokes.max_ms);
    help_marker(
        "Wall time of a stroke, from the click (or the steering file's step) to the changed "
        "state on the device, with the totals the tool reports.");
  }
  // How slices reach their textures, and why not by the preferred path where they do not.
  const render::SliceTexture& shown = c.renderer.shown_texture();
  ImGui::Text("slices: %s, %.3f ms an update%s", render::upload_path_name(shown.last_path()),
              c.times.update_ms, shown.interop_note().empty() ? "" : " (?)");
  if (!shown.interop_note().empty()) help_marker(shown.interop_note());
  if (ImGui::BeginCombo("upload path", render::upload_path_option(c.upload_path))) {
    for (render::UploadPath p : {render::UploadPath::automatic, render::UploadPath::shared,
                                 render::UploadPath::interop, render::UploadPath::host})
      if (ImGui::Selectable(render::upload_path_option(p), p == c.upload_path)) {
        c.upload_path = p;
        c.needs_upload = true;
      }
    ImGui::EndCombo();
  }
  help_marker(
      "How the slices and the volume of a CUDA run reach GL (--upload-path): auto takes shared "
      "memory, else a mapped texture, else the host; shared, map and host pin one path, which "
      "then fails loudly where it cannot be had (to compare them).");
  if (const auto* vol = c.renderer.volume(); vol && c.view.mode == render::ViewMode::slices3d &&
                                             (c.view.layers.volume || c.view.layers.iso)) {
    ImGui::Text("volume: %s%s%s", render::upload_path_name(vol->values().last_path()),
                vol->skipped() ? ", skipping empty bricks" : "",
                vol->values().note().empty() ? "" : " (?)");
    if (!vol->values().note().empty()) help_marker(vol->values().note());
  }
  for (const auto& [name, series] : session.history) {
    if (series.values.empty()) continue;
    const auto [lo, hi] = std::minmax_element(series.values.begin(), series.values.end());
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "%.6g %s", series.values.back(), series.unit.c_str());
    ImGui::TextUnformatted(name.c_str());
    ImGui::PlotLines(("##" + name).c_str(), series.values.data(), int(series.values.size()), 0,
                     overlay, *lo,
                     *hi + (*hi == *lo ? 1e-6f * std::max(1.0f, std::abs(*hi)) : 0.0f),
                     ImVec2(ImGui::GetContentRegionAvail().x, 48 * c.ui_scale));
    change_markers(session, series.values.size());
    help_marker(name + ": last " + std::to_string(series.values.size()) +
                " samples, about ten a second; from " + std::to_string(*lo) + " to " +
                std::to_string(*hi));
  }
}

}  // namespace fluxview::app
