// The fv solver's set-up, fields and diagnostics (the class: FvSolverImpl.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/fv/FvInitial.hpp"
#include "sim/fv/FvSolver.hpp"
#include "sim/fv/FvSolverImpl.hpp"

namespace fluxview::fv {

template <class T>
void FvSolver<T>::reset(const ParamSet& p) {
  params_ = p;
  config_ = parse_config(p);
  backend_ = make_backend<T>(kind_);
  tools_ = make_tools<T>(kind_);
  solid_ = Field<T>();
  solid_cells_ = 0;
  const std::array<int, 3>& n = config_.grid.n;
  // Under MPI this rank holds one box; faces that border another rank take their ghosts
  // from it (Bc::neighbour), the others keep their physical boundary.
  std::array<bool, 3> periodic{};
  for (int a = 0; a < 3; ++a) periodic[a] = config_.bc[a][0] == Bc::periodic;
  ghost_ = ghost_width(config_.reconstruction);
  box_ = parallel::split(n, periodic, ghost_);
  const std::array<int, 3> local = box_.n;
  grid_ = Grid{};
  grid_.n = n;
  grid_.offset = box_.offset;
  grid_.ghost = ghost_;
  grid_.centering = Centering::cell;
  for (int a = 0; a < 3; ++a) {
    grid_.spacing[a] = config_.grid.length[a] / n[a];
    grid_.origin[a] = 0.5 * grid_.spacing[a];
    inv_dx_[a] = n[a] > 1 ? T(1 / grid_.spacing[a]) : T(0);
  }
  ph_ = physics_in<T>(config_);
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s) {
      const bool inner = box_.dims[a] > 1 &&
                         (periodic[a] || (s == 0 ? !box_.at_low_edge(a) : !box_.at_high_edge(a)));
      ghosts_.bc[a][s] = inner ? Bc::neighbour : config_.bc[a][s];
    }
  nv_ = variable_count(config_.mhd, config_.tracer);
  tile_rows_ = tile_rows();
  time_ = 0;
  step_ = 0;

  // Build the initial state on the host, then move it to the backend field by field.
  std::vector<Field<T>> host;
  for (int m = 0; m < nv_; ++m) host.emplace_back(local, ghost_, Location::host);
  fill_initial(host, config_, grid_);
  const FieldLayout lay = host[0].layout();
  const int registers = rk_scheme(config_.time).registers;
  backend_->require_memory(std::size_t(registers) * nv_ * lay.bytes());
  state_.clear();
  stage_.clear();
  third_.clear();
  times_ = PassTimes{};
  derived_.clear();
  derived_.resize(std::size(kDerived));
  for (int m = 0; m < nv_; ++m) {
    state_.emplace_back(local, ghost_, where());
    stage_.emplace_back(local, ghost_, where());
    if (registers > 2) third_.emplace_back(local, ghost_, where());
    copy_bytes(state_[m].data(), where(), host[m].data(), Location::host, lay.bytes());
  }
  exchange_ = parallel::GhostExchange(box_, lay, where(), config_.parallel.ghosts);
  counters_ = Buffer(where(), 2 * sizeof(unsigned long long));
  counters_.fill_zero();

  fill_ghosts(fields_of(state_), time_);
  rate_from_state();
}

template <class T>
std::vector<FieldInfo> FvSolver<T>::fields() const {
  std::vector<FieldInfo> f = {{"rho", "kg/m^3", "density", true}};
  for (const auto& d : kDerived)
    if (has_field(d)) f.push_back({d.name, d.unit, d.description, d.what == Derived::p});
  return f;
}

