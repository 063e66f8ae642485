// The line reconstructions of the higher-order fv schemes (sim/fv/WenoReconstruction.hpp)
// against their model (WenoModel.hpp), value by value, in units in the last place of the
// solver's precision: random smooth lines, lines with a jump at every position, nearly
// constant lines, in float and double.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "sim/fv/WenoReconstruction.hpp"
#include "tests/model/ModelTestUtil.hpp"
#include "tests/model/WenoModel.hpp"

using namespace fluxview;
using namespace fluxview::model;

namespace {

// Lines of 7 averages: smooth waves, jumps at each position, nearly constant data.
std::vector<std::vector<long double>> lines(Precision p) {
  std::mt19937 rng(29);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<std::vector<long double>> out;
  auto round = [&](long double x) { return to_precision(x, p); };
  for (int t = 0; t < 300; ++t) {
    std::vector<long double> l(7);
    const double k = 0.05 + 1.5 * u(rng), ph = 6 * u(rng), a = 0.1 + 2 * u(rng), b = 3 * u(rng);
    for (int j = 0; j < 7; ++j) l[j] = round(b + a * std::sin(k * (j - 3) + ph));
    out.push_back(l);
  }
  for (int pos = 0; pos < 6; ++pos)
    for (int t = 0; t < 10; ++t) {
      std::vector<long double> l(7);
      const double lo = u(rng), hi = lo + 0.01 + 10 * u(rng);
      for (int j = 0; j < 7; ++j) l[j] = round((j <= pos ? hi : lo) + 1e-3 * u(rng));
      out.push_back(l);
    }
  for (int t = 0; t < 20; ++t) {
    std::vector<long double> l(7);
    for (int j = 0; j < 7; ++j) l[j] = round(1 + 1e-6 * u(rng));
    out.push_back(l);
  }
  return out;
}

template <class T>
void check(Precision p) {
  std::vector<long double> sx2, sx3, sxx3, sx4, sxx4, sxxx4, sz;
  std::vector<Tracked> mx2, mx3, mxx3, mx4, mxx4, mxxx4, mz;
  for (const auto& l : lines(p)) {
    T u7[7];
    Tracked t7[7];
    for (int j = 0; j < 7; ++j) {
      u7[j] = T(l[j]);
      t7[j] = Tracked(l[j]);
    }
    sx2.push_back(fv::weno2_line_modes(u7 + 2).x);
    mx2.push_back(weno2_line_model(t7 + 2).x);
    const fv::LineModes<T> a = fv::weno3_line_modes(u7 + 1);
    const LineModesModel ma = weno_line_model(2, t7 + 1);
    sx3.push_back(a.x), sxx3.push_back(a.xx), mx3.push_back(ma.x), mxx3.push_back(ma.xx);
    const fv::LineModes<T> b = fv::weno4_line_modes(u7);
    const LineModesModel mb = weno_line_model(3, t7);
    sx4.push_back(b.x), sxx4.push_back(b.xx), sxxx4.push_back(b.xxx);
    mx4.push_back(mb.x), mxx4.push_back(mb.xx), mxxx4.push_back(mb.xxx);
    sz.push_back(fv::wenoz5_face(u7 + 1));
    mz.push_back(wenoz5_model(t7 + 1));
  }
  const std::array<int, 3> n{int(sx3.size()), 1, 1};
  const char* prec = name_of(p);
  const Comparison cs[] = {
      compare("weno2 x", sx2, mx2, p, n),    compare("weno3 x", sx3, mx3, p, n),
      compare("weno3 xx", sxx3, mxx3, p, n), compare("weno4 x", sx4, mx4, p, n),
      compare("weno4 xx", sxx4, mxx4, p, n), compare("weno4 xxx", sxxx4, mxxx4, p, n),
      compare("wenoz5", sz, mz, p, n)};
  for (const auto& c : cs) {
    std::printf("%s %s\n", prec, c.describe().c_str());
    expect_within(c, 40, prec);  // chains of up to 37 roundings
  }
}

}  // namespace

TEST(WenoModel, LineReconstructionsMatchTheModel) {
  check<double>(Precision::f64);
  check<float>(Precision::f32);
}
