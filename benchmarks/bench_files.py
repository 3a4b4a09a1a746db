"""File speed: save and load `.fabric` files of 128 to 4,096 eight-GPU servers.

Builds rail-optimized fabrics with the generator (QM9700 leaves, DGX H100 servers; three tiers
at 4,096 servers, ~100k links), then times `dumps_fabric` + atomic write (save) and
`load_fabric` (read, validate, index; GC paused and frozen as the loader does) in a fresh
document.  "save" is the first save of a document never saved before (every object
serialised); "after edit" is a later save after one link changed (autosave and Ctrl+S), and
"after open" the first save of an opened file after one link changed: both re-serialise only
the changed objects and reuse the line of every other one.  "load s" is a repeated load in one
process; "1st load" the first load in a new process, as File > Open sees it.
"RSS MB" is the peak resident memory of that new process (interpreter, catalog, the file's
bytes and the document).  Budget (DESIGN.md §7): load < 1 s, save < 0.3 s at 4,096 servers.
`--large` adds 12,800 servers (400 SUs on SN5600, as bench_generate.py
--large; issue 22: memory < 1 GB).

`--file PATH` (repeatable) times the first load of a file you have (e.g. the DGX B300 XDR
design of issue 22: `aicnet generate rail-optimized --sus 178 --server nvidia-dgx-b300 --leaf
nvidia-q3400-ra --rack-kw 61 -o b300.fabric`, four per rack as NVIDIA's RA), each run a new process, split into its parts: "validate"
(bytes -> objects, the links a piece at a time into columns validated by pydantic), "index"
(the `FabricDocument`: its checks), and "other" (file read, catalog merge, what the save cache
keeps).

    .venv/bin/python benchmarks/bench_files.py [--runs N] [--large] [--file PATH ...]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bytecode import compile_sources
from child_peak import PEAK_KB_SOURCE

from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.fileio import load_fabric, save_fabric
from aicnet_gui.fileio.line_cache import forget
from aicnet_gui.gc_control import gc_paused
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import UpdateLink

SIZES = [(128, 4), (512, 16), (1024, 32), (4096, 128)]


def build(catalog, sus: int) -> FabricDocument:
    doc = FabricDocument(catalog)
    # above 8,192 servers a 3-tier fat tree of 64-port QM9700s runs out of ports (and NDR
    # optics cannot join Q3400-RA cages): SN5600 leaves, spines and cores on RoCEv2
    params = (RailOptimizedParams(sus=sus, leaf="nvidia-sn5600", technology="rocev2")
              if sus > 256 else RailOptimizedParams(sus=sus, leaf="nvidia-qm9700"))
    with gc_paused():
        generate(doc, params)
    return doc


def _cold_save(doc: FabricDocument, path: Path) -> None:
    forget(doc)
    save_fabric(doc, path, keep_backup=False)


def _save_after_edit(doc: FabricDocument, path: Path) -> None:
    link = next(iter(doc.links.values()))
    doc.apply([UpdateLink(link.id, {"length_m": (link.length_m or 10.0) + 0.5})])
    save_fabric(doc, path, keep_backup=False)


def _save_after_open(path: Path, catalog, runs: int) -> float:  # noqa: ANN001
    samples = []
    for _ in range(runs):
        doc = load_fabric(path, catalog)
        link = next(iter(doc.links.values()))
        doc.apply([UpdateLink(link.id, {"length_m": (link.length_m or 10.0) + 0.5})])
        gc.collect()
        start = time.perf_counter()
        save_fabric(doc, path.with_suffix(".saved"), keep_backup=False)
        samples.append(time.perf_counter() - start)
        del doc
        gc.unfreeze()
        gc.collect()
    return statistics.median(samples)


_FRESH_LOAD = PEAK_KB_SOURCE + """
import resource, sys, time
from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.fileio import load_fabric
catalog = builtin_catalog()
start = time.perf_counter()
load_fabric(sys.argv[1], catalog)
print(time.perf_counter() - start, peak_kb())
"""


_FRESH_PHASES = """
import sys, time
from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.fileio import fabric_file, load_fabric
spent = {"validate": 0.0, "index": 0.0}
def timed(name, func):
    def run(*args, **kwargs):
        start = time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            spent[name] += time.perf_counter() - start
    return run
