#pragma once
// The fv solver class, shared by the three files that define it: FvSolver.cpp (set-up,
// fields, diagnostics), FvStepping.cpp (the RK2 step, ghosts and the CFL rate) and
// FvCheckpoint.cpp (saving and restoring the state). Private to sim/fv.
//
// Compressible Euler for an ideal gas by the method of lines (Wang, Abel & Kaehler 2010,
// sec. 4), unsplit in 3D: PLM reconstruction of primitives, HLL/HLLC/LLF fluxes, TVD RK2
// in the two-register form
//   U1 = U + dt L(U),   U = 1/2 U + 1/2 (U1 + dt L(U1)),
// so a step needs the state U and one stage buffer U1 and nothing else.
//
// The state is kept conservative (rho, rho u, E [, rho c]) because that is what the
// update conserves to round-off and what each stage reads and writes: storing primitives
// as well would add five fields of traffic to every stage for the sake of snapshots.
// Primitive fields (ux, uy, uz, p, tracer) are therefore derived on demand: view() of
// such a field computes it into a buffer where the backend computes, valid until the
// next step. Those buffers are `mutable` so that view() stays const for callers: it
// changes no state a step depends on.
//
// A step moves one scalar (the next CFL rate, 8 bytes) from the device to the host; the
// rate is reduced inside the last stage's kernel while it writes the new state.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/Buffer.hpp"
#include "sim/core/Field.hpp"
#include "sim/core/GhostExchange.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/Solver.hpp"
#include "sim/fv/FvConfig.hpp"
#include "sim/fv/FvFields.hpp"
#include "sim/fv/FvStep.hpp"
#include "sim/fv/FvTools.hpp"

namespace fluxview::fv {

template <class T>
class FvSolver final : public Solver {
 public:
  explicit FvSolver(BackendKind b) : kind_(b) {}

  // FvSolver.cpp
  void reset(const ParamSet& p) override;
  std::vector<FieldInfo> fields() const override;
  FieldView view(const std::string& name) const override;
  std::vector<Diagnostic> diagnostics() override;
  std::vector<std::pair<std::string, std::string>> run_facts() const override;
  // FvCheckpoint.cpp
  SolverState save_state() const override;
  std::string checkpoint_refusal() const override { return ""; }
  void load_state(const SolverState& st) override;
  // FvSteering.cpp
  void set_live(const std::string& key, const ParamValue& value) override;
  std::vector<ToolSpec> tools() const override;
  ToolReport apply_tool(const ToolCall& call) override;

  void synchronize() override { backend_->check("fv step"); }
  double time() const override { return time_; }
  std::int64_t step() const override { return step_; }
  double dt() const override { return dt_; }
  const Grid& grid() const override { return grid_; }
  BackendKind backend() const override { return kind_; }
  Precision precision() const override { return precision_of<T>(); }
  // The roofline model of a step, per cell, in the minimum DRAM traffic of its stages:
  // each reads its input and the register it combines with and writes its output (TVD
  // RK2: 2 nv + 3 nv). The modal path's scratch (cell polynomials, face fluxes) and the
  // re-reads of neighbour cells are not counted: this is the floor a fused kernel could
  // reach, so the ratio to it says how far a path is from that.
  double bytes_per_cell_update() const override;

 private:
  // FvSteering.cpp: a stage, by the backend or, while obstacles stand, honouring them;
  // the obstacles' ghosts; the obstacles into and out of checkpoints.
  void stage(const StageArgs<T>& a);
  void fill_solid_ghosts();
  void save_solids(SolverState& st) const;
  void load_solids(const SolverState& st);
  // FvStepping.cpp
  void step_by(double h) override;
  // Physical boundaries (at time t, for the double Mach reflection's moving shock), then
  // the faces shared with other ranks.
  void fill_ghosts(const Conserved<T>& u, double t);
  // The CFL rate of the state from scratch (set-up and restart), reduced over ranks.
  void rate_from_state();
  // The global maximum signal rate (exact in any order, so every rank and a serial run
  // take the same dt); a non-finite rate on any rank becomes +inf on all, so all stop.
  void reduce_rate();
  void check_rate() const;
  double next_dt() const { return rate_ > 0 ? config_.cfl / rate_ : 1.0; }

  Conserved<T> fields_of(const std::vector<Field<T>>& f) const {
    Conserved<T> c;
    for (int m = 0; m < nv_; ++m) c.f[m] = const_cast<T*>(f[m].data());
    return c;
  }
  const FieldLayout& layout() const { return state_[0].layout(); }
  bool mhd() const { return mhd_variables(nv_); }
  bool has_tracer() const { return tracer_variables(nv_); }
  // Whether this run has the derived field d (tracer and MHD fields only where they exist).
  bool has_field(const DerivedInfo& d) const { return has_derived_field(d.what, nv_); }
  // fv.cuda_tile resolved: MHD always takes 4 rows (cuda/FvKernels.cu says why).
  int tile_rows() const {
    return mhd() || config_.tile == TileChoice::rows4 ||
                   (config_.tile == TileChoice::automatic && sizeof(T) == 8)
               ? 4
               : 8;
  }
  // MHD: the cleaning speed c_h of the step about to be taken and psi's damping rate, into
  // ph_ (FvStepping.cpp).
  void set_cleaning();
  Location where() const { return backend_->where(); }
  // The backend's two counters: [0] corrected cells, [1] bits of the next CFL rate.
  unsigned long long* counter(int i) {
    return static_cast<unsigned long long*>(counters_.data()) + i;
  }
  std::uint64_t corrected() const;

  BackendKind kind_;
  ParamSet params_;
  FvConfig config_;
  std::unique_ptr<FvTools<T>> tools_;  // steering: strokes and the stage with obstacles
  Field<T> solid_;                     // 1 in solid cells; allocated at the first obstacle
  std::int64_t solid_cells_ = 0;       // over every rank
  std::unique_ptr<FvBackend<T>> backend_;
  Grid grid_;
  T inv_dx_[3] = {0, 0, 0};
  Physics<T> ph_;
  GhostArgs ghosts_;  // the physical boundaries, and Bc::neighbour where ranks meet
  parallel::LocalBox box_;
  int nv_ = 5;
  int ghost_ = 2;  // ghost layers of the scheme (ghost_width)
  int tile_rows_ = 8;
  // The registers of the time stepper: state_ holds U^n between steps; stage_ and, for
  // the three-register schemes, third_ the stages (TimeSteppers.hpp).
  std::vector<Field<T>> state_, stage_, third_;
  PassTimes times_;                        // fv.time_passes: seconds in each pass since the start
  parallel::GhostExchange exchange_;       // state_ and stage_ share one layout
  mutable std::vector<Field<T>> derived_;  // ux, uy, uz, p, tracer: filled by view()
  Buffer counters_;                        // where the backend computes
  double dt_ = 0, time_ = 0, rate_ = 0;
  std::int64_t step_ = 0;
};

}  // namespace fluxview::fv
