#include <cstddef>
#include <vector>

#include "render/FinerPlanes.hpp"

#include "sim/amr/AmrHierarchy.hpp"

namespace fluxview::render {

FinerPlanes finer_planes(const Solver& s, const std::string& field, const SlicePlan& plan) {
  FinerPlanes planes;
  const amr::Hierarchy* h = amr::hierarchy_of(s);
  if (!h) return planes;
  bool own = false;
  for (const FieldInfo& f : s.fields()) own = own || f.name == field;
  if (!own) return planes;
  // The view grid's level: its cells along an axis the run has over the top grid's.
  const Grid& g = s.grid();
  const std::array<int, 3> top = h->top_cells();
  int view_level = 0;
  for (int a = 0; a < 3; ++a)
    if (top[a] > 1)
      while ((top[a] << view_level) < g.n[a]) ++view_level;
  if (h->plane_level() <= view_level) return planes;
  for (int a = 0; a < 3; ++a)
    if (plan.shown[a])
      planes[std::size_t(a)] = h->plane_view(field, a, (plan.index[a] + 0.5) / g.n[a]);
  return planes;
}

}  // namespace fluxview::render
