#pragma once
#include <memory>

#include "render/EglContext.hpp"
#include "render/GlResources.hpp"
#include "render/Image.hpp"
#include "render/SliceRenderer.hpp"

namespace fluxview::render {

// Draws views of a solver into images without a display: an EGL context, an
// offscreen framebuffer and a SliceRenderer.
class OffscreenRenderer {
 public:
  OffscreenRenderer(int width, int height);
  Image render(const Solver& s, const ViewSettings& vs, UploadPath path = UploadPath::automatic);
  // The same picture from slices gathered to rank 0 of an MPI run.
  Image render(const GatheredSlices& g, const ViewSettings& vs);
  SliceRenderer& renderer() { return *renderer_; }
  const EglContext& context() const { return context_; }

 private:
  Image draw(const ViewSettings& vs);
  EglContext context_;
  Framebuffer target_;
  std::unique_ptr<SliceRenderer> renderer_;
};

}  // namespace fluxview::render
