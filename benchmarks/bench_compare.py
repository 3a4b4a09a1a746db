"""Which-fabric study speed: `aicnet compare`'s study (aicnet_gui/study/) end to end.

Two studies of 12 candidates each, DGX H100 servers on six switch models (QM9700 InfiniBand;
SN5600, SN5610, Arista 7060X6, Cisco N9364E, Juniper QFX5240 RoCEv2) at 1:1 and 2:1, every
candidate generated, placed, cabled, written, read back, validated, priced (the test price
list), swept for its worst switch failure and, with --growth, planned to twice its size:

- 1,024 GPUs (128 servers): budget < 30 s on a 2-core machine;
- 16,384 GPUs (2,048 servers, three tiers): budget < 3 minutes.

Progress goes to stderr as the study reports it (candidates done, ETA); the summary prints the
wall time, the slowest candidate and the per-candidate median.

    .venv/bin/python benchmarks/bench_compare.py [--gpus 1024 16384] [--workers 2] [--growth]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.model.fabric import Requirement
from aicnet_gui.study import Study, StudyProgress, run_study

ROOT = Path(__file__).resolve().parents[1]
PRICES = ROOT / "tests" / "study" / "data" / "test-prices.csv"  # made-up test numbers
LEAVES = ["nvidia-qm9700", "nvidia-sn5600", "nvidia-sn5610", "arista-7060x6-64pe",
          "cisco-n9364e-sg2-o", "juniper-qfx5240-64od"]
BUDGET_S = {1024: 30.0, 16384: 180.0}


def _progress(p: StudyProgress) -> None:
    if p.last is None:
        return
    eta = f", ETA {p.eta_s:.0f} s" if p.eta_s is not None and p.done < p.total else ""
    print(f"  {p.done}/{p.total} {p.last.name} {p.last.seconds:.1f} s "
          f"({p.elapsed_s:.1f} s{eta})", file=sys.stderr, flush=True)


def study(gpus: int, workers: int, growth: bool) -> None:
    servers = gpus // 8
    requirement = Requirement(
        name=f"{gpus} GPUs", servers=servers, leaves=LEAVES,
        sweep={"oversubscription": [1.0, 2.0]},
        growth={"servers": 2 * servers} if growth else None)
    catalog = builtin_catalog()
    prepared = Study.prepare(requirement, catalog, prices=PRICES)
    with tempfile.TemporaryDirectory(prefix="bench-compare-") as out:
        started = time.perf_counter()
        result = run_study(prepared, out, workers=workers, progress=_progress)
        wall = time.perf_counter() - started
    built = [c for c in result.candidates if c.metrics is not None]
    seconds = [c.seconds for c in result.candidates]
    links = max((c.metrics.links for c in built), default=0)
    slowest = max(result.candidates, key=lambda c: c.seconds)
    budget = BUDGET_S.get(gpus)
    print(f"{gpus:,} GPUs: {len(result.candidates)} candidates ({len(built)} built, up to "
          f"{links:,} links) in {wall:.1f} s with {result.workers or 1} worker(s)"
          + (f" (budget {budget:g} s)" if budget else "")
          + f"; per candidate median {statistics.median(seconds):.1f} s, slowest "
          f"{slowest.name} {slowest.seconds:.1f} s" + ("; growth planned" if growth else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpus", type=int, nargs="+", default=[1024, 16384])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--growth", action="store_true",
                        help="plan each candidate's growth to twice its size")
    args = parser.parse_args()
    for gpus in args.gpus:
        study(gpus, args.workers, args.growth)


if __name__ == "__main__":
    main()
