"""Runs every example command of README.md and docs/**/*.md against a built fluxview.

usage: run_doc_examples.py --fluxview PATH [--source DIR] [--work DIR] [--jobs N]
                           [--timeout S] [--list] [-k TEXT] [FILE.md ...]

Each command runs with bash in a directory of its own that looks like the repository
root (links to the source tree's folders and files), so relative paths such as
`assets/catalyst/slice_png.py` resolve and relative outputs such as `--output out/sod`
land in that directory, never in the source tree. `fluxview`, `build/app/fluxview` and
`./app/fluxview` all mean the executable given by --fluxview (its folder is first on
PATH). The markers that say how a command is tested are read by doc_examples.py;
docs/dev/doc-tests.md documents both. Exit status: 0 when every example that runs
passes, 1 otherwise (2 for a marker that cannot be read).

Standard library only.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import filecmp
import glob
import json
import os
import pathlib
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_examples import DocTestError, Example, extract  # noqa: E402

DEFAULT_TIMEOUT_S = 120  # generous: a loaded shared machine runs the MPI benches in 45 s
TAIL_LINES = 25
# Spellings of the built executable in the docs: `fluxview` (installed), `build/app/fluxview`
# (from the repository root), `./app/fluxview` (from a build folder).
EXECUTABLE_PATH = re.compile(r"(?<![\w/.-])(?:\./)?(?:build[\w.-]*/)?app/fluxview(?![\w/.-])")
# `xvfb-run -a` starts looking for a free display at :99, as every other test's does; two
# servers racing for one number can leave a client on the other's server. Each example
# starts its search at a number of its own instead.
XVFB_FIRST_DISPLAY = 600
CONTROL_OPERATORS = {"&&", "||", "|", ";", "&", "|&", ";;"}
# ParaView's X rendering under Xvfb on a loaded machine now and then fails to open its
# display (an abort in vtkXOpenGLRenderWindow; about one run in four at a load of 10 on two
# cores, even with a fresh server number). That says nothing about fluxview or the docs,
# so such a run is tried again, at most RETRIES times, and the retry is reported.
# scripts/test.sh reruns a failed test once for the same reason.
LOST_DISPLAY = "bad X server connection"
RETRIES = 2


@dataclasses.dataclass
class Outcome:
    example: Example
    command: str
    status: str  # "ok", "xfail", "FAIL"
    seconds: float
    problems: list[str]
    exit_code: int | None
    stdout: str
    stderr: str
    workdir: str


def words_of(command: str) -> list[str] | None:
    """The shell words of a simple command; None for a pipeline, list or compound one."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:
        return None
    if any(t in CONTROL_OPERATORS for t in tokens):
        return None
    return shlex.split(command)


def option_value(words: list[str], name: str) -> str | None:
    """The value of the last `--name VALUE` or `--name=VALUE`."""
    value = None
    for i, w in enumerate(words):
        if w == name and i + 1 < len(words):
            value = words[i + 1]
        elif w.startswith(name + "="):
            value = w.split("=", 1)[1]
    return value


def is_png(path: str) -> bool:
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n"


