#pragma once
// The vectors a solver's scalar fields make up, as output hands them on: snapshots write
// each as one VTK array of three components beside its scalars (so that ParaView's stream
// tracer takes it without a calculator), and Catalyst adds it to the grid it hands a
// pipeline. Today MHD's magnetic field; a vector is offered where all three of its
// components are fields of the run.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "sim/core/Solver.hpp"

namespace fluxview {

struct VectorField {
  std::string name;
  std::array<std::string, 3> components;
};

inline std::vector<VectorField> vector_fields(const std::vector<FieldInfo>& fields) {
  static const VectorField kKnown[] = {{"B", {"bx", "by", "bz"}}};
  const auto has = [&](const std::string& n) {
    for (const FieldInfo& f : fields)
      if (f.name == n) return true;
    return false;
  };
  std::vector<VectorField> out;
  for (const VectorField& v : kKnown)
    if (has(v.components[0]) && has(v.components[1]) && has(v.components[2])) out.push_back(v);
  return out;
}

}  // namespace fluxview
