#pragma once
// The interface behind Forest: one implementation over p4est (2D, and 1D as a row of a
// 2D forest) and one over p8est (3D), compiled from the same source (ForestP4est.inc)
// with p4est's own renaming header, the way p4est itself is written.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sim/amr/Forest.hpp"

namespace fluxview::amr {

struct ForestSetup {
  std::array<int, 3> trees{1, 1, 1};
  std::array<bool, 3> active{false, false, false};
  std::array<bool, 3> periodic{false, false, false};
  int max_level = 0;
  int dims = 0;               // active axes
  std::array<int, 3> axes{};  // physical axis of each forest axis (dims of them)
  const std::vector<LeafKey>* rebuild = nullptr;  // refine to exactly these leaves
};

class ForestImpl {
 public:
  virtual ~ForestImpl() = default;
  virtual bool adapt(const std::vector<std::int8_t>& flags) = 0;
  virtual void refine_where(const std::function<bool(const LeafKey&)>& want) = 0;
  virtual void partition() = 0;
  virtual std::vector<LeafKey> all_leaves() const = 0;

  ForestSetup setup;
  std::vector<LeafKey> leaves;
  std::vector<Forest::Ghost> ghosts;
  std::vector<Forest::Mirror> mirrors;
  std::vector<std::int64_t> offsets;
  int rank = 0, ranks = 1;
};

// p4est for dims 1 and 2, p8est for dims 3.
std::unique_ptr<ForestImpl> make_forest_2d(const ForestSetup& s);
std::unique_ptr<ForestImpl> make_forest_3d(const ForestSetup& s);
int deepest_level_2d();
int deepest_level_3d();

}  // namespace fluxview::amr
