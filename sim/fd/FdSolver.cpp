// The fd solver: owns ln rho and u (two copies, read and write, swapped after every RK
// substep), the four 2N-storage registers and, for the two-pass method, the div u field,
// all on its backend with periodic ghost zones of width 3 filled before every substep.
#include <cmath>
#include <numbers>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "sim/core/CudaRuntime.hpp"
#include "sim/core/Field.hpp"
#include "sim/core/GhostExchange.hpp"
#include "sim/core/OverlapBoxes.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/fd/FdForcing.hpp"
#include "sim/fd/FdSolver.hpp"
#include "sim/fd/FdStep.hpp"

namespace fluxview::fd {

namespace {

const char* const kNames[kVars] = {"lnrho", "ux", "uy", "uz"};

template <class T>
class FdSolver final : public FdSolverBase {
 public:
  explicit FdSolver(BackendKind b) : backend_(b) {}

  void reset(const ParamSet& p) override {
    const std::array<int, 3> n{int(p.get_int("grid.nx")), int(p.get_int("grid.ny")),
                               int(p.get_int("grid.nz"))};
    const std::array<double, 3> len{p.get_real("grid.lx"), p.get_real("grid.ly"),
                                    p.get_real("grid.lz")};
    // Under MPI this rank holds one box of the periodic global grid (sim/core/Parallel.hpp).
    box_ = parallel::split(n, {true, true, true}, kRadius);
    const std::array<int, 3> local = box_.n;
    grid_ = Grid{};
    grid_.n = n;
    grid_.offset = box_.offset;
    grid_.ghost = kRadius;
    grid_.centering = Centering::cell;
    dxmin_ = INFINITY;
    for (int a = 0; a < 3; ++a) {
      grid_.spacing[a] = len[a] / n[a];
      grid_.origin[a] = 0.5 * grid_.spacing[a];
      length_[a] = len[a];
      if (n[a] > 1) dxmin_ = std::fmin(dxmin_, grid_.spacing[a]);
    }
    cs_ = p.get_real("fd.cs");
    nu_ = p.get_real("fd.nu");
    courant_ = p.get_real("fd.courant");
    fixed_dt_ = p.get_real("fd.dt");
    method_ = parse_method(p.get_string("fd.method"));
    form_ = formulation_of(method_);
    forcing_ = p.get_bool("fd.forcing");
    f0_ = p.get_real("fd.f0");
    seed_ = std::uint64_t(p.get_int("fd.seed"));
    rng_.reseed(seed_);
    shell_ =
        make_shell(p.get_real("fd.kmin"), p.get_real("fd.kmax"), {n[0] > 1, n[1] > 1, n[2] > 1});
    if (forcing_ && shell_.k.empty()) forcing_ = false;
    time_ = 0;
    step_ = 0;
    last_draw_ = ForcingDraw{};

    const Location where = backend_ == BackendKind::cuda ? Location::device : Location::host;
    Field<T> host[kVars];
    for (auto& h : host) h = Field<T>(local, kRadius, Location::host);
    fill_initial(host, p);
    const int count = 3 * kVars + (form_ == Formulation::m19 ? 1 : 0);
    if (where == Location::device) cuda::require_device_memory(count * host[0].layout().bytes());
    for (int v = 0; v < kVars; ++v) {
      f_[v] = Field<T>(local, kRadius, where);
      g_[v] = Field<T>(local, kRadius, where);
      w_[v] = Field<T>(local, kRadius, where);
      copy_bytes(f_[v].data(), where, host[v].data(), Location::host, host[v].layout().bytes());
    }
    div_ = form_ == Formulation::m19 ? Field<T>(local, kRadius, where) : Field<T>();
    overlap_choice_ = parallel_config(p).overlap;
    exchange_ = parallel::GhostExchange(box_, f_[0].layout(), where, parallel_config(p).ghosts);
    plan_overlap();
    fill_ghosts(f_);
    update_dt();
  }

  void synchronize() override {
    if (ghosts_stale_) fill_ghosts(f_);  // whoever reads the fields next sees every ghost
    if (backend_ == BackendKind::cuda) {
      cuda::synchronize();
      cuda::check_last_error("fd step");
    }
  }

  double time() const override { return time_; }
  std::int64_t step() const override { return step_; }
  double dt() const override { return dt_; }

