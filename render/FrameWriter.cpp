#include "render/FrameWriter.hpp"

#include <cstdio>

#include "render/OffscreenRenderer.hpp"
#include "sim/core/ConfigError.hpp"

namespace fluxview::render {

namespace {

class PngFrameWriter : public FrameWriter {
 public:
  PngFrameWriter(const FrameOptions& o, ViewSettings vs)
      : dir_(o.dir), settings_(std::move(vs)), offscreen_(o.width, o.height) {}
  void write(const Solver& s) override {
    char name[64];
    std::snprintf(name, sizeof name, "frame_%06lld.png", static_cast<long long>(s.step()));
    write_png(dir_ / name, offscreen_.render(s, settings_));
  }
  std::string context_description() const override { return offscreen_.context().description(); }

 private:
  std::filesystem::path dir_;
  ViewSettings settings_;
  OffscreenRenderer offscreen_;
};

}  // namespace

std::unique_ptr<FrameWriter> make_frame_writer(const FrameOptions& o, const Solver& s) {
  ViewSettings vs;
  try {
    vs.mode = parse_view_mode(o.view);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("--render-view: ") + e.what());
  }
  if (!o.field.empty()) {
    std::string names;
    bool found = false;
    for (const auto& f : s.fields()) {
      found |= f.name == o.field;
      names += (names.empty() ? "" : ", ") + f.name;
    }
    if (!found)
      throw ConfigError("--render-field " + o.field + ": no such field; allowed: " + names);
    vs.field = o.field;
  }
  // Seen along z: the (x, y) plane, which is also the plane of a 2D problem (nz = 1).
  // Only a line along z is seen from the side.
  const auto& n = s.grid().n;
  vs.axis = n[0] == 1 && n[1] == 1 ? 0 : 2;
  return std::make_unique<PngFrameWriter>(o, vs);
}

}  // namespace fluxview::render