def claims_of_fluxview(words: list[str], workdir: str, stdout: str) -> list[str]:
    """What a successful fluxview command says it made and is not there."""
    problems = []
    at = next((i for i, w in enumerate(words) if os.path.basename(w) == "fluxview"), None)
    if at is None:
        return problems
    rest = words[at + 1:]
    sub = rest[0] if rest and rest[0] in ("run", "bench", "list", "gui") else None
    here = pathlib.Path(workdir)
    if sub == "run":
        out = option_value(rest, "--output")
        if out is None:
            made = sorted(here.glob("fluxview-out/*"))
            if len(made) != 1:
                return [f"expected one output folder under fluxview-out/, found {len(made)}"]
            out_dir = made[0]
        else:
            out_dir = here / out
        for name in ("series.pvd", "run.json"):
            if not (out_dir / name).is_file():
                problems.append(f"{out_dir.relative_to(here)}/{name} was not written")
        run_json = out_dir / "run.json"
        if run_json.is_file():
            try:
                json.loads(run_json.read_text())
            except ValueError as e:
                problems.append(f"{run_json.relative_to(here)} is not JSON: {e}")
        if int(option_value(rest, "--render-every") or 0) > 0:
            frame_dir = option_value(rest, "--render-dir")
            frame_dir = here / frame_dir if frame_dir else out_dir / "frames"
            frames = sorted(frame_dir.glob("frame_*.png"))
            if not frames:
                problems.append(f"no frame_*.png in {frame_dir.relative_to(here)}")
            elif not all(is_png(str(f)) for f in frames):
                problems.append(f"a frame in {frame_dir.relative_to(here)} is not a PNG")
        if int(option_value(rest, "--checkpoint-every") or 0) > 0:
            ck_dir = option_value(rest, "--checkpoint-dir")
            ck_dir = here / ck_dir if ck_dir else out_dir
            if not list(ck_dir.glob("checkpoint_*.h5")):
                problems.append(f"no checkpoint_*.h5 in {ck_dir.relative_to(here)}")
        if option_value(rest, "--catalyst") and "FLUXVIEW_CATALYST_OUTPUT" not in " ".join(words):
            made = [p for p in (out_dir / "catalyst").glob("**/*") if p.is_file()]
            if not made:
                problems.append(f"the Catalyst scripts wrote nothing to {out_dir.relative_to(here)}/catalyst")
    elif sub == "bench":
        objects = []
        for line in stdout.splitlines():
            try:
                objects.append(json.loads(line))
            except ValueError:
                pass
        if not any(isinstance(o, dict) for o in objects):
            problems.append("bench printed no JSON object on stdout")
    elif sub == "gui":
        shot = option_value(rest, "--screenshot")
        if shot and not ((here / shot).is_file() and is_png(str(here / shot))):
            problems.append(f"the screenshot {shot} was not written as a PNG")
    return problems


def refusals_of_fluxview(words: list[str], workdir: str) -> list[str]:
    """A refused run (exit code 2) writes nothing: its output folder must not exist."""
    at = next((i for i, w in enumerate(words) if os.path.basename(w) == "fluxview"), None)
    if at is None or at + 1 >= len(words) or words[at + 1] != "run":
        return []
    out = option_value(words[at + 1:], "--output")
    if out and os.path.exists(os.path.join(workdir, out)):
        return [f"refused with exit code 2 but {out} was created"]
    return []


def make_workdir(root: str, source: str, example: Example) -> str:
    """A fresh directory with links to the source tree's top-level entries."""
    stem = re.sub(r"[^\w.-]", "_", example.file.replace("/", "-"))
    path = tempfile.mkdtemp(prefix=f"{stem}-{example.line}-", dir=root)
    for entry in sorted(os.listdir(source)):
        if entry.startswith(".") or entry.startswith("build") or entry in ("out", "fluxview-out"):
            continue
        os.symlink(os.path.join(source, entry), os.path.join(path, entry))
    return path


def prepared_command(example: Example, fluxview: str, display: int) -> str:
    command = EXECUTABLE_PATH.sub(fluxview, example.command())
    if "xvfb-run" in command and not re.search(r"xvfb-run\b[^|;&]*\s(-n|--server-num)\b", command):
        command = re.sub(r"\bxvfb-run\b", f"xvfb-run -n {display}", command)
    return command


def run_one(example: Example, workdir: str, fluxview: str, env: dict, timeout: float,
            display: int) -> Outcome:
    command = prepared_command(example, fluxview, display)
    start = time.monotonic()
    proc = subprocess.Popen(["bash", "-c", command], cwd=workdir, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            errors="replace", start_new_session=True)
    problems = []
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        # TERM first, so that an Xvfb started by the command removes its lock file.
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            stdout, stderr = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            stdout, stderr = proc.communicate()
        code = None
        problems.append(f"did not finish within {timeout:g} s (raise it with 'timeout:' "
                        f"or make the example smaller with 'args:')")
    seconds = time.monotonic() - start
    if code is not None:
        if code != example.exit:
            problems.append(f"exit code {code}, expected {example.exit}")
        else:
            words = words_of(command)
            if words is not None and example.exit == 0:
                problems += claims_of_fluxview(words, workdir, stdout)
            if words is not None and example.exit == 2:
                problems += refusals_of_fluxview(words, workdir)
            for pattern in example.files:
                if not glob.glob(os.path.join(workdir, pattern), recursive=True):
                    problems.append(f"no file matches {pattern}")
            for a, b in example.same:
                pa, pb = os.path.join(workdir, a), os.path.join(workdir, b)
                if not (os.path.isfile(pa) and os.path.isfile(pb)):
                    problems.append(f"same: {a if not os.path.isfile(pa) else b} was not written")
                elif not filecmp.cmp(pa, pb, shallow=False):
                    problems.append(f"{a} and {b} differ")
            for text in example.output:
                if text not in stdout + stderr:
                    problems.append(f"'{text}' is not in the output")
    if example.xfail:
        status = "xfail" if problems else "FAIL"
        if not problems:
            problems = [f"marked xfail ({example.xfail}) but passes now: remove the marker"]
    else:
        status = "FAIL" if problems else "ok"
    return Outcome(example, command, status, seconds, problems, code, stdout, stderr, workdir)


