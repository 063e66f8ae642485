#include "sim/core/Probe.hpp"

#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "sim/core/Buffer.hpp"
#include "sim/core/ExecHost.hpp"
#include "sim/core/ProbeLoops.hpp"

namespace fluxview {

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

std::vector<double> sample_points(const FieldView& v, const Grid& g,
                                  const std::vector<Point3>& points) {
  probes::Geometry geo;
  geo.layout = v.layout;
  for (int a = 0; a < 3; ++a) {
    geo.origin[a] = g.origin[a];
    geo.spacing[a] = g.spacing[a];
    geo.offset[a] = g.offset[a];
    geo.global_n[a] = g.n[a];
  }
  const int count = int(points.size());
  std::vector<double> xyz(3 * points.size());
  for (std::size_t p = 0; p < points.size(); ++p)
    for (int a = 0; a < 3; ++a) xyz[3 * p + a] = points[p][a];
  std::vector<double> out(points.size());
  if (count == 0) return out;
  const bool f64 = v.precision == Precision::f64;
  if (v.where == Location::host) {
    if (f64)
      probes::sample(exec::Host{}, static_cast<const double*>(v.data), geo, xyz.data(), count,
                     out.data());
    else
      probes::sample(exec::Host{}, static_cast<const float*>(v.data), geo, xyz.data(), count,
                     out.data());
    return out;
  }
#if FLUXVIEW_HAVE_CUDA
  // Only the points go in and the samples come back.
  Buffer in(Location::device, xyz.size() * sizeof(double));
  Buffer result(Location::device, out.size() * sizeof(double));
  copy_bytes(in.data(), Location::device, xyz.data(), Location::host, xyz.size() * sizeof(double));
  probes::sample_on_device(v.data, f64, geo, static_cast<const double*>(in.data()), count,
                           static_cast<double*>(result.data()));
  copy_bytes(out.data(), Location::host, result.data(), Location::device,
             out.size() * sizeof(double));
  return out;
#else
  throw std::logic_error("sample_points: a device field in a build without CUDA");
#endif
}

std::vector<Point3> line_points(const Point3& a, const Point3& b, int count) {
  if (count < 2) throw std::invalid_argument("line_points: at least 2 points");
  std::vector<Point3> p(static_cast<std::size_t>(count));
  for (int s = 0; s < count; ++s) {
    const double t = double(s) / (count - 1);
    for (int d = 0; d < 3; ++d) p[std::size_t(s)][d] = a[d] + t * (b[d] - a[d]);
  }
  return p;
}

Profile sample_line(const FieldView& v, const Grid& g, const Point3& a, const Point3& b,
                    int count) {
  Profile p;
  p.field = v.name;
  p.unit = v.unit;
  const std::vector<Point3> pts = line_points(a, b, count);
  p.value = sample_points(v, g, pts);
  for (const Point3& x : pts)
    p.distance.push_back(std::sqrt((x[0] - a[0]) * (x[0] - a[0]) + (x[1] - a[1]) * (x[1] - a[1]) +
                                   (x[2] - a[2]) * (x[2] - a[2])));
  return p;
}

std::string profile_csv(const Profile& p, const Point3& a, const Point3& b) {
  std::ostringstream o;
  o << "distance,x,y,z," << p.field << "\n";
  const std::vector<Point3> pts = line_points(a, b, int(p.value.size()));
  for (std::size_t s = 0; s < p.value.size(); ++s)
    o << number(p.distance[s]) << "," << number(pts[s][0]) << "," << number(pts[s][1]) << ","
      << number(pts[s][2]) << "," << number(p.value[s]) << "\n";
  return o.str();
}

void PointSeries::add(double t, const std::vector<double>& sample) {
  if (sample.size() != points.size())
    throw std::invalid_argument("PointSeries::add: one value a point");
  time.push_back(t);
  values.push_back(sample);
}

std::string series_csv(const PointSeries& s) {
  std::ostringstream o;
  o << "time";
  for (const Point3& x : s.points)
    o << "," << s.field << "@(" << number(x[0]) << " " << number(x[1]) << " " << number(x[2])
      << ")";
  o << "\n";
  for (std::size_t r = 0; r < s.time.size(); ++r) {
    o << number(s.time[r]);
    for (double v : s.values[r]) o << "," << number(v);
    o << "\n";
  }
  return o.str();
}

}  // namespace fluxview
