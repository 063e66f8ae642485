#pragma once
#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace fluxview {

// Files are written so that a reader sees the old file or the whole new one, never a
// part, and a failure leaves the old one in place: the bytes go to a temporary beside
// the target (TARGET.tmp-PID), every write checked, then the temporary is fsync'ed,
// renamed over the target and the folder fsync'ed. On any failure the temporary is
// removed and a FileError names the target and the operating system's error
// ("writing 'out/snapshot_000010.vti' failed: No space left on device").

// Writes through a std::ostream; whatever `write` streams is checked as it goes.
void write_file_atomic(const std::filesystem::path& path,
                       const std::function<void(std::ostream&)>& write);

// For a library that writes a file by its name (HDF5): `write` creates the temporary at
// the path it is handed; it is then synced, `verify` (if given) reads it back and throws
// when it is not what was meant, and only then does it replace the target.
void write_file_atomic_by_name(
    const std::filesystem::path& path,
    const std::function<void(const std::filesystem::path& temporary)>& write,
    const std::function<void(const std::filesystem::path& temporary)>& verify = {});

// The two halves of write_file_atomic_by_name, for writers that must all succeed before
// any of their files replaces an older one (the pieces of a checkpoint under MPI, one a
// rank): write() makes, syncs and verifies the temporary, commit() renames it over the
// target and syncs the folder. A temporary not committed is removed with the object.
class StagedFile {
 public:
  explicit StagedFile(std::filesystem::path path);
  ~StagedFile();
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;
  void write(const std::function<void(const std::filesystem::path& temporary)>& write,
             const std::function<void(const std::filesystem::path& temporary)>& verify = {});
  void commit();

 private:
  std::filesystem::path path_, tmp_;
  bool committed_ = false;
};

// The temporary `path` is written to: PATH.tmp-PID.
std::filesystem::path temporary_path(const std::filesystem::path& path);
// The process id in the name of such a temporary ("run.json.tmp-4711" -> 4711); nothing
// for any other name.
std::optional<long> temporary_owner(const std::string& filename);

}  // namespace fluxview