  const Grid& grid() const override { return grid_; }
  BackendKind backend() const override { return backend_; }
  Precision precision() const override { return precision_of<T>(); }
  std::vector<FieldInfo> fields() const override {
    return {{"lnrho", "", "logarithm of the density"},  // may be negative: not must_be_positive
            {"ux", "", "velocity along x"},
            {"uy", "", "velocity along y"},
            {"uz", "", "velocity along z"}};
  }
  FieldView view(const std::string& name) const override {
    for (int v = 0; v < kVars; ++v)
      if (name == kNames[v]) return f_[v].view(name, "", Centering::cell);
    throw std::out_of_range("fd solver has no field '" + name + "' (it has lnrho, ux, uy, uz)");
  }

  std::vector<Diagnostic> diagnostics() override {
    const T* f[kVars] = {f_[0].data(), f_[1].data(), f_[2].data(), f_[3].data()};
    const FieldLayout& l = f_[0].layout();
    FlowSums s = backend_ == BackendKind::cuda ? flow_sums_cuda<T>(f, l) : flow_sums_cpu<T>(f, l);
    s.mass = parallel::allreduce_sum(s.mass);
    s.kinetic = parallel::allreduce_sum(s.kinetic);
    s.u2 = parallel::allreduce_sum(s.u2);
    s.u2_max = parallel::allreduce_max(s.u2_max);
    s.nonfinite = parallel::allreduce_sum(std::int64_t(s.nonfinite));
    const double dv = grid_.spacing[0] * grid_.spacing[1] * grid_.spacing[2];
    const double cells = double(grid_.cells());
    const double umax = std::sqrt(s.u2_max);
    return {
        {"mass", "", s.mass * dv},
        {"kinetic_energy", "", s.kinetic * dv},
        {"u_rms", "", std::sqrt(s.u2 / cells)},
        {"u_max", "", umax},
        {"mach_max", "", umax / cs_},
        {"dt", "", dt_},
        {"nonfinite_cells", "", double(s.nonfinite)},
    };
  }

  // The DRAM traffic of one full RK3 step per cell, each array counted once per pass
  // (halo re-reads served by caches, ghost filling not counted): substep 1 reads f and
  // writes f and w (alpha = 0), substep 2 reads and writes both, substep 3 reads both and
  // writes f (w is dead): 40 values; the two-pass method adds 3 reads of u, a write and a
  // read of div u per substep (15); the automatic time step reads u once (3).
  double bytes_per_cell_update() const override {
    double values = 40;
    if (form_ == Formulation::m19) values += 15;
    if (fixed_dt_ <= 0) values += 3;
    return values * sizeof(T);
  }

  std::vector<std::pair<std::string, std::string>> run_facts() const override {
    auto num = [](double v) {
      std::ostringstream o;
      o.precision(10);
      o << v;
      return o.str();
    };
    std::vector<std::pair<std::string, std::string>> f = {
        {"method", std::string(method_name(method_))},
        {"formulation", form_ == Formulation::m55 ? "single-pass 55-point (mixed derivatives)"
                                                  : "two-pass 19-point (div u field first)"},
        {"kernel",
         backend_ == BackendKind::cuda ? std::string(method_name(method_)) : "cpu-openmp"},
        {"time_integrator",
         "2N-storage RK3 (Williamson), alpha = 0, -5/9, -153/128, beta = 1/3, "
         "15/16, 8/15"},
        {"courant", num(courant_)},
        {"dt", num(dt_)},
        {"dt_limit", fixed_dt_ > 0 ? "fixed (fd.dt)" : dt_limit_},
        {"ghost_width", "3 (periodic)"},
        {"seed", std::to_string(seed_)},
    };
    if (forcing_) {
      f.push_back({"forcing_shell_vectors", std::to_string(shell_.k.size())});
      f.push_back({"forcing_kf", num(shell_.mean_k)});
    }
    return f;
  }

  // A checkpoint: the interiors of ln rho and u (the RK registers are dead between steps,
  // ghosts are refilled), the clock, and the forcing generator's four words in `extra`.
  SolverState save_state() const override {
    SolverState st;
    st.time = time_;
    st.step = step_;
    for (int v = 0; v < kVars; ++v)
      st.arrays.push_back({kNames[v], gather_interior(view(kNames[v]))});
    const auto r = rng_.state();
    std::ostringstream e;
    e << "rng " << r[0] << ' ' << r[1] << ' ' << r[2] << ' ' << r[3];
    st.extra = e.str();
    return st;
  }

