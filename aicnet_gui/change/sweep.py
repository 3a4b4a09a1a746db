"""Failure sweeps: every single failure of one kind (leaf, spine, core switch, or cable), ranked
by impact, worst first (`aicnet whatif FILE --each spine`).

A big fabric is regular: its 1,024 spines fall into a handful of kinds that a failure hits
alike.  Unless `exact` is asked for, the sweep evaluates one failure per *structural class* and
gives its result to every member of the class.  Classes come from Weisfeiler-Lehman colour
refinement of the fabric graph: a device starts from its tier, model, GPU count and the
workloads it serves; each round adds the multiset of (link speed, rail, parallel links,
neighbour's colour) of its neighbours.  After `ROUNDS` rounds two devices share a colour only if
their neighbourhoods to that depth look the same, which is what the workload model reads
(first-hop switches, the switches above them, the NICs below).  A cable fails with all its
links (a twin or splitter cable carries several); its class is, per link, the pair of its ends'
colours with the link's speed, rail and the number of parallel links between the two devices.
`exact=True` evaluates every failure; tests/change/test_whatif.py checks that both give the same
ranking on a real example.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from ..model.document import FabricDocument
from .failures import Failure, cables
from .flow import FabricArrays
from .whatif import WhatIf, WhatIfResult

KINDS = ("leaf", "spine", "core", "cable")
ROUNDS = 4


@dataclass(frozen=True)
class SweepEntry:
    result: WhatIfResult
    evaluated: bool  # False: the result of an identical failure of the same class


@dataclass(frozen=True)
class Sweep:
    kind: str
    entries: tuple[SweepEntry, ...]  # worst first
    classes: int

    @property
    def worst(self) -> WhatIfResult | None:
        return self.entries[0].result if self.entries else None

    def to_json(self, top: int | None = None) -> dict[str, object]:
        chosen = self.entries if top is None else self.entries[:top]
        return {"kind": self.kind, "failures": len(self.entries), "classes_evaluated": self.classes,
                "any_partition": any(e.result.partitioned for e in self.entries),
                "ranked": [e.result.to_json() for e in chosen]}


def colours(engine: WhatIf) -> tuple[dict[int, int], dict[tuple[int, int], int]]:
    """WL colour per device row of the intact fabric, and links per (row, row) pair."""
    arrays = engine.arrays
    doc = engine.copy
    member_of: dict[str, list[str]] = defaultdict(list)
    for workload in engine.workloads:
        for server in workload.members:
            member_of[server].append(workload.id)
    colour: dict[int, int] = {}
    for device_id, row in arrays.dev_row.items():
        device = doc.devices[device_id]
        key = (doc.tier_of(device), device.model, doc.device_model(device).gpus,
               tuple(sorted(member_of.get(device_id, ()))))
        colour[row] = hash(key)
    # neighbours as (row, gbps, rail, parallel links), parallel links merged
    pairs: dict[tuple[int, int], list[int]] = {}
    for a, b, g, r in zip(arrays.a.tolist(), arrays.b.tolist(), arrays.gbps.tolist(),
                          arrays.rail.tolist(), strict=True):
        for x, y in ((a, b), (b, a)):
            entry = pairs.setdefault((x, y), [0, r, 0])
            entry[0] += g
            entry[2] += 1
    nbrs: dict[int, list[tuple[int, int, int, int]]] = defaultdict(list)
    for (x, y), (g, r, n) in pairs.items():
        nbrs[x].append((y, g, r, n))
    for _ in range(ROUNDS):
        colour = {row: hash((c, tuple(sorted((g, r, n, colour[y]) for y, g, r, n in nbrs[row]))))
                  for row, c in colour.items()}
    return colour, {pair: entry[2] for pair, entry in pairs.items()}


def candidates(doc: FabricDocument, kind: str) -> list[Failure]:
    if kind == "cable":  # a physical cable: a twin or splitter cable takes all its links down
        return [Failure(", ".join(sorted(group)), group) for group in cables(doc)]
    out = []
    for device in sorted(doc.devices.values(), key=lambda d: d.name):
        if doc.role_of(device).value == kind:
            out.append(Failure(device.name, frozenset(doc.link_ids_of(device.id)), (device.id,)))
    return out


def _class_key(engine: WhatIf, classes: tuple[dict[int, int], dict[tuple[int, int], int]],
               failure: Failure, kind: str) -> object:
    arrays = engine.arrays
    colour, parallel = classes
    if kind != "cable":
        return colour[arrays.dev_row[failure.devices[0]]]
    return tuple(sorted(_link_key(arrays, colour, parallel, i) for i in failure.links))


def _link_key(arrays: FabricArrays, colour: dict[int, int], parallel: dict[tuple[int, int], int],
              link_id: str) -> tuple:
    i = arrays.index.get(link_id)
    if i is None:  # not a fabric link (management, unknown port): it carries no workload
        return ("non-fabric",)
    a, b = int(arrays.a[i]), int(arrays.b[i])
    return (tuple(sorted((colour[a], colour[b]))), int(arrays.gbps[i]), int(arrays.rail[i]),
            parallel[(a, b)])


def sweep(doc: FabricDocument, kind: str, exact: bool = False, engine: WhatIf | None = None,
          progress: Callable[[int, int], None] | None = None) -> Sweep:
    """Every single failure of `kind`, worst first (ties by name)."""
    if kind not in KINDS:
        raise ValueError(f"--each takes one of {', '.join(KINDS)}, not {kind!r}")
    engine = engine or WhatIf(doc)
    failures = candidates(engine.copy, kind)
    if exact:
        classes: tuple[dict[int, int], dict[tuple[int, int], int]] = ({}, {})
    else:
        if engine.classes is None:
            engine.classes = colours(engine)
        classes = engine.classes
    done: dict[object, tuple[WhatIfResult, tuple]] = {}  # class -> (result, impact key)
    ranked: list[tuple[tuple, str, SweepEntry]] = []
    for n, failure in enumerate(failures):
        key = failure.label if exact else _class_key(engine, classes, failure, kind)
        known = done.get(key)
        if known is None:
            result = engine.run(failure)
            known = done[key] = (result, result.impact_key())
            entry = SweepEntry(result, True)
        else:
            entry = SweepEntry(WhatIfResult(failure, len(failure.links), known[0].workloads,
                                            like=known[0].failure.label), False)
        ranked.append((known[1], failure.label, entry))
        if progress is not None:
            progress(n + 1, len(failures))
    engine.restore()
    ranked.sort(key=lambda r: r[1])
    ranked.sort(key=lambda r: r[0], reverse=True)  # worst first; ties by name (stable sort)
    entries = [r[2] for r in ranked]
    return Sweep(kind, tuple(entries), len(done))
