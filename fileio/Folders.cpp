#include "fileio/Folders.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <optional>
#include <string>
#include <system_error>

#include <cerrno>

#include "fileio/AtomicFile.hpp"
#include "fileio/FileError.hpp"

namespace fluxview {

namespace fs = std::filesystem;

namespace {

// stat() of a path: 0, or the errno.
int stat_error(const fs::path& p, struct stat& st) {
  return ::stat(p.c_str(), &st) == 0 ? 0 : errno;
}

bool process_alive(long pid) {
  if (pid <= 0) return false;
  if (pid == long(::getpid())) return true;
  return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

}  // namespace

void check_folder_writable(const fs::path& dir) {
  const fs::path target = dir.empty() ? fs::path(".") : dir;
  struct stat st {};
  int e = stat_error(target, st);
  if (e == 0) {
    if (!S_ISDIR(st.st_mode))
      throw FileError(
          target, ENOTDIR,
          "'" + target.string() + "' exists and is not a folder (" + os_error_text(ENOTDIR) + ")");
    if (::access(target.c_str(), W_OK | X_OK) != 0) {
      e = errno;
      throw FileError(
          target, e,
          "cannot write into the folder '" + target.string() + "' (" + os_error_text(e) + ")");
    }
    return;
  }
  if (e != ENOENT && e != ENOTDIR)
    throw FileError(target, e, "cannot use '" + target.string() + "' (" + os_error_text(e) + ")");
  // Missing (or under a file): the nearest existing ancestor decides, which must be a
  // folder this process can write into.
  fs::path up = fs::absolute(target).lexically_normal();
  if (!up.has_filename()) up = up.parent_path();  // "a/b/" names the folder "a/b"
  do {
    up = up.parent_path();
    e = stat_error(up, st);
  } while ((e == ENOENT || e == ENOTDIR) && up != up.root_path());
  if (e != 0)
    throw FileError(up, e,
                    "cannot create the folder '" + target.string() + "': '" + up.string() +
                        "' cannot be used (" + os_error_text(e) + ")");
  if (!S_ISDIR(st.st_mode))
    throw FileError(up, ENOTDIR,
                    "cannot create the folder '" + target.string() + "': '" + up.string() +
                        "' is not a folder (" + os_error_text(ENOTDIR) + ")");
  if (::access(up.c_str(), W_OK | X_OK) != 0) {
    e = errno;
    throw FileError(up, e,
                    "cannot create the folder '" + target.string() + "': no writing into '" +
                        up.string() + "' (" + os_error_text(e) + ")");
  }
}

void check_file_writable(const fs::path& path) {
  struct stat st {};
  if (stat_error(path, st) == 0 && S_ISDIR(st.st_mode))
    throw FileError(path, EISDIR,
                    "'" + path.string() + "' is a folder (" + os_error_text(EISDIR) + ")");
  const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  if (const int e = stat_error(dir, st); e != 0)
    throw FileError(dir, e,
                    "its folder '" + dir.string() + "' cannot be used (" + os_error_text(e) + ")");
  if (!S_ISDIR(st.st_mode))
    throw FileError(dir, ENOTDIR,
                    "'" + dir.string() + "' is not a folder (" + os_error_text(ENOTDIR) + ")");
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    const int e = errno;
    throw FileError(
        dir, e, "cannot write into the folder '" + dir.string() + "' (" + os_error_text(e) + ")");
  }
}

std::vector<fs::path> create_folder(const fs::path& dir) {
  std::vector<fs::path> made;
  fs::path at;
  for (const fs::path& part : fs::absolute(dir).lexically_normal()) {
    if (part.empty()) continue;
    at /= part;
    if (::mkdir(at.c_str(), 0777) == 0) {
      made.push_back(at);
      continue;
    }
    const int e = errno;
    struct stat st {};
    if (e == EEXIST && stat_error(at, st) == 0 && S_ISDIR(st.st_mode)) continue;
    remove_created_folders(made);
    throw FileError("creating the folder", dir, e == EEXIST ? ENOTDIR : e);
  }
  return made;
}

void remove_created_folders(const std::vector<fs::path>& made) {
  for (auto it = made.rbegin(); it != made.rend(); ++it) ::rmdir(it->c_str());
}

void prepare_output_dir(const fs::path& dir) {
  check_folder_writable(dir);
  create_folder(dir);
}

std::vector<fs::path> remove_stale_temporaries(const fs::path& dir) {
  std::vector<fs::path> removed;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string name = it->path().filename().string();
    const auto owner = temporary_owner(name);
    // spectrum_NNNNNN.csv.tmp (no process id) is what older versions left of a spectrum.
    const bool legacy = name.starts_with("spectrum_") && name.ends_with(".csv.tmp");
    if ((owner && !process_alive(*owner)) || legacy) {
      std::error_code rm;
      if (fs::remove(it->path(), rm)) removed.push_back(it->path());
    }
  }
  return removed;
}

}  // namespace fluxview
