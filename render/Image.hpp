#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace fluxview::render {

// An 8-bit RGBA image, rows top to bottom (as PNG stores them, not as GL reads them).
struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;

  const std::uint8_t* pixel(int x, int y) const { return &rgba[(std::size_t(y) * width + x) * 4]; }
};

// Writes an RGB PNG (alpha dropped) atomically: readers see the old file or the whole
// new one. Throws std::runtime_error naming the path.
void write_png(const std::filesystem::path& path, const Image& image);
// Reads a PNG of any colour type into RGBA8. Throws std::runtime_error naming the path.
Image read_png(const std::filesystem::path& path);

}  // namespace fluxview::render
