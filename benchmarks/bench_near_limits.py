"""Files near the design limits (model/limits.py): 1M, 2M and 3M links (MAX_LINKS), one link
past it, and a file one byte over MAX_FABRIC_BYTES: time and peak memory of opening each.

Each file is written by near_limit_fabric.py in aicnet's own layout (pairs of SN5600 switches
split 8x100G, 512 links a pair) and opened by `load_fabric` in a new process, as `aicnet
validate` or File > Open does: "load s" is the time to a document (or to the refusal), "RSS MB"
the peak resident memory of that process.  One past the limit must end in a message, not in a
traceback, and in less time and memory than a file at the limit; the over-size file (sparse:
it takes no disk) is refused before a byte of it is read.  `--validate` also runs the whole
analysis (`aicnet validate`) on each file that loads.

    .venv/bin/python benchmarks/bench_near_limits.py [--sizes 1000000,2000000,3000000]
        [--validate]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bytecode import compile_sources
from child_peak import PEAK_KB_SOURCE
from near_limit_fabric import write_fabric

from aicnet_gui.model.limits import MAX_FABRIC_BYTES, MAX_LINKS

_LOAD = PEAK_KB_SOURCE + """
import sys, time
from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.fileio import FabricFileError, load_fabric
catalog = builtin_catalog()
start = time.perf_counter()
try:
    doc = load_fabric(sys.argv[1], catalog)
    outcome = f"{len(doc.devices)} devices, {len(doc.links)} links"
except FabricFileError as exc:
    outcome = f"refused: {exc.json_path or '-'}: {exc.message}"
print(time.perf_counter() - start, peak_kb(), outcome, sep="\\t")
"""

_VALIDATE = PEAK_KB_SOURCE + """
import contextlib, io, sys, time
from aicnet_gui.cli import main
start = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["validate", sys.argv[1]])
print(time.perf_counter() - start, peak_kb(), f"exit {code}", sep="\\t")
"""


def _child(source: str, path: Path) -> tuple[float, float, str]:
    out = subprocess.run([sys.executable, "-c", source, str(path)], check=True,
                         capture_output=True, text=True).stdout.strip().split("\t")
    return float(out[0]), int(out[1]) / 1024, out[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=f"1000000,2000000,{MAX_LINKS}",
                        help="comma-separated link counts (one past MAX_LINKS is always added)")
    parser.add_argument("--validate", action="store_true", help="also run `aicnet validate`")
    args = parser.parse_args()
    compile_sources()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()] + [MAX_LINKS + 1]
    print(f"{'links':>9} {'file MB':>8} {'write s':>7} {'load s':>7} {'RSS MB':>7}  outcome")
    with tempfile.TemporaryDirectory() as folder:
        for links in sizes:
            path = Path(folder) / f"links-{links}.fabric"
            start = time.perf_counter()
            write_fabric(path, links)
            written = time.perf_counter() - start
            seconds, rss, outcome = _child(_LOAD, path)
            print(f"{links:>9,} {path.stat().st_size / 1e6:>8.1f} {written:>7.1f} "
                  f"{seconds:>7.2f} {rss:>7.0f}  {outcome}")
            if args.validate and not outcome.startswith("refused"):
                seconds, rss, outcome = _child(_VALIDATE, path)
                print(f"{'':>9} {'':>8} {'':>7} {seconds:>7.2f} {rss:>7.0f}  validate: {outcome}")
            path.unlink()
        big = Path(folder) / "over-size.fabric"
        with open(big, "wb") as handle:  # sparse: no disk used
            handle.truncate(MAX_FABRIC_BYTES + 1)
        seconds, rss, outcome = _child(_LOAD, big)
        print(f"{'':>9} {big.stat().st_size / 1e6:>8.1f} {'':>7} {seconds:>7.2f} {rss:>7.0f}  "
              f"{outcome}")


if __name__ == "__main__":
    main()
