// The finite-volume solver on the adaptive mesh. A step is one of fv's Runge-Kutta schemes
// (fv.time: TVD RK2 by default, SSP-RK3, SSP-RK(5,4); fv/TimeSteppers.hpp) on the blocks
// of the registers' pools: the state (U), the scratch pool (U1) and, for the three-register
// schemes, a third. TVD RK2, for example:
//   fill ghosts of U;  U1 = U + dt L(U);            reflux into U1 (weight 1)
//   fill ghosts of U1; U = 1/2 U + 1/2 (U1 + dt L(U1)); reflux into U (weight 1/2)
// with one global dt from the CFL rate of every cell at its own level. Every
// fv.amr.regrid_every steps the blocks are estimated, the forest adapted and the state
// remapped (AmrMesh::regrid). A step moves the CFL rate (8 bytes) from the device, a regrid
// one number per block (the indicator) and the task lists the other way.
// Under MPI each rank advances its share of the leaves (p4est's partition along the
// space-filling curve); ghost blocks come from their owners (BlockExchange.hpp), the time
// step is the minimum over all ranks, and checkpoints and views gather the blocks (below).
// About 700 lines in one file on purpose: the step, the regrid, the diagnostics and the
// views all work on the same block pools and task lists of one class.
#include "sim/amr/AmrFvSolver.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/amr/AmrBackend.hpp"
#include "sim/amr/AmrHierarchy.hpp"
#include "sim/amr/AmrMesh.hpp"
#include "sim/amr/AmrParams.hpp"
#include "sim/core/Brush.hpp"
#include "sim/core/CommonConfig.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/CudaRuntime.hpp"
#include "sim/core/Field.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/Reduce.hpp"
#include "sim/core/Steering.hpp"
#include "sim/fv/FvConfig.hpp"
#include "sim/fv/FvFields.hpp"
#include "sim/fv/FvInitial.hpp"
#include "sim/fv/FvLiveConfig.hpp"
#include "sim/fv/FvSolver.hpp"
#include "sim/fv/FvStep.hpp"
#include "sim/fv/FvToolSpecs.hpp"
#include "sim/fv/TimeSteppers.hpp"

namespace fluxview::amr {

namespace {

using fv::kDerived;

// Cells of the uniform grid that view() resamples onto: the deepest level whose grid has
// at most this many cells (16.7 M: 256^3), so that snapshots and 3D views of a deep
// hierarchy stay the size of a uniform run's; also of the planes of plane_view() (4096^2).
constexpr double kViewCells = 16777216.0;

// The phases of a step that `fluxview bench` times (Hierarchy::phase_seconds): the block
// stages, ghost filling, flux correction at coarse-fine faces, and regrids (estimate,
// adapt, remap and the new CFL rate).
enum StepPhase { kStepping, kGhostFilling, kFluxCorrection, kRegridding, kPhases };
constexpr const char* kPhaseNames[kPhases] = {"stepping", "ghost_filling", "flux_correction",
                                              "regridding"};

// A checkpoint's arrays and keys (save_state): the conserved variables named as on the
// uniform grid (fv::conserved_name), and per leaf its level and block position along x,
// y, z.
using fv::conserved_name;
constexpr int kLeafNumbers = 4;
const std::string kRateKey = "cfl_rate=";
const std::string kCellUpdatesKey = "cell_updates=";
const std::string kRegridsKey = "regrids=";
const std::string kCorrectedKey = "corrected_cells=";
const std::string kSchemeKey = "scheme=";

template <class T>
class AmrFvSolver final : public Solver, public Hierarchy {
 public:
  explicit AmrFvSolver(BackendKind b) : backend_(b) {}

  void reset(const ParamSet& p) override {
    params_ = p;
    fv_ = fv::parse_config(p);
    cfg_ = read_amr_config(p);
    // The blocks advance with the second-order stage (PLM or constant) or with WENO-Z's
    // face values (3 ghost layers), of the Euler equations or of MHD, under any of the
    // Runge-Kutta schemes; the modal reconstructions (weno2 to weno4, PLM in other
    // variables) and ADER of the uniform grid are not yet written for blocks (docs/amr.md).
    const fv::StagePath path = fv::stage_path(fv_);
    if (path == fv::StagePath::modal || fv_.time == fv::TimeStepper::ader)
      throw ConfigError("fv.mesh = amr does not run " + fv::scheme_name(fv_) +
                        " in this version; allowed: fv.reconstruction = plm (primitive "
                        "variables), constant or wenoz5 with fv.time = rk2, ssprk3 or rk4, or "
                        "fv.mesh = uniform for weno2, weno3, weno4 and ADER");
    where_ = backend_ == BackendKind::cuda ? Location::device : Location::host;
    MeshShape shape;
    shape.block = cfg_.block;
    shape.ghost = fv::ghost_width(fv_.reconstruction);
    shape.max_level = cfg_.max_level;
    for (int a = 0; a < 3; ++a) {
      top_[a] = fv_.grid.n[a];
      len_[a] = fv_.grid.length[a];
      shape.active[a] = top_[a] > 1;
      shape.trees[a] = shape.active[a] ? top_[a] / cfg_.block : 1;
      inv_dx0_[a] = shape.active[a] ? T(top_[a] / len_[a]) : T(0);
      shape.periodic[a] = fv_.bc[a][0] == fv::Bc::periodic;
    }
    mesh_boundaries(fv_, shape.boundary);
    ph_ = fv::physics_in<T>(fv_);
    cfl_ = fv_.cfl;
    nv_ = fv::variable_count(fv_.mhd, fv_.tracer);
    criteria_.refine = cfg_.refine;
    criteria_.derefine = cfg_.derefine;
    criteria_.max_level = cfg_.max_level;
    criteria_.min_level = cfg_.min_level;
    criteria_.region_lo = cfg_.region_lo;
    criteria_.region_hi = cfg_.region_hi;
    criteria_.outside_level = cfg_.outside_level;
    time_ = 0;
    step_ = 0;
    rate_from_checkpoint_ = false;
    regrids_ = 0;
    cell_updates_ = 0;

    choose_block_transport(p);
    mesh_ = std::make_unique<AmrMesh<T>>(shape, nv_, where_, ph_, fill_params());
    mesh_->set_block_transport(block_transport_);
    mesh_->use_registers(fv::rk_scheme(fv_.time).registers);
    // The same limit on every rank (the free device memory differs between ranks sharing a
    // GPU): the refusals below then happen on every rank alike.
    max_blocks_ = cfg_.max_blocks > 0 ? cfg_.max_blocks : auto_max_blocks();
    if (parallel::size() > 1)
      max_blocks_ = std::int64_t(parallel::allreduce_min(double(max_blocks_)));
    build_initial_mesh();
    update_deepest_level();
    memory_peak_ = 0;
    note_device_memory();

    // The view grid: the deepest level of at most kViewCells cells.
    view_level_ = 0;
    for (int l = 1; l <= cfg_.max_level; ++l) {
      double cells = 1;
      for (int a = 0; a < 3; ++a) cells *= shape.active[a] ? double(top_[a]) * (1 << l) : 1.0;
      if (cells <= kViewCells) view_level_ = l;
    }
    // The plane grid: the deepest level whose largest plane has at most kViewCells cells
    // (4096^2: the paper's cloud, top grid 64^3 and six levels, at its finest).
    plane_level_ = 0;
    for (int l = 1; l <= cfg_.max_level; ++l) {
      double largest = 0;
      for (int axis = 0; axis < 3; ++axis) {
        double cells = 1;
        for (int a = 0; a < 3; ++a)
          if (a != axis && shape.active[a]) cells *= double(top_[a]) * (1 << l);
        largest = std::max(largest, cells);
      }
      if (largest <= kViewCells) plane_level_ = l;
    }
    grid_ = Grid{};
    grid_.ghost = 0;
    grid_.centering = Centering::cell;
    for (int a = 0; a < 3; ++a) {
      grid_.n[a] = shape.active[a] ? top_[a] << view_level_ : 1;
      grid_.spacing[a] = len_[a] / grid_.n[a];
      grid_.origin[a] = 0.5 * grid_.spacing[a];
    }
    derived_.clear();
    derived_.resize(std::size(kDerived) + 1);
    resample_level_ = -1;

    scalars_ = Buffer(where_, 2 * sizeof(unsigned long long));
    scalars_.fill_zero();
    update_rate();
  }

