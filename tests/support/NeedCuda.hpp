#pragma once
#include <string>

// FLUXVIEW_NEED_CUDA(): the first line of a GPU test, which skips it with the reason where
// there is no CUDA device (CI has none).
#include <gtest/gtest.h>

#include "sim/core/CudaRuntime.hpp"

#define FLUXVIEW_NEED_CUDA()                                                    \
  do {                                                                          \
    if (fluxview::cuda::device_count() == 0)                                    \
      GTEST_SKIP() << "no CUDA device: " << fluxview::cuda::no_device_reason(); \
  } while (0)
