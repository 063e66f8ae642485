// Ancestors are built level by level from the deepest: a piece that is complete (a leaf,
// or an ancestor all of whose children were found) adds the average of its cells into its
// octant of its parent. An ancestor missing children (they are on another rank under
// MPI) is dropped before it can feed its own parent; the root builds those from the
// complete pieces below them, which every rank sends it (add_split_ancestors), adding
// children in the same order, so the files are the same on any rank count.
#include "insitu/snapshot/AmrPieces.hpp"

#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/amr/BlockBoxes.hpp"
#include "sim/core/Parallel.hpp"

namespace fluxview {

namespace {

using Key = std::tuple<int, int, int, int>;  // level, z, y, x: sorts as the file lists them

Key key_of(int level, const std::array<int, 3>& idx) {
  return {level, idx[2], idx[1], idx[0]};
}

// Adds `weight` times each cell of a child block into the cells of its parent it lies in;
// the child covers half the parent along each active axis (`octant` says which half).
template <class T>
void add_child(const HostArray& child, HostArray& parent, const std::array<int, 3>& n,
               const std::array<int, 3>& octant, const std::array<bool, 3>& active, double weight) {
  const T* c = reinterpret_cast<const T*>(child.bytes.data());
  T* p = reinterpret_cast<T*>(parent.bytes.data());
  for (int k = 0; k < n[2]; ++k)
    for (int j = 0; j < n[1]; ++j)
      for (int i = 0; i < n[0]; ++i) {
        const int pi = active[0] ? octant[0] * n[0] / 2 + i / 2 : i;
        const int pj = active[1] ? octant[1] * n[1] / 2 + j / 2 : j;
        const int pk = active[2] ? octant[2] * n[2] / 2 + k / 2 : k;
        const std::size_t to =
            (std::size_t(pk) * std::size_t(n[1]) + std::size_t(pj)) * std::size_t(n[0]) +
            std::size_t(pi);
        const std::size_t from =
            (std::size_t(k) * std::size_t(n[1]) + std::size_t(j)) * std::size_t(n[0]) +
            std::size_t(i);
        p[to] = T(double(p[to]) + weight * double(c[from]));
      }
}

// A 1D block's values repeated across the strip: `rows` copies along `axis` (x fastest).
HostArray across_strip(const HostArray& line, const std::array<int, 3>& n, int axis, int rows) {
  const std::size_t size = line.precision == Precision::f64 ? 8 : 4;
  std::array<int, 3> m = n;
  m[std::size_t(axis)] = rows;
  HostArray out;
  out.precision = line.precision;
  out.n = m;
  out.bytes.resize(std::size_t(m[0]) * std::size_t(m[1]) * std::size_t(m[2]) * size);
  std::size_t to = 0;
  for (int k = 0; k < m[2]; ++k)
    for (int j = 0; j < m[1]; ++j)
      for (int i = 0; i < m[0]; ++i, to += size) {
        const int c[3] = {axis == 0 ? 0 : i, axis == 1 ? 0 : j, axis == 2 ? 0 : k};
        const std::size_t from =
            ((std::size_t(c[2]) * std::size_t(n[1]) + std::size_t(c[1])) * std::size_t(n[0]) +
             std::size_t(c[0])) *
            size;
        std::memcpy(out.bytes.data() + to, line.bytes.data() + from, size);
      }
  return out;
}

}  // namespace

std::vector<AmrPiece> amr_pieces(const std::vector<amr::BlockBox>& leaves,
                                 const std::vector<HostArray>& fields, std::array<int, 3> block) {
  std::array<bool, 3> active{};
  int dims = 0;
  for (int a = 0; a < 3; ++a) {
    active[a] = block[a] > 1;
    dims += active[a];
    if (active[a] && block[a] % 2 != 0)
      throw std::invalid_argument("amr_pieces: a block's cells must be even along every axis");
  }
  const std::size_t cells = std::size_t(block[0]) * std::size_t(block[1]) * std::size_t(block[2]);
  const int children = 1 << dims;
  const double weight = 1.0 / double(children);

  std::map<Key, AmrPiece> pieces;
  std::map<Key, int> found;  // children found per ancestor
  int deepest = 0;
  for (std::size_t b = 0; b < leaves.size(); ++b) {
    AmrPiece p;
    p.level = leaves[b].level;
    p.idx = leaves[b].idx;
    for (const HostArray& f : fields) {
      HostArray v;
      v.precision = f.precision;
      v.n = block;
      const std::size_t bytes = cells * (f.precision == Precision::f64 ? 8 : 4);
      v.bytes.assign(f.bytes.begin() + std::ptrdiff_t(b * bytes),
                     f.bytes.begin() + std::ptrdiff_t((b + 1) * bytes));
      p.values.push_back(std::move(v));
    }
    deepest = std::max(deepest, p.level);
    pieces.emplace(key_of(p.level, p.idx), std::move(p));
  }

  for (int level = deepest; level > 0; --level) {
    for (auto& [key, child] : pieces) {
      if (child.level != level) continue;
      if (!child.leaf && found[key] != children) continue;  // incomplete: not this rank's
      std::array<int, 3> up{}, octant{};
      for (int a = 0; a < 3; ++a) {
        up[a] = active[a] ? child.idx[a] / 2 : 0;
        octant[a] = active[a] ? child.idx[a] % 2 : 0;
      }
      const Key parent_key = key_of(level - 1, up);
      auto it = pieces.find(parent_key);
      if (it == pieces.end()) {
        AmrPiece parent;
        parent.level = level - 1;
        parent.idx = up;
        parent.leaf = false;
        for (const HostArray& v : child.values) {
          HostArray zero;
          zero.precision = v.precision;
          zero.n = block;
          zero.bytes.assign(v.bytes.size(), 0);  // all-zero bytes are 0.0 in float and double
          parent.values.push_back(std::move(zero));
        }
        it = pieces.emplace(parent_key, std::move(parent)).first;
      }
      AmrPiece& parent = it->second;
      if (parent.leaf) throw std::logic_error("amr_pieces: a leaf has leaves below it");
      for (std::size_t f = 0; f < child.values.size(); ++f) {
        if (child.values[f].precision == Precision::f64)
          add_child<double>(child.values[f], parent.values[f], block, octant, active, weight);
        else
          add_child<float>(child.values[f], parent.values[f], block, octant, active, weight);
      }
      ++found[parent_key];
    }
  }

  std::vector<AmrPiece> out;
  out.reserve(pieces.size());
  for (auto& [key, p] : pieces)
    if (p.leaf || found[key] == children) out.push_back(std::move(p));
  return out;
}

namespace {

// Under MPI: the ancestors whose leaves lie on several ranks, added to the root's pieces.
// Every rank sends the root its complete pieces whose parent it could not build (their
// level, position and values); from those the root builds the missing ancestors as
// amr_pieces builds any, and keeps only those. Collective.
void add_split_ancestors(std::vector<AmrPiece>& pieces, const std::array<int, 3>& block,
                         const std::vector<Precision>& precisions) {
  if (parallel::size() == 1) return;
  std::map<Key, bool> have;
  for (const AmrPiece& p : pieces) have[key_of(p.level, p.idx)] = true;
  std::vector<amr::BlockBox> keys;
  std::vector<const AmrPiece*> orphans;
  for (const AmrPiece& p : pieces) {
    if (p.level == 0) continue;
    std::array<int, 3> up{};
    for (int a = 0; a < 3; ++a)
      up[std::size_t(a)] = block[std::size_t(a)] > 1 ? p.idx[std::size_t(a)] / 2 : 0;
    if (have.count(key_of(p.level - 1, up))) continue;
    keys.push_back({p.level, p.idx});
    orphans.push_back(&p);
  }
  const std::vector<amr::BlockBox> boxes = amr::gather_boxes_to_root(keys);
  const std::size_t cells = std::size_t(block[0]) * std::size_t(block[1]) * std::size_t(block[2]);
  std::vector<HostArray> values(precisions.size());
  for (std::size_t f = 0; f < values.size(); ++f) {
    std::vector<unsigned char> mine;
    for (const AmrPiece* p : orphans)
      mine.insert(mine.end(), p->values[f].bytes.begin(), p->values[f].bytes.end());
    const int size = precisions[f] == Precision::f64 ? 8 : 4;
    values[f].precision = precisions[f];
    values[f].bytes = parallel::gather_to_root(mine.data(), mine.size() / std::size_t(size), size);
  }
  if (!parallel::is_root() || boxes.empty()) return;
  for (HostArray& v : values) v.n = {int(cells), int(boxes.size()), 1};
  for (AmrPiece& p : amr_pieces(boxes, values, block))
    if (!p.leaf) pieces.push_back(std::move(p));
  std::sort(pieces.begin(), pieces.end(), [](const AmrPiece& a, const AmrPiece& b) {
    return key_of(a.level, a.idx) < key_of(b.level, b.idx);
  });
}

}  // namespace

std::vector<amr::BlockBox> piece_boxes(const std::vector<AmrPiece>& pieces) {
  std::vector<amr::BlockBox> out;
  out.reserve(pieces.size());
  for (const AmrPiece& p : pieces) out.push_back({p.level, p.idx});
  return out;
}

AmrVtkGeometry amr_vtk_geometry(const amr::Hierarchy& h) {
  AmrVtkGeometry g;
  g.block = h.block_cells();
  g.top = h.top_cells();
  g.length = h.lengths();
  g.choose_strip_axis();
  return g;
}

std::vector<AmrPiece> amr_vtk_pieces(const amr::Hierarchy& h, const std::vector<std::string>& names,
                                     const AmrVtkGeometry& g) {
  std::vector<HostArray> leaf_values;
  for (const std::string& name : names) leaf_values.push_back(h.block_values(name));
  std::vector<AmrPiece> pieces = amr_pieces(h.local_blocks(), leaf_values, g.block);
  std::vector<Precision> precisions;
  for (const HostArray& v : leaf_values) precisions.push_back(v.precision);
  add_split_ancestors(pieces, g.block, precisions);
  if (g.strip_axis >= 0)
    for (AmrPiece& p : pieces)
      for (HostArray& v : p.values) v = across_strip(v, g.block, g.strip_axis, 1 << p.level);
  return pieces;
}

}  // namespace fluxview
