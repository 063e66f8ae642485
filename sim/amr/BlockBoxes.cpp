#include "sim/amr/BlockBoxes.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "sim/core/Parallel.hpp"

namespace fluxview::amr {

namespace {

std::vector<int> pack(const std::vector<BlockBox>& boxes) {
  std::vector<int> out;
  out.reserve(boxes.size() * 4);
  for (const BlockBox& b : boxes) out.insert(out.end(), {b.level, b.idx[0], b.idx[1], b.idx[2]});
  return out;
}

// Boxes from packed quadruples; those of level -1 are padding, skipped.
std::vector<BlockBox> unpack(const std::vector<int>& k) {
  std::vector<BlockBox> out;
  for (std::size_t i = 0; i + 3 < k.size(); i += 4)
    if (k[i] >= 0) out.push_back({k[i], {k[i + 1], k[i + 2], k[i + 3]}});
  return out;
}

}  // namespace

std::vector<BlockBox> gather_boxes_to_root(const std::vector<BlockBox>& mine) {
  const std::vector<int> packed = pack(mine);
  const std::vector<unsigned char> bytes =
      parallel::gather_to_root(packed.data(), packed.size(), int(sizeof(int)));
  std::vector<int> all(bytes.size() / sizeof(int));
  if (!all.empty()) std::memcpy(all.data(), bytes.data(), all.size() * sizeof(int));
  return unpack(all);
}

std::vector<BlockBox> allgather_boxes(const std::vector<BlockBox>& mine) {
  // parallel::allgather takes lists of one length: each rank's padded to the longest.
  std::vector<int> packed = pack(mine);
  const std::vector<int> counts = parallel::allgather(std::vector<int>{int(packed.size())});
  packed.resize(std::size_t(*std::max_element(counts.begin(), counts.end())), -1);
  return unpack(parallel::allgather(packed));
}

}  // namespace fluxview::amr
