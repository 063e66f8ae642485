#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "sim/core/FieldView.hpp"
#include "sim/core/Grid.hpp"

namespace fluxview {

struct NamedArray {
  std::string name;
  HostArray values;
};

// Writes one VTK XML ImageData file (.vti) with the arrays appended as raw binary
// (UInt64 headers), as point data for point-centred grids and cell data for
// cell-centred ones, plus the simulation time as TIME field data. Atomic.
void write_vti(const std::filesystem::path& path, const Grid& grid, double time,
               const std::vector<NamedArray>& arrays);

}  // namespace fluxview
