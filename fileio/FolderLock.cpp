#include "fileio/FolderLock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <utility>

#include <cerrno>
#include <ctime>
#include <sstream>

#include "fileio/FileError.hpp"

namespace fluxview {

namespace fs = std::filesystem;

namespace {

int open_lock_file(const fs::path& file, int flags) {
  int fd = -1;
  do {
    fd = ::open(file.c_str(), flags | O_CLOEXEC, 0644);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

LockHolder read_holder(int fd) {
  std::string text;
  char buf[512];
  off_t at = 0;
  for (ssize_t n; (n = ::pread(fd, buf, sizeof buf, at)) > 0; at += n) text.append(buf, n);
  LockHolder h;
  std::istringstream in(text);
  for (std::string key; in >> key;) {
    if (key == "pid")
      in >> h.pid;
    else if (key == "host")
      in >> h.host;
    else if (key == "started")
      in >> h.started;
  }
  return h;
}

}  // namespace

std::string LockHolder::describe() const {
  std::string s = "process " + (pid > 0 ? std::to_string(pid) : std::string("?"));
  if (!host.empty()) s += " on host " + host;
  if (!started.empty()) s += ", started " + started;
  return s;
}

FolderBusy::FolderBusy(const fs::path& dir, LockHolder holder)
    : std::runtime_error("another fluxview run (" + holder.describe() + ") is writing into '" +
                         dir.string() + "'"),
      holder_(std::move(holder)) {}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::unique_ptr<FolderLock> FolderLock::unless_held_here(const fs::path& dir) {
  try {
    return std::make_unique<FolderLock>(dir);
  } catch (const FolderBusy& busy) {
    if (busy.holder().pid == long(::getpid()) && busy.holder().host == host_name()) return nullptr;
    throw;
  }
}

FolderLock::FolderLock(const fs::path& dir) : dir_(dir) {
  const fs::path file = dir / kFileName;
  fd_ = open_lock_file(file, O_RDWR | O_CREAT);
  if (fd_ < 0) throw FileError("creating the lock file", file, errno);
  while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    const int e = errno;
    if (e == EWOULDBLOCK) {
      LockHolder h = read_holder(fd_);
      ::close(fd_);
      fd_ = -1;
      throw FolderBusy(dir, std::move(h));
    }
    ::close(fd_);
    fd_ = -1;
    throw FileError("locking", file, e);
  }
  std::ostringstream text;
  text << "pid " << ::getpid() << "\nhost " << host_name() << "\nstarted " << utc_now() << "\n";
  const std::string s = text.str();
  int e = ::ftruncate(fd_, 0) == 0 ? 0 : errno;
  for (std::size_t done = 0; e == 0 && done < s.size();) {
    const ssize_t n = ::pwrite(fd_, s.data() + done, s.size() - done, off_t(done));
    if (n < 0 && errno == EINTR) continue;
    e = n < 0 ? errno : n == 0 ? ENOSPC : 0;  // no progress: a full disk
    if (n > 0) done += std::size_t(n);
  }
  if (e != 0) {
    ::close(fd_);
    fd_ = -1;
    throw FileError("writing the lock file", file, e);
  }
}

FolderLock::~FolderLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

std::optional<LockHolder> FolderLock::holder(const fs::path& dir) {
  const int fd = open_lock_file(dir / kFileName, O_RDONLY);
  if (fd < 0) return std::nullopt;
  std::optional<LockHolder> h;
  if (::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK)
    h = read_holder(fd);
  else
    ::flock(fd, LOCK_UN);
  ::close(fd);
  return h;
}

}  // namespace fluxview
