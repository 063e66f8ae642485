#pragma once
// Helpers of the steering tests: small runs of each family, whole states compared bit for
// bit, one cell of a field.
#include <gtest/gtest.h>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/Solver.hpp"
#include "tests/support/SolverTestUtil.hpp"

namespace fluxview::test {

// Small runs of each family that the steering tests share: 2D, so a CPU test takes
// moments.
inline const std::vector<std::string> kHeat2D = {"grid.nx=48", "grid.ny=48", "grid.nz=1"};
inline const std::vector<std::string> kFd2D = {"grid.nx=32", "grid.ny=32", "grid.nz=1"};
inline const std::vector<std::string> kFv2D = {"grid.nx=48", "grid.ny=48", "grid.nz=1"};

inline std::vector<std::string> with(std::vector<std::string> a,
                                     const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Whether two solvers hold the same state to the last bit: every array of save_state()
// (the fields a step reads, and the obstacles), the clock and the next dt.
inline ::testing::AssertionResult same_state(const Solver& a, const Solver& b) {
  const SolverState x = a.save_state(), y = b.save_state();
  if (x.step != y.step)
    return ::testing::AssertionFailure() << "steps differ: " << x.step << " vs " << y.step;
  if (std::memcmp(&x.time, &y.time, sizeof x.time) != 0)
    return ::testing::AssertionFailure() << "times differ: " << x.time << " vs " << y.time;
  const double da = a.dt(), db = b.dt();
  if (std::memcmp(&da, &db, sizeof da) != 0)
    return ::testing::AssertionFailure() << "next dt differs: " << da << " vs " << db;
  if (x.arrays.size() != y.arrays.size())
    return ::testing::AssertionFailure()
           << "array counts differ: " << x.arrays.size() << " vs " << y.arrays.size();
  for (std::size_t i = 0; i < x.arrays.size(); ++i) {
    if (x.arrays[i].name != y.arrays[i].name)
      return ::testing::AssertionFailure()
             << "arrays differ: " << x.arrays[i].name << " vs " << y.arrays[i].name;
    if (x.arrays[i].values.bytes != y.arrays[i].values.bytes) {
      const HostArray& p = x.arrays[i].values;
      const HostArray& q = y.arrays[i].values;
      for (std::int64_t c = 0; c < p.count(); ++c)
        if (p.at(c) != q.at(c))
          return ::testing::AssertionFailure() << x.arrays[i].name << " differs first at cell " << c
                                               << ": " << p.at(c) << " vs " << q.at(c);
      return ::testing::AssertionFailure() << x.arrays[i].name << " differs in some bit";
    }
  }
  if (x.extra != y.extra)
    return ::testing::AssertionFailure() << "extra state differs: " << x.extra << " vs " << y.extra;
  return ::testing::AssertionSuccess();
}

// One value of a field at interior cell (i, j, k).
inline double cell(const Solver& s, const std::string& field, int i, int j, int k) {
  const HostArray h = gather_interior(s.view(field));
  return h.at(i + std::int64_t(h.n[0]) * (j + std::int64_t(h.n[1]) * k));
}

// A tool call from a name and arguments (resolved against the solver's tools).
inline ToolCall call(const Solver& s, const std::string& tool,
                     const std::map<std::string, double>& args) {
  return resolve_tool_call(s.tools(), ToolCall{tool, args}, "test");
}

#define FLUXVIEW_NEED_CUDA()                                                                       \
  do {                                                                                             \
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda::no_device_reason(); \
  } while (0)

}  // namespace fluxview::test
