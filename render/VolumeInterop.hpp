#pragma once
// The volume view's zero-copy paths (cuda/VolumeInterop.cu), with a no-CUDA twin
// (RenderKernelsAbsent.cpp). Plain C++ interface: no CUDA or GL headers here.
//
// A kernel reads the field from the solver's device buffer and writes every interior
// cell as a float, x fastest, together with the value range of each brick of 8^3 cells
// (VolumeBricks.hpp) for empty-space skipping, either
//  - into linear device memory that GL reads in place (SharedGlBuffer: the volume view's
//    shader reads it as a storage buffer; no map, one host wait), or
//  - into a GL 3D texture and a brick texture registered with CUDA, mapped per update
//    and written through surfaces.
#include <string>

#include "sim/core/FieldView.hpp"

namespace fluxview::render::interop {

// `volume`: nx * ny * nz floats; `bricks`: two floats (min, max) per brick, brick index
// bx + nbx * (by + nby * bz); `raw_bricks`: device scratch of the same size. All device
// memory. Returns once the kernels are done (the host wait that orders them before GL).
void write_volume_linear(const FieldView& v, float* volume, float* bricks, float* raw_bricks);

// A GL 3D texture (R32F, the field's size) and brick texture (RG32F, one texel a brick)
// registered for surface stores; nullptr and the reason in `why` where that fails.
void* register_volume(unsigned int volume_texture, unsigned int brick_texture, std::string* why);
void unregister_volume(void* registration);
// Maps both textures once, writes them, unmaps (which orders the writes before GL's reads).
void write_volume_mapped(void* registration, const FieldView& v, float* raw_bricks);

}  // namespace fluxview::render::interop
