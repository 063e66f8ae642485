// The Catalyst adaptor: the only file that includes ParaView headers. About 600 lines on
// purpose: splitting it would compile ParaView's heavy headers once per piece, and its
// parts (the output window, ParaView's start, the grid, the pipelines) share VTK types
// that the header keeps out of every other file.
//
// The state goes to the pipelines as one vtkImageData on the channel "input": whole
// extent = the global grid (this rank's piece of it under MPI), one cell (or point, for
// point-centred grids) array per field named as in snapshots, the simulation time and step in the
// data description. A solver on the adaptive mesh offers, besides its resampled grid on
// "input", its hierarchy as a vtkOverlappingAMR on the channel "amr" (the datasets of its
// .vthb snapshots: leaves and ancestors, covered cells blanked by VTK), built only at steps
// a pipeline asks for it.
//
// Why the host fields are (mostly) copied: a solver's field has ghost layers and rows
// padded to 128 bytes, so its interior is not one contiguous run of memory, and VTK's
// data arrays are contiguous. Handing ParaView the whole padded array instead (a larger
// extent with ghost and padding cells blanked through vtkGhostType) would make every
// pipeline see another geometry than the snapshots, put uninitialised padding into
// ranges, contours and colour maps of any filter that ignores ghost cells, and cost a
// ghost array as large as an eighth of the field anyway. So an interior is handed over
// zero-copy (SetArray with save=1) only where it is contiguous (no ghosts and no padding
// along the axes used, e.g. 1D runs); otherwise its rows are gathered into a persistent
// array, only for fields a pipeline needs and only at steps a pipeline runs. The bytes
// of each kind are counted (stats()) and written to run.json.
#include "insitu/catalyst/CatalystAdaptor.hpp"

#include <mpi.h>
#include <vtkAMRBox.h>
#include <vtkAMRUtilities.h>
#include <vtkCPDataDescription.h>
#include <vtkCPInputDataDescription.h>
#include <vtkCPProcessor.h>
#include <vtkCPPythonPipeline.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkLogger.h>
#include <vtkMPI.h>
#include <vtkNew.h>
#include <vtkObjectFactory.h>
#include <vtkOutputWindow.h>
#include <vtkOverlappingAMR.h>
#include <vtkPointData.h>
#include <vtkPythonInterpreter.h>
#include <vtkSmartPointer.h>
#include <vtkStructuredData.h>
#include <vtkUniformGrid.h>
#include <algorithm>
#include <array>
#include <system_error>
#include <utility>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "insitu/catalyst/FieldCopy.hpp"
#include "insitu/snapshot/AmrPieces.hpp"
#include "insitu/snapshot/VtiWriter.hpp"
#include "sim/amr/AmrHierarchy.hpp"
#include "sim/amr/BlockBoxes.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/VectorFields.hpp"

