#include "sim/fv/TurbulentVelocity.hpp"

#include <cmath>
#include <complex>
#include <cstddef>
#include <numbers>
#include <random>

namespace fluxview::fv {

namespace {

using Complex = std::complex<double>;

// Standard normal deviates by Box-Muller from a generator whose output the C++ standard
// fixes (std::normal_distribution's algorithm is the library's choice, so its numbers could
// differ between compilers).
class Normal {
 public:
  explicit Normal(std::uint64_t seed) : gen_(seed) {}
  double operator()() {
    const double u1 = (double(gen_() >> 11) + 1.0) * 0x1.0p-53;  // (0, 1]
    const double u2 = double(gen_() >> 11) * 0x1.0p-53;          // [0, 1)
    return std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
  }

 private:
  std::mt19937_64 gen_;
};

}  // namespace

std::vector<double> turbulent_velocity(const TurbulenceSpec& s, const Grid& g,
                                       const std::array<int, 3>& first,
                                       const std::array<int, 3>& count) {
  const int K = s.kmax, W = 2 * K + 1;  // m_a in [-K, K] on active axes, 0 on reduced ones
  int d = 0, span[3];
  for (int a = 0; a < 3; ++a) {
    span[a] = g.n[a] > 1 ? K : 0;
    d += g.n[a] > 1;
  }
  // The amplitudes a[c][m] of the half of the modes with the first nonzero of (m_z, m_y,
  // m_x) positive; the field is 2 Re sum a e^{i k.x}, so the other half is implied.
  std::vector<Complex> amp(std::size_t(3) * W * W * W);
  auto at = [&](int c, int mx, int my, int mz) -> Complex& {
    return amp[((std::size_t(c) * W + (mz + K)) * W + (my + K)) * W + (mx + K)];
  };
  Normal normal(s.seed);
  double power = 0;  // the box mean of |u|^2 before scaling
  for (int mz = 0; mz <= span[2]; ++mz)
    for (int my = mz > 0 ? -span[1] : 0; my <= span[1]; ++my)
      for (int mx = (mz > 0 || my > 0) ? -span[0] : 1; mx <= span[0]; ++mx) {
        const double m = std::sqrt(double(mx * mx + my * my + mz * mz));
        if (m < s.kmin || m > s.kmax) continue;
        const double sigma = std::pow(m, 0.5 * (s.slope - (d - 1)));
        for (int c = 0; c < 3; ++c) {
          const double re = normal(), im = normal();
          if (g.n[c] == 1) continue;  // no velocity along a reduced axis
          at(c, mx, my, mz) = sigma * Complex(re, im) * std::sqrt(0.5);
          power += 2 * std::norm(at(c, mx, my, mz));
        }
      }
  const double scale = power > 0 ? s.rms_speed / std::sqrt(power) : 0;

  // e^{i 2 pi m x / l} along each axis at the box's cell centres.
  std::vector<Complex> phase[3];
  for (int a = 0; a < 3; ++a) {
    phase[a].resize(std::size_t(W) * count[a]);
    for (int m = -span[a]; m <= span[a]; ++m)
      for (int i = 0; i < count[a]; ++i) {
        const double x = g.coord(a, first[a] + i);
        phase[a][std::size_t(m + K) * count[a] + i] =
            std::polar(1.0, 2 * std::numbers::pi * m * x / s.length[a]);
      }
  }
  auto ph = [&](int a, int m, int i) { return phase[a][std::size_t(m + K) * count[a] + i]; };

  // The sum over modes, one axis at a time: over m_z, then m_y, then m_x (a direct
  // transform of the few modes; each cell's sums run in the same order on every rank).
  const std::size_t nx = count[0], ny = count[1], nz = count[2];
  std::vector<double> u(3 * nx * ny * nz, 0.0);
  std::vector<Complex> over_z(std::size_t(W) * W * nz), over_yz(std::size_t(W) * ny * nz);
  for (int c = 0; c < 3; ++c) {
    for (int mx = -span[0]; mx <= span[0]; ++mx)
      for (int my = -span[1]; my <= span[1]; ++my)
        for (std::size_t k = 0; k < nz; ++k) {
          Complex sum = 0;
          for (int mz = -span[2]; mz <= span[2]; ++mz) sum += at(c, mx, my, mz) * ph(2, mz, int(k));
          over_z[(std::size_t(mx + K) * W + (my + K)) * nz + k] = sum;
        }
    for (int mx = -span[0]; mx <= span[0]; ++mx)
      for (std::size_t j = 0; j < ny; ++j)
        for (std::size_t k = 0; k < nz; ++k) {
          Complex sum = 0;
          for (int my = -span[1]; my <= span[1]; ++my)
            sum += over_z[(std::size_t(mx + K) * W + (my + K)) * nz + k] * ph(1, my, int(j));
          over_yz[(std::size_t(mx + K) * ny + j) * nz + k] = sum;
        }
    for (std::size_t k = 0; k < nz; ++k)
      for (std::size_t j = 0; j < ny; ++j)
        for (std::size_t i = 0; i < nx; ++i) {
          Complex sum = 0;
          for (int mx = -span[0]; mx <= span[0]; ++mx)
            sum += over_yz[(std::size_t(mx + K) * ny + j) * nz + k] * ph(0, mx, int(i));
          u[3 * ((k * ny + j) * nx + i) + c] = 2 * scale * sum.real();
        }
  }
  return u;
}

}  // namespace fluxview::fv