  // Steering (Solver::set_live): the fv family's live keys, checked as on the uniform grid
  // (fv::live_config): the scheme's numbers, gamma, the floors, the cleaning and the kind
  // of the non-periodic faces. The blocks keep their conserved state; the next step sees
  // the change. Collective under MPI.
  // The CFL rate is taken again from the state only where the change moves it (gamma and
  // the floors, which the primitive state reads): the step's own rate is reduced before
  // refluxing, so a rate taken afresh differs from it in the last bits, and a cfl or a
  // Riemann solver changed live is then exactly a restart with the new value. Nor right
  // after a restart: the changes a checkpoint's journal replays there (Steerer::resume)
  // were made before its rate was reduced, which a fresh one would not reproduce.
  void set_live(const std::string& key, const ParamValue& value) override {
    const ParamSet p = live_change(params_, key, value, fv::family().validate);
    const fv::FvConfig c = fv::live_config(fv_, p, key, value, [&] { return lowest_pressure(); });
    const fv::Physics<T> ph = fv::physics_in<T>(c);
    const bool rate_moves =
        ph.gamma != ph_.gamma || ph.rho_floor != ph_.rho_floor || ph.p_floor != ph_.p_floor;
    params_ = p;
    fv_ = c;
    ph_ = ph;
    cfl_ = fv_.cfl;
    mesh_->set_physics(ph_);
    Boundary boundary[3][2];
    mesh_boundaries(fv_, boundary);
    mesh_->set_boundaries(boundary);
    if (rate_moves && !rate_from_checkpoint_)
      update_rate();
    else
      finish_rate();
  }

  // The fluid tools of the uniform grid (blast, cloud: fv::fluid_tools), on every block
  // cell whose centre the brush reaches, through the same per-cell formula
  // (fv::paint_cell). A blast shares its energy by volume among those cells, whatever
  // their levels. Obstacles need the uniform grid's stage that honours them: not here.
  std::vector<ToolSpec> tools() const override { return fv::fluid_tools(len_); }

  ToolReport apply_tool(const ToolCall& call) override {
    if (call.tool != "blast" && call.tool != "cloud")
      throw SteeringError(call.tool + ": not on the adaptive mesh; allowed: blast, cloud");
    // The brush over the view grid gives the centre, reach, active axes and periodic
    // lengths; PaintBody puts each block's origin and spacing in.
    std::array<bool, 3> periodic{};
    double dx0[3];
    for (int a = 0; a < 3; ++a) {
      periodic[a] = mesh_->shape().periodic[a];
      dx0[a] = len_[a] / top_[a];
    }
    const Brush brush = make_brush(grid_, {call.arg("x"), call.arg("y"), call.arg("z")},
                                   call.arg("radius"), 1.0, periodic);
    // The stroke's sums, each block's times its cells' volume (a reduced axis's one cell
    // spans the box, as on the uniform grid), over every rank.
    const auto paint = [&](const fv::Paint& p) {
      const int n = mesh_->blocks();
      std::vector<fv::PaintSums> per(std::size_t(std::max(n, 0)));
      mesh_->backend().paint(mesh_->state().view(), mesh_->info_on_backend(), n, brush, dx0, p,
                             per.data());
      fv::PaintSums total;
      double volume = 0;
      for (int b = 0; b < n; ++b) {
        double dv = 1;
        for (int a = 0; a < 3; ++a)
          dv *= mesh_->shape().active[a] ? dx0[a] / double(1 << mesh_->info()[std::size_t(b)].level)
                                         : len_[a];
        const fv::PaintSums& s = per[std::size_t(b)];
        total.mass += s.mass * dv;
        total.energy += s.energy * dv;
        for (int a = 0; a < 3; ++a) total.momentum[a] += s.momentum[a] * dv;
        total.cells += s.cells;
        volume += double(s.cells) * dv;
      }
      total.mass = parallel::allreduce_sum(total.mass);
      total.energy = parallel::allreduce_sum(total.energy);
      for (double& m : total.momentum) m = parallel::allreduce_sum(m);
      total.cells = parallel::allreduce_sum(total.cells);
      return std::pair(total, parallel::allreduce_sum(volume));
    };
    // Half of the finest cell the mesh may have: the smallest brush that can hold a centre.
    const double half_cell = 0.5 * dx0[0] / double(1 << cfg_.max_level);
    ToolReport r;
    if (call.tool == "blast") {
      const auto [reached, volume] = paint({fv::PaintKind::count});
      if (reached.cells == 0) throw fv::brush_holds_no_cell(call, half_cell);
      r = fv::fluid_tool_report("blast",
                                paint({fv::PaintKind::blast, call.arg("energy") / volume}).first);
    } else {
      const fv::PaintSums s = paint({fv::PaintKind::cloud, 0, call.arg("density_ratio")}).first;
      if (s.cells == 0) throw fv::brush_holds_no_cell(call, half_cell);
      r = fv::fluid_tool_report("cloud", s);
    }
    update_rate();
    return r;
  }

  void synchronize() override {
    if (backend_ == BackendKind::cuda) cuda::check_last_error("fv amr step");
  }

  double time() const override { return time_; }
  std::int64_t step() const override { return step_; }
  double dt() const override { return dt_; }
  const Grid& grid() const override { return grid_; }
  BackendKind backend() const override { return backend_; }
  Precision precision() const override { return precision_of<T>(); }

  std::vector<FieldInfo> fields() const override {
    std::vector<FieldInfo> f = {{"rho", "kg/m^3", "density", true}};
    for (const auto& d : kDerived)
      if (fv::has_derived_field(d.what, nv_))
        f.push_back({d.name, d.unit, d.description, d.what == fv::Derived::p});
    return f;
  }

  // Every field is resampled onto the uniform grid of the view level (grid()): each cell
  // from the block cell containing its centre, computed on the solver's backend. Under MPI
  // every rank resamples its blocks onto a zeroed grid and the grids are summed (each cell
  // lies in exactly one rank's block, so the sum is that cell's value, exactly): every rank
  // holds the whole view, as grid() says (its offset 0). Collective then.
  FieldView view(const std::string& name) const override {
    const int what = field_code(name);
    const std::size_t slot = what == kDensity ? 0 : std::size_t(what) + 1;
    fill_ghosts_for(what);
    prepare_resample();
    Field<T>& out = derived_[slot];
    if (out.layout().n != grid_.n || out.where() != where_) out = Field<T>(grid_.n, 0, where_);
    resample_into(resample_tasks_, resample_dev_, what, out);
    return out.view(name, field_unit(what), Centering::cell);
  }

