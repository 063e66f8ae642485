#pragma once
#include <filesystem>
#include <vector>

namespace fluxview {

// Whether a run may write into `dir`, without creating anything: an existing path must be
// a folder this process can write into; a missing one must be creatable, which the nearest
// existing ancestor decides (a folder, writable). Throws FileError naming the path at fault
// (`dir` or that ancestor) and the operating system's error (ENOTDIR, EACCES, EROFS, ...).
void check_folder_writable(const std::filesystem::path& dir);

// Whether a file can be written at `path` (a screenshot): not a folder, and in an existing
// folder this process can write into. Throws FileError naming what is wrong.
void check_file_writable(const std::filesystem::path& path);

// Creates `dir` and any missing parents; returns the folders it made, outermost first
// (so that a run refused later can take them back with remove_created_folders). Throws
// FileError with the operating system's error.
std::vector<std::filesystem::path> create_folder(const std::filesystem::path& dir);
// Removes the folders create_folder made, innermost first, where they are still empty.
void remove_created_folders(const std::vector<std::filesystem::path>& made);

// check_folder_writable, then create_folder (the GUI's snapshot and recording folders).
void prepare_output_dir(const std::filesystem::path& dir);

// Removes the temporaries (NAME.tmp-PID, see AtomicFile.hpp) under `dir`, at any depth,
// whose process is not alive on this machine: what killed runs left behind (and the
// spectrum_NNNNNN.csv.tmp of older versions). Returns the
// paths it removed. Call it holding the folder's lock (FolderLock.hpp), so that no other
// run is writing there.
std::vector<std::filesystem::path> remove_stale_temporaries(const std::filesystem::path& dir);

}  // namespace fluxview
