#pragma once
// Headless frames of a run (`fluxview run --render-every N [--render-dir DIR]
// [--render-view V] [--view-file F] [--movie FILE.mp4]`). This header needs no GL: a
// build without EGL links FrameWriterAbsent.cpp, which says so.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "render/SliceSpec.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview::render {

struct FrameOptions {
  std::int64_t every = 0;           // a frame at each step that is a multiple of this
  std::filesystem::path dir;        // PNGs go here; empty: none (a movie only)
  std::string field;                // empty: the view file's, else the solver's first field
  std::string view;                 // empty: the view file's, else "2d" (apply_view_name)
  std::filesystem::path view_file;  // a view saved by the GUI (JSON); empty: defaults
  std::filesystem::path movie;      // a film of the frames; empty: none
  int width = 1024, height = 768;
  int fps = 30;
  std::string scenario;  // for the title every frame carries
  // How the slices and the volume of device fields reach GL (--upload-path): automatic
  // (shared memory, else a mapped texture, else the host) or one path pinned. Under MPI
  // rank 0 draws gathered host slices, whatever this says.
  UploadPath upload_path = UploadPath::automatic;
};

class FrameWriter {
 public:
  virtual ~FrameWriter() = default;
  // Draws the solver's state: DIR/frame_NNNNNN.png (NNNNNN = the step, written
  // atomically) and the movie's next frame.
  virtual void write(const Solver& s) = 0;
  // At the end of a run: a frame of the final state unless the last frame already shows
  // this step (with `final_frame`), then the movie is finished (its file appears).
  virtual void finish(const Solver& s, bool final_frame) = 0;
  // The GL context frames are drawn with, and the movie's encoder, for the log.
  virtual std::string context_description() const = 0;
};

// Checks the options against the solver (field, view, view file, movie file type and
// encoder, size) without opening a context: what a run calls before it writes anything.
// Throws ConfigError naming the option, the value and what is allowed.
void check_frame_options(const FrameOptions& o, const Solver& s);
// Checks the options and opens the headless context. Throws ConfigError for bad options
// or a build without headless rendering, and std::runtime_error when no GL context can
// be had.
std::unique_ptr<FrameWriter> make_frame_writer(const FrameOptions& o, const Solver& s);

}  // namespace fluxview::render
