#pragma once
// Equality of two doubles to the last bit (NaNs with the same payload are equal, +0 and -0
// are not): for the tests that claim two ways of computing a number give the same bits.
#include <cstdint>
#include <cstring>

namespace fluxview::test {

inline bool same_bits(double a, double b) {
  std::uint64_t x, y;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return x == y;
}

}  // namespace fluxview::test
