#pragma once
// CUDA-GL interop for slice textures (cuda/SliceInterop.cu), with a no-CUDA twin
// (SliceInteropAbsent.cpp) so the renderer builds without CUDA. Plain C++ interface:
// no CUDA or GL headers here.
#include <string>

#include "render/SliceSpec.hpp"
#include "sim/core/FieldView.hpp"

namespace fluxview::render::interop {

// Registers a GL texture for surface stores; returns nullptr and says why in `why`
// when it cannot (no CUDA, the GL context is on another GPU, ...).
void* register_texture(unsigned int gl_texture, std::string* why);
void unregister_texture(void* resource);
// Maps the texture, writes the slice with one kernel, unmaps. Work is queued on the
// default stream, after the solver's steps.
void write_slice(void* resource, const FieldView& v, SliceSpec slice);
// The same for several textures of one field with a single map and a single unmap:
// mapping costs the same for one resource or three (the 3D view's slices).
void write_slices(void* const* resources, const FieldView& v, const SliceSpec* slices, int count);

// Slice writes on a stream of their own (ordered after the legacy default stream's
// work by an event) instead of the legacy default stream. For render_bench.
void use_own_stream(bool on);

// For render_bench: the host time of each phase of write_slice (each phase waited for).
struct WriteTiming {
  double map_ms = 0, kernel_ms = 0, unmap_ms = 0;
};
WriteTiming profile_write_slice(void* resource, const FieldView& v, SliceSpec slice, int reps);
// For render_bench: the pixel-buffer variant (a registered GL buffer the kernel writes
// linearly, copied into the texture by GL afterwards).
void* register_buffer(unsigned int gl_buffer, std::string* why);
void write_slice_to_buffer(void* resource, const FieldView& v, SliceSpec slice);
// A device slice copied to host floats through a small device staging buffer.
void copy_slice_device_to_host(const FieldView& v, SliceSpec slice, float* out);

}  // namespace fluxview::render::interop
