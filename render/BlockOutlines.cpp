#include "render/BlockOutlines.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "render/SliceSpec.hpp"

namespace fluxview::render {

std::vector<BlockOutline> block_outlines(const std::vector<amr::BlockBox>& blocks,
                                         const std::array<int, 3>& block_cells,
                                         const std::array<int, 3>& top_cells, int axis, int index,
                                         int view_n) {
  std::array<double, 3> trees{};  // top-grid blocks per axis (1 along an absent axis)
  for (int a = 0; a < 3; ++a)
    trees[std::size_t(a)] = top_cells[std::size_t(a)] > 1
                                ? double(top_cells[std::size_t(a)]) / block_cells[std::size_t(a)]
                                : 1.0;
  const bool cut_all = top_cells[std::size_t(axis)] <= 1;
  const double plane = (index + 0.5) / std::max(1, view_n);  // fraction of the box
  const auto ax = slice_axes(axis);
  std::vector<BlockOutline> out;
  for (const amr::BlockBox& b : blocks) {
    const auto extent = [&](int a, double& lo, double& hi) {
      if (top_cells[std::size_t(a)] <= 1) {
        lo = 0;
        hi = 1;
        return;
      }
      const double n = trees[std::size_t(a)] * double(std::int64_t(1) << b.level);
      lo = b.idx[std::size_t(a)] / n;
      hi = (b.idx[std::size_t(a)] + 1) / n;
    };
    double lo = 0, hi = 1;
    extent(axis, lo, hi);
    if (!cut_all && !(lo <= plane && plane < hi)) continue;
    BlockOutline o;
    o.level = b.level;
    double u0, u1, v0, v1;
    extent(ax[0], u0, u1);
    extent(ax[1], v0, v1);
    o.u0 = float(u0);
    o.u1 = float(u1);
    o.v0 = float(v0);
    o.v1 = float(v1);
    out.push_back(o);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const BlockOutline& a, const BlockOutline& b) { return a.level < b.level; });
  return out;
}

std::vector<BlockOutline> view_block_outlines(const amr::Hierarchy& h, const Grid& grid,
                                              const ViewSettings& vs,
                                              const std::vector<amr::BlockBox>& blocks) {
  if (!vs.block_outlines || vs.mode != ViewMode::slice2d) return {};
  const SlicePlan plan = plan_slices(grid.n, vs);
  return block_outlines(blocks, h.block_cells(), h.top_cells(), vs.axis,
                        plan.index[std::size_t(vs.axis)], grid.n[std::size_t(vs.axis)]);
}

std::array<float, 4> level_colour(int level) {
  static constexpr std::array<std::array<float, 4>, 8> kLevels{{{1.0f, 1.0f, 1.0f, 1.0f},
                                                                {0.3f, 0.9f, 1.0f, 1.0f},
                                                                {0.4f, 1.0f, 0.4f, 1.0f},
                                                                {1.0f, 0.95f, 0.3f, 1.0f},
                                                                {1.0f, 0.6f, 0.2f, 1.0f},
                                                                {1.0f, 0.25f, 0.25f, 1.0f},
                                                                {1.0f, 0.3f, 0.9f, 1.0f},
                                                                {0.6f, 0.45f, 1.0f, 1.0f}}};
  return kLevels[std::size_t(std::max(level, 0)) % kLevels.size()];
}

}  // namespace fluxview::render
