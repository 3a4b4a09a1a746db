"""Colour modes of the Topology canvas: what each device and cable is coloured by.

- cable: the jacket colour a cable was given, else its speed (the default);
- speed: the speed of its ports;
- tier: the tier pair it joins (server-leaf, leaf-spine, spine-core);
- rail: its rail (and leaves, spines and cores by their rail tag);
- oversubscription: switches by downlink:uplink ratio against the fabric's target; a cable takes
  the colour of the lower switch it touches.

The link layer colours cables itself from per-device tiers and classes; this module computes the
classes and device accents from the last validation report and the legend rows of each mode.
"""

from __future__ import annotations

from PySide6.QtGui import QColor

from ..analysis import AnalysisReport
from ..model.document import FabricDocument
from . import theme
from .panels.metrics import fabric_target

MODES: dict[str, str] = {
    "cable": "Cable colour",
    "speed": "Speed",
    "tier": "Tier",
    "rail": "Rail",
    "oversubscription": "Oversubscription",
}


def oversub_classes(doc: FabricDocument, report: AnalysisReport | None) -> dict[str, int]:
    """Device id -> theme.oversub_class for every switch with downlinks in the report."""
    if report is None:
        return {}
    target, _kind = fabric_target(doc)
    by_name = {d.name: d.id for d in doc.devices.values()}
    classes = {}
    for name, ratio in report.metrics.oversubscription.switches.items():
        device_id = by_name.get(name)
        if device_id is not None:
            classes[device_id] = theme.oversub_class(ratio, target)
    return classes


def accents(doc: FabricDocument, mode: str, classes: dict[str, int]) -> dict[str, QColor]:
    """Stripe colours of devices in `mode` (devices not named keep their role colour)."""
    if mode == "oversubscription":
        grey = QColor(theme.OVERSUB_CLASSES[3][1])
        out = {d.id: grey for d in doc.devices.values() if doc.tier_of(d) > 0}  # no ratio
        out.update({d: QColor(theme.OVERSUB_CLASSES[c][1]) for d, c in classes.items()})
        return out
    if mode == "rail":
        out = {}
        for device in doc.devices.values():
            rail = device.tags.get("rail")
            if rail and rail.isdigit() and doc.tier_of(device) > 0:
                out[device.id] = QColor(theme.rail_colour_hex(int(rail)))
        return out
    return {}


def legend_rows(doc: FabricDocument, mode: str) -> tuple[str, list[tuple[str, str]]]:
    """(title, [(label, colour)]) of the legend in `mode`; empty rows: the speed legend."""
    if mode == "tier":
        return "Cables by tier", [(label, colour) for label, colour in theme.TIER_PAIR_COLOURS.values()]
    if mode == "rail":
        rails = sorted({link.rail for link in doc.links.values() if link.rail})
        rows = [(f"rail {r}", theme.rail_colour_hex(r)) for r in rails[:12]]
        return "Cables by rail", rows or [("no rails set", theme.NO_RAIL)]
    if mode == "oversubscription":
        target, kind = fabric_target(doc)
        return (f"Oversubscription vs {target:.2f}:1", [(label, colour) for label, colour in theme.OVERSUB_CLASSES])
    return "", []
