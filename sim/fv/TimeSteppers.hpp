#pragma once
// The time steppers of the finite-volume solver as data: each Runge-Kutta scheme in its
// Shu-Osher form, written as stages that read registers (copies of the state) and write
// registers, so one stage routine (a flux divergence L of one register, then per cell a
// combination) serves them all on both backends, and a stage never writes the register
// whose neighbours it reads.
//   rk2     TVD RK2 (Shu & Osher 1988): U1 = U + dt L(U), U = 1/2 U + 1/2 (U1 + dt L(U1)).
//   ssprk3  SSP RK3 (Shu & Osher 1988).
//   rk4     SSP RK(5,4) of Spiteri & Ruuth 2002 (five stages, fourth order, SSP coefficient
//           1.508; the five-stage fourth-order scheme the paper compares with), with the
//           coefficients as given by Gottlieb, Ketcheson & Shu 2011 (ch. 6).
//   ader    one stage: U = U + dt Lbar(U), Lbar the flux divergence averaged over the step
//           by the predictor and the corrector's quadrature in time (AderPredictor.hpp).
// Every combination has non-negative weights, so the state after a stage is a convex
// combination of forward-Euler steps: with the positivity fallback applied to each cell
// of each stage whose output is not admissible, density and pressure stay positive when
// each forward-Euler step does (the SSP property).
#include "sim/core/HostDevice.hpp"
#include "sim/fv/EulerState.hpp"