  void load_state(const SolverState& st) override {
    if (st.arrays.size() != kVars)
      throw std::runtime_error("fd checkpoint must hold lnrho, ux, uy and uz");
    for (int v = 0; v < kVars; ++v) {
      if (st.arrays[v].name != kNames[v])
        throw std::runtime_error("fd checkpoint: expected array '" + std::string(kNames[v]) +
                                 "', found '" + st.arrays[v].name + "'");
      scatter_interior(st.arrays[v].values, f_[v].data(), f_[v].layout(), f_[v].where());
    }
    std::istringstream e(st.extra);
    std::string tag;
    std::array<std::uint64_t, 4> r{};
    if (!(e >> tag >> r[0] >> r[1] >> r[2] >> r[3]) || tag != "rng")
      throw std::runtime_error("fd checkpoint: missing forcing generator state ('rng ...')");
    rng_.set_state(r);
    time_ = st.time;
    step_ = st.step;
    fill_ghosts(f_);
    update_dt();
  }

  std::array<std::uint64_t, 4> forcing_rng_state() const override { return rng_.state(); }
  void set_forcing_rng_state(const std::array<std::uint64_t, 4>& s) override { rng_.set_state(s); }
  double forcing_mean_k() const override { return forcing_ ? shell_.mean_k : 0.0; }

 private:
  // Periodic ghosts: wrapped within the rank, then, under MPI, the axes split over ranks
  // are overwritten from the neighbours (axis by axis, so edges and corners too).
  void fill_ghosts(Field<T>* f) {
    wrap_ghosts(f);
    exchange_all(f);
    ghosts_stale_ = false;
  }
  // Faces shared with other ranks, one message per neighbour for all four fields.
  void exchange_all(Field<T>* f) {
    void* fields[kVars] = {f[0].data(), f[1].data(), f[2].data(), f[3].data()};
    exchange_.exchange(fields, kVars);
  }
  void wrap_ghosts(Field<T>* f) {
    T* p[kVars] = {f[0].data(), f[1].data(), f[2].data(), f[3].data()};
    if (backend_ == BackendKind::cuda)
      fill_ghosts_cuda(p, kVars, f[0].layout());
    else
      fill_ghosts_cpu(p, kVars, f[0].layout());
  }

  // On the CUDA backend under MPI, with the default method: each pass updates the cells
  // whose stencil reads no ghost of a face shared with another rank while the ghosts it
  // needs travel (f's before pass 1, div u's before pass 2), then the faces, three cells
  // thick. f_ arrives wrapped; its shared faces come here. Off unless
  // run.mpi_overlap = on: on 2 and 4 H200s at 512^3 it gained nothing (the exchange is
  // a few per cent of a 25 ms step, and the thin face launches cost about as much).
  void plan_overlap() {
    overlap_.reset();
    if (backend_ != BackendKind::cuda || !exchange_.active() || !box_passes_supported(method_) ||
        !parallel::overlap_wanted(false, overlap_choice_))
      return;
    const auto& n = f_[0].layout().n;
    overlap_ = parallel::overlap_boxes(box_, n, {kRadius, kRadius, kRadius},
                                       {n[0] - kRadius, n[1] - kRadius, n[2] - kRadius});
  }

  void substep_overlapped(const SubstepArgs<T>& a) {
    const auto in_box = [&](const parallel::CellBox& b) { return restrict_to_box(a, b.lo, b.hi); };
    exchange_.fields_ready();
    div_pass_cuda(in_box(overlap_->interior));
    exchange_all(f_);  // the host waits for MPI while pass 1 runs
    for (const auto& b : overlap_->faces) div_pass_cuda(in_box(b));
    T* div = div_.data();
    fill_ghosts_cuda(&div, 1, a.layout);
    exchange_.fields_ready();
    rate_pass_cuda(in_box(overlap_->interior));
    void* d[1] = {div};
    exchange_.exchange(d, 1);
    for (const auto& b : overlap_->faces) rate_pass_cuda(in_box(b));
  }

  ForceArgs<T> step_force(double h) {
    ForceArgs<T> fa;
    if (!forcing_) return fa;
    last_draw_ = draw_forcing(rng_, shell_);
    double kphys[3], k2 = 0;
    for (int a = 0; a < 3; ++a) {
      kphys[a] = 2 * std::numbers::pi * last_draw_.k[a] / length_[a];
      k2 += kphys[a] * kphys[a];
    }
    const double norm = f0_ * cs_ * std::sqrt(std::sqrt(k2) * cs_ / h);  // eq. 25
    fa.on = true;
    for (int a = 0; a < 3; ++a) {
      fa.k[a] = T(kphys[a]);
      fa.amp[a] = T(norm * last_draw_.f_k[a]);
      fa.x0[a] = T(grid_.origin[a]);
      fa.offset[a] = grid_.offset[a];
      fa.dx[a] = T(grid_.spacing[a]);
    }
    fa.phase = T(last_draw_.phase);
    return fa;
  }

