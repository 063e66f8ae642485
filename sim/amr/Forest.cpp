// Forest: the choice of p4est or p8est by dimension, and MPI for p4est.
#include "sim/amr/Forest.hpp"

#include <mpi.h>
#include <p4est_base.h>
#include <sc.h>
#include <signal.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/amr/ForestImpl.hpp"

namespace fluxview::amr {

namespace {

bool g_started_mpi = false;

void finalize_started_mpi() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (g_started_mpi && !finalized) MPI_Finalize();
}

ForestSetup make_setup(std::array<int, 3> trees, std::array<bool, 3> active,
                       std::array<bool, 3> periodic, int max_level) {
  ForestSetup s;
  s.trees = trees;
  s.active = active;
  s.periodic = periodic;
  s.max_level = max_level;
  for (int a = 0; a < 3; ++a) {
    if (trees[a] < 1)
      throw std::invalid_argument("Forest: " + std::to_string(trees[a]) + " trees along axis " +
                                  std::to_string(a));
    if (!active[a] && trees[a] != 1)
      throw std::invalid_argument("Forest: a reduced axis has one tree");
    if (active[a]) s.axes[s.dims++] = a;
  }
  if (s.dims == 0) throw std::invalid_argument("Forest: no active axis");
  if (max_level < 0 || max_level > Forest::deepest_level(s.dims))
    throw std::invalid_argument("Forest: max level " + std::to_string(max_level) + " outside [0, " +
                                std::to_string(Forest::deepest_level(s.dims)) + "]");
  return s;
}

std::unique_ptr<ForestImpl> make_impl(const ForestSetup& s) {
  return s.dims == 3 ? make_forest_3d(s) : make_forest_2d(s);
}

}  // namespace

void ensure_mpi_for_p4est() {
  static bool done = false;
  if (done) return;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    // MPI_Init may install handlers of its own for SIGINT and SIGTERM (an interrupted
    // cloud run on the GPU machine ended within a second of SIGINT without finishing its
    // run record; Open MPI 4.1.4 here keeps them): the process's own handlers (fluxview's:
    // finish the step, write, exit 130) are put back after it.
    struct sigaction old_int;
    struct sigaction old_term;
    sigaction(SIGINT, nullptr, &old_int);
    sigaction(SIGTERM, nullptr, &old_term);
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    g_started_mpi = true;
    std::atexit(finalize_started_mpi);
  }
  // No signal handlers, no backtraces, no log lines: fluxview reports its own errors.
  sc_init(MPI_COMM_WORLD, 0, 0, nullptr, SC_LP_SILENT);
  p4est_init(nullptr, SC_LP_SILENT);
  done = true;
}

Forest::Forest(std::array<int, 3> trees, std::array<bool, 3> active, std::array<bool, 3> periodic,
               int max_level)
    : impl_(make_impl(make_setup(trees, active, periodic, max_level))) {}

Forest::Forest(std::array<int, 3> trees, std::array<bool, 3> active, std::array<bool, 3> periodic,
               int max_level, const std::vector<LeafKey>& all) {
  ForestSetup s = make_setup(trees, active, periodic, max_level);
  s.rebuild = &all;
  impl_ = make_impl(s);
  impl_->setup.rebuild = nullptr;
  if (impl_->all_leaves() != all)
    throw std::runtime_error(
        "the stored forest is not a 2:1 balanced forest over this brick of trees (was it "
        "written with another grid or block size?)");
}

Forest::~Forest() = default;
Forest::Forest(Forest&&) noexcept = default;
Forest& Forest::operator=(Forest&&) noexcept = default;

int Forest::dims() const {
  return impl_->setup.dims;
}
const std::array<bool, 3>& Forest::active() const {
  return impl_->setup.active;
}
const std::array<int, 3>& Forest::trees() const {
  return impl_->setup.trees;
}
const std::array<bool, 3>& Forest::periodic() const {
  return impl_->setup.periodic;
}
int Forest::max_level() const {
  return impl_->setup.max_level;
}
int Forest::deepest_level(int dims) {
  return dims == 3 ? deepest_level_3d() : deepest_level_2d();
}
const std::vector<LeafKey>& Forest::leaves() const {
  return impl_->leaves;
}
const std::vector<Forest::Ghost>& Forest::ghosts() const {
  return impl_->ghosts;
}
const std::vector<Forest::Mirror>& Forest::mirrors() const {
  return impl_->mirrors;
}
const std::vector<std::int64_t>& Forest::offsets() const {
  return impl_->offsets;
}
bool Forest::adapt(const std::vector<std::int8_t>& flags) {
  return impl_->adapt(flags);
}
void Forest::refine_where(const std::function<bool(const LeafKey&)>& want) {
  impl_->refine_where(want);
}
void Forest::partition() {
  impl_->partition();
}
std::vector<LeafKey> Forest::all_leaves() const {
  return impl_->all_leaves();
}
int Forest::rank() const {
  return impl_->rank;
}
int Forest::ranks() const {
  return impl_->ranks;
}

}  // namespace fluxview::amr
