#pragma once
// The heat family's steering tools on the field (docs/gui.md): a Gaussian spot of heat
// added or taken away, and obstacles held at a fixed temperature. The loops are written
// once over the execution space (sim/core/Exec.hpp); HeatToolsCpu.cpp instantiates them on
// the host and cuda/HeatToolsKernels.cu on the device, so a stroke is a kernel where the
// field lives and only its sums come back.
//
// An obstacle is a cell whose temperature is held: the field `fixed` holds that temperature
// there and NaN elsewhere, and after every step hold() puts the held value back. FTCS with
// cells reset after each update is FTCS with Dirichlet nodes inside the domain, so the
// neighbours of an obstacle see a wall at its temperature, as they see the box's walls.
#include <cmath>
#include <cstdint>
#include <memory>

#include "sim/core/Backend.hpp"
#include "sim/core/Brush.hpp"
#include "sim/core/Exec.hpp"
#include "sim/core/FieldLayout.hpp"

namespace fluxview::heat {

// What a stroke changed: the sum over its cells of T after - T before (times the cell
// volume by the caller: the change of the T_integral diagnostic), the lowest temperature
// it leaves, and the cells it touched.
struct StrokeSums {
  double added = 0;
  double lowest = INFINITY;
  std::int64_t cells = 0;
};

// A held cell: its `fixed` value is a number (NaN marks a free cell).
template <class T>
FLUXVIEW_HD bool held(const T* fixed, std::int64_t c) {
  return fixed != nullptr && fixed[c] == fixed[c];
}

// The Gaussian spot: T += amplitude exp(-(r/R)^2) within the brush's reach, held cells left
// alone. With apply = false the field is only read (the check before a stroke).
struct StrokeAcc {
  exec::Sum<double> added;
  exec::Min<double> lowest;
  exec::Sum<std::int64_t> cells;
  FLUXVIEW_HD void join(const StrokeAcc& o) {
    added.join(o.added);
    lowest.join(o.lowest);
    cells.join(o.cells);
  }
};

inline StrokeSums sums_of(const StrokeAcc& a) {
  return {a.added.value, a.lowest.value, a.cells.value};
}

template <class Space, class T>
StrokeSums heat_spot(const Space& space, T* f, const T* fixed, const FieldLayout& l, const Brush& b,
                     double amplitude, bool apply) {
  const double r2 = b.radius * b.radius;
  return sums_of(reduce_cells(space, brush_box(b, l.n), StrokeAcc{},
                              [=] FLUXVIEW_LAMBDA(int i, int j, int k, StrokeAcc& acc) {
                                const double d2 = b.distance2(i, j, k);
                                if (d2 > b.reach * b.reach) return;
                                const std::int64_t c = l.index(i, j, k);
                                if (held(fixed, c)) return;
                                const T before = f[c];
                                const T after = T(double(before) + amplitude * exp(-d2 / r2));
                                acc.added.add(double(after) - double(before));
                                acc.lowest.add(double(after));
                                acc.cells.add(1);
                                if (apply) f[c] = after;
                              }));
}

// Holds the cells of the brush at `temperature` (fixed and f both set).
template <class Space, class T>
StrokeSums hold_cells(const Space& space, T* f, T* fixed, const FieldLayout& l, const Brush& b,
                      double temperature) {
  const T t = T(temperature);
  return sums_of(reduce_cells(space, brush_box(b, l.n), StrokeAcc{},
                              [=] FLUXVIEW_LAMBDA(int i, int j, int k, StrokeAcc& acc) {
                                if (!b.inside(i, j, k)) return;
                                const std::int64_t c = l.index(i, j, k);
                                acc.added.add(double(t) - double(f[c]));
                                acc.lowest.add(double(t));
                                acc.cells.add(1);
                                fixed[c] = t;
                                f[c] = t;
                              }));
}

// Frees the held cells of the brush (their temperature then evolves again).
template <class Space, class T>
std::int64_t free_cells(const Space& space, T* fixed, const FieldLayout& l, const Brush& b) {
  const T nan = T(NAN);
  return reduce_cells(space, brush_box(b, l.n), exec::Sum<std::int64_t>{},
                      [=] FLUXVIEW_LAMBDA(int i, int j, int k, exec::Sum<std::int64_t>& acc) {
                        const std::int64_t c = l.index(i, j, k);
                        if (!b.inside(i, j, k) || !held(fixed, c)) return;
                        fixed[c] = nan;
                        acc.add(1);
                      })
      .value;
}

// After a step: the held cells of `box` back to their temperature.
template <class Space, class T>
void hold(const Space& space, T* f, const T* fixed, const FieldLayout& l, const exec::Box& box) {
  for_each_cell(space, box, [=] FLUXVIEW_LAMBDA(int i, int j, int k) {
    const std::int64_t c = l.index(i, j, k);
    if (held(fixed, c)) f[c] = fixed[c];
  });
}

// `value` into every cell of `box` (ghosts included where the box reaches them).
template <class Space, class T>
void fill(const Space& space, T* f, const FieldLayout& l, const exec::Box& box, T value) {
  for_each_cell(space, box,
                [=] FLUXVIEW_LAMBDA(int i, int j, int k) { f[l.index(i, j, k)] = value; });
}

// The loops above where a run computes: made once at reset, like the HeatBackend.
template <class T>
class HeatTools : public Backend {
 public:
  using Backend::Backend;
  virtual StrokeSums heat_spot(T* f, const T* fixed, const FieldLayout& l, const Brush& b,
                               double amplitude, bool apply) = 0;
  virtual StrokeSums hold_cells(T* f, T* fixed, const FieldLayout& l, const Brush& b,
                                double temperature) = 0;
  virtual std::int64_t free_cells(T* fixed, const FieldLayout& l, const Brush& b) = 0;
  virtual void hold(T* f, const T* fixed, const FieldLayout& l, const exec::Box& box) = 0;
  virtual void fill(T* f, const FieldLayout& l, const exec::Box& box, T value) = 0;
};

template <class Space, class T>
class HeatToolsOn final : public HeatTools<T> {
 public:
  HeatToolsOn() : HeatTools<T>(exec::location_of(Space{})) {}
  StrokeSums heat_spot(T* f, const T* fixed, const FieldLayout& l, const Brush& b, double amplitude,
                       bool apply) override {
    return heat::heat_spot(Space{}, f, fixed, l, b, amplitude, apply);
  }
  StrokeSums hold_cells(T* f, T* fixed, const FieldLayout& l, const Brush& b,
                        double temperature) override {
    return heat::hold_cells(Space{}, f, fixed, l, b, temperature);
  }
  std::int64_t free_cells(T* fixed, const FieldLayout& l, const Brush& b) override {
    return heat::free_cells(Space{}, fixed, l, b);
  }
  void hold(T* f, const T* fixed, const FieldLayout& l, const exec::Box& box) override {
    heat::hold(Space{}, f, fixed, l, box);
  }
  void fill(T* f, const FieldLayout& l, const exec::Box& box, T value) override {
    heat::fill(Space{}, f, l, box, value);
  }
};

// The tools of a run's backend (HeatToolsCpu.cpp; cuda/HeatToolsKernels.cu for the device).
template <class T>
std::unique_ptr<HeatTools<T>> make_tools(BackendKind backend);
template <class T>
std::unique_ptr<HeatTools<T>> make_device_tools();

}  // namespace fluxview::heat
