#include "render/OffscreenRenderer.hpp"

namespace fluxview::render {

OffscreenRenderer::OffscreenRenderer(int width, int height)
    : target_(width, height), renderer_(std::make_unique<ViewRenderer>()) {}

Image OffscreenRenderer::render(const Solver& s, const ViewSettings& vs, UploadPath path,
                                const FrameTitle* title) {
  context_.make_current();
  renderer_->update(s, vs, path);
  return draw(vs, title);
}

Image OffscreenRenderer::render(const GatheredSlices& g, const ViewSettings& vs,
                                const FrameTitle* title) {
  context_.make_current();
  renderer_->update(g, vs);
  return draw(vs, title);
}

Image OffscreenRenderer::draw(const ViewSettings& vs, const FrameTitle* title) {
  target_.bind();
  renderer_->draw(vs, 0, 0, target_.width(), target_.height(), title);
  target_.bind();
  return read_pixels(target_.width(), target_.height());
}

}  // namespace fluxview::render