// rho is the state itself; every other field is computed from the state into a buffer
// where the backend computes each time it is asked for.
template <class T>
FieldView FvSolver<T>::view(const std::string& name) const {
  if (name == "rho") return state_[0].view("rho", "kg/m^3", Centering::cell);
  // Obstacles drawn with the steering tools (not one of fields(): most runs have none).
  if (name == "solid" && solid_cells_ > 0) return solid_.view("solid", "", Centering::cell);
  for (std::size_t i = 0; i < std::size(kDerived); ++i) {
    const DerivedInfo& d = kDerived[i];
    if (name != d.name || !has_field(d)) continue;
    Field<T>& out = derived_[i];
    if (out.layout().size != layout().size || out.where() != where())
      out = Field<T>(layout().n, ghost_, where());
    // div B reads the neighbours: the state's ghosts are filled after every MHD step.
    backend_->derived(fields_of(state_), nv_, layout(), ph_, inv_dx_, d.what, out.data());
    return out.view(d.name, d.unit, Centering::cell);
  }
  std::string names;
  for (const auto& f : fields()) names += (names.empty() ? "" : ", ") + f.name;
  throw std::out_of_range("fv solver has no field '" + name + "' (it has " + names + ")");
}

template <class T>
std::vector<Diagnostic> FvSolver<T>::diagnostics() {
  Totals t = backend_->totals(fields_of(state_), nv_, layout(), ph_, inv_dx_);
  t.mass = parallel::allreduce_sum(t.mass);
  for (double& m : t.momentum) m = parallel::allreduce_sum(m);
  t.energy = parallel::allreduce_sum(t.energy);
  t.tracer_mass = parallel::allreduce_sum(t.tracer_mass);
  t.mixed_mass = parallel::allreduce_sum(t.mixed_mass);
  t.max_mach = parallel::allreduce_max(t.max_mach);
  t.nonfinite = parallel::allreduce_sum(t.nonfinite);
  double vol = 1;
  for (int a = 0; a < 3; ++a) vol *= grid_.spacing[a];
  const double cells = double(grid_.n[0]) * grid_.n[1] * grid_.n[2];
  std::vector<Diagnostic> d = {
      {"mass", "kg", t.mass * vol},
      {"momentum_x", "kg m/s", t.momentum[0] * vol},
      {"momentum_y", "kg m/s", t.momentum[1] * vol},
      {"momentum_z", "kg m/s", t.momentum[2] * vol},
      {"energy", "J", t.energy * vol},
      {"max_mach", "", t.max_mach},
      {"mean_mach", "", parallel::allreduce_sum(t.mach_sum) / cells},
      {"corrected_cells", "", parallel::allreduce_sum(double(corrected()))},
      {"nonfinite_cells", "", double(t.nonfinite)},
  };
  if (config_.init == FvInit::isentropic_vortex || config_.init == FvInit::smooth_wave ||
      config_.init == FvInit::mhd_vortex) {
    // Against the exact solution at this time: the mean and the largest error over the
    // cells of the density, or of B_x for the MHD vortex (the L1 and L-infinity errors of
    // the paper's Tables XII and XIII).
    ExactSolution ex;
    ex.problem = config_.init == FvInit::isentropic_vortex ? ExactProblem::vortex
                 : config_.init == FvInit::mhd_vortex      ? ExactProblem::mhd_vortex
                                                           : ExactProblem::wave;
    ex.vortex_spec = vortex_spec(config_);
    ex.wave_spec = wave_spec(config_);
    ex.mhd_vortex_spec = mhd_vortex_spec(config_);
    const ExactErrors e = backend_->exact_errors(fields_of(state_), layout(), grid_, ex, time_);
    const bool bx = ex.problem == ExactProblem::mhd_vortex;
    const char* unit = bx ? "Pa^1/2" : "kg/m^3";
    d.push_back(
        {bx ? "bx_error_l1" : "density_error_l1", unit, parallel::allreduce_sum(e.sum) / cells});
    d.push_back(
        {bx ? "bx_error_linf" : "density_error_linf", unit, parallel::allreduce_max(e.max)});
  }
  if (mhd()) {
    // Magnetic energy (part of "energy"), and div B: its mean magnitude over the cells and
    // its largest, by central differences (the GLM cleaning keeps them small; without it
    // they grow).
    d.push_back({"magnetic_energy", "J", parallel::allreduce_sum(t.magnetic_energy) * vol});
    d.push_back({"divergence_b_mean", "Pa^1/2/m", parallel::allreduce_sum(t.divb_sum) / cells});
    d.push_back({"divergence_b_max", "Pa^1/2/m", parallel::allreduce_max(t.divb_max)});
  }
  if (has_tracer()) {
    d.push_back({"tracer_mass", "kg", t.tracer_mass * vol});
    // Fraction of the tracer-carrying material in cells where it is mixed with the
    // background (0.1 < c < 0.9): the cloud-disruption measure of how much of the cloud
    // has been stripped and stirred in.
    d.push_back({"mixed_fraction", "", t.tracer_mass > 0 ? t.mixed_mass / t.tracer_mass : 0});
  }
  return d;
}

