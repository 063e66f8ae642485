// The finite-volume solver: compressible Euler for an ideal gas by the method of lines
// (Wang, Abel & Kaehler 2010, sec. 4), unsplit in 3D: PLM reconstruction of primitives,
// HLL/HLLC/LLF fluxes, TVD RK2 in the two-register form
//   U1 = U + dt L(U),   U = 1/2 U + 1/2 (U1 + dt L(U1)),
// so a step needs the state U and one stage buffer U1 and nothing else on the device.
//
// The state is kept conservative (rho, rho u, E [, rho c]) because that is what the
// update conserves to round-off and what each stage reads and writes: storing primitives
// as well would add five fields of traffic to every stage for the sake of snapshots.
// Primitive fields (ux, uy, uz, p, tracer) are therefore derived on demand: view() of
// such a field computes it into a buffer of the solver's backend (a kernel on the
// device for CUDA), valid until the next step. Those buffers are `mutable` so that
// view() stays const for callers: it changes no state a step depends on.
//
// A step moves one scalar (the next CFL rate, 8 bytes) from the device to the host; the
// rate is reduced inside the last stage's kernel while it writes the new state.
#include <cmath>
#include <cstring>
#include <numbers>
#include <sstream>
#include <stdexcept>

#include "sim/core/ConfigError.hpp"
#include "sim/core/CudaRuntime.hpp"
#include "sim/core/Field.hpp"
#include "sim/core/GhostExchange.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/Reduce.hpp"
#include "sim/fv/FvSolver.hpp"
#include "sim/fv/FvStep.hpp"

namespace fluxview::fv {

namespace {

Bc parse_bc(const std::string& s) {
  if (s == "periodic") return Bc::periodic;
  if (s == "reflecting") return Bc::reflecting;
  return Bc::outflow;
}

Riemann parse_riemann(const std::string& s) {
  if (s == "hll") return Riemann::hll;
  if (s == "llf") return Riemann::llf;
  return Riemann::hllc;
}

struct DerivedInfo {
  const char* name;
  const char* unit;
  const char* description;
  Derived what;
};
constexpr DerivedInfo kDerived[] = {
    {"ux", "m/s", "velocity x", Derived::ux},
    {"uy", "m/s", "velocity y", Derived::uy},
    {"uz", "m/s", "velocity z", Derived::uz},
    {"p", "Pa", "pressure", Derived::p},
    {"tracer", "", "passive tracer concentration c (1: cloud or band material)", Derived::tracer},
};

// Names of the conserved fields in checkpoints.
constexpr const char* kConservedNames[] = {"rho", "mom_x", "mom_y", "mom_z", "E", "rho_c"};

template <class T>
class FvSolver final : public Solver {
 public:
  explicit FvSolver(BackendKind b) : backend_(b) {}

  void reset(const ParamSet& p) override {
    params_ = p;
    const std::array<int, 3> n{int(p.get_int("grid.nx")), int(p.get_int("grid.ny")),
                               int(p.get_int("grid.nz"))};
    len_ = {p.get_real("grid.lx"), p.get_real("grid.ly"), p.get_real("grid.lz")};
    // Under MPI this rank holds one box; faces that border another rank take their ghosts
    // from it (Bc::neighbour), the others keep their physical boundary.
    std::array<bool, 3> periodic{};
    for (int a = 0; a < 3; ++a) periodic[a] = resolved_bc(p, a, 0) == "periodic";
    box_ = parallel::split(n, periodic, kGhost);
    const std::array<int, 3> local = box_.n;
    grid_ = Grid{};
    grid_.n = n;
    grid_.offset = box_.offset;
    grid_.ghost = kGhost;
    grid_.centering = Centering::cell;
    for (int a = 0; a < 3; ++a) {
      grid_.spacing[a] = len_[a] / n[a];
      grid_.origin[a] = 0.5 * grid_.spacing[a];
      inv_dx_[a] = n[a] > 1 ? T(1 / grid_.spacing[a]) : T(0);
    }
    ph_ = Physics<T>{};
    ph_.gamma = T(p.get_real("fv.gamma"));
    ph_.theta = T(p.get_real("fv.theta"));
    ph_.plm = p.get_string("fv.reconstruction") == "plm";
    ph_.riemann = parse_riemann(p.get_string("fv.riemann"));
    ph_.rho_floor = T(p.get_real("fv.rho_floor"));
    ph_.p_floor = T(p.get_real("fv.p_floor"));
    cfl_ = p.get_real("fv.cfl");
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s) {
        const bool inner = box_.dims[a] > 1 &&
                           (periodic[a] || (s == 0 ? !box_.at_low_edge(a) : !box_.at_high_edge(a)));
        ghosts_.bc[a][s] = inner ? Bc::neighbour : parse_bc(resolved_bc(p, a, s));
      }
    nv_ = p.get_bool("fv.tracer") ? 6 : 5;
    const std::string tile = p.get_string("fv.cuda_tile");
    tile_rows_ = tile == "32x4" || (tile == "auto" && sizeof(T) == 8) ? 4 : 8;
    time_ = 0;
    step_ = 0;

