// The 2D (and 1D) forest: ForestP4est.inc over p4est.
#include <p4est_connectivity.h>
#include <p4est_extended.h>
#include <p4est_ghost.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "sim/amr/ForestImpl.hpp"

namespace fluxview::amr {

#define FLUXVIEW_FOREST_CLASS Forest2
#define FLUXVIEW_FOREST_MAKE make_forest_2d
#include "sim/amr/ForestP4est.inc"

int deepest_level_2d() {
  return P4EST_QMAXLEVEL;
}

}  // namespace fluxview::amr
