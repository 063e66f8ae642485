#include "app/gui/RunPanel.hpp"

#include <imgui.h>
#include <array>
#include <functional>
#include <string_view>
#include <vector>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>

#include "app/gui/Tooltips.hpp"
#include "sim/core/CudaRuntime.hpp"
#include "sim/core/Scenario.hpp"

namespace fluxview::app {

namespace {

// The pace and the scenario's end (docs/gui.md, steering a running simulation).
void pace_controls(Session& session) {
  // The pace: simulated seconds a second of wall time, on a logarithmic slider about the
  // run's dt (a tenth of a step to ten thousand steps a second).
  bool fastest = session.pace <= 0;
  if (ImGui::Checkbox("as fast as possible", &fastest))
    session.set_pace(fastest ? 0.0 : std::max(session.status.dt, 1e-300) * 60);
  help_marker(
      "Off: the run goes at the pace below, in simulated seconds a second of wall time, so a "
      "shock tube or a hot spot unfolds at a speed a class can follow. Whole steps are taken, "
      "so a paced run steps exactly as an unpaced one.");
  if (!fastest) {
    const double dt = std::max(session.status.dt, 1e-300);
    float steps_per_second = float(session.pace / dt);
    char shown[64];
    std::snprintf(shown, sizeof shown, "%.3g sim s / s", session.pace);
    if (ImGui::SliderFloat("pace", &steps_per_second, 0.1f, 10000.0f, shown,
                           ImGuiSliderFlags_Logarithmic))
      session.set_pace(double(steps_per_second) * dt);
    help_marker("about " + std::to_string(int(std::lround(session.pace / dt))) +
                " steps a second at the present dt");
  }
  ImGui::Checkbox("pause at the scenario's end", &session.stop_at_end);
  const ParamSet& p = session.scenario().params;
  const double until = p.get_real("run.until");
  help_marker(until > 0 ? "run.until = " + format_value(until) + " s"
                        : "run.steps = " + std::to_string(p.get_int("run.steps")));
}

}  // namespace

void RunPanel::draw(PanelContext& c) {
  Session& session = c.session;
  // Scenario, backend and precision take effect on reset, like every parameter.
  const std::string current = session.pending.name;
  if (ImGui::BeginCombo("scenario", current.c_str())) {
    for (const auto& b : builtin_scenarios()) {
      if (ImGui::Selectable(b.name.c_str(), b.name == current)) {
        try {
          session.choose_scenario(b.name);
        } catch (const std::exception& e) {
          session.message = e.what();
        }
      }
      if (ImGui::IsItemHovered()) {
        try {
          ImGui::SetTooltip("%s", parse_scenario(b.toml, b.name).description.c_str());
        } catch (...) {
        }
      }
    }
    ImGui::EndCombo();
  }
  help_marker(session.pending.description);
  int backend = session.pending_backend == BackendKind::cuda;
  const bool has_gpu = cuda::device_count() > 0;
  ImGui::RadioButton("cpu", &backend, 0);
  ImGui::SameLine();
  ImGui::BeginDisabled(!has_gpu);
  ImGui::RadioButton("cuda", &backend, 1);
  ImGui::EndDisabled();
  if (!has_gpu) help_marker("no CUDA device: " + cuda::no_device_reason());
  session.pending_backend = backend ? BackendKind::cuda : BackendKind::cpu;
  ImGui::SameLine();
  int prec = session.pending_precision == Precision::f64;
  ImGui::RadioButton("float", &prec, 0);
  ImGui::SameLine();
  ImGui::RadioButton("double", &prec, 1);
  session.pending_precision = prec ? Precision::f64 : Precision::f32;

  if (ImGui::Button(session.running() ? "Pause (space)" : "Run (space)",
                    ImVec2(130 * c.ui_scale, 0)))
    session.set_running(!session.running());
  ImGui::SameLine();
  if (ImGui::Button("Step (s)")) session.step_once();
  ImGui::SameLine();
  if (ImGui::Button("Reset (r)")) c.reset_run();
  help_marker("Restarts from t = 0 with the scenario, parameters, backend and precision set here.");

  ImGui::Checkbox("fit steps to frame budget", &session.fit_to_budget);
  help_marker(
      "As many steps per frame as fit in the budget, so the window stays smooth (60 fps needs "
      "budget + drawing under 16 ms). Off: a fixed number of steps per frame.");
  if (session.fit_to_budget) {
    float b = float(session.budget_ms);
    if (ImGui::SliderFloat("budget [ms]", &b, 1.0f, 100.0f, "%.0f")) session.budget_ms = b;
  } else {
    ImGui::SliderInt("steps per frame", &session.steps_per_frame, 1, 1000, "%d",
                     ImGuiSliderFlags_Logarithmic);
  }
  pace_controls(session);
  Solver& s = session.solver();  // grid, backend, precision: fixed until a reset
  ImGui::Text("step %lld   t = %.6g s   dt = %.3g s", static_cast<long long>(session.status.step),
              session.status.time, session.status.dt);
  const auto& n = s.grid().n;
  ImGui::Text("%s on %s (%s), grid %dx%dx%d", session.scenario().solver.c_str(),
              std::string(to_string(s.backend())).c_str(),
              std::string(to_string(s.precision())).c_str(), n[0], n[1], n[2]);
  ImGui::SliderFloat("UI scale", &c.ui_scale, 0.75f, 2.5f, "%.2f");
}

}  // namespace fluxview::app
