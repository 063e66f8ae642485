"""Runs a scenario serially and on N MPI ranks and reads both outputs back with
ParaView's VTK (vtkXMLImageDataReader / vtkXMLPImageDataReader): every array of every
snapshot must be equal (bit-identical with --exact, else to a relative tolerance).
Where ParaView's Python is missing (the GPU machine), a small numpy reader of the files
fluxview writes (appended raw binary, UInt64 headers) stands in for VTK's.

usage: compare_parallel.py FLUXVIEW NRANKS WORKDIR [--exact | --rtol X] [--parallel-args "A B"] -- RUN-ARGS...
(--parallel-args: extra run arguments for the MPI run only, e.g. "--mpi-dims 2,1,1")
Environment: FLUXVIEW_MPIRUN_ARGS adds arguments to mpirun (e.g. "-x FOO=1").
"""
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np

try:
    from vtkmodules.util.numpy_support import vtk_to_numpy
    from vtkmodules.vtkIOXML import vtkXMLImageDataReader, vtkXMLPImageDataReader
    HAVE_VTK = True
except ImportError:
    HAVE_VTK = False


def read_vti_numpy(path):
    """(extent, {name: array indexed [z, y, x]}) of one .vti file as fluxview writes it."""
    raw = open(path, "rb").read()
    head, _, tail = raw.partition(b"<AppendedData")
    data = tail[tail.index(b"_") + 1:]
    root = ET.fromstring(head.decode() + "</VTKFile>" if b"</VTKFile>" not in head else head.decode())
    piece = root.find("./ImageData/Piece")
    ext = [int(v) for v in piece.get("Extent").split()]
    shape = tuple(ext[2 * a + 1] - ext[2 * a] + 1 for a in (2, 1, 0))
    arrays = {}
    for da in piece.iter("DataArray"):
        off = int(da.get("offset"))
        n = int(np.frombuffer(data, np.uint64, 1, off)[0])
        dtype = np.float64 if da.get("type") == "Float64" else np.float32
        arrays[da.get("Name")] = np.frombuffer(data, dtype, n // np.dtype(dtype).itemsize, off + 8)
    cells = "CellData" in [c.tag for c in piece]
    if cells:  # cell data: one fewer than the points along every axis of more than one point
        shape = tuple(max(s - 1, 1) for s in shape)
    return ext, cells, {k: v.reshape(shape) for k, v in arrays.items()}


def read_numpy(path):
    if not path.endswith(".pvti"):
        ext, _, arrays = read_vti_numpy(path)
        dims = tuple(ext[2 * a + 1] - ext[2 * a] + 1 for a in range(3))
        return dims, {k: v.ravel() for k, v in arrays.items()}
    text = open(path).read()
    whole = [int(v) for v in re.search(r'WholeExtent="([^"]+)"', text).group(1).split()]
    dims = tuple(whole[2 * a + 1] - whole[2 * a] + 1 for a in range(3))
    out = {}
    for src in re.findall(r'Source="([^"]+)"', text):
        ext, cells, arrays = read_vti_numpy(os.path.join(os.path.dirname(path), src))
        shape = tuple(d - 1 if cells and d > 1 else d for d in (dims[2], dims[1], dims[0]))
        for name, a in arrays.items():
            g = out.setdefault(name, np.full(shape, np.nan, a.dtype))
            lo = [ext[2 * ax] - whole[2 * ax] for ax in (2, 1, 0)]
            g[lo[0]:lo[0] + a.shape[0], lo[1]:lo[1] + a.shape[1], lo[2]:lo[2] + a.shape[2]] = a
    return dims, {k: v.ravel() for k, v in out.items()}


def read(path):
    if not HAVE_VTK:
        return read_numpy(path)
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
    opts = rest[:rest.index("--")]
    par_args = opts[opts.index("--parallel-args") + 1].split() if "--parallel-args" in opts else []
    shutil.rmtree(work, ignore_errors=True)
    serial, par = os.path.join(work, "serial"), os.path.join(work, f"np{nranks}")
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    subprocess.run([exe, "run", *args, "--quiet", "--output", serial], check=True, env=env)
    extra = os.environ.get("FLUXVIEW_MPIRUN_ARGS", "").split()
    subprocess.run(["mpirun", "--oversubscribe", "-np", str(nranks), *extra, exe, "run", *args, *par_args, "--quiet",
                    "--output", par], check=True, env=env)
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
