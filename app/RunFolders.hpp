#pragma once
// The folders a run writes into (output, checkpoints, frames), each named by the option
// that chose it, so that every message says which option to change.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "fileio/FolderLock.hpp"

namespace fluxview::app {

struct RunFolder {
  std::filesystem::path dir;
  std::string option;  // "--output", "--checkpoint-dir", "--render-dir"
};

// Takes the folders of a run: checks every one before anything is made (each must be a
// writable folder or creatable), then creates them, takes the lock of each (one run per
// output folder; a folder inside another one locked here is covered by it) and removes the
// temporaries ended runs left there. Throws ConfigError (exit 2) naming the option, the
// folder and the operating system's error, or the process that holds a lock; a refused run
// leaves no folder it made. Collective under MPI: rank 0 checks, creates and locks, and
// every rank gets its outcome; the other ranks then create the folders too (for a disk of
// their own node). The locks are held until the object is destroyed or the process ends.
class RunFolders {
 public:
  RunFolders(const std::vector<RunFolder>& folders, bool quiet);

 private:
  std::vector<std::unique_ptr<FolderLock>> locks_;
};

}  // namespace fluxview::app
