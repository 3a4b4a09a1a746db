"""CLI start-up: `aicnet --version`, `aicnet --help` and `aicnet validate` of a 32-server design
against `python -c "import numpy"` on the same machine in the same run (issue 38).

Each command runs in a new process, the rounds alternate between the commands (and, with
`--before TREE`, between that checkout and this one, e.g. `git worktree add /tmp/main main`),
so a busy machine slows all of them alike.  Prints the median wall time of each, the ratio to
the numpy import, and the load average before and after.

Goals (quiet 2-core machine): --version and --help within 3x of `import numpy`; validate of a
32-server design under 0.35 s.  The design is `aicnet generate rail-optimized --sus 1`
(32 DGX H100, 256 GPUs, 512 links), written once to a temporary folder.

    .venv/bin/python benchmarks/bench_cli.py [--runs 11] [--before TREE]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from trees import ROOT, trees
from trees import env as _env


def _once(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, cwd=tempfile.gettempdir(), check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--before", type=Path, metavar="TREE",
                        help="another checkout to time in the same rounds (e.g. main)")
    args = parser.parse_args()
    compared = trees(args.before)
    python = sys.executable
    with tempfile.TemporaryDirectory() as folder:
        design = Path(folder) / "su1.fabric"
        subprocess.run([python, "-m", "aicnet_gui.cli", "generate", "rail-optimized", "--sus", "1",
                        "-o", str(design)], env=_env(ROOT), check=True, stdout=subprocess.DEVNULL)
        cases = [("python -c 'import numpy'", [python, "-c", "import numpy"], None)]
        for name, tree in compared:
            aicnet = [python, "-m", "aicnet_gui.cli"]
            cases += [(f"{name}: aicnet --version", [*aicnet, "--version"], tree),
                      (f"{name}: aicnet --help", [*aicnet, "--help"], tree),
                      (f"{name}: aicnet validate (32 servers)", [*aicnet, "validate", str(design)],
                       tree)]
        times: dict[str, list[float]] = {name: [] for name, _argv, _tree in cases}
        for argv, tree in ((a, t) for _n, a, t in cases):  # warm the file cache once
            _once(argv, _env(tree or ROOT))
        load_before = os.getloadavg()
        for _ in range(args.runs):
            for name, argv, tree in cases:
                times[name].append(_once(argv, _env(tree or ROOT)))
        load_after = os.getloadavg()
    numpy_s = statistics.median(times[cases[0][0]])
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; load average before "
          f"{load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, after "
          f"{load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}; median of {args.runs}")
    for name, _argv, _tree in cases:
        median = statistics.median(times[name])
        print(f"  {name:<40} {median:6.3f} s  ({median / numpy_s:4.2f}x import numpy; "
              f"min {min(times[name]):.3f} s)")


if __name__ == "__main__":
    main()