    // Build the initial state on the host, then move it to the device field by field.
    std::vector<Field<T>> host;
    for (int m = 0; m < nv_; ++m) host.emplace_back(local, kGhost, Location::host);
    fill_initial(host, p);
    where_ = backend_ == BackendKind::cuda ? Location::device : Location::host;
    const FieldLayout lay = host[0].layout();
    if (where_ == Location::device) cuda::require_device_memory(2 * nv_ * lay.bytes());
    state_.clear();
    stage_.clear();
    derived_.clear();
    derived_.resize(std::size(kDerived));
    for (int m = 0; m < nv_; ++m) {
      state_.emplace_back(local, kGhost, where_);
      stage_.emplace_back(local, kGhost, where_);
      copy_bytes(state_[m].data(), where_, host[m].data(), Location::host, lay.bytes());
    }
    exchange_ = parallel::GhostExchange(box_, lay, where_, parallel_config(p).ghosts);
    work_ = Buffer();
    if (where_ == Location::host)
      work_ = Buffer(Location::host, std::size_t(3) * nv_ * lay.bytes());
    scalars_ = Buffer(where_, 2 * sizeof(unsigned long long));
    scalars_.fill_zero();

    fill_ghosts(fields(state_));
    rate_ = where_ == Location::device ? max_rate_cuda(fields(state_), nv_, lay, ph_, inv_dx_)
                                       : max_rate_cpu(fields(state_), nv_, lay, ph_, inv_dx_);
    reduce_rate();
    check_rate();
    dt_ = next_dt();
  }

  void synchronize() override {
    if (backend_ == BackendKind::cuda) cuda::check_last_error("fv step");
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
      if (d.what != Derived::tracer || nv_ == 6)
        f.push_back({d.name, d.unit, d.description, d.what == Derived::p});
    return f;
  }

  // rho is the state itself; every other field is computed from the state into a buffer
  // on the solver's backend (on the device for CUDA) each time it is asked for.
  FieldView view(const std::string& name) const override {
    if (name == "rho") return state_[0].view("rho", "kg/m^3", Centering::cell);
    for (std::size_t i = 0; i < std::size(kDerived); ++i) {
      const DerivedInfo& d = kDerived[i];
      if (name != d.name || (d.what == Derived::tracer && nv_ != 6)) continue;
      Field<T>& out = derived_[i];
      if (out.layout().size != state_[0].layout().size || out.where() != where_)
        out = Field<T>(state_[0].layout().n, kGhost, where_);
      const Conserved<T> u = fields(state_);
      if (where_ == Location::device)
        derived_cuda(u, nv_, state_[0].layout(), ph_, d.what, out.data());
      else
        derived_cpu(u, nv_, state_[0].layout(), ph_, d.what, out.data());
      return out.view(d.name, d.unit, Centering::cell);
    }
    std::string names;
    for (const auto& f : fields()) names += (names.empty() ? "" : ", ") + f.name;
    throw std::out_of_range("fv solver has no field '" + name + "' (it has " + names + ")");
  }