template <class T>
std::vector<std::pair<std::string, std::string>> FvSolver<T>::run_facts() const {
  std::ostringstream bc;
  const char* ax = "xyz";
  for (int a = 0; a < 3; ++a)
    bc << (a ? " " : "") << ax[a] << ":" << bc_name(ghosts_.bc[a][0]) << "/"
       << bc_name(ghosts_.bc[a][1]);
  std::string scheme = scheme_name(config_);
  if (config_.reconstruction == Reconstruction::plm) {
    const std::size_t at = scheme.find("plm") + 3;  // after "mhd " for MHD
    scheme = scheme.substr(0, at) + " theta=" + format_value(double(ph_.theta)) + scheme.substr(at);
  }
  const StagePath path = stage_path(config_);
  std::string kernel = backend_->kernel(tile_rows_);
  if (path == StagePath::modal)
    kernel = std::string(where() == Location::device ? "device" : "cpu-openmp") +
             " passes: cell polynomials" +
             (config_.time == TimeStepper::ader ? ", predictor" : "") +
             ", face fluxes at Gauss points, update";
  else if (path == StagePath::wenoz_faces)
    kernel = std::string(where() == Location::device ? "device" : "cpu-openmp") +
             " passes: WENO-Z face values and fluxes, update";
  std::vector<std::pair<std::string, std::string>> f = {
      {"kernel", kernel},
      {"scheme", scheme},
      {"ghost_layers", std::to_string(ghost_)},
      {"variables",
       std::string("rho, rho u, E") + (mhd() ? ", B, psi" : "") + (has_tracer() ? ", rho c" : "")},
      {"boundaries", bc.str()},
      {"cfl", format_value(config_.cfl)}};
  if (mhd())
    f.push_back({"divergence_cleaning", config_.cleaning ? "glm, c_h from the CFL rate, alpha = " +
                                                               format_value(config_.glm_alpha)
                                                         : "none"});
  if (config_.time_passes && times_.total() > 0) {
    const double t = times_.total();
    std::ostringstream o;
    o.precision(3);
    o << "reconstruct " << times_.reconstruct / t << ", predictor " << times_.predict / t
      << ", faces " << times_.faces / t << ", update " << times_.update / t << " of " << t << " s";
    f.push_back({"pass_fractions", o.str()});
    f.push_back({"predictor_fraction", format_value(times_.predict / t)});
  }
  return f;
}

template <class T>
double FvSolver<T>::bytes_per_cell_update() const {
  return double(register_words_per_step(rk_scheme(config_.time))) * nv_ * sizeof(T);
}

template class FvSolver<float>;
template class FvSolver<double>;

std::unique_ptr<Solver> make_solver(BackendKind backend, Precision precision) {
  if (precision == Precision::f32) return std::make_unique<FvSolver<float>>(backend);
  return std::make_unique<FvSolver<double>>(backend);
}

}  // namespace fluxview::fv
