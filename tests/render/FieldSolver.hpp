#pragma once
// A solver that only holds fields given to it (on the host, float), so that render tests
// can draw analytic fields: a ball, a uniform field, a rotating flow. It never steps.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/Field.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview::test {

class FieldSolver final : public Solver {
 public:
  // A grid of n cells a side over a box of `length` a side (cell-centred).
  FieldSolver(std::array<int, 3> n, double length = 1.0) {
    grid_.n = n;
    grid_.ghost = 1;
    for (int a = 0; a < 3; ++a) {
      grid_.spacing[a] = length / n[a];
      grid_.origin[a] = 0.5 * grid_.spacing[a];
    }
  }
  // Adds field `name` whose cell (i, j, k) holds f(i, j, k).
  void add(const std::string& name, const std::string& unit,
           const std::function<double(int, int, int)>& f) {
    Field<float> field(grid_.n, 1, Location::host);
    for (int k = 0; k < grid_.n[2]; ++k)
      for (int j = 0; j < grid_.n[1]; ++j)
        for (int i = 0; i < grid_.n[0]; ++i) field(i, j, k) = float(f(i, j, k));
    names_.push_back({name, unit, "test field"});
    fields_.emplace(name, std::move(field));
  }
  void reset(const ParamSet&) override {}
  double time() const override { return 0; }
  std::int64_t step() const override { return 0; }
  double dt() const override { return 1; }
  const Grid& grid() const override { return grid_; }
  BackendKind backend() const override { return BackendKind::cpu; }
  Precision precision() const override { return Precision::f32; }
  std::vector<FieldInfo> fields() const override { return names_; }
  FieldView view(const std::string& name) const override {
    for (const auto& f : names_)
      if (f.name == name) return fields_.at(name).view(name, f.unit, Centering::cell);
    throw std::out_of_range("no field " + name);
  }
  std::vector<Diagnostic> diagnostics() override { return {}; }
  double bytes_per_cell_update() const override { return 0; }

 protected:
  void step_by(double) override {}

 private:
  Grid grid_;
  std::vector<FieldInfo> names_;
  std::map<std::string, Field<float>> fields_;
};

}  // namespace fluxview::test
