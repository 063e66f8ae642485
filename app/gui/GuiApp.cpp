// The window and its frame loop: events, the state read for the frame, the side bar of
// panels, the view, screenshots and recording. The panels are in their own files
// (Panel.hpp).
#include "app/gui/GuiApp.hpp"

#include <epoxy/gl.h>
#include <array>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <ratio>
#include <utility>
// GLFW after epoxy: epoxy provides the GL declarations.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "app/RunOptions.hpp"
#include "app/gui/DiagnosticsPanel.hpp"
#include "app/gui/LessonsPanel.hpp"
#include "app/gui/ParametersPanel.hpp"
#include "app/gui/ProbePanel.hpp"
#include "app/gui/RunPanel.hpp"
#include "app/gui/SteeringPanel.hpp"
#include "app/gui/ViewPanel.hpp"
#include "render/GlResources.hpp"
#include "render/Image.hpp"
#include "render/ViewRenderer.hpp"

namespace fluxview::app {

namespace {

std::string g_glfw_error;
std::string format_number(double t) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", t);
  return buf;
}
void on_glfw_error(int code, const char* what) {
  g_glfw_error = "GLFW error " + std::to_string(code) + ": " + what;
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
  auto output = std::make_unique<OutputPanel>();
  auto catalyst = std::make_unique<CatalystPanel>();
  auto steering = std::make_unique<SteeringPanel>();
  auto probes = std::make_unique<ProbePanel>();
  probes_ = probes.get();
  output_ = output.get();
  catalyst_ = catalyst.get();
  steering_ = steering.get();
  panels_.push_back(std::make_unique<RunPanel>());
  panels_.push_back(std::move(steering));
  panels_.push_back(std::make_unique<LessonsPanel>());
  panels_.push_back(std::make_unique<ParametersPanel>());
  panels_.push_back(std::make_unique<ViewPanel>());
  panels_.push_back(std::move(probes));
  panels_.push_back(std::make_unique<DiagnosticsPanel>());
  panels_.push_back(std::move(output));
  panels_.push_back(std::move(catalyst));
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

void GuiApp::reset_run() {
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
  const auto t0 = Clock::now();
  const std::int64_t step0 = session_.status.step;
  auto fps_t0 = Clock::now();
  int fps_frames = 0;
  while (!glfwWindowShouldClose(window_)) {
    const auto f0 = Clock::now();
    glfwPollEvents();
    font_.prepare(ui_scale_);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();

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
      sample_probes();
      catalyst_->control().offer(session_.solver());
      session_.release(state);
    }
    side_bar();

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
    const WindowToFramebuffer to_fb_pixels{to_fb, float(fbh) / float(std::max(wh, 1)), fbh};
    plot_area_.reset();
    if (run_line_ && one_dimensional()) {
      // A 1D run: a line plot with axes and the exact solution (ProfileView.hpp).
      const std::string text = title.scenario + "    t = " + format_number(title.time) +
                               " s    step " + std::to_string(title.step);
      plot_area_ =
          draw_run_line(*run_line_, text, ImVec2(scene_x / to_fb, 0), ImVec2(float(ww), float(wh)));
    } else {
      if (fbw - scene_x > 16)
        renderer_->draw(view_, int(scene_x), 0, fbw - int(scene_x), fbh, &title);
      probe_tooltip();
      PanelContext context = panel_context();
      probes_->use_in_view(context, to_fb_pixels.sx, to_fb_pixels.sy, fbh, steering_->armed());
    }
    tool_in_view(to_fb_pixels);

    ImGui::Render();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, fbw, fbh);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    ++frame;
    const bool last = frames > 0 && frame >= frames;
    if (output_->screenshot_requested) {
      output_->screenshot_requested = false;
      save_window_png(output_->screenshot_path);
    }
    if (output_->recorder.recording() && (stepped > 0 || output_->recorder.frames() == 0)) {
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      glReadBuffer(GL_BACK);
      if (const std::string why = output_->recorder.frame(fbw, fbh); !why.empty())
        output_->status = why;
    }
    if (last && !screenshot.empty() && !save_window_png(screenshot)) code = kExitFailure;
    if (last && export_probes_at_end_ && !export_probes()) code = kExitFailure;
    glfwSwapBuffers(window_);

    times_.frame_ms = std::chrono::duration<double, std::milli>(Clock::now() - f0).count();
    ++fps_frames;
    const double el = std::chrono::duration<double>(Clock::now() - fps_t0).count();
    if (el > 0.5) {
      times_.fps = fps_frames / el;
      fps_frames = 0;
      fps_t0 = Clock::now();
    }
    if (last) break;
  }
  if (frames > 0)
    report_scripted_run(frame, std::chrono::duration<double>(Clock::now() - t0).count(), step0);
  if (output_->recorder.recording())
    std::cerr << "fluxview gui: " << output_->recorder.stop() << "\n";
  if (!session_.message.empty()) std::cerr << "fluxview gui: " << session_.message << "\n";
  return code;
}