  // The guard over the blocks themselves (the views resample them, so a cell finer than
  // the view grid could hide there): each field packed from the blocks' interiors into one
  // array (block after block) on the solver's backend, scanned by the same reduction as
  // every field (first_bad_cell), and the first bad cell named by block, level, position
  // and cell.
  std::optional<std::string> first_unsound_cell() const override {
    const int blocks = mesh_->blocks();
    if (blocks == 0) return std::nullopt;
    const std::array<int, 3> n = block_cells();
    const std::int64_t per = std::int64_t(n[0]) * n[1] * n[2];
    const std::size_t bytes = std::size_t(per) * std::size_t(blocks) * sizeof(T);
    if (scan_.bytes() < bytes) scan_ = Buffer(where_, bytes);
    FieldView v;
    v.data = scan_.data();
    v.precision = precision_of<T>();
    v.where = where_;
    // The packed blocks, one after another with no row padding (as pack writes them).
    v.layout = FieldLayout::make({int(per), blocks, 1}, 0, int(sizeof(T)));
    v.layout.sy = per;
    v.layout.sz = v.layout.size = per * blocks;
    v.layout.origin = 0;
    for (const FieldInfo& f : fields()) {
      // div B is finite where B is (bx, by and bz are scanned), and would need the ghosts.
      if (field_code(f.name) == int(fv::Derived::divergence_b)) continue;
      mesh_->backend().pack(mesh_->state().view(), mesh_->info_on_backend(), inv_dx0_, blocks, ph_,
                            field_code(f.name), static_cast<T*>(scan_.data()));
      const std::int64_t bad = first_bad_cell(v, f.must_be_positive);
      if (bad < 0) continue;
      const int b = int(bad / per);
      const std::int64_t c = bad % per;
      const int i = int(c % n[0]), j = int((c / n[0]) % n[1]),
                k = int(c / (std::int64_t(n[0]) * n[1]));
      T value{};
      copy_bytes(&value, Location::host, static_cast<const T*>(scan_.data()) + bad, where_,
                 sizeof(T));
      const BlockInfo& info = mesh_->info()[std::size_t(b)];
      std::ostringstream m;
      m.precision(9);
      m << "instability at step " << step_ << ", t = " << time_ << ": field " << f.name << " is "
        << double(value) << (std::isfinite(double(value)) ? " (must be positive)" : "")
        << " at block " << b << " of rank " << parallel::rank() << " (level " << info.level
        << ", position " << info.idx[0] << " " << info.idx[1] << " " << info.idx[2] << "), cell "
        << i << " " << j << " " << k;
      return m.str();
    }
    return std::nullopt;
  }

  // ---- Hierarchy ----
  void time_phases(bool on) override {
    timing_ = on;
    for (double& t : phase_seconds_) t = 0;
  }
  std::vector<std::pair<std::string, double>> phase_seconds() const override {
    std::vector<std::pair<std::string, double>> out;
    for (int p = 0; p < kPhases; ++p) out.emplace_back(kPhaseNames[p], phase_seconds_[p]);
    return out;
  }
  std::array<int, 3> block_cells() const override { return mesh_->state().layout().n; }
  std::array<int, 3> top_cells() const override { return top_; }
  std::array<double, 3> lengths() const override { return len_; }
  int max_level() const override { return cfg_.max_level; }
  std::vector<BlockBox> local_blocks() const override {
    std::vector<BlockBox> out;
    out.reserve(std::size_t(mesh_->blocks()));
    for (int b = 0; b < mesh_->blocks(); ++b) {
      const BlockInfo& i = mesh_->info()[std::size_t(b)];
      out.push_back({i.level, {i.idx[0], i.idx[1], i.idx[2]}});
    }
    return out;
  }
  // The plane on the uniform grid of plane_level_ (finer than the view grid where the
  // hierarchy is deeper than view_level_): each cell from the leaf block holding its
  // centre, resampled on the solver's backend by the same tasks as view(), limited to the
  // plane. Every plane's cells are rebuilt each call (the block list of a plane is short).
  FieldView plane_view(const std::string& field, int axis, double at) const override {
    if (axis < 0 || axis > 2) throw std::invalid_argument("plane axis must be 0, 1 or 2");
    const int what = field_code(field);
    fill_ghosts_for(what);
    std::array<int, 3> n{1, 1, 1};
    for (int a = 0; a < 3; ++a) n[a] = mesh_->shape().active[a] ? top_[a] << plane_level_ : 1;
    const int index = std::clamp(int(std::floor(at * n[axis])), 0, n[axis] - 1);
    std::vector<ResampleTask> tasks;
    for (int b = 0; b < mesh_->blocks(); ++b) {
      std::optional<ResampleTask> t = resample_task(b, plane_level_);
      if (!t || t->lo[axis] > index || t->hi[axis] <= index) continue;
      t->lo[axis] = index;
      t->hi[axis] = index + 1;
      t->first[axis] = index;
      tasks.push_back(*t);
    }
    n[axis] = 1;
    Field<T>& out = planes_[std::size_t(axis)];
    if (out.layout().n != n || out.where() != where_) out = Field<T>(n, 0, where_);
    resample_into(tasks, plane_dev_, what, out);
    return out.view(field, field_unit(what), Centering::cell);
  }
  int plane_level() const override { return plane_level_; }
  HostArray block_values(const std::string& field) const override {
    const int what = field_code(field);
    fill_ghosts_for(what);
    const int blocks = mesh_->blocks();
    const std::array<int, 3> n = block_cells();
    const std::int64_t per = std::int64_t(n[0]) * n[1] * n[2];
    HostArray h;
    h.precision = precision_of<T>();
    h.n = {int(per), blocks, 1};
    h.bytes.resize(std::size_t(per) * std::size_t(blocks) * sizeof(T));
    if (blocks == 0) return h;
    if (where_ == Location::device) {
      Buffer dev(where_, h.bytes.size());
      mesh_->backend().pack(mesh_->state().view(), mesh_->info_on_backend(), inv_dx0_, blocks, ph_,
                            what, static_cast<T*>(dev.data()));
      copy_bytes(h.bytes.data(), Location::host, dev.data(), where_, h.bytes.size());
    } else {
      mesh_->backend().pack(mesh_->state().view(), mesh_->info_on_backend(), inv_dx0_, blocks, ph_,
                            what, reinterpret_cast<T*>(h.bytes.data()));
    }
    return h;
  }

  std::vector<Diagnostic> diagnostics() override {
    const int n = mesh_->blocks();
    double volume0 = 1;
    for (int a = 0; a < 3; ++a)
      if (mesh_->shape().active[a]) volume0 *= len_[a] / top_[a];
    if (mhd()) mesh_->fill_ghosts(mesh_->state().view());  // div B reads the neighbours
    const MeshTotals m = mesh_->backend().totals(mesh_->state().view(), mesh_->info_on_backend(), n,
                                                 ph_, inv_dx0_, volume0, dims());
    double t[10] = {m.mass,        m.momentum[0], m.momentum[1],       m.momentum[2], m.energy,
                    m.tracer_mass, m.mixed_mass,  double(m.nonfinite), m.mach_volume, m.max_mach};
    for (int i = 0; i < 9; ++i) t[i] = parallel::allreduce_sum(t[i]);
    t[9] = parallel::allreduce_max(t[9]);
    double box = 1;  // the volume the mean Mach number is taken over
    for (int a = 0; a < 3; ++a)
      if (mesh_->shape().active[a]) box *= len_[a];
    std::vector<int> per_level(std::size_t(cfg_.max_level) + 1, 0);
    for (int b = 0; b < n; ++b) ++per_level[std::size_t(mesh_->info()[std::size_t(b)].level)];
    std::vector<Diagnostic> d = {
        {"mass", "kg", t[0]},
        {"momentum_x", "kg m/s", t[1]},
        {"momentum_y", "kg m/s", t[2]},
        {"momentum_z", "kg m/s", t[3]},
        {"energy", "J", t[4]},
        {"max_mach", "", t[9]},
        {"mean_mach", "", t[8] / box},
        {"corrected_cells", "", parallel::allreduce_sum(double(corrected()))},
        {"nonfinite_cells", "", t[7]},
        {"blocks", "", parallel::allreduce_sum(double(n))},
        {"cells_updated_per_step", "", parallel::allreduce_sum(double(n) * cells_per_block())},
        {"cell_updates", "", parallel::allreduce_sum(cell_updates_)},
        {"regrids", "", double(regrids_)},
    };
    for (int l = 0; l <= cfg_.max_level; ++l)
      d.push_back({"blocks_level_" + std::to_string(l), "",
                   parallel::allreduce_sum(double(per_level[std::size_t(l)]))});
    if (fv::tracer_variables(nv_)) {
      d.push_back({"tracer_mass", "kg", t[5]});
      d.push_back({"mixed_fraction", "", t[5] > 0 ? t[6] / t[5] : 0});
    }
    if (mhd()) {
      // As the uniform grid's, the mean over the volume rather than over the cells.
      d.push_back({"magnetic_energy", "J", parallel::allreduce_sum(m.magnetic_energy)});
      d.push_back({"divergence_b_mean", "Pa^1/2/m", parallel::allreduce_sum(m.divb_volume) / box});
      d.push_back({"divergence_b_max", "Pa^1/2/m", parallel::allreduce_max(m.divb_max)});
    }
    return d;
  }

