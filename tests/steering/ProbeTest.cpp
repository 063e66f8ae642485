// Probes: a line profile and pinned points sample a field exactly at grid points and
// linearly between them, clamp beyond the outermost, and export as CSV.
#include <gtest/gtest.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "sim/core/Probe.hpp"
#include "tests/steering/SteeringTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::test;

namespace {

// heat/sine-decay at t = 0: T = A sin(pi x / L) sin(pi y / L) at the grid points.
struct SineField {
  std::unique_ptr<Solver> s = make_solver(
      "heat/sine-decay", {"grid.nx=40", "grid.ny=30", "grid.nz=1", "heat.sine_amplitude=2"});
  double exact(double x, double y) const {
    const double pi = std::numbers::pi;
    const auto& g = s->grid();
    const double lx = g.spacing[0] * (g.n[0] + 1), ly = g.spacing[1] * (g.n[1] + 1);
    return 2 * std::sin(pi * x / lx) * std::sin(pi * y / ly);
  }
};

TEST(Probe, PointsAtGridPointsAreExactAndBetweenThemLinear) {
  SineField f;
  const Grid& g = f.s->grid();
  std::vector<Point3> pts;
  for (int i : {0, 7, 39})
    for (int j : {0, 12, 29}) pts.push_back({g.coord(0, i), g.coord(1, j), 0.05});
  const auto v = sample_points(f.s->view("T"), g, pts);
  for (std::size_t p = 0; p < pts.size(); ++p)
    EXPECT_NEAR(v[p], f.exact(pts[p][0], pts[p][1]), 1e-12) << p;
  // Midway between points: the linear interpolant, within dx^2/8 |T''| of the field.
  const double x = g.coord(0, 10) + 0.5 * g.spacing[0], y = g.coord(1, 20);
  const double mid = sample_points(f.s->view("T"), g, {{x, y, 0}})[0];
  EXPECT_NEAR(mid, 0.5 * (f.exact(x - 0.5 * g.spacing[0], y) + f.exact(x + 0.5 * g.spacing[0], y)),
              1e-12);
  const double lx = g.spacing[0] * (g.n[0] + 1);
  EXPECT_NEAR(mid, f.exact(x, y), 2 * std::pow(std::numbers::pi * g.spacing[0] / lx, 2) / 8);
  // Beyond the outermost points: the outermost value.
  const double outside = sample_points(f.s->view("T"), g, {{-1, g.coord(1, 12), 0}})[0];
  EXPECT_EQ(outside, sample_points(f.s->view("T"), g, {{g.coord(0, 0), g.coord(1, 12), 0}})[0]);
}

TEST(Probe, ALineProfileAndItsCsv) {
  SineField f;
  const Grid& g = f.s->grid();
  const Point3 a{g.coord(0, 0), g.coord(1, 15), 0}, b{g.coord(0, 39), g.coord(1, 15), 0};
  const Profile p = sample_line(f.s->view("T"), g, a, b, 40);
  ASSERT_EQ(p.value.size(), 40u);
  for (int i = 0; i < 40; ++i) {
    EXPECT_NEAR(p.value[i], f.exact(g.coord(0, i), g.coord(1, 15)), 1e-12) << i;
    EXPECT_NEAR(p.distance[i], i * g.spacing[0], 1e-15) << i;
  }
  const std::string csv = profile_csv(p, a, b);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "distance,x,y,z,T");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 41);

  PointSeries series;
  series.field = "T";
  series.points = {a, b};
  series.add(0.5, {1, 2});
  series.add(1.0, {3, 4.25});
  char head[256];
  std::snprintf(head, sizeof head, "time,T@(%.17g %.17g %.17g),T@(%.17g %.17g %.17g)\n", a[0], a[1],
                a[2], b[0], b[1], b[2]);
  EXPECT_EQ(series_csv(series), std::string(head) + "0.5,1,2\n1,3,4.25\n");
}

}  // namespace
