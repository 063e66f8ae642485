#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "fileio/FolderLock.hpp"
#include "render/MovieWriter.hpp"

namespace fluxview::app {

// The GUI's record button: every frame in which the run stepped, from the window's back
// buffer, into a film (a target ending in .mp4, .mkv, .mov or .avi: MovieWriter) or a
// folder of PNGs (frame_000000.png, ...). Knows nothing of ImGui.
class Recorder {
 public:
  // Starts recording; returns the status line to show. A bad target (a film type not
  // allowed, no encoder) does not start and says why.
  std::string start(const std::string& target);
  // Reads the bound read framebuffer's w x h pixels and adds them. On failure recording
  // stops and the returned text says why (empty while all is well).
  std::string frame(int width, int height);
  // Finishes the film (the file appears) and returns the status line.
  std::string stop();
  bool recording() const { return recording_; }
  std::int64_t frames() const { return frames_; }
  static bool is_movie(const std::string& target);

 private:
  std::string target_;
  bool recording_ = false;
  std::int64_t frames_ = 0;
  std::unique_ptr<render::MovieWriter> movie_;
  std::unique_ptr<FolderLock> lock_;  // of a PNG folder while recording into it
};

}  // namespace fluxview::app
