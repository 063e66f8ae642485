#pragma once
#include <filesystem>
#include <stdexcept>
#include <string>

namespace fluxview {

// A failed operation on a file or folder: the message names the file, what was being done
// and the operating system's error ("writing 'out/run.json' failed: No space left on
// device"); path() and error() (an errno value) let callers say it their own way.
class FileError : public std::runtime_error {
 public:
  // `action` reads as the start of the message: "writing", "creating the folder", ...
  FileError(const std::string& action, std::filesystem::path path, int error);
  // A message of the caller's own, still naming path and error for path() and error().
  FileError(std::filesystem::path path, int error, const std::string& message);
  const std::filesystem::path& path() const { return path_; }
  int error() const { return error_; }
  // The operating system's text for error(): "No space left on device".
  std::string reason() const;

 private:
  std::filesystem::path path_;
  int error_ = 0;
};

// strerror() of an errno value, thread-safe.
std::string os_error_text(int error);

}  // namespace fluxview