  void step_by(double h) override {
    SubstepArgs<T> a;
    a.layout = f_[0].layout();
    for (int ax = 0; ax < 3; ++ax) {
      const bool on = grid_.n[ax] > 1;
      const double d = grid_.spacing[ax];
      a.c.d1[ax] = on ? T(1 / (60 * d)) : T(0);
      a.c.d2[ax] = on ? T(1 / (180 * d * d)) : T(0);
    }
    const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (int q = 0; q < 3; ++q) {
      const int x = pairs[q][0], y = pairs[q][1];
      const bool on = grid_.n[x] > 1 && grid_.n[y] > 1;
      a.c.dm[q] = on ? T(1 / (720 * grid_.spacing[x] * grid_.spacing[y])) : T(0);
    }
    a.cs2 = T(cs_ * cs_);
    a.nu = T(nu_);
    a.dt = T(h);
    a.force = step_force(h);
    a.div = div_.data();
    if (parallel::size() > 1) {
      a.div_ghost_hook = [](void* self, T* div) {
        void* fields[1] = {div};
        static_cast<FdSolver*>(self)->exchange_.exchange(fields, 1);
      };
      a.hook_context = this;
    }
    for (int s = 0; s < 3; ++s) {
      // reset() and the end of each step leave f_ filled (or, overlapping, wrapped, the
      // faces shared with other ranks to come in the substep).
      if (s > 0 && overlap_)
        wrap_ghosts(f_);
      else if (s > 0)
        fill_ghosts(f_);
      for (int v = 0; v < kVars; ++v) {
        a.in[v] = f_[v].data();
        a.out[v] = g_[v].data();
        a.w[v] = w_[v].data();
      }
      a.alpha = T(kRkAlpha[s]);
      a.beta = T(kRkBeta[s]);
      a.first = s == 0;
      a.last = s == 2;
      if (overlap_)
        substep_overlapped(a);
      else if (backend_ == BackendKind::cuda)
        substep_cuda(method_, a);
      else
        substep_cpu(form_, a);
      for (int v = 0; v < kVars; ++v) std::swap(f_[v], g_[v]);
    }
    if (overlap_) {
      wrap_ghosts(f_);
      ghosts_stale_ = true;  // the next substep (or synchronize()) brings them
    } else {
      fill_ghosts(f_);
    }
    time_ += h;
    ++step_;
    update_dt();
  }

  void update_dt() {
    if (fixed_dt_ > 0) {
      dt_ = fixed_dt_;
      return;
    }
    const T* f[kVars] = {f_[0].data(), f_[1].data(), f_[2].data(), f_[3].data()};
    const FieldLayout& l = f_[0].layout();
    // max is exact in any order, so every rank (and a serial run) gets the same dt.
    const double u2 = parallel::allreduce_max(backend_ == BackendKind::cuda ? max_u2_cuda<T>(f, l)
                                                                            : max_u2_cpu<T>(f, l));
    if (!std::isfinite(u2)) {
      std::ostringstream m;
      m << "fd: the velocity is no longer finite at step " << step_ << ", t = " << time_
        << " (dt = " << dt_ << ", fd.nu = " << nu_
        << "); lower fd.courant or raise fd.nu, or use a finer grid";
      throw InstabilityError(m.str());
    }
    if (!std::isfinite(dxmin_)) {
      dt_ = courant_ / cs_;
      dt_limit_ = "none (a single cell)";
      return;
    }
    const double adv = courant_ * dxmin_ / (std::sqrt(u2) + cs_);
    const double visc = courant_ * dxmin_ * dxmin_ / (5 * nu_);
    dt_ = std::fmin(adv, visc);
    dt_limit_ = adv <= visc ? "advective: C dx / (|u|max + cs)" : "viscous: C dx^2 / (5 nu)";
  }

