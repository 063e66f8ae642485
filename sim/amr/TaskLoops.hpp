#pragma once
// Two loops the execution layer (sim/core/Exec.hpp) has no shape for, on the host; the
// device versions are cuda/TaskLoops.cuh. Both take bodies written once (FLUXVIEW_HD
// functors), as for_each_cell does.
//
//   for_each_task_cell(space, begin, end, body)   body.box(t, lo, hi) is the box of task
//       t (a face of a block, a block); body(t, i, j, k) does one of its cells. Tasks of
//       one list have boxes of different sizes and places, so a task is the unit of work:
//       OpenMP threads take tasks (dynamic), a CUDA thread block takes one.
//   reduce_per_block(space, blocks, layout, identity, body, out)   out[b] = the cells of
//       block b's interior joined (body(b, i, j, k, acc) adds a cell): a reduction per
//       block, such as the refinement indicator.
#include <array>
#include <cstdint>

#include "sim/core/Exec.hpp"
#include "sim/core/FieldLayout.hpp"

namespace fluxview::amr {

template <class Body>
void for_each_task_cell(const exec::Host&, int begin, int end, const Body& body) {
  // Below a few dozen tasks the fork and join costs more than the work.
#pragma omp parallel for schedule(dynamic, 4) if (end - begin >= 32)
  for (int t = begin; t < end; ++t) {
    int lo[3], hi[3];
    body.box(t, lo, hi);
    for (int k = lo[2]; k < hi[2]; ++k)
      for (int j = lo[1]; j < hi[1]; ++j)
        for (int i = lo[0]; i < hi[0]; ++i) body(t, i, j, k);
  }
}

template <class Acc, class Body>
void reduce_per_block(const exec::Host&, int blocks, const FieldLayout& l, const Acc& identity,
                      const Body& body, Acc* out) {
#pragma omp parallel for schedule(dynamic, 4) if (blocks >= 32)
  for (int b = 0; b < blocks; ++b) {
    Acc acc = identity;
    for (int k = 0; k < l.n[2]; ++k)
      for (int j = 0; j < l.n[1]; ++j)
        for (int i = 0; i < l.n[0]; ++i) body(b, i, j, k, acc);
    out[b] = acc;
  }
}

// The device versions (cuda/TaskLoops.cuh, for .cu files), declared here so that code
// written once over the space finds them.
template <class Body>
void for_each_task_cell(const exec::Device& d, int begin, int end, const Body& body);
template <class Acc, class Body>
void reduce_per_block(const exec::Device& d, int blocks, const FieldLayout& l, const Acc& identity,
                      const Body& body, Acc* out);

}  // namespace fluxview::amr
