// Bad input is refused with a message naming the key; the scenarios load; the
// pointwise physics has the properties the scheme relies on.
#include <gtest/gtest.h>
#include <algorithm>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <cmath>

#include "sim/core/ConfigError.hpp"
#include "sim/fv/FvPhysics.hpp"
#include "tests/fv/FvTestUtil.hpp"

using namespace fluxview;
using namespace fluxview::fv;

namespace {
std::string error_of(const std::vector<std::string>& overrides, const char* scenario = "fv/sod") {
  try {
    load_scenario(scenario, overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(FvParams, BadInputNamesTheKey) {
  const std::pair<const char*, const char*> cases[] = {
      {"fv.gamma=1", "fv.gamma"},
      {"fv.gamma=0.5", "fv.gamma"},
      {"fv.theta=2.5", "fv.theta"},
      {"fv.theta=-0.1", "fv.theta"},
      {"fv.cfl=1.5", "fv.cfl"},
      {"fv.cfl=0", "fv.cfl"},
      {"fv.left_rho=-1", "fv.left_rho"},
      {"fv.right_p=-0.1", "fv.right_p"},
      {"fv.ambient_rho=0", "fv.ambient_rho"},
      {"fv.riemann=roe", "fv.riemann"},
      {"fv.bc_xmin=periodic", "periodic"},
      {"fv.axis=y", "fv.axis = y"},
  };
  for (const auto& [set, key] : cases) {
    const std::string m = error_of({set});
    EXPECT_NE(m.find(key), std::string::npos) << set << " -> '" << m << "'";
  }
  EXPECT_NE(error_of({"fv.ambient_p=-1"}, "fv/sedov").find("fv.ambient_p"), std::string::npos);
}

TEST(FvParams, ScenariosLoadWithTheirDocumentedValues) {
  for (const char* name : {"fv/sod", "fv/sedov", "fv/cloud-disruption", "fv/kelvin-helmholtz"})
    EXPECT_NO_THROW(load_scenario(name)) << name;
  const Scenario sod = load_scenario("fv/sod");
  EXPECT_EQ(sod.params.get_int("grid.nx"), 400);
  EXPECT_DOUBLE_EQ(sod.params.get_real("run.until"), 0.14);
  const Scenario cloud = load_scenario("fv/cloud-disruption");
  // The cloud radius spans at least 16 cells at the default 256^3.
  EXPECT_GE(cloud.params.get_real("fv.cloud_radius") * cloud.params.get_int("grid.nx") /
                cloud.params.get_real("grid.lx"),
            16.0);
  EXPECT_TRUE(cloud.params.get_bool("fv.tracer"));
}

TEST(FvPhysics, LimiterAndReconstruction) {
  EXPECT_DOUBLE_EQ(minmod3(1.0, 2.0, 3.0), 1.0);
  EXPECT_DOUBLE_EQ(minmod3(-1.0, -2.0, -0.5), -0.5);
  EXPECT_DOUBLE_EQ(minmod3(1.0, -2.0, 3.0), 0.0);
  // Linear data is reproduced exactly at the face (the half-cell factor of eqs. 9-10).
  Physics<double> ph;
  ph.theta = 2;
  State<double, 5> a{{1, 0, 0, 0, 1}}, b{{2, 0, 0, 0, 1}}, c{{3, 0, 0, 0, 1}}, d{{4, 0, 0, 0, 1}};
  State<double, 5> l, r;
  reconstruct(a, b, c, d, ph, l, r);
  EXPECT_DOUBLE_EQ(l.v[0], 2.5);
  EXPECT_DOUBLE_EQ(r.v[0], 2.5);
  // An extremum is flattened (TVD).
  State<double, 5> e{{1, 0, 0, 0, 1}}, f{{3, 0, 0, 0, 1}}, h{{1, 0, 0, 0, 1}};
  reconstruct(e, f, h, e, ph, l, r);
  EXPECT_DOUBLE_EQ(l.v[0], 3.0);
}

TEST(FvPhysics, FluxesAreConsistentAndHllcKeepsAContact) {
  Physics<double> ph;
  const State<double, 6> q{{1.3, 0.4, -0.2, 0.7, 2.1, 0.3}};
  for (Riemann rs : {Riemann::llf, Riemann::hll, Riemann::hllc}) {
    ph.riemann = rs;
    const auto f = riemann_flux<1>(q, q, ph);
    const auto exact = physical_flux<1>(q, prim_to_cons(q, ph.gamma));
    for (int m = 0; m < 6; ++m) EXPECT_NEAR(f.v[m], exact.v[m], 1e-14) << int(rs) << " " << m;
  }
  // A stationary contact (density jump, same p, u = 0): HLLC gives zero mass flux.
  ph.riemann = Riemann::hllc;
  const State<double, 5> L{{1, 0, 0, 0, 1}}, R{{0.1, 0, 0, 0, 1}};
  EXPECT_NEAR(riemann_flux<0>(L, R, ph).v[0], 0.0, 1e-15);
  ph.riemann = Riemann::hll;
  EXPECT_GT(std::fabs(riemann_flux<0>(L, R, ph).v[0]), 0.01);  // HLL smears it
  // Conversion round trip.
  const auto back = cons_to_prim(prim_to_cons(q, 1.4), ph);
  for (int m = 0; m < 6; ++m) EXPECT_NEAR(back.v[m], q.v[m], 1e-14);
}

TEST(FvSolverApi, FieldsAndDerivedViews) {
  auto s = fluxview::fv::test::make_solver("fv/kelvin-helmholtz", {"grid.nx=32", "grid.ny=16"});
  std::vector<std::string> names;
  for (const auto& f : s->fields()) names.push_back(f.name);
  EXPECT_EQ(names, (std::vector<std::string>{"rho", "ux", "uy", "uz", "p", "tracer"}));
  const auto p = fluxview::fv::test::interior_values(*s, "p");
  for (double v : p) EXPECT_NEAR(v, 2.5, 1e-12);
  const auto c = fluxview::fv::test::interior_values(*s, "tracer");
  EXPECT_DOUBLE_EQ(*std::max_element(c.begin(), c.end()), 1.0);
  EXPECT_THROW(s->view("T"), std::out_of_range);
  EXPECT_EQ(s->grid().ghost, 2);
  EXPECT_NEAR(fluxview::fv::test::diagnostic(*s, "mixed_fraction"), 0.0, 1e-15);
}

TEST(FvSolverApi, RestartFromSavedStateIsBitIdentical) {
  using fluxview::test::make_solver;
  for (Precision p : {Precision::f64, Precision::f32}) {
    const std::vector<std::string> o = {"grid.n=12", "fv.cloud_radius=0.15", "fv.tracer=true",
                                        "fv.blast_radius=0.3"};
    auto a = make_solver("fv/sedov", o, BackendKind::cpu, p);
    a->advance(7);
    const SolverState st = a->save_state();
    a->advance(9);
    auto b = make_solver("fv/sedov", o, BackendKind::cpu, p);
    b->load_state(st);
    b->advance(9);
    EXPECT_EQ(b->time(), a->time());
    EXPECT_EQ(b->step(), a->step());
    for (const char* f : {"rho", "ux", "p", "tracer"}) {
      const auto x = fluxview::fv::test::interior_values(*a, f),
                 y = fluxview::fv::test::interior_values(*b, f);
      EXPECT_EQ(x, y) << f;
    }
  }
  auto c = make_solver("fv/sedov", {"grid.n=8"});
  auto d = make_solver("fv/sedov", {"grid.n=8", "fv.tracer=true"});
  EXPECT_THROW(c->load_state(d->save_state()), std::runtime_error);
}
