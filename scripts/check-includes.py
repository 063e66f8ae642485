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

usage: check-includes.py BUILD_DIR [--fix] [--all] [--jobs N]
  BUILD_DIR  a configured build folder with compile_commands.json
  --fix      add the missing includes to the files (then run clang-format)
  --all      check every source, whatever scripts/check-includes.record says

What a source passed before is not checked again (IWYU parses each source as a compile
does: 460 s of a CI run on two cores). scripts/check-includes.record holds, for each
source that passed, a digest of everything its answer depends on: the contents of every
file its compile read (project and system headers alike, from the build's dependency
lists, so a build must have run), its compile command, IWYU's version and this script.
A source whose digest is there is skipped; every other one is checked, and when all pass
the record is rewritten, so commit it with the change (a stale or missing record only
means more is checked, never less). Without a dependency list for a source (no build yet,
a build without Ninja) the source is checked.

C++ sources are checked from the compilation database (with every project header they
include, through --check_also). CUDA sources (.cu, .cuh) are not: IWYU's clang cannot parse
this CUDA version's headers; the headers they share with C++ sources are checked there, and
scripts/check-cuda-archs.sh compiles every .cu file for the oldest and newest architecture.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

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

RECORD = os.path.join(os.path.dirname(os.path.realpath(__file__)), "check-includes.record")


def without_pch(args):
    """A compile's arguments without a precompiled header (the test programs reuse one of
    GoogleTest and standard headers): IWYU must see what each source includes itself, and
    its clang cannot read GCC's precompiled file."""
    out, skip = [], False
    for i, a in enumerate(args):
        if skip:
            skip = False
        elif a == "-include" and i + 1 < len(args) and "cmake_pch" in args[i + 1]:
            skip = True
        elif a != "-Winvalid-pch":
            out.append(a)
    return out


def compile_db(build_dir):
    """compile_commands.json's entries, each with its arguments without a precompiled header."""
    db = json.load(open(os.path.join(build_dir, "compile_commands.json")))
    for e in db:
        e["arguments"] = without_pch(e.get("arguments") or shlex.split(e["command"]))
        e.pop("command", None)
    return db


def compile_outputs(build_dir, db):
    """{source: (object file, normalised command)}."""
    root = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
    out = {}
    for e in db:
        f = os.path.realpath(os.path.join(e.get("directory", ""), e["file"]))
        args = e["arguments"]
        if "-o" not in args[:-1]:
            continue
        # The command without the clone's and the build's places, which differ between
        # machines but not in what the compile sees.
        norm = shlex.join(args).replace(build_dir, "<build>").replace(root, "<root>")
        out[f] = (args[args.index("-o") + 1], norm)
    return out


def ninja_deps(build_dir):
    """{object file: [files its compile read]} from Ninja's dependency log; {} without one."""
    r = subprocess.run(["ninja", "-C", build_dir, "-t", "deps"], capture_output=True, text=True)
    if r.returncode != 0:
        return {}
    deps, cur = {}, None
    for line in r.stdout.splitlines():
        if line.startswith("    ") and cur is not None:
            deps[cur].append(line.strip())
        elif line and not line.startswith(" "):
            cur = line.split(": #deps")[0]
            deps[cur] = []
    return deps


_file_digests = {}


def file_digest(path):
    if path not in _file_digests:
        try:
            _file_digests[path] = hashlib.sha256(open(path, "rb").read()).hexdigest()
        except OSError:
            _file_digests[path] = "missing"
    return _file_digests[path]


def source_digests(build_dir, root, sources, db):
    """{source: digest of everything IWYU's answer for it depends on}; sources without a
    dependency list are left out (they are always checked)."""
    outputs = compile_outputs(build_dir, db)
    deps = ninja_deps(build_dir)
    tool = subprocess.run(["include-what-you-use", "--version"], capture_output=True,
                          text=True).stdout
    common = tool + file_digest(os.path.realpath(__file__))
    digests = {}
    for src in sources:
        obj, cmd = outputs.get(src, (None, None))
        files = deps.get(obj) if obj else None
        if not files or os.path.realpath(os.path.join(build_dir, files[0])) != src:
            continue
        h = hashlib.sha256((common + cmd).encode())
        for f in sorted(set(files)):
            path = os.path.realpath(os.path.join(build_dir, f))
            name = path.replace(build_dir, "<build>").replace(root, "<root>")
            h.update(f"{name} {file_digest(path)}\n".encode())
        digests[src] = h.hexdigest()
    return digests


def read_record():
    try:
        return dict(l.split() for l in open(RECORD) if l.strip() and not l.startswith("#"))
    except OSError:
        return {}


def write_record(root, digests):
    lines = [f"{os.path.relpath(f, root)} {d}\n" for f, d in sorted(digests.items())]
    with open(RECORD + ".tmp", "w") as out:
        out.write("# Written by scripts/check-includes.py: sources that passed, with a digest of\n"
                  "# everything the answer depends on (it skips them while the digest holds).\n")
        out.writelines(lines)
    os.replace(RECORD + ".tmp", RECORD)


def run_iwyu(db_dir, root, source):
    cmd = ["iwyu_tool", "-p", db_dir, source, "--"] + IWYU_ARGS + [
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
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    a = ap.parse_args()
    root = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
    build_dir = os.path.realpath(a.build_dir)
    if not os.path.exists(os.path.join(build_dir, "compile_commands.json")):
        sys.exit(f"check-includes: {build_dir}/compile_commands.json not found: configure first")
    if subprocess.run(["which", "iwyu_tool"], capture_output=True).returncode != 0:
        sys.exit("check-includes: iwyu_tool not found (Debian package iwyu; scripts/install-deps.sh installs it)")
    all_sources = project_sources(build_dir, root)
    db = compile_db(build_dir)
    digests = source_digests(build_dir, root, all_sources, db)
    db_tmp = tempfile.TemporaryDirectory(prefix="check-includes-")  # removed at exit
    db_dir = db_tmp.name
    json.dump(db, open(os.path.join(db_dir, "compile_commands.json"), "w"))
    record = {} if a.all else read_record()
    sources = [s for s in all_sources
               if s not in digests or record.get(os.path.relpath(s, root)) != digests[s]]
    print(f"check-includes: {len(all_sources) - len(sources)} of {len(all_sources)} sources "
          "passed before with everything they read unchanged (scripts/check-includes.record); "
          f"checking {len(sources)}", flush=True)
    missing = {}
    unparsed = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for source, report in zip(sources, pool.map(lambda s: run_iwyu(db_dir, root, s), sources)):
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
    write_record(root, digests)
    print(f"check-includes: {len(all_sources)} sources and their project headers include the "
          "standard headers they use")
    return 0


if __name__ == "__main__":
    sys.exit(main())
