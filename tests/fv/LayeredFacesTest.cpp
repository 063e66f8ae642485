// The third-order face pass in time layers (sim/fv/FvModalLoops.hpp, layered_face_fluxes),
// which MHD takes on the device, run here on the host against the pass the host takes
// (polynomial_face_fluxes): the same fluxes bit for bit, through the pass's own lambda
// (the modes' layout, the count of stored modes, the points and the time layers), for
// MHD's nine variables and hydro's five, ADER and a Runge-Kutta stage, each axis, in 3D
// and 2D, with some cells' modes large enough that faces fall back to first order.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sim/core/Exec.hpp"
#include "sim/core/ExecHost.hpp"
#include "sim/fv/FvModalLoops.hpp"
#include "tests/support/SameBits.hpp"

using namespace fluxview;
using namespace fluxview::fv;
using fluxview::test::same_bits;
using namespace fluxview::fv::modal_detail;  // the passes, as the stages call them

namespace {

constexpr int kDeg = 2;  // the degree the layered pass is for (kLayeredFacesDegree)

// Modes of every cell of the slab's polynomial box, laid out as the stage stores them:
// modes[(m NV + v) cells + cell]. Mode 0 a conserved state near (rho 1, u (0.3, -0.2, 0.1),
// p 1, B (0.5, 0.2, -0.3), psi 0.01); the others small, except in every seventh cell.
template <int NV>
std::vector<double> random_modes(const ScratchBox& pb, int count, std::mt19937& rng) {
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<double> modes(std::size_t(space_time_modes(kDeg)) * NV * pb.cells, 0.0);
  const double gamma = 5.0 / 3;
  for (std::int64_t c = 0; c < pb.cells; ++c) {
    State<double, NV> q;
    for (int v = 0; v < NV; ++v) q.v[v] = 0;
    q.v[kRho] = 1 + 0.1 * d(rng);
    q.v[kVelX] = 0.3 + 0.1 * d(rng);
    q.v[kVelX + 1] = -0.2;
    q.v[kVelX + 2] = 0.1;
    q.v[kPressure] = 1 + 0.1 * d(rng);
    if constexpr (NV >= 9) {
      q.v[kBx] = 0.5;
      q.v[kBx + 1] = 0.2 + 0.1 * d(rng);
      q.v[kBx + 2] = -0.3;
      q.v[kPsi] = 0.01;
    }
    const State<double, NV> u = prim_to_cons(q, gamma);
    const double scale = c % 7 == 3 ? 2.0 : 0.01;
    for (int v = 0; v < NV; ++v) {
      modes[std::size_t(v) * pb.cells + c] = u.v[v];
      for (int m = 1; m < count; ++m)
        modes[(std::size_t(m) * NV + v) * pb.cells + c] = scale * d(rng);
    }
  }
  return modes;
}

// Returns how many faces took the first-order flux (the layered pass's own count is not
// kept, so it is the number of faces whose flux is the two means' Riemann flux).
template <int D, int NV>
int check(bool ader, const bool act[3], std::mt19937& rng) {
  SlabArrays<double> s;
  const int ext[3] = {5, 4, act[2] ? 3 : 1};
  const int lo[3] = {0, 0, 0}, hi[3] = {ext[0], ext[1], ext[2]};
  int plo[3], phi[3], fhi[3];
  for (int a = 0; a < 3; ++a) {
    plo[a] = act[a] ? -1 : 0;
    phi[a] = hi[a] + (act[a] ? 1 : 0);
    fhi[a] = hi[a] + 1;
  }
  s.cell = scratch_box(lo, hi);
  s.poly = scratch_box(plo, phi);
  s.face = scratch_box(lo, fhi);
  StageArgs<double> a;
  a.nv = NV;
  a.ader = ader;
  a.ph.gamma = 5.0 / 3;
  a.ph.riemann = NV >= 9 ? Riemann::hlld : Riemann::hllc;
  a.ph.ch = 1.5;
  const int count = ader ? space_time_modes(kDeg) : modes_up_to(kDeg);
  std::vector<double> modes = random_modes<NV>(s.poly, count, rng);
  s.modes = modes.data();
  std::vector<double> from_poly(static_cast<std::size_t>(NV) * s.face.cells, NAN),
      from_layers = from_poly;
  s.flux = from_poly.data();
  polynomial_face_fluxes<D, kDeg, NV>(exec::Host{}, a, s, act[0], act[1], act[2]);
  s.flux = from_layers.data();
  layered_face_fluxes<D, kDeg, NV>(exec::Host{}, a, s,
                                   face_rule_of<D, kDeg, double>(act, ader ? kDeg : 0));
  const EulerFaceSolver<double, NV> rs{a.ph};
  const exec::Box faces = slab_faces<D>(s);
  int fell_back = 0;
  for (int k = faces.lo[2]; k < faces.hi[2]; ++k)
    for (int j = faces.lo[1]; j < faces.hi[1]; ++j)
      for (int i = faces.lo[0]; i < faces.hi[0]; ++i) {
        const std::int64_t q = s.face.local(i, j, k);
        State<double, NV> meanL, meanR;
        for (int v = 0; v < NV; ++v) {
          meanL.v[v] =
              modes[v * s.poly.cells + s.poly.local(i - (D == 0), j - (D == 1), k - (D == 2))];
          meanR.v[v] = modes[v * s.poly.cells + s.poly.local(i, j, k)];
        }
        const State<double, NV> first = rs.template flux<D>(meanL, meanR);
        bool is_first = true;
        for (int v = 0; v < NV; ++v) {
          const double p = from_poly[v * s.face.cells + q], l = from_layers[v * s.face.cells + q];
          EXPECT_TRUE(std::isfinite(p)) << "face (" << i << ", " << j << ", " << k << ")";
          EXPECT_TRUE(same_bits(l, p))
              << "NV " << NV << (ader ? " ADER" : " RK") << ", axis " << D << ", face (" << i
              << ", " << j << ", " << k << "), variable " << v << ": " << l << " vs " << p;
          is_first = is_first && same_bits(p, first.v[v]);
        }
        fell_back += is_first ? 1 : 0;
      }
  return fell_back;
}

template <int NV>
void every_case(std::mt19937& rng) {
  const bool three_d[3] = {true, true, true}, two_d[3] = {true, true, false};
  int fell_back = 0;
  for (const bool ader : {true, false}) {
    fell_back += check<0, NV>(ader, three_d, rng);
    fell_back += check<1, NV>(ader, three_d, rng);
    fell_back += check<2, NV>(ader, three_d, rng);
    fell_back += check<0, NV>(ader, two_d, rng);
    fell_back += check<1, NV>(ader, two_d, rng);
  }
  // The large modes of every seventh cell send faces beside it to the first-order flux:
  // both branches of the pass were compared.
  EXPECT_GT(fell_back, 0) << "NV " << NV;
}

}  // namespace

TEST(LayeredFaces, SameFluxesAsThePolynomialPassBitForBit) {
  std::mt19937 rng(11);
  every_case<9>(rng);
  every_case<5>(rng);
}
