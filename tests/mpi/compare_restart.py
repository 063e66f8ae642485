"""Checkpoint and restart on N MPI ranks: 2M steps straight, and M steps + checkpoint +
restart (on N ranks) + M steps, read back with ParaView's VTK: bit-identical.

usage: compare_restart.py FLUXVIEW NRANKS WORKDIR M -- RUN-ARGS...
"""
import os
import shutil
import subprocess
import sys

import numpy as np
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOXML import vtkXMLPImageDataReader


def arrays(path):
    reader = vtkXMLPImageDataReader()
    reader.SetFileName(path)
    reader.Update()
    image = reader.GetOutput()
    data = image.GetPointData() if image.GetPointData().GetNumberOfArrays() else image.GetCellData()
    return {data.GetArrayName(i): vtk_to_numpy(data.GetArray(i)).copy() for i in range(data.GetNumberOfArrays())}


def main():
    exe, nranks, work, m = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    args = sys.argv[sys.argv.index("--") + 1:]
    shutil.rmtree(work, ignore_errors=True)
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    mpi = ["mpirun", "--oversubscribe", "-np", str(nranks), exe, "run"]
    straight, resumed = os.path.join(work, "straight"), os.path.join(work, "resumed")
    subprocess.run(mpi + args + ["--steps", str(2 * m), "--checkpoint-every", str(m), "--quiet",
                                 "--output", straight], check=True, env=env)
    ck = os.path.join(straight, f"checkpoint_{m:06d}.h5")
    pieces = [f for f in os.listdir(straight) if f.startswith(f"checkpoint_{m:06d}.rank")]
    assert len(pieces) == nranks, f"expected {nranks} checkpoint pieces, found {pieces}"
    subprocess.run(mpi + ["--restart", ck, "--steps", str(m), "--quiet", "--output", resumed], check=True, env=env)
    name = f"snapshot_{2 * m:06d}.pvti"
    a, b = arrays(os.path.join(straight, name)), arrays(os.path.join(resumed, name))
    assert a.keys() == b.keys(), f"arrays {sorted(a)} vs {sorted(b)}"
    for k in a:
        bad = np.flatnonzero(a[k] != b[k])
        assert bad.size == 0, f"{name}/{k}: {bad.size} values differ after the restart"
    print(f"restart on {nranks} ranks is bit-identical ({', '.join(sorted(a))})")


if __name__ == "__main__":
    main()
