#include <cstdint>
#include <variant>
#include <vector>

#include "sim/core/SolverFamily.hpp"

namespace fluxview {

std::vector<ParamSpec> common_params(int default_n, double default_length) {
  return {
      int_param("grid.nx", default_n, "cells", 1, 16384, "cells (or points) along x"),
      int_param("grid.ny", default_n, "cells", 1, 16384, "cells (or points) along y"),
      int_param("grid.nz", default_n, "cells", 1, 16384, "cells (or points) along z"),
      real_param("grid.lx", default_length, "m", 0, 1e30, "box length along x", true),
      real_param("grid.ly", default_length, "m", 0, 1e30, "box length along y", true),
      real_param("grid.lz", default_length, "m", 0, 1e30, "box length along z", true),
      int_param("run.steps", 100, "steps", 0, std::int64_t(1) << 40,
                "steps to run when neither --steps nor --until is given"),
      real_param("run.until", 0, "s", 0, 1e300,
                 "simulated time to run to (0: use run.steps instead)"),
      int_param("run.every", 0, "steps", 0, std::int64_t(1) << 40,
                "write a snapshot every this many steps (0: first and last only)"),
      int_param("run.check_every", 100, "steps", 0, std::int64_t(1) << 40,
                "check the state for NaN, Inf and negative density or pressure every this many "
                "steps (0: never)"),
  };
}

}  // namespace fluxview