def units_of(examples: list[Example]) -> list[list[Example]]:
    """What runs one after another in one directory: a group, or a single command."""
    units: list[list[Example]] = []
    groups: dict[tuple[str, str], list[Example]] = {}
    for ex in examples:
        if ex.group is None:
            units.append([ex])
        elif (ex.file, ex.group) in groups:
            groups[(ex.file, ex.group)].append(ex)
        else:
            groups[(ex.file, ex.group)] = [ex]
            units.append(groups[(ex.file, ex.group)])
    return units


def tail(text: str, n: int = TAIL_LINES) -> str:
    lines = text.rstrip().splitlines()
    return "\n".join(("      | " + l) for l in lines[-n:]) if lines else "      | (nothing)"


def report_failure(o: Outcome) -> str:
    ex = o.example
    parts = [f"FAIL {ex.where()}: {ex.written}"]
    if o.command != ex.written:
        parts.append(f"  ran:  {o.command}")
    parts.append(f"  exit code: {o.exit_code if o.exit_code is not None else 'none (killed)'}"
                 f" (expected {ex.exit}{', xfail: ' + ex.xfail if ex.xfail else ''})")
    parts += [f"  - {p}" for p in o.problems]
    parts.append(f"  in {o.workdir} (whole output: doc-test-{ex.line}.log)")
    parts.append(f"  stdout (last lines):\n{tail(o.stdout)}")
    parts.append(f"  stderr (last lines):\n{tail(o.stderr)}")
    return "\n".join(parts)


def markdown_files(source: str) -> list[str]:
    files = ["README.md"] if os.path.isfile(os.path.join(source, "README.md")) else []
    files += sorted(str(p.relative_to(source)) for p in pathlib.Path(source, "docs").glob("**/*.md"))
    return files


