#pragma once
// Sets OpenMP's thread count for a scope and puts the previous one back. The tests of the
// threaded paths use it so that they run on several threads whatever OMP_NUM_THREADS says:
// scripts/test.sh runs every test on one thread, since ctest already runs one test per core.
#include <omp.h>

namespace fluxview::test {

class ThreadCount {
 public:
  explicit ThreadCount(int threads) : before_(omp_get_max_threads()) {
    omp_set_num_threads(threads);
  }
  ~ThreadCount() { omp_set_num_threads(before_); }
  ThreadCount(const ThreadCount&) = delete;
  ThreadCount& operator=(const ThreadCount&) = delete;

 private:
  int before_;
};

}  // namespace fluxview::test
