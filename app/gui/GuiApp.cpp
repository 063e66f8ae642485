#include "app/gui/GuiApp.hpp"

#include <epoxy/gl.h>
#include <array>
#include <exception>
#include <initializer_list>
#include <map>
#include <mutex>
#include <optional>
#include <ratio>
#include <string_view>
#include <type_traits>
// GLFW after epoxy: epoxy provides the GL declarations.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "app/RunOptions.hpp"
#include "app/gui/ScenePanel.hpp"
#include "fileio/AtomicFile.hpp"
#include "fileio/Folders.hpp"
#include "render/GlResources.hpp"
#include "render/Image.hpp"
#include "render/ViewRenderer.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/CudaRuntime.hpp"
#include "sim/core/SolverFamily.hpp"

namespace fluxview::app {

namespace {

std::string g_glfw_error;
void on_glfw_error(int code, const char* what) {
  g_glfw_error = "GLFW error " + std::to_string(code) + ": " + what;
}

// A lesson: a scenario, a few overrides sized for a laptop, and the view that shows it.
struct Preset {
  const char* label;
  const char* scenario;
  std::vector<std::string> overrides;
  render::ViewMode mode;
  const char* lesson;
};

const std::vector<Preset>& presets() {
  static const std::vector<Preset> p = {
      {"Diffusion: a hot spot spreads",
       "heat/hot-spot",
       {"grid.n=64"},
       render::ViewMode::slices3d,
       "Heat flows down the gradient: the peak falls and the spot widens like sqrt(alpha t).\n"
       "Watch max(T) in the diagnostics fall while the mean stays put until heat reaches the "
       "walls."},
      {"Steady state: a hot wall",
       "heat/hot-wall",
       {"grid.nx=96", "grid.ny=96", "grid.nz=1"},
       render::ViewMode::slice2d,
       "One wall at 100 degC, three at 0: the field relaxes to the solution of Laplace's "
       "equation.\n"
       "The run pauses by itself when dT/dt falls below heat.steady_tol."},
      {"Exact solution: a sine mode decays",
       "heat/sine-decay",
       {"grid.n=32"},
       render::ViewMode::slice2d,
       "A single Fourier mode keeps its shape and decays as exp(-alpha |k|^2 t).\n"
       "Try heat.sine_mx = 2: four times faster decay."},
      {"Shock tube (Sod), 1D",
       "fv/sod",
       {},
       render::ViewMode::slice2d,
       "A diaphragm bursts: a shock, a contact and a rarefaction run apart (exact Riemann "
       "solution).\n"
       "A 1D run: the View section plots the profile along x."},
      {"Kelvin-Helmholtz billows (2D)",
       "fv/kelvin-helmholtz",
       {"grid.nx=128", "grid.ny=128"},
       render::ViewMode::slice2d,
       "Two streams sliding past each other: small ripples roll up into vortices."},
      {"Blast wave (Sedov-Taylor)",
       "fv/sedov",
       {"grid.n=48"},
       render::ViewMode::slices3d,
       "A point explosion: the shock radius grows as t^(2/5). Show the field rho."},
      {"Shear layers roll up (fd)",
       "fd/shear-layers",
       {"grid.n=48"},
       render::ViewMode::slices3d,
       "Two shear layers in a periodic box roll up into Kelvin-Helmholtz vortices."},
      {"Radial explosion (fd)",
       "fd/radial-explosion",
       {"grid.n=48"},
       render::ViewMode::slices3d,
       "A Gaussian shell of outward velocity: the flow stays spherically symmetric."},
  };
  return p;
}

bool is_builtin(const std::string& name) {
  for (const auto& b : builtin_scenarios())
    if (b.name == name) return true;
  return false;
}

void help_marker(const std::string& text) {
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

std::string tooltip_of(const ParamSpec& s) {
  std::string t = s.key + "\n" + s.description;
  if (!s.unit.empty()) t += "\nunit: " + s.unit;
  t += "\nallowed: " + s.allowed() + "\ndefault: " + format_value(s.default_value);
  return t;
}

}  // namespace

GuiApp::GuiApp(const Scenario& sc, BackendKind backend, Precision precision)
    : session_(sc, backend, precision) {
  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) throw std::runtime_error("cannot start GLFW: " + g_glfw_error);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  window_ = glfwCreateWindow(1400, 860, ("fluxview - " + sc.name).c_str(), nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    throw std::runtime_error("cannot open a window with OpenGL 4.5 core: " + g_glfw_error);
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(1);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // layout is fixed; nothing to remember
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 450");
  renderer_ = std::make_unique<render::ViewRenderer>();
  // A 2D problem is seen along z; a 3D one starts with the three slices.
  view_.mode = session_.solver().grid().active_dims() == 3 ? render::ViewMode::slices3d
                                                           : render::ViewMode::slice2d;
}

GuiApp::~GuiApp() {
  renderer_.reset();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
}

void GuiApp::do_reset() {
  try {
    session_.reset();
    view_.field.clear();  // the new solver may have other fields
    needs_upload_ = true;
  } catch (const std::exception& e) {
    session_.message = std::string("reset refused: ") + e.what();
  }
}

int GuiApp::run(std::int64_t frames, const std::string& screenshot) {
  using Clock = std::chrono::steady_clock;
  if (frames > 0) {
    glfwSwapInterval(0);  // scripted: as fast as it goes
    session_.set_running(true);
  }
  std::int64_t frame = 0;
  int code = kExitOk;
  auto fps_t0 = Clock::now();
  int fps_frames = 0;
  while (!glfwWindowShouldClose(window_)) {
    const auto f0 = Clock::now();
    glfwPollEvents();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    ImGui::GetIO().FontGlobalScale = ui_scale_;

    handle_shortcuts();
    const std::int64_t stepped = session_.frame_steps();
    // Read the state for this frame: diagnostics, slices, the 1D profile. On the CPU
    // backend the worker pauses after its chunk; a step longer than the wait leaves
    // the last frame's pictures in place rather than stalling the window.
    auto state = session_.access(session_.threaded() ? 4.0 : -1.0);
    if (state.owns_lock()) {
      try {
        session_.sample_diagnostics();
      } catch (const std::exception& e) {
        session_.message = e.what();
      }
      read_state();
      catalyst_.offer(session_.solver());
      session_.release(state);
    }
    panel();

    int fbw = 0, fbh = 0, ww = 1, wh = 1;
    glfwGetFramebufferSize(window_, &fbw, &fbh);
    glfwGetWindowSize(window_, &ww, &wh);
    const float to_fb = float(fbw) / float(std::max(ww, 1));
    const float scene_x = std::min(panel_width_ * ui_scale_ * to_fb, fbw * 0.6f);
    handle_scene_mouse(scene_x / to_fb, (fbw - scene_x) / to_fb);

    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, fbw, fbh);
    glClearColor(0.1f, 0.1f, 0.11f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    // The view carries what it shows along its top, as headless frames do: scenario,
    // field and unit, simulated time, step.
    const render::FrameTitle title{session_.scenario().name, session_.status.time,
                                   session_.status.step};
    if (fbw - scene_x > 16)
      renderer_->draw(view_, int(scene_x), 0, fbw - int(scene_x), fbh, &title);
    probe_tooltip();

    ImGui::Render();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, fbw, fbh);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    ++frame;
    const bool last = frames > 0 && frame >= frames;
    if (screenshot_requested_) {
      screenshot_requested_ = false;
      save_window_png(screenshot_path_);
    }
    if (recorder_.recording() && (stepped > 0 || recorder_.frames() == 0)) {
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      glReadBuffer(GL_BACK);
      if (const std::string why = recorder_.frame(fbw, fbh); !why.empty()) status_ = why;
    }
    if (last && !screenshot.empty() && !save_window_png(screenshot)) code = kExitFailure;
    glfwSwapBuffers(window_);

    frame_ms_ = std::chrono::duration<double, std::milli>(Clock::now() - f0).count();
    ++fps_frames;
    const double el = std::chrono::duration<double>(Clock::now() - fps_t0).count();
    if (el > 0.5) {
      fps_ = fps_frames / el;
      fps_frames = 0;
      fps_t0 = Clock::now();
    }
    if (last) break;
  }
  if (recorder_.recording()) std::cerr << "fluxview gui: " << recorder_.stop() << "\n";
  if (!session_.message.empty()) std::cerr << "fluxview gui: " << session_.message << "\n";
  return code;
}

void GuiApp::read_state() {
  Solver& s = session_.solver();
  // New pixels only when the state or the view changed.
  const std::string vj = render::to_json(view_).dump();
  if (needs_upload_ || vj != last_view_json_ || s.step() != drawn_step_) {
    try {
      const auto u0 = std::chrono::steady_clock::now();
      renderer_->update(s, view_);
      // Host time of the update (slice kernels or copies, the map or the wait for the
      // kernels), smoothed: what the Diagnostics panel shows as the slice cost.
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - u0).count();
      update_ms_ = update_ms_ > 0 ? 0.9 * update_ms_ + 0.1 * ms : ms;
    } catch (const std::exception& e) {
      session_.message = e.what();
      view_.field.clear();
    }
    last_view_json_ = vj;
    drawn_step_ = s.step();
    needs_upload_ = false;
    // A 1D run: the whole line for the profile plot (a few thousand cells at most).
    profile_.clear();
    if (s.grid().active_dims() == 1) {
      const HostArray h = gather_interior(s.view(renderer_->field_name()));
      profile_.resize(std::size_t(h.count()));
      for (std::int64_t i = 0; i < h.count(); ++i) profile_[std::size_t(i)] = float(h.at(i));
    }
  }
}

