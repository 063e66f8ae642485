#include "sim/fd/FdForcing.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <stdexcept>

namespace fluxview::fd {

namespace {
std::uint64_t rotl(std::uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}
}  // namespace

void ForcingRng::reseed(std::uint64_t seed) {
  std::uint64_t z = seed;
  for (auto& w : s_) {
    z += 0x9e3779b97f4a7c15ULL;  // splitmix64
    std::uint64_t x = z;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    w = x ^ (x >> 31);
  }
}

std::uint64_t ForcingRng::next() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double ForcingRng::uniform() {
  return double(next() >> 11) * 0x1.0p-53;
}

ForcingShell make_shell(double kmin, double kmax, std::array<bool, 3> active) {
  ForcingShell s;
  const int r = int(std::ceil(kmax));
  double sum = 0;
  for (int z = -r; z <= r; ++z)
    for (int y = -r; y <= r; ++y)
      for (int x = -r; x <= r; ++x) {
        if ((!active[0] && x) || (!active[1] && y) || (!active[2] && z)) continue;
        const double m = std::sqrt(double(x * x + y * y + z * z));
        // A little slack so that shells given as decimals (1.414) keep their integer vectors.
        if (m == 0 || m < kmin - 1e-9 || m > kmax + 1e-9) continue;
        s.k.push_back({x, y, z});
        sum += m;
      }
  if (!s.k.empty()) s.mean_k = sum / double(s.k.size());
  return s;
}

ForcingDraw draw_forcing(ForcingRng& rng, const ForcingShell& shell) {
  if (shell.k.empty()) throw std::logic_error("draw_forcing: empty forcing shell");
  ForcingDraw d;
  const std::size_t n = shell.k.size();
  d.k = shell.k[std::min<std::size_t>(n - 1, std::size_t(rng.uniform() * double(n)))];
  const double kx = d.k[0], ky = d.k[1], kz = d.k[2];
  const double km = std::sqrt(kx * kx + ky * ky + kz * kz);
  // e: a random direction (uniform on the sphere) with its k component removed. A draw
  // nearly parallel to k is rejected; the loop is bounded so the output count stays fixed
  // in all but (astronomically) rare cases.
  double e[3] = {0, 0, 0};
  for (int tries = 0; tries < 64; ++tries) {
    const double cz = 2 * rng.uniform() - 1, ph = 2 * std::numbers::pi * rng.uniform();
    const double sz = std::sqrt(std::max(0.0, 1 - cz * cz));
    double v[3] = {sz * std::cos(ph), sz * std::sin(ph), cz};
    const double dot = (v[0] * kx + v[1] * ky + v[2] * kz) / (km * km);
    for (int a = 0; a < 3; ++a) v[a] -= dot * d.k[a];
    const double vm = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (vm > 1e-3) {
      for (int a = 0; a < 3; ++a) e[a] = v[a] / vm;
      break;
    }
  }
  for (int a = 0; a < 3; ++a) d.e[a] = e[a];
  const double c[3] = {ky * e[2] - kz * e[1], kz * e[0] - kx * e[2], kx * e[1] - ky * e[0]};
  // |k x e| = |k| since e is perpendicular to k (eq. 25's denominator).
  const double cm = std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
  for (int a = 0; a < 3; ++a) d.f_k[a] = c[a] / cm;
  d.phase = 2 * std::numbers::pi * rng.uniform();
  return d;
}

}  // namespace fluxview::fd
