#pragma once
#include <memory>

#include "render/EglContext.hpp"
#include "render/GlResources.hpp"
#include "render/Image.hpp"
#include "render/ViewRenderer.hpp"

namespace fluxview::render {

// Draws views of a solver into images without a display: an EGL context, an
// offscreen framebuffer and a ViewRenderer.
class OffscreenRenderer {
 public:
  OffscreenRenderer(int width, int height);
  // `title`: written along the top of the picture (nullptr: none).
  Image render(const Solver& s, const ViewSettings& vs, UploadPath path = UploadPath::automatic,
               const FrameTitle* title = nullptr);
  // The same picture from slices gathered to rank 0 of an MPI run.
  Image render(const GatheredSlices& g, const ViewSettings& vs, const FrameTitle* title = nullptr);
  ViewRenderer& renderer() { return *renderer_; }
  const EglContext& context() const { return context_; }
  int width() const { return target_.width(); }
  int height() const { return target_.height(); }

 private:
  Image draw(const ViewSettings& vs, const FrameTitle* title);
  EglContext context_;
  Framebuffer target_;
  std::unique_ptr<ViewRenderer> renderer_;
};

}  // namespace fluxview::render
