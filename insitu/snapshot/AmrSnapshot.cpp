// The vtkOverlappingAMR snapshot (.vthb and one .vti per block), in the layout VTK's own
// vtkXMLUniformGridAMRWriter uses: a dataset's AMR box is its cells at its level,
// inclusive; a piece's extent starts at 0 and its origin is the box's lower corner; along
// an axis the run does not have (a 2D problem) extents are 0 0, boxes 0 -1, and the grid
// description names only the axes it has. VTK's AMR has no 1D grids (its reader refuses
// X_LINE pieces), so a 1D run is written as a 2D strip as wide as the box along the next
// axis, refined along it like along the run's axis (2^level cells, each holding the line's
// value) so that the reader's blanking, which coarsens boxes by the refinement ratio along
// every axis, finds what a finer level covers.
//
// Pieces are named by level and position, not by rank, so the files of a run are the same
// on any rank count. The datasets are the leaves and their ancestors (AmrPieces.hpp).
#include "insitu/snapshot/AmrSnapshot.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
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
#include "sim/core/Parallel.hpp"

namespace fluxview {

namespace {

struct Geometry {
  std::array<int, 3> block{1, 1, 1}, top{1, 1, 1};
  std::array<double, 3> length{1, 1, 1};
  int strip_axis = -1;  // the axis a 1D run is one cell thick along; -1 in 2D and 3D
  bool active(int a) const { return top[a] > 1; }
  // Axes the VTK file has: the active ones and a 1D run's strip axis.
  bool shown(int a) const { return active(a) || a == strip_axis; }
  // Cells of a piece at `level` along axis a (1 along an axis the file does not have).
  int cells(int a, int level) const {
    return active(a) ? block[a] : a == strip_axis ? 1 << level : 1;
  }
  double spacing(int a, int level) const {
    const double refined = double(std::int64_t(1) << level);
    return active(a)         ? length[a] / (double(top[a]) * refined)
           : a == strip_axis ? length[a] / refined
                             : length[a];
  }
  void choose_strip_axis() {
    int dims = 0;
    for (int a = 0; a < 3; ++a) dims += active(a);
    if (dims != 1) return;
    for (int a = 0; a < 3 && strip_axis < 0; ++a)
      if (!active(a)) strip_axis = a;
  }
};

std::string piece_name(int level, const std::array<int, 3>& idx) {
  char name[96];
  std::snprintf(name, sizeof name, "l%d_%d_%d_%d.vti", level, idx[0], idx[1], idx[2]);
  return name;
}

// A 1D block's values repeated across the strip: `rows` copies along `axis` (x fastest).
HostArray across_strip(const HostArray& line, const std::array<int, 3>& n, int axis, int rows) {
  const std::size_t size = line.precision == Precision::f64 ? 8 : 4;
  std::array<int, 3> m = n;
  m[std::size_t(axis)] = rows;
  HostArray out;
  out.precision = line.precision;
  out.n = m;
  out.bytes.resize(std::size_t(m[0]) * std::size_t(m[1]) * std::size_t(m[2]) * size);
  std::size_t to = 0;
  for (int k = 0; k < m[2]; ++k)
    for (int j = 0; j < m[1]; ++j)
      for (int i = 0; i < m[0]; ++i, to += size) {
        const int c[3] = {axis == 0 ? 0 : i, axis == 1 ? 0 : j, axis == 2 ? 0 : k};
        const std::size_t from =
            ((std::size_t(c[2]) * std::size_t(n[1]) + std::size_t(c[1])) * std::size_t(n[0]) +
             std::size_t(c[0])) *
            size;
        std::memcpy(out.bytes.data() + to, line.bytes.data() + from, size);
      }
  return out;
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
  Geometry g;
  g.block = h.block_cells();
  g.top = h.top_cells();
  g.length = h.lengths();
  g.choose_strip_axis();
  std::vector<std::string> names;
  std::vector<HostArray> leaf_values;
  for (const FieldInfo& f : solver.fields()) {
    names.push_back(f.name);
    leaf_values.push_back(h.block_values(f.name));
  }
  const std::vector<AmrPiece> pieces = amr_pieces(h.local_blocks(), leaf_values, g.block);
  leaf_values.clear();

  on_every_rank([&] {
    create_folder(dir / stem);
    for (const AmrPiece& p : pieces) {
      std::vector<NamedArray> arrays;
      for (std::size_t f = 0; f < names.size(); ++f)
        arrays.push_back({names[f], g.strip_axis < 0 ? p.values[f]
                                                     : across_strip(p.values[f], g.block,
                                                                    g.strip_axis, 1 << p.level)});
      std::ostringstream extent;
      double origin[3], spacing[3];
      for (int a = 0; a < 3; ++a) {
        spacing[a] = g.spacing(a, p.level);
        origin[a] = g.active(a) ? double(p.idx[a]) * g.block[a] * spacing[a] : 0.0;
        extent << (a ? " " : "") << 0 << " " << (g.shown(a) ? g.cells(a, p.level) : 0);
      }
      write_image_data(dir / stem / piece_name(p.level, p.idx), extent.str(), triple(origin),
                       triple(spacing), false, solver.time(), arrays);
      for (const NamedArray& a : arrays) bytes += a.values.bytes.size();
    }
  });

  // The root lists every rank's pieces, level by level, in z, y, x order.
  std::vector<int> mine;
  for (const AmrPiece& p : pieces) mine.insert(mine.end(), {p.level, p.idx[0], p.idx[1], p.idx[2]});
  const std::vector<unsigned char> all = parallel::gather_to_root(mine.data(), mine.size(), 4);
  const std::string name = stem + ".vthb";
  on_every_rank([&] {
    if (!parallel::is_root()) return;
    std::vector<int> keys(all.size() / sizeof(int));
    if (!keys.empty()) std::memcpy(keys.data(), all.data(), all.size());
    // level -> (z, y, x) of its pieces, sorted
    std::map<int, std::map<std::tuple<int, int, int>, std::array<int, 3>>> by_level;
    for (std::size_t i = 0; i + 3 < keys.size(); i += 4) {
      const std::array<int, 3> idx{keys[i + 1], keys[i + 2], keys[i + 3]};
      by_level[keys[i]][{idx[2], idx[1], idx[0]}] = idx;
    }
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
