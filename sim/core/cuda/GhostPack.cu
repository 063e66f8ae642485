// The device side of the MPI ghost exchange: one grid-stride kernel per box moves the
// box of every field to or from a contiguous buffer. Elements are moved as opaque
// words of the field's size, so one kernel serves float and double.
#include <cstdint>
#include <stdexcept>

#include "sim/core/GhostPack.hpp"
#include "sim/core/cuda/CudaCheck.cuh"

namespace fluxview::cuda {

namespace {

// As parallel::GhostExchange::kMaxFields: the ten variables of MHD with a tracer.
constexpr int kMaxFields = 10;

struct BoxCopy {
  void* fields[kMaxFields];
  int nfields;
  int lo[3], ext[3];
  long long sy, sz, origin;
  long long per_field;  // ext[0] * ext[1] * ext[2]
};

template <class Word, bool kToBuffer>
__global__ void __launch_bounds__(256) copy_box(BoxCopy b, Word* buf) {
  const long long total = b.per_field * b.nfields;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const int f = int(t / b.per_field);
    long long r = t - f * b.per_field;
    const int i = int(r % b.ext[0]);
    r /= b.ext[0];
    const int j = int(r % b.ext[1]);
    const int k = int(r / b.ext[1]);
    const long long o = b.origin + (b.lo[0] + i) + (b.lo[1] + j) * b.sy + (b.lo[2] + k) * b.sz;
    Word* field = static_cast<Word*>(b.fields[f]);
    if constexpr (kToBuffer)
      buf[t] = field[o];
    else
      field[o] = buf[t];
  }
}

template <class Word>
void launch(const BoxCopy& b, void* buf, PackDirection dir, cudaStream_t s) {
  const long long total = b.per_field * b.nfields;
  const int threads = 256;
  const long long blocks_needed = (total + threads - 1) / threads;
  const int blocks = int(blocks_needed < 4096 ? blocks_needed : 4096);
  if (dir == PackDirection::to_buffer)
    copy_box<Word, true><<<blocks, threads, 0, s>>>(b, static_cast<Word*>(buf));
  else
    copy_box<Word, false><<<blocks, threads, 0, s>>>(b, static_cast<Word*>(buf));
  FLUXVIEW_CUDA_LAUNCH_CHECK();
}

}  // namespace

void pack_box(void* buf, void* const* fields, int nfields, const FieldLayout& l,
              std::array<int, 3> lo, std::array<int, 3> hi, PackDirection dir, Stream stream) {
  if (nfields < 1 || nfields > kMaxFields)
    throw std::logic_error("pack_box: between 1 and 8 fields at a time");
  BoxCopy b{};
  b.nfields = nfields;
  for (int f = 0; f < nfields; ++f) b.fields[f] = fields[f];
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = lo[a];
    b.ext[a] = hi[a] - lo[a];
    if (b.ext[a] <= 0) return;  // an empty box moves nothing
  }
  b.sy = l.sy;
  b.sz = l.sz;
  b.origin = l.origin;
  b.per_field = (long long)b.ext[0] * b.ext[1] * b.ext[2];
  const auto s = static_cast<cudaStream_t>(stream);
  if (l.elem_bytes == 8)
    launch<std::uint64_t>(b, buf, dir, s);
  else
    launch<std::uint32_t>(b, buf, dir, s);
}

}  // namespace fluxview::cuda