namespace fluxview {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Keeps what VTK and Python print (Python's stdout and stderr are redirected here)
// while a script runs, so that its traceback can go into the error message and the
// GUI; everything is still printed as usual.
class CapturingOutputWindow : public vtkOutputWindow {
 public:
  static CapturingOutputWindow* New();
  vtkTypeMacro(CapturingOutputWindow, vtkOutputWindow) void DisplayText(const char* text) override {
    // VTK's warnings (a producer given step 0 twice, ...) are noise for a user, unless asked.
    const auto type = GetCurrentMessageType();
    if (!verbose && (type == vtkOutputWindow::MESSAGE_TYPE_WARNING ||
                     type == vtkOutputWindow::MESSAGE_TYPE_GENERIC_WARNING))
      return;
    if (capturing && text)
      captured += text;
    else if (!quiet || GetCurrentMessageType() == vtkOutputWindow::MESSAGE_TYPE_ERROR)
      vtkOutputWindow::DisplayText(text);
  }
  void start() {
    captured.clear();
    capturing = true;
  }
  // The text since start(): the caller prints it, or puts it into an error message.
  std::string stop() {
    capturing = false;
    return std::move(captured);
  }
  bool quiet = false;
  bool verbose = false;

 private:
  bool capturing = false;
  std::string captured;
};
vtkStandardNewMacro(CapturingOutputWindow);

// The Python text of a path, safe whatever characters it holds.
std::string python_string(const std::string& s) {
  std::ostringstream hex;
  hex << "bytes.fromhex('";
  for (unsigned char c : s) {
    const char* d = "0123456789abcdef";
    hex << d[c >> 4] << d[c & 15];
  }
  hex << "').decode()";
  return hex.str();
}

// Scripts written by ParaView 5.9+ ("Save Catalyst State") are version 2 and say so in
// a comment; legacy version 1 scripts define DoCoProcessing.
int script_version(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str().find("def DoCoProcessing") != std::string::npos ? 1 : 2;
}

bool has_traceback(const std::string& text) {
  return text.find("Traceback (most recent call last)") != std::string::npos;
}

// ParaView's renderer (X11 in Debian's build) aborts the process when it cannot reach
// the X server, so say it up front. Only a local display (":N") is checked, by its socket;
// pipelines that only write data extracts do not need one.
std::string display_problem() {
  const char* d = std::getenv("DISPLAY");
  if (!d || !*d) return "DISPLAY is not set";
  const std::string display = d;
  if (display[0] != ':') return "";
  const std::string number = display.substr(1, display.find('.') - 1);
  if (!std::filesystem::exists("/tmp/.X11-unix/X" + number))
    return "no X server socket for DISPLAY=" + display;
  return "";
}

// ParaView's Catalyst is started once per process and never finalised: its Finalize also
// finalises Python and (when it started it) MPI, neither of which can start again, so a
// second adaptor in the same process (the GUI restarting a run) would abort. The
// processor is only the ParaView session; each adaptor drives its own pipelines.
// What is printed follows `log` (the newest adaptor's, as the window is the process's).
void apply_log(CapturingOutputWindow* output, CatalystLog log) {
  static const vtkLogger::Verbosity paraview_default = vtkLogger::GetCurrentVerbosityCutoff();
  output->quiet = log == CatalystLog::quiet;
  output->verbose = log == CatalystLog::verbose;
  // ParaView logs a warning per step when a pipeline asks for another time than the
  // one just given; errors still show.
  vtkLogger::SetStderrVerbosity(output->verbose ? paraview_default : vtkLogger::VERBOSITY_ERROR);
}

CapturingOutputWindow* start_paraview(void* mpi_comm, CatalystLog log) {
  static CapturingOutputWindow* output = nullptr;
  static vtkCPProcessor* processor = nullptr;  // deliberately leaked, see above
  if (processor) {
    apply_log(output, log);
    return output;
  }
  // Python's output goes through vtkOutputWindow, where it is captured per script.
  output = CapturingOutputWindow::New();
  apply_log(output, log);
  vtkOutputWindow::SetInstance(output);
  vtkPythonInterpreter::SetRedirectOutput(true);
  if (const std::string why = display_problem(); !why.empty())
    std::cerr << "fluxview: warning: " << why
              << "; Catalyst scripts that render will abort ParaView (run under xvfb-run -a)\n";
  vtkCPProcessor* p = vtkCPProcessor::New();
  int ok = 0;
  if (mpi_comm) {
    vtkMPICommunicatorOpaqueComm comm(static_cast<MPI_Comm*>(mpi_comm));
    ok = p->Initialize(comm);
  } else {
    ok = p->Initialize();
  }
  if (!ok) {
    p->Delete();
    throw CatalystError("ParaView Catalyst failed to initialise (vtkCPProcessor::Initialize)");
  }
  processor = p;
  // Initialize may install its own output window; ours goes back on top.
  vtkOutputWindow::SetInstance(output);
  return output;
}

struct FieldArray {
  vtkSmartPointer<vtkDataArray> array;
  const void* zero_copy_source = nullptr;  // non-null: array aliases the solver's memory
  std::int64_t count = 0;
  Precision precision = Precision::f64;
};

}  // namespace

struct CatalystAdaptor::Impl {
  CatalystOptions options;
  CapturingOutputWindow* output = nullptr;  // the process-wide one (see start_paraview)
  std::vector<vtkSmartPointer<vtkCPPythonPipeline>> pipelines;
  std::vector<CatalystScriptStatus> status;
  CatalystStats stats;
  vtkNew<vtkImageData> image;
  std::map<std::string, FieldArray> arrays;
  vtkSmartPointer<vtkOverlappingAMR> amr;  // the channel "amr" (adaptive mesh only)
  std::string published_fields;

