#pragma once
// Films of a run (`fluxview run --movie FILE.mp4`, the GUI's record button): frames
// encoded as they come, no folder of PNGs needed. Through FFmpeg's libraries where this
// fluxview was built with them (libavcodec, libavformat, libswscale: H.264 by libx264
// where the library has it, else MPEG-4 part 2), else by piping raw frames to the
// `ffmpeg` program where one is on PATH. The file appears only when finished, written
// beside its place and renamed (readers never see half a film).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "render/Image.hpp"

namespace fluxview::render {

class MovieWriter {
 public:
  virtual ~MovieWriter() = default;
  // Every frame must have the size given at opening; an odd width or height loses its
  // last column or row (the encoders' 4:2:0 colour needs even sizes).
  virtual void add_frame(const Image& frame) = 0;
  // Flushes the encoder and moves the file into place. Throws std::runtime_error naming
  // the file on failure; without finish() the partial file is removed.
  virtual void finish() = 0;
  virtual std::int64_t frames() const = 0;
};

// Throws std::invalid_argument for a file type other than .mp4, .mkv, .mov or .avi, or
// a size below 2 x 2; std::runtime_error when no encoder can be had or the file cannot
// be written (the message says which and why).
std::unique_ptr<MovieWriter> open_movie(const std::filesystem::path& path, int width, int height,
                                        int fps = 30);
// What open_movie would encode with: "libavcodec 59.37.100 (libx264)", "the ffmpeg
// program (/usr/bin/ffmpeg)", or an empty string where neither is there.
std::string movie_encoder();
// Checks a movie file name before a run starts: the same std::invalid_argument as
// open_movie for the file type, and std::runtime_error where no encoder is there.
void check_movie_path(const std::filesystem::path& path);

namespace detail {
// The encoders behind open_movie (MovieWriterLibav.cpp, built with FFmpeg's libraries;
// MovieWriterPipe.cpp). `temporary` is where they write until finish() renames it.
std::unique_ptr<MovieWriter> open_libav_movie(const std::filesystem::path& path,
                                              const std::filesystem::path& temporary, int width,
                                              int height, int fps);
std::string libav_encoder();  // empty without FFmpeg's libraries
std::unique_ptr<MovieWriter> open_pipe_movie(const std::filesystem::path& path,
                                             const std::filesystem::path& temporary, int width,
                                             int height, int fps);
std::string ffmpeg_program();  // the ffmpeg found on PATH, or empty
// "mp4", "matroska", "mov" or "avi" for the file's extension; throws std::invalid_argument.
std::string container_of(const std::filesystem::path& path);
}  // namespace detail

}  // namespace fluxview::render
