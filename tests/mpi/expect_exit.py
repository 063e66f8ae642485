"""Runs a command and requires its exit code and a message on stderr or stdout; the
output directory named after --output must not exist afterwards (nothing half-written).

usage: expect_exit.py CODE MESSAGE -- COMMAND...
"""
import os
import shutil
import subprocess
import sys


def main():
    code, message = int(sys.argv[1]), sys.argv[2]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    out = cmd[cmd.index("--output") + 1] if "--output" in cmd else None
    if out:
        shutil.rmtree(out, ignore_errors=True)
    r = subprocess.run(cmd, capture_output=True, text=True)
    text = r.stdout + r.stderr
    assert r.returncode == code, f"exit code {r.returncode}, expected {code}; output:\n{text}"
    assert message in text, f"'{message}' not in the output:\n{text}"
    assert out is None or not os.path.exists(out), f"{out} was written"
    print(f"exit {code} with '{message}'")


if __name__ == "__main__":
    main()
