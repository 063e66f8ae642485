#!/usr/bin/python3
"""Draws a 2D AMR snapshot (.vthb) as docs/amr.md shows the hierarchy: the density of the
visible (finest) cells, log scale, and every leaf block's outline coloured by its level.
Reads the file with VTK's own reader, as ParaView does.

    amr-hierarchy-figure.py SNAPSHOT.vthb OUT.png [--zoom X0 X1 Y0 Y1]
"""
import argparse

import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
from matplotlib.patches import Rectangle
import numpy as np
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOXML import vtkXMLUniformGridAMRReader


def main():
    p = argparse.ArgumentParser()
    p.add_argument('snapshot')
    p.add_argument('out')
    p.add_argument('--zoom', type=float, nargs=4)
    args = p.parse_args()
    r = vtkXMLUniformGridAMRReader()
    r.SetFileName(args.snapshot)
    r.SetMaximumLevelsToReadByDefault(0)
    r.Update()
    amr = r.GetOutput()
    levels = amr.GetNumberOfLevels()
    colours = plt.cm.viridis(np.linspace(0.0, 0.9, max(levels, 2)))
    fig, ax = plt.subplots(figsize=(7, 7), dpi=110)
    lo, hi = np.inf, -np.inf
    blocks = []
    for level in range(levels):
        for i in range(amr.GetNumberOfDataSets(level)):
            g = amr.GetDataSet(level, i)
            nx, ny, _ = [max(d - 1, 1) for d in g.GetDimensions()]
            rho = vtk_to_numpy(g.GetCellData().GetArray('rho')).reshape(ny, nx)
            ghost = g.GetCellData().GetArray('vtkGhostType')
            hidden = (vtk_to_numpy(ghost).reshape(ny, nx) & 8) != 0 if ghost is not None else np.zeros_like(rho, bool)
            ox, oy, _ = g.GetOrigin()
            dx, dy, _ = g.GetSpacing()
            blocks.append((level, ox, oy, nx * dx, ny * dy, np.ma.masked_where(hidden, np.log10(rho)), hidden.all()))
            lo, hi = min(lo, np.log10(rho).min()), max(hi, np.log10(rho).max())
    for level, ox, oy, w, h, logrho, covered in blocks:
        if covered:
            continue
        ax.imshow(logrho, origin='lower', extent=(ox, ox + w, oy, oy + h), cmap='inferno', vmin=lo, vmax=hi,
                  interpolation='nearest')
    for level, ox, oy, w, h, _, covered in blocks:
        if not covered:
            ax.add_patch(Rectangle((ox, oy), w, h, fill=False, lw=0.6, edgecolor=colours[level]))
    for level in range(levels):
        ax.plot([], [], color=colours[level], label=f'level {level}')
    ax.legend(loc='upper left', fontsize=8, framealpha=0.8)
    if args.zoom:
        ax.set_xlim(args.zoom[0], args.zoom[1])
        ax.set_ylim(args.zoom[2], args.zoom[3])
    else:
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
    ax.set_xlabel('x')
    ax.set_ylabel('y')
    ax.set_title('log10 density and AMR blocks by level')
    fig.tight_layout()
    fig.savefig(args.out)


if __name__ == '__main__':
    main()
