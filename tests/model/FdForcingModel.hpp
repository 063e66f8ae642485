#pragma once
// The forcing of the fd model (Pekkila et al. 2017, eqs 24-25; docs/fd.md, "Forcing"):
// each step draws an integer wave vector k from the shell kmin <= |k| <= kmax (units of
// 2 pi / L; no component along a reduced axis), a unit vector e perpendicular to k and a
// phase phi, and the force during the step's three substeps is
//   f(x) = N f_k cos(k . x + phi),  f_k = k x e / |k x e|,  N = f0 cs sqrt(|k| cs / dt),
// with k . x and |k| in radians per unit length (k_a = 2 pi k_int,a / L_a; N is then
// dimensionally an acceleration).
//
// The draws come from the generator the docs name: xoshiro256** (Blackman & Vigna),
// its four words seeded with consecutive outputs of splitmix64 started at fd.seed,
// uniform numbers in [0, 1) from the top 53 bits. Which uniform number becomes what is a
// convention of the solver, not physics, and the model follows it so that it forces
// with the solver's own sequence: the shell listed with x fastest, then y, then z, each
// from -ceil(kmax) to ceil(kmax); k = shell[floor(U n)]; e from a direction uniform on
// the sphere (cos theta = 2U - 1, azimuth 2 pi U) with its k component removed, redrawn
// while that leaves less than 1e-3 of it (at most 64 times); then phi = 2 pi U.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <vector>

namespace fluxview::model {

class ModelRng {
 public:
  explicit ModelRng(std::uint64_t seed = 1) {
    std::uint64_t z = seed;
    for (auto& w : s_) {  // splitmix64
      z += 0x9e3779b97f4a7c15ULL;
      std::uint64_t x = z;
      x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
      x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
      w = x ^ (x >> 31);
    }
  }
  std::uint64_t next() {  // xoshiro256**
    const std::uint64_t out = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return out;
  }
  long double uniform() { return (long double)(next() >> 11) * 0x1.0p-53L; }
  const std::array<std::uint64_t, 4>& words() const { return s_; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::array<std::uint64_t, 4> s_{};
};

struct ForcingDrawModel {
  std::array<int, 3> k{};            // integer wave vector
  std::array<long double, 3> f_k{};  // unit, perpendicular to k
  long double phase = 0;             // [0, 2 pi)
};

class ForcingModel {
 public:
  ForcingModel() = default;
  ForcingModel(long double kmin, long double kmax, std::array<bool, 3> active, std::uint64_t seed)
      : rng_(seed) {
    const int r = int(std::ceil(kmax));
    for (int z = -r; z <= r; ++z)
      for (int y = -r; y <= r; ++y)
        for (int x = -r; x <= r; ++x) {
          if ((!active[0] && x) || (!active[1] && y) || (!active[2] && z)) continue;
          const long double m = std::sqrt((long double)(x * x + y * y + z * z));
          if (m == 0 || m < kmin - 1e-9L || m > kmax + 1e-9L) continue;
          shell_.push_back({x, y, z});
        }
  }
  bool empty() const { return shell_.empty(); }
  const ModelRng& rng() const { return rng_; }

  ForcingDrawModel draw() {
    ForcingDrawModel d;
    const std::size_t n = shell_.size();
    d.k = shell_[std::min<std::size_t>(n - 1, std::size_t(rng_.uniform() * (long double)n))];
    const long double k[3] = {(long double)d.k[0], (long double)d.k[1], (long double)d.k[2]};
    const long double k2 = k[0] * k[0] + k[1] * k[1] + k[2] * k[2];
    long double e[3] = {0, 0, 0};
    for (int tries = 0; tries < 64; ++tries) {
      const long double ct = 2 * rng_.uniform() - 1;
      const long double az = 2 * std::numbers::pi_v<long double> * rng_.uniform();
      const long double st = std::sqrt(std::max(0.0L, 1 - ct * ct));
      long double v[3] = {st * std::cos(az), st * std::sin(az), ct};
      const long double along = (v[0] * k[0] + v[1] * k[1] + v[2] * k[2]) / k2;
      for (int a = 0; a < 3; ++a) v[a] -= along * k[a];
      const long double len = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      if (len > 1e-3L) {
        for (int a = 0; a < 3; ++a) e[a] = v[a] / len;
        break;
      }
    }
    const long double c[3] = {k[1] * e[2] - k[2] * e[1], k[2] * e[0] - k[0] * e[2],
                              k[0] * e[1] - k[1] * e[0]};
    const long double cm = std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    for (int a = 0; a < 3; ++a) d.f_k[a] = c[a] / cm;
    d.phase = 2 * std::numbers::pi_v<long double> * rng_.uniform();
    return d;
  }

 private:
  ModelRng rng_;
  std::vector<std::array<int, 3>> shell_;
};

}  // namespace fluxview::model
