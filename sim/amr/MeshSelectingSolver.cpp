// Forwards every call to the solver of the mesh the run asked for.
#include "sim/amr/MeshSelectingSolver.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/amr/AmrHierarchy.hpp"
#include "sim/amr/AmrParams.hpp"

#ifdef FLUXVIEW_HAVE_AMR
#include "sim/amr/AmrFvSolver.hpp"
#endif

namespace fluxview::amr {

namespace {

class MeshSelectingSolver final : public Solver {
 public:
  MeshSelectingSolver(BackendKind b, Precision p, SolverFactory uniform)
      : backend_(b), precision_(p), uniform_(std::move(uniform)) {}

  void reset(const ParamSet& params) override {
    const bool amr = uses_amr(params);
    if (!inner_ || amr != amr_) {
      inner_.reset();
#ifdef FLUXVIEW_HAVE_AMR
      inner_ = amr ? make_amr_solver(backend_, precision_) : uniform_(backend_, precision_);
#else
      if (amr)
        throw std::runtime_error(
            "fv.mesh = amr: this fluxview was built without the adaptive mesh");
      inner_ = uniform_(backend_, precision_);
#endif
      amr_ = amr;
    }
    inner_->reset(params);
  }
  void advance(std::int64_t steps) override {
    inner_->advance(steps);
  }
  std::int64_t advance_until(double t_end, std::int64_t steps) override {
    return inner_->advance_until(t_end, steps);
  }
  void synchronize() override {
    inner_->synchronize();
  }
  double time() const override {
    return inner_->time();
  }
  std::int64_t step() const override {
    return inner_->step();
  }
  double dt() const override {
    return inner_->dt();
  }
  bool finished() const override {
    return inner_->finished();
  }
  std::string finish_reason() const override {
    return inner_->finish_reason();
  }
  const Grid& grid() const override {
    return inner_->grid();
  }
  BackendKind backend() const override {
    return backend_;
  }
  Precision precision() const override {
    return precision_;
  }
  std::vector<FieldInfo> fields() const override {
    return inner_->fields();
  }
  FieldView view(const std::string& name) const override {
    return inner_->view(name);
  }
  std::vector<Diagnostic> diagnostics() override {
    return inner_->diagnostics();
  }
  std::optional<std::string> first_unsound_cell() const override {
    return inner_->first_unsound_cell();
  }
  double cells_per_step() const override {
    return inner_->cells_per_step();
  }
  double bytes_per_cell_update() const override {
    return inner_->bytes_per_cell_update();
  }
  std::string checkpoint_refusal() const override {
    return inner_->checkpoint_refusal();
  }
  SolverState save_state() const override {
    return inner_->save_state();
  }
  void load_state(const SolverState& s) override {
    inner_->load_state(s);
  }
  // Steering goes to the mesh's solver: both take the live keys and the fluid tools; the
  // uniform one also has obstacles.
  void set_live(const std::string& key, const ParamValue& value) override {
    inner_->set_live(key, value);
  }
  std::vector<ToolSpec> tools() const override {
    return inner_ ? inner_->tools() : std::vector<ToolSpec>{};
  }
  ToolReport apply_tool(const ToolCall& call) override {
    return inner_->apply_tool(call);
  }
  std::vector<std::pair<std::string, std::string>> run_facts() const override {
    return inner_->run_facts();
  }
  // The solver doing the work (for the AMR output and views, which ask it for its blocks).
  const Solver* inner() const {
    return inner_.get();
  }

 private:
  BackendKind backend_;
  Precision precision_;
  SolverFactory uniform_;
  std::unique_ptr<Solver> inner_;
  bool amr_ = false;
};

}  // namespace

const Hierarchy* hierarchy_of(const Solver& solver) {
  const Solver* s = &solver;
  if (const auto* m = dynamic_cast<const MeshSelectingSolver*>(s)) s = m->inner();
  return dynamic_cast<const Hierarchy*>(s);
}

Hierarchy* hierarchy_of(Solver& solver) {
  // The const lookup on an object that is not const.
  return const_cast<Hierarchy*>(hierarchy_of(static_cast<const Solver&>(solver)));
}

std::unique_ptr<Solver> make_mesh_selecting_solver(BackendKind backend, Precision precision,
                                                   SolverFactory uniform) {
  return std::make_unique<MeshSelectingSolver>(backend, precision, std::move(uniform));
}

}  // namespace fluxview::amr