  void load(const std::string& path);
  void fill(const FieldView& v, std::array<int, 3> n, FieldArray& fa);
  void fill_amr(const amr::Hierarchy& h, const std::vector<std::string>& names,
                const std::vector<VectorField>& vectors, bool device);
  void report(std::size_t i, std::int64_t step, const std::string& what,
              const std::string& traceback);
};

bool CatalystAdaptor::available() {
  return true;
}

CatalystAdaptor::CatalystAdaptor(CatalystOptions options) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.options = std::move(options);
  if (m.options.every < 1)
    throw CatalystError("--catalyst-every " + std::to_string(m.options.every) +
                        ": must be 1 or more");
  m.output = start_paraview(m.options.mpi_comm, m.options.log);
  // Through Python's own os.environ: ParaView's interpreter took its copy of the
  // environment before this point.
  if (!m.options.output_dir.empty())
    vtkPythonInterpreter::RunSimpleString(
        ("import os\nos.environ.setdefault('FLUXVIEW_CATALYST_OUTPUT', " +
         python_string(m.options.output_dir) + ")")
            .c_str());
  for (const auto& s : m.options.scripts) {
    try {
      m.load(s);
    } catch (const CatalystError& e) {
      if (m.options.on_error == CatalystOnError::stop) throw;
      // Keep the failed script in status() so that run.json and the GUI show why.
      m.pipelines.push_back(nullptr);
      CatalystScriptStatus st;
      st.script = s;
      st.failed = true;
      st.last_error = e.what();
      m.status.push_back(st);
      std::cerr << "fluxview: " << e.what() << (st.last_error.ends_with('\n') ? "" : "\n")
                << "fluxview: going on without " << s << " (--catalyst-on-error continue)\n";
    }
  }
}

CatalystAdaptor::~CatalystAdaptor() {
  for (auto& p : impl_->pipelines)
    if (p) p->Finalize();
  impl_->pipelines.clear();
}

void CatalystAdaptor::Impl::load(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw CatalystError("Catalyst script " + path + ": no such file");
  // Parse it now, so a typo stops the run before the first step rather than at the
  // first output step (version 2 scripts are imported only when first executed).
  output->start();
  const int rc =
      vtkPythonInterpreter::RunSimpleString(("compile(open(" + python_string(path) +
                                             ", 'rb').read(), " + python_string(path) + ", 'exec')")
                                                .c_str());
  std::string text = output->stop();
  if (rc != 0) throw CatalystError("Catalyst script " + path + " does not parse:\n" + text);
  output->start();
  auto pipeline =
      vtkCPPythonPipeline::CreateAndInitializePipeline(path.c_str(), script_version(path));
  text = output->stop();
  if (!pipeline) throw CatalystError("Catalyst script " + path + " could not be loaded:\n" + text);
  if (!text.empty() && !output->quiet) std::cerr << text << std::flush;
  pipelines.push_back(pipeline);
  CatalystScriptStatus st;
  st.script = path;
  status.push_back(st);
}

void CatalystAdaptor::add_script(const std::string& path) {
  impl_->load(path);
}

void CatalystAdaptor::set_enabled(std::size_t index, bool enabled) {
  if (index < impl_->status.size()) impl_->status[index].enabled = enabled;
}
const std::vector<CatalystScriptStatus>& CatalystAdaptor::status() const {
  return impl_->status;
}
const CatalystStats& CatalystAdaptor::stats() const {
  return impl_->stats;
}

void CatalystAdaptor::Impl::report(std::size_t i, std::int64_t step, const std::string& what,
                                   const std::string& traceback) {
  CatalystScriptStatus& st = status[i];
  std::string msg = "Catalyst script " + st.script + " failed at step " + std::to_string(step) +
                    " (" + what + ")";
  if (!traceback.empty()) msg += ":\n" + traceback;
  st.last_error = msg;
  if (options.on_error == CatalystOnError::stop) throw CatalystError(msg);
  st.failed = true;
  std::cerr << "fluxview: " << msg << (msg.ends_with('\n') ? "" : "\n")
            << "fluxview: going on without " << st.script << " (--catalyst-on-error continue)\n";
}