bool GuiApp::save_window_png(const std::string& path) {
  int fbw = 0, fbh = 0;
  glfwGetFramebufferSize(window_, &fbw, &fbh);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  try {
    render::write_png(path, render::read_pixels(fbw, fbh));
    status_ = "saved " + path;
    return true;
  } catch (const std::exception& e) {
    status_ = e.what();
    std::cerr << "fluxview gui: " << e.what() << "\n";
    return false;
  }
}

void GuiApp::handle_shortcuts() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureKeyboard) return;
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) session_.set_running(!session_.running());
  if (ImGui::IsKeyPressed(GLFW_KEY_S, false)) session_.step_once();
  if (ImGui::IsKeyPressed(GLFW_KEY_R, false)) do_reset();
  if (ImGui::IsKeyPressed(GLFW_KEY_P, false)) screenshot_requested_ = true;
}

void GuiApp::handle_scene_mouse(float scene_x, float scene_w) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureMouse || io.MousePos.x < scene_x || scene_w <= 0) return;
  if (view_.mode != render::ViewMode::slices3d) return;
  // Orbit: drag turns the box, the wheel moves the camera in and out.
  if (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0.0f) && !io.KeyShift) {
    view_.yaw -= io.MouseDelta.x * 0.008f;
    view_.pitch = std::clamp(view_.pitch + io.MouseDelta.y * 0.008f, -1.5f, 1.5f);
  }
  if (io.MouseWheel != 0)
    view_.distance = std::clamp(view_.distance * std::pow(0.9f, io.MouseWheel), 0.6f, 8.0f);
  // Shift-click: streamlines seeded around the point under the cursor.
  if (view_.layers.lines && io.KeyShift && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    int fbw = 0, fbh = 0, ww = 1, wh = 1;
    glfwGetFramebufferSize(window_, &fbw, &fbh);
    glfwGetWindowSize(window_, &ww, &wh);
    if (const auto p = renderer_->pick(io.MousePos.x * fbw / double(ww),
                                       fbh - io.MousePos.y * fbh / double(wh))) {
      view_.lines.seed = render::SeedKind::point;
      view_.lines.seed_point = *p;
    }
  }
}

