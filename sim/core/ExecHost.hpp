#pragma once
// The host side of the execution layer (sim/core/Exec.hpp): OpenMP over the (z, y) rows of
// a box, x innermost in order, so the compiler can vectorise a body that allows it. A box
// of few rows (a 1D problem, a list of ghost cells) is shared out along x instead.
// Included by the CPU sources of the families and the core; never by a .cu file.
#include <omp.h>
#include <array>
#include <cstddef>
#include <cstdint>

#include <vector>

#include "sim/core/Exec.hpp"

namespace fluxview::exec {

// Boxes smaller than this run on the calling thread: for the small grids of tests and 1D
// problems the fork and join of a parallel region costs more than the work.
inline constexpr std::int64_t kParallelCells = 16384;

namespace detail {

// Calls body(i, j, k) for this thread's share of the box, inside a parallel region (or on
// the calling thread alone). Static schedules: the same thread count shares the box out
// the same way every time. kIndependent: the cells of a row may be computed in any order
// (a for_each_cell body), so the row is vectorised where the body allows (omp simd, which
// keeps every operation's IEEE result); a reduction's body adds into one accumulator and
// is not.
template <bool kIndependent, class F>
void share_box(const Box& b, const F& shared_body) {
  // This thread's own copy of the body: its captures then live in registers rather than
  // being read again after every store the body makes (which might alias them).
  F body = shared_body;
  const std::int64_t rows = std::int64_t(b.extent(1)) * b.extent(2);
  if (rows >= 2 * omp_get_num_threads()) {
#pragma omp for collapse(2) schedule(static)
    for (int k = b.lo[2]; k < b.hi[2]; ++k)
      for (int j = b.lo[1]; j < b.hi[1]; ++j) {
        if constexpr (kIndependent) {
#pragma omp simd
          for (int i = b.lo[0]; i < b.hi[0]; ++i) body(i, j, k);
        } else {
          for (int i = b.lo[0]; i < b.hi[0]; ++i) body(i, j, k);
        }
      }
  } else {
    for (int k = b.lo[2]; k < b.hi[2]; ++k)
      for (int j = b.lo[1]; j < b.hi[1]; ++j) {
#pragma omp for schedule(static)
        for (int i = b.lo[0]; i < b.hi[0]; ++i) body(i, j, k);
      }
  }
}

}  // namespace detail

// The body of each cell must be independent of every other cell's: no cell reads what
// another writes in the same loop.
template <class F, int X = 32, int Y = 4, int Z = 2>
void for_each_cell(const Host&, const Box& b, F body, Block<X, Y, Z> = {}) {
  if (b.empty()) return;
#pragma omp parallel if (b.cells() >= kParallelCells)
  detail::share_box<true>(b, body);
}

// Each thread accumulates its share of the box, and the partial results are joined in
// thread order: for a given thread count the result is the same from run to run (a
// restart reproduces the diagnostics of the run it continues).
template <class Acc, class F>
Acc reduce_cells(const Host&, const Box& b, const Acc& identity, F body) {
  if (b.empty()) return identity;
  const bool parallel = b.cells() >= kParallelCells;
  const int threads = parallel ? omp_get_max_threads() : 1;
  std::vector<Acc> partial(std::size_t(threads), identity);
#pragma omp parallel num_threads(threads) if (parallel)
  {
    Acc mine = identity;  // on this thread's stack: no false sharing while it runs
    auto add = [&mine, body](int i, int j, int k) { body(i, j, k, mine); };
    detail::share_box<false>(b, add);
    partial[std::size_t(omp_get_thread_num())] = mine;
  }
  Acc total = identity;
  for (const Acc& p : partial) total.join(p);
  return total;
}

}  // namespace fluxview::exec
