#pragma once
// Helpers shared by the fd tests: running a scenario on a backend and reading fields.
#include <memory>
#include <string>
#include <vector>

#include "sim/core/Scenario.hpp"
#include "sim/core/SolverFamily.hpp"
#include "tests/support/SolverTestUtil.hpp"

namespace fluxview::fd::test {

using fluxview::test::diagnostic;
using fluxview::test::interior_values;
using fluxview::test::make_solver;

}  // namespace fluxview::fd::test
