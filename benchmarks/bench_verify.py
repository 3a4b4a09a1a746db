"""`aicnet verify` speed: read an observation of a rail-optimized fabric and compare it with the
design, at 128 to 4,096 8-GPU servers (the last ~98k links).

The observation is what the tools would print for the design cabled with five faults (a swap,
a shift, a missing cable, an extra cable, crossed rails), written once per size by
`tests/asbuilt/captures.py`: an ibnetdiscover file (the whole fabric) and one lldpctl JSON
file per switch.  Timed, as `aicnet verify` runs them: reading the input, comparing, and the
re-work list (which builds the cabling plan for cable numbers and labels), with the garbage
collector held as the command holds it.  Medians of --runs; wall clock and process CPU time
(the CPU time is steadier when other jobs share the machine).

Budget (issue 17): 4,096 servers verify in < 5 s on the 2-core machine.

    .venv/bin/python benchmarks/bench_verify.py [--sizes 128 1024 4096] [--runs 3]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "asbuilt"))  # captures

import captures as sim  # noqa: E402  (the tools' output layouts, test code)
from bench_analysis import build  # noqa: E402

from aicnet_gui.asbuilt import compare, read_ibnetdiscover, read_lldp, rework_list  # noqa: E402
from aicnet_gui.catalog.loader import builtin_catalog  # noqa: E402
from aicnet_gui.gc_control import gc_held  # noqa: E402
from aicnet_gui.model.catalog import Catalog  # noqa: E402
from aicnet_gui.model.document import FabricDocument  # noqa: E402
from aicnet_gui.model.port_names_os import PortNamer  # noqa: E402


def seeded(doc: FabricDocument) -> list[sim.SimLink]:
    links = sim.planned_links(doc)
    links[0].b, links[1].b = links[1].b, links[0].b           # swap
    del links[10]                                              # missing
    links[20].speed_gbps = 200                                 # wrong speed
    servers = sorted(d for d in doc.devices if doc.tier_of(d) == 0)
    free = [(s, p) for s in servers[:2] for p in doc.free_ports(s)
            if doc.port(s, p).speed_gbps == 400]
    links.append(sim.SimLink(free[0], free[-1], 400))          # extra
    return links


CPU: list[float] = []


def timed(runs: int, work) -> tuple[float, object]:  # noqa: ANN001
    """Median wall time of `work()` with the collector held, as `aicnet verify` runs it; the
    median process CPU time goes to CPU (steadier on a shared machine)."""
    times, cpus, result = [], [], None
    for _ in range(runs):
        gc.collect()
        cpu = time.process_time()
        start = time.perf_counter()
        with gc_held():
            result = work()
        times.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    CPU.append(statistics.median(cpus))
    return statistics.median(times), result


def measure(servers: int, doc: FabricDocument, catalog: Catalog, folder: Path,
            runs: int) -> None:
    namer = PortNamer(doc, fallback=catalog.devices)
    links = seeded(doc)
    ib = folder / "ibnetdiscover.txt"
    ib.write_text(sim.ibnetdiscover_text(doc, links, namer))
    switches = {d for d in doc.devices if doc.tier_of(d) >= 1}
    sim.write_lldp_files(sim.lldp_outputs(doc, links, namer, hosts=switches), folder / "lldp")
    inputs = {"ibnetdiscover": lambda: read_ibnetdiscover(ib),
              "lldp (switches)": lambda: read_lldp([folder / "lldp"])}
    for name, read in inputs.items():
        CPU.clear()
        t_read, observation = timed(runs, read)
        t_cmp, result = timed(runs, lambda observation=observation: compare(
            doc, observation, PortNamer(doc, fallback=catalog.devices)))
        t_rw, _ = timed(runs, lambda result=result: rework_list(doc, result))
        total = t_read + t_cmp + t_rw
        print(f"{servers:>8} {len(doc.links):>7} {name:>15} {t_read:>7.2f} {t_cmp:>9.2f} "
              f"{t_rw:>8.2f} {total:>7.2f} {sum(CPU):>6.2f} {len(result.differences):>5}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[128, 1024, 4096])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    catalog = builtin_catalog()
    print(f"{'servers':>8} {'links':>7} {'input':>15} {'read s':>7} {'compare s':>9} "
          f"{'rework s':>8} {'total s':>7} {'cpu s':>6} {'diffs':>5}")
    for servers in args.sizes:
        doc, _ = build(catalog, servers)
        with tempfile.TemporaryDirectory() as folder:
            measure(servers, doc, catalog, Path(folder), args.runs)


if __name__ == "__main__":
    main()