  std::vector<Diagnostic> diagnostics() override {
    const FieldLayout& l = state_[0].layout();
    Totals t = where_ == Location::device ? totals_cuda(fields(state_), nv_, l, ph_)
                                          : totals_cpu(fields(state_), nv_, l, ph_);
    t.mass = parallel::allreduce_sum(t.mass);
    for (double& m : t.momentum) m = parallel::allreduce_sum(m);
    t.energy = parallel::allreduce_sum(t.energy);
    t.tracer_mass = parallel::allreduce_sum(t.tracer_mass);
    t.mixed_mass = parallel::allreduce_sum(t.mixed_mass);
    t.max_mach = parallel::allreduce_max(t.max_mach);
    t.nonfinite = parallel::allreduce_sum(std::int64_t(t.nonfinite));
    double vol = 1;
    for (int a = 0; a < 3; ++a) vol *= grid_.spacing[a];
    std::vector<Diagnostic> d = {
        {"mass", "kg", t.mass * vol},
        {"momentum_x", "kg m/s", t.momentum[0] * vol},
        {"momentum_y", "kg m/s", t.momentum[1] * vol},
        {"momentum_z", "kg m/s", t.momentum[2] * vol},
        {"energy", "J", t.energy * vol},
        {"max_mach", "", t.max_mach},
        {"corrected_cells", "", parallel::allreduce_sum(double(corrected()))},
        {"nonfinite_cells", "", double(t.nonfinite)},
    };
    if (nv_ == 6) {
      d.push_back({"tracer_mass", "kg", t.tracer_mass * vol});
      // Fraction of the tracer-carrying material in cells where it is mixed with the
      // background (0.1 < c < 0.9): the cloud-disruption measure of how much of the cloud
      // has been stripped and stirred in.
      d.push_back({"mixed_fraction", "", t.tracer_mass > 0 ? t.mixed_mass / t.tracer_mass : 0});
    }
    return d;
  }

  // A checkpoint holds the conserved interiors (what a step reads; ghosts are refilled),
  // the clock and the corrected-cell count. The next dt is recomputed from the state by
  // the same formula the last stage's reduction used, so a restart continues bit-identically.
  SolverState save_state() const override {
    SolverState st;
    st.time = time_;
    st.step = step_;
    for (int m = 0; m < nv_; ++m)
      st.arrays.push_back({kConservedNames[m], gather_interior(state_[m].view(
                                                   kConservedNames[m], "", Centering::cell))});
    // The run's total, not this rank's: a restart on another rank count puts it on rank 0
    // (load_state), so the diagnostic, a sum over ranks, carries on unchanged.
    st.extra =
        "corrected_cells=" + std::to_string(parallel::allreduce_sum(std::int64_t(corrected())));
    return st;
  }

  void load_state(const SolverState& st) override {
    if (int(st.arrays.size()) != nv_)
      throw std::runtime_error("fv checkpoint holds " + std::to_string(st.arrays.size()) +
                               " arrays but this run has " + std::to_string(nv_) +
                               " conserved fields (is fv.tracer the same?)");
    for (int m = 0; m < nv_; ++m) {
      if (st.arrays[m].name != kConservedNames[m])
        throw std::runtime_error("fv checkpoint array " + std::to_string(m) + " is '" +
                                 st.arrays[m].name + "', expected '" + kConservedNames[m] + "'");
      scatter_interior(st.arrays[m].values, state_[m].data(), state_[m].layout(), where_);
    }
    unsigned long long count = 0;
    const std::string key = "corrected_cells=";
    if (st.extra.rfind(key, 0) == 0 && parallel::is_root())
      count = std::stoull(st.extra.substr(key.size()));
    copy_bytes(scalars_.data(), where_, &count, Location::host, sizeof count);
    time_ = st.time;
    step_ = st.step;
    fill_ghosts(fields(state_));
    const FieldLayout& l = state_[0].layout();
    rate_ = where_ == Location::device ? max_rate_cuda(fields(state_), nv_, l, ph_, inv_dx_)
                                       : max_rate_cpu(fields(state_), nv_, l, ph_, inv_dx_);
    reduce_rate();
    check_rate();
    dt_ = next_dt();
  }

