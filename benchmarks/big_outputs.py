"""The big designs' outputs, before and after a change, and their times (issue 38).

For each design (generated once into a folder, or read from it when `--keep DIR` already holds
it): `aicnet validate --json`, `aicnet bom --json` and `aicnet validate` (text) run in new
processes, each with this checkout and, with `--before TREE`, with another (e.g. a `git
worktree` of main), alternating; the script prints each run's wall time, peak memory and the
SHA-256 of its output, and says whether the two trees printed the same bytes (the one field
that may differ is the run time `validate` prints, `(NNN ms)`, taken out before hashing).
Beside them: a bare orjson parse of the same file in a new process (read + `orjson.loads`,
garbage collector as Python leaves it), and the ratio of `aicnet validate` to it (issue 38:
within 1.5x at 308k links); and the same parse with the collector off, the floor of any
reader of the file as JSON objects (the collector's passes are most of a plain parse of a big
file: 1.2M links ~6 s with it, ~1 s without), with that ratio too.

Designs: `xdr` (178 SUs of DGX B300 on Q3400-RA, 308,736 links), `planes2` (200,000 GPUs:
390 SUs of DGX B300 on SN5610, two compute planes, 1,200,128 links), `planes4` (the same on
four planes, no media: 2,436,096 links), `xdr-nomedia` (the `xdr` design without media: a
CABLE-UNSET finding on each of its 308,736 links, whose listed fixes are checked).

    .venv/bin/python benchmarks/big_outputs.py [--sizes xdr planes2 planes4] [--before TREE]
        [--keep DIR] [--runs 1]   (sizes: xdr planes2 planes4 xdr-nomedia)
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from child_peak import PEAK_KB_SOURCE
from trees import ROOT, env, trees, work_folder

DESIGNS = {
    "xdr": ["--sus", "178", "--server", "nvidia-dgx-b300", "--leaf", "nvidia-q3400-ra",
            "--rack-kw", "61"],
    "planes2": ["--sus", "390", "--server", "nvidia-dgx-b300", "--leaf", "nvidia-sn5610",
                "--planes", "2", "--rack-kw", "61"],
    "planes4": ["--sus", "390", "--server", "nvidia-dgx-b300", "--leaf", "nvidia-sn5610",
                "--planes", "4", "--rack-kw", "61", "--no-media"],
    "xdr-nomedia": ["--sus", "178", "--server", "nvidia-dgx-b300", "--leaf", "nvidia-q3400-ra",
                    "--rack-kw", "61", "--no-media"],
}
#: run a module's main in this process, then print the peak memory on stderr's last line
_RUN = PEAK_KB_SOURCE + """
import runpy, sys
sys.argv = sys.argv[1:]
try:
    runpy.run_module(sys.argv[0], run_name="__main__")
except SystemExit:
    pass
finally:
    sys.stdout.flush()
    print(f"peak_kb {peak_kb()}", file=sys.stderr)
"""
_ORJSON = PEAK_KB_SOURCE + """
import sys, orjson
orjson.loads(open(sys.argv[1], "rb").read())
print(f"peak_kb {peak_kb()}", file=sys.stderr)
"""
_ORJSON_NO_GC = PEAK_KB_SOURCE + """
import gc, sys, orjson
gc.disable()
orjson.loads(open(sys.argv[1], "rb").read())
print(f"peak_kb {peak_kb()}", file=sys.stderr)
"""
_RUN_TIME = re.compile(rb"\(\d+ ms\)")


def timed(argv: list[str], environment: dict[str, str]) -> tuple[float, int, str]:
    """(wall s, peak MB, SHA-256 of stdout without the printed run time)."""
    start = time.perf_counter()
    done = subprocess.run(argv, env=environment, cwd=tempfile.gettempdir(), capture_output=True,
                          check=False)
    wall = time.perf_counter() - start
    tail = done.stderr.decode(errors="replace").strip().splitlines()
    peak = int(tail[-1].split()[1]) // 1024 if tail and tail[-1].startswith("peak_kb") else 0
    return wall, peak, hashlib.sha256(_RUN_TIME.sub(b"", done.stdout)).hexdigest()[:16]


def design(name: str, folder: Path) -> Path:
    path = folder / f"{name}.fabric"
    if not path.exists():
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "aicnet_gui.cli", "generate", "rail-optimized",
                        *DESIGNS[name], "-o", str(path)], env=env(ROOT), check=True,
                       stdout=subprocess.DEVNULL)
        print(f"({name}: generated in {time.perf_counter() - start:.1f} s, "
              f"{path.stat().st_size / 1e6:.0f} MB)", flush=True)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", choices=list(DESIGNS), default=list(DESIGNS))
    parser.add_argument("--before", type=Path, metavar="TREE")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep the designs here")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    compared = trees(args.before)
    differ = False
    with work_folder(args.keep) as folder:
        for size in args.sizes:
            path = design(size, folder)
            load = os.getloadavg()
            print(f"{size}: {path.name}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
                  flush=True)
            commands = [("validate --json", ["validate", "--json"]), ("bom --json", ["bom", "--json"]),
                        ("validate", ["validate"])]
            seen: dict[str, dict[str, str]] = {}
            validate_s: list[float] = []
            orjson_s: list[float] = []
            no_gc_s: list[float] = []
            for _ in range(args.runs):
                wall, peak, _digest = timed([sys.executable, "-c", _ORJSON, str(path)], env(ROOT))
                orjson_s.append(wall)
                print(f"  orjson parse (new process)          {wall:7.2f} s {peak:6d} MB", flush=True)
                wall, peak, _digest = timed([sys.executable, "-c", _ORJSON_NO_GC, str(path)],
                                            env(ROOT))
                no_gc_s.append(wall)
                print(f"  orjson parse, collector off         {wall:7.2f} s {peak:6d} MB", flush=True)
                for label, argv in commands:
                    for name, tree in compared:
                        wall, peak, digest = timed([sys.executable, "-c", _RUN, "aicnet_gui.cli",
                                                    *argv, str(path)], env(tree))
                        seen.setdefault(label, {})[name] = digest
                        if name == "after" and label == "validate":
                            validate_s.append(wall)
                        print(f"  {name:<6} {label:<28} {wall:7.2f} s {peak:6d} MB  {digest}",
                              flush=True)
            for label, digests in seen.items():
                if len(set(digests.values())) > 1:
                    differ = True
                    print(f"  ** {label}: the outputs differ")
            ratio = statistics.median(validate_s) / statistics.median(orjson_s)
            floor = statistics.median(validate_s) / statistics.median(no_gc_s)
            print(f"  aicnet validate / orjson parse: {ratio:.2f}x (collector off: {floor:.2f}x)"
                  + ("  (all outputs the same)" if len(compared) > 1 and not differ else ""),
                  flush=True)
            load = os.getloadavg()
            print(f"  load average after {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
