#pragma once
#include <memory>
#include <string>

namespace fluxview::render {

// A headless OpenGL 4.5 core context through EGL, for drawing without a display:
// `fluxview run --render-every`, tests, and the GPU machine. It tries, in order,
// the EGL device platform (EGL_EXT_platform_device: NVIDIA's driver, preferring the
// device that is CUDA device 0 so that CUDA-GL interop works), Mesa's surfaceless
// platform, and the default display. It draws into framebuffer objects only.
class EglContext {
 public:
  // Creates the context and makes it current on this thread. Throws std::runtime_error
  // saying what each platform answered when none gives a GL 4.5 core context.
  EglContext();
  ~EglContext();
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;

  void make_current();
  // "EGL device 0 (NVIDIA, CUDA device 0): 4.5.0 NVIDIA 580.x" and the like.
  const std::string& description() const { return description_; }

 private:
  struct State;
  std::unique_ptr<State> egl_;  // the display, context and surface
  std::string description_;
};

}  // namespace fluxview::render