// Copies (or aliases) the interior of one field into a VTK array of its precision.
// `n` is the box from interior (0,0,0): the interior, or one more layer on inner high faces.
void CatalystAdaptor::Impl::fill(const FieldView& v, std::array<int, 3> n, FieldArray& fa) {
  const FieldLayout& L = v.layout;
  const std::int64_t count = std::int64_t(n[0]) * n[1] * n[2];
  const std::size_t eb = bytes_of(v.precision);
  const bool contiguous = interior_is_contiguous(L, n);
  const auto* base = static_cast<const unsigned char*>(v.data);
  const void* interior = base + L.origin * eb;
  const bool alias = v.where == Location::host && contiguous;
  // A new VTK array whenever the kind of storage changes: an aliased array must never be
  // resized (it would write into the solver's memory) and an owned one never aliased.
  if (!fa.array || fa.count != count || fa.precision != v.precision ||
      (alias ? fa.zero_copy_source != interior : fa.zero_copy_source != nullptr)) {
    if (v.precision == Precision::f64)
      fa.array = vtkSmartPointer<vtkDoubleArray>::New();
    else
      fa.array = vtkSmartPointer<vtkFloatArray>::New();
    fa.array->SetName(v.name.c_str());
    fa.array->SetNumberOfComponents(1);
    fa.count = count;
    fa.precision = v.precision;
    fa.zero_copy_source = nullptr;
    if (alias) {
      // save = 1: VTK never frees or reallocates the solver's memory. The pipelines only
      // read it, and the adaptor is destroyed before the solver.
      fa.array->SetVoidArray(const_cast<void*>(interior), count, 1);
      fa.zero_copy_source = interior;
    } else {
      fa.array->SetNumberOfTuples(count);
    }
  }
  if (alias) {
    stats.bytes_zero_copy += count * eb;
    fa.array->Modified();
    return;
  }
  const std::uint64_t bytes = copy_field_box(v, n, fa.array->GetVoidPointer(0));
  (v.where == Location::host ? stats.bytes_host_gathered : stats.bytes_device_to_host) += bytes;
  fa.array->Modified();
}

