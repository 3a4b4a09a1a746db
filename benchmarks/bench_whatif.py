"""Failure what-if speed: one what-if and single-failure sweeps on rail-optimized fabrics.

For each size (default 4,096 DGX H100 servers, ~98k links, 3 tiers from the rail-optimized
generator as in bench_analysis.py) the script prints:
- one what-if: `WhatIf(doc).run(failure)` of one leaf, from the loaded document (copy, analysis,
  arrays, intact state, the failure): median of --runs, and the failure run alone;
- sweeps: every single spine, leaf, core and cable failure (`sweep(doc, kind)`), with the number of
  structural classes evaluated; `--exact` adds the spine sweep without classes.

Budgets (issue 19): one what-if < 1 s and a sweep over all spines < 30 s at 4,096 servers.

    .venv/bin/python benchmarks/bench_whatif.py [--sizes 4096] [--runs 3] [--exact]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_analysis import build  # noqa: E402

from aicnet_gui.catalog.loader import builtin_catalog  # noqa: E402
from aicnet_gui.change.failures import resolve  # noqa: E402
from aicnet_gui.change.sweep import sweep  # noqa: E402
from aicnet_gui.change.whatif import WhatIf  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4096])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--exact", action="store_true", help="also sweep spines without classes")
    args = parser.parse_args()
    catalog = builtin_catalog()
    for servers in args.sizes:
        doc, how = build(catalog, servers)
        gc.collect()
        gc.freeze()
        roles: dict[str, list[str]] = {}
        for device in sorted(doc.devices.values(), key=lambda d: d.name):
            roles.setdefault(doc.role_of(device).value, []).append(device.id)
        print(f"{servers} servers ({how}): {len(doc.links)} links, "
              + ", ".join(f"{len(v)} {k}" for k, v in sorted(roles.items())))
        leaf = roles["leaf"][len(roles["leaf"]) // 2]
        failure = resolve(doc, [leaf])
        whole, cpu, alone = [], [], []
        for _ in range(args.runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            engine = WhatIf(doc)
            mid = time.perf_counter()
            result = engine.run(failure)
            end = time.perf_counter()
            whole.append(end - start)
            cpu.append(time.process_time() - start_cpu)
            alone.append(end - mid)
        print(f"  one what-if ({leaf}: {result.gpus_lost} GPUs cut off): "
              f"{statistics.median(whole):.2f} s median (best {min(whole):.2f}, CPU "
              f"{statistics.median(cpu):.2f} s); the failure run alone "
              f"{statistics.median(alone) * 1000:.0f} ms")
        engine = WhatIf(doc)
        for kind in ("spine", "leaf", "core", "cable"):
            if kind != "cable" and kind not in roles:
                continue
            start, start_cpu = time.perf_counter(), time.process_time()
            result = sweep(doc, kind, engine=engine)
            print(f"  sweep of every {kind} ({len(result.entries)} failures, {result.classes} "
                  f"classes evaluated): {time.perf_counter() - start:.2f} s "
                  f"(CPU {time.process_time() - start_cpu:.2f} s)")
        if args.exact:
            start, start_cpu = time.perf_counter(), time.process_time()
            result = sweep(doc, "spine", exact=True, engine=engine)
            print(f"  sweep of every spine, exact ({len(result.entries)} evaluated): "
                  f"{time.perf_counter() - start:.2f} s (CPU {time.process_time() - start_cpu:.2f} s)")
        gc.unfreeze()


if __name__ == "__main__":
    main()
