"""The adaptive mesh on several MPI ranks: a run on N ranks against the serial run, and a
checkpoint written on N ranks restarted on K (--restart-on K).

Without --restart-on: the scenario runs serially and on N ranks for S steps with a
snapshot every S/2; every .vthb must list the same datasets and every piece file (leaves
and ancestors, named by level and position) must be the same bytes; the number of
regrids and blocks (run.json) must be equal and the mesh must have changed (regrids > 0).

With --render-every N among the run's arguments, the headless frames (PNG) of both runs
must also be the same bytes (each rank resamples its blocks; the views are summed).

With --restart-on K: the N-rank run also writes a checkpoint at S/2 (one file, the same on
any rank count), a restart from it on K ranks runs to S, and its last snapshot must be
the serial run's, byte for byte.

usage: compare_amr_parallel.py FLUXVIEW NRANKS WORKDIR STEPS [--restart-on K] -- RUN-ARGS...
"""
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys


def fluxview(exe, ranks):
    return ([exe] if ranks == 1 else ["mpirun", "--oversubscribe", "-np", str(ranks), exe]) + ["run"]


def run(cmd, env):
    done = subprocess.run(cmd, env=env, timeout=600, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(cmd)}: exit {done.returncode}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"


def record(directory):
    with open(os.path.join(directory, "run.json")) as f:
        return json.load(f)


def same_snapshot(a_dir, b_dir, step, what):
    """The .vthb of both runs at `step` and every piece it names are the same bytes."""
    name = f"snapshot_{step:06d}.vthb"
    a, b = os.path.join(a_dir, name), os.path.join(b_dir, name)
    text = open(a).read()
    assert text == open(b).read(), f"{what}: {name} lists other datasets"
    files = re.findall(r'file="([^"]+)"', text)
    assert files, f"{what}: {name} lists no datasets"
    differ = [f for f in files if not filecmp.cmp(os.path.join(a_dir, f), os.path.join(b_dir, f), shallow=False)]
    assert not differ, f"{what}: {len(differ)} of {len(files)} pieces differ, first {differ[0]}"
    return len(files)


def main():
    exe, nranks, work, steps = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    opts = sys.argv[5:sys.argv.index("--")]
    restart_on = int(opts[opts.index("--restart-on") + 1]) if "--restart-on" in opts else None
    args = sys.argv[sys.argv.index("--") + 1:]
    half = steps // 2
    shutil.rmtree(work, ignore_errors=True)
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    serial, parallel = os.path.join(work, "serial"), os.path.join(work, f"np{nranks}")
    common = ["--steps", str(steps), "--every", str(half), "--quiet"]
    run(fluxview(exe, 1) + args + common + ["--output", serial], env)
    extra = ["--checkpoint-every", str(half)] if restart_on else []
    run(fluxview(exe, nranks) + args + common + extra + ["--output", parallel], env)
    s, p = record(serial), record(parallel)
    regrids = s["diagnostics"]["regrids"]["value"]
    assert regrids > 0, "the serial run never changed its mesh: nothing was tested"
    for key in ("regrids", "blocks"):
        assert s["diagnostics"][key]["value"] == p["diagnostics"][key]["value"], \
            f"{key}: serial {s['diagnostics'][key]['value']}, {nranks} ranks {p['diagnostics'][key]['value']}"
    pieces = 0
    for step in (0, half, steps):
        pieces += same_snapshot(serial, parallel, step, f"step {step}, {nranks} ranks against serial")
    frames = ""
    if "--render-every" in args:
        names = sorted(os.listdir(os.path.join(serial, "frames")))
        assert names and names == sorted(os.listdir(os.path.join(parallel, "frames"))), \
            f"frames: serial {names}, {nranks} ranks {sorted(os.listdir(os.path.join(parallel, 'frames')))}"
        differ = [n for n in names if not filecmp.cmp(os.path.join(serial, "frames", n),
                                                      os.path.join(parallel, "frames", n), shallow=False)]
        assert not differ, f"frames: {len(differ)} of {len(names)} differ, first {differ[0]}"
        frames = f" and {len(names)} frames"
    if restart_on is None:
        print(f"{nranks} ranks: {pieces} pieces of 3 snapshots{frames} bit-identical to the serial run "
              f"({int(regrids)} regrids, {int(s['diagnostics']['blocks']['value'])} blocks at the end)")
        return
    found = sorted(f for f in os.listdir(parallel) if f.startswith(f"checkpoint_{half:06d}"))
    assert found == [f"checkpoint_{half:06d}.h5"], f"checkpoint files written on {nranks} ranks: {found}"
    resumed = os.path.join(work, f"restart_on{restart_on}")
    run(fluxview(exe, restart_on) + ["--restart", os.path.join(parallel, found[0]), "--steps", str(steps - half),
                                     "--every", str(half), "--quiet", "--output", resumed], env)
    r = record(resumed)
    assert r["steps"] == steps and r["steps_run"] == steps - half, \
        f"the restart ran {r['steps_run']} steps to step {r['steps']}, expected {steps - half} to {steps}"
    n = same_snapshot(serial, resumed, steps, f"written on {nranks} ranks, restarted on {restart_on}")
    # The counters the checkpoint carries: every rank's sums, carried on by the restart.
    for key in ("cell_updates", "corrected_cells", "regrids", "blocks"):
        assert r["diagnostics"][key]["value"] == s["diagnostics"][key]["value"], \
            f"{key} after the restart on {restart_on}: {r['diagnostics'][key]['value']}, " \
            f"the serial run's {s['diagnostics'][key]['value']}"
    for key in ("mass", "energy"):
        a, b = r["diagnostics"][key]["value"], s["diagnostics"][key]["value"]
        assert abs(a - b) <= 1e-13 * abs(b), f"{key} after the restart: {a!r}, serial {b!r}"
    print(f"checkpoint of {nranks} ranks restarted on {restart_on}: the {n} pieces at step {steps} "
          f"bit-identical to the uninterrupted serial run")


if __name__ == "__main__":
    main()