// The hierarchy with the fields `names` as cell data, rebuilt at every step a pipeline asks
// for it (the blocks change with every regrid). Under MPI every rank describes the whole
// hierarchy (every rank's boxes, as VTK's parallel AMR wants: blanking and the AMR filters
// read the boxes of all ranks) and holds the datasets of its own pieces; datasets are
// numbered within a level in the .vthb's order (z, y, x of their position).
void CatalystAdaptor::Impl::fill_amr(const amr::Hierarchy& h, const std::vector<std::string>& names,
                                     const std::vector<VectorField>& vectors, bool device) {
  const AmrVtkGeometry g = amr_vtk_geometry(h);
  const std::vector<AmrPiece> pieces = amr_vtk_pieces(h, names, g);
  // Every rank's pieces, on every rank.
  std::map<std::tuple<int, int, int, int>, int> index;  // (level, z, y, x) -> dataset index
  int levels = 1;
  for (const amr::BlockBox& b : amr::allgather_boxes(piece_boxes(pieces))) {
    index[{b.level, b.idx[2], b.idx[1], b.idx[0]}] = 0;
    levels = std::max(levels, b.level + 1);
  }
  std::vector<int> per_level(std::size_t(levels), 0);
  for (auto& [key, i] : index) i = per_level[std::size_t(std::get<0>(key))]++;
  int description = VTK_XYZ_GRID;
  if (!g.shown(2)) description = VTK_XY_PLANE;
  if (!g.shown(1)) description = VTK_XZ_PLANE;
  if (!g.shown(0)) description = VTK_YZ_PLANE;
  amr = vtkSmartPointer<vtkOverlappingAMR>::New();
  amr->Initialize(levels, per_level.data());
  const double zero[3] = {0, 0, 0};
  amr->SetOrigin(zero);
  amr->SetGridDescription(description);
  for (int l = 0; l < levels; ++l) {
    const double spacing[3] = {g.spacing(0, l), g.spacing(1, l), g.spacing(2, l)};
    amr->SetSpacing(unsigned(l), spacing);
    amr->SetRefinementRatio(unsigned(l), 2);
  }
  const auto geometry = [&](int level, const std::array<int, 3>& idx, double origin[3],
                            double spacing[3], int dims[3]) {
    for (int a = 0; a < 3; ++a) {
      spacing[a] = g.spacing(a, level);
      origin[a] = g.origin(a, level, idx);
      dims[a] = g.shown(a) ? g.cells(a, level) + 1 : 1;
    }
  };
  for (const auto& [key, i] : index) {
    const int level = std::get<0>(key);
    const std::array<int, 3> idx{std::get<3>(key), std::get<2>(key), std::get<1>(key)};
    double origin[3], spacing[3];
    int dims[3];
    geometry(level, idx, origin, spacing, dims);
    amr->SetAMRBox(unsigned(level), unsigned(i),
                   vtkAMRBox(origin, dims, spacing, zero, description));
  }
  std::uint64_t bytes = 0;
  for (const AmrPiece& p : pieces) {
    double origin[3], spacing[3];
    int dims[3];
    geometry(p.level, p.idx, origin, spacing, dims);
    auto grid = vtkSmartPointer<vtkUniformGrid>::New();
    grid->SetOrigin(origin);
    grid->SetSpacing(spacing);
    grid->SetDimensions(dims);
    // The scalars, then the vectors asked for, interleaved from their components as the
    // snapshot's pieces are (VtiWriter.hpp).
    std::vector<NamedArray> arrays;
    for (std::size_t f = 0; f < names.size(); ++f) arrays.push_back({names[f], p.values[f]});
    append_vectors(arrays, vectors);
    for (std::size_t f = 0; f < arrays.size(); ++f) {
      const HostArray& v = arrays[f].values;
      vtkSmartPointer<vtkDataArray> array;
      if (v.precision == Precision::f64)
        array = vtkSmartPointer<vtkDoubleArray>::New();
      else
        array = vtkSmartPointer<vtkFloatArray>::New();
      array->SetName(arrays[f].name.c_str());
      array->SetNumberOfComponents(arrays[f].components);
      array->SetNumberOfTuples(v.count());  // a vector's array counts its cells too
      std::memcpy(array->GetVoidPointer(0), v.bytes.data(), v.bytes.size());
      bytes += v.bytes.size();
      grid->GetCellData()->AddArray(array);
      if (f == 0) grid->GetCellData()->SetActiveScalars(arrays[f].name.c_str());
      if (arrays[f].components == 3) grid->GetCellData()->SetActiveVectors(arrays[f].name.c_str());
    }
    const int i = index.at({p.level, p.idx[2], p.idx[1], p.idx[0]});
    amr->SetDataSet(unsigned(p.level), unsigned(i), grid);
  }
  vtkAMRUtilities::BlankCells(amr);
  (device ? stats.bytes_device_to_host : stats.bytes_host_gathered) += bytes;
}

