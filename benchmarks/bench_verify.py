"""`aicnet verify` speed: read an observation of a rail-optimized fabric and compare it with the
design, at 128 to 4,096 8-GPU servers (the last ~98k links).

The observation is what the tools would print for the design cabled with five faults (a swap,
a shift, a missing cable, an extra cable, crossed rails), written once per size by
`aicnet_gui.asbuilt.simulate`: an ibnetdiscover file (the whole fabric) and one lldpctl JSON
file per switch.  Timed, as `aicnet verify` runs them: reading the input, comparing, and the
re-work list (which builds the cabling plan for cable numbers and labels).  Medians of --runs.

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

from bench_analysis import build  # noqa: E402

from aicnet_gui.asbuilt import compare, read_ibnetdiscover, read_lldp, rework_list  # noqa: E402
from aicnet_gui.asbuilt import simulate as sim  # noqa: E402
from aicnet_gui.catalog.loader import builtin_catalog  # noqa: E402
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


def timed(runs: int, work) -> tuple[float, object]:  # noqa: ANN001
    times, result = [], None
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[128, 1024, 4096])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    catalog = builtin_catalog()
    print(f"{'servers':>8} {'links':>7} {'input':>14} {'read s':>7} {'compare s':>9} "
          f"{'rework s':>8} {'total s':>7} {'diffs':>5}")
    for servers in args.sizes:
        doc, _ = build(catalog, servers)
        namer = PortNamer(doc, fallback=catalog.devices)
        links = seeded(doc)
        with tempfile.TemporaryDirectory() as folder:
            ib = Path(folder) / "ibnetdiscover.txt"
            ib.write_text(sim.ibnetdiscover_text(doc, links, namer))
            switches = {d for d in doc.devices if doc.tier_of(d) >= 1}
            sim.write_lldp_files(sim.lldp_outputs(doc, links, namer, hosts=switches),
                                 Path(folder) / "lldp")
            inputs = {"ibnetdiscover": lambda: read_ibnetdiscover(ib),
                      "lldp (switches)": lambda: read_lldp([Path(folder) / "lldp"])}
            for name, read in inputs.items():
                t_read, observation = timed(args.runs, read)

                def check(observation=observation):  # noqa: ANN001, ANN202
                    return compare(doc, observation, PortNamer(doc, fallback=catalog.devices))

                t_cmp, result = timed(args.runs, check)
                t_rw, _ = timed(args.runs, lambda result=result: rework_list(doc, result))
                total = t_read + t_cmp + t_rw
                print(f"{servers:>8} {len(doc.links):>7} {name:>14} {t_read:>7.2f} "
                      f"{t_cmp:>9.2f} {t_rw:>8.2f} {total:>7.2f} "
                      f"{len(result.differences):>5}")


if __name__ == "__main__":
    main()
