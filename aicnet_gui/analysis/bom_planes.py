"""The bill of materials of a multi-plane fabric, per compute plane.

Each plane of a multi-plane design (NVIDIA's B300 / GB300 twin-plane Spectrum-X designs, where
"Each GPU has 2x 400GbE connectivity through two different planes") is its own fat tree: its
switches carry their plane (`Device.plane`), as do the links between them and the links of the
servers' NIC ports to them (`Link.plane`).  A plane's part of the order is therefore:

- its switches, by model;
- the optics in its switches' cages;
- the cables of its links (one per physical cable, per `PART@LENGTH`, as the whole BOM counts
  them: a twin straight cord that carries two links of one plane is one cable);
- its links per tier.

What the planes share is listed once, under `shared`: the GPU servers (one NIC per GPU serves
every plane), the optics in their cages (a twin-port module in a ConnectX-8 cage carries the
port of plane 1 and the port of plane 2), and any device or link with no plane (storage,
management).  The planes and the shared part add up to the whole BOM, part by part.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model.document import FabricDocument
from ..model.wording import counted
from .bom_parts import is_ordered_optic
from .state import State

SHARED = "shared"
"""The key of the part of the BOM no single plane owns."""


@dataclass(frozen=True)
class PlaneBom:
    """One plane's devices, optics, cables and links (or those the planes share)."""

    devices_by_model: dict[str, int]
    transceivers: dict[str, int]
    cables: dict[str, int]
    links_by_tier: dict[str, int]
    links_total: int

    def cables_by_part(self) -> dict[str, int]:
        """Cables per part, every ordered length together."""
        out: dict[str, int] = {}
        for key, count in self.cables.items():
            part = key.partition("@")[0]
            out[part] = out.get(part, 0) + count
        return out

    def summary(self) -> tuple[str, str, str, str]:
        """(devices, optics, cables, links) in words: `12 devices (nvidia-sn5610 12)` ..."""
        return (_parts(self.devices_by_model, "device"), _parts(self.transceivers, "optic"),
                _parts(self.cables_by_part(), "cable"), _parts(self.links_by_tier, "link"))

    def to_json(self) -> dict[str, Any]:
        return {"devices": self.devices_by_model, "transceivers": self.transceivers,
                "cables": self.cables,
                "links": {"by_tier": self.links_by_tier, "total": self.links_total}}


def plane_label(name: str) -> str:
    """`plane 1`, or `shared` for the part every plane uses."""
    return "shared" if name == SHARED else f"plane {name}"


PLANES_TITLE = ("Per plane: its switches, their optics and the cables of its links; the servers "
                "and the optics in their NIC cages serve every plane (shared)")


def _parts(counts: dict[str, int], noun: str) -> str:
    total = sum(counts.values())
    return counted(total, noun) + (
        " (" + ", ".join(f"{k} {n}" for k, n in counts.items()) + ")" if counts else "")


def _plane_order(name: str) -> tuple[int, str]:
    """Planes "1", "2" ... "10" in number order, named ones after them."""
    return (int(name), "") if name.isdigit() else (1 << 30, name)


CountCables = Callable[[State, np.ndarray], tuple[Counter[str], float]]
LinksByTier = Callable[[State, np.ndarray], dict[str, int]]


def plane_boms(doc: FabricDocument, state: State, rows: np.ndarray, count_cables: CountCables,
               links_by_tier: LinksByTier, cable_order: Callable[[tuple[str, int]], Any],
               ) -> dict[str, PlaneBom]:
    """Per plane name (natural order), then `SHARED`, its part of the BOM; {} for a design of
    fewer than two planes.  `rows` are the BOM's link rows; `count_cables` and `links_by_tier`
    count a set of them as the whole BOM does (`analysis/bom.py`)."""
    planes = sorted({d.plane for d in doc.devices.values() if d.plane}, key=_plane_order)
    if len(planes) < 2:
        return {}
    devices: dict[str, Counter[str]] = {p: Counter() for p in [*planes, SHARED]}
    optics: dict[str, Counter[str]] = {p: Counter() for p in [*planes, SHARED]}
    for device in doc.devices.values():
        key = device.plane if device.plane in devices else SHARED
        devices[key][device.model] += 1
        for config in device.cages.values():
            if config.transceiver and is_ordered_optic(doc.catalog, config.transceiver):
                optics[key][config.transceiver] += 1
    ids, link_planes = doc.links.columns("id", "plane")
    plane_of = dict(zip(ids, link_planes, strict=True))
    link_ids = state.store.link_ids
    of_row = np.array([plane_of.get(link_ids[r]) or SHARED for r in rows.tolist()], dtype=object)
    out: dict[str, PlaneBom] = {}
    for key in [*planes, SHARED]:
        mine = rows[of_row == key] if len(rows) else rows
        cables, _power = count_cables(state, mine)
        out[key] = PlaneBom(
            devices_by_model=dict(sorted(devices[key].items())),
            transceivers=dict(sorted(optics[key].items())),
            cables=dict(sorted(cables.items(), key=cable_order)),
            links_by_tier=links_by_tier(state, mine),
            links_total=int(len(mine)),
        )
    return out
