// The adaptive mesh's parameters and their checks.
#include "sim/amr/AmrParams.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/ConfigError.hpp"

#ifdef FLUXVIEW_HAVE_AMR
#include "sim/amr/Forest.hpp"
#endif

namespace fluxview::amr {

std::vector<ParamSpec> amr_params() {
  std::vector<ParamSpec> p = {
      choice_param("fv.mesh", "uniform", {"uniform", "amr"},
                   "uniform: one grid of grid.nx x ny x nz cells; amr: block-structured adaptive "
                   "mesh (p4est), grid.n* cells at its top level, with fv.reconstruction = "
                   "plm, constant or wenoz5 and fv.time = rk2, ssprk3 or rk4"),
      int_param("fv.amr.block", 16, "cells", 8, 32,
                "AMR: cells along each edge of a block (8, 16 or 32); divides grid.n* along "
                "every active axis"),
      int_param("fv.amr.max_level", 2, "levels", 0, 20,
                "AMR: levels of refinement above the top grid; the finest cells are 2^-max_level "
                "of the top grid's"),
      int_param("fv.amr.min_level", 0, "levels", 0, 20,
                "AMR: every block at least this deep (min_level = max_level: a fully refined "
                "mesh)"),
      real_param("fv.amr.refine", 0.5, "", 0, 1,
                 "AMR: Loehner's estimate (largest over a block, of density and pressure) above "
                 "which a block is refined"),
      real_param("fv.amr.derefine", 0.1, "", 0, 1,
                 "AMR: estimate below which a block may be coarsened (when all its siblings "
                 "agree)"),
      real_param("fv.amr.filter", 0.01, "", 0, 1,
                 "AMR: Loehner's noise filter eps (keeps small ripples on large values from "
                 "refining)"),
      int_param("fv.amr.regrid_every", 4, "steps", 1, 1000000, "AMR: steps between regrids"),
      int_param("fv.amr.outside_level", 0, "levels", 0, 20,
                "AMR: deepest level outside the refinement region (at most max_level)"),
      int_param("fv.amr.max_blocks", 0, "blocks", 0, 1000000000,
                "AMR: most blocks a rank holds (0: what fits in 80% of the free device memory, "
                "or 50% of the host's); refinement beyond it is skipped, strongest first"),
  };
  const char* axes[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    p.push_back(real_param(std::string("fv.amr.region_") + axes[a] + "min", 0, "", 0, 1,
                           std::string("AMR: refinement region, lower bound along ") + axes[a] +
                               " as a fraction of l" + axes[a]));
    p.push_back(real_param(std::string("fv.amr.region_") + axes[a] + "max", 1, "", 0, 1,
                           std::string("AMR: refinement region, upper bound along ") + axes[a] +
                               " as a fraction of l" + axes[a]));
  }
  return p;
}

bool uses_amr(const ParamSet& p) {
  return p.has("fv.mesh") && p.get_string("fv.mesh") == "amr";
}

AmrConfig read_amr_config(const ParamSet& p) {
  AmrConfig c;
  c.block = int(p.get_int("fv.amr.block"));
  c.max_level = int(p.get_int("fv.amr.max_level"));
  c.min_level = int(p.get_int("fv.amr.min_level"));
  c.refine = p.get_real("fv.amr.refine");
  c.derefine = p.get_real("fv.amr.derefine");
  c.filter = p.get_real("fv.amr.filter");
  c.regrid_every = int(p.get_int("fv.amr.regrid_every"));
  c.outside_level = int(p.get_int("fv.amr.outside_level"));
  c.max_blocks = p.get_int("fv.amr.max_blocks");
  const char* axes[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    c.region_lo[a] = p.get_real(std::string("fv.amr.region_") + axes[a] + "min");
    c.region_hi[a] = p.get_real(std::string("fv.amr.region_") + axes[a] + "max");
  }
  return c;
}

void validate_amr(const ParamSet& p) {
  if (!uses_amr(p)) return;
#ifndef FLUXVIEW_HAVE_AMR
  throw ConfigError(
      "fv.mesh = amr: this fluxview was built without the adaptive mesh (p4est and MPI were "
      "not found at configure time); allowed: fv.mesh = uniform");
#else
  const AmrConfig c = read_amr_config(p);
  if (c.block != 8 && c.block != 16 && c.block != 32)
    throw ConfigError("fv.amr.block = " + std::to_string(c.block) + ": allowed: 8, 16 or 32");
  const char* nk[3] = {"grid.nx", "grid.ny", "grid.nz"};
  int dims = 0;
  for (int a = 0; a < 3; ++a) {
    const std::int64_t n = p.get_int(nk[a]);
    if (n == 1) continue;
    ++dims;
    if (n % c.block != 0)
      throw ConfigError(std::string(nk[a]) + " = " + std::to_string(n) +
                        " is not a multiple of fv.amr.block = " + std::to_string(c.block) +
                        " (the top grid is made of whole blocks); allowed: a multiple of " +
                        std::to_string(c.block) + ", or 1 to drop the axis");
    // Cell indices of the finest level are ints (block positions times the block size).
    if (double(n) * std::ldexp(1.0, c.max_level) >= std::ldexp(1.0, 30))
      throw ConfigError("fv.amr.max_level = " + std::to_string(c.max_level) + ": " + nk[a] + " = " +
                        std::to_string(n) + " refined " + std::to_string(c.max_level) +
                        " times is " + format_value(double(n) * std::ldexp(1.0, c.max_level)) +
                        " cells, more than 2^30; allowed: max_level <= " +
                        std::to_string(int(std::floor(std::log2(std::ldexp(1.0, 30) / n - 1)))));
  }
  if (dims == 0) throw ConfigError("fv.mesh = amr needs at least one axis with more than one cell");
  const int deepest = Forest::deepest_level(dims == 1 ? 2 : dims);
  if (c.max_level > deepest)
    throw ConfigError("fv.amr.max_level = " + std::to_string(c.max_level) +
                      ": deeper than p4est's forests allow in " + std::to_string(dims) +
                      "D; allowed: at most " + std::to_string(deepest));
  if (c.min_level > c.max_level)
    throw ConfigError("fv.amr.min_level = " + std::to_string(c.min_level) +
                      " is deeper than fv.amr.max_level = " + std::to_string(c.max_level) +
                      "; allowed: min_level <= max_level");
  if (c.outside_level > c.max_level)
    throw ConfigError("fv.amr.outside_level = " + std::to_string(c.outside_level) +
                      " is deeper than fv.amr.max_level = " + std::to_string(c.max_level) +
                      "; allowed: outside_level <= max_level");
  if (!(c.derefine < c.refine))
    throw ConfigError(
        "fv.amr.derefine = " + format_value(c.derefine) +
        " is not below fv.amr.refine = " + format_value(c.refine) +
        "; allowed: derefine < refine (else a block would refine and coarsen at once)");
  const char* axes[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a)
    if (!(c.region_lo[a] < c.region_hi[a]))
      throw ConfigError(std::string("fv.amr.region_") + axes[a] +
                        "min = " + format_value(c.region_lo[a]) + " is not below fv.amr.region_" +
                        axes[a] + "max = " + format_value(c.region_hi[a]) + "; allowed: min < max");
#endif
}

}  // namespace fluxview::amr
