// PNG files through libpng; writes go through write_file_atomic.
#include <png.h>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include <cstdio>
#include <memory>
#include <ostream>
#include <stdexcept>

#include "fileio/AtomicFile.hpp"
#include "render/Image.hpp"

namespace fluxview::render {

namespace {

void write_to_stream(png_structp png, png_bytep data, png_size_t length) {
  static_cast<std::ostream*>(png_get_io_ptr(png))
      ->write(reinterpret_cast<const char*>(data), length);
}
void flush_stream(png_structp png) {
  static_cast<std::ostream*>(png_get_io_ptr(png))->flush();
}
[[noreturn]] void on_png_error(png_structp, png_const_charp message) {
  throw std::runtime_error(message);
}
void on_png_warning(png_structp, png_const_charp) {}

}  // namespace

void write_png(const std::filesystem::path& path, const Image& image) {
  if (image.width <= 0 || image.height <= 0)
    throw std::runtime_error(path.string() + ": empty image");
  std::vector<png_byte> rgb(std::size_t(image.width) * image.height * 3);
  for (std::size_t i = 0; i < std::size_t(image.width) * image.height; ++i)
    for (int c = 0; c < 3; ++c) rgb[i * 3 + c] = image.rgba[i * 4 + c];
  write_file_atomic(path, [&](std::ostream& out) {
    png_structp png =
        png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, on_png_error, on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (!info) throw std::runtime_error(path.string() + ": libpng could not start");
    try {
      png_set_write_fn(png, &out, write_to_stream, flush_stream);
      png_set_IHDR(png, info, image.width, image.height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                   PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
      png_set_compression_level(png, 3);  // fast: frames are written while a run steps
      png_write_info(png, info);
      for (int y = 0; y < image.height; ++y)
        png_write_row(png, &rgb[std::size_t(y) * image.width * 3]);
      png_write_end(png, nullptr);
    } catch (const std::exception& e) {
      png_destroy_write_struct(&png, &info);
      throw std::runtime_error(path.string() + ": " + e.what());
    }
    png_destroy_write_struct(&png, &info);
  });
}

Image read_png(const std::filesystem::path& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f) throw std::runtime_error(path.string() + ": cannot open");
  png_structp png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, on_png_error, on_png_warning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) throw std::runtime_error(path.string() + ": libpng could not start");
  Image im;
  try {
    png_init_io(png, f.get());
    png_read_info(png, info);
    // Whatever the file holds, hand back 8-bit RGBA.
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_read_update_info(png, info);
    im.width = int(png_get_image_width(png, info));
    im.height = int(png_get_image_height(png, info));
    im.rgba.resize(std::size_t(im.width) * im.height * 4);
    std::vector<png_bytep> rows(im.height);
    for (int y = 0; y < im.height; ++y) rows[y] = &im.rgba[std::size_t(y) * im.width * 4];
    png_read_image(png, rows.data());
  } catch (const std::exception& e) {
    png_destroy_read_struct(&png, &info, nullptr);
    throw std::runtime_error(path.string() + ": " + e.what());
  }
  png_destroy_read_struct(&png, &info, nullptr);
  return im;
}

}  // namespace fluxview::render
