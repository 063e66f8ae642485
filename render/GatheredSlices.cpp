#include "render/GatheredSlices.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>

#include "render/FinerPlanes.hpp"
#include "render/SliceTexture.hpp"
#include "sim/amr/BlockBoxes.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/Reduce.hpp"

namespace fluxview::render {

namespace {

// Whether a box (global offset o, n cells) holds cells of the plane normal to `axis`
// through global index `index`.
bool cuts(const std::array<int, 3>& o, const std::array<int, 3>& n, int axis, int index) {
  return index >= o[axis] && index < o[axis] + n[axis];
}

}  // namespace

GatheredSlices gather_slices(const Solver& s, const ViewSettings& vs) {
  GatheredSlices g;
  g.field = vs.field.empty() ? s.fields().at(0).name : vs.field;
  g.grid = s.grid();
  const std::array<int, 3> offset = g.grid.offset;
  g.grid.offset = {0, 0, 0};
  g.plan = plan_slices(g.grid.n, vs);
  // The adaptive mesh's finer planes: whole on every rank, rank 0 keeps its own. The 2D
  // view of one needs nothing of the view grid (as ViewRenderer::update).
  const FinerPlanes planes = finer_planes(s, g.field, g.plan);
  const auto& shown_plane = planes[std::size_t(vs.axis)];
  const bool plane_only = vs.mode == ViewMode::slice2d && shown_plane.has_value();
  const FieldView v = plane_only ? *shown_plane : s.view(g.field);
  g.unit = v.unit;
  const std::array<int, 3> local = v.layout.n;
  for (int a = 0; a < 3; ++a) {
    if (!planes[std::size_t(a)] || !parallel::is_root()) continue;
    const FieldView& p = *planes[std::size_t(a)];
    const auto ax = slice_axes(a);
    g.size[a] = {p.layout.n[ax[0]], p.layout.n[ax[1]]};
    g.values[a].resize(std::size_t(g.size[a][0]) * g.size[a][1]);
    copy_slice_to_host(p, {a, 0}, g.values[a].data());
  }
  // This rank's pieces of the other shown slices, one after the other in axis order.
  std::vector<float> mine;
  for (int a = 0; a < 3; ++a) {
    if (planes[std::size_t(a)]) continue;
    if (!g.plan.shown[a] || !cuts(offset, local, a, g.plan.index[a])) continue;
    const auto ax = slice_axes(a);
    const std::size_t at = mine.size();
    mine.resize(at + std::size_t(local[ax[0]]) * local[ax[1]]);
    copy_slice_to_host(v, {a, g.plan.index[a] - offset[a]}, mine.data() + at);
  }
  // Where every rank's box lies, to place its pieces (as the .pvti of a snapshot does).
  const std::vector<int> boxes =
      parallel::allgather({offset[0], offset[1], offset[2], local[0], local[1], local[2]});
  std::vector<int> counts;
  const std::vector<float> all = parallel::gather_to_root(mine, &counts);
  if (vs.auto_range) {
    const FieldStats st = field_stats(v);
    g.min = parallel::allreduce_min(st.min);
    g.max = parallel::allreduce_max(st.max);
  }
  // Block outlines of the adaptive mesh: every rank's blocks, listed on rank 0.
  const amr::Hierarchy* h = amr::hierarchy_of(s);
  std::vector<amr::BlockBox> all_blocks;
  const bool outlined = h && vs.block_outlines && vs.mode == ViewMode::slice2d;
  if (outlined) all_blocks = amr::gather_boxes_to_root(h->local_blocks());
  if (!parallel::is_root()) return g;
  if (outlined) g.outlines = view_block_outlines(*h, g.grid, vs, all_blocks);

  for (int a = 0; a < 3; ++a)
    if (g.plan.shown[a] && !planes[std::size_t(a)]) {
      const auto ax = slice_axes(a);
      g.values[a].resize(std::size_t(g.grid.n[ax[0]]) * g.grid.n[ax[1]]);
    }
  std::size_t at = 0;
  for (int r = 0; r < parallel::size(); ++r) {
    const std::array<int, 3> o{boxes[6 * r], boxes[6 * r + 1], boxes[6 * r + 2]};
    const std::array<int, 3> n{boxes[6 * r + 3], boxes[6 * r + 4], boxes[6 * r + 5]};
    const std::size_t first = at;
    for (int a = 0; a < 3; ++a) {
      if (planes[std::size_t(a)] || !g.plan.shown[a] || !cuts(o, n, a, g.plan.index[a])) continue;
      const auto ax = slice_axes(a);
      const int w = g.grid.n[ax[0]];
      if (at + std::size_t(n[ax[0]]) * n[ax[1]] > all.size())
        throw std::logic_error("gather_slices: rank " + std::to_string(r) +
                               " sent fewer values than its box cuts");
      for (int j = 0; j < n[ax[1]]; ++j, at += n[ax[0]])
        std::copy_n(all.begin() + std::ptrdiff_t(at), n[ax[0]],
                    g.values[a].begin() + std::ptrdiff_t(o[ax[1]] + j) * w + o[ax[0]]);
    }
    if (at - first != std::size_t(counts[r]))
      throw std::logic_error("gather_slices: rank " + std::to_string(r) + " sent " +
                             std::to_string(counts[r]) + " values, its box cuts " +
                             std::to_string(at - first));
  }
  return g;
}

}  // namespace fluxview::render
