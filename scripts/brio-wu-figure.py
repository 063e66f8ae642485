"""The Brio-Wu figure of docs/mhd.md: density at t = 0.1 on 200 cells against 3200 cells.

Run with ParaView's Python under a display, from a folder holding the two runs:
    fluxview run fv/brio-wu --output r200
    fluxview run fv/brio-wu --set grid.nx=3200 --output r3200
    xvfb-run -a /usr/bin/python3 scripts/brio-wu-figure.py   # writes mhd-brio-wu-rho.png
"""
import glob

from paraview.simple import CreateView, PlotOverLine, Render, SaveScreenshot, Show
from paraview.simple import XMLImageDataReader


def last_snapshot(folder):
    return sorted(glob.glob(folder + "/snapshot_*.vti"))[-1]


view = CreateView("XYChartView")
view.ViewSize = [900, 500]
view.ChartTitle = "Brio-Wu, t = 0.1: density"
view.LeftAxisTitle = "rho"
view.BottomAxisTitle = "x"
view.LegendLocation = "TopRight"
for label, folder, cells, points in (("3200 cells", "r3200", 3200, False),
                                     ("200 cells (hlld, plm)", "r200", 200, True)):
    line = PlotOverLine(Input=XMLImageDataReader(FileName=[last_snapshot(folder)]))
    line.Point1 = [0, 0.5, 0.5]
    line.Point2 = [1, 0.5, 0.5]
    line.Resolution = cells - 1
    shown = Show(line, view)
    shown.SeriesVisibility = ["rho"]
    shown.SeriesLabel = ["rho", label]
    if points:  # the coarse run as markers over the fine one's line
        shown.SeriesLineStyle = ["rho", "0"]
        shown.SeriesMarkerStyle = ["rho", "4"]
        shown.SeriesColor = ["rho", "0.85", "0.3", "0.1"]
    else:
        shown.SeriesColor = ["rho", "0.1", "0.2", "0.7"]
Render(view)
SaveScreenshot("mhd-brio-wu-rho.png", view, ImageResolution=[900, 500])
