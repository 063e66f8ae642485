# script-version: 2
# fluxview example Catalyst pipeline (ParaView 5.11): a slice through the middle of the
# domain, normal to z, coloured by the run's first field (T for heat, rho for fv), with
# a colour bar, saved as slice_NNNNNN.png at every step fluxview offers.
#   fluxview run heat/hot-spot --catalyst assets/catalyst/slice_png.py --catalyst-every 50
# Environment: FLUXVIEW_CATALYST_OUTPUT (output folder; fluxview sets it to
# OUTPUT/catalyst), FLUXVIEW_CATALYST_FIELD (colour by another field).
import os

from paraview import catalyst
from paraview.simple import *

# The simulation's grid: fluxview publishes it on the channel "input".
grid = PVTrivialProducer(registrationName='input')


def pick_field(source):
    """The field to show: FLUXVIEW_CATALYST_FIELD, else the run's first field (fluxview
    lists them in FLUXVIEW_FIELDS, in the solver's order), else the first array."""
    point_names = list(source.PointData.keys())
    cell_names = list(source.CellData.keys())
    present = point_names + cell_names
    wanted = [os.environ.get('FLUXVIEW_CATALYST_FIELD')] + os.environ.get('FLUXVIEW_FIELDS', '').split(',')
    name = next((w for w in wanted if w and w in present), present[0])
    return ('POINTS' if name in point_names else 'CELLS'), name


association, field = pick_field(grid)
info = grid.GetDataInformation()
bounds = info.GetBounds()
centre = [0.5 * (bounds[0] + bounds[1]), 0.5 * (bounds[2] + bounds[3]), 0.5 * (bounds[4] + bounds[5])]
flat = bounds[4] == bounds[5]  # a 2D run: show the plane itself

if flat:
    shown = grid
else:
    shown = Slice(registrationName='slice', Input=grid)
    shown.SliceType = 'Plane'
    shown.SliceType.Origin = centre
    shown.SliceType.Normal = [0.0, 0.0, 1.0]

view = CreateView('RenderView')
view.ViewSize = [640, 480]
view.OrientationAxesVisibility = 0
view.Background = [1.0, 1.0, 1.0]
try:  # ParaView 5.11 takes the background from the colour palette unless told not to
    view.UseColorPaletteForBackground = 0
except AttributeError:
    pass
display = Show(shown, view)
ColorBy(display, (association, field))
display.SetScalarBarVisibility(view, True)
display.Ambient = 1.0  # the colours of the map, unshaded
display.Diffuse = 0.0
lut = GetColorTransferFunction(field)
lut.ApplyPreset('Inferno (matplotlib)', True)
bar = GetScalarBar(lut, view)
bar.Title = field
bar.ComponentTitle = ''
bar.TitleColor = [0.0, 0.0, 0.0]
bar.LabelColor = [0.0, 0.0, 0.0]
view.CameraPosition = [centre[0], centre[1], centre[2] + 4.0 * max(bounds[1] - bounds[0], bounds[3] - bounds[2])]
view.CameraFocalPoint = centre
view.CameraViewUp = [0.0, 1.0, 0.0]
view.ResetCamera()

png = CreateExtractor('PNG', view, registrationName='slice_png')
png.Trigger = 'TimeStep'
png.Writer.FileName = 'slice_{timestep:06d}.png'
png.Writer.ImageResolution = [640, 480]

options = catalyst.Options()
options.GlobalTrigger = 'TimeStep'
options.ExtractsOutputDirectory = os.environ.get('FLUXVIEW_CATALYST_OUTPUT', 'catalyst')


def catalyst_execute(info):
    # The colour range follows the data at each step.
    display.RescaleTransferFunctionToDataRange(False, True)