  // The stages' registers a cell update reads and writes, as the uniform solver's model
  // (5 nv reals per cell per step for rk2); ghost filling and refluxing not counted.
  double bytes_per_cell_update() const override {
    return fv::register_words_per_step(fv::rk_scheme(fv_.time)) * nv_ * sizeof(T);
  }
  // The blocks' cells on every rank (the forest knows the count; no message).
  double cells_per_step() const override {
    return double(mesh_->forest().global_count()) * cells_per_block();
  }

  // ---- Checkpoints ----
  // The state is the solver's own (SolverState::on_grid false): the forest's leaves (level
  // and block position per axis, as numbers of the run's precision), then each conserved
  // variable's block interiors, block after block in curve order, x fastest within a block;
  // in `extra` what the next step also reads: the CFL rate the last stage reduced (bit for
  // bit, in hexadecimal: after a step without a regrid it comes from the stage, which a
  // restart cannot redo), the counters of the diagnostics and the scheme (a restart with
  // another is refused, as on the uniform grid). Under MPI the ranks' leaves
  // and blocks are gathered to the root, in rank order, which is curve order: the state is
  // the same on any rank count, and the root alone holds it (the other ranks' arrays are
  // empty; write_checkpoint writes the root's).
  std::string checkpoint_refusal() const override { return ""; }

  SolverState save_state() const override {
    SolverState st;
    st.on_grid = false;
    st.time = time_;
    st.step = step_;
    const int blocks = mesh_->blocks();
    HostArray leaves;
    leaves.precision = precision_of<T>();
    leaves.n = {kLeafNumbers, blocks, 1};
    leaves.bytes.resize(std::size_t(kLeafNumbers) * std::size_t(blocks) * sizeof(T));
    T* lv = reinterpret_cast<T*>(leaves.bytes.data());
    std::string inexact;
    for (int b = 0; b < blocks; ++b) {
      const BlockInfo& info = mesh_->info()[std::size_t(b)];
      const int numbers[kLeafNumbers] = {info.level, info.idx[0], info.idx[1], info.idx[2]};
      for (int q = 0; q < kLeafNumbers; ++q) {
        lv[std::size_t(b) * kLeafNumbers + std::size_t(q)] = T(numbers[q]);
        if (inexact.empty() && double(T(numbers[q])) != double(numbers[q]))
          inexact = "fv (amr): block position " + std::to_string(numbers[q]) + " is not exact in " +
                    std::string(to_string(precision_of<T>())) +
                    "; checkpoint this run in double precision";
      }
    }
    // Refused on every rank alike, before the gather below (collective).
    if (const std::string e = parallel::first_error(inexact); !e.empty())
      throw std::runtime_error(e);
    st.arrays.push_back({"leaves", std::move(leaves)});
    const BlockPool<T>& pool = mesh_->state();
    const FieldLayout& l = pool.layout();
    const std::size_t per = std::size_t(l.n[0]) * std::size_t(l.n[1]) * std::size_t(l.n[2]);
    std::vector<T> slots(std::size_t(blocks) * std::size_t(l.size));
    for (int m = 0; m < nv_; ++m) {
      // Slots [0, blocks) of a variable are contiguous: one copy from the device.
      copy_bytes(slots.data(), Location::host, pool.block(m, 0), where_, slots.size() * sizeof(T));
      HostArray a;
      a.precision = precision_of<T>();
      a.n = {int(per), blocks, 1};
      a.bytes.resize(per * std::size_t(blocks) * sizeof(T));
      T* out = reinterpret_cast<T*>(a.bytes.data());
      for (int b = 0; b < blocks; ++b)
        for (int k = 0; k < l.n[2]; ++k)
          for (int j = 0; j < l.n[1]; ++j)
            for (int i = 0; i < l.n[0]; ++i)
              *out++ = slots[std::size_t(b) * std::size_t(l.size) + std::size_t(l.index(i, j, k))];
      st.arrays.push_back({conserved_name(nv_, m), std::move(a)});
    }
    if (parallel::size() > 1) gather_to_root(st);
    // The counters are every rank's (each counts its own blocks); a restart gives them to
    // rank 0 (load_state), so the file is the same on any rank count.
    const double cell_updates = parallel::allreduce_sum(cell_updates_);
    const auto corrected_cells = std::uint64_t(parallel::allreduce_sum(std::int64_t(corrected())));
    std::ostringstream extra;
    extra << std::hexfloat << kRateKey << rate_ << "\n"
          << kCellUpdatesKey << cell_updates << "\n"
          << std::dec << kRegridsKey << regrids_ << "\n"
          << kCorrectedKey << corrected_cells << "\n"
          << kSchemeKey << fv::scheme_name(fv_);
    st.extra = extra.str();
    return st;
  }

