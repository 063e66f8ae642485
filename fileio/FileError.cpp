#include "fileio/FileError.hpp"

#include <cstring>
#include <type_traits>
#include <utility>

namespace fluxview {

std::string os_error_text(int error) {
  char buf[256] = {};
  // GNU strerror_r returns the text (which may not be buf); the XSI one fills buf.
  const auto r = strerror_r(error, buf, sizeof buf);
  if constexpr (std::is_same_v<std::decay_t<decltype(r)>, char*>)
    return r ? std::string(r) : "error " + std::to_string(error);
  else
    return r == 0 ? std::string(buf) : "error " + std::to_string(error);
}

FileError::FileError(const std::string& action, std::filesystem::path path, int error)
    : std::runtime_error(action + " '" + path.string() + "' failed: " + os_error_text(error)),
      path_(std::move(path)),
      error_(error) {}

FileError::FileError(std::filesystem::path path, int error, const std::string& message)
    : std::runtime_error(message), path_(std::move(path)), error_(error) {}

std::string FileError::reason() const {
  return os_error_text(error_);
}

}  // namespace fluxview
