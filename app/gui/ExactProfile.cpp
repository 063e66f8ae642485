#include "app/gui/ExactProfile.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "sim/fv/ExactRiemann.hpp"

namespace fluxview::app {

namespace {

// fv.init = shock-tube along the run's axis, without the ripple: the Riemann problem of
// its two states.
std::optional<ExactCurve> shock_tube(const ParamSet& p, const Grid& g, const std::string& field,
                                     double time, int samples) {
  if (p.get_string("fv.init") != "shock-tube" || p.get_real("fv.ripple_amplitude") != 0)
    return std::nullopt;
  const int axis = p.get_string("fv.axis")[0] - 'x';
  if (g.n[axis] < 2) return std::nullopt;
  const char* velocity[3] = {"ux", "uy", "uz"};
  enum class Quantity { rho, u, p, tracer } q;
  if (field == "rho")
    q = Quantity::rho;
  else if (field == "p")
    q = Quantity::p;
  else if (field == velocity[axis])
    q = Quantity::u;
  else if (field == "tracer")
    q = Quantity::tracer;
  else
    return std::nullopt;
  const fv::GasState left{p.get_real("fv.left_rho"), p.get_real("fv.left_u"),
                          p.get_real("fv.left_p")};
  const fv::GasState right{p.get_real("fv.right_rho"), p.get_real("fv.right_u"),
                           p.get_real("fv.right_p")};
  const char* length_key[3] = {"grid.lx", "grid.ly", "grid.lz"};
  const double length = p.get_real(length_key[axis]);
  const double x0 = p.get_real("fv.interface") * length;
  // The box's left face: the first cell's centre less half a cell.
  const double start = g.origin[axis] - 0.5 * g.spacing[axis];
  try {
    const fv::ExactRiemann exact(left, right, p.get_real("fv.gamma"));
    ExactCurve c;
    c.name = "exact (Riemann)";
    for (int i = 0; i < samples; ++i) {
      const double x = start + length * i / (samples - 1);
      // At t = 0 the two states themselves (the similarity variable is not defined).
      const fv::GasState s = time > 0 ? exact.sample((x - x0) / time) : (x < x0 ? left : right);
      const double s_contact = time > 0 ? (x - x0) / time : (x < x0 ? -1.0 : 1.0);
      c.x.push_back(x);
      switch (q) {
        case Quantity::rho:
          c.value.push_back(s.rho);
          break;
        case Quantity::u:
          c.value.push_back(s.u);
          break;
        case Quantity::p:
          c.value.push_back(s.p);
          break;
        case Quantity::tracer:
          c.value.push_back(s_contact <= (time > 0 ? exact.u_star() : 0.0) ? 1.0 : 0.0);
          break;
      }
    }
    return c;
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // states that open a vacuum: no exact curve drawn
  }
}

// heat.init = sine with walls at 0 degC: the mode A sin(m pi x / L) decays as
// exp(-alpha (m pi / L)^2 t) (the mode along the reduced axes is the constant 1).
std::optional<ExactCurve> sine_mode(const ParamSet& p, const Grid& g, const std::string& field,
                                    double time, int samples) {
  if (field != "T" || p.get_string("heat.init") != "sine") return std::nullopt;
  const int axis = int(std::max_element(g.n.begin(), g.n.end()) - g.n.begin());
  const std::string name = std::string(1, char('x' + axis));
  if (p.get_real("heat.T_" + name + "min") != 0 || p.get_real("heat.T_" + name + "max") != 0)
    return std::nullopt;
  const double length = p.get_real("grid.l" + name);
  const double k = double(p.get_int("heat.sine_m" + name)) * std::numbers::pi / length;
  const double amplitude =
      p.get_real("heat.sine_amplitude") * std::exp(-p.get_real("heat.alpha") * k * k * time);
  ExactCurve c;
  c.name = "exact (decaying mode)";
  for (int i = 0; i < samples; ++i) {
    const double x = length * i / (samples - 1);  // the walls are at 0 and L
    c.x.push_back(x);
    c.value.push_back(amplitude * std::sin(k * x));
  }
  return c;
}

}  // namespace

std::optional<ExactCurve> exact_profile(const Scenario& sc, const Grid& g, const std::string& field,
                                        double time, bool steered, int samples) {
  if (steered || g.active_dims() != 1 || samples < 2) return std::nullopt;
  if (sc.solver == "fv") return shock_tube(sc.params, g, field, time, samples);
  if (sc.solver == "heat") return sine_mode(sc.params, g, field, time, samples);
  return std::nullopt;
}

}  // namespace fluxview::app