fabric_file._fast_validate = timed("validate", fabric_file._fast_validate)
fabric_file._careful_validate = timed("validate", fabric_file._careful_validate)
fabric_file.FabricDocument = timed("index", fabric_file.FabricDocument)
catalog = builtin_catalog()
start = time.perf_counter()
doc = load_fabric(sys.argv[1], catalog)
total = time.perf_counter() - start
for line in open("/proc/self/status"):
    if line.startswith("VmHWM:"):
        peak = int(line.split()[1])
print(total, spent["validate"], spent["index"], peak, len(doc.devices), len(doc.links))
"""


def file_phases(path: Path, runs: int) -> None:
    """Print the first load of `path` in new processes: median total and parts, peak RSS."""
    samples = [[float(v) for v in subprocess.run(
        [sys.executable, "-c", _FRESH_PHASES, str(path)], check=True, capture_output=True,
        text=True).stdout.split()] for _ in range(runs)]
    total, validate, index = (statistics.median(s[i] for s in samples) for i in range(3))
    rss = max(s[3] for s in samples) / 1024
    devices, links = int(samples[0][4]), int(samples[0][5])
    print(f"{path.name}: {devices:,} devices, {links:,} links, "
          f"{path.stat().st_size / 1e6:.1f} MB; 1st load {total:.3f} s = validate {validate:.3f}"
          f" + index {index:.3f} + other {total - validate - index:.3f}; peak RSS {rss:.0f} MB "
          f"(median of {runs} new processes)")


def fresh_load(path: Path, runs: int) -> tuple[float, float]:
    """`load_fabric` as File > Open sees it: the first load in a new process (its memory is
    fresh, so it costs more than a repeated load in one process): (median s, peak RSS MB of
    the whole process)."""
    samples = [subprocess.run([sys.executable, "-c", _FRESH_LOAD, str(path)], check=True,
                              capture_output=True, text=True).stdout.split()
               for _ in range(runs)]
    return (statistics.median(float(s[0]) for s in samples),
            max(int(s[1]) for s in samples) / 1024)


def timed(func, runs: int) -> float:
    samples = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        result = func()
        samples.append(time.perf_counter() - start)
        del result
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--large", action="store_true", help="add 12,800 servers (400 SUs)")
    parser.add_argument("--file", type=Path, action="append", default=[], metavar="PATH",
                        help="time only the first load of this .fabric file, in parts")
    args = parser.parse_args()
    compile_sources()  # new processes time what a second run does (bytecode.py)
    if args.file:
        for path in args.file:
            file_phases(path, args.runs)
        return
    catalog = builtin_catalog()
    sizes = SIZES + ([(12800, 400)] if args.large else [])
    print(f"{'servers':>7} {'devices':>7} {'links':>7} {'size MB':>8} {'save s':>7} "
          f"{'after edit':>10} {'after open':>10} {'load s':>7} {'1st load':>8} {'RSS MB':>7}"
          f"  (median of {args.runs}; RSS: peak of the 1st-load process)")
    with tempfile.TemporaryDirectory() as folder:
        for servers, sus in sizes:
            doc = build(catalog, sus)
            path = Path(folder) / f"f{servers}.fabric"
            save = timed(lambda doc=doc, path=path: _cold_save(doc, path), args.runs)
            edited = timed(lambda doc=doc, path=path: _save_after_edit(doc, path), args.runs)
            load = timed(lambda path=path: load_fabric(path, catalog), args.runs)
            opened = _save_after_open(path, catalog, args.runs)
            first, rss = fresh_load(path, args.runs)
            size = path.stat().st_size / 1e6
            print(f"{servers:>7} {len(doc.devices):>7} {len(doc.links):>7} {size:>8.1f} "
                  f"{save:>7.3f} {edited:>10.3f} {opened:>10.3f} {load:>7.3f} {first:>8.3f} "
                  f"{rss:>7.0f}")
            del doc
            gc.unfreeze()
            gc.collect()


if __name__ == "__main__":
    main()
