#pragma once
// Probes (docs/gui.md): the values of a field along a line and at pinned points, sampled
// where the field lives (a loop of the execution layer, a kernel on the device) so that
// only the samples cross the bus, never the field.
#include <array>
#include <string>
#include <vector>

#include "sim/core/FieldView.hpp"
#include "sim/core/Grid.hpp"

namespace fluxview {

using Point3 = std::array<double, 3>;

// The field at each point (the box's coordinates, metres), interpolated linearly between
// the nearest cell centres (grid points) along every axis with more than one cell; a point
// beyond the outermost centres takes the outermost value. `g` is the solver's grid (its
// origin, spacing, and this rank's offset). Under MPI a point in another rank's cells
// gives NaN on this rank.
std::vector<double> sample_points(const FieldView& v, const Grid& g,
                                  const std::vector<Point3>& points);

// `count` (>= 2) points evenly from a to b, both ends included.
std::vector<Point3> line_points(const Point3& a, const Point3& b, int count);

// A profile along a line: the distance from a of each point and the field there.
struct Profile {
  std::string field;
  std::string unit;
  std::vector<double> distance;
  std::vector<double> value;
};
Profile sample_line(const FieldView& v, const Grid& g, const Point3& a, const Point3& b, int count);

// CSV text of a profile: "distance,x,y,z,<field>" and one row a point.
std::string profile_csv(const Profile& p, const Point3& a, const Point3& b);

// Time series of pinned points: one row a sample time, one column a point.
struct PointSeries {
  std::string field;
  std::vector<Point3> points;
  std::vector<double> time;
  std::vector<std::vector<double>> values;  // values[sample][point]
  void add(double t, const std::vector<double>& sample);
};
// CSV text: "time,<field>@(x y z),..." and one row a sample.
std::string series_csv(const PointSeries& s);

}  // namespace fluxview