  void load_state(const SolverState& st) override {
    const std::string what = "fv (amr) checkpoint: ";
    // The scheme that wrote it, before anything changes (checkpoints from before schemes
    // were recorded have none).
    {
      std::istringstream extra(st.extra);
      for (std::string line; std::getline(extra, line);)
        if (line.rfind(kSchemeKey, 0) == 0)
          fv::check_checkpoint_scheme(line.substr(kSchemeKey.size()), fv_);
    }
    if (st.on_grid || st.arrays.size() != std::size_t(nv_) + 1 || st.arrays[0].name != "leaves")
      throw std::runtime_error(
          what + "not a state of the adaptive mesh with " + std::to_string(nv_) +
          " conserved variables (are fv.mesh, fv.physics and fv.tracer the same?)");
    const HostArray& lv = st.arrays[0].values;
    const int blocks = lv.n[1];
    if (lv.n[0] != kLeafNumbers || lv.n[2] != 1 || blocks < 1)
      throw std::runtime_error(what + "its leaves are not a list of " +
                               std::to_string(kLeafNumbers) + " numbers a block");
    std::vector<LeafKey> leaves(static_cast<std::size_t>(blocks));
    for (int b = 0; b < blocks; ++b) {
      const std::int64_t at = std::int64_t(b) * kLeafNumbers;
      leaves[std::size_t(b)].level = int(lv.at(at));
      for (int a = 0; a < 3; ++a) leaves[std::size_t(b)].idx[a] = int(lv.at(at + 1 + a));
      if (leaves[std::size_t(b)].level > cfg_.max_level)
        throw std::runtime_error(
            what + "a block at level " + std::to_string(leaves[std::size_t(b)].level) +
            ", deeper than fv.amr.max_level = " + std::to_string(cfg_.max_level));
    }
    // A copy: the mesh it comes from is replaced below (the new one has the same layout).
    const FieldLayout l = mesh_->state().layout();
    const int per = l.n[0] * l.n[1] * l.n[2];
    for (int m = 0; m < nv_; ++m) {
      const StateArray& a = st.arrays[std::size_t(m) + 1];
      if (a.name != conserved_name(nv_, m))
        throw std::runtime_error(what + "array " + std::to_string(m + 1) + " is '" + a.name +
                                 "', expected '" + conserved_name(nv_, m) + "'");
      if (a.values.n != std::array<int, 3>{per, blocks, 1})
        throw std::runtime_error(
            what + "array " + a.name + " holds " + std::to_string(a.values.n[1]) + " blocks of " +
            std::to_string(a.values.n[0]) + " cells, this run " + std::to_string(blocks) +
            " blocks of " + std::to_string(per) + " (is fv.amr.block the same?)");
    }
    if (blocks > max_blocks_ * parallel::size())
      throw std::runtime_error(what + "its " + std::to_string(blocks) +
                               " blocks are more than the " +
                               std::to_string(max_blocks_ * parallel::size()) + " that fit in " +
                               (where_ == Location::device ? "device" : "host") + " memory" +
                               (parallel::size() > 1 ? " of every rank" : ""));
    const MeshShape shape = mesh_->shape();
    mesh_.reset();  // the initial mesh goes before the checkpoint's comes (peak memory)
    try {
      mesh_ = std::make_unique<AmrMesh<T>>(shape, nv_, where_, ph_, fill_params(), leaves);
      mesh_->set_block_transport(block_transport_);
      mesh_->use_registers(fv::rk_scheme(fv_.time).registers);
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(what + e.what());
    }
    // This rank's share of the leaves (every rank read the whole state).
    const std::int64_t first = mesh_->forest().offsets()[std::size_t(mesh_->forest().rank())];
    const int mine = mesh_->blocks();
    BlockPool<T>& pool = mesh_->state();
    std::vector<T> slots(std::size_t(mine) * std::size_t(l.size), T(0));
    for (int m = 0; m < nv_; ++m) {
      const T* in = reinterpret_cast<const T*>(st.arrays[std::size_t(m) + 1].values.bytes.data()) +
                    first * per;
      for (int b = 0; b < mine; ++b)
        for (int k = 0; k < l.n[2]; ++k)
          for (int j = 0; j < l.n[1]; ++j)
            for (int i = 0; i < l.n[0]; ++i)
              slots[std::size_t(b) * std::size_t(l.size) + std::size_t(l.index(i, j, k))] = *in++;
      copy_bytes(pool.block(m, 0), where_, slots.data(), Location::host, slots.size() * sizeof(T));
    }
    time_ = st.time;
    step_ = st.step;
    resample_level_ = -1;
    unsigned long long corrected_cells = 0;
    rate_ = -1;
    std::istringstream extra(st.extra);
    for (std::string line; std::getline(extra, line);) {
      const auto value = [&](const std::string& key) { return line.substr(key.size()); };
      if (line.rfind(kRateKey, 0) == 0) rate_ = std::strtod(value(kRateKey).c_str(), nullptr);
      if (line.rfind(kCellUpdatesKey, 0) == 0)
        cell_updates_ = std::strtod(value(kCellUpdatesKey).c_str(), nullptr);
      if (line.rfind(kRegridsKey, 0) == 0) regrids_ = std::stoll(value(kRegridsKey));
      if (line.rfind(kCorrectedKey, 0) == 0) corrected_cells = std::stoull(value(kCorrectedKey));
    }
    if (!(rate_ >= 0)) throw std::runtime_error(what + "its extra state has no CFL rate");
    if (!parallel::is_root()) {  // the counters are all ranks' sums: rank 0 carries them on
      cell_updates_ = 0;
      corrected_cells = 0;
    }
    copy_bytes(scalar(0), where_, &corrected_cells, Location::host, sizeof corrected_cells);
    update_deepest_level();
    finish_rate();
    rate_from_checkpoint_ = true;
  }

  // Every array of `st` (this rank's blocks) replaced by all ranks' on the root, in rank
  // order; empty on the other ranks.
  void gather_to_root(SolverState& st) const {
    const auto total = int(mesh_->forest().global_count());
    for (StateArray& a : st.arrays) {
      HostArray& h = a.values;
      std::vector<unsigned char> all =
          parallel::gather_to_root(h.bytes.data(), std::size_t(h.count()), int(sizeof(T)));
      h.bytes = std::move(all);
      h.n[1] = parallel::is_root() ? total : 0;
    }
  }

  std::vector<std::pair<std::string, std::string>> run_facts() const override {
    return {
        {"mesh", "amr (p4est): blocks of " + std::to_string(cfg_.block) + "^" +
                     std::to_string(dims()) + " cells, levels 0-" + std::to_string(cfg_.max_level) +
                     ", regrid every " + std::to_string(cfg_.regrid_every) + " steps"},
        {"kernel", mesh_->backend().kernel()},
        {"scheme", std::string(mhd() ? "MHD (GLM), " : "") +
                       std::string(ph_.plm ? "PLM theta=" + format_value(double(ph_.theta))
                                           : std::string("first order")) +
                       ", " + fv::riemann_name(ph_.riemann) + ", " +
                       fv::time_stepper_name(fv_.time) + ", global dt"},
        {"blocks", std::to_string(mesh_->forest().global_count())},
        {"deepest_level", std::to_string(deepest_level_)},
        {"view_level", std::to_string(view_level_)},
        {"cfl", format_value(cfl_)},
        {"ghost_blocks", parallel::size() == 1 ? std::string("one rank: none")
                                               : std::string(to_string(mesh_->block_transport()))},
        {"plane_level", std::to_string(plane_level_)},
        {"device_memory_peak_bytes",
         where_ == Location::device ? std::to_string(note_device_memory()) : "n/a (cpu)"}};
  }

 private:
  // The most device memory seen in use, sampled after set-up, after every regrid that
  // changed the mesh (the pools grow there) and whenever the run record asks: the device's
  // whole use (this process's context, and other processes sharing the GPU, included).
  std::size_t note_device_memory() const {
    if (where_ != Location::device) return 0;
    std::size_t free_bytes = 0, total_bytes = 0;
    cuda::memory_info(free_bytes, total_bytes);
    memory_peak_ = std::max(memory_peak_, total_bytes - free_bytes);
    return memory_peak_;
  }

  // kDensity for rho, else the fv::Derived of the field; throws for other names.
  int field_code(const std::string& name) const {
    if (name == "rho") return kDensity;
    for (const auto& d : kDerived)
      if (name == d.name && fv::has_derived_field(d.what, nv_)) return int(d.what);
    std::string names;
    for (const auto& f : fields()) names += (names.empty() ? "" : ", ") + f.name;
    throw std::out_of_range("fv solver has no field '" + name + "' (it has " + names + ")");
  }

