"""Runs a scenario serially and on N MPI ranks and reads both outputs back with
ParaView's VTK (vtkXMLImageDataReader / vtkXMLPImageDataReader): every array of every
snapshot must be equal (bit-identical with --exact, else to a relative tolerance).

usage: compare_parallel.py FLUXVIEW NRANKS WORKDIR [--exact | --rtol X] -- RUN-ARGS...
"""
import os
import shutil
import subprocess
import sys

from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOXML import vtkXMLImageDataReader, vtkXMLPImageDataReader
import numpy as np


def read(path):
    reader = vtkXMLPImageDataReader() if path.endswith(".pvti") else vtkXMLImageDataReader()
    reader.SetFileName(path)
    reader.Update()
    image = reader.GetOutput()
    data = image.GetPointData() if image.GetPointData().GetNumberOfArrays() else image.GetCellData()
    return image.GetDimensions(), {data.GetArrayName(i): vtk_to_numpy(data.GetArray(i)).copy()
                                   for i in range(data.GetNumberOfArrays())}


def main():
    exe, nranks, work = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    rest = sys.argv[4:]
    exact = "--exact" in rest
    rtol = float(rest[rest.index("--rtol") + 1]) if "--rtol" in rest else 0.0
    args = rest[rest.index("--") + 1:]
    shutil.rmtree(work, ignore_errors=True)
    serial, par = os.path.join(work, "serial"), os.path.join(work, f"np{nranks}")
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    subprocess.run([exe, "run", *args, "--quiet", "--output", serial], check=True, env=env)
    subprocess.run(["mpirun", "--oversubscribe", "-np", str(nranks), exe, "run", *args, "--quiet", "--output", par],
                   check=True, env=env)
    snaps = sorted(f for f in os.listdir(serial) if f.startswith("snapshot_") and f.endswith(".vti"))
    assert snaps, "the serial run wrote no snapshots"
    for s in snaps:
        pfile = os.path.join(par, s[:-4] + (".pvti" if nranks > 1 else ".vti"))
        (dims_s, a), (dims_p, b) = read(os.path.join(serial, s)), read(pfile)
        assert dims_s == dims_p, f"{s}: dimensions {dims_s} vs {dims_p}"
        assert a.keys() == b.keys(), f"{s}: arrays {sorted(a)} vs {sorted(b)}"
        for name in a:
            if exact:
                bad = np.flatnonzero(a[name] != b[name])
                assert bad.size == 0, f"{s}/{name}: {bad.size} values differ, first at {bad[0]}"
            else:
                scale = max(np.abs(a[name]).max(), 1e-300)
                err = np.abs(a[name] - b[name]).max() / scale
                assert err <= rtol, f"{s}/{name}: relative difference {err} > {rtol}"
    print(f"{len(snaps)} snapshots equal on {nranks} ranks and serially ({'bit-identical' if exact else f'rtol {rtol}'})")


if __name__ == "__main__":
    main()
