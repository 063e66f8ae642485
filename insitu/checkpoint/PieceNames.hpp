#pragma once
// How the files of a checkpoint are named: PATH for a serial run, and under MPI one piece a
// rank, PATH with ".rankRRRRofSSSS" before the extension. Internal to insitu/checkpoint.
#include <filesystem>
#include <string>
#include <vector>

namespace fluxview::checkpoint_detail {

// ".rank0001of0004"
std::string piece_suffix(int rank, int ranks);

// One file of a checkpoint as its name gives it.
struct PieceFile {
  std::filesystem::path file;
  int rank = 0, ranks = 0;  // ranks 0: a serial file
};
// The files of the checkpoint `logical` (or of the checkpoint one piece of it belongs to):
// the file itself (serial), or its pieces, in rank order, with the rank count their names
// give. Throws std::runtime_error saying what is missing, mixed or left over.
std::vector<PieceFile> find_pieces(std::filesystem::path logical);

}  // namespace fluxview::checkpoint_detail
