#include "insitu/snapshot/VtiWriter.hpp"

#include <cstdint>
#include <iomanip>
#include <sstream>

#include "insitu/snapshot/AtomicFile.hpp"

namespace fluxview {

void write_vti(const std::filesystem::path& path, const Grid& grid, double time,
               const std::vector<NamedArray>& arrays) {
  const bool points = grid.centering == Centering::point;
  // Points: extent 0..n-1 starting at the first point. Cells: extent 0..n of the
  // cell corners, starting half a cell before the first centre.
  std::ostringstream extent, origin, spacing;
  origin << std::setprecision(17);
  spacing << std::setprecision(17);
  for (int a = 0; a < 3; ++a) {
    extent << (a ? " " : "") << 0 << " " << (points ? grid.n[a] - 1 : grid.n[a]);
    origin << (a ? " " : "") << (points ? grid.origin[a] : grid.origin[a] - 0.5 * grid.spacing[a]);
    spacing << (a ? " " : "") << grid.spacing[a];
  }
  write_file_atomic(path, [&](std::ostream& out) {
    out << "<?xml version=\"1.0\"?>\n"
        << "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" "
           "header_type=\"UInt64\">\n"
        << "  <ImageData WholeExtent=\"" << extent.str() << "\" Origin=\"" << origin.str()
        << "\" Spacing=\"" << spacing.str() << "\">\n"
        << "    <FieldData>\n"
        << "      <DataArray type=\"Float64\" Name=\"TIME\" NumberOfTuples=\"1\" format=\"ascii\">"
        << std::setprecision(17) << time << "</DataArray>\n"
        << "    </FieldData>\n"
        << "    <Piece Extent=\"" << extent.str() << "\">\n"
        << "      <" << (points ? "PointData" : "CellData");
    if (!arrays.empty()) out << " Scalars=\"" << arrays.front().name << "\"";
    out << ">\n";
    std::uint64_t offset = 0;
    for (const auto& a : arrays) {
      out << "        <DataArray type=\"" << (a.values.precision == Precision::f64 ? "Float64" : "Float32")
          << "\" Name=\"" << a.name << "\" format=\"appended\" offset=\"" << offset << "\"/>\n";
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
