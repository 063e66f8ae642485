// The probe loop of sim/core/ProbeLoops.hpp on the device.
#include "sim/core/ProbeLoops.hpp"
#include "sim/core/cuda/ExecDevice.cuh"

namespace fluxview::probes {

void sample_on_device(const void* field, bool f64, const Geometry& g, const double* points,
                      int count, double* out) {
  if (f64)
    sample(exec::Device{}, static_cast<const double*>(field), g, points, count, out);
  else
    sample(exec::Device{}, static_cast<const float*>(field), g, points, count, out);
}

}  // namespace fluxview::probes
