// The vtkOverlappingAMR snapshot (.vthb and one .vti per block), in the layout VTK's own
// vtkXMLUniformGridAMRWriter uses: a dataset's AMR box is its cells at its level,
// inclusive; a piece's extent starts at 0 and its origin is the box's lower corner; along
// an axis the run does not have (a 2D problem) extents are 0 0, boxes 0 -1, and the grid
// description names only the axes it has; a 1D run is a 2D strip (AmrPieces.hpp).
//
// Pieces are named by level and position, not by rank, so the files of a run are the same
// on any rank count. The datasets are the leaves and their ancestors (AmrPieces.hpp).
#include "insitu/snapshot/AmrSnapshot.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <iomanip>
#include <iterator>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "fileio/AtomicFile.hpp"
#include "fileio/Folders.hpp"
#include "insitu/EveryRank.hpp"
#include "insitu/snapshot/AmrPieces.hpp"
#include "insitu/snapshot/VtiWriter.hpp"
#include "sim/amr/BlockBoxes.hpp"
#include "sim/core/Parallel.hpp"

namespace fluxview {

namespace {

std::string piece_name(int level, const std::array<int, 3>& idx) {
  char name[96];
  std::snprintf(name, sizeof name, "l%d_%d_%d_%d.vti", level, idx[0], idx[1], idx[2]);
  return name;
}

std::string triple(const double v[3]) {
  std::ostringstream o;
  o << std::setprecision(17) << v[0] << " " << v[1] << " " << v[2];
  return o.str();
}

}  // namespace

std::string write_amr_snapshot(const std::filesystem::path& dir, const std::string& stem,
                               const Solver& solver, const amr::Hierarchy& h,
                               std::uint64_t& bytes) {
  const AmrVtkGeometry g = amr_vtk_geometry(h);
  std::vector<std::string> names;
  for (const FieldInfo& f : solver.fields()) names.push_back(f.name);
  const std::vector<AmrPiece> pieces = amr_vtk_pieces(h, names, g);

  on_every_rank([&] {
    create_folder(dir / stem);
    for (const AmrPiece& p : pieces) {
      std::vector<NamedArray> arrays;
      for (std::size_t f = 0; f < names.size(); ++f) arrays.push_back({names[f], p.values[f]});
      append_vectors(arrays, vector_fields(solver.fields()));  // B of MHD, for the stream tracer
      std::ostringstream extent;
      double origin[3], spacing[3];
      for (int a = 0; a < 3; ++a) {
        spacing[a] = g.spacing(a, p.level);
        origin[a] = g.origin(a, p.level, p.idx);
        extent << (a ? " " : "") << 0 << " " << (g.shown(a) ? g.cells(a, p.level) : 0);
      }
      write_image_data(dir / stem / piece_name(p.level, p.idx), extent.str(), triple(origin),
                       triple(spacing), false, solver.time(), arrays);
      for (const NamedArray& a : arrays) bytes += a.values.bytes.size();
    }
  });

  // The root lists every rank's pieces, level by level, in z, y, x order.
  const std::vector<amr::BlockBox> all = amr::gather_boxes_to_root(piece_boxes(pieces));
  const std::string name = stem + ".vthb";
  on_every_rank([&] {
    if (!parallel::is_root()) return;
    // level -> (z, y, x) of its pieces, sorted
    std::map<int, std::map<std::tuple<int, int, int>, std::array<int, 3>>> by_level;
    for (const amr::BlockBox& b : all) by_level[b.level][{b.idx[2], b.idx[1], b.idx[0]}] = b.idx;
    std::string axes;
    for (int a = 0; a < 3; ++a)
      if (g.shown(a)) axes += "XYZ"[a];
    write_file_atomic(dir / name, [&](std::ostream& out) {
      out << "<?xml version=\"1.0\"?>\n"
          << "<VTKFile type=\"vtkOverlappingAMR\" version=\"1.1\" byte_order=\"LittleEndian\" "
             "header_type=\"UInt64\">\n"
          << "  <vtkOverlappingAMR origin=\"0 0 0\" grid_description=\"" << axes << "\">\n";
      const int deepest = by_level.empty() ? 0 : by_level.rbegin()->first;
      for (int level = 0; level <= deepest; ++level) {
        double spacing[3];
        for (int a = 0; a < 3; ++a) spacing[a] = g.spacing(a, level);
        out << "    <Block level=\"" << level << "\" spacing=\"" << triple(spacing) << "\">\n";
        int index = 0;
        for (const auto& entry : by_level[level]) {
          const std::array<int, 3>& idx = entry.second;
          out << "      <DataSet index=\"" << index++ << "\" amr_box=\"";
          for (int a = 0; a < 3; ++a) {
            const int lo = g.active(a) ? idx[std::size_t(a)] * g.block[a] : 0;
            const int hi = g.shown(a) ? lo + g.cells(a, level) - 1 : -1;
            out << (a ? " " : "") << lo << " " << hi;
          }
          out << "\" file=\"" << stem << "/" << piece_name(level, idx) << "\"/>\n";
        }
        out << "    </Block>\n";
      }
      out << "  </vtkOverlappingAMR>\n</VTKFile>\n";
    });
  });
  return name;
}

}  // namespace fluxview
