#pragma once
// The exact solution of the Riemann problem of the 1D Euler equations for an ideal gas
// (Toro, Riemann Solvers and Numerical Methods for Fluid Dynamics, ch. 4): Newton
// iteration on the star pressure, then sampling of the self-similar solution at x/t. The
// reference the shock-tube tests check the solver against, and the exact curve the GUI
// draws beside a 1D shock tube; independent of the solver's code on purpose.
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fluxview::fv {

struct GasState {
  double rho, u, p;
};

class ExactRiemann {
 public:
  ExactRiemann(GasState left, GasState right, double gamma) : L_(left), R_(right), g_(gamma) {
    cL_ = std::sqrt(g_ * L_.p / L_.rho);
    cR_ = std::sqrt(g_ * R_.p / R_.rho);
    if (2 / (g_ - 1) * (cL_ + cR_) <= R_.u - L_.u)
      throw std::invalid_argument("ExactRiemann: the states create a vacuum");
    solve_star();
  }

  double p_star() const { return ps_; }
  double u_star() const { return us_; }

  // The state at similarity coordinate s = (x - x0) / t.
  GasState sample(double s) const {
    const double g = g_;
    if (s <= us_) {  // left of the contact
      const GasState& K = L_;
      const double c = cL_;
      if (ps_ > K.p) {  // left shock
        const double sh = K.u - c * std::sqrt((g + 1) / (2 * g) * ps_ / K.p + (g - 1) / (2 * g));
        if (s <= sh) return K;
        return {star_density(K, ps_), us_, ps_};
      }
      const double head = K.u - c, tail = us_ - c * std::pow(ps_ / K.p, (g - 1) / (2 * g));
      if (s <= head) return K;
      if (s >= tail) return {star_density(K, ps_), us_, ps_};
      const double u = 2 / (g + 1) * (c + (g - 1) / 2 * K.u + s);
      const double f = 2 / (g + 1) + (g - 1) / ((g + 1) * c) * (K.u - s);
      return {K.rho * std::pow(f, 2 / (g - 1)), u, K.p * std::pow(f, 2 * g / (g - 1))};
    }
    const GasState& K = R_;
    const double c = cR_;
    if (ps_ > K.p) {  // right shock
      const double sh = K.u + c * std::sqrt((g + 1) / (2 * g) * ps_ / K.p + (g - 1) / (2 * g));
      if (s >= sh) return K;
      return {star_density(K, ps_), us_, ps_};
    }
    const double head = K.u + c, tail = us_ + c * std::pow(ps_ / K.p, (g - 1) / (2 * g));
    if (s >= head) return K;
    if (s <= tail) return {star_density(K, ps_), us_, ps_};
    const double u = 2 / (g + 1) * (-c + (g - 1) / 2 * K.u + s);
    const double f = 2 / (g + 1) - (g - 1) / ((g + 1) * c) * (K.u - s);
    return {K.rho * std::pow(f, 2 / (g - 1)), u, K.p * std::pow(f, 2 * g / (g - 1))};
  }

 private:
  // f_K(p) and its derivative: the velocity jump across the wave of side K.
  void pressure_function(const GasState& K, double c, double p, double& f, double& df) const {
    const double g = g_;
    if (p > K.p) {
      const double A = 2 / ((g + 1) * K.rho), B = (g - 1) / (g + 1) * K.p;
      const double q = std::sqrt(A / (p + B));
      f = (p - K.p) * q;
      df = q * (1 - (p - K.p) / (2 * (p + B)));
    } else {
      const double r = p / K.p;
      f = 2 * c / (g - 1) * (std::pow(r, (g - 1) / (2 * g)) - 1);
      df = 1 / (K.rho * c) * std::pow(r, -(g + 1) / (2 * g));
    }
  }

  void solve_star() {
    double p = std::max(1e-12, 0.5 * (L_.p + R_.p));  // arithmetic-mean start
    for (int it = 0; it < 100; ++it) {
      double fL, dL, fR, dR;
      pressure_function(L_, cL_, p, fL, dL);
      pressure_function(R_, cR_, p, fR, dR);
      const double next = std::max(1e-14, p - (fL + fR + R_.u - L_.u) / (dL + dR));
      const double change = 2 * std::fabs(next - p) / (next + p);
      p = next;
      if (change < 1e-14) break;
    }
    double fL, dL, fR, dR;
    pressure_function(L_, cL_, p, fL, dL);
    pressure_function(R_, cR_, p, fR, dR);
    ps_ = p;
    us_ = 0.5 * (L_.u + R_.u) + 0.5 * (fR - fL);
  }

  double star_density(const GasState& K, double p) const {
    const double g = g_;
    if (p > K.p) {
      const double r = p / K.p, b = (g - 1) / (g + 1);
      return K.rho * (r + b) / (b * r + 1);
    }
    return K.rho * std::pow(p / K.p, 1 / g);
  }

  GasState L_, R_;
  double g_, cL_ = 0, cR_ = 0, ps_ = 0, us_ = 0;
};

}  // namespace fluxview::fv