  // The roofline model of a full RK2 step, per cell, in the minimum DRAM traffic of the
  // two-register scheme: stage 1 reads U and writes U1 (2 nv), stage 2 reads U1 and U and
  // writes U (3 nv). Ghost fills and the re-reads of neighbour cells are not counted
  // (they hit in cache when the kernel is good).
  double bytes_per_cell_update() const override { return 5.0 * nv_ * sizeof(T); }

  std::vector<std::pair<std::string, std::string>> run_facts() const override {
    std::ostringstream bc;
    const char* ax = "xyz";
    const char* names[4] = {"outflow", "reflecting", "periodic", "MPI neighbour"};
    for (int a = 0; a < 3; ++a)
      bc << (a ? " " : "") << ax[a] << ":" << names[int(ghosts_.bc[a][0])] << "/"
         << names[int(ghosts_.bc[a][1])];
    return {
        {"kernel", backend_ == BackendKind::cuda ? "fused tile 32x" + std::to_string(tile_rows_) +
                                                       " (reconstruct+flux+update per stage)"
                                                 : std::string("cpu-openmp")},
        {"scheme", std::string(ph_.plm ? "PLM theta=" + format_value(double(ph_.theta))
                                       : std::string("first order")) +
                       ", " + params_.get_string("fv.riemann") + ", TVD RK2"},
        {"variables", nv_ == 6 ? "rho, rho u, E, rho c" : "rho, rho u, E"},
        {"boundaries", bc.str()},
        {"cfl", format_value(cfl_)}};
  }

 private:
  Conserved<T> fields(const std::vector<Field<T>>& f) const {
    Conserved<T> c;
    for (int m = 0; m < nv_; ++m) c.f[m] = const_cast<T*>(f[m].data());
    return c;
  }

  void fill_ghosts(const Conserved<T>& u) {
    if (where_ == Location::device)
      fill_ghosts_cuda(u, nv_, state_[0].layout(), ghosts_);
    else
      fill_ghosts_cpu(u, nv_, state_[0].layout(), ghosts_);
    void* fields[parallel::GhostExchange::kMaxFields];
    for (int m = 0; m < nv_; ++m) fields[m] = u.f[m];
    exchange_.exchange(fields, nv_);  // one message per neighbour for every variable
  }

  void run_stage(StageArgs<T>& a) {
    if (where_ == Location::device)
      stage_cuda(a);
    else
      stage_cpu(a);
  }

  auto* scalar(int i) { return static_cast<unsigned long long*>(scalars_.data()) + i; }

  std::uint64_t corrected() const {
    if (where_ == Location::host) return *(static_cast<const unsigned long long*>(scalars_.data()));
    unsigned long long v = 0;
    copy_bytes(&v, Location::host, scalars_.data(), Location::device, sizeof v);
    return v;
  }

  void step_by(double h) override {
    const Conserved<T> u = fields(state_), u1 = fields(stage_);
    StageArgs<T> a;
    a.nv = nv_;
    a.layout = state_[0].layout();
    a.dt = T(h);
    for (int d = 0; d < 3; ++d) a.inv_dx[d] = inv_dx_[d];
    a.ph = ph_;
    a.corrected = scalar(0);
    a.cpu_work = static_cast<T*>(work_.data());
    a.tile_rows = tile_rows_;
    // Stage 1: U1 = U + dt L(U).
    fill_ghosts(u);
    a.u0 = u;
    a.in = u;
    a.out = u1;
    a.a = T(0);
    a.b = T(1);
    run_stage(a);
    // Stage 2: U = 1/2 U + 1/2 (U1 + dt L(U1)), with the next CFL rate reduced on the way.
    fill_ghosts(u1);
    a.in = u1;
    a.out = u;
    a.a = T(0.5);
    a.b = T(0.5);
    a.rate_bits = scalar(1);
    run_stage(a);
    time_ += h;
    ++step_;
    unsigned long long bits = 0;
    copy_bytes(&bits, Location::host, scalar(1), where_, sizeof bits);
    std::memcpy(&rate_, &bits, sizeof rate_);
    reduce_rate();
    check_rate();
    dt_ = next_dt();
  }

