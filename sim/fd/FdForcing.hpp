#pragma once
// Non-helical forcing (Pekkila et al. 2017, eqs 24-25; Brandenburg 2001): each step a
// wave vector k is drawn from the integer vectors of a shell kmin <= |k| <= kmax (units
// of 2 pi / L), a random unit vector e perpendicular to k and a random phase phi; then
//   f(x) = N f_k cos(k . x + phi),  f_k = k x e / |k x e|,  N = f0 cs sqrt(|k| cs / dt).
// f_k is real, so f . curl f = 0 at every point: the forcing injects no helicity.
#include <array>
#include <cstdint>
#include <vector>

namespace fluxview::fd {

// xoshiro256** (Blackman & Vigna), seeded through splitmix64: deterministic on every
// platform, and its whole state is four words that a checkpoint can save and restore.
class ForcingRng {
 public:
  explicit ForcingRng(std::uint64_t seed = 1) { reseed(seed); }
  void reseed(std::uint64_t seed);
  std::uint64_t next();
  double uniform();  // [0, 1), 53 random bits
  std::array<std::uint64_t, 4> state() const { return s_; }
  void set_state(const std::array<std::uint64_t, 4>& s) { s_ = s; }

 private:
  std::array<std::uint64_t, 4> s_{};
};

// The integer wave vectors of the shell, with zero components along reduced axes.
struct ForcingShell {
  std::vector<std::array<int, 3>> k;
  double mean_k = 0;  // k_f: mean |k| over the shell
};
ForcingShell make_shell(double kmin, double kmax, std::array<bool, 3> active);

struct ForcingDraw {
  std::array<int, 3> k{};       // integer wave vector
  std::array<double, 3> e{};    // unit vector perpendicular to k
  std::array<double, 3> f_k{};  // k x e / |k x e|: unit, perpendicular to k and to e
  double phase = 0;             // [0, 2 pi)
};
// Draws one step's forcing; consumes a fixed number of generator outputs per call.
ForcingDraw draw_forcing(ForcingRng& rng, const ForcingShell& shell);

}  // namespace fluxview::fd
