#!/usr/bin/python3
"""Opens the snapshots of runs on the adaptive mesh (`fluxview run fv/sod-amr --output`
along x and along y, and a small 3D blast) with VTK's own vtkOverlappingAMR reader, the one ParaView uses for
.vthb files, and checks what ParaView would see:

  - series.pvd lists the .vthb files of run.json, each read as a vtkOverlappingAMR with
    more than one level (the hierarchy, not a resampled grid);
  - every block at the spacing of its level; level 0 covers the box exactly once, no two
    blocks of a level overlap, and the cells the reader leaves visible (not blanked as
    covered by a finer level) tile the box exactly once: the finest data everywhere;
  - the density read back is the solver's: at step 0 the initial condition at every
    visible cell centre (Sod: 1 left of x = 0.5, 0.125 right of it; blast: ambient density
    1), and at the last step, after regrids, the mass summed over the visible cells and
    the mass summed over level 0 alone (the restricted ancestors) both equal the solver's
    own `mass` diagnostic (run.json) to round-off;
  - an MHD run (a blast in a field) writes B in every piece as a vector of three components equal
    to (bx, by, bz), the active vectors.

    check_amr_snapshot.py --fluxview PATH --work DIR
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

import numpy as np
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOXML import vtkXMLUniformGridAMRReader


def read_blocks(path):
    """(level, origin, spacing, dims in cells, rho, visible) of every block of a .vthb file;
    visible: the cells the reader did not blank (vtkGhostType without HIDDENCELL, 8)."""
    r = vtkXMLUniformGridAMRReader()
    r.SetFileName(path)
    r.SetMaximumLevelsToReadByDefault(0)  # 0: every level (ParaView's default reads one)
    r.Update()
    amr = r.GetOutput()
    if amr is None or amr.GetClassName() != 'vtkOverlappingAMR':
        raise RuntimeError(f'{path}: not read as a vtkOverlappingAMR')
    blocks, vectors = [], []
    for level in range(amr.GetNumberOfLevels()):
        for i in range(amr.GetNumberOfDataSets(level)):
            img = amr.GetDataSet(level, i)
            if img is None:
                raise RuntimeError(f'{path}: level {level} block {i} has no data')
            dims = [max(d - 1, 1) for d in img.GetDimensions()]
            rho = vtk_to_numpy(img.GetCellData().GetArray('rho')).reshape(dims[::-1])
            ghost = img.GetCellData().GetArray('vtkGhostType')
            visible = np.ones(dims[::-1], dtype=bool) if ghost is None else \
                (vtk_to_numpy(ghost).reshape(dims[::-1]) & 8) == 0
            blocks.append((level, np.array(img.GetOrigin()), np.array(img.GetSpacing()), dims, rho, visible))
            vectors.append(field_vector(img))
    return amr.GetNumberOfLevels(), blocks, vectors


def field_vector(img):
    """(components of the array B, max |B - (bx, by, bz)|, the active vectors' name) of an MHD
    block; None for a run without B."""
    data = img.GetCellData()
    b = data.GetArray('B')
    if b is None:
        return None
    parts = np.stack([vtk_to_numpy(data.GetArray(c)) for c in ('bx', 'by', 'bz')], axis=1)
    diff = float(np.abs(vtk_to_numpy(b).reshape(parts.shape) - parts).max())
    active = data.GetVectors()
    return b.GetNumberOfComponents(), diff, active.GetName() if active is not None else None


def check_run(fluxview, out, scenario, overrides, steps, active, initial_rho, work, mhd=False):
    shutil.rmtree(out, ignore_errors=True)
    cmd = [fluxview, 'run', scenario, '--steps', str(steps), '--every', str(steps), '--output', out,
           '--quiet', '--backend', 'cpu', '--precision', 'double']
    for o in overrides:
        cmd += ['--set', o]
    subprocess.run(cmd, check=True, timeout=300)
    with open(os.path.join(out, 'run.json')) as f:
        rec = json.load(f)
    with open(os.path.join(out, 'series.pvd')) as f:
        pvd = f.read()
    par = rec['parameters']
    top = [par['grid.nx'], par['grid.ny'], par['grid.nz']]
    length = [par['grid.lx'], par['grid.ly'], par['grid.lz']]
    failures = 0

    def report(ok, what):
        nonlocal failures
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {scenario}: {what}")

    for snap in rec['snapshots']:
        name = snap['file']
        report(name.endswith('.vthb') and f'file="{name}"' in pvd, f'{name} listed in series.pvd')
        levels, blocks, vectors = read_blocks(os.path.join(out, name))
        if mhd:
            report(all(v is not None and v[0] == 3 and v[1] == 0 and v[2] == 'B' for v in vectors),
                   f'{name}: every block holds B, three components equal to (bx, by, bz), as the active '
                   f'vectors')
        # A 1D run is written as a strip across the next axis (2^level rows of the same
        # line, AmrSnapshot.cpp): every row must carry the line; keep the first.
        rows_ok = True
        for b, (level, origin, spacing, dims, rho, visible) in enumerate(blocks):
            for a in range(3):
                if a not in active and dims[a] > 1:
                    rows_ok &= dims[a] == 2 ** level
                    rows_ok &= bool(np.all(rho == rho.take([0], axis=2 - a)))
                    rows_ok &= bool(np.all(visible == visible.take([0], axis=2 - a)))
                    rho, visible = rho.take([0], axis=2 - a), visible.take([0], axis=2 - a)
                    dims = [1 if c == a else dims[c] for c in range(3)]
            blocks[b] = (level, origin, spacing, dims, rho, visible)
        report(rows_ok, f'{name}: the rows across a 1D run\'s strip repeat its line')
        report(levels >= 2 and len(blocks) > 1, f'{name}: {len(blocks)} blocks on {levels} levels')
        # Coverage, counted on the finest grid's cells (every block is a whole box of them).
        finest = max(b[0] for b in blocks)
        dx_finest = [length[a] / (top[a] * 2 ** finest) for a in range(3)]
        shape = [top[a] * 2 ** finest if a in active else 1 for a in range(3)][::-1]
        per_level = [np.zeros(shape, dtype=np.int32) for _ in range(finest + 1)]
        visible_cover = np.zeros(shape, dtype=np.int32)
        spacing_ok = True
        for level, origin, spacing, dims, _, visible in blocks:
            for a in active:
                spacing_ok &= abs(spacing[a] - length[a] / (top[a] * 2 ** level)) <= 1e-15 * length[a]
            r = 2 ** (finest - level)
            lo = [int(round(origin[a] / dx_finest[a])) if a in active else 0 for a in range(3)]
            hi = [lo[a] + dims[a] * r if a in active else 1 for a in range(3)]
            per_level[level][lo[2]:hi[2], lo[1]:hi[1], lo[0]:hi[0]] += 1
            fine_visible = visible
            for a in active:  # each cell of the block repeated onto the finest cells it covers
                fine_visible = np.repeat(fine_visible, r, axis=2 - a)
            visible_cover[lo[2]:hi[2], lo[1]:hi[1], lo[0]:hi[0]] += fine_visible
        report(spacing_ok, f'{name}: every block at the spacing of its level')
        report(per_level[0].min() == 1 and per_level[0].max() == 1, f'{name}: level 0 covers the box once')
        report(all(c.max() <= 1 for c in per_level), f'{name}: no two blocks of a level overlap')
        report(visible_cover.min() == 1 and visible_cover.max() == 1,
               f'{name}: visible cells tile the box once (cover count {visible_cover.min()}..{visible_cover.max()})')
        mass_visible = mass_level0 = 0.0
        worst_initial = 0.0
        for level, origin, spacing, dims, rho, visible in blocks:
            cell = np.prod([spacing[a] for a in active])
            mass_visible += rho[visible].sum() * cell
            if level == 0:
                mass_level0 += rho.sum() * cell
            if snap['step'] == 0:
                x = [origin[a] + (np.arange(dims[a]) + 0.5) * spacing[a] for a in range(3)]
                zz, yy, xx = np.meshgrid(x[2], x[1], x[0], indexing='ij')
                diff = np.abs(rho - initial_rho(xx, yy, zz))[visible]
                worst_initial = max(worst_initial, diff.max() if diff.size else 0.0)
        if snap['step'] == 0:
            report(worst_initial == 0.0, f'{name}: rho equals the initial condition in every visible cell '
                   f'(max |difference| {worst_initial:.3g})')
        if snap['step'] == rec['steps_run']:
            expected = rec['diagnostics']['mass']['value']
            for what, mass in (('visible cells', mass_visible), ('level 0', mass_level0)):
                report(abs(mass - expected) <= 1e-12 * abs(expected),
                       f"{name}: mass over the {what} {mass:.17g}, the solver's {expected:.17g}")
    return failures


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--fluxview', required=True)
    p.add_argument('--work', required=True)
    args = p.parse_args()
    failures = check_run(args.fluxview, os.path.join(args.work, 'amr_sod'), 'fv/sod-amr', [], 40, [0],
                         lambda x, y, z: np.where(x < 0.5, 1.0, 0.125), args.work)
    # The same tube along y: the 1D strip then runs across x.
    failures += check_run(args.fluxview, os.path.join(args.work, 'amr_sod_y'), 'fv/sod-amr',
                          ['fv.axis=y', 'grid.nx=1', 'grid.ny=64'], 20, [1],
                          lambda x, y, z: np.where(y < 0.5, 1.0, 0.125), args.work)
    # A 3D blast on a 16^3 top grid in blocks of 8, refined once around the blast.
    failures += check_run(args.fluxview, os.path.join(args.work, 'amr_blast'), 'fv/sedov-amr',
                          ['grid.n=16', 'fv.amr.block=8', 'fv.amr.max_level=1', 'fv.amr.regrid_every=2',
                           'fv.blast_radius=0.15'], 6, [0, 1, 2], lambda x, y, z: np.ones_like(x),
                          args.work)
    # MHD (the 3D blast in an oblique field): B written as a vector in every piece.
    failures += check_run(args.fluxview, os.path.join(args.work, 'amr_mhd'), 'fv/sedov-amr',
                          ['grid.n=16', 'fv.amr.block=8', 'fv.amr.max_level=1', 'fv.amr.regrid_every=2',
                           'fv.blast_radius=0.15', 'fv.physics=mhd', 'fv.riemann=hlld', 'fv.bx=0.5',
                           'fv.by=0.3', 'fv.ambient_p=0.1'], 6, [0, 1, 2], lambda x, y, z: np.ones_like(x),
                          args.work, mhd=True)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
