"""`aicnet diff` of two revisions of the 308,736-link XDR design (issue 38: one edit apart under
2 s, 10 % of the links apart under 5 s), end to end in new processes.

The base design is generated (178 SUs of DGX B300 on Q3400-RA); the revisions are made from it
through the document's mutation API and saved: "one edit" types in one link's length; "10 %"
changes 30,873 links: 40 % of them get a typed-in length, 20 % a colour, 20 % swap their far
ends in pairs (re-terminations), 10 % are removed and 10 % removed and added back (half under a
new id).  Each diff runs with this checkout and, with `--before TREE`, another, alternating;
the script prints wall time and peak memory of each and whether both printed the same JSON.

    .venv/bin/python benchmarks/bench_diff.py [--runs 3] [--before TREE] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from pathlib import Path

from big_outputs import _RUN, design, timed
from trees import env, trees, work_folder

from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.fileio import load_fabric, save_fabric
from aicnet_gui.model.edits import AddLink, RemoveLink, UpdateLink


def revisions(base: Path, folder: Path) -> tuple[Path, Path]:
    one, ten = folder / "xdr-one-edit.fabric", folder / "xdr-ten-percent.fabric"
    if one.exists() and ten.exists():
        return one, ten
    catalog = builtin_catalog()
    doc = load_fabric(base, catalog)
    ids = list(doc.links)
    doc.apply([UpdateLink(ids[len(ids) // 2], {"length_m": 7.0})])
    save_fabric(doc, one)
    doc = load_fabric(base, catalog)
    rng = random.Random(1)
    pick = rng.sample(ids, len(ids) // 10)
    n = len(pick)
    lengths, colours = pick[:n * 4 // 10], pick[n * 4 // 10:n * 6 // 10]
    swaps, removes, readds = pick[n * 6 // 10:n * 8 // 10], pick[n * 8 // 10:n * 9 // 10], \
        pick[n * 9 // 10:]
    ops = [UpdateLink(i, {"length_m": float(rng.randint(2, 20))}) for i in lengths]
    ops += [UpdateLink(i, {"colour": "red"}) for i in colours]
    for x, y in zip(swaps[0::2], swaps[1::2], strict=False):
        a, b = doc.links[x], doc.links[y]
        ops += [RemoveLink(x), RemoveLink(y), AddLink(a.model_copy(update={"b": b.b})),
                AddLink(b.model_copy(update={"b": a.b}))]
    ops += [RemoveLink(i) for i in removes]
    for k, i in enumerate(readds):
        link = doc.links[i]
        ops += [RemoveLink(i), AddLink(link.model_copy(update={"id": i + "-r"} if k % 2 else {}))]
    doc.apply(ops)
    save_fabric(doc, ten)
    return one, ten


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", type=Path, metavar="TREE")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep the designs here")
    args = parser.parse_args()
    compared = trees(args.before)
    differ = False
    with work_folder(args.keep) as folder:
        base = design("xdr", folder)
        for label, other in zip(("one edit", "10 % of the links"), revisions(base, folder),
                                strict=True):
            load = os.getloadavg()
            print(f"{label}: load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
            times: dict[str, list[float]] = {name: [] for name, _tree in compared}
            digests: dict[str, set[str]] = {name: set() for name, _tree in compared}
            for _ in range(args.runs):
                for name, tree in compared:
                    wall, peak, digest = timed([sys.executable, "-c", _RUN, "aicnet_gui.cli",
                                                "diff", "--json", str(base), str(other)], env(tree))
                    times[name].append(wall)
                    digests[name].add(digest)
                    print(f"  {label}: {name:<6} {wall:6.2f} s {peak:6d} MB  {digest}", flush=True)
            same = len(set().union(*digests.values())) == 1
            differ |= not same
            print(f"{label}: " + ", ".join(f"{name} median {statistics.median(t):.2f} s"
                                           for name, t in times.items())
                  + ("; the same JSON" if same else "; ** the JSON differs"), flush=True)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