// A scripted session's (--exit-after-frames) frame rate and stroke cost, for scripts and
// the windowed measurements of docs/performance.md.
void GuiApp::report_scripted_run(std::int64_t frames, double seconds, std::int64_t step0) {
  auto state = session_.access(-1);
  const std::int64_t steps = session_.status.step - step0;
  const Session::StrokeCost strokes = session_.strokes;
  session_.release(state);
  char line[256];
  std::snprintf(line, sizeof line, "fluxview gui: %lld frames in %.2f s (%.1f fps), %lld steps",
                static_cast<long long>(frames), seconds, seconds > 0 ? frames / seconds : 0.0,
                static_cast<long long>(steps));
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  std::cout << line << ", drawn by " << (renderer ? renderer : "an unnamed GL");
  if (strokes.count > 0) {
    std::snprintf(line, sizeof line, "; %d tool strokes, %.3f ms on average, %.3f ms the longest",
                  strokes.count, strokes.total_ms / strokes.count, strokes.max_ms);
    std::cout << line;
  }
  std::cout << "\n";
}

void GuiApp::read_state() {
  Solver& s = session_.solver();
  // New pixels only when the state or the view changed.
  const std::string vj = render::to_json(view_).dump();
  if (needs_upload_ || vj != last_view_json_ || s.step() != drawn_step_) {
    try {
      const auto u0 = std::chrono::steady_clock::now();
      renderer_->update(s, view_, upload_path_);
      // Host time of the update (slice kernels or copies, the map or the wait for the
      // kernels), smoothed: what the Diagnostics panel shows as the slice cost.
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - u0).count();
      times_.update_ms = times_.update_ms > 0 ? 0.9 * times_.update_ms + 0.1 * ms : ms;
    } catch (const std::exception& e) {
      session_.message = e.what();
      view_.field.clear();
    }
    last_view_json_ = vj;
    drawn_step_ = s.step();
    needs_upload_ = false;
    // A 1D run: the whole line for its plot (a few thousand cells at most), and the exact
    // solution where the run is still the scenario's (no live change, no stroke).
    run_line_.reset();
    if (s.grid().active_dims() == 1 && !renderer_->field_name().empty()) try {
        run_line_ = read_run_line(s, session_.scenario(), renderer_->field_name(),
                                  !session_.journal().empty(), line_derived_);
      } catch (const std::exception& e) {
        session_.message = e.what();
      }
  }
}

void GuiApp::set_probes(const nlohmann::json& j) {
  probes_->probes().load_json(j);
  export_probes_at_end_ = true;
}

void GuiApp::sample_probes() {
  Probes& p = probes_->probes();
  try {
    p.sample(session_.solver(), renderer_->field_name());
  } catch (const std::exception& e) {
    // A field the run does not have (after a reset to another family): the view's field.
    session_.message = std::string("probes: ") + e.what();
    p.field.clear();
  }
}

bool GuiApp::export_probes() {
  // The state of the last frame, sampled whatever the worker was doing.
  auto state = session_.access(-1);
  sample_probes();
  session_.release(state);
  try {
    for (const std::string& f : probes_->probes().export_csv())
      std::cout << "fluxview gui: wrote " << f << "\n";
    return true;
  } catch (const std::exception& e) {
    std::cerr << "fluxview gui: probes: " << e.what() << "\n";
    return false;
  }
}

bool GuiApp::save_window_png(const std::string& path) {
  int fbw = 0, fbh = 0;
  glfwGetFramebufferSize(window_, &fbw, &fbh);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  try {
    render::write_png(path, render::read_pixels(fbw, fbh));
    output_->status = "saved " + path;
    return true;
  } catch (const std::exception& e) {
    output_->status = e.what();
    std::cerr << "fluxview gui: " << e.what() << "\n";
    return false;
  }
}

void GuiApp::handle_shortcuts() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureKeyboard) return;
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) session_.set_running(!session_.running());
  if (ImGui::IsKeyPressed(GLFW_KEY_S, false)) session_.step_once();
  if (ImGui::IsKeyPressed(GLFW_KEY_R, false)) reset_run();
  if (ImGui::IsKeyPressed(GLFW_KEY_P, false)) output_->screenshot_requested = true;
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

void GuiApp::tool_in_view(const WindowToFramebuffer& w) {
  // Reading where the brush is costs a wait for the GPU in the 3D view (a depth read):
  // only while a tool is armed.
  if (!steering_->armed() || ImGui::GetIO().WantCaptureMouse) return;
  const Grid& g = session_.solver().grid();
  std::optional<BrushPoint> brush;
  if (plot_area_)  // drawn this frame from run_line_
    brush = brush_on_plot(*plot_area_, g, run_line_->axis);
  else if (view_.mode == render::ViewMode::slice2d)
    brush = brush_in_slice(*renderer_, w);
  else
    brush = brush_in_scene(*renderer_, g, w);
  PanelContext context = panel_context();
  steering_->use_in_view(context, brush);
}

void GuiApp::arm_tool(const std::string& name) {
  PanelContext context = panel_context();
  steering_->arm(context, name);
}

PanelContext GuiApp::panel_context() {
  return PanelContext{.session = session_,
                      .view = view_,
                      .renderer = *renderer_,
                      .ui_scale = ui_scale_,
                      .upload_path = upload_path_,
                      .needs_upload = needs_upload_,
                      .times = times_,
                      .reset_run = [this] { reset_run(); }};
}

void GuiApp::side_bar() {
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
  PanelContext context = panel_context();
  for (const auto& p : panels_)
    if (ImGui::CollapsingHeader(p->title(),
                                p->open_at_start() ? ImGuiTreeNodeFlags_DefaultOpen : 0))
      p->draw(context);
  ImGui::End();
}

}  // namespace fluxview::app