void GuiApp::probe_tooltip() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureMouse || view_.mode != render::ViewMode::slice2d) return;
  int fbw = 0, fbh = 0, ww = 1, wh = 1;
  glfwGetFramebufferSize(window_, &fbw, &fbh);
  glfwGetWindowSize(window_, &ww, &wh);
  const double fx = io.MousePos.x * fbw / double(ww), fy = fbh - io.MousePos.y * fbh / double(wh);
  const auto p = renderer_->probe(fx, fy);
  if (!p) return;
  ImGui::BeginTooltip();
  ImGui::Text("%s = %.6g %s", renderer_->field_name().c_str(), p->value,
              renderer_->field_unit().c_str());
  ImGui::Text("cell (%d, %d, %d)", p->cell[0], p->cell[1], p->cell[2]);
  ImGui::Text("x = %.4g, y = %.4g, z = %.4g m", p->position[0], p->position[1], p->position[2]);
  ImGui::EndTooltip();
}

void GuiApp::panel() {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  int ww = 0, wh = 0;
  glfwGetWindowSize(window_, &ww, &wh);
  ImGui::SetNextWindowSize(ImVec2(panel_width_ * ui_scale_, float(wh)));
  ImGui::Begin("fluxview", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
  if (!session_.message.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 170, 90, 255));
    ImGui::TextWrapped("%s", session_.message.c_str());
    ImGui::PopStyleColor();
    if (ImGui::SmallButton("dismiss")) session_.message.clear();
    ImGui::Separator();
  }
  if (ImGui::CollapsingHeader("Run", ImGuiTreeNodeFlags_DefaultOpen)) run_section();
  if (ImGui::CollapsingHeader("Teaching presets")) presets_section();
  if (ImGui::CollapsingHeader("Parameters")) parameter_section();
  if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) view_section();
  if (ImGui::CollapsingHeader("Diagnostics", ImGuiTreeNodeFlags_DefaultOpen)) diagnostics_section();
  if (ImGui::CollapsingHeader("Output")) output_section();
  if (ImGui::CollapsingHeader("Catalyst")) catalyst_section();
  ImGui::End();
}

