"""Checkpoint and restart across MPI rank counts: 2M steps straight on N ranks with a
checkpoint at M, then a restart from that checkpoint on K ranks (K = N unless
--restart-on K) for M more steps, read back with ParaView's VTK: the snapshot at 2M must
equal the straight run's bit for bit and, when K != N, the uninterrupted serial run's too.
N or K of 1 runs without mpirun (a serial checkpoint, a serial restart).

usage: compare_restart.py FLUXVIEW NRANKS WORKDIR M [--restart-on K] -- RUN-ARGS...
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOXML import vtkXMLImageDataReader, vtkXMLPImageDataReader


def arrays(path):
    reader = vtkXMLPImageDataReader() if path.endswith(".pvti") else vtkXMLImageDataReader()
    reader.SetFileName(path)
    reader.Update()
    image = reader.GetOutput()
    data = image.GetPointData() if image.GetPointData().GetNumberOfArrays() else image.GetCellData()
    out = {data.GetArrayName(i): vtk_to_numpy(data.GetArray(i)).copy() for i in range(data.GetNumberOfArrays())}
    assert out and all(a.size > 0 for a in out.values()), f"{path}: no data read"
    return out


def snapshot(directory, step, ranks):
    return os.path.join(directory, f"snapshot_{step:06d}" + (".pvti" if ranks > 1 else ".vti"))


def expect_equal(a, b, what):
    assert a.keys() == b.keys(), f"{what}: arrays {sorted(a)} vs {sorted(b)}"
    for k in a:
        assert a[k].shape == b[k].shape, f"{what}/{k}: shape {a[k].shape} vs {b[k].shape}"
        bad = np.flatnonzero(a[k] != b[k])
        assert bad.size == 0, f"{what}/{k}: {bad.size} values differ, first at {bad[0]}"


def main():
    exe, nranks, work, m = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    opts = sys.argv[5:sys.argv.index("--")]
    restart_ranks = int(opts[opts.index("--restart-on") + 1]) if "--restart-on" in opts else nranks
    args = sys.argv[sys.argv.index("--") + 1:]
    shutil.rmtree(work, ignore_errors=True)
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")

    def fluxview(ranks):
        return ([exe] if ranks == 1 else ["mpirun", "--oversubscribe", "-np", str(ranks), exe]) + ["run"]

    straight, resumed = os.path.join(work, "straight"), os.path.join(work, "resumed")
    subprocess.run(fluxview(nranks) + args + ["--steps", str(2 * m), "--every", str(m), "--checkpoint-every",
                                              str(m), "--quiet", "--output", straight], check=True, env=env, timeout=300)
    ck = os.path.join(straight, f"checkpoint_{m:06d}.h5")
    pieces = sorted(f for f in os.listdir(straight) if f.startswith(f"checkpoint_{m:06d}."))
    expected = [os.path.basename(ck)] if nranks == 1 else [f"checkpoint_{m:06d}.rank{r:04d}of{nranks:04d}.h5"
                                                           for r in range(nranks)]
    assert pieces == expected, f"expected checkpoint files {expected}, found {pieces}"
    subprocess.run(fluxview(restart_ranks) + ["--restart", ck, "--steps", str(m), "--every", str(m), "--quiet",
                                              "--output", resumed], check=True, env=env, timeout=300)
    with open(os.path.join(resumed, "run.json")) as f:
        record = json.load(f)
    assert record["steps"] == 2 * m and record["steps_run"] == m, \
        f"the restart ran {record['steps_run']} steps to step {record['steps']}, expected {m} to {2 * m}"

    final = arrays(snapshot(resumed, 2 * m, restart_ranks))
    first = arrays(snapshot(resumed, m, restart_ranks))
    assert any(np.any(first[k] != final[k]) for k in final), "the state did not change over the restarted steps"
    expect_equal(arrays(snapshot(straight, m, nranks)), first, f"step {m}, as read back from the checkpoint")
    expect_equal(arrays(snapshot(straight, 2 * m, nranks)), final, f"step {2 * m} after the restart")
    what = f"written on {nranks} rank(s), restarted on {restart_ranks}"
    if restart_ranks != nranks:
        serial = os.path.join(work, "serial")
        subprocess.run([exe, "run"] + args + ["--steps", str(2 * m), "--every", str(m), "--quiet", "--output", serial],
                       check=True, env=env, timeout=300)
        expect_equal(arrays(snapshot(serial, 2 * m, 1)), final, f"step {2 * m} vs the uninterrupted serial run")
        what += ", equal to the uninterrupted serial run"
    print(f"restart {what}: bit-identical ({', '.join(sorted(final))})")


if __name__ == "__main__":
    main()
