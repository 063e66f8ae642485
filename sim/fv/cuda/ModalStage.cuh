// Definition of modal_stage_on_device (ModalStage.hpp): the loops of FvModalLoops.hpp on
// exec::Device. Included only by the generated per-(degree, precision) sources.
#pragma once

#include <cstring>

#include "sim/core/cuda/ExecDevice.cuh"
#include "sim/fv/FvLoops.hpp"
#include "sim/fv/FvModalLoops.hpp"
#include "sim/fv/cuda/ModalStage.hpp"

namespace fluxview::fv {

// The counts come back to the host in the reduction and are added where the solver reads
// them (device memory), so a stage moves a few bytes.
template <int M, int NV, class T>
void modal_stage_on_device(const StageArgs<T>& a, Buffer& scratch) {
  const auto done = higher_order_stage<M, NV>(exec::Device{}, a, scratch);
  if (a.corrected && done.corrected.value) {
    unsigned long long c = 0;
    copy_bytes(&c, Location::host, a.corrected, Location::device, sizeof c);
    c += done.corrected.value;
    copy_bytes(a.corrected, Location::device, &c, Location::host, sizeof c);
  }
  if (a.rate_bits) {
    unsigned long long bits = 0;
    std::memcpy(&bits, &done.rate.value, sizeof bits);
    copy_bytes(a.rate_bits, Location::device, &bits, Location::host, sizeof bits);
  }
}

}  // namespace fluxview::fv
