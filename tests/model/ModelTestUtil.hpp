#pragma once
// What the model tests share: a solver and its parameters from a scenario, a state put
// into a solver and read back through the public Solver interface (load_state,
// save_state, view), seeded random states, and the comparison of a solver's field with
// a model's, cell by cell, in units in the last place of the solver's precision.
#include <gtest/gtest.h>
#include <functional>
#include <type_traits>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/FieldView.hpp"
#include "sim/core/Scenario.hpp"
#include "sim/core/Solver.hpp"
#include "sim/core/SolverFamily.hpp"
#include "tests/model/Tracked.hpp"

namespace fluxview::model {

// A solver made from a scenario with overrides, and the resolved parameters the model
// reads (the same keys the solver reads).
struct Run {
  ParamSet params;
  std::unique_ptr<Solver> solver;
};

inline Run make_run(const std::string& scenario, const std::vector<std::string>& overrides,
                    BackendKind backend, Precision precision) {
  const Scenario s = load_scenario(scenario, overrides);
  Run r{s.params, find_family(s.solver).create(backend, precision)};
  r.solver->reset(s.params);
  return r;
}

inline const char* name_of(Precision p) {
  return p == Precision::f64 ? "double" : "float";
}

// The unit roundoff u of the solver's precision (half an ulp of 1).
inline double unit_roundoff(Precision p) {
  return p == Precision::f32 ? 0x1.0p-24 : 0x1.0p-53;
}
inline const char* name_of(BackendKind b) {
  return b == BackendKind::cuda ? "cuda" : "cpu";
}

// Whether a CUDA device is there; GPU tests skip with a message where not.
inline bool have_cuda() {
  return cuda::device_count() > 0;
}

// x rounded to the solver's precision.
inline long double to_precision(long double x, Precision p) {
  return p == Precision::f32 ? (long double)(float)x : (long double)(double)x;
}

// Deterministic test data on every platform (splitmix64; <random>'s distributions are
// not specified bit for bit).
class TestRandom {
 public:
  explicit TestRandom(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * double(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t s_;
};

// Replaces the named interior arrays of the solver's state with `values` (rounded to its
// precision) through save_state/load_state, the checkpoint path of the public interface.
// Returns the values the solver now holds, exactly.
inline std::map<std::string, std::vector<long double>> put_state(
    Solver& s, const std::map<std::string, std::vector<long double>>& values) {
  SolverState st = s.save_state();
  std::map<std::string, std::vector<long double>> held;
  for (const auto& [name, v] : values) {
    StateArray* a = nullptr;
    for (auto& arr : st.arrays)
      if (arr.name == name) a = &arr;
    if (!a) throw std::runtime_error("the solver's state has no array '" + name + "'");
    if (std::int64_t(v.size()) != a->values.count())
      throw std::runtime_error("state array '" + name + "': wrong size");
    std::vector<long double>& h = held[name];
    for (std::int64_t i = 0; i < a->values.count(); ++i) {
      const long double x = to_precision(v[i], a->values.precision);
      h.push_back(x);
      if (a->values.precision == Precision::f64) {
        const double d = double(x);
        std::memcpy(a->values.bytes.data() + i * sizeof d, &d, sizeof d);
      } else {
        const float f = float(x);
        std::memcpy(a->values.bytes.data() + i * sizeof f, &f, sizeof f);
      }
    }
  }
  s.load_state(st);
  return held;
}

// A named interior array of the solver's state as save_state() gives it (exact values).
inline std::vector<long double> state_array(const Solver& s, const std::string& name) {
  const SolverState st = s.save_state();
  for (const auto& a : st.arrays)
    if (a.name == name) {
      std::vector<long double> v(a.values.count());
      for (std::int64_t i = 0; i < a.values.count(); ++i) v[i] = a.values.at(i);
      return v;
    }
  throw std::runtime_error("the solver's state has no array '" + name + "'");
}

// A field as view(name) shows it (interior, x fastest).
inline std::vector<long double> field(const Solver& s, const std::string& name) {
  const HostArray h = gather_interior(s.view(name));
  std::vector<long double> v(h.count());
  for (std::int64_t i = 0; i < h.count(); ++i) v[i] = h.at(i);
  return v;
}

// Exact model inputs from values a solver holds.
inline std::vector<Tracked> exact(const std::vector<long double>& v) {
  return std::vector<Tracked>(v.begin(), v.end());
}
inline std::vector<long double> values_of(const std::vector<Tracked>& t) {
  std::vector<long double> v(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) v[i] = t[i].v;
  return v;
}

// The worst cell of one field: |solver - model| in units in the last place of the
// solver's precision at the magnitude of the values involved in that cell (Tracked.hpp).
// A grid's size as the tests name it: 24x1x1.
inline std::string grid_name(const std::array<int, 3>& n) {
  return std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]);
}

struct Comparison {
  std::string field;
  std::array<int, 3> n{1, 1, 1};
  double worst_ulps = 0;
  std::int64_t worst = -1;
  long double solver = 0, model = 0, mag = 0;
  int longest_chain = 0;  // most roundings along one path, over all cells

  std::string describe() const {
    std::ostringstream o;
    o.precision(std::numeric_limits<long double>::max_digits10);
    o << field << ": worst " << worst_ulps << " ulp";
    if (worst >= 0) {
      const std::int64_t i = worst % n[0], j = (worst / n[0]) % n[1], k = worst / n[0] / n[1];
      o << " at cell (" << i << ", " << j << ", " << k << "): solver " << solver << ", model "
        << model << ", magnitude of the values involved " << mag;
    }
    o << "; longest chain of roundings " << longest_chain;
    return o.str();
  }
};

inline Comparison compare(const std::string& name, const std::vector<long double>& solver,
                          const std::vector<Tracked>& model, Precision p, std::array<int, 3> n) {
  Comparison c;
  c.field = name;
  c.n = n;
  if (solver.size() != model.size()) {
    c.worst_ulps = INFINITY;
    return c;
  }
  for (std::size_t i = 0; i < solver.size(); ++i) {
    const long double ulp =
        p == Precision::f32 ? ulp_at<float>(model[i].mag) : ulp_at<double>(model[i].mag);
    const long double d = std::fabs(solver[i] - model[i].v);
    const double e = std::isfinite(double(solver[i])) ? double(d / ulp) : INFINITY;
    c.longest_chain = std::max(c.longest_chain, model[i].ops);
    if (c.worst < 0 || e > c.worst_ulps) {
      c.worst_ulps = e;
      c.worst = std::int64_t(i);
      c.solver = solver[i];
      c.model = model[i].v;
      c.mag = model[i].mag;
    }
  }
  return c;
}

// The stated bound must cover the longest chain of roundings the model counted (so the
// bound follows from the error analysis of Tracked.hpp), and the solver must be within it.
inline void expect_within(const Comparison& c, double bound_ulps, const std::string& context) {
  EXPECT_LE(c.longest_chain, bound_ulps)
      << context << ": the stated bound no longer covers the model's chain of roundings; "
      << c.describe();
  EXPECT_LE(c.worst_ulps, bound_ulps) << context << ": " << c.describe();
}

}  // namespace fluxview::model
