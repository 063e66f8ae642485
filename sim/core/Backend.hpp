#pragma once
// What every family's backend object (HeatBackend, FdBackend, FvBackend) says about where
// it computes. A solver makes its backend once, at reset, from the run's BackendKind, and
// from then on calls it; it never asks "device or host?" itself.
#include <cstddef>
#include <string>

#include "sim/core/Types.hpp"

namespace fluxview {

class Backend {
 public:
  explicit Backend(Location where) : where_(where) {}
  virtual ~Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  // Where the fields it works on live.
  Location where() const { return where_; }
  // True when calls return with their work queued rather than done (the device): what
  // lets a solver overlap an MPI exchange with work.
  bool queues_work() const { return where_ == Location::device; }
  // Before the solver allocates `bytes` of fields: on the device, throws naming the sizes
  // when they do not fit.
  void require_memory(std::size_t bytes) const;
  // Waits for queued work (nothing to wait for on the host).
  void wait() const;
  // Throws if queued work failed, naming `what` (nothing on the host).
  void check(const char* what) const;

 private:
  Location where_;
};

// What a backend factory says when the run asks for CUDA in a build without it.
[[noreturn]] void throw_no_cuda_build();

// The backend `kind` names, from a family's two factories: `host()`, or `device()` in a
// build with CUDA (without, throw_no_cuda_build; `device` is then never called, so its
// factory need not be defined). Every family's make_backend is this.
template <class MakeHost, class MakeDevice>
auto backend_for(BackendKind kind, const MakeHost& host, const MakeDevice& device) {
  if (kind == BackendKind::cpu) return host();
#if FLUXVIEW_HAVE_CUDA
  return device();
#else
  (void)device;
  throw_no_cuda_build();
#endif
}

}  // namespace fluxview
