"""Analysis speed: full analysis and single-edit re-analysis of rail-optimized fabrics.

Fabrics of 128, 512, 1,024 and 4,096 8-GPU servers (the last ~98k links) come from the
rail-optimized generator (`aicnet_gui.generators`, QM9700 leaves; `benchmarks/fabric_builder.py`
when the generator is not available), built with the garbage collector paused and the result
frozen, as a loaded file would be.

For each size the script prints:
- full: `Analyzer(doc).full()` on a fresh analyzer (median and best of --runs), wall clock and
  process CPU time (steadier on a shared machine);
- edit: `analyzer.update(changes)` after one edit, median and 90th percentile over --edits edits
  of each kind: a link's length, a link's cable, removing a link and adding it back (topology),
  a device's firmware, moving a server to another RU, and the remove / add-back of a server's
  NIC cable (server-leaf) and of a leaf-spine cable (their ECMP and workload refresh differ),
  with the CPU time of each update alongside (steadier on a shared machine).  The analyzer
  runs as the GUI's live validator runs it (`defer_graph`: above 20k links a rewiring edit
  keeps the last max-flow bisection and the worker's full run recomputes it);
- graph pass: what a rewiring edit costs when the graph facts are recomputed (islands, worst
  path, max-flow bisection of every workload), i.e. the background part.

- with --cli: `aicnet validate FILE` (and `--json`) end to end in a new process on the saved
  fabric: start-up, catalog, load, analysis, the fix checker and the printed report, wall clock
  (median of --runs) and the process's peak RSS.

Budgets (DESIGN.md §7, 2-core machine): full < 300 ms and one edit < 5 ms at 4,096 servers.
`--sizes 12800` is the 400-SU design of issue 22 (102,400 GPUs, ~308k links; above 256 SUs the
spines and cores are Q3400-RA, as a 3-tier fat tree of 64-port QM9700s stops at 8,192 servers):
one edit < 5 ms, `aicnet validate` < 2 s, memory < 1 GB.  The catalog has no optic for an NDR
leaf's 400G legs into a Q3400-RA cage (4x400G), so ~206k links of that design have no cable
(CABLE-UNSET findings); `--xdr` builds the XDR SuperPOD shape instead (DGX B300, 72-node SUs on
Q3400-RA: `--sizes 12800 --xdr` is 178 SUs, 12,816 servers, 308,736 links, media on every
link); `--catalog DIR` adds a catalog folder for the fabric.

    .venv/bin/python benchmarks/bench_analysis.py [--sizes 128 512 1024 4096] [--runs 5] [--edits 30]
        [--cli] [--xdr] [--catalog DIR]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bytecode import compile_sources
from child_peak import PEAK_KB_SOURCE

from aicnet_gui.analysis import Analyzer
from aicnet_gui.catalog.loader import builtin_catalog, load_catalog
from aicnet_gui.fileio import save_fabric
from aicnet_gui.gc_control import gc_paused
from aicnet_gui.model.catalog import Catalog
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import RemoveLink, UpdateDevice, UpdateLink


def build(catalog: Catalog, servers: int, xdr: bool = False) -> tuple[FabricDocument, str]:
    try:
        from aicnet_gui.generators import RailOptimizedParams, generate
    except ImportError:
        generate = None
    if generate is not None and xdr:
        from aicnet_gui.generators.template_params import FloorParams

        doc = FabricDocument(catalog)
        with gc_paused():
            # four per rack as NVIDIA's B300 XDR RA: 61 kW takes four at 15 kW max with optics
            generate(doc, RailOptimizedParams(sus=round(servers / 72), server="nvidia-dgx-b300",
                                              leaf="nvidia-q3400-ra",
                                              floor=FloorParams(rack_power_kw=61)))
        return doc, "generators.rail-optimized, DGX B300 in 72-node SUs on Q3400-RA (XDR)"
    if generate is not None:
        doc = FabricDocument(catalog)
        sus = servers // 32
        # above 8,192 servers a 3-tier fat tree of 64-port QM9700s runs out of ports
        spine = "nvidia-q3400-ra" if sus > 256 else None
        with gc_paused():
            generate(doc, RailOptimizedParams(sus=sus, leaf="nvidia-qm9700", spine=spine))
        return doc, "generators.rail-optimized" + (" with Q3400-RA spines and cores" if spine else "")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from fabric_builder import build_rail_optimized

    return build_rail_optimized(catalog, servers), "fabric_builder"


def time_full(doc: FabricDocument, runs: int) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for _ in range(runs):
        gc.collect()
        cpu = time.process_time()
        start = time.perf_counter()
        Analyzer(doc).full()
        walls.append((time.perf_counter() - start) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return walls, cpus


def edit_kinds(doc: FabricDocument, rng: random.Random):  # noqa: ANN201
    links = sorted(doc.links)
    servers = sorted(d for d in doc.devices if doc.tier_of(d) == 0)
    switches = sorted(d for d in doc.devices if doc.tier_of(d) >= 1)

    def between(low: int, high: int) -> list[str]:
        return [i for i in links if sorted((doc.tier_of(doc.links[i].a.device),
                                            doc.tier_of(doc.links[i].b.device))) == [low, high]]

    nic_links, leaf_spine = between(0, 1), between(1, 2)

    def length():
        link_id = rng.choice(links)
        return doc.apply([UpdateLink(link_id, {"length_m": rng.choice([4.0, 9.0, 17.4])})])

    def cable():
        link_id = rng.choice(links)
        old = doc.links[link_id].cable
        cable = "nvidia-mfp7e30" if old != "nvidia-mfp7e30" else old
        return doc.apply([UpdateLink(link_id, {"cable": cable})])

    def rewire(among: list[str]):  # noqa: ANN202
        def remove_and_add():
            edit = doc.apply([RemoveLink(rng.choice(among))])
            return edit, edit.inverse
        return remove_and_add

    def firmware():
        switch = rng.choice(switches)
        return doc.apply([UpdateDevice(switch, {"firmware": rng.choice(["fw-a", "fw-b"])})])

    def move():
        server = rng.choice(servers)
        device = doc.devices[server]
        if device.ru is None:
            return None
        for ru in range(1, 40):
            if ru != device.ru:
                try:
                    return doc.apply([UpdateDevice(server, {"ru": ru})])
                except ValueError:
                    continue
        return None

    # (the rewiring kinds of one tier come last: the earlier kinds keep their random edits)
    return {"link length": length, "link cable": cable, "remove/add link": rewire(links),
            "device firmware": firmware, "move server": move,
            "rewire server-leaf": rewire(nic_links), "rewire leaf-spine": rewire(leaf_spine)}


def time_edits(doc: FabricDocument, edits: int,
               seed: int = 1) -> dict[str, tuple[list[float], list[float]]]:
    """Per edit kind: the wall and CPU milliseconds of each update."""
    rng = random.Random(seed)
    analyzer = Analyzer(doc)
    analyzer.full()
    analyzer.defer_graph = True
    result: dict[str, tuple[list[float], list[float]]] = {}

    def timed(edit, walls: list[float], cpus: list[float]) -> None:  # noqa: ANN001
        cpu = time.process_time()
        start = time.perf_counter()
        analyzer.update(edit.changes)
        walls.append((time.perf_counter() - start) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)

    for name, make in edit_kinds(doc, rng).items():
        walls: list[float] = []
        cpus: list[float] = []
        for _ in range(edits):
            made = make()
            if made is None:
                continue
            if isinstance(made, tuple):  # remove, then re-add: two edits
                edit, inverse = made
                timed(edit, walls, cpus)
                edit = doc.apply(inverse)
            else:
                edit = made
            timed(edit, walls, cpus)
        result[name] = (walls, cpus)
    return result


def time_graph_pass(doc: FabricDocument, runs: int) -> list[float]:
    """Islands, worst path and every workload's max-flow bisection (its rail-aligned and cross-rail
    cuts) on a rewired fabric."""
    import numpy as np

    from aicnet_gui.analysis import fabric_paths

    analyzer = Analyzer(doc)
    analyzer.full()
    state = analyzer.state
    assert state is not None
    times = []
    for _ in range(runs):
        state.topo.version += 1  # as after an edit that rewired a link
        start = time.perf_counter()
        n = state.store.n_devices
        servers = state.store.d["server"][:n] & state.store.d["alive"][:n]
        fabric_paths.islands(state, servers)
        fabric_paths.worst_path(state)
        for model in state.wl_models.values():
            fabric_paths.bisection(state, np.flatnonzero(model.members[:n]))  # both cuts
        times.append((time.perf_counter() - start) * 1000)
    return times


_VALIDATE = PEAK_KB_SOURCE + """
import resource, sys, time
start = time.perf_counter()
from aicnet_gui.cli import main
sys.stdout = open("/dev/null", "w")
code = main(sys.argv[1:])
sys.stdout = sys.__stdout__
print(time.perf_counter() - start, peak_kb(), code)
"""


def time_cli(doc: FabricDocument, runs: int) -> dict[str, tuple[float, float, int]]:
    """`aicnet validate` and `aicnet validate --json` on the saved fabric, each in a new process:
    (median wall s from interpreter start-up to exit code, peak RSS MB, exit code)."""
    result = {}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.fabric"
        save_fabric(doc, path, keep_backup=False)
        env = {**os.environ, "AICNET_USER_CATALOG_DIR": str(Path(folder) / "no-user-catalog")}
        for label, extra in (("validate", []), ("validate --json", ["--json"])):
            samples = []
            for _ in range(runs):
                start = time.perf_counter()
                out = subprocess.run([sys.executable, "-c", _VALIDATE, "validate", *extra, str(path)],
                                     check=True, capture_output=True, text=True, env=env).stdout
                wall = time.perf_counter() - start
                _inner, rss_kb, code = out.split()
                samples.append((wall, int(rss_kb) / 1024, int(code)))
            result[label] = (statistics.median(s[0] for s in samples),
                             max(s[1] for s in samples), samples[0][2])
    return result


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.9 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[128, 512, 1024, 4096])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--cli", action="store_true",
                        help="also time `aicnet validate` end to end in a new process")
    parser.add_argument("--xdr", action="store_true",
                        help="DGX B300 in 72-node SUs on Q3400-RA (SUs: servers / 72) instead of "
                             "DGX H100 on QM9700")
    parser.add_argument("--catalog", metavar="DIR", action="append", default=[],
                        help="an extra catalog folder (e.g. XDR optics for the 12,800 size)")
    args = parser.parse_args()
    compile_sources()  # new processes time what a second run does (bytecode.py)
    if args.catalog:
        loaded = load_catalog(args.catalog, include_user=False)
        for problem in loaded.problems:
            print(f"catalog: {problem}", file=sys.stderr)
        catalog = loaded.catalog
    else:
        catalog = builtin_catalog()
    for servers in args.sizes:
        doc, source = build(catalog, servers, args.xdr)
        cli = time_cli(doc, args.runs) if args.cli else {}
        walls, cpus = time_full(doc, args.runs)
        print(f"{servers} servers ({source}): {len(doc.devices)} devices, {len(doc.links)} links")
        print(f"  full analysis   median {statistics.median(walls):7.1f} ms  best {min(walls):7.1f} ms"
              f"  (CPU median {statistics.median(cpus):.1f} ms)")
        edits = time_edits(doc, args.edits)
        every = [t for walls, _cpus in edits.values() for t in walls]
        every_cpu = [t for _walls, cpus in edits.values() for t in cpus]
        for name, (walls, cpus) in edits.items():
            print(f"  edit {name:<18} median {statistics.median(walls):6.2f} ms  "
                  f"p90 {p90(walls):6.2f} ms  (CPU median {statistics.median(cpus):5.2f} ms  "
                  f"p90 {p90(cpus):5.2f} ms; {len(walls)} updates)")
        print(f"  edit (all kinds)        median {statistics.median(every):6.2f} ms  "
              f"p90 {p90(every):6.2f} ms  (CPU median {statistics.median(every_cpu):5.2f} ms  "
              f"p90 {p90(every_cpu):5.2f} ms)")
        graph = time_graph_pass(doc, args.runs)
        print(f"  graph pass (islands, worst path, max-flow) median "
              f"{statistics.median(graph):6.1f} ms  best {min(graph):6.1f} ms")
        for label, (wall, rss, code) in cli.items():
            print(f"  aicnet {label:<16} median {wall:6.2f} s  peak RSS {rss:6.0f} MB"
                  f"  (exit {code}, new process, before the edits)")
        print(f"  peak RSS of this process so far "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
        del doc
        gc.unfreeze()
        gc.collect()


if __name__ == "__main__":
    main()
