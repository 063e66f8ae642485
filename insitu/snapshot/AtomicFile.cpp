#include "insitu/snapshot/AtomicFile.hpp"

#include <unistd.h>
#include <system_error>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

#include "sim/core/ConfigError.hpp"

namespace fluxview {

namespace fs = std::filesystem;

void write_file_atomic(const fs::path& path, const std::function<void(std::ostream&)>& write) {
  const fs::path tmp = path.string() + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw std::runtime_error("cannot write '" + tmp.string() + "': " + std::strerror(errno));
    try {
      write(out);
    } catch (...) {
      out.close();
      std::error_code ec;
      fs::remove(tmp, ec);
      throw;
    }
    out.flush();
    if (!out) {
      out.close();
      std::error_code ec;
      fs::remove(tmp, ec);
      throw std::runtime_error("writing '" + path.string() + "' failed (disk full?)");
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error("cannot move '" + tmp.string() + "' to '" + path.string() +
                             "': " + ec.message());
  }
}

void prepare_output_dir(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw ConfigError("--output " + dir.string() +
                      ": exists and is not a directory; allowed: a writable directory");
  fs::create_directories(dir, ec);
  if (ec)
    throw ConfigError("--output " + dir.string() + ": cannot create the directory (" +
                      ec.message() + "); allowed: a writable directory");
  const fs::path probe = dir / (".fluxview-probe-" + std::to_string(::getpid()));
  std::ofstream out(probe);
  const bool ok = bool(out << "probe");
  out.close();
  fs::remove(probe, ec);
  if (!ok)
    throw ConfigError("--output " + dir.string() + ": the directory is not writable (" +
                      std::strerror(errno) + "); allowed: a writable directory");
}

}  // namespace fluxview
