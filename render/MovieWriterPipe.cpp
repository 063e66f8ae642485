// Films through the `ffmpeg` program: raw RGBA frames piped to its standard input.
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "render/MovieWriter.hpp"

namespace fluxview::render::detail {

namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

class PipeMovieWriter : public MovieWriter {
 public:
  PipeMovieWriter(std::filesystem::path path, std::filesystem::path temporary, int width,
                  int height, int fps)
      : path_(std::move(path)), temporary_(std::move(temporary)), width_(width), height_(height) {
    std::ostringstream cmd;
    // Even sizes for 4:2:0 colour: the crop drops an odd last column or row.
    cmd << shell_quote(ffmpeg_program()) << " -hide_banner -loglevel error -y -f rawvideo"
        << " -pix_fmt rgba -s " << width << "x" << height << " -r " << fps << " -i -"
        << " -vf " << shell_quote("crop=trunc(iw/2)*2:trunc(ih/2)*2") << " -pix_fmt yuv420p -f "
        << container_of(path_) << " " << shell_quote(temporary_.string());
    // A writer to a pipe whose reader died would be killed by SIGPIPE: ignored, the
    // failed write says so instead.
    std::signal(SIGPIPE, SIG_IGN);
    pipe_ = popen(cmd.str().c_str(), "w");
    if (!pipe_) throw std::runtime_error("movie " + path_.string() + ": cannot start ffmpeg");
  }
  ~PipeMovieWriter() override {
    if (pipe_) pclose(pipe_);
    std::error_code ec;
    if (!finished_) std::filesystem::remove(temporary_, ec);
  }
  void add_frame(const Image& f) override {
    if (f.width != width_ || f.height != height_)
      throw std::runtime_error("movie " + path_.string() + ": a frame of " +
                               std::to_string(f.width) + "x" + std::to_string(f.height) +
                               " in a film of " + std::to_string(width_) + "x" +
                               std::to_string(height_));
    if (std::fwrite(f.rgba.data(), 1, f.rgba.size(), pipe_) != f.rgba.size())
      throw std::runtime_error("movie " + path_.string() + ": ffmpeg stopped taking frames");
    ++frames_;
  }
  void finish() override {
    const int status = pclose(pipe_);
    pipe_ = nullptr;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      throw std::runtime_error("movie " + path_.string() + ": ffmpeg failed (status " +
                               std::to_string(status) + ")");
    std::filesystem::rename(temporary_, path_);
    finished_ = true;
  }
  std::int64_t frames() const override { return frames_; }

 private:
  std::filesystem::path path_, temporary_;
  int width_, height_;
  std::FILE* pipe_ = nullptr;
  std::int64_t frames_ = 0;
  bool finished_ = false;
};

}  // namespace

std::string ffmpeg_program() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const std::filesystem::path p = std::filesystem::path(dir) / "ffmpeg";
    if (access(p.c_str(), X_OK) == 0) return p.string();
  }
  return "";
}

std::unique_ptr<MovieWriter> open_pipe_movie(const std::filesystem::path& path,
                                             const std::filesystem::path& temporary, int width,
                                             int height, int fps) {
  return std::make_unique<PipeMovieWriter>(path, temporary, width, height, fps);
}

}  // namespace fluxview::render::detail
