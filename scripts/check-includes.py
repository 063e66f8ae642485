#!/usr/bin/env python3
"""Fails when a project file uses a C++ standard library name without including its header.

Why: Debian 12's libstdc++ 12 pulls <cstdint>, <string>, <stdexcept> and others in
through unrelated headers, so a file that forgets them builds here and fails with
GCC 13's stricter headers (Ubuntu 24.04, Debian 13, the GPU machine). Neither GCC 12 nor
clang 14 on this machine can see that; include-what-you-use (Debian's `iwyu`) can, since
it asks for the header that declares each name a file uses.

Only missing *standard* headers fail the check: those are what differs between standard
library versions. What IWYU says about the project's own or third-party headers, and
which includes it would remove, is advice we do not enforce.

usage: check-includes.py BUILD_DIR [--fix] [--jobs N]
  BUILD_DIR  a configured build folder with compile_commands.json
  --fix      add the missing includes to the files (then run clang-format)

C++ sources are checked from the compilation database (with every project header they
include, through --check_also). CUDA sources (.cu, .cuh) are not: IWYU's clang cannot parse
this CUDA version's headers; the headers they share with C++ sources are checked there, and
scripts/check-cuda-archs.sh compiles every .cu file for the oldest and newest architecture.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

# The C++ standard library headers (C++20), the ones a libstdc++ upgrade can stop providing
# transitively.
STD_HEADERS = set("""
algorithm any array atomic barrier bit bitset cassert cctype cerrno cfenv cfloat charconv
chrono cinttypes climits clocale cmath codecvt compare complex concepts condition_variable
coroutine csetjmp csignal cstdarg cstddef cstdint cstdio cstdlib cstring ctime cuchar cwchar
cwctype deque exception execution filesystem format forward_list fstream functional future
initializer_list iomanip ios iosfwd iostream istream iterator latch limits list locale map
memory memory_resource mutex new numbers numeric optional ostream queue random ranges ratio
regex scoped_allocator semaphore set shared_mutex source_location span sstream stack
stdexcept stop_token streambuf string string_view syncstream system_error thread tuple
type_traits typeindex typeinfo unordered_map unordered_set utility valarray variant vector
version
""".split())

# Not enforced: <initializer_list>. The standard has <utility>, <string>, <string_view>,
# <array>, every container and <algorithm> include it ([utility.syn], [string.syn], ...), so
# no standard library can stop providing it to a file that uses any of those, and IWYU asks
# for it after every `for (x : {a, b})`.
NOT_ENFORCED = {"initializer_list"}

IWYU_ARGS = ["-Xiwyu", "--no_fwd_decls", "-Xiwyu", "--max_line_length=200"]


def project_sources(build_dir, root):
    db = json.load(open(os.path.join(build_dir, "compile_commands.json")))
    out = set()
    for e in db:
        f = os.path.realpath(os.path.join(e.get("directory", ""), e["file"]))
        if not f.endswith(".cpp") or not f.startswith(root + os.sep):
            continue
        if os.path.realpath(build_dir) in f or "/build" in f[len(root):]:
            continue  # generated sources (embedded scenarios)
        out.add(f)
    return sorted(out)


def run_iwyu(build_dir, root, source):
    cmd = ["iwyu_tool", "-p", build_dir, source, "--"] + IWYU_ARGS + [
        "-Xiwyu", "--check_also=" + root + "/*"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.stdout + r.stderr


def missing_std(report, root):
    """{file: set(headers)} of the standard headers IWYU says a project file should add."""
    found = {}
    for m in re.finditer(r"^(\S+) should add these lines:\n(.*?)\n\n", report, re.M | re.S):
        path = os.path.realpath(m.group(1))
        if not path.startswith(root + os.sep):
            continue
        for line in m.group(2).splitlines():
            h = re.match(r"#include <([^>]+)>", line)
            if h and h.group(1) in STD_HEADERS and h.group(1) not in NOT_ENFORCED:
                found.setdefault(path, set()).add(h.group(1))
    return found


def add_includes(path, headers):
    lines = open(path).read().split("\n")
    have = {m.group(1) for l in lines for m in [re.match(r"#include <([^>]+)>", l)] if m}
    new = [f"#include <{h}>" for h in sorted(headers - have)]
    if not new:
        return
    # Before the first standard header outside extern "C" (system C headers such as
    # <unistd.h> and FFmpeg's may come first, and C++ headers inside extern "C" break);
    # else after #pragma once / the leading comment.
    in_c = False
    at = None
    for i, l in enumerate(lines):
        if l.startswith('extern "C"'):
            in_c = True
        elif in_c and l.startswith("}"):
            in_c = False
        m = re.match(r"#include <([^>]+)>", l)
        if not in_c and m and m.group(1) in STD_HEADERS:
            at = i
            break
    if at is None:
        at = next((i + 1 for i, l in enumerate(lines) if l.startswith("#pragma once")), None)
        if at is None:
            at = next(i for i, l in enumerate(lines) if not l.startswith("//"))
        new = new + [""]
    lines[at:at] = new
    open(path, "w").write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build_dir")
    ap.add_argument("--fix", action="store_true")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    a = ap.parse_args()
    root = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
    build_dir = os.path.realpath(a.build_dir)
    if not os.path.exists(os.path.join(build_dir, "compile_commands.json")):
        sys.exit(f"check-includes: {build_dir}/compile_commands.json not found: configure first")
    if subprocess.run(["which", "iwyu_tool"], capture_output=True).returncode != 0:
        sys.exit("check-includes: iwyu_tool not found (Debian package iwyu; scripts/install-deps.sh installs it)")
    sources = project_sources(build_dir, root)
    missing = {}
    unparsed = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for source, report in zip(sources, pool.map(lambda s: run_iwyu(build_dir, root, s), sources)):
            if re.search(r"^\S+:\d+:\d+: (fatal )?error:", report, re.M):
                print(report, file=sys.stderr)
                unparsed.append(os.path.relpath(source, root))
                continue
            for f, hs in missing_std(report, root).items():
                missing.setdefault(f, set()).update(hs)
    if a.fix:
        for f, hs in missing.items():
            add_includes(f, hs)
        print(f"check-includes: added standard includes to {len(missing)} files")
        return 0
    for f in sorted(missing):
        print(f"{os.path.relpath(f, root)}: missing #include " +
              " ".join(f"<{h}>" for h in sorted(missing[f])))
    if unparsed:
        print("check-includes: clang (through include-what-you-use) could not compile "
              + ", ".join(unparsed) + " (errors above): the project must build with clang too")
    if missing or unparsed:
        print(f"check-includes: {len(missing)} files use standard library names without their "
              "headers (GCC 13 fails on these); `scripts/check-includes.py BUILD --fix` adds them")
        return 1
    print(f"check-includes: {len(sources)} sources and their project headers include the "
          "standard headers they use")
    return 0


if __name__ == "__main__":
    sys.exit(main())