namespace fluxview::fv {

enum class TimeStepper : int { rk2 = 0, ssprk3 = 1, rk4 = 2, ader = 3 };

inline constexpr int kMaxRkRegisters = 3;
inline constexpr int kMaxRkStages = 5;

// out = sum_r a[r] R_r + b dt L(R_in)
struct RkOutput {
  int reg = 0;
  double a[kMaxRkRegisters] = {0, 0, 0};
  double b = 0;
};

struct RkStage {
  int in = 0;       // the register L is evaluated on (its ghosts are filled first)
  int outputs = 1;  // 1 or 2
  RkOutput out[2];
  double time = 0;  // the stage's time as a fraction of dt (for time-dependent boundaries)
};

struct RkScheme {
  int stages = 0;
  int registers = 0;  // registers the scheme needs (register 0 holds U^n on entry)
  int result = 0;     // the register holding U^{n+1} after the last stage
  int order = 0;
  double ssp_coefficient = 1;  // the largest dt, in forward-Euler steps, keeping the SSP property
  RkStage stage[kMaxRkStages];
};

namespace detail {
inline constexpr RkOutput rk_out(int reg, double a0, double a1, double a2, double b) {
  RkOutput o;
  o.reg = reg;
  o.a[0] = a0;
  o.a[1] = a1;
  o.a[2] = a2;
  o.b = b;
  return o;
}
inline constexpr RkStage rk_stage(int in, double time, RkOutput o0) {
  RkStage s;
  s.in = in;
  s.time = time;
  s.outputs = 1;
  s.out[0] = o0;
  return s;
}
inline constexpr RkStage rk_stage2(int in, double time, RkOutput o0, RkOutput o1) {
  RkStage s = rk_stage(in, time, o0);
  s.outputs = 2;
  s.out[1] = o1;
  return s;
}
}  // namespace detail

// The scheme of a time stepper (ader: one forward step with the averaged flux).
inline constexpr RkScheme rk_scheme(TimeStepper t) {
  using detail::rk_out;
  using detail::rk_stage;
  using detail::rk_stage2;
  RkScheme s;
  switch (t) {
    case TimeStepper::rk2:
      s.stages = 2;
      s.registers = 2;
      s.result = 0;
      s.order = 2;
      s.stage[0] = rk_stage(0, 0, rk_out(1, 1, 0, 0, 1));
      s.stage[1] = rk_stage(1, 1, rk_out(0, 0.5, 0.5, 0, 0.5));
      break;
    case TimeStepper::ssprk3:
      s.stages = 3;
      s.registers = 3;
      s.result = 0;
      s.order = 3;
      s.stage[0] = rk_stage(0, 0, rk_out(1, 1, 0, 0, 1));
      s.stage[1] = rk_stage(1, 1, rk_out(2, 0.75, 0.25, 0, 0.25));
      s.stage[2] = rk_stage(2, 0.5, rk_out(0, 1.0 / 3.0, 0, 2.0 / 3.0, 2.0 / 3.0));
      break;
    case TimeStepper::rk4:
      // u1 = u + b10 dt L(u)                                   (register 1)
      // u2 = a20 u + a21 u1 + b21 dt L(u1)                     (register 2)
      // u3 = a30 u + a32 u2 + b32 dt L(u2)                     (register 1)
      // u4 = a40 u + a43 u3 + b43 dt L(u3)                     (register 0)
      //  and the partial sum s = a52 u2 + a53 u3 + b53 dt L(u3) (register 2), from the same L
      // u' = s + a54 u4 + b54 dt L(u4)                         (register 2)
      // a54 is 0.386708617503268, not the published ...269, so that a52 + a53 + a54 is 1
      // to the last digit given: with ...269 every step scaled the totals by 1 + 1e-15 (a
      // periodic blast's mass drifted by 2e-14 in 20 steps; AmrRungeKutta's conservation).
      s.stages = 5;
      s.registers = 3;
      s.result = 2;
      s.order = 4;
      s.ssp_coefficient = 1.508;
      s.stage[0] = rk_stage(0, 0, rk_out(1, 1, 0, 0, 0.391752226571890));
      s.stage[1] = rk_stage(1, 0.391752226571890,
                            rk_out(2, 0.444370493651235, 0.555629506348765, 0, 0.368410593050371));
      s.stage[2] = rk_stage(2, 0.586079689311540,
                            rk_out(1, 0.620101851488403, 0, 0.379898148511597, 0.251891774271694));
      s.stage[3] = rk_stage2(1, 0.474542363121400,
                             rk_out(0, 0.178079954393132, 0.821920045606868, 0, 0.544974750228521),
                             rk_out(2, 0, 0.096059710526147, 0.517231671970585, 0.063692468666290));
      s.stage[4] =
          rk_stage(0, 0.935010630967653, rk_out(2, 0.386708617503268, 0, 1, 0.226007483236906));
      break;
    case TimeStepper::ader:
      s.stages = 1;
      s.registers = 2;
      s.result = 1;
      s.order = 0;  // the reconstruction's
      s.stage[0] = rk_stage(0, 0, rk_out(1, 1, 0, 0, 1));
      break;
  }
  return s;
}

// One output of a stage in the form the stage routines take it:
//   out = w0 U0 + w (in + dt L(in)),  dt = dt_per_h * h,
// U0 the one register besides the input that the output combines (other < 0: none, w0 = 0;
// no scheme here combines two).
struct StageWeights {
  int other = -1;
  double weight_u0 = 0, weight_in = 1, dt_per_h = 1;
};
inline constexpr StageWeights stage_weights(const RkStage& g, const RkOutput& out) {
  StageWeights w;
  for (int r = 0; r < kMaxRkRegisters; ++r)
    if (r != g.in && out.a[r] != 0) w.other = r;
  w.weight_u0 = w.other >= 0 ? out.a[w.other] : 0;
  w.weight_in = out.a[g.in];
  w.dt_per_h = out.b / out.a[g.in];
  return w;
}

// The registers' values a step reads and writes per cell and variable, for the
// bandwidth model (Solver::bytes_per_cell_update): each stage reads its input, and each
// output is written and reads the other register it combines with (5 for rk2).
inline constexpr int register_words_per_step(const RkScheme& s) {
  int words = 0;
  for (int st = 0; st < s.stages; ++st) {
    words += 1;  // the input
    for (int o = 0; o < s.stage[st].outputs; ++o)
      words += stage_weights(s.stage[st], s.stage[st].out[o]).other >= 0 ? 2 : 1;
  }
  return words;
}

// One output of a stage at one cell: sum_r a[r] R_r + b dt L, registers with a zero
// weight not read (they may be null). The same expression on both backends.
template <class T, int NV>
FLUXVIEW_HD State<T, NV> rk_output_value(const RkOutput& o,
                                         const State<T, NV>* const regs[kMaxRkRegisters],
                                         const State<T, NV>& l, T dt) {
  const T bdt = T(o.b) * dt;
  State<T, NV> v;
#pragma unroll
  for (int m = 0; m < NV; ++m) v.v[m] = bdt * l.v[m];
#pragma unroll
  for (int r = 0; r < kMaxRkRegisters; ++r) {
    if (o.a[r] == 0) continue;
    const T a = T(o.a[r]);
#pragma unroll
    for (int m = 0; m < NV; ++m) v.v[m] += a * regs[r]->v[m];
  }
  return v;
}

}  // namespace fluxview::fv
