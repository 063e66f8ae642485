// A build without FFmpeg's libraries: films go through the ffmpeg program, if any.
#include <stdexcept>

#include "render/MovieWriter.hpp"

namespace fluxview::render::detail {

std::string libav_encoder() {
  return "";
}

std::unique_ptr<MovieWriter> open_libav_movie(const std::filesystem::path& path,
                                              const std::filesystem::path&, int, int, int) {
  throw std::logic_error("movie " + path.string() + ": built without FFmpeg's libraries");
}

}  // namespace fluxview::render::detail
