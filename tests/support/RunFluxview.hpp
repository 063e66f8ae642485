#pragma once
// Runs the fluxview executable the way a user does, for tests of the command line.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace fluxview::test {

struct CommandResult {
  int code = -1;    // exit status
  std::string out;  // stdout and stderr together
};

// `args` is appended to the executable's path (FLUXVIEW_EXE) and run through the shell.
inline CommandResult run_fluxview(const std::string& args, const std::string& prefix = "") {
  const std::string cmd = prefix + std::string(FLUXVIEW_EXE) + " " + args + " 2>&1";
  CommandResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), buf.size(), p)) r.out += buf.data();
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace fluxview::test
