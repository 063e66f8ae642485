# script-version: 2
# fluxview example Catalyst pipeline (ParaView 5.11) with Catalyst Live: the ParaView
# GUI can connect to the running simulation, see the slice below (and the grid itself,
# under the name "input"), build its own filters on it and pause the run.
#   1. paraview  ->  Catalyst > Connect...  (port 22222)  ->  Catalyst > Pause Simulation
#   2. fluxview run heat/hot-spot --catalyst assets/catalyst/live.py --catalyst-every 10
# Environment: FLUXVIEW_CATALYST_LIVE_URL (default localhost:22222). When no ParaView
# listens, the run goes on and ParaView prints a connection warning.
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

options = catalyst.Options()
options.GlobalTrigger = 'TimeStep'
options.EnableCatalystLive = 1
options.CatalystLiveTrigger = 'TimeStep'
options.CatalystLiveURL = os.environ.get('FLUXVIEW_CATALYST_LIVE_URL', 'localhost:22222')
options.ExtractsOutputDirectory = os.environ.get('FLUXVIEW_CATALYST_OUTPUT', 'catalyst')