void GuiApp::run_section() {
  // Scenario, backend and precision take effect on reset, like every parameter.
  const std::string current = session_.pending.name;
  if (ImGui::BeginCombo("scenario", current.c_str())) {
    for (const auto& b : builtin_scenarios()) {
      if (ImGui::Selectable(b.name.c_str(), b.name == current)) {
        try {
          session_.choose_scenario(b.name);
        } catch (const std::exception& e) {
          session_.message = e.what();
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
  help_marker(session_.pending.description);
  int backend = session_.pending_backend == BackendKind::cuda;
  const bool has_gpu = cuda::device_count() > 0;
  ImGui::RadioButton("cpu", &backend, 0);
  ImGui::SameLine();
  ImGui::BeginDisabled(!has_gpu);
  ImGui::RadioButton("cuda", &backend, 1);
  ImGui::EndDisabled();
  if (!has_gpu) help_marker("no CUDA device: " + cuda::no_device_reason());
  session_.pending_backend = backend ? BackendKind::cuda : BackendKind::cpu;
  ImGui::SameLine();
  int prec = session_.pending_precision == Precision::f64;
  ImGui::RadioButton("float", &prec, 0);
  ImGui::SameLine();
  ImGui::RadioButton("double", &prec, 1);
  session_.pending_precision = prec ? Precision::f64 : Precision::f32;

  if (ImGui::Button(session_.running() ? "Pause (space)" : "Run (space)",
                    ImVec2(130 * ui_scale_, 0)))
    session_.set_running(!session_.running());
  ImGui::SameLine();
  if (ImGui::Button("Step (s)")) session_.step_once();
  ImGui::SameLine();
  if (ImGui::Button("Reset (r)")) do_reset();
  help_marker("Restarts from t = 0 with the scenario, parameters, backend and precision set here.");

  ImGui::Checkbox("fit steps to frame budget", &session_.fit_to_budget);
  help_marker(
      "As many steps per frame as fit in the budget, so the window stays smooth (60 fps needs "
      "budget + drawing under 16 ms). Off: a fixed number of steps per frame.");
  if (session_.fit_to_budget) {
    float b = float(session_.budget_ms);
    if (ImGui::SliderFloat("budget [ms]", &b, 1.0f, 100.0f, "%.0f")) session_.budget_ms = b;
  } else {
    ImGui::SliderInt("steps per frame", &session_.steps_per_frame, 1, 1000, "%d",
                     ImGuiSliderFlags_Logarithmic);
  }
  Solver& s = session_.solver();  // grid, backend, precision: fixed until a reset
  ImGui::Text("step %lld   t = %.6g s   dt = %.3g s", static_cast<long long>(session_.status.step),
              session_.status.time, session_.status.dt);
  const auto& n = s.grid().n;
  ImGui::Text("%s on %s (%s), grid %dx%dx%d", session_.scenario().solver.c_str(),
              std::string(to_string(s.backend())).c_str(),
              std::string(to_string(s.precision())).c_str(), n[0], n[1], n[2]);
  ImGui::SliderFloat("UI scale", &ui_scale_, 0.75f, 2.5f, "%.2f");
}

void GuiApp::presets_section() {
  ImGui::TextWrapped(
      "Ready-made runs for a class: each loads a scenario sized for a laptop, resets and "
      "chooses the view. Press space to start.");
  for (const Preset& p : presets()) {
    if (!is_builtin(p.scenario)) continue;
    if (ImGui::Button(p.label, ImVec2(-1, 0))) {
      try {
        session_.choose_scenario(p.scenario, p.overrides);
        session_.reset();
        view_ = render::ViewSettings{};
        view_.mode = p.mode;
        needs_upload_ = true;
      } catch (const std::exception& e) {
        session_.message = std::string(p.label) + ": " + e.what();
      }
    }
    help_marker(std::string(p.scenario) + "\n" + p.lesson);
  }
}

void GuiApp::parameter_section() {
  ImGui::TextWrapped(
      "Edits apply on Reset. Hover a name for its meaning, unit and range; * marks a changed "
      "value.");
  ParamSet& ps = session_.pending.params;
  const ParamSet& active = session_.scenario().params;
  std::string group;
  bool open = false;
  static std::string error;
  for (const ParamSpec& spec : ps.specs()) {
    const std::string prefix = spec.key.substr(0, spec.key.find('.'));
    if (prefix != group) {
      if (open) ImGui::TreePop();
      group = prefix;
      open = ImGui::TreeNodeEx(
          group.c_str(), group == "heat" || group == "grid" ? ImGuiTreeNodeFlags_DefaultOpen : 0);
    }
    if (!open) continue;
    const bool changed = active.has(spec.key) &&
                         format_value(active.get(spec.key)) != format_value(ps.get(spec.key));
    const std::string label = spec.key.substr(prefix.size() + 1) + (changed ? " *" : "") +
                              (spec.unit.empty() ? "" : " [" + spec.unit + "]") + "##" + spec.key;
    try {
      switch (spec.type) {
        case ParamType::integer: {
          std::int64_t v = ps.get_int(spec.key);
          if (ImGui::InputScalar(label.c_str(), ImGuiDataType_S64, &v, nullptr, nullptr, "%lld",
                                 ImGuiInputTextFlags_EnterReturnsTrue))
            ps.assign(spec.key, v, "GUI");
          break;
        }
        case ParamType::real: {
          double v = ps.get_real(spec.key);
          if (ImGui::InputDouble(label.c_str(), &v, 0, 0, "%.6g",
                                 ImGuiInputTextFlags_EnterReturnsTrue))
            ps.assign(spec.key, v, "GUI");
          break;
        }
        case ParamType::boolean: {
          bool v = ps.get_bool(spec.key);
          if (ImGui::Checkbox(label.c_str(), &v)) ps.assign(spec.key, v, "GUI");
          break;
        }
        case ParamType::choice: {
          const std::string v = ps.get_string(spec.key);
          if (ImGui::BeginCombo(label.c_str(), v.c_str())) {
            for (const auto& c : spec.choices)
              if (ImGui::Selectable(c.c_str(), c == v)) ps.assign(spec.key, c, "GUI");
            ImGui::EndCombo();
          }
          break;
        }
        case ParamType::text: {
          std::string v = ps.get_string(spec.key);
          if (ImGui::InputText(label.c_str(), &v, ImGuiInputTextFlags_EnterReturnsTrue))
            ps.assign(spec.key, v, "GUI");
          break;
        }
      }
      help_marker(tooltip_of(spec));
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  if (open) ImGui::TreePop();
  if (!error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 120, 120, 255));
    ImGui::TextWrapped("%s", error.c_str());
    ImGui::PopStyleColor();
    if (ImGui::SmallButton("ok")) error.clear();
  }
}

void GuiApp::view_section() {
  Solver& s = session_.solver();
  const auto fields = render::ViewRenderer::viewable_fields(s);
  const std::string shown = view_.field.empty() ? fields.at(0).name : view_.field;
  if (ImGui::BeginCombo("field", shown.c_str())) {
    for (const auto& f : fields) {
      if (ImGui::Selectable(f.name.c_str(), f.name == shown)) view_.field = f.name;
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s [%s]", f.description.c_str(), f.unit.c_str());
    }
    ImGui::EndCombo();
  }
  int mode = view_.mode == render::ViewMode::slices3d;
  ImGui::RadioButton("2D slice", &mode, 0);
  ImGui::SameLine();
  ImGui::RadioButton("3D view", &mode, 1);
  view_.mode = mode ? render::ViewMode::slices3d : render::ViewMode::slice2d;
  if (view_.mode == render::ViewMode::slice2d) {
    ImGui::Text("normal");
    for (int a = 0; a < 3; ++a) {
      ImGui::SameLine();
      ImGui::RadioButton(a == 0 ? "x" : a == 1 ? "y" : "z", &view_.axis, a);
    }
    const char* names[3] = {"x position", "y position", "z position"};
    ImGui::SliderFloat(names[view_.axis], &view_.position[view_.axis], 0.0f, 1.0f, "%.3f");
  } else {
    scene_panel(view_, fields, ui_scale_);
    ImGui::SliderAngle("yaw", &view_.yaw, -180, 180);
    ImGui::SliderAngle("pitch", &view_.pitch, -85, 85);
    ImGui::SliderFloat("distance", &view_.distance, 0.6f, 8.0f, "%.2f");
    help_marker("Or drag in the view to turn the box, and use the wheel to come closer.");
  }
  // With the volume shown, colormap and log scale sit in its transfer-function editor.
  const bool in_editor = view_.mode == render::ViewMode::slices3d && view_.layers.volume;
  if (!in_editor && ImGui::BeginCombo("colormap", view_.colormap.c_str())) {
    for (const auto& c : render::colormap_names())
      if (ImGui::Selectable(c.c_str(), c == view_.colormap)) view_.colormap = c;
    ImGui::EndCombo();
  }
  ImGui::Checkbox("auto range", &view_.auto_range);
  help_marker(
      "On: the field's current min and max. Off: the fixed range below (compare runs, or keep "
      "colours from drifting as a field decays).");
  if (!view_.auto_range) {
    ImGui::InputDouble("min", &view_.lo, 0, 0, "%.6g");
    ImGui::InputDouble("max", &view_.hi, 0, 0, "%.6g");
  } else if (ImGui::SmallButton("freeze current range")) {
    view_.auto_range = false;
    view_.lo = renderer_->lo();
    view_.hi = renderer_->hi();
  }
  if (!in_editor) {
    ImGui::Checkbox("log scale", &view_.log_scale);
    help_marker(
        "Colours by log(value); a bottom at or below 0 is raised to six decades under the top.");
    ImGui::SameLine();
  }
  ImGui::Checkbox("colour bar", &view_.colorbar);
  if (view_.mode == render::ViewMode::slice2d)
    ImGui::TextDisabled("hover the slice for the value under the cursor");
  // A 1D run reads best as a curve (read_state copies the line).
  if (!profile_.empty())
    ImGui::PlotLines("##profile", profile_.data(), int(profile_.size()), 0,
                     ("profile of " + shown).c_str(), FLT_MAX, FLT_MAX,
                     ImVec2(ImGui::GetContentRegionAvail().x, 140 * ui_scale_));
}

void GuiApp::diagnostics_section() {
  ImGui::Text("%.0f fps (%.1f ms a frame, %.1f ms stepping)", fps_, frame_ms_,
              session_.last_step_ms);
  ImGui::Text("%.4g steps/s   %.4g cell-updates/s", session_.steps_per_second,
              session_.cell_updates_per_second);
  // How slices reach their textures, and why not by the preferred path where they do not.
  const render::SliceTexture& shown = renderer_->shown_texture();
  ImGui::Text("slices: %s, %.3f ms an update%s", render::upload_path_name(shown.last_path()),
              update_ms_, shown.interop_note().empty() ? "" : " (?)");
  if (!shown.interop_note().empty()) help_marker(shown.interop_note());
  if (const auto* vol = renderer_->volume(); vol && view_.mode == render::ViewMode::slices3d &&
                                             (view_.layers.volume || view_.layers.iso)) {
    ImGui::Text("volume: %s%s%s", render::upload_path_name(vol->values().last_path()),
                vol->skipped() ? ", skipping empty bricks" : "",
                vol->values().note().empty() ? "" : " (?)");
    if (!vol->values().note().empty()) help_marker(vol->values().note());
  }
  for (const auto& [name, series] : session_.history) {
    if (series.values.empty()) continue;
    const auto [lo, hi] = std::minmax_element(series.values.begin(), series.values.end());
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "%.6g %s", series.values.back(), series.unit.c_str());
    ImGui::TextUnformatted(name.c_str());
    ImGui::PlotLines(("##" + name).c_str(), series.values.data(), int(series.values.size()), 0,
                     overlay, *lo,
                     *hi + (*hi == *lo ? 1e-6f * std::max(1.0f, std::abs(*hi)) : 0.0f),
                     ImVec2(ImGui::GetContentRegionAvail().x, 48 * ui_scale_));
    help_marker(name + ": last " + std::to_string(series.values.size()) +
                " samples, about ten a second; from " + std::to_string(*lo) + " to " +
                std::to_string(*hi));
  }
}

void GuiApp::output_section() {
  ImGui::InputText("screenshot", &screenshot_path_);
  ImGui::SameLine();
  if (ImGui::Button("save##shot")) screenshot_requested_ = true;
  help_marker("The whole window as a PNG (key p).");
  ImGui::InputText("record to", &record_dir_);
  ImGui::SameLine();
  if (ImGui::Button(recorder_.recording() ? "stop##rec" : "record##rec"))
    status_ = recorder_.recording() ? recorder_.stop() : recorder_.start(record_dir_);
  help_marker(
      "The window for every frame in which the run stepped: into a film where the name ends "
      "in .mp4, .mkv, .mov or .avi, else into that folder as frame_000000.png, ...");
  ImGui::InputText("view file", &view_path_);
  if (ImGui::Button("save view")) {
    try {
      const std::string text = render::to_json(view_).dump(2);
      write_file_atomic(view_path_, [&](std::ostream& out) { out << text << "\n"; });
      status_ = "view saved to " + view_path_;
    } catch (const std::exception& e) {
      status_ = e.what();
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("load view")) {
    try {
      std::ifstream in(view_path_);
      if (!in) throw std::runtime_error("cannot read " + view_path_);
      view_ = render::view_settings_from_json(nlohmann::json::parse(in));
      status_ = "view loaded from " + view_path_;
    } catch (const std::exception& e) {
      status_ = e.what();
    }
  }
  ImGui::InputText("snapshot dir", &snapshot_dir_);
  ImGui::SameLine();
  if (ImGui::Button("write##snap")) {
    try {
      auto lock = session_.access(-1);
      try {
        status_ = "wrote " + session_.write_snapshot(snapshot_dir_);
      } catch (...) {
        session_.release(lock);
        throw;
      }
      session_.release(lock);
    } catch (const std::exception& e) {
      status_ = e.what();
    }
  }
  help_marker("Every field at this step as VTK ImageData (.vti) plus series.pvd, for ParaView.");
  if (!status_.empty()) ImGui::TextWrapped("%s", status_.c_str());
}

void GuiApp::catalyst_section() {
  if (!CatalystControl::available()) {
    ImGui::TextDisabled("this build has no Catalyst (ParaView 5.11 was not found)");
    return;
  }
  ImGui::InputText("script", &catalyst_script_);
  ImGui::SameLine();
  if (ImGui::Button("load##catalyst")) {
    const std::string error = catalyst_.load(catalyst_script_);
    catalyst_message_ = error.empty() ? "loaded " + catalyst_script_ : error;
  }
  help_marker(
      "A ParaView Catalyst pipeline (Python): the examples in assets/catalyst/ or one saved "
      "with ParaView's File > Save Catalyst State. It runs inside the simulation "
      "(docs/insitu.md).");
  int every = int(catalyst_.every);
  if (ImGui::InputInt("every N steps", &every)) catalyst_.every = std::max(1, every);
  ImGui::InputText("output dir", &catalyst_.output_dir);
  help_marker(
      "Where the example scripts write (FLUXVIEW_CATALYST_OUTPUT); set it before the first load.");
  const auto scripts = catalyst_.status();
  if (!scripts.empty() &&
      ImGui::BeginTable("catalyst", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("on");
    ImGui::TableSetupColumn("script");
    ImGui::TableSetupColumn("runs");
    ImGui::TableSetupColumn("last step");
    ImGui::TableSetupColumn("last ms");
    ImGui::TableHeadersRow();
    for (std::size_t i = 0; i < scripts.size(); ++i) {
      const auto& s = scripts[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      bool on = s.enabled && !s.failed;
      ImGui::BeginDisabled(s.failed);
      if (ImGui::Checkbox(("##on" + std::to_string(i)).c_str(), &on)) catalyst_.set_enabled(i, on);
      ImGui::EndDisabled();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(std::filesystem::path(s.script).filename().string().c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", s.script.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%lld", static_cast<long long>(s.runs));
      ImGui::TableNextColumn();
      if (s.last_step >= 0)
        ImGui::Text("%lld", static_cast<long long>(s.last_step));
      else
        ImGui::TextDisabled("-");
      ImGui::TableNextColumn();
      ImGui::Text("%.1f", s.last_seconds * 1e3);
    }
    ImGui::EndTable();
    for (const auto& s : scripts)
      if (!s.last_error.empty())
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s failed and was dropped:\n%s",
                           std::filesystem::path(s.script).filename().string().c_str(),
                           s.last_error.c_str());
  }
  if (!catalyst_message_.empty()) ImGui::TextWrapped("%s", catalyst_message_.c_str());
}

}  // namespace fluxview::app
