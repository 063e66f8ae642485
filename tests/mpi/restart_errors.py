"""Restarts from bad sets of checkpoint pieces are refused on every rank: exit code 2, a
message naming the file and what is wrong, and no output folder. The corrupt piece is read
only by the ranks whose box overlaps it; the others must not be left waiting (a hang
fails through the timeout).

usage: restart_errors.py FLUXVIEW WORKDIR
"""
import os
import shutil
import subprocess
import sys

from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOXML import vtkXMLImageDataReader

ENV = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
SCENARIO = ["fv/sedov", "--backend", "cpu", "--set", "grid.n=16"]


def run(exe, ranks, args):
    cmd = ([exe] if ranks == 1 else ["mpirun", "--oversubscribe", "-np", str(ranks), exe]) + ["run"] + args
    return subprocess.run(cmd, env=ENV, timeout=120, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def piece(step, rank, ranks=2):
    return f"checkpoint_{step:06d}.rank{rank:04d}of{ranks:04d}.h5"


def expect_refused(exe, ranks, case_dir, out, *needles):
    r = run(exe, ranks, ["--restart", os.path.join(case_dir, "checkpoint_000002.h5"), "--steps", "2", "--quiet",
                         "--output", out])
    assert r.returncode == 2, f"{case_dir} on {ranks} ranks: exit code {r.returncode}, expected 2\n{r.stdout}"
    for n in needles:
        assert n in r.stdout, f"{case_dir} on {ranks} ranks: no '{n}' in the message:\n{r.stdout}"
    assert not os.path.exists(out), f"{case_dir}: the refused restart created {out}"
    print(f"refused on {ranks} ranks: {[line for line in r.stdout.splitlines() if 'error' in line][0]}")


def case(work, base, name):
    d = os.path.join(work, name)
    shutil.copytree(base, d)
    return d


def main():
    exe, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    base = os.path.join(work, "base")
    r = run(exe, 2, SCENARIO + ["--steps", "4", "--every", "2", "--checkpoint-every", "2", "--quiet", "--output", base])
    assert r.returncode == 0, r.stdout
    for f in [piece(2, 0), piece(2, 1), piece(4, 1)]:
        assert os.path.exists(os.path.join(base, f)), f"{f} was not written"

    # A piece missing.
    d = case(work, base, "missing")
    os.remove(os.path.join(d, piece(2, 1)))
    expect_refused(exe, 3, d, os.path.join(work, "out_missing"), piece(2, 1), "is missing")

    # A piece of another step under this step's name.
    d = case(work, base, "mixed")
    shutil.copyfile(os.path.join(base, piece(4, 1)), os.path.join(d, piece(2, 1)))
    expect_refused(exe, 4, d, os.path.join(work, "out_mixed"), piece(2, 1), "in its step (4 vs 2)")

    # A piece of a run on another grid: the global grids differ.
    other = os.path.join(work, "other_grid")
    r = run(exe, 2, ["fv/sedov", "--backend", "cpu", "--set", "grid.n=18", "--steps", "2", "--checkpoint-every", "2",
                     "--quiet", "--output", other])
    assert r.returncode == 0, r.stdout
    d = case(work, base, "grid")
    shutil.copyfile(os.path.join(other, piece(2, 1)), os.path.join(d, piece(2, 1)))
    expect_refused(exe, 1, d, os.path.join(work, "out_grid"), piece(2, 1), "global grid (18x18x18 vs 16x16x16)")

    # Pieces of two rank counts side by side: which checkpoint is meant is not known.
    serial = os.path.join(work, "serial")
    r = run(exe, 1, SCENARIO + ["--steps", "2", "--checkpoint-every", "2", "--quiet", "--output", serial])
    assert r.returncode == 0, r.stdout
    d = case(work, base, "both")
    shutil.copyfile(os.path.join(serial, "checkpoint_000002.h5"), os.path.join(d, "checkpoint_000002.h5"))
    expect_refused(exe, 2, d, os.path.join(work, "out_both"), "checkpoint_000002.rankRRRRofSSSS.h5",
                   "both this serial checkpoint and pieces")

    # One flipped byte in the density of piece 1 (found by its first plane, as the snapshot
    # of the same step holds it): its Fletcher-32 sum fails on the ranks that read it.
    reader = vtkXMLImageDataReader()
    reader.SetFileName(os.path.join(base, "snapshot_000002", "piece_0001.vti"))
    reader.Update()
    image = reader.GetOutput()
    rho = vtk_to_numpy(image.GetCellData().GetArray("rho"))
    nx, ny, _ = (d - 1 for d in image.GetDimensions())
    plane = rho[:nx * ny].astype("<f8").tobytes()
    d = case(work, base, "corrupt")
    path = os.path.join(d, piece(2, 1))
    with open(path, "rb") as f:
        data = bytearray(f.read())
    at = data.find(plane)
    assert at >= 0, "the density plane of piece 1 was not found in its checkpoint file"
    data[at + len(plane) // 2] ^= 0x5A
    with open(path, "wb") as f:
        f.write(data)
    expect_refused(exe, 4, d, os.path.join(work, "out_corrupt"), piece(2, 1), "array rho is corrupt")
    print("every bad set of pieces is refused with exit code 2 and nothing written")


if __name__ == "__main__":
    main()