void CatalystAdaptor::execute(const Solver& solver, bool force) {
  Impl& m = *impl_;
  const std::int64_t step = solver.step();
  if (!force && step % m.options.every != 0) return;
  const auto t0 = Clock::now();
  ++m.stats.offered;
  const Grid& g = solver.grid();
  const bool points = g.centering == Centering::point;
  const int association = points ? vtkDataObject::POINT : vtkDataObject::CELL;
  const auto fields = solver.fields();
  // Under MPI each rank holds a box of the global grid (grid().offset, its fields'
  // layouts): its piece. Serial runs: the piece is the whole.
  // Pieces of point data must share their boundary points for VTK to join them: a piece
  // takes the first ghost layer past each inner high face (the neighbour's first points,
  // exchanged after every step), as the snapshot pieces do.
  // On the adaptive mesh every rank's view is the whole grid (each rank's blocks resampled
  // and summed over the ranks): rank 0 hands it whole, the other ranks an empty piece.
  const amr::Hierarchy* hierarchy = amr::hierarchy_of(solver);
  std::array<int, 3> local = g.n;
  if (hierarchy) {
    if (parallel::size() > 1 && !parallel::is_root()) local = {0, 0, 0};
  } else if (!fields.empty()) {
    const FieldLayout L = solver.view(fields.front().name).layout;
    local = L.n;
    if (points && parallel::size() > 1)
      for (int a = 0; a < 3; ++a)
        if (g.offset[a] + local[a] < g.n[a] && L.ghost_along(a) > 0) ++local[a];
  }
  int whole[6], piece[6];
  for (int a = 0; a < 3; ++a) {
    whole[2 * a] = 0;
    whole[2 * a + 1] = points ? g.n[a] - 1 : g.n[a];
    piece[2 * a] = g.offset[a];
    piece[2 * a + 1] = g.offset[a] + (points ? local[a] - 1 : local[a]);
  }

  // 1. Which pipelines run now, and which fields they need.
  std::vector<std::pair<std::size_t, vtkSmartPointer<vtkCPDataDescription>>> running;
  std::set<std::string> needed, needed_amr, needed_vectors, needed_amr_vectors;
  const std::vector<VectorField> vectors = vector_fields(fields);  // B of MHD
  bool any_amr = false;
  for (std::size_t i = 0; i < m.pipelines.size(); ++i) {
    CatalystScriptStatus& st = m.status[i];
    if (!st.enabled || st.failed) continue;
    auto dd = vtkSmartPointer<vtkCPDataDescription>::New();
    dd->AddInput("input");
    if (hierarchy) dd->AddInput("amr");
    dd->SetTimeData(solver.time(), step);
    dd->SetForceOutput(force);
    m.output->start();
    const int asks = m.pipelines[i]->RequestDataDescription(dd);
    std::string text = m.output->stop();
    if (has_traceback(text)) {
      m.report(i, step, "RequestDataDescription", text);
      continue;
    }
    vtkCPInputDataDescription* idd = dd->GetInputDescriptionByName("input");
    if (!text.empty() && !m.output->quiet) std::cerr << text << std::flush;
    vtkCPInputDataDescription* amr_idd = hierarchy ? dd->GetInputDescriptionByName("amr") : nullptr;
    const bool wants_grid = idd && idd->GetIfGridIsNecessary();
    const bool wants_amr = amr_idd && amr_idd->GetIfGridIsNecessary();
    if (!asks || !(wants_grid || wants_amr)) continue;
    any_amr = any_amr || wants_amr;
    for (const auto& f : fields) {
      if (wants_grid && idd->IsFieldNeeded(f.name.c_str(), association)) needed.insert(f.name);
      if (wants_amr && amr_idd->IsFieldNeeded(f.name.c_str(), vtkDataObject::CELL))
        needed_amr.insert(f.name);
    }
    // A vector is built from its components, so they are gathered too.
    for (const VectorField& v : vectors) {
      if (wants_grid && idd->IsFieldNeeded(v.name.c_str(), association)) {
        needed_vectors.insert(v.name);
        needed.insert(v.components.begin(), v.components.end());
      }
      if (wants_amr && amr_idd->IsFieldNeeded(v.name.c_str(), vtkDataObject::CELL)) {
        needed_amr_vectors.insert(v.name);
        needed_amr.insert(v.components.begin(), v.components.end());
      }
    }
    running.emplace_back(i, dd);
  }
  m.stats.seconds_request += seconds_since(t0);
  if (running.empty()) {
    const double idle = seconds_since(t0);
    m.stats.seconds_total += idle;
    m.stats.seconds_idle += idle;
    return;
  }
  ++m.stats.executed;

  // 2. The grid, with the fields asked for (from the device only those).
  const auto t1 = Clock::now();
  m.image->SetExtent(piece);
  m.image->SetSpacing(g.spacing[0], g.spacing[1], g.spacing[2]);
  if (points)
    m.image->SetOrigin(g.origin[0], g.origin[1], g.origin[2]);
  else
    m.image->SetOrigin(g.origin[0] - 0.5 * g.spacing[0], g.origin[1] - 0.5 * g.spacing[1],
                       g.origin[2] - 0.5 * g.spacing[2]);
  vtkFieldData* attrs = points ? static_cast<vtkFieldData*>(m.image->GetPointData())
                               : static_cast<vtkFieldData*>(m.image->GetCellData());
  m.image->GetPointData()->Initialize();
  m.image->GetCellData()->Initialize();
  bool first = true;
  for (const auto& f : fields) {
    if (!needed.count(f.name)) continue;
    FieldArray& fa = m.arrays[f.name];
    m.fill(solver.view(f.name), local, fa);
    attrs->AddArray(fa.array);
    if (first) {
      (points ? static_cast<vtkDataSetAttributes*>(m.image->GetPointData())
              : m.image->GetCellData())
          ->SetActiveScalars(f.name.c_str());
      first = false;
    }
  }
  for (const VectorField& v : vectors) {
    if (!needed_vectors.count(v.name)) continue;
    vtkDataArray* c[3];
    for (int k = 0; k < 3; ++k) c[k] = m.arrays[v.components[k]].array;
    vtkSmartPointer<vtkDataArray> vec;
    vec.TakeReference(vtkDataArray::CreateDataArray(c[0]->GetDataType()));
    vec->SetName(v.name.c_str());
    vec->SetNumberOfComponents(3);
    vec->SetNumberOfTuples(c[0]->GetNumberOfTuples());
    for (vtkIdType i = 0; i < c[0]->GetNumberOfTuples(); ++i)
      for (int k = 0; k < 3; ++k) vec->SetComponent(i, k, c[k]->GetComponent(i, 0));
    attrs->AddArray(vec);
    (points ? static_cast<vtkDataSetAttributes*>(m.image->GetPointData()) : m.image->GetCellData())
        ->SetActiveVectors(v.name.c_str());
  }
  m.image->Modified();
  if (hierarchy && any_amr) {
    std::vector<std::string> names;
    for (const auto& f : fields)
      if (needed_amr.count(f.name)) names.push_back(f.name);
    std::vector<VectorField> amr_vectors;
    for (const VectorField& v : vectors)
      if (needed_amr_vectors.count(v.name)) amr_vectors.push_back(v);
    m.fill_amr(*hierarchy, names, amr_vectors, solver.backend() == BackendKind::cuda);
  }
  m.stats.seconds_transfer += seconds_since(t1);

  // The run's field names in the solver's order (first = the one to show), for scripts:
  // ParaView lists a source's arrays sorted by name.
  std::string names;
  for (const auto& f : fields) names += (names.empty() ? "" : ",") + f.name;
  if (names != m.published_fields) {
    vtkPythonInterpreter::RunSimpleString(
        ("import os\nos.environ['FLUXVIEW_FIELDS'] = " + python_string(names)).c_str());
    m.published_fields = names;
  }

  // 3. Run them, one at a time, so an error names its script.
  const auto t2 = Clock::now();
  for (auto& [i, dd] : running) {
    CatalystScriptStatus& st = m.status[i];
    vtkCPInputDataDescription* idd = dd->GetInputDescriptionByName("input");
    idd->SetGrid(m.image);
    idd->SetWholeExtent(whole);
    vtkCPInputDataDescription* amr_idd = hierarchy ? dd->GetInputDescriptionByName("amr") : nullptr;
    if (amr_idd) amr_idd->SetGrid(m.amr);
    const auto ts = Clock::now();
    m.output->start();
    const int ok = m.pipelines[i]->CoProcess(dd);
    const std::string text = m.output->stop();
    st.last_seconds = seconds_since(ts);
    st.total_seconds += st.last_seconds;
    st.last_step = step;
    ++st.runs;
    idd->SetGrid(nullptr);
    if (amr_idd) amr_idd->SetGrid(nullptr);
    if (!ok || has_traceback(text))
      m.report(i, step, "while executing", text);
    else if (!text.empty() && !m.output->quiet)
      std::cerr << text << std::flush;  // the script's own prints and warnings
  }
  m.stats.seconds_pipelines += seconds_since(t2);
  m.stats.seconds_total += seconds_since(t0);
}

nlohmann::json CatalystAdaptor::summary_json() const {
  const CatalystStats& s = impl_->stats;
  nlohmann::json scripts = nlohmann::json::array();
  for (const auto& st : impl_->status)
    scripts.push_back({{"script", st.script},
                       {"enabled", st.enabled},
                       {"failed", st.failed},
                       {"runs", st.runs},
                       {"last_step", st.last_step},
                       {"seconds", st.total_seconds},
                       {"last_seconds", st.last_seconds},
                       {"last_error", st.last_error}});
  return {{"scripts", scripts},
          {"every", impl_->options.every},
          {"log", catalyst_log_name(impl_->options.log)},
          {"offered", s.offered},
          {"executed", s.executed},
          {"bytes_device_to_host", s.bytes_device_to_host},
          {"bytes_host_gathered", s.bytes_host_gathered},
          {"bytes_zero_copy", s.bytes_zero_copy},
          {"seconds", s.seconds_total},
          {"seconds_request", s.seconds_request},
          {"seconds_idle", s.seconds_idle},
          {"seconds_transfer", s.seconds_transfer},
          {"seconds_pipelines", s.seconds_pipelines}};
}

}  // namespace fluxview
