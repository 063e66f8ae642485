// Headless frames in a build without EGL and libepoxy.
#include <memory>

#include "render/FrameWriter.hpp"
#include "sim/core/ConfigError.hpp"

namespace fluxview::render {

void check_frame_options(const FrameOptions&, const Solver&) {
  throw ConfigError(
      "--render-every: this fluxview was built without headless rendering (EGL or libepoxy not "
      "found, or FLUXVIEW_WITH_GUI=OFF; install libegl-dev and libepoxy-dev and reconfigure)");
}

std::unique_ptr<FrameWriter> make_frame_writer(const FrameOptions& o, const Solver& s) {
  check_frame_options(o, s);
  return nullptr;
}

}  // namespace fluxview::render
