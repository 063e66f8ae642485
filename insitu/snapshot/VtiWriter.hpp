#pragma once
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/core/FieldView.hpp"
#include "sim/core/Grid.hpp"
#include "sim/core/VectorFields.hpp"

namespace fluxview {

struct NamedArray {
  std::string name;
  HostArray values;    // components values a cell (or point), interleaved
  int components = 1;  // 3 for a vector (the first one is the file's active Vectors)
};

// The vector arrays (sim/core/VectorFields.hpp) appended to `arrays`, each interleaved
// from its three scalar arrays, which stay.
void append_vectors(std::vector<NamedArray>& arrays, const std::vector<VectorField>& vectors);

// Writes one VTK XML ImageData file (.vti) with the arrays appended as raw binary
// (UInt64 headers), as point data for point-centred grids and cell data for
// cell-centred ones, plus the simulation time as TIME field data. Atomic. The extent is
// the arrays' (this rank's piece under MPI) placed at grid.offset.
void write_vti(const std::filesystem::path& path, const Grid& grid, double time,
               const std::vector<NamedArray>& arrays);
// The same file with its geometry given as VTK attribute strings (extent "x0 x1 y0 y1 z0
// z1" of points, origin, spacing): the pieces of an AMR snapshot (AmrSnapshot.cpp).
void write_image_data(const std::filesystem::path& path, const std::string& extent,
                      const std::string& origin, const std::string& spacing, bool point_data,
                      double time, const std::vector<NamedArray>& arrays);

// VTK extent strings ("x0 x1 y0 y1 z0 z1") of `n` cells at `offset`, and of the whole grid.
std::string vtk_extent(const Grid& grid, std::array<int, 3> offset, std::array<int, 3> n);
// The ImageData origin and spacing attributes of a grid.
std::string vtk_origin(const Grid& grid);
std::string vtk_spacing(const Grid& grid);

}  // namespace fluxview
