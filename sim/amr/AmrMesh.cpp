// The adaptive mesh between steps: ghost filling in level order, the indicator, regrid.
#include "sim/amr/AmrMesh.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/amr/AmrBackend.hpp"
#include "sim/core/Types.hpp"

namespace fluxview::amr {

namespace {

Forest make_forest(const MeshShape& s, const std::vector<LeafKey>* all) {
  if (all) return Forest(s.trees, s.active, s.periodic, s.max_level, *all);
  return Forest(s.trees, s.active, s.periodic, s.max_level);
}

FieldLayout layout_of(const MeshShape& s, int elem_bytes) {
  std::array<int, 3> n{1, 1, 1};
  for (int a = 0; a < 3; ++a)
    if (s.active[a]) n[a] = s.block;
  return block_layout(n, s.ghost, elem_bytes);
}

// Room for `count` blocks, growing by a quarter so that a mesh refining step by step does
// not reallocate at every regrid.
template <class T>
void ensure_capacity(BlockPool<T>& p, int count) {
  if (count > p.capacity()) p.reserve(count + count / 4);
}

template <class V>
void upload(Buffer& dst, Location where, const std::vector<V>& v) {
  const std::size_t bytes = std::max<std::size_t>(v.size() * sizeof(V), 1);
  if (dst.bytes() < bytes || dst.where() != where) dst = Buffer(where, bytes);
  if (!v.empty()) copy_bytes(dst.data(), where, v.data(), Location::host, v.size() * sizeof(V));
}

}  // namespace

template <class T>
AmrMesh<T>::AmrMesh(const MeshShape& shape, int nv, Location where, const fv::Physics<T>& ph,
                    const FillParams& params)
    : shape_(shape),
      nv_(nv),
      where_(where),
      ph_(ph),
      params_(params),
      backend_(
          make_amr_backend<T>(where == Location::device ? BackendKind::cuda : BackendKind::cpu)),
      forest_(make_forest(shape, nullptr)),
      layout_(layout_of(shape, int(sizeof(T)))) {
  params_.block = shape.block;
  for (int a = 0; a < 3; ++a) params_.active[a] = shape.active[a];
  state_ = BlockPool<T>(where, nv, layout_, 1);
  scratch_ = BlockPool<T>(where, nv, layout_, 1);
  forest_.partition();
  layout_for_leaves();
}

template <class T>
AmrMesh<T>::AmrMesh(const MeshShape& shape, int nv, Location where, const fv::Physics<T>& ph,
                    const FillParams& params, const std::vector<LeafKey>& all_leaves)
    : shape_(shape),
      nv_(nv),
      where_(where),
      ph_(ph),
      params_(params),
      backend_(
          make_amr_backend<T>(where == Location::device ? BackendKind::cuda : BackendKind::cpu)),
      forest_(make_forest(shape, &all_leaves)),
      layout_(layout_of(shape, int(sizeof(T)))) {
  params_.block = shape.block;
  for (int a = 0; a < 3; ++a) params_.active[a] = shape.active[a];
  state_ = BlockPool<T>(where, nv, layout_, 1);
  scratch_ = BlockPool<T>(where, nv, layout_, 1);
  layout_for_leaves();
}

template <class T>
void AmrMesh<T>::refine_initial(const std::function<bool(const LeafKey&)>& want) {
  forest_.refine_where(want);
  forest_.partition();
  layout_for_leaves();
}

template <class T>
void AmrMesh<T>::layout_for_leaves() {
  const auto& leaves = forest_.leaves();
  const auto& ghosts = forest_.ghosts();
  std::vector<LeafKey> ghost_keys;
  ghost_keys.reserve(ghosts.size());
  for (const auto& g : ghosts) ghost_keys.push_back(g.key);
  const int slots = int(leaves.size() + ghosts.size());
  ensure_capacity(state_, slots);
  ensure_capacity(scratch_, slots);
  if (registers() == 3) ensure_capacity(third_, slots);
  info_.resize(std::size_t(slots));
  for (int s = 0; s < slots; ++s) {
    const LeafKey& k = s < int(leaves.size()) ? leaves[std::size_t(s)]
                                              : ghost_keys[std::size_t(s) - leaves.size()];
    info_[std::size_t(s)].level = k.level;
    for (int a = 0; a < 3; ++a) info_[std::size_t(s)].idx[a] = k.idx[a];
  }
  plan_ = build_plan(shape_, leaves, ghost_keys);
  upload_plan();
  exchange_.plan(forest_, where_, nv_, state_.view().stride);
}

template <class T>
void AmrMesh<T>::use_registers(int registers) {
  if (registers < 2 || registers > 3)
    throw std::invalid_argument("AmrMesh: " + std::to_string(registers) + " registers (2 or 3)");
  if (registers == 3 && this->registers() < 3)
    third_ = BlockPool<T>(where_, nv_, layout_, std::max(state_.capacity(), 1));
  if (registers == 2) third_ = BlockPool<T>();
}

template <class T>
void AmrMesh<T>::set_boundaries(const Boundary (&boundary)[3][2]) {
  bool changed = false;
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s)
      if (shape_.boundary[a][s] != boundary[a][s]) {
        shape_.boundary[a][s] = boundary[a][s];
        changed = true;
      }
  if (changed) layout_for_leaves();
}

