#include "app/gui/Recorder.hpp"

#include <cstdio>
#include <exception>
#include <filesystem>

#include "fileio/Folders.hpp"
#include "render/GlResources.hpp"
#include "render/Image.hpp"

namespace fluxview::app {

bool Recorder::is_movie(const std::string& target) {
  const std::string ext = std::filesystem::path(target).extension().string();
  return ext == ".mp4" || ext == ".mkv" || ext == ".mov" || ext == ".avi";
}

std::string Recorder::start(const std::string& target) {
  if (recording_) return "already recording to " + target_;
  try {
    if (is_movie(target))
      render::check_movie_path(target);
    else {
      prepare_output_dir(target);
      lock_ = FolderLock::unless_held_here(target);  // a run writing there is named
    }
  } catch (const std::exception& e) {
    return std::string("not recording: ") + e.what();
  }
  target_ = target;
  recording_ = true;
  frames_ = 0;
  return "recording to " + target_;
}

std::string Recorder::frame(int width, int height) {
  if (!recording_) return "";
  try {
    const render::Image im = render::read_pixels(width, height);
    if (is_movie(target_)) {
      if (!movie_) movie_ = render::open_movie(target_, width, height);
      movie_->add_frame(im);
    } else {
      char name[64];
      std::snprintf(name, sizeof name, "frame_%06lld.png", static_cast<long long>(frames_));
      render::write_png(std::filesystem::path(target_) / name, im);
    }
    ++frames_;
    return "";
  } catch (const std::exception& e) {
    recording_ = false;
    lock_.reset();
    movie_.reset();  // the partial film is removed
    return std::string("recording stopped: ") + e.what();
  }
}

std::string Recorder::stop() {
  if (!recording_) return "";
  recording_ = false;
  lock_.reset();
  try {
    if (movie_) movie_->finish();
    movie_.reset();
  } catch (const std::exception& e) {
    movie_.reset();
    return std::string("the film could not be finished: ") + e.what();
  }
  return "recorded " + std::to_string(frames_) + " frames to " + target_;
}

}  // namespace fluxview::app
