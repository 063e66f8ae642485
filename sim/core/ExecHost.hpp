#pragma once
// The host side of the execution layer (sim/core/Exec.hpp): OpenMP over the (z, y) rows of
// a box, x innermost in order, so the compiler can vectorise a body that allows it.
// Included by the CPU sources of the families and the core; never by a .cu file.
#include <omp.h>

#include <vector>

#include "sim/core/Exec.hpp"

namespace fluxview::exec {

// Boxes smaller than this run on the calling thread: for the small grids of tests and 1D
// problems the fork and join of a parallel region costs more than the work.
inline constexpr std::int64_t kParallelCells = 16384;

template <class F, int X = 32, int Y = 4, int Z = 2>
void for_each_cell(const Host&, const Box& b, F body, Block<X, Y, Z> = {}) {
  if (b.empty()) return;
  const bool parallel = b.cells() >= kParallelCells;
#pragma omp parallel for collapse(2) schedule(static) if (parallel)
  for (int k = b.lo[2]; k < b.hi[2]; ++k)
    for (int j = b.lo[1]; j < b.hi[1]; ++j)
      for (int i = b.lo[0]; i < b.hi[0]; ++i) body(i, j, k);
}

// Each thread accumulates its share of the rows (static schedule), and the partial
// results are joined in thread order: for a given thread count the result is the same
// from run to run (a restart reproduces the diagnostics of the run it continues).
template <class Acc, class F>
Acc reduce_cells(const Host&, const Box& b, const Acc& identity, F body) {
  if (b.empty()) return identity;
  const bool parallel = b.cells() >= kParallelCells;
  const int threads = parallel ? omp_get_max_threads() : 1;
  std::vector<Acc> partial(std::size_t(threads), identity);
#pragma omp parallel num_threads(threads) if (parallel)
  {
    Acc mine = identity;  // on this thread's stack: no false sharing while it runs
#pragma omp for collapse(2) schedule(static)
    for (int k = b.lo[2]; k < b.hi[2]; ++k)
      for (int j = b.lo[1]; j < b.hi[1]; ++j)
        for (int i = b.lo[0]; i < b.hi[0]; ++i) body(i, j, k, mine);
    partial[std::size_t(omp_get_thread_num())] = mine;
  }
  Acc total = identity;
  for (const Acc& p : partial) total.join(p);
  return total;
}

}  // namespace fluxview::exec