  // How ghost blocks travel between ranks on the device: device to device through CUDA IPC
  // where every rank runs on one node (run.ghosts = auto or ipc; the uniform grid's order,
  // less CUDA-aware MPI), through host memory across nodes or when asked (run.ghosts =
  // host); ipc across nodes and mpi are refused. Collective.
  void choose_block_transport(const ParamSet& p) {
    block_transport_ = BlockTransport::host;
    if (where_ != Location::device || parallel::size() == 1) return;
    const GhostTransportChoice choice = parallel_config(p).ghosts;
    if (choice == GhostTransportChoice::mpi)
      throw ConfigError(
          "run.ghosts = mpi: the adaptive mesh's ghost blocks travel through host memory or "
          "device to device through CUDA IPC (ranks on one node), not as device buffers handed "
          "to MPI; allowed with fv.mesh = amr: auto, host, ipc");
    if (choice == GhostTransportChoice::host) return;
    const bool one_node = parallel::all_ranks_on_one_node();
    if (choice == GhostTransportChoice::ipc && !one_node)
      throw ConfigError(
          "run.ghosts = ipc: the MPI ranks run on several nodes, which CUDA IPC cannot reach; "
          "allowed there: auto or host");
    if (one_node) block_transport_ = BlockTransport::ipc;
  }

  // What ghost filling needs beyond the shape: the momentum a reflecting face negates,
  // and for MHD the normal field (as the uniform grid's walls do, FvLoops.hpp).
  FillParams fill_params() const {
    FillParams fill;
    for (int a = 0; a < 3; ++a) {
      fill.flip[a] = fv::kMomX + a;
      fill.flip_field[a] = mhd() ? fv::kBx + a : -1;
    }
    return fill;
  }

  bool mhd() const { return fv::mhd_variables(nv_); }

  // The kind of each face of the domain as the ghost tasks take it (a periodic face has
  // none: its ghosts come from the other side).
  static void mesh_boundaries(const fv::FvConfig& c, Boundary (&out)[3][2]) {
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s)
        out[a][s] = c.bc[a][s] == fv::Bc::reflecting ? Boundary::reflecting : Boundary::outflow;
  }

  // The lowest pressure of every cell of every block on every rank (collective).
  double lowest_pressure() const {
    const HostArray h = block_values("p");
    const T* v = reinterpret_cast<const T*>(h.bytes.data());
    double lowest = INFINITY;
    for (std::size_t i = 0; i < h.bytes.size() / sizeof(T); ++i)
      lowest = std::min(lowest, double(v[i]));
    return parallel::allreduce_min(lowest);
  }

  // Before a view, snapshot piece or diagnostic of div B: the blocks' ghosts, which it
  // reads (they are filled at the start of each stage, not after the step). Only ghosts
  // change, which the next stage fills again. Collective under MPI, as the views are.
  void fill_ghosts_for(int what) const {
    if (what == int(fv::Derived::divergence_b)) mesh_->fill_ghosts(mesh_->state().view());
  }

  // The GLM cleaning of this step (MHD), as the uniform grid's (fv's set_cleaning): c_h the
  // largest speed the cleaning waves may have under the step's CFL condition on the
  // deepest level present, rate / sum_a 1/dx_a there, and psi's damping alpha c_h / dx_min
  // of that level. One global step, so one c_h for every block; the same on every rank
  // (rate and deepest level are reduced).
  void set_cleaning() {
    double inv_sum = 0, inv_max = 0;
    for (int a = 0; a < 3; ++a) {
      const double inv = double(inv_dx0_[a]) * double(1 << deepest_level_);
      inv_sum += inv;
      inv_max = std::max(inv_max, inv);
    }
    const double ch = fv_.cleaning && inv_sum > 0 ? rate_ / inv_sum : 0.0;
    ph_.ch = T(ch);
    ph_.psi_decay = T(fv_.glm_alpha * ch * inv_max);
  }

  int dims() const {
    int d = 0;
    for (bool a : mesh_->shape().active) d += a;
    return d;
  }
  double cells_per_block() const { return std::pow(double(cfg_.block), dims()); }
  double cell_volume(int level) const {
    double v = 1;
    for (int a = 0; a < 3; ++a)
      if (mesh_->shape().active[a]) v *= len_[a] / (double(top_[a]) * double(1 << level));
    return v;
  }

  // Blocks that fit: a pool of blocks for each of the step's registers in 80% of the free
  // device memory, or in half of the host's memory.
  std::int64_t auto_max_blocks() const {
    const double per_block = double(fv::rk_scheme(fv_.time).registers) *
                             double(BlockPool<T>::bytes_per_block(nv_, mesh_->state().layout()));
    double room;
    if (where_ == Location::device) {
      std::size_t free_bytes = 0, total = 0;
      cuda::memory_info(free_bytes, total);
      room = 0.8 * double(free_bytes);
    } else {
      room = 0.5 * double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
    }
    return std::max<std::int64_t>(1, std::int64_t(room / per_block));
  }

  // The initial mesh: the initial condition sampled on the blocks, estimated, refined, and
  // sampled again at the new resolution, until nothing more refines (at most max_level
  // times). A mesh that would exceed the memory is refused here, before any output.
  void build_initial_mesh() {
    for (int pass = 0;; ++pass) {
      set_initial();
      if (pass == cfg_.max_level) break;
      mesh_->fill_ghosts(mesh_->state().view());
      const std::vector<double> e = mesh_->indicators(cfg_.filter);
      std::vector<std::int8_t> flags =
          refine_flags(mesh_->forest().leaves(), e, criteria_, mesh_->shape().trees,
                       mesh_->shape().active, std::numeric_limits<std::int64_t>::max() / 2);
      std::int64_t refined = 0;
      for (auto& f : flags) {
        if (f < 0) f = 0;  // the first mesh only refines
        refined += f > 0;
      }
      const std::int64_t projected = parallel::allreduce_sum(
          std::int64_t(mesh_->blocks()) + refined * ((std::int64_t(1) << dims()) - 1));
      if (projected > max_blocks_ * parallel::size()) {
        std::ostringstream m;
        m << "fv.amr.max_level = " << cfg_.max_level << ": the initial condition refines to at "
          << "least " << projected << " blocks of " << cfg_.block << "^" << dims()
          << " cells by level " << pass + 1 << ", more than the " << max_blocks_ << " that fit in "
          << (where_ == Location::device ? "device" : "host")
          << " memory (fv.amr.max_blocks); lower fv.amr.max_level or fv.amr.block, narrow "
             "the refinement region (fv.amr.region_*), or raise fv.amr.refine";
        throw ConfigError(m.str());
      }
      if (!mesh_->adapt_discarding_data(flags)) break;
    }
  }

  // Every local block's interior from fv's initial condition at its level: each block is
  // filled as the box of the uniform grid of its level that it covers.
  void set_initial() {
    BlockPool<T>& state = mesh_->state();
    BlockPool<T> host_pool;
    BlockPool<T>* target = &state;
    if (where_ == Location::device) {
      host_pool = BlockPool<T>(Location::host, nv_, state.layout(), state.capacity());
      target = &host_pool;
    }
    const FieldLayout& l = state.layout();
    const MeshShape& s = mesh_->shape();
    std::vector<Field<T>> fields;
    for (int m = 0; m < nv_; ++m) fields.emplace_back(l.n, 0, Location::host);
    for (int b = 0; b < mesh_->blocks(); ++b) {
      const BlockInfo& info = mesh_->info()[std::size_t(b)];
      Grid g;
      for (int a = 0; a < 3; ++a) {
        g.n[a] = s.active[a] ? top_[a] << info.level : 1;
        g.spacing[a] = len_[a] / g.n[a];
        g.origin[a] = 0.5 * g.spacing[a];
        g.offset[a] = s.active[a] ? info.idx[a] * cfg_.block : 0;
      }
      fv::fill_initial(fields, fv_, g);
      for (int m = 0; m < nv_; ++m) {
        T* dst = target->block(m, b);
        for (int k = 0; k < l.n[2]; ++k)
          for (int j = 0; j < l.n[1]; ++j)
            for (int i = 0; i < l.n[0]; ++i)
              dst[l.index(i, j, k)] = fields[std::size_t(m)](i, j, k);
      }
    }
    if (target != &state)
      copy_bytes(state.data(), where_, host_pool.data(), Location::host, state.bytes());
  }