def command_environment(fluxview: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLUXVIEW_")}
    env["PATH"] = os.path.dirname(fluxview) + os.pathsep + env.get("PATH", "/usr/bin:/bin")
    # Open MPI: CI runs as root on two cores, and the docs' examples ask for 4 ranks.
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    # One thread a process: the examples run side by side (--jobs) and beside other tests.
    env.setdefault("OMP_NUM_THREADS", "1")
    return env


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fluxview", help="the built executable")
    ap.add_argument("--source", default=os.path.normpath(os.path.join(here, "..", "..")),
                    help="the source tree (default: the one holding this script)")
    ap.add_argument("--work", help="where the examples' directories go (default: a temporary one)")
    ap.add_argument("--jobs", type=int, default=1, help="examples run side by side")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S,
                    help="seconds an example may take unless its marker says otherwise")
    ap.add_argument("--list", action="store_true", help="print the examples and what would run; run nothing")
    ap.add_argument("--keep", action="store_true", help="keep the directories of passing examples")
    ap.add_argument("-k", dest="only", help="run only the examples whose file:line or command contains this")
    ap.add_argument("files", nargs="*", help="Markdown files relative to --source (default: README.md, docs/**/*.md)")
    args = ap.parse_args()

    source = os.path.abspath(args.source)
    files = args.files or markdown_files(source)
    examples: list[Example] = []
    try:
        for f in files:
            with open(os.path.join(source, f), encoding="utf-8") as fh:
                examples += extract(f, fh.read())
    except DocTestError as e:
        print(f"doc-test marker error: {e}", file=sys.stderr)
        return 2
    if args.only:
        examples = [e for e in examples if args.only in e.where() or args.only in e.written]
        if not examples:
            print(f"-k {args.only}: no example matches", file=sys.stderr)
            return 2

    if args.list:
        for ex in examples:
            state = f"skip: {ex.skip}" if ex.skip else (f"xfail: {ex.xfail}" if ex.xfail else "runs")
            extras = [f"group {ex.group}"] if ex.group else []
            extras += [f"files {' '.join(ex.files)}"] if ex.files else []
            extras += [f"same {a} {b}" for a, b in ex.same]
            extras += [f"output '{t}'" for t in ex.output]
            extras += [f"timeout {ex.timeout:g} s"] if ex.timeout else []
            print(f"{ex.where()}: {ex.written}\n    {'; '.join([state, f'exit {ex.exit}'] + extras)}"
                  f"\n    $ {ex.command()}")
        return 0
    if not args.fluxview or not os.access(args.fluxview, os.X_OK):
        print(f"--fluxview {args.fluxview}: not an executable", file=sys.stderr)
        return 2

    fluxview = os.path.abspath(args.fluxview)
    env = command_environment(fluxview)
    skipped = [e for e in examples if e.skip]
    runnable = [e for e in examples if not e.skip]
    work_root = args.work or tempfile.mkdtemp(prefix="fluxview-doc-examples-")
    # A --work folder this script made before is emptied (the kept directories of earlier
    # failures); any other folder is only added to.
    stamp = os.path.join(work_root, ".doc-examples-work")
    if os.path.isfile(stamp):
        shutil.rmtree(work_root)
    os.makedirs(work_root, exist_ok=True)
    open(stamp, "w").close()
    print(f"{len(examples)} example commands in {len(files)} files: {len(runnable)} run, "
          f"{len(skipped)} skipped; {args.jobs} at a time, in {work_root}", flush=True)

    printing = threading.Lock()
    outcomes: list[Outcome] = []
    numbering = iter(range(10**6))
    retried: list[Example] = []

    def run_unit(unit: list[Example]) -> list[Outcome]:
        workdir = make_workdir(work_root, source, unit[0])
        results = []
        for ex in unit:
            for attempt in range(RETRIES + 1):
                display = XVFB_FIRST_DISPLAY + 4 * next(numbering)
                o = run_one(ex, workdir, fluxview, env, ex.timeout or args.timeout, display)
                if o.status != "FAIL" or LOST_DISPLAY not in o.stderr or attempt == RETRIES:
                    break
                with printing:
                    print(f"retry {ex.where()}: ParaView lost its X display ({LOST_DISPLAY})", flush=True)
                    retried.append(ex)
            results.append(o)
            if o.status == "FAIL":
                with open(os.path.join(workdir, f"doc-test-{ex.line}.log"), "w") as log:
                    log.write(f"$ {o.command}\nexit code {o.exit_code}\n--- stdout\n{o.stdout}\n"
                              f"--- stderr\n{o.stderr}\n")
            with printing:
                print(f"{o.status:5} {ex.where()} ({o.seconds:.1f} s): {ex.written}", flush=True)
                if o.status == "FAIL":
                    print(report_failure(o), flush=True)
            if o.status == "FAIL" and ex is not unit[-1]:
                for later in unit[unit.index(ex) + 1:]:
                    results.append(Outcome(later, "", "FAIL", 0.0,
                                           [f"not run: {ex.where()} before it in group {ex.group} failed"],
                                           None, "", "", workdir))
                break
        if all(o.status != "FAIL" for o in results) and not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
        return results

    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for results in pool.map(run_unit, units_of(runnable)):
            outcomes += results
    total = time.monotonic() - start

    if skipped:
        print(f"\nskipped ({len(skipped)}):")
        for ex in skipped:
            print(f"  {ex.where()}: {ex.written}\n      because: {ex.skip}")
    xfails = [o for o in outcomes if o.status == "xfail"]
    if xfails:
        print(f"\nexpected failures ({len(xfails)}), known bugs; each fails the test once it passes:")
        for o in xfails:
            print(f"  {o.example.where()}: {o.example.written}\n      xfail: {o.example.xfail}"
                  f"\n      now: {'; '.join(o.problems)}")
    if retried:
        print(f"\nretried after ParaView lost its X display ({len(retried)}): "
              + ", ".join(ex.where() for ex in retried))
    failed = [o for o in outcomes if o.status == "FAIL"]
    print(f"\n{len(outcomes) - len(failed) - len(xfails)} passed, {len(xfails)} xfail, "
          f"{len(skipped)} skipped, {len(failed)} failed in {total:.0f} s")
    for o in failed:
        print(f"  FAIL {o.example.where()}: {o.example.written}: {'; '.join(o.problems)}")
    if not args.work and not failed and not args.keep:
        shutil.rmtree(work_root, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
