#include "render/MovieWriter.hpp"

#include <unistd.h>

#include <stdexcept>

namespace fluxview::render {

namespace detail {

std::string container_of(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  if (ext == ".mp4") return "mp4";
  if (ext == ".mkv") return "matroska";
  if (ext == ".mov") return "mov";
  if (ext == ".avi") return "avi";
  throw std::invalid_argument("movie " + path.string() + ": file type '" + ext +
                              "'; allowed: .mp4, .mkv, .mov, .avi");
}

}  // namespace detail

std::string movie_encoder() {
  const std::string lib = detail::libav_encoder();
  if (!lib.empty()) return lib;
  const std::string prog = detail::ffmpeg_program();
  return prog.empty() ? "" : "the ffmpeg program (" + prog + ")";
}

void check_movie_path(const std::filesystem::path& path) {
  detail::container_of(path);
  if (movie_encoder().empty())
    throw std::runtime_error(
        "movie " + path.string() +
        ": this fluxview was built without FFmpeg's libraries and no ffmpeg program is on PATH "
        "(install libavcodec-dev, libavformat-dev, libswscale-dev and reconfigure, or ffmpeg)");
}

std::unique_ptr<MovieWriter> open_movie(const std::filesystem::path& path, int width, int height,
                                        int fps) {
  detail::container_of(path);
  if (width < 2 || height < 2)
    throw std::invalid_argument("movie " + path.string() + ": frames of " + std::to_string(width) +
                                "x" + std::to_string(height) + "; at least 2x2");
  // Written beside its final place (same file system, so the rename is atomic).
  std::string hidden(".");
  hidden += path.filename().string();
  hidden += ".part";
  hidden += std::to_string(getpid());
  const std::filesystem::path temporary = path.parent_path() / hidden;
  if (!detail::libav_encoder().empty())
    return detail::open_libav_movie(path, temporary, width, height, fps);
  if (!detail::ffmpeg_program().empty())
    return detail::open_pipe_movie(path, temporary, width, height, fps);
  check_movie_path(path);  // throws, saying what is missing
  return nullptr;
}

}  // namespace fluxview::render
