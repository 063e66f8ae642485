"""fd spectra on N MPI ranks: the run writes spectrum_NNNNNN.csv at every output, as the
serial run does, with the same k column and E(k) equal to 1e-12 relative (the FFT input
gathered on rank 0 is the serial array, so they should be equal exactly).

usage: compare_spectrum.py FLUXVIEW NRANKS WORKDIR -- RUN-ARGS...
"""
import os
import shutil
import subprocess
import sys

RTOL = 1e-12


def read_csv(path):
    with open(path) as f:
        lines = f.read().splitlines()
    assert lines and lines[0] == "k,E", f"{path}: header {lines[:1]}, expected k,E"
    rows = [tuple(float(v) for v in line.split(",")) for line in lines[1:]]
    assert rows, f"{path}: no shells"
    return rows


def main():
    exe, nranks, work = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    args = sys.argv[sys.argv.index("--") + 1:]
    shutil.rmtree(work, ignore_errors=True)
    serial, par = os.path.join(work, "serial"), os.path.join(work, f"np{nranks}")
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    subprocess.run([exe, "run", *args, "--quiet", "--output", serial], check=True, env=env, timeout=300)
    subprocess.run(["mpirun", "--oversubscribe", "-np", str(nranks), exe, "run", *args, "--quiet", "--output", par],
                   check=True, env=env, timeout=300)
    names = sorted(f for f in os.listdir(serial) if f.startswith("spectrum_") and f.endswith(".csv"))
    assert len(names) >= 2, f"the serial run wrote {names}, expected a spectrum at every output"
    got = sorted(f for f in os.listdir(par) if f.startswith("spectrum_"))
    assert got == names, f"{nranks} ranks wrote {got}, the serial run {names}"
    worst, with_energy = 0.0, 0
    for name in names:
        a, b = read_csv(os.path.join(serial, name)), read_csv(os.path.join(par, name))
        assert [k for k, _ in a] == [k for k, _ in b], f"{name}: shells differ"
        with_energy += sum(e for _, e in a) > 0  # the forced run starts from rest
        for (k, ea), (_, eb) in zip(a, b):
            err = abs(ea - eb) / max(abs(ea), abs(eb), 1e-300)
            worst = max(worst, err)
            assert err <= RTOL, f"{name}: E({k:g}) = {eb!r} on {nranks} ranks, {ea!r} serially (rel. {err:.3g})"
    assert with_energy >= 2, f"only {with_energy} of the serial spectra hold energy: nothing was compared"
    print(f"{len(names)} spectra on {nranks} ranks equal the serial ones (largest relative difference {worst:.3g})")


if __name__ == "__main__":
    main()
