#pragma once
// The parameters of the adaptive mesh (fv.mesh and the fv.amr.* keys), read in one place
// with their units, ranges and meanings, and the checks across them that run at load,
// before anything is written.
#include <array>
#include <cstdint>
#include <vector>

#include "sim/core/Parameter.hpp"

namespace fluxview::amr {

// fv.mesh and every fv.amr.* key, for the fv family's table.
std::vector<ParamSpec> amr_params();

// Whether a run uses the adaptive mesh (fv.mesh = amr).
bool uses_amr(const ParamSet& p);

struct AmrConfig {
  int block = 16;     // cells per block edge
  int max_level = 0;  // levels above the top grid
  int min_level = 0;  // every block at least this deep
  double refine = 0.5, derefine = 0.1, filter = 0.01;
  int regrid_every = 4;
  std::array<double, 3> region_lo{0, 0, 0}, region_hi{1, 1, 1};
  int outside_level = 0;
  std::int64_t max_blocks = 0;  // 0: from the memory of the backend
};
AmrConfig read_amr_config(const ParamSet& p);

// Cross-parameter checks (fv.mesh = amr only): block size a power of two dividing the
// top grid along every active axis, derefine below refine, a region with lo < hi, the
// finest grid within p4est's depth and int indices. Throws ConfigError naming the key.
void validate_amr(const ParamSet& p);

}  // namespace fluxview::amr
