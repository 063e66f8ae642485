# script-version: 2
# fluxview example Catalyst pipeline (ParaView 5.11): an isosurface of the run's first
# field (T for heat, rho for fv) at the middle of its current range, inside the outline
# of the domain, saved as contour_NNNNNN.png at every step fluxview offers.
#   fluxview run heat/hot-spot --catalyst assets/catalyst/contour_png.py --catalyst-every 50
# Environment: FLUXVIEW_CATALYST_OUTPUT (output folder; fluxview sets it to
# OUTPUT/catalyst), FLUXVIEW_CATALYST_FIELD (contour another field),
# FLUXVIEW_CATALYST_ISOVALUE (a fixed value instead of the middle of the range).
import os

from paraview import catalyst
from paraview.simple import *

grid = PVTrivialProducer(registrationName='input')

point_names = list(grid.PointData.keys())
cell_names = list(grid.CellData.keys())
# FLUXVIEW_CATALYST_FIELD, else the run's first field (FLUXVIEW_FIELDS, set by fluxview).
wanted = [os.environ.get('FLUXVIEW_CATALYST_FIELD')] + os.environ.get('FLUXVIEW_FIELDS', '').split(',')
field = next((w for w in wanted if w and w in point_names + cell_names), (point_names + cell_names)[0])
if field in point_names:
    points = grid
else:
    # Contours need point values: average the cell values onto the points.
    points = CellDatatoPointData(registrationName='points', Input=grid)
    points.ProcessAllArrays = 0
    points.CellDataArraytoprocess = [field]


def isovalue():
    fixed = os.environ.get('FLUXVIEW_CATALYST_ISOVALUE')
    if fixed:
        return float(fixed)
    lo, hi = points.PointData[field].GetRange()
    return 0.5 * (lo + hi)


contour = Contour(registrationName='contour', Input=points)
contour.ContourBy = ['POINTS', field]
contour.Isosurfaces = [isovalue()]
contour.ComputeScalars = 1

view = CreateView('RenderView')
view.ViewSize = [640, 480]
view.OrientationAxesVisibility = 0
try:
    view.UseColorPaletteForBackground = 0
except AttributeError:
    pass
view.Background = [1.0, 1.0, 1.0]
outline = Show(grid, view)
outline.SetRepresentationType('Outline')
outline.ColorArrayName = ['POINTS', '']
outline.AmbientColor = [0.2, 0.2, 0.2]
outline.DiffuseColor = [0.2, 0.2, 0.2]
surface = Show(contour, view)
surface.ColorArrayName = ['POINTS', '']
surface.DiffuseColor = [0.85, 0.33, 0.1]
view.CameraPosition = [1.0, -1.6, 1.2]
view.CameraFocalPoint = [0.0, 0.0, 0.0]
view.CameraViewUp = [0.0, 0.0, 1.0]
view.ResetCamera()

png = CreateExtractor('PNG', view, registrationName='contour_png')
png.Trigger = 'TimeStep'
png.Writer.FileName = 'contour_{timestep:06d}.png'
png.Writer.ImageResolution = [640, 480]

options = catalyst.Options()
options.GlobalTrigger = 'TimeStep'
options.ExtractsOutputDirectory = os.environ.get('FLUXVIEW_CATALYST_OUTPUT', 'catalyst')


def catalyst_execute(info):
    points.UpdatePipeline(info.time)
    contour.Isosurfaces = [isovalue()]
    view.ResetCamera()
