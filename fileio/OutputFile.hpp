#pragma once
#include <cstddef>
#include <filesystem>
#include <string>

namespace fluxview {

// A file opened for writing whose every operation is checked: a short write is
// continued, EINTR retried, and any other failure (ENOSPC, EIO, EDQUOT, ...) throws a
// FileError naming `name` (the file the user knows, which may differ from the path
// written, a temporary beside it) and the operating system's error.
class OutputFile {
 public:
  // Creates (or truncates) `path`. Throws FileError.
  OutputFile(const std::filesystem::path& path, std::filesystem::path name);
  ~OutputFile();  // closes without checking; call close() to know that it worked
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(const void* data, std::size_t bytes);
  // Forces the bytes to the disk (fsync), so a rename after it never exposes a file whose
  // data a crash could still lose.
  void sync();
  void close();
  std::size_t bytes_written() const { return written_; }

 private:
  int fd_ = -1;
  std::filesystem::path name_;
  std::size_t written_ = 0;
};

// fsync of a file written by someone else (HDF5): opened, synced, closed, all checked.
void sync_file(const std::filesystem::path& path, const std::filesystem::path& name);
// fsync of a folder, so that a rename in it survives a crash. Throws FileError.
void sync_folder(const std::filesystem::path& dir);

}  // namespace fluxview
