// A full disk (or a kill in the middle of a write) without root and without a full disk:
// an LD_PRELOAD library that lets writes to chosen files fail. fluxview's own files go
// through write(); HDF5's sec2 driver writes with pwrite(); both are intercepted here,
// with writev, pwritev and fsync.
//
//   FLUXVIEW_FAULT_PATH   a substring of the file's path (as /proc/self/fd/N names it);
//                         only writes to such files count and fail. Required.
//   FLUXVIEW_FAULT_AFTER  bytes that may still be written to such files, in all (default 0).
//                         The write that crosses the limit is cut short there (a short
//                         write, as a filling disk does), the next ones fail.
//   FLUXVIEW_FAULT_ACTION enospc (default): fail with ENOSPC, and fsync of such a file
//                         fails too once the limit is reached (delayed allocation);
//                         eio: the same with EIO;
//                         kill: the process is killed by SIGKILL at the limit, leaving
//                         the file half written;
//                         fsync: every write goes through, but fsync of such a file fails
//                         with EIO (a write-back error only the sync reports).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static const char* fault_path(void) {
  static const char* path = NULL;
  static int read = 0;
  if (!read) {
    path = getenv("FLUXVIEW_FAULT_PATH");
    read = 1;
  }
  return path && *path ? path : NULL;
}

// Bytes left before the fault; -1 until read from the environment.
static long long g_left = -1;

static long long* bytes_left(void) {
  if (__atomic_load_n(&g_left, __ATOMIC_SEQ_CST) < 0) {
    const char* s = getenv("FLUXVIEW_FAULT_AFTER");
    long long v = s ? atoll(s) : 0;
    long long unset = -1;
    __atomic_compare_exchange_n(&g_left, &unset, v < 0 ? 0 : v, 0, __ATOMIC_SEQ_CST,
                                __ATOMIC_SEQ_CST);
  }
  return &g_left;
}

static int action_is(const char* name);

static int fault_errno(void) {
  return action_is("eio") || action_is("fsync") ? EIO : ENOSPC;
}

static int action_is(const char* name) {
  const char* a = getenv("FLUXVIEW_FAULT_ACTION");
  return a && strcmp(a, name) == 0;
}

static int kills(void) {
  return action_is("kill");
}

static int matches(int fd) {
  const char* want = fault_path();
  if (!want || fd < 0) return 0;
  char link[64], target[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = readlink(link, target, sizeof target - 1);
  if (n <= 0) return 0;
  target[n] = '\0';
  return strstr(target, want) != NULL;
}

// How many of `count` bytes may go to `fd`: all of them, fewer (the limit cuts the write
// short), or none (-1 with errno set, or the process killed).
static ssize_t allowed(int fd, size_t count) {
  if (count == 0 || action_is("fsync") || !matches(fd)) return (ssize_t)count;
  long long* left = bytes_left();
  long long have = __atomic_load_n(left, __ATOMIC_SEQ_CST);
  for (;;) {
    if (have <= 0) {
      if (kills()) raise(SIGKILL);
      errno = fault_errno();
      return -1;
    }
    const long long take = (long long)count < have ? (long long)count : have;
    if (__atomic_compare_exchange_n(left, &have, have - take, 0, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST))
      return (ssize_t)take;
  }
}

// The real function behind an intercepted one, looked up once.
#define NEXT(name, type)          \
  static type next_##name = NULL; \
  if (!next_##name) next_##name = (type)dlsym(RTLD_NEXT, #name)

typedef ssize_t (*write_fn)(int, const void*, size_t);
typedef ssize_t (*pwrite_fn)(int, const void*, size_t, off_t);
typedef ssize_t (*writev_fn)(int, const struct iovec*, int);
typedef ssize_t (*pwritev_fn)(int, const struct iovec*, int, off_t);
typedef int (*sync_fn)(int);

ssize_t write(int fd, const void* buf, size_t count) {
  NEXT(write, write_fn);
  const ssize_t n = allowed(fd, count);
  if (n < 0) return -1;
  return next_write(fd, buf, (size_t)n);
}

ssize_t pwrite(int fd, const void* buf, size_t count, off_t offset) {
  NEXT(pwrite, pwrite_fn);
  const ssize_t n = allowed(fd, count);
  if (n < 0) return -1;
  return next_pwrite(fd, buf, (size_t)n, offset);
}

ssize_t pwrite64(int fd, const void* buf, size_t count, off_t offset) {
  NEXT(pwrite64, pwrite_fn);
  const ssize_t n = allowed(fd, count);
  if (n < 0) return -1;
  return next_pwrite64(fd, buf, (size_t)n, offset);
}

// Vector writes are cut to the allowed bytes by writing the first buffers only.
static int cut_iov(const struct iovec* iov, int iovcnt, size_t keep, struct iovec* out) {
  int n = 0;
  for (int i = 0; i < iovcnt && keep > 0; ++i, ++n) {
    out[n] = iov[i];
    if (out[n].iov_len > keep) out[n].iov_len = keep;
    keep -= out[n].iov_len;
  }
  return n;
}

static size_t iov_bytes(const struct iovec* iov, int iovcnt) {
  size_t total = 0;
  for (int i = 0; i < iovcnt; ++i) total += iov[i].iov_len;
  return total;
}

ssize_t writev(int fd, const struct iovec* iov, int iovcnt) {
  NEXT(writev, writev_fn);
  if (iovcnt <= 0 || iovcnt > 1024) return next_writev(fd, iov, iovcnt);
  const ssize_t n = allowed(fd, iov_bytes(iov, iovcnt));
  if (n < 0) return -1;
  struct iovec cut[1024];
  return next_writev(fd, cut, cut_iov(iov, iovcnt, (size_t)n, cut));
}

ssize_t pwritev(int fd, const struct iovec* iov, int iovcnt, off_t offset) {
  NEXT(pwritev, pwritev_fn);
  if (iovcnt <= 0 || iovcnt > 1024) return next_pwritev(fd, iov, iovcnt, offset);
  const ssize_t n = allowed(fd, iov_bytes(iov, iovcnt));
  if (n < 0) return -1;
  struct iovec cut[1024];
  return next_pwritev(fd, cut, cut_iov(iov, iovcnt, (size_t)n, cut), offset);
}

static int sync_fails(int fd) {
  if (action_is("fsync")) return matches(fd);
  return matches(fd) && __atomic_load_n(bytes_left(), __ATOMIC_SEQ_CST) <= 0 && !kills();
}

int fsync(int fd) {
  NEXT(fsync, sync_fn);
  if (sync_fails(fd)) {
    errno = fault_errno();
    return -1;
  }
  return next_fsync(fd);
}

int fdatasync(int fd) {
  NEXT(fdatasync, sync_fn);
  if (sync_fails(fd)) {
    errno = fault_errno();
    return -1;
  }
  return next_fdatasync(fd);
}
