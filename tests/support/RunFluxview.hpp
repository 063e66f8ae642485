#pragma once
// Runs the fluxview executable the way a user does, for tests of the command line.
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <string>

namespace fluxview::test {

struct CommandResult {
  int code = -1;    // exit status (the shell's: 128 + S for a process killed by signal S)
  int signal = 0;   // S when the status says so (any status above 130), else 0
  std::string out;  // stdout and stderr together
};

// `args` is appended to the executable's path (FLUXVIEW_EXE) and run through the shell;
// `prefix` goes before it (environment settings, `timeout`, ...).
inline CommandResult run_fluxview(const std::string& args, const std::string& prefix = "") {
  const std::string cmd = prefix + std::string(FLUXVIEW_EXE) + " " + args + " 2>&1";
  CommandResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), buf.size(), p)) r.out += buf.data();
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  // fluxview's own codes end at 130 (interrupted); the shell reports a kill as 128 + S.
  if (r.code > 130 && r.code < 128 + 65) r.signal = r.code - 128;
  return r;
}

// Starts fluxview in the background (stdout and stderr to `log`); returns its pid.
inline pid_t spawn_fluxview(const std::string& args, const std::string& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    const std::string cmd = "exec " + std::string(FLUXVIEW_EXE) + " " + args + " >" + log + " 2>&1";
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

// Waits for a spawned process; its exit status, or 128 + the signal that ended it.
inline int wait_for_exit(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace fluxview::test
