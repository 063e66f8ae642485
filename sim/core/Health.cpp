#include "sim/core/Health.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <vector>

#include "sim/core/Buffer.hpp"
#include "sim/core/Reduce.hpp"

namespace fluxview {

std::optional<std::string> check_health(const Solver& solver) {
  return solver.first_unsound_cell();
}

std::optional<std::string> Solver::first_unsound_cell() const {
  const Solver& solver = *this;
  for (const FieldInfo& f : solver.fields()) {
    const FieldView v = solver.view(f.name);
    const std::int64_t bad = first_bad_cell(v, f.must_be_positive);
    if (bad < 0) continue;
    const auto& n = v.layout.n;
    const int i = int(bad % n[0]), j = int((bad / n[0]) % n[1]),
              k = int(bad / (std::int64_t(n[0]) * n[1]));
    double value = 0;
    const std::size_t eb = bytes_of(v.precision);
    unsigned char raw[8] = {};
    copy_bytes(raw, Location::host,
               static_cast<const unsigned char*>(v.data) + v.layout.index(i, j, k) * eb, v.where,
               eb);
    value = eb == 8 ? *reinterpret_cast<double*>(raw) : double(*reinterpret_cast<float*>(raw));
    std::ostringstream m;
    m.precision(9);
    m << "instability at step " << solver.step() << ", t = " << solver.time() << ": field "
      << f.name << " is " << value << (std::isfinite(value) ? " (must be positive)" : "")
      << " at cell (" << i << ", " << j << ", " << k << ")";
    return m.str();
  }
  return std::nullopt;
}

}  // namespace fluxview
