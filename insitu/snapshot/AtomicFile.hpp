#pragma once
#include <filesystem>
#include <functional>
#include <ostream>

namespace fluxview {

// Writes a file so that readers see the old one or the whole new one, never a part:
// the bytes go to a temporary file beside it, which is renamed over the target once
// flushed. Throws std::runtime_error naming the path on any failure.
void write_file_atomic(const std::filesystem::path& path,
                       const std::function<void(std::ostream&)>& write);

// Creates `dir` if needed and proves it writable (by writing and removing a probe
// file), before a run starts. Throws ConfigError naming the directory and the reason.
void prepare_output_dir(const std::filesystem::path& dir);

}  // namespace fluxview
