#pragma once
// The host loop over the cells of a list of tasks: body.box(t, lo, hi) gives the box of
// task t, body(t, i, j, k) does one cell. Tasks are spread over OpenMP threads (dynamic:
// their boxes differ in size); a task's cells run x fastest on one thread. The device loop
// is cuda/TaskLoops.cuh.
#include <algorithm>

namespace fluxview::amr {

template <class Body>
void for_each_task_cell(int begin, int end, const Body& body) {
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

}  // namespace fluxview::amr
