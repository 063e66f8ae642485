#pragma once
// One HDF5 file of a checkpoint (a serial run's whole grid, or one rank's piece): its
// format, written, read, and verified after writing. Internal to insitu/checkpoint.
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "insitu/checkpoint/Checkpoint.hpp"
#include "insitu/checkpoint/PieceNames.hpp"

namespace fluxview::checkpoint_detail {

inline constexpr const char* kFormat = "fluxview-checkpoint";
// Version 2: every file records its box of the global grid (rank, ranks, global size,
// offset), covered by the CRC too, so a restart can reassemble the grid on any number of
// ranks. Version 1 files lack the box: a serial one is the whole grid and still reads; the
// pieces of an MPI run are refused (which box each holds is not known).
inline constexpr int kVersion = 2;
// Version 3: a state not on the grid (SolverState::on_grid false: the adaptive mesh's
// leaves and blocks): one piece of one rank whose box is the whole grid, each array of its
// own size. Only such files carry 3, so that a fluxview that reads 1 and 2 says which
// version it met instead of misreading them.
inline constexpr int kVersionOwnArrays = 3;

// "64x64x1"
std::string dims_text(const std::array<int, 3>& n);

// CRC-32 (zlib), fed in pieces of at most 1 GiB (zlib's length is 32-bit).
class Crc32 {
 public:
  void add(const void* p, std::size_t n) {
    const auto* b = static_cast<const Bytef*>(p);
    for (std::size_t o = 0; o < n; o += kStep)
      crc_ = crc32(crc_, b + o, uInt(std::min(kStep, n - o)));
  }
  std::uint32_t value() const { return std::uint32_t(crc_); }

 private:
  static constexpr std::size_t kStep = std::size_t(1) << 30;
  uLong crc_ = crc32(0L, Z_NULL, 0);
};

// The CRC over everything a restart depends on, in a fixed order: these header fields,
// then each array's name and values in the file's order (added by the caller).
Crc32 header_crc(const Checkpoint& c, const CheckpointPiece& p);

// Reads the header of one file (attributes and the arrays' names and sizes, not their
// values) into `c` and returns its box. Throws std::runtime_error saying what is wrong.
CheckpointPiece read_piece_header(const PieceFile& f, Checkpoint& c);
// What two pieces of one checkpoint must share; the first difference, or "".
std::string header_difference(const Checkpoint& a, const Checkpoint& b);
// Whether piece `p` overlaps the box [off, off + n).
bool overlap(const CheckpointPiece& p, const std::array<int, 3>& off, const std::array<int, 3>& n);

// Writes the HDF5 file of one piece at `file`; `name` is the checkpoint the user knows.
// Throws FileError naming `name` and the operating system's error.
void write_piece_file(const std::filesystem::path& file, const std::filesystem::path& name,
                      const Checkpoint& c, const CheckpointPiece& piece);
// Reads every array of piece `p` whole (so its Fletcher-32 sums are checked), adds it to
// the piece's CRC and hands it to `use`; the CRC must then match the stored one. Throws
// std::runtime_error saying what is wrong.
void read_piece_arrays(const Checkpoint& c, const CheckpointPiece& p,
                       const std::function<void(const std::string& name,
                                                const std::vector<unsigned char>& values)>& use);
// Reads a just-written piece back before it replaces anything: the header as written, every
// array's Fletcher-32 sums and the CRC over all of it. Throws FileError naming `name`.
void verify_piece_file(const std::filesystem::path& file, const std::filesystem::path& name,
                       const Checkpoint& c, const CheckpointPiece& written);

}  // namespace fluxview::checkpoint_detail