  void fill_initial(Field<T>* h, const ParamSet& p) {
    const std::string init = p.get_string("fd.init");
    const double lnrho0 = std::log(p.get_real("fd.rho0"));
    const double u0 = p.get_real("fd.u0");
    const double pi = std::numbers::pi;
    const auto& n = grid_.n;              // global: which axes are reduced
    const auto& local = h[0].layout().n;  // this rank's box
    const auto& off = grid_.offset;
    // The random state: a few Fourier modes per field with seeded amplitudes and phases.
    struct Mode {
      int k[3];
      double a, ph;
    };
    std::vector<Mode> modes[kVars];
    if (init == "random") {
      ForcingRng r(seed_ ^ 0x5eedULL);
      for (int v = 0; v < kVars; ++v)
        for (int m = 0; m < 6; ++m) {
          Mode md;
          for (int a = 0; a < 3; ++a) md.k[a] = n[a] > 1 ? int(r.next() % 5) - 2 : 0;
          md.a = (v == 0 ? 0.1 : u0) * (r.uniform() - 0.5);
          md.ph = 2 * pi * r.uniform();
          modes[v].push_back(md);
        }
    }
    const double ua = p.get_real("fd.u_ampl"), rs = p.get_real("fd.r_shell"),
                 ds = p.get_real("fd.d_shell");
    const double width = p.get_real("fd.shear_width") * length_[1];
    const double pert = p.get_real("fd.perturb") * u0;
    const int ksine = int(p.get_int("fd.k"));
    for (int k = 0; k < local[2]; ++k)
      for (int j = 0; j < local[1]; ++j)
        for (int i = 0; i < local[0]; ++i) {
          const double x[3] = {grid_.coord(0, off[0] + i), grid_.coord(1, off[1] + j),
                               grid_.coord(2, off[2] + k)};
          double v[kVars] = {lnrho0, 0, 0, 0};
          if (init == "sine") {
            v[2] = u0 * std::sin(2 * pi * ksine * x[0] / length_[0]);
          } else if (init == "explosion") {
            // Eq. (23): a Gaussian shell of radial velocity around the box centre.
            double r2 = 0, d[3];
            for (int a = 0; a < 3; ++a) {
              d[a] = n[a] > 1 ? x[a] - 0.5 * length_[a] : 0;
              r2 += d[a] * d[a];
            }
            const double r = std::sqrt(r2);
            if (r > 0) {
              const double s = ua * std::exp(-(r - rs) * (r - rs) / (2 * ds * ds)) / r;
              for (int a = 0; a < 3; ++a) v[1 + a] = s * d[a];
            }
          } else if (init == "shear") {
            // Two opposite streams along x in the middle half of y, smooth (tanh) edges, and
            // a 3D perturbation of u_y that seeds Kelvin-Helmholtz rolls on both layers.
            const double y = x[1], ly = length_[1];
            const double prof =
                std::tanh((y - 0.25 * ly) / width) - std::tanh((y - 0.75 * ly) / width) - 1;
            v[1] = u0 * prof;
            const double env = std::exp(-std::pow((y - 0.25 * ly) / (4 * width), 2)) +
                               std::exp(-std::pow((y - 0.75 * ly) / (4 * width), 2));
            v[2] = pert * env * std::sin(2 * pi * 2 * x[0] / length_[0]) *
                   (1 + 0.5 * std::cos(2 * pi * x[2] / length_[2]));
            v[3] = 0.5 * pert * env * std::sin(2 * pi * x[2] / length_[2]);
          } else if (init == "random") {
            for (int q = 0; q < kVars; ++q)
              for (const Mode& md : modes[q]) {
                double ph = md.ph;
                for (int a = 0; a < 3; ++a) ph += 2 * pi * md.k[a] * x[a] / length_[a];
                v[q] += md.a * std::sin(ph);
              }
          }
          for (int q = 0; q < kVars; ++q) h[q](i, j, k) = T(v[q]);
        }
  }

  BackendKind backend_;
  parallel::LocalBox box_;
  Grid grid_;
  std::array<double, 3> length_{1, 1, 1};
  double dxmin_ = 1, cs_ = 1, nu_ = 0, courant_ = 0.4, fixed_dt_ = 0, f0_ = 0;
  double dt_ = 0, time_ = 0;
  std::string dt_limit_;
  std::int64_t step_ = 0;
  Method method_ = Method::fast;
  Formulation form_ = Formulation::m19;
  bool forcing_ = false;
  std::uint64_t seed_ = 1;
  ForcingRng rng_;
  ForcingShell shell_;
  ForcingDraw last_draw_;
  Field<T> f_[kVars], g_[kVars], w_[kVars], div_;
  parallel::GhostExchange exchange_;               // f_, g_ and div_ share one layout
  std::optional<parallel::OverlapBoxes> overlap_;  // CUDA under MPI, default method
  bool ghosts_stale_ = false;  // f_'s faces shared with other ranks, when overlapping
  OverlapChoice overlap_choice_ = OverlapChoice::automatic;
};

}  // namespace

std::unique_ptr<Solver> make_solver(BackendKind backend, Precision precision) {
  if (precision == Precision::f32) return std::make_unique<FdSolver<float>>(backend);
  return std::make_unique<FdSolver<double>>(backend);
}

}  // namespace fluxview::fd
