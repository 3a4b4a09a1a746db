"""Generator speed: time to generate fabrics of 128, 1,024 and 4,096 8-GPU servers.

Each run is a whole `generate()` (plan, racks, lengths, media, ops, one `doc.apply`) into an
empty document, with the garbage collector paused as `generate` does it.  The script prints the
median of 3 runs and its parts: building the ops (`build_ops`) and applying them (`apply`, the
model's validation and indexing), wall-clock, plus the process CPU time (steadier on a shared
machine).  Budget (DESIGN.md §7): 4,096 servers in < 2 s.  `--large` adds 12,800 servers
(400 SUs, 102,400 GPUs): DGX H100 on SN5600 leaves, spines and cores, RoCEv2 (a 3-tier fat
tree of 64-port QM9700s holds at most 65,536 NIC ports, and NDR optics cannot join Q3400-RA's
XDR cages; issue 22 target: < 4 s), the two-plane DGX B300 on SN5600 at 100 SUs (307,200 links:
the single-plane case's link count, issue 36) and at 200 SUs (the same 102,400 GPUs, 614,400 links)
and the DGX B300 XDR SuperPOD shape, 72-node SUs on Q3400-RA leaves, spines and cores (178 SUs,
102,528 GPUs, media on every link).  The B300 designs use NVIDIA's four per rack (B300 XDR RA):
a 61 kW rack budget, what four at the User Guide's 15 kW maximum and their optics take.

    .venv/bin/python benchmarks/bench_generate.py [--runs N] [--profile] [--large]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import statistics
import subprocess
import sys
import time

from child_peak import PEAK_KB_SOURCE

from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.gc_control import gc_paused
from aicnet_gui.generators import RailOptimizedParams, ThreeTierParams, build_ops
from aicnet_gui.generators.template_params import FloorParams
from aicnet_gui.model.document import FabricDocument

QM9700 = "nvidia-qm9700"
B300_RACKS = FloorParams(rack_power_kw=61)  # 4 DGX B300 per rack, as NVIDIA's RA
CASES = [
    ("rail-optimized, 4 SU (2 tiers)", 128, RailOptimizedParams(sus=4, leaf=QM9700)),
    ("rail-optimized, 32 SU (3 tiers)", 1024, RailOptimizedParams(sus=32, leaf=QM9700)),
    ("rail-optimized, 128 SU (3 tiers)", 4096, RailOptimizedParams(sus=128, leaf=QM9700)),
    ("three-tier", 4096, ThreeTierParams(servers=4096, leaf=QM9700)),
]
LARGE = [
    ("rail-optimized, 400 SU on SN5600", 12800,
     RailOptimizedParams(sus=400, leaf="nvidia-sn5600", technology="rocev2")),
    ("B300, 2 planes, 100 SU on SN5600", 6400,
     RailOptimizedParams(sus=100, planes=2, server="nvidia-dgx-b300", leaf="nvidia-sn5600",
                         technology="rocev2", floor=B300_RACKS)),
    ("B300, 2 planes, 200 SU on SN5600", 12800,
     RailOptimizedParams(sus=200, planes=2, server="nvidia-dgx-b300", leaf="nvidia-sn5600",
                         technology="rocev2", floor=B300_RACKS)),
    ("B300 XDR, 178 SU x 72 on Q3400-RA", 12816,
     RailOptimizedParams(sus=178, server="nvidia-dgx-b300", leaf="nvidia-q3400-ra",
                         floor=B300_RACKS)),
]


def one_run(catalog, params) -> tuple[float, float, float, int, int]:
    """(build_ops s, apply s, CPU s of both, devices, links) of one generation."""
    doc = FabricDocument(catalog)
    gc.collect()
    cpu = time.process_time()
    start = time.perf_counter()
    with gc_paused():
        ops, _ = build_ops(doc, params)
        built = time.perf_counter()
        doc.apply(ops)
    done = time.perf_counter()
    cpu = time.process_time() - cpu
    sizes = len(doc.devices), len(doc.links)
    del doc, ops
    gc.unfreeze()
    gc.collect()
    return built - start, done - built, cpu, *sizes


_FRESH = PEAK_KB_SOURCE + """
import resource, sys, time
from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.gc_control import gc_paused
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument
params = RailOptimizedParams.model_validate_json(sys.argv[1])
doc = FabricDocument(builtin_catalog())
start = time.perf_counter()
with gc_paused():
    generate(doc, params)
print(time.perf_counter() - start, peak_kb())
"""


def fresh_run(params: RailOptimizedParams) -> tuple[float, float]:
    """One generation in a new process: (s, peak RSS MB of that process)."""
    out = subprocess.run([sys.executable, "-c", _FRESH, params.model_dump_json()], check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), int(out[1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="cProfile the largest case")
    parser.add_argument("--large", action="store_true", help="add the 12,800-server cases")
    args = parser.parse_args()
    catalog = builtin_catalog()
    print(f"{'case':<34} {'servers':>7} {'devices':>7} {'links':>7} {'build_ops':>9} "
          f"{'apply':>7} {'total':>7} {'cpu':>7}  (s, median of {args.runs})")
    cases = CASES + (LARGE if args.large else [])
    for label, servers, params in cases:
        runs = [one_run(catalog, params) for _ in range(args.runs)]
        build = statistics.median(r[0] for r in runs)
        apply = statistics.median(r[1] for r in runs)
        total = statistics.median(r[0] + r[1] for r in runs)
        cpu = statistics.median(r[2] for r in runs)
        devices, links = runs[0][3], runs[0][4]
        print(f"{label:<34} {servers:>7} {devices:>7} {links:>7} {build:>9.3f} {apply:>7.3f} "
              f"{total:>7.3f} {cpu:>7.3f}")
    if args.large:
        for label, _servers, params in LARGE:
            wall, rss = fresh_run(params)
            print(f"{label:<34} in a new process: {wall:.3f} s, peak RSS {rss:.0f} MB")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        one_run(catalog, cases[-1][2])
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