  double next_dt() const { return rate_ > 0 ? cfl_ / rate_ : 1.0; }

  // The global maximum signal rate (exact in any order, so every rank and a serial run
  // take the same dt); a non-finite rate on any rank becomes +inf on all, so all stop.
  void reduce_rate() {
    if (parallel::size() == 1) return;
    rate_ = parallel::allreduce_max(std::isfinite(rate_) ? rate_ : INFINITY);
  }

  void check_rate() const {
    if (std::isfinite(rate_)) return;
    std::ostringstream m;
    m << "fv: the state is no longer finite (NaN or Inf) after step " << step_
      << " at t = " << time_
      << "; try a smaller fv.cfl, fv.reconstruction = constant or fv.riemann = hll";
    throw InstabilityError(m.str());
  }

  // ---- initial conditions ----

  void fill_initial(std::vector<Field<T>>& f, const ParamSet& p) const {
    const std::string init = p.get_string("fv.init");
    const double g = p.get_real("fv.gamma");
    const auto& n = grid_.n;              // global: which axes are reduced
    const auto& local = f[0].layout().n;  // this rank's box
    const auto& off = grid_.offset;
    const double dx[3] = {grid_.spacing[0], grid_.spacing[1], grid_.spacing[2]};
    // Geometry of blast and cloud (absolute coordinates).
    const double bc[3] = {p.get_real("fv.blast_x") * len_[0], p.get_real("fv.blast_y") * len_[1],
                          p.get_real("fv.blast_z") * len_[2]};
    const double cc[3] = {p.get_real("fv.cloud_x") * len_[0], p.get_real("fv.cloud_y") * len_[1],
                          p.get_real("fv.cloud_z") * len_[2]};
    const double r0 = p.get_real("fv.blast_radius"), rc = p.get_real("fv.cloud_radius");
    const double p_blast =
        3 * (g - 1) * p.get_real("fv.blast_energy") / (4 * std::numbers::pi * r0 * r0 * r0);
    const double rho_a = p.get_real("fv.ambient_rho"), p_a = p.get_real("fv.ambient_p");
    const double vel[3] = {p.get_real("fv.ux"), p.get_real("fv.uy"), p.get_real("fv.uz")};
    const int axis = p.get_string("fv.axis")[0] - 'x';
    const double iface = p.get_real("fv.interface") * len_[axis];

    // Fraction of a cell inside a sphere (a cylinder or slab along reduced axes), by
    // sampling 4 points per active axis in cells the surface cuts.
    auto inside_fraction = [&](const double x[3], const double c[3], double r) {
      double d2 = 0, diag2 = 0;
      for (int a = 0; a < 3; ++a)
        if (n[a] > 1) {
          d2 += (x[a] - c[a]) * (x[a] - c[a]);
          diag2 += 0.25 * dx[a] * dx[a];
        }
      const double d = std::sqrt(d2), h = std::sqrt(diag2);
      if (d + h <= r) return 1.0;
      if (d - h >= r) return 0.0;
      const int s[3] = {n[0] > 1 ? 4 : 1, n[1] > 1 ? 4 : 1, n[2] > 1 ? 4 : 1};
      int in = 0;
      for (int c2 = 0; c2 < s[2]; ++c2)
        for (int c1 = 0; c1 < s[1]; ++c1)
          for (int c0 = 0; c0 < s[0]; ++c0) {
            const int cs[3] = {c0, c1, c2};
            double e2 = 0;
            for (int a = 0; a < 3; ++a) {
              if (n[a] == 1) continue;
              const double y = x[a] + ((cs[a] + 0.5) / s[a] - 0.5) * dx[a];
              e2 += (y - c[a]) * (y - c[a]);
            }
            in += e2 <= r * r;
          }
      return double(in) / (s[0] * s[1] * s[2]);
    };

#pragma omp parallel for collapse(2) schedule(dynamic, 4)
    for (int k = 0; k < local[2]; ++k)
      for (int j = 0; j < local[1]; ++j)
        for (int i = 0; i < local[0]; ++i) {
          const double x[3] = {grid_.coord(0, off[0] + i), grid_.coord(1, off[1] + j),
                               grid_.coord(2, off[2] + k)};
          double rho = rho_a, pr = p_a, u[3] = {vel[0], vel[1], vel[2]}, c = 0;
          if (init == "shock-tube") {
            const bool left = x[axis] < iface;
            rho = left ? p.get_real("fv.left_rho") : p.get_real("fv.right_rho");
            pr = left ? p.get_real("fv.left_p") : p.get_real("fv.right_p");
            u[0] = u[1] = u[2] = 0;
            u[axis] = left ? p.get_real("fv.left_u") : p.get_real("fv.right_u");
            c = left ? 1 : 0;
          } else if (init == "blast") {
            const double fb = inside_fraction(x, bc, r0);
            pr = p_a + fb * (p_blast - p_a);  // energy in the cut cells by volume fraction
            if (rc > 0) {
              const double fc = inside_fraction(x, cc, rc);
              rho = rho_a * (1 + fc * (p.get_real("fv.cloud_density_ratio") - 1));
              c = fc;
            }
          } else if (init == "kelvin-helmholtz") {
            const double y = x[1] / len_[1];
            const double hw = p.get_real("fv.kh_band"), w = p.get_real("fv.kh_seed_width");
            const bool band = std::fabs(y - 0.5) < hw;
            rho = band ? p.get_real("fv.kh_rho_inner") : p.get_real("fv.kh_rho_outer");
            pr = p.get_real("fv.kh_p");
            const double s = p.get_real("fv.kh_shear");
            u[0] = band ? s : -s;
            u[1] = p.get_real("fv.kh_amplitude") *
                   std::sin(2 * std::numbers::pi * p.get_int("fv.kh_modes") * x[0] / len_[0]) *
                   (std::exp(-std::pow((y - 0.5 + hw) / w, 2) / 2) +
                    std::exp(-std::pow((y - 0.5 - hw) / w, 2) / 2));
            u[2] = 0;
            c = band ? 1 : 0;
          }
          State<double, 6> q{{rho, u[0], u[1], u[2], pr, c}};
          const State<double, 6> cons = prim_to_cons(q, g);
          for (int m = 0; m < nv_; ++m) f[m](i, j, k) = T(cons.v[m]);
        }
  }

  BackendKind backend_;
  Location where_ = Location::host;
  ParamSet params_;
  Grid grid_;
  std::array<double, 3> len_{1, 1, 1};
  T inv_dx_[3] = {0, 0, 0};
  Physics<T> ph_;
  GhostArgs ghosts_;
  parallel::LocalBox box_;
  int nv_ = 5;
  int tile_rows_ = 8;
  std::vector<Field<T>> state_, stage_;
  parallel::GhostExchange exchange_;       // state_ and stage_ share one layout
  mutable std::vector<Field<T>> derived_;  // ux, uy, uz, p, tracer: filled by view()
  Buffer work_;                            // CPU scratch (primitives, face fluxes, divergence)
  Buffer scalars_;  // [0] corrected-cell count, [1] bits of the next CFL rate
  double cfl_ = 0.4, dt_ = 0, time_ = 0, rate_ = 0;
  std::int64_t step_ = 0;
};

}  // namespace

std::unique_ptr<Solver> make_solver(BackendKind backend, Precision precision) {
  if (precision == Precision::f32) return std::make_unique<FvSolver<float>>(backend);
  return std::make_unique<FvSolver<double>>(backend);
}

}  // namespace fluxview::fv