  auto* scalar(int i) { return static_cast<unsigned long long*>(scalars_.data()) + i; }

  std::uint64_t corrected() const {
    if (where_ == Location::host) return *(static_cast<const unsigned long long*>(scalars_.data()));
    unsigned long long v = 0;
    copy_bytes(&v, Location::host, scalars_.data(), Location::device, sizeof v);
    return v;
  }

  void run_stage(BlockStageArgs<T>& a) { mesh_->backend().stage(a); }

  // Runs one phase of a step; while phases are timed (time_phases), waits for the device
  // after it and adds its wall time, so that the phases' times add up to the step's.
  template <class F>
  void timed(int phase, F&& f) {
    if (!timing_) {
      f();
      return;
    }
    const auto t0 = std::chrono::steady_clock::now();
    f();
    if (where_ == Location::device) cuda::synchronize();
    phase_seconds_[phase] +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  // The run's scheme: the stage takes it, and refluxing recomputes the coarse-fine faces'
  // fluxes with it.
  BlockScheme block_scheme() const { return {fv::stage_path(fv_), fv_.variables}; }

  // Corrects `out` at every coarse-fine face from the fluxes of `in`, one face kind at a
  // time (a block has one face of each kind, so no cell is written twice at once).
  void reflux(const PoolView<T>& in, const PoolView<T>& out, T coef) {
    const MeshPlan& plan = mesh_->plan();
    bool active[3];
    for (int a = 0; a < 3; ++a) active[a] = mesh_->shape().active[a];
    for (int f = 0; f < 6; ++f) {
      const int begin = plan.reflux_begin[std::size_t(f)],
                end = plan.reflux_begin[std::size_t(f) + 1];
      if (begin == end) continue;
      mesh_->backend().reflux(in, out, mesh_->reflux_on_backend(), begin, end,
                              mesh_->info_on_backend(), ph_, block_scheme(), coef, inv_dx0_,
                              cfg_.block, active);
    }
  }

  void step_by(double h) override {
    rate_from_checkpoint_ = false;
    if (mhd()) set_cleaning();
    // The uniform grid's Runge-Kutta schemes as data (fv/TimeSteppers.hpp): each stage
    // fills its input's ghosts, advances every block into its output(s), then corrects the
    // outputs at the coarse-fine faces with the weight b dt its flux divergence has there,
    // so every register is conservative and so is the step (a convex combination of them).
    const fv::RkScheme sch = fv::rk_scheme(fv_.time);
    const PoolView<T> reg[fv::kMaxRkRegisters] = {
        mesh_->state().view(), mesh_->scratch().view(),
        sch.registers == 3 ? mesh_->third().view() : PoolView<T>{}};
    BlockStageArgs<T> a;
    a.info = mesh_->info_on_backend();
    a.blocks = mesh_->blocks();
    for (int d = 0; d < 3; ++d) a.inv_dx0[d] = inv_dx0_[d];
    a.ph = ph_;
    a.scheme = block_scheme();
    a.corrected = scalar(0);
    for (int st = 0; st < sch.stages; ++st) {
      const fv::RkStage& g = sch.stage[st];
      a.in = reg[g.in];
      timed(kGhostFilling, [&] { mesh_->fill_ghosts(a.in); });
      // A stage with two outputs (RK4's fourth) runs the blocks once for each: the
      // blocks' stage writes one register a pass.
      for (int o = 0; o < g.outputs; ++o) {
        const fv::RkOutput& out = g.out[o];
        const fv::StageWeights sw = fv::stage_weights(g, out);
        a.u0 = sw.other >= 0 ? reg[sw.other] : a.in;
        a.out = reg[out.reg];
        a.weight_u0 = T(sw.weight_u0);
        a.weight_in = T(sw.weight_in);
        a.dt = T(sw.dt_per_h * h);
        // The last stage reduces the next CFL rate on the way.
        a.rate_bits = st + 1 == sch.stages && o + 1 == g.outputs ? scalar(1) : nullptr;
        timed(kStepping, [&] { run_stage(a); });
        timed(kFluxCorrection, [&] { reflux(a.in, a.out, T(out.b * h)); });
      }
    }
    if (sch.result == 2) mesh_->take_third_as_state();
    time_ += h;
    ++step_;
    cell_updates_ += double(mesh_->blocks()) * cells_per_block();
    if (step_ % cfg_.regrid_every == 0 && cfg_.max_level > 0) {
      timed(kRegridding, [&] {
        regrid();
        update_rate();  // new blocks, new cell sizes
      });
      return;
    }
    unsigned long long bits = 0;
    copy_bytes(&bits, Location::host, scalar(1), where_, sizeof bits);
    std::memcpy(&rate_, &bits, sizeof rate_);
    finish_rate();
  }

  void regrid() {
    mesh_->fill_ghosts(mesh_->state().view());
    const std::vector<double> e = mesh_->indicators(cfg_.filter);
    std::vector<std::int8_t> flags =
        refine_flags(mesh_->forest().leaves(), e, criteria_, mesh_->shape().trees,
                     mesh_->shape().active, std::numeric_limits<std::int64_t>::max() / 2);
    limit_refinement(flags, e);
    if (mesh_->regrid(flags, true)) {
      ++regrids_;
      update_deepest_level();
      note_device_memory();
      resample_level_ = -1;
    }
  }

  // Where refinement would need more blocks than the memory of all ranks holds (max_blocks_
  // each), only the blocks with the largest indicators refine, ties in curve order: the
  // choice refine_flags makes on one rank, made over every rank's blocks at once, so that
  // which blocks refine first does not depend on the rank count. How many may refine does:
  // more ranks hold more blocks, so a run that reaches the limit differs from the serial
  // run from then on.
  void limit_refinement(std::vector<std::int8_t>& flags, const std::vector<double>& indicator) {
    const std::int64_t per = (std::int64_t(1) << dims()) - 1;
    const std::int64_t room =
        parallel::allreduce_sum(std::max<std::int64_t>(max_blocks_ - mesh_->blocks(), 0));
    std::vector<double> wanting;
    for (std::size_t i = 0; i < flags.size(); ++i)
      if (flags[i] > 0) wanting.push_back(indicator[i]);
    const std::int64_t allowed = room / per;
    if (parallel::allreduce_sum(std::int64_t(wanting.size())) <= allowed) return;
    const std::vector<char> keep = strongest(parallel::allgather_varying(wanting), allowed);
    const std::vector<int> counts = parallel::allgather(std::vector<int>{int(wanting.size())});
    std::size_t w = 0;  // this rank's first entry among all ranks' (rank order is curve order)
    for (int r = 0; r < parallel::rank(); ++r) w += std::size_t(counts[std::size_t(r)]);
    for (auto& f : flags)
      if (f > 0 && !keep[w++]) f = 0;
  }

  // The deepest level of every rank's leaves, for run_facts (which rank 0 alone calls, so
  // it is reduced here, where every rank is). Collective.
  void update_deepest_level() {
    int deepest = 0;
    for (int b = 0; b < mesh_->blocks(); ++b)
      deepest = std::max(deepest, mesh_->info()[std::size_t(b)].level);
    deepest_level_ = int(parallel::allreduce_max(double(deepest)));
  }

  void update_rate() {
    rate_ = mesh_->backend().max_rate(mesh_->state().view(), mesh_->info_on_backend(),
                                      mesh_->blocks(), ph_, inv_dx0_);
    finish_rate();
  }

  void finish_rate() {
    if (parallel::size() > 1)
      rate_ = parallel::allreduce_max(std::isfinite(rate_) ? rate_ : INFINITY);
    if (!std::isfinite(rate_)) throw InstabilityError(where_not_finite());
    dt_ = rate_ > 0 ? cfl_ / rate_ : 1.0;
  }

  // The message of the instability guard: the first block (level, position) and cell
  // that is not finite, found on the host.
  std::string where_not_finite() const {
    std::ostringstream m;
    m << "fv (amr): the state is no longer finite (NaN or Inf) after step " << step_
      << " at t = " << time_;
    const BlockPool<T>& s = mesh_->state();
    const FieldLayout& l = s.layout();
    std::vector<T> block(std::size_t(l.size));
    for (int b = 0; b < mesh_->blocks(); ++b)
      for (int v = 0; v < nv_; ++v) {
        copy_bytes(block.data(), Location::host, s.block(v, b), where_, block.size() * sizeof(T));
        for (int k = 0; k < l.n[2]; ++k)
          for (int j = 0; j < l.n[1]; ++j)
            for (int i = 0; i < l.n[0]; ++i)
              if (!std::isfinite(double(block[std::size_t(l.index(i, j, k))]))) {
                const BlockInfo& info = mesh_->info()[std::size_t(b)];
                m << ": block " << b << " of rank " << parallel::rank() << " (level " << info.level
                  << ", position " << info.idx[0] << " " << info.idx[1] << " " << info.idx[2]
                  << "), cell " << i << " " << j << " " << k;
                m << "; try a smaller fv.cfl, fv.reconstruction = constant or fv.riemann = hll";
                return m.str();
              }
      }
    m << " (on another rank); try a smaller fv.cfl, fv.reconstruction = constant or "
         "fv.riemann = hll";
    return m.str();
  }

  // The task that resamples local block `b` onto the uniform grid of `level`: the grid
  // cells whose centres lie in the block; none where the block holds no centre.
  std::optional<ResampleTask> resample_task(int b, int level) const {
    const int B = cfg_.block;
    const MeshShape& s = mesh_->shape();
    const BlockInfo& info = mesh_->info()[std::size_t(b)];
    ResampleTask t;
    t.slot = b;
    t.shift = info.level - level;
    for (int a = 0; a < 3; ++a) {
      if (!s.active[a]) {
        t.lo[a] = 0;
        t.hi[a] = 1;
        continue;
      }
      t.origin[a] = info.idx[a] * B;
      if (t.shift >= 0) {
        // Grid cells whose centres, (g + 1/2) 2^shift in block-level cells, lie in the block.
        const double scale = std::ldexp(1.0, t.shift);
        t.lo[a] = int(std::ceil(t.origin[a] / scale - 0.5));
        t.hi[a] = int(std::ceil((t.origin[a] + B) / scale - 0.5));
      } else {
        t.lo[a] = t.origin[a] << -t.shift;
        t.hi[a] = (t.origin[a] + B) << -t.shift;
      }
      if (t.hi[a] <= t.lo[a]) return std::nullopt;
    }
    return t;
  }

  // The tasks that resample the local blocks onto the view grid, rebuilt after a regrid.
  void prepare_resample() const {
    if (resample_level_ == view_level_) return;
    resample_tasks_.clear();
    for (int b = 0; b < mesh_->blocks(); ++b)
      if (const std::optional<ResampleTask> t = resample_task(b, view_level_))
        resample_tasks_.push_back(*t);
    resample_level_ = view_level_;
  }

  // Field `what` of the local blocks into `out` by `tasks` (copied to `dev` on the device).
  // Under MPI every rank resamples its blocks onto a zeroed grid and the grids are summed
  // (each cell lies in exactly one rank's block, so the sum is that cell's value, exactly):
  // every rank holds the whole of `out`. Collective then.
  void resample_into(const std::vector<ResampleTask>& tasks, Buffer& dev, int what,
                     Field<T>& out) const {
    const ResampleTask* list = tasks.data();
    if (where_ == Location::device) {
      const std::size_t bytes = std::max<std::size_t>(1, tasks.size() * sizeof(ResampleTask));
      if (dev.bytes() < bytes) dev = Buffer(where_, bytes);
      if (!tasks.empty()) copy_bytes(dev.data(), where_, tasks.data(), Location::host, bytes);
      list = static_cast<const ResampleTask*>(dev.data());
    }
    if (parallel::size() == 1) {
      mesh_->backend().resample(mesh_->state().view(), mesh_->info_on_backend(), inv_dx0_, list,
                                int(tasks.size()), out.layout(), ph_, what, out.data());
      return;
    }
    // Into a zeroed grid of its own, so that `out` (which a caller may still hold a view of)
    // stays where it is.
    Field<T> mine(out.layout().n, 0, where_);
    mesh_->backend().resample(mesh_->state().view(), mesh_->info_on_backend(), inv_dx0_, list,
                              int(tasks.size()), mine.layout(), ph_, what, mine.data());
    const std::size_t count = std::size_t(out.layout().bytes()) / sizeof(T);
    std::vector<T> host(count);
    copy_bytes(host.data(), Location::host, mine.data(), where_, count * sizeof(T));
    parallel::allreduce_sum(host.data(), count);
    copy_bytes(out.data(), where_, host.data(), Location::host, count * sizeof(T));
  }

  static const char* field_unit(int what) {
    return what == kDensity ? "kg/m^3" : kDerived[what].unit;  // kDerived is in Derived order
  }

  BackendKind backend_;
  Location where_ = Location::host;
  BlockTransport block_transport_ = BlockTransport::host;
  ParamSet params_;
  fv::FvConfig fv_;
  AmrConfig cfg_;
  RefineCriteria criteria_;
  std::array<int, 3> top_{1, 1, 1};
  std::array<double, 3> len_{1, 1, 1};
  T inv_dx0_[3] = {0, 0, 0};
  fv::Physics<T> ph_;
  int nv_ = 5;
  double cfl_ = 0.4, dt_ = 0, time_ = 0, rate_ = 0;
  bool rate_from_checkpoint_ = false;  // no step since load_state (set_live says why)
  double cell_updates_ = 0;            // cells advanced by whole steps since the start (this rank)
  std::int64_t step_ = 0, regrids_ = 0, max_blocks_ = 0;
  int deepest_level_ = 0;  // over every rank's leaves (update_deepest_level)
  std::unique_ptr<AmrMesh<T>> mesh_;
  Grid grid_;
  int view_level_ = 0;
  mutable int resample_level_ = -1;
  mutable std::vector<ResampleTask> resample_tasks_;
  mutable Buffer resample_dev_;
  int plane_level_ = 0;                     // of plane_view(): deeper than view_level_
  mutable std::array<Field<T>, 3> planes_;  // plane_view()'s, one per axis
  mutable Buffer plane_dev_;                // its tasks on the device
  mutable std::size_t memory_peak_ = 0;     // note_device_memory()
  mutable Buffer scan_;                     // first_unsound_cell()'s packed field
  mutable std::vector<Field<T>> derived_;   // rho, then the derived fields: filled by view()
  Buffer scalars_;                          // [0] corrected-cell count, [1] next CFL rate bits
  bool timing_ = false;                     // phases timed (fluxview bench), not state
  double phase_seconds_[kPhases] = {};
};

}  // namespace

std::unique_ptr<Solver> make_amr_solver(BackendKind backend, Precision precision) {
  if (precision == Precision::f32) return std::make_unique<AmrFvSolver<float>>(backend);
  return std::make_unique<AmrFvSolver<double>>(backend);
}

}  // namespace fluxview::amr
