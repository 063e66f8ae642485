#include "insitu/snapshot/VtiWriter.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include "fileio/AtomicFile.hpp"

namespace fluxview {

std::string vtk_extent(const Grid& grid, std::array<int, 3> offset, std::array<int, 3> n) {
  // Points: extent o..o+n-1. Cells: extent o..o+n of the cell corners.
  const bool points = grid.centering == Centering::point;
  std::ostringstream e;
  for (int a = 0; a < 3; ++a)
    e << (a ? " " : "") << offset[a] << " " << offset[a] + (points ? n[a] - 1 : n[a]);
  return e.str();
}

std::string vtk_origin(const Grid& grid) {
  // Points start at the first point; cells half a cell before the first centre.
  const bool points = grid.centering == Centering::point;
  std::ostringstream o;
  o << std::setprecision(17);
  for (int a = 0; a < 3; ++a)
    o << (a ? " " : "") << (points ? grid.origin[a] : grid.origin[a] - 0.5 * grid.spacing[a]);
  return o.str();
}

std::string vtk_spacing(const Grid& grid) {
  std::ostringstream o;
  o << std::setprecision(17);
  for (int a = 0; a < 3; ++a) o << (a ? " " : "") << grid.spacing[a];
  return o.str();
}

void append_vectors(std::vector<NamedArray>& arrays, const std::vector<VectorField>& vectors) {
  for (const VectorField& v : vectors) {
    const HostArray* c[3] = {};
    for (int k = 0; k < 3; ++k)
      for (const NamedArray& a : arrays)
        if (a.name == v.components[k]) c[k] = &a.values;
    if (!c[0] || !c[1] || !c[2]) continue;
    NamedArray out{v.name, *c[0], 3};
    const std::size_t eb = bytes_of(c[0]->precision), n = c[0]->bytes.size() / eb;
    out.values.bytes.resize(3 * n * eb);
    for (std::size_t i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k)
        std::memcpy(&out.values.bytes[(3 * i + k) * eb], &c[k]->bytes[i * eb], eb);
    arrays.push_back(std::move(out));
  }
}

void write_vti(const std::filesystem::path& path, const Grid& grid, double time,
               const std::vector<NamedArray>& arrays) {
  const bool points = grid.centering == Centering::point;
  const std::string extent =
      vtk_extent(grid, grid.offset, arrays.empty() ? grid.n : arrays.front().values.n);
  write_image_data(path, extent, vtk_origin(grid), vtk_spacing(grid), points, time, arrays);
}

void write_image_data(const std::filesystem::path& path, const std::string& extent,
                      const std::string& origin, const std::string& spacing, bool points,
                      double time, const std::vector<NamedArray>& arrays) {
  write_file_atomic(path, [&](std::ostream& out) {
    out << "<?xml version=\"1.0\"?>\n"
        << "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" "
           "header_type=\"UInt64\">\n"
        << "  <ImageData WholeExtent=\"" << extent << "\" Origin=\"" << origin << "\" Spacing=\""
        << spacing << "\">\n"
        << "    <FieldData>\n"
        << "      <DataArray type=\"Float64\" Name=\"TIME\" NumberOfTuples=\"1\" format=\"ascii\">"
        << std::setprecision(17) << time << "</DataArray>\n"
        << "    </FieldData>\n"
        << "    <Piece Extent=\"" << extent << "\">\n"
        << "      <" << (points ? "PointData" : "CellData");
    if (!arrays.empty()) out << " Scalars=\"" << arrays.front().name << "\"";
    for (const auto& a : arrays)
      if (a.components == 3) {
        out << " Vectors=\"" << a.name << "\"";
        break;
      }
    out << ">\n";
    std::uint64_t offset = 0;
    for (const auto& a : arrays) {
      out << "        <DataArray type=\""
          << (a.values.precision == Precision::f64 ? "Float64" : "Float32") << "\" Name=\""
          << a.name << "\""
          << (a.components > 1 ? " NumberOfComponents=\"" + std::to_string(a.components) + "\""
                               : std::string())
          << " format=\"appended\" offset=\"" << offset << "\"/>\n";
      offset += sizeof(std::uint64_t) + a.values.bytes.size();
    }
    out << "      </" << (points ? "PointData" : "CellData") << ">\n"
        << "    </Piece>\n"
        << "  </ImageData>\n"
        << "  <AppendedData encoding=\"raw\">\n   _";
    for (const auto& a : arrays) {
      const std::uint64_t n = a.values.bytes.size();
      out.write(reinterpret_cast<const char*>(&n), sizeof n);
      out.write(reinterpret_cast<const char*>(a.values.bytes.data()), std::streamsize(n));
    }
    out << "\n  </AppendedData>\n</VTKFile>\n";
  });
}

}  // namespace fluxview
