#pragma once
// Work that may fail on some MPI ranks only (a piece of a snapshot or checkpoint that does
// not fit on its disk, a file only rank 0 writes): every rank learns the first failure and
// throws it, of the same kind, instead of leaving the others waiting in the next
// collective. Trivial on one rank.
#include <cerrno>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "fileio/FileError.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Parallel.hpp"
#include "sim/core/Solver.hpp"

namespace fluxview {

namespace every_rank_detail {

// The kind of an error travels as its first character: C(onfig), I(nstability),
// F(ile, followed by the errno and a space), R(un-time).
inline std::string encode(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const ConfigError& x) {
    return std::string("C") + x.what();
  } catch (const InstabilityError& x) {
    return std::string("I") + x.what();
  } catch (const FileError& x) {
    return "F" + std::to_string(x.error()) + " " + x.what();
  } catch (const std::exception& x) {
    return std::string("R") + x.what();
  }
}

[[noreturn]] inline void rethrow(const std::string& first) {
  const std::string text = first.substr(1);
  switch (first[0]) {
    case 'C':
      throw ConfigError(text);
    case 'I':
      throw InstabilityError(text);
    case 'F': {
      const std::size_t space = text.find(' ');
      const int error = std::atoi(text.substr(0, space).c_str());
      throw FileError(std::filesystem::path(), error ? error : EIO, text.substr(space + 1));
    }
    default:
      throw std::runtime_error(text);
  }
}

}  // namespace every_rank_detail

// Runs `f` on every rank; if it throws on any, every rank throws the error of the lowest
// failing rank. Collective under MPI. Returns what `f` returns.
template <class F>
auto on_every_rank(F&& f) -> decltype(f()) {
  using R = decltype(f());
  std::string error;
  if constexpr (std::is_void_v<R>) {
    try {
      f();
    } catch (...) {
      error = every_rank_detail::encode(std::current_exception());
    }
    const std::string first = parallel::first_error(error);
    if (!first.empty()) every_rank_detail::rethrow(first);
  } else {
    std::optional<R> result;
    try {
      result.emplace(f());
    } catch (...) {
      error = every_rank_detail::encode(std::current_exception());
    }
    const std::string first = parallel::first_error(error);
    if (!first.empty()) every_rank_detail::rethrow(first);
    return std::move(*result);
  }
}

}  // namespace fluxview