template <class T>
void AmrMesh<T>::set_block_transport(BlockTransport t) {
  exchange_.set_transport(t);
  exchange_.plan(forest_, where_, nv_, state_.view().stride);
}

template <class T>
void AmrMesh<T>::upload_plan() {
  if (where_ != Location::device) return;
  upload(ghost_tasks_dev_, where_, plan_.ghost_tasks);
  upload(reflux_dev_, where_, plan_.reflux);
  upload(info_dev_, where_, info_);
}

template <class T>
const BlockInfo* AmrMesh<T>::info_on_backend() const {
  return where_ == Location::device ? static_cast<const BlockInfo*>(info_dev_.data())
                                    : info_.data();
}

template <class T>
const RefluxTask* AmrMesh<T>::reflux_on_backend() const {
  return where_ == Location::device ? static_cast<const RefluxTask*>(reflux_dev_.data())
                                    : plan_.reflux.data();
}

template <class T>
void AmrMesh<T>::fill_ghosts(const PoolView<T>& u) {
  // Every rank refreshes as often as the others (groups() is max_level + 1 everywhere),
  // whether or not its own groups have tasks.
  exchange_.refresh(u, *backend_);
  for (int g = 0; g < plan_.groups(); ++g) {
    const int begin = plan_.group_begin[std::size_t(g)],
              end = plan_.group_begin[std::size_t(g) + 1];
    if (begin != end) {
      const GhostTask* tasks = where_ == Location::device
                                   ? static_cast<const GhostTask*>(ghost_tasks_dev_.data())
                                   : plan_.ghost_tasks.data();
      backend_->fill_ghosts(u, tasks, begin, end, params_, ph_);
    }
    if (forest_.ranks() > 1) exchange_.refresh(u, *backend_);
  }
}

template <class T>
std::vector<double> AmrMesh<T>::indicators(double eps) {
  const int n = blocks();
  std::vector<T> values(std::size_t(std::max(n, 1)));
  if (where_ == Location::device) {
    if (indicator_dev_.bytes() < values.size() * sizeof(T))
      indicator_dev_ = Buffer(where_, values.size() * sizeof(T) * 5 / 4 + sizeof(T));
    backend_->indicators(state_.view(), n, params_, ph_, T(eps),
                         static_cast<T*>(indicator_dev_.data()));
    copy_bytes(values.data(), Location::host, indicator_dev_.data(), where_, n * sizeof(T));
  } else {
    backend_->indicators(state_.view(), n, params_, ph_, T(eps), values.data());
  }
  return std::vector<double>(values.begin(), values.begin() + n);
}

template <class T>
bool AmrMesh<T>::regrid(const std::vector<std::int8_t>& flags, bool ghosts_current) {
  if (!ghosts_current) fill_ghosts(state_.view());
  const std::vector<LeafKey> old_leaves = forest_.leaves();
  if (!forest_.adapt(flags)) return false;
  const std::vector<RemapTask> tasks = remap_tasks(old_leaves, forest_.leaves(), shape_.active);
  ensure_capacity(scratch_, int(tasks.size()));
  if (where_ == Location::device) {
    Buffer dev;
    upload(dev, where_, tasks);
    backend_->remap(state_.view(), scratch_.view(), static_cast<const RemapTask*>(dev.data()),
                    int(tasks.size()), params_, ph_);
  } else {
    backend_->remap(state_.view(), scratch_.view(), tasks.data(), int(tasks.size()), params_, ph_);
  }
  state_.swap(scratch_);
  const std::vector<std::int64_t> before = forest_.offsets();
  forest_.partition();
  const int slots = int(forest_.leaves().size() + forest_.ghosts().size());
  if (forest_.offsets() != before || state_.capacity() < slots) {
    // Blocks change owner, or the ghost blocks need more room than the pool has (growing
    // it would lose its contents): into the scratch pool at their new slots, swapped in.
    ensure_capacity(scratch_, slots);
    move_partitioned_blocks(state_, scratch_, before, forest_.offsets());
    state_.swap(scratch_);
  }
  layout_for_leaves();
  return true;
}

template <class T>
bool AmrMesh<T>::adapt_discarding_data(const std::vector<std::int8_t>& flags) {
  if (!forest_.adapt(flags)) return false;
  forest_.partition();
  layout_for_leaves();
  return true;
}

template class AmrMesh<float>;
template class AmrMesh<double>;

}  // namespace fluxview::amr
