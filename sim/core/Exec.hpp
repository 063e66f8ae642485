#pragma once
// The execution layer: a loop over cells is written once and runs where the data lives.
//
//   for_each_cell(space, box, body)               body(i, j, k) for every cell of the box
//   reduce_cells(space, box, identity, body)      body(i, j, k, acc) adds a cell into acc;
//                                                 returns the accumulators of all cells joined
//
// `space` says where: exec::Host runs OpenMP loops (x innermost; sim/core/ExecHost.hpp),
// exec::Device runs CUDA kernels on a stream (sim/core/cuda/ExecDevice.cuh, which only .cu
// files include). A family writes a loop once, as a function template over the space,
// and instantiates it in its CPU source and its CUDA source; the body is a
// `[=] FLUXVIEW_LAMBDA (int i, int j, int k)` lambda (or a functor with a FLUXVIEW_HD call
// operator) that calls the shared pointwise physics. This is the role AthenaK's par_for
// and parallel_reduce play. docs/dev/architecture.md walks through one example.
//
// Only the hand-tuned stencil kernels (the papers' variants and the `fast` ones) are
// written per backend; they call the same pointwise functions.
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/FieldLayout.hpp"
#include "sim/core/HostDevice.hpp"
#include "sim/core/Types.hpp"

namespace fluxview::exec {

// The cells [lo, hi) along each axis, in a field's interior indices (ghosts are the
// indices below 0 and from n up). Loops visit x fastest, then y, then z.
struct Box {
  std::array<int, 3> lo{0, 0, 0}, hi{0, 0, 0};

  int extent(int a) const { return hi[a] > lo[a] ? hi[a] - lo[a] : 0; }
  std::int64_t cells() const { return std::int64_t(extent(0)) * extent(1) * extent(2); }
  bool empty() const { return cells() == 0; }
};

// The interior of a field.
inline Box interior(const FieldLayout& l) {
  return {{0, 0, 0}, l.n};
}
// The interior and its ghost layers (none along a reduced axis).
inline Box with_ghosts(const FieldLayout& l) {
  Box b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = -l.ghost_along(a);
    b.hi[a] = l.n[a] + l.ghost_along(a);
  }
  return b;
}
// `count` indices 0 .. count-1 as the x axis of a box (a body then reads only i).
inline Box range(std::int64_t count) {
  return {{0, 0, 0}, {int(count), 1, 1}};
}

// Where a loop runs.
struct Host {};
struct Device {
  cuda::Stream stream = nullptr;  // null: the legacy default stream, which the solvers use
};
// Where the fields a space loops over live.
constexpr Location location_of(const Host&) {
  return Location::host;
}
constexpr Location location_of(const Device&) {
  return Location::device;
}

// The thread block of a device loop (one thread a cell): X x Y x Z threads, the kernel
// compiled for X*Y*Z threads at most (launch bounds, hence registers). An axis of the box
// shorter than the block's is folded into x, so 2D and 1D boxes keep every thread busy.
// Ignored on the host.
template <int X, int Y, int Z>
struct Block {
  static_assert(X > 0 && Y > 0 && Z > 0 && X * Y * Z <= 1024, "a block holds 1 to 1024 threads");
};
using DefaultBlock = Block<32, 4, 2>;

// ---- reductions -------------------------------------------------------------------------
// A reduction's accumulator is any trivially copyable type with a FLUXVIEW_HD
// `void join(const Acc&)`; reduce_cells starts every thread from a copy of the identity it
// is given. The building blocks below combine into such a type (see sim/core/Reduce.cpp).

// max(a, b) that keeps a NaN: once one value is NaN the maximum is NaN, so a reduction over
// a state that blew up says so instead of ignoring the bad cells (fmax drops NaN).
template <class V>
FLUXVIEW_HD V max_keep_nan(V a, V b) {
  return (b > a || b != b) ? b : a;
}

template <class V>
FLUXVIEW_HD constexpr V highest() {
  if constexpr (std::is_floating_point_v<V>)
    return V(INFINITY);
  else
    return std::numeric_limits<V>::max();
}
template <class V>
FLUXVIEW_HD constexpr V lowest() {
  if constexpr (std::is_floating_point_v<V>)
    return V(-INFINITY);
  else
    return std::numeric_limits<V>::lowest();
}

template <class V>
struct Sum {
  V value = V(0);
  FLUXVIEW_HD void add(V x) { value += x; }
  FLUXVIEW_HD void join(const Sum& o) { value += o.value; }
};
template <class V>
struct Min {
  V value = highest<V>();
  FLUXVIEW_HD void add(V x) { value = x < value ? x : value; }
  FLUXVIEW_HD void join(const Min& o) { add(o.value); }
};
// Ignores NaN (a comparison with NaN is false).
template <class V>
struct Max {
  V value = lowest<V>();
  FLUXVIEW_HD void add(V x) { value = x > value ? x : value; }
  FLUXVIEW_HD void join(const Max& o) { add(o.value); }
};
template <class V>
struct MaxKeepNaN {
  V value = lowest<V>();
  FLUXVIEW_HD void add(V x) { value = max_keep_nan(value, x); }
  FLUXVIEW_HD void join(const MaxKeepNaN& o) { add(o.value); }
};

}  // namespace fluxview::exec
