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
// A device slice copied to host floats through a small device staging buffer.
void copy_slice_device_to_host(const FieldView& v, SliceSpec slice, float* out);

}  // namespace fluxview::render::interop
