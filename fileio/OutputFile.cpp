#include "fileio/OutputFile.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <string>
#include <utility>

#include <cerrno>

#include "fileio/FileError.hpp"

namespace fluxview {

OutputFile::OutputFile(const std::filesystem::path& path, std::filesystem::path name)
    : name_(std::move(name)) {
  do {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0) throw FileError("creating", name_, errno);
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
}

void OutputFile::write(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(fd_, p, bytes);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw FileError("writing", name_, errno);
    }
    // write() returning 0 for a non-zero count means no progress can be made; POSIX
    // leaves the reason open, and a full disk is by far the likeliest.
    if (n == 0) throw FileError("writing", name_, ENOSPC);
    p += n;
    bytes -= std::size_t(n);
    written_ += std::size_t(n);
  }
}

void OutputFile::sync() {
  if (::fsync(fd_) != 0) throw FileError("writing (fsync)", name_, errno);
}

void OutputFile::close() {
  const int fd = fd_;
  fd_ = -1;
  // On Linux the descriptor is gone even when close() fails, so it is never retried; a
  // failure here (EIO, ENOSPC on NFS) still means the data may not be there.
  if (::close(fd) != 0 && errno != EINTR) throw FileError("writing (close)", name_, errno);
}

void sync_file(const std::filesystem::path& path, const std::filesystem::path& name) {
  int fd = -1;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) throw FileError("opening to sync", name, errno);
  if (::fsync(fd) != 0) {
    const int e = errno;
    ::close(fd);
    throw FileError("writing (fsync)", name, e);
  }
  if (::close(fd) != 0 && errno != EINTR) throw FileError("writing (close)", name, errno);
}

void sync_folder(const std::filesystem::path& dir) {
  const std::filesystem::path d = dir.empty() ? std::filesystem::path(".") : dir;
  int fd = -1;
  do {
    fd = ::open(d.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) throw FileError("opening the folder", d, errno);
  // Some file systems cannot sync a folder (EINVAL); what they do keeps renames anyway.
  if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
    const int e = errno;
    ::close(fd);
    throw FileError("syncing the folder", d, e);
  }
  ::close(fd);
}

}  // namespace fluxview
