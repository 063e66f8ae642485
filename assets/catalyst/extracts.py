# script-version: 2
# fluxview example Catalyst pipeline (ParaView 5.11): data extracts instead of images.
#   grid_NNNNNN.pvti   the whole grid with every field (VTK XML image data)
#   slice_NNNNNN.vtp   a slice through the middle, normal to z (VTK XML polydata)
# both in FLUXVIEW_CATALYST_OUTPUT (fluxview sets it to OUTPUT/catalyst), readable by
# ParaView or by VTK's Python (vtkXMLPImageDataReader, vtkXMLPolyDataReader).
#   fluxview run heat/hot-spot --catalyst assets/catalyst/extracts.py --catalyst-every 100
import os

from paraview import catalyst
from paraview.simple import *

grid = PVTrivialProducer(registrationName='input')

bounds = grid.GetDataInformation().GetBounds()
centre = [0.5 * (bounds[0] + bounds[1]), 0.5 * (bounds[2] + bounds[3]), 0.5 * (bounds[4] + bounds[5])]
slice_z = Slice(registrationName='slice', Input=grid)
slice_z.SliceType = 'Plane'
slice_z.SliceType.Origin = centre
slice_z.SliceType.Normal = [0.0, 0.0, 1.0]

vti = CreateExtractor('VTI', grid, registrationName='grid_vti')
vti.Trigger = 'TimeStep'
vti.Writer.FileName = 'grid_{timestep:06d}.pvti'

vtp = CreateExtractor('VTP', slice_z, registrationName='slice_vtp')
vtp.Trigger = 'TimeStep'
vtp.Writer.FileName = 'slice_{timestep:06d}.pvtp'

options = catalyst.Options()
options.GlobalTrigger = 'TimeStep'
options.ExtractsOutputDirectory = os.environ.get('FLUXVIEW_CATALYST_OUTPUT', 'catalyst')
