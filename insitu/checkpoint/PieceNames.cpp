#include "insitu/checkpoint/PieceNames.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <type_traits>
#include <utility>

#include "insitu/checkpoint/Checkpoint.hpp"
#include "sim/core/Parallel.hpp"

namespace fluxview {

namespace checkpoint_detail {

std::string piece_suffix(int rank, int ranks) {
  char suffix[64];
  std::snprintf(suffix, sizeof suffix, ".rank%04dof%04d", rank, ranks);
  return suffix;
}

namespace {

// "checkpoint_000010.rank0001of0004" -> {"checkpoint_000010", 1, 4}; nothing for a name
// that is not a piece's.
struct PieceName {
  std::string stem;
  int rank = 0, ranks = 0;
};
std::optional<PieceName> parse_piece_stem(const std::string& stem) {
  const std::size_t at = stem.rfind(".rank");
  if (at == std::string::npos) return std::nullopt;
  const std::string rest = stem.substr(at + 5);
  const std::size_t of = rest.find("of");
  const auto digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 9 &&
           std::all_of(s.begin(), s.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
  };
  if (of == std::string::npos || !digits(rest.substr(0, of)) || !digits(rest.substr(of + 2)))
    return std::nullopt;
  return PieceName{stem.substr(0, at), std::stoi(rest.substr(0, of)),
                   std::stoi(rest.substr(of + 2))};
}

}  // namespace

std::vector<PieceFile> find_pieces(std::filesystem::path logical) {
  namespace fs = std::filesystem;
  // A piece named on the command line stands for its whole checkpoint.
  if (const auto named = parse_piece_stem(logical.stem().string()))
    logical = logical.parent_path() / (named->stem + logical.extension().string());
  const fs::path dir = logical.parent_path().empty() ? fs::path(".") : logical.parent_path();
  const std::string stem = logical.stem().string(), ext = logical.extension().string();
  std::error_code ec;
  const bool serial = fs::is_regular_file(logical, ec);
  std::map<int, std::map<int, fs::path>> by_ranks;  // ranks -> rank -> file
  if (fs::is_directory(dir, ec))
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (e.path().extension().string() != ext) continue;
      const auto p = parse_piece_stem(e.path().stem().string());
      if (p && p->stem == stem) by_ranks[p->ranks][p->rank] = e.path();
    }
  const std::string pattern = stem + ".rankRRRRofSSSS" + ext;
  if (!serial && by_ranks.empty())
    throw std::runtime_error("no such file (nor pieces " + pattern +
                             " of a checkpoint written on several MPI ranks)");
  if (serial && !by_ranks.empty())
    throw std::runtime_error("both this serial checkpoint and pieces " + pattern + " written on " +
                             std::to_string(by_ranks.begin()->first) +
                             " MPI ranks exist; remove the ones not meant");
  if (serial) return {{logical, 0, 0}};
  if (by_ranks.size() > 1)
    throw std::runtime_error("pieces " + pattern + " of checkpoints written on " +
                             std::to_string(by_ranks.begin()->first) + " and " +
                             std::to_string(std::next(by_ranks.begin())->first) +
                             " MPI ranks lie side by side; remove the set not meant");
  const auto& [ranks, files] = *by_ranks.begin();
  std::vector<PieceFile> out;
  for (int r = 0; r < ranks; ++r) {
    const auto it = files.find(r);
    if (it == files.end())
      throw std::runtime_error("piece " + stem + piece_suffix(r, ranks) + ext +
                               " is missing (the checkpoint was written on " +
                               std::to_string(ranks) + " MPI ranks; " +
                               std::to_string(files.size()) + " of its pieces are there)");
    out.push_back({it->second, r, ranks});
  }
  if (int(files.size()) != ranks)
    throw std::runtime_error("piece " + files.rbegin()->second.filename().string() +
                             " does not belong to a checkpoint written on " +
                             std::to_string(ranks) + " MPI ranks");
  return out;
}

}  // namespace checkpoint_detail

std::filesystem::path checkpoint_piece_path(const std::filesystem::path& path) {
  if (parallel::size() == 1) return path;
  return path.parent_path() / (path.stem().string() +
                               checkpoint_detail::piece_suffix(parallel::rank(), parallel::size()) +
                               path.extension().string());
}

}  // namespace fluxview
