"""Traffic model speed (aicnet_gui/traffic, issue 35): `TrafficModel(doc)` (the analysis
columns, the directed links) and `workload(...)` for the generator's training workload.

Cases and targets (a 2-core machine; DESIGN.md §7 style budgets, not timed tests):

- 1 SU (32 DGX H100, 256 GPUs, QM9700, InfiniBand): every mode, under 1 s;
- 16 SUs (512 DGX H100, 4,096 GPUs, QM9700): ECMP with 20 seeds, under 10 s;
- 400 SUs (12,800 DGX H100, 102,400 GPUs, SN5600, RoCEv2; bench_generate.py's large case):
  under 60 s with progress and cancel; the script also cancels a run part way and times how
  long the cancel takes to land (`--large` to include it).

Each line: the model's set-up, the run, and the total (wall clock, median of `--runs`), with
NCCL's algorithm, the flows and the busBW it found.

    .venv/bin/python benchmarks/bench_traffic.py [--runs N] [--large]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.gc_control import gc_paused
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.traffic import MODES, Cancelled, TrafficModel, TrafficParams

CASES = [
    ("1 SU, 256 GPUs, every mode", RailOptimizedParams(sus=1, leaf="nvidia-qm9700"), MODES, 1.0),
    ("16 SUs, 4,096 GPUs, ECMP x 20", RailOptimizedParams(sus=16, leaf="nvidia-qm9700"),
     ("ecmp",), 10.0),
]
LARGE = [
    ("400 SUs, 102,400 GPUs, every mode",
     RailOptimizedParams(sus=400, leaf="nvidia-sn5600", technology="rocev2"), MODES, 60.0),
]


def one(doc: FabricDocument, modes: tuple[str, ...]) -> tuple[float, float, object]:
    """(set-up s, run s, result) of one traffic run."""
    (wl_id,) = doc.workloads
    start = time.perf_counter()
    model = TrafficModel(doc, TrafficParams(seeds=20))
    ready = time.perf_counter()
    result = model.workload(wl_id, modes)
    return ready - start, time.perf_counter() - ready, result


def cancel_latency(doc: FabricDocument, after: float) -> tuple[float, float]:
    """Cancel a run once `after` of it is reported done: (fraction reached, s from the cancel
    request to the run stopping)."""
    (wl_id,) = doc.workloads
    state = {"asked": None, "fraction": 0.0}

    def progress(fraction: float, _text: str) -> None:
        state["fraction"] = fraction
        if fraction >= after and state["asked"] is None:
            state["asked"] = time.perf_counter()

    model = TrafficModel(doc, TrafficParams(seeds=20))
    try:
        model.workload(wl_id, MODES, progress, cancel=lambda: state["asked"] is not None)
    except Cancelled:
        return state["fraction"], time.perf_counter() - state["asked"]
    return 1.0, 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--large", action="store_true", help="add the 400-SU case")
    args = parser.parse_args()
    catalog = builtin_catalog()
    for label, params, modes, target in CASES + (LARGE if args.large else []):
        doc = FabricDocument(catalog)
        with gc_paused():
            generate(doc, params)
        runs = [one(doc, modes) for _ in range(args.runs if params.sus < 100 else 1)]
        setup = statistics.median(r[0] for r in runs)
        run = statistics.median(r[1] for r in runs)
        total = statistics.median(r[0] + r[1] for r in runs)
        result = runs[0][2]
        busbw = ", ".join(f"{m} {r.busbw_gbps / 8:.1f}" for m, r in result.modes.items())
        print(f"{label:<36} set-up {setup:6.2f} s  run {run:6.2f} s  total {total:6.2f} s "
              f"(target {target:g} s)  {len(doc.links):,} links; NCCL {result.algorithm}/"
              f"{result.protocol}, {result.pattern} flows; busBW GB/s {busbw}")
        if params.sus >= 100:
            reached, latency = cancel_latency(doc, 0.3)
            print(f"{'':<36} cancelled at {reached:.0%}: stopped {latency * 1000:.0f} ms after "
                  "the request")
        del doc, runs
        gc.collect()


if __name__ == "__main__":
    main()
