#pragma once
// The fv family's fluid tools as a run lists them (Solver::tools) and reports a stroke
// (ToolReport), the same on the uniform grid (FvSteering.cpp, which adds the obstacles)
// and on the adaptive mesh (sim/amr/AmrFvSolver.cpp). The loops are FvTools.hpp's.
#include <array>
#include <string>
#include <vector>

#include "sim/core/Steering.hpp"
#include "sim/fv/FvTools.hpp"

namespace fluxview::fv {

// blast and cloud, with the brush's arguments over a box of these lengths.
std::vector<ToolSpec> fluid_tools(const std::array<double, 3>& box);

// The report of a blast or a cloud: `amounts` are the stroke's sums already times the
// cells' volumes (kg, J, kg m/s), `cells` how many cells it reached.
ToolReport fluid_tool_report(const std::string& tool, const PaintSums& amounts);

// The refusal of a stroke whose brush holds no fluid cell centre: `half_cell`, half the
// smallest cell the brush could reach along x.
SteeringError brush_holds_no_cell(const ToolCall& call, double half_cell);

}  // namespace fluxview::fv
