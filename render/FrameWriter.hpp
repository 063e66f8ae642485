#pragma once
// Headless frames of a run (`fluxview run --render-every N --render-dir DIR`). This
// header needs no GL: a build without EGL links FrameWriterAbsent.cpp, which says so.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "sim/core/Solver.hpp"

namespace fluxview::render {

struct FrameOptions {
  std::int64_t every = 0;  // a frame at each step that is a multiple of this
  std::filesystem::path dir;
  std::string field;        // empty: the solver's first field
  std::string view = "2d";  // 2d or 3d
  int width = 1024, height = 768;
};

class FrameWriter {
 public:
  virtual ~FrameWriter() = default;
  // Writes DIR/frame_NNNNNN.png (NNNNNN = the solver's step) atomically.
  virtual void write(const Solver& s) = 0;
  // The GL context frames are drawn with, for the log.
  virtual std::string context_description() const = 0;
};

// Checks the options against the solver (field, view) and opens the headless context.
// Throws ConfigError for bad options or a build without headless rendering, and
// std::runtime_error when no GL context can be had.
std::unique_ptr<FrameWriter> make_frame_writer(const FrameOptions& o, const Solver& s);

}  // namespace fluxview::render
