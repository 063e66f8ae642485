#include "insitu/snapshot/SnapshotSeries.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iomanip>
#include <memory>
#include <ostream>
#include <regex>
#include <utility>

#include "fileio/AtomicFile.hpp"
#include "fileio/Folders.hpp"
#include "insitu/EveryRank.hpp"
#include "insitu/snapshot/AmrSnapshot.hpp"
#include "insitu/snapshot/VtiWriter.hpp"
#include "sim/amr/AmrHierarchy.hpp"
#include "sim/core/Parallel.hpp"

namespace fluxview {

SnapshotSeries::SnapshotSeries(std::filesystem::path dir, std::vector<SnapshotRecord> earlier)
    : dir_(std::move(dir)), records_(std::move(earlier)) {}

std::vector<SnapshotRecord> SnapshotSeries::read_series(const std::filesystem::path& dir) {
  std::ifstream in(dir / "series.pvd");
  std::vector<SnapshotRecord> out;
  const std::regex entry(
      R"re(<DataSet timestep="([^"]*)"[^>]*file="(snapshot_(\d+)\.(p?vti|vthb))")re");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, entry)) continue;
    try {
      out.push_back({std::stoll(m[3].str()), std::stod(m[1].str()), m[2].str()});
    } catch (const std::exception&) {
      // A number out of range: not a series this fluxview wrote; the entry is dropped.
    }
  }
  return out;
}

void SnapshotSeries::write(const Solver& solver) {
  // A solver on the adaptive mesh writes its blocks as a vtkOverlappingAMR (.vthb).
  if (const amr::Hierarchy* h = amr::hierarchy_of(solver)) {
    char amr_stem[64];
    std::snprintf(amr_stem, sizeof amr_stem, "snapshot_%06lld",
                  static_cast<long long>(solver.step()));
    const std::string name = write_amr_snapshot(dir_, amr_stem, solver, *h, bytes_);
    while (!records_.empty() && records_.back().step >= solver.step()) records_.pop_back();
    records_.push_back({solver.step(), solver.time(), name});
    on_every_rank([&] { write_pvd(); });
    return;
  }
  // Pieces of point data must share their boundary points for VTK to join them, so
  // under MPI a rank's piece takes the first ghost layer past each inner high face
  // (the neighbour's first points, fresh after every step).
  const Grid& g = solver.grid();
  std::vector<NamedArray> arrays;
  for (const FieldInfo& f : solver.fields()) {
    const FieldView v = solver.view(f.name);
    std::array<int, 3> n = v.layout.n;
    if (parallel::size() > 1 && g.centering == Centering::point)
      for (int a = 0; a < 3; ++a)
        if (g.offset[a] + n[a] < g.n[a] && v.layout.ghost_along(a) > 0) ++n[a];
    arrays.push_back({f.name, gather_box(v, {0, 0, 0}, n)});
  }
  append_vectors(arrays, vector_fields(solver.fields()));  // B of MHD, for the stream tracer
  char stem[64];
  std::snprintf(stem, sizeof stem, "snapshot_%06lld", static_cast<long long>(solver.step()));
  std::string name = std::string(stem) + ".vti";
  if (parallel::size() == 1) {
    write_vti(dir_ / name, solver.grid(), solver.time(), arrays);
  } else {
    // Under MPI each rank writes its piece; the root writes the .pvti that joins them.
    // A failure on any rank stops every rank here, before the next collective.
    char piece[64];
    std::snprintf(piece, sizeof piece, "piece_%04d.vti", parallel::rank());
    on_every_rank([&] {
      create_folder(dir_ / stem);
      write_vti(dir_ / stem / piece, solver.grid(), solver.time(), arrays);
    });
    const auto& o = solver.grid().offset;
    const auto& n = arrays.front().values.n;
    const std::vector<int> boxes = parallel::allgather({o[0], o[1], o[2], n[0], n[1], n[2]});
    name = std::string(stem) + ".pvti";
    on_every_rank([&] {
      if (parallel::is_root()) write_pvti(dir_ / name, stem, solver, arrays, boxes);
    });
  }
  for (const auto& a : arrays) bytes_ += a.values.bytes.size();
  // A snapshot replaces those of its step and after it that the series lists (a final
  // snapshot that coincides with a periodic one; a restart's first snapshot).
  while (!records_.empty() && records_.back().step >= solver.step()) records_.pop_back();
  records_.push_back({solver.step(), solver.time(), name});
  on_every_rank([&] { write_pvd(); });
}

void SnapshotSeries::write_pvti(const std::filesystem::path& path, const std::string& stem,
                                const Solver& solver, const std::vector<NamedArray>& arrays,
                                const std::vector<int>& boxes) const {
  const Grid& g = solver.grid();
  const bool points = g.centering == Centering::point;
  const char* data = points ? "PPointData" : "PCellData";
  write_file_atomic(path, [&](std::ostream& out) {
    out << "<?xml version=\"1.0\"?>\n"
        << "<VTKFile type=\"PImageData\" version=\"1.0\" byte_order=\"LittleEndian\" "
           "header_type=\"UInt64\">\n"
        << "  <PImageData WholeExtent=\"" << vtk_extent(g, {0, 0, 0}, g.n)
        << "\" GhostLevel=\"0\" Origin=\"" << vtk_origin(g) << "\" Spacing=\"" << vtk_spacing(g)
        << "\">\n"
        << "    <" << data << " Scalars=\"" << arrays.front().name << "\"";
    for (const auto& a : arrays)
      if (a.components == 3) {
        out << " Vectors=\"" << a.name << "\"";
        break;
      }
    out << ">\n";
    for (const auto& a : arrays)
      out << "      <PDataArray type=\""
          << (a.values.precision == Precision::f64 ? "Float64" : "Float32") << "\" Name=\""
          << a.name << "\""
          << (a.components > 1 ? " NumberOfComponents=\"" + std::to_string(a.components) + "\""
                               : std::string())
          << "/>\n";
    out << "    </" << data << ">\n";
    for (std::size_t r = 0; r * 6 < boxes.size(); ++r) {
      char piece[64];
      std::snprintf(piece, sizeof piece, "piece_%04zu.vti", r);
      const int* b = &boxes[r * 6];
      out << "    <Piece Extent=\"" << vtk_extent(g, {b[0], b[1], b[2]}, {b[3], b[4], b[5]})
          << "\" Source=\"" << stem << "/" << piece << "\"/>\n";
    }
    out << "  </PImageData>\n</VTKFile>\n";
  });
}

void SnapshotSeries::write_pvd() const {
  if (!parallel::is_root()) return;
  write_file_atomic(dir_ / "series.pvd", [&](std::ostream& out) {
    out << "<?xml version=\"1.0\"?>\n"
        << "<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
        << "  <Collection>\n";
    for (const auto& r : records_)
      out << "    <DataSet timestep=\"" << std::setprecision(17) << r.time
          << "\" part=\"0\" file=\"" << r.file << "\"/>\n";
    out << "  </Collection>\n</VTKFile>\n";
  });
}

}  // namespace fluxview
