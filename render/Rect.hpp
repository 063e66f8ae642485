#pragma once

namespace fluxview::render {

// A rectangle of pixels: lower-left corner (x, y, y up as GL counts) and size.
struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
  bool contains(double px, double py) const {
    return px >= x && px < x + w && py >= y && py < y + h;
  }
};

}  // namespace fluxview::render
