#pragma once
// FLUXVIEW_HD marks the pointwise physics that both backends share: compiled for the
// host by the C++ compiler and for the device by nvcc (DESIGN.md, "physics written once").
#if defined(__CUDACC__)
#define FLUXVIEW_HD __host__ __device__ __forceinline__
#else
#define FLUXVIEW_HD inline
#endif
