#!/usr/bin/python3
"""Measures what Catalyst costs a fluxview run (docs/performance.md, insitu section).
Not a test: prints a Markdown table. Run under xvfb-run:

    xvfb-run -a /usr/bin/python3 tests/insitu/measure_cost.py --fluxview build/app/fluxview

1. Per megabyte: heat/hot-spot on grids of growing size, Catalyst offered every 10
   steps, with (a) a pipeline that does nothing (the adaptor's own cost: asking, building
   the grid, copying the fields, entering Python), (b) the VTI + VTP extracts and
   (c) the PNG slice of assets/catalyst. Times come from run.json's "catalyst" block.
2. Idle offers: the same run offered every step to a pipeline whose trigger never
   fires after step 0; the cost of asking, per offer, against the solver's step time
   measured by `fluxview bench` on the same grid.
"""
import argparse
import json
import os
import shutil
import subprocess
import tempfile

NOOP = '''# script-version: 2
from paraview import catalyst
from paraview.simple import *
grid = PVTrivialProducer(registrationName='input')
options = catalyst.Options()
options.GlobalTrigger = 'TimeStep'
options.GlobalTrigger.Frequency = FREQUENCY
def catalyst_execute(info):
    pass
'''


def run(fluxview, work, name, scenario_args, script, every, steps):
    out = os.path.join(work, name)
    shutil.rmtree(out, ignore_errors=True)
    cmd = [fluxview, 'run', *scenario_args, '--steps', str(steps), '--every', '0', '--backend', 'cpu',
           '--catalyst', script, '--catalyst-every', str(every), '--output', out, '--quiet',
           '--catalyst-log', 'quiet']
    subprocess.run(cmd, check=True, capture_output=True, timeout=600)
    with open(os.path.join(out, 'run.json')) as f:
        return json.load(f)


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--fluxview', required=True)
    p.add_argument('--assets', default=os.path.join(os.path.dirname(__file__), '..', '..', 'assets', 'catalyst'))
    p.add_argument('--sizes', default='64,128,192')
    p.add_argument('--steps', type=int, default=40)
    p.add_argument('--threads', default='1', help='OMP_NUM_THREADS for the solver (1: steadier on a shared machine)')
    args = p.parse_args()
    os.environ['OMP_NUM_THREADS'] = args.threads
    work = tempfile.mkdtemp(prefix='fluxview-catalyst-cost-')
    noop = os.path.join(work, 'noop.py')
    with open(noop, 'w') as f:
        f.write(NOOP.replace('FREQUENCY', '1'))
    idle = os.path.join(work, 'idle.py')
    with open(idle, 'w') as f:
        f.write(NOOP.replace('FREQUENCY', '1000000000'))

    print('| grid | field MB | pipeline | runs | s per run | of it: grid + copy | s per MB |')
    print('|---|---|---|---|---|---|---|')
    for n in [int(s) for s in args.sizes.split(',')]:
        mb = n ** 3 * 8 / 1e6
        for label, script in (('none (adaptor only)', noop),
                              ('VTI + VTP extracts', os.path.join(args.assets, 'extracts.py')),
                              ('PNG slice', os.path.join(args.assets, 'slice_png.py'))):
            rec = run(args.fluxview, work, f'{n}_{os.path.basename(script)}', ['heat/hot-spot', '--set', f'grid.n={n}'],
                      script, 10, args.steps)
            c = rec['catalyst']
            # The first execution imports the script and builds the pipeline: the steady
            # cost is the last execution's pipeline time plus the mean grid + copy time.
            runs = c['executed']
            per_copy = c['seconds_transfer'] / runs
            per_run = c['scripts'][0]['last_seconds'] + per_copy
            print(f'| {n}^3 | {mb:.1f} | {label} | {runs} | {per_run:.4f} | {per_copy:.4f} | {per_run / mb:.4f} |')

    print()
    print('| grid | idle offers | s per idle offer | solver s per step | overhead |')
    print('|---|---|---|---|---|')
    for n in (32, 64, 128):
        steps = 400 if n <= 64 else 100
        # Best of three: on a shared machine the slow runs measure the neighbours.
        per_offer, offers = float('inf'), 0
        for rep in range(3):
            rec = run(args.fluxview, work, f'idle_{n}', ['heat/hot-spot', '--set', f'grid.n={n}'], idle, 1, steps)
            c = rec['catalyst']
            # Offers after step 0, where the trigger does not fire: only the asking is paid.
            offers = c['offered'] - c['executed']
            per_offer = min(per_offer, c['seconds_idle'] / offers)
        # The solver's step time from `fluxview bench` (no Catalyst, no per-step chunking).
        solver_step = float('inf')
        for rep in range(3):
            bench = subprocess.run([args.fluxview, 'bench', 'heat/hot-spot', '--set', f'grid.n={n}', '--backend', 'cpu'],
                                   check=True, capture_output=True, text=True, timeout=600)
            solver_step = min(solver_step, json.loads(bench.stdout)['seconds_per_step'])
        print(f'| {n}^3 | {offers} | {per_offer * 1e6:.1f} us | {solver_step * 1e3:.3f} ms | '
              f'{100 * per_offer / solver_step:.2f} % |')
    shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
