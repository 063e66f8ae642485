#!/usr/bin/python3
"""Opens a snapshot written by `fluxview run --output` with VTK's own XML reader (the one
ParaView uses) and checks its values against the heat solver's exact solution for
heat/sine-decay: T = A exp(-alpha |k|^2 t) sin(kx x) sin(ky y) sin(kz z), k = pi / L.

    check_snapshot.py --fluxview PATH --work DIR
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys

import numpy as np
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOXML import vtkXMLImageDataReader


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--fluxview', required=True)
    p.add_argument('--work', required=True)
    args = p.parse_args()
    out = os.path.join(args.work, 'snapshot_sine')
    shutil.rmtree(out, ignore_errors=True)
    n = 16
    cmd = [args.fluxview, 'run', 'heat/sine-decay', '--set', f'grid.n={n}', '--steps', '40', '--every', '40',
           '--output', out, '--quiet', '--backend', 'cpu']
    subprocess.run(cmd, check=True, timeout=120)
    with open(os.path.join(out, 'run.json')) as f:
        rec = json.load(f)
    par = rec['parameters']
    alpha, amp = par['heat.alpha'], par['heat.sine_amplitude']
    L = [par['grid.lx'], par['grid.ly'], par['grid.lz']]
    failures = 0
    for snap in rec['snapshots']:
        r = vtkXMLImageDataReader()
        r.SetFileName(os.path.join(out, snap['file']))
        r.Update()
        img = r.GetOutput()
        point_data = img.GetPointData().GetArray('T') is not None
        attrs = img.GetPointData() if point_data else img.GetCellData()
        T = vtk_to_numpy(attrs.GetArray('T'))
        dims = [d - (0 if point_data else 1) for d in img.GetDimensions()]
        origin, spacing = img.GetOrigin(), img.GetSpacing()
        shift = 0.0 if point_data else 0.5
        x = [origin[a] + (np.arange(dims[a]) + shift) * spacing[a] for a in range(3)]
        zz, yy, xx = np.meshgrid(x[2], x[1], x[0], indexing='ij')
        k2 = sum((math.pi / L[a]) ** 2 for a in range(3))
        t = snap['time']
        exact = amp * math.exp(-alpha * k2 * t) * np.sin(math.pi * xx / L[0]) * np.sin(math.pi * yy / L[1]) * \
            np.sin(math.pi * zz / L[2])
        err = np.abs(T - exact.ravel()).max() / amp
        tol = 1e-12 if snap['step'] == 0 else 0.02 * math.exp(-alpha * k2 * t)
        ok = err <= tol and len(T) == n ** 3
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {snap['file']}: t = {t:.6g}, {len(T)} values, "
              f"max |T - exact| / A = {err:.3g} (tolerance {tol:.3g})")
    # A point value read back at the centre equals the solver's amplitude times the decay.
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
