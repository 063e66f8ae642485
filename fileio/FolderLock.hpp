#pragma once
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace fluxview {

// Who holds a folder's lock, as the holder wrote it into the lock file.
struct LockHolder {
  long pid = 0;
  std::string host;
  std::string started;           // UTC, ISO 8601
  std::string describe() const;  // "process 4711 on host node1, started 2026-11-22T21:30:00Z"
};

// Another process holds the lock.
class FolderBusy : public std::runtime_error {
 public:
  FolderBusy(const std::filesystem::path& dir, LockHolder holder);
  const LockHolder& holder() const { return holder_; }

 private:
  LockHolder holder_;
};

// One run per output folder: an advisory lock (flock, exclusive) on DIR/.fluxview.lock,
// held as long as this object lives, and released by the kernel when the process ends in
// any way (SIGKILL and the OOM killer included), so a lock is never left stale. The lock
// file holds the holder's pid, host and start time; it stays in the folder (removing it
// would let two processes lock two different files of the same name).
class FolderLock {
 public:
  static constexpr const char* kFileName = ".fluxview.lock";
  // Takes the lock of the existing folder `dir`. Throws FolderBusy when another process
  // (or another FolderLock of this one) holds it, FileError when the file cannot be used.
  explicit FolderLock(const std::filesystem::path& dir);
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;
  const std::filesystem::path& dir() const { return dir_; }

  // For readers (tests, tools): who holds the lock of `dir` now; nothing when no live
  // process does (no lock file, or its holder has ended).
  static std::optional<LockHolder> holder(const std::filesystem::path& dir);
  // For a window that writes now and then (the GUI's snapshots and frames): the lock of
  // `dir`, or none where this process holds it already (one window's snapshots and frames
  // may share a folder). Throws as the constructor does for any other holder.
  static std::unique_ptr<FolderLock> unless_held_here(const std::filesystem::path& dir);

 private:
  std::filesystem::path dir_;
  int fd_ = -1;
};

// This machine's host name (for run.json and the lock file).
std::string host_name();
// The current time as UTC ISO 8601 ("2026-11-22T21:30:00Z").
std::string utc_now();

}  // namespace fluxview
