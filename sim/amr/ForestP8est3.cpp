// The 3D forest: ForestP4est.inc over p8est (p4est_to_p8est.h renames every p4est name).
#include <p4est_to_p8est.h>
#include <p8est_connectivity.h>
#include <p8est_extended.h>
#include <p8est_ghost.h>

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

#define FLUXVIEW_FOREST_CLASS Forest3
#define FLUXVIEW_FOREST_MAKE make_forest_3d
#include "sim/amr/ForestP4est.inc"

int deepest_level_3d() {
  return P4EST_QMAXLEVEL;  // P8EST_QMAXLEVEL through the renaming header
}

}  // namespace fluxview::amr
