// The shell-averaged kinetic energy spectrum: the velocity copied to the host, a 3D FFT
// (radix-2 where the size is a power of two, a direct transform otherwise), and |u_k|^2
// summed into integer shells of |k|.
//
// Under MPI every rank's box of a velocity component is gathered to rank 0 (MPI_Gatherv),
// placed there by its offset, and the FFT done on rank 0 as in a serial run: the input is
// the same array, so the spectrum is the serial one bit for bit, whatever the split. The
// cost is rank 0's memory: one component at a time, the gathered values (8 bytes a cell)
// and the complex array (16), as a serial run needs too: about 3 GiB at 512^3, where one
// node's memory is still enough. Beyond that a distributed FFT (FFTW's MPI transforms,
// libfftw3-mpi-dev in Debian, with a slab or pencil redistribution of the boxes) would be
// needed; it is not done.
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <numbers>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "fileio/AtomicFile.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/fd/FdSolver.hpp"

namespace fluxview::fd {

namespace {

using cplx = std::complex<double>;

// In-place forward transform of n values at stride `stride` (no normalisation).
void fft_line(cplx* a, int n, std::int64_t stride, std::vector<cplx>& tmp) {
  tmp.resize(n);
  for (int i = 0; i < n; ++i) tmp[i] = a[i * stride];
  if ((n & (n - 1)) == 0) {
    for (int i = 1, j = 0; i < n; ++i) {  // bit reversal
      int bit = n >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) std::swap(tmp[i], tmp[j]);
    }
    for (int len = 2; len <= n; len <<= 1) {
      const double ang = -2 * std::numbers::pi / len;
      const cplx wl(std::cos(ang), std::sin(ang));
      for (int s = 0; s < n; s += len) {
        cplx w(1, 0);
        for (int q = 0; q < len / 2; ++q) {
          const cplx u = tmp[s + q], v = tmp[s + q + len / 2] * w;
          tmp[s + q] = u + v;
          tmp[s + q + len / 2] = u - v;
          w *= wl;
        }
      }
    }
    for (int i = 0; i < n; ++i) a[i * stride] = tmp[i];
  } else {
    for (int m = 0; m < n; ++m) {
      cplx acc(0, 0);
      for (int i = 0; i < n; ++i) {
        const double ang = -2 * std::numbers::pi * double(std::int64_t(m) * i % n) / n;
        acc += tmp[i] * cplx(std::cos(ang), std::sin(ang));
      }
      a[m * stride] = acc;
    }
  }
}

void fft3(std::vector<cplx>& a, const std::array<int, 3>& n) {
  const std::int64_t sy = n[0], sz = std::int64_t(n[0]) * n[1];
  if (n[0] > 1) {
#pragma omp parallel
    {
      std::vector<cplx> tmp;
#pragma omp for collapse(2) schedule(static)
      for (int k = 0; k < n[2]; ++k)
        for (int j = 0; j < n[1]; ++j) fft_line(a.data() + k * sz + j * sy, n[0], 1, tmp);
    }
  }
  if (n[1] > 1) {
#pragma omp parallel
    {
      std::vector<cplx> tmp;
#pragma omp for collapse(2) schedule(static)
      for (int k = 0; k < n[2]; ++k)
        for (int i = 0; i < n[0]; ++i) fft_line(a.data() + k * sz + i, n[1], sy, tmp);
    }
  }
  if (n[2] > 1) {
#pragma omp parallel
    {
      std::vector<cplx> tmp;
#pragma omp for collapse(2) schedule(static)
      for (int j = 0; j < n[1]; ++j)
        for (int i = 0; i < n[0]; ++i) fft_line(a.data() + j * sy + i, n[2], sz, tmp);
    }
  }
}

}  // namespace

std::vector<std::pair<double, double>> kinetic_spectrum(const Solver& s) {
  const Grid& g = s.grid();
  const std::array<int, 3> n = g.n;
  const double lx = g.spacing[0] * n[0];
  double kunit[3];
  int kmax = 0;
  for (int a = 0; a < 3; ++a) {
    kunit[a] = lx / (g.spacing[a] * n[a]);  // (2 pi / L_a) in units of 2 pi / lx
    if (n[a] > 1) kmax = std::max(kmax, int(std::ceil(std::sqrt(3.0) * (n[a] / 2) * kunit[a])));
  }
  std::vector<double> shells(kmax + 2, 0.0);
  const std::int64_t cells = g.cells();
  // Every rank's box: offset and size, six integers a rank.
  std::vector<int> boxes = {g.offset[0], g.offset[1], g.offset[2], 0, 0, 0};
  {
    const std::array<int, 3> local = s.view("ux").layout.n;
    std::copy(local.begin(), local.end(), boxes.begin() + 3);
  }
  boxes = parallel::allgather(boxes);
  std::vector<cplx> a(parallel::is_root() ? cells : 0);
  for (const char* name : {"ux", "uy", "uz"}) {
    const HostArray h = gather_interior(s.view(name));
    const std::size_t eb = bytes_of(h.precision);
    const std::vector<unsigned char> all =
        parallel::gather_to_root(h.bytes.data(), std::size_t(h.count()), int(eb));
    if (!parallel::is_root()) continue;
    // Rank r's values follow those of ranks 0..r-1, x fastest within its box.
    std::int64_t from = 0;
    for (std::size_t r = 0; r * 6 < boxes.size(); ++r) {
      const int* b = &boxes[r * 6];
      for (int k = 0; k < b[5]; ++k)
        for (int j = 0; j < b[4]; ++j) {
          cplx* row = a.data() + (std::int64_t(b[2] + k) * n[1] + (b[1] + j)) * n[0] + b[0];
          for (int i = 0; i < b[3]; ++i, ++from)
            row[i] = cplx(eb == 8 ? reinterpret_cast<const double*>(all.data())[from]
                                  : reinterpret_cast<const float*>(all.data())[from],
                          0);
        }
    }
    fft3(a, n);
    const double norm = 1.0 / double(cells);
    for (int k = 0; k < n[2]; ++k)
      for (int j = 0; j < n[1]; ++j)
        for (int i = 0; i < n[0]; ++i) {
          const int m[3] = {i <= n[0] / 2 ? i : i - n[0], j <= n[1] / 2 ? j : j - n[1],
                            k <= n[2] / 2 ? k : k - n[2]};
          double k2 = 0;
          for (int q = 0; q < 3; ++q) k2 += std::pow(m[q] * kunit[q], 2);
          const int shell = int(std::floor(std::sqrt(k2) + 0.5));
          const cplx v = a[(std::int64_t(k) * n[1] + j) * n[0] + i] * norm;
          if (shell < int(shells.size())) shells[shell] += 0.5 * std::norm(v);
        }
  }
  std::vector<std::pair<double, double>> out;
  if (!parallel::is_root()) return out;
  for (std::size_t k = 0; k < shells.size(); ++k) out.emplace_back(double(k), shells[k]);
  return out;
}

void write_spectrum_csv(const Solver& s, const std::string& path) {
  const auto spec = kinetic_spectrum(s);
  if (!parallel::is_root()) return;
  write_file_atomic(path, [&](std::ostream& o) {
    o.precision(17);
    o << "k,E\n";
    for (const auto& [k, e] : spec) o << k << ',' << e << '\n';
  });
}

}  // namespace fluxview::fd
