#include "insitu/snapshot/SnapshotSeries.hpp"

#include <cstdio>
#include <iomanip>

#include "insitu/snapshot/AtomicFile.hpp"
#include "insitu/snapshot/VtiWriter.hpp"

namespace fluxview {

SnapshotSeries::SnapshotSeries(std::filesystem::path dir) : dir_(std::move(dir)) {}

void SnapshotSeries::write(const Solver& solver) {
  std::vector<NamedArray> arrays;
  for (const FieldInfo& f : solver.fields()) arrays.push_back({f.name, gather_interior(solver.view(f.name))});
  char name[64];
  std::snprintf(name, sizeof name, "snapshot_%06lld.vti", static_cast<long long>(solver.step()));
  write_vti(dir_ / name, solver.grid(), solver.time(), arrays);
  for (const auto& a : arrays) bytes_ += a.values.bytes.size();
  // A repeated step (a final snapshot that coincides with a periodic one) replaces it.
  if (!records_.empty() && records_.back().step == solver.step()) records_.pop_back();
  records_.push_back({solver.step(), solver.time(), name});
  write_pvd();
}

void SnapshotSeries::write_pvd() const {
  write_file_atomic(dir_ / "series.pvd", [&](std::ostream& out) {
    out << "<?xml version=\"1.0\"?>\n"
        << "<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
        << "  <Collection>\n";
    for (const auto& r : records_)
      out << "    <DataSet timestep=\"" << std::setprecision(17) << r.time << "\" part=\"0\" file=\"" << r.file
          << "\"/>\n";
    out << "  </Collection>\n</VTKFile>\n";
  });
}

}  // namespace fluxview
