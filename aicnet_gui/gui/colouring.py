"""Colour modes of the Topology canvas: what each device and cable is coloured by.

- cable: the jacket colour a cable was given, else its speed (the default);
- speed: the speed of its ports;
- tier: the tier pair it joins (server-leaf, leaf-spine, spine-core);
- rail: its rail (and leaves, spines and cores by their rail tag);
- oversubscription: switches by downlink:uplink ratio against the fabric's target; a cable takes
  the colour of the lower switch it touches;
- traffic: each cable by its load under the workload and load-balancing mode the Workloads dock
  shows (the traffic model's, gui/traffic_panel.py; load_ramp.py's colours).

The link layer colours cables itself from per-device tiers and classes; this module computes the
classes and device accents from the last validation report and what the legend shows in each mode
(`legend_spec`): ports are always coloured by speed, cables by the mode.
"""

from __future__ import annotations

from PySide6.QtGui import QColor

from ..analysis import AnalysisReport
from ..model.colours import CABLE_COLOURS
from ..model.document import FabricDocument
from . import load_ramp, theme
from .canvas.legend import SPEED_SPEC, LegendSpec
from .panels.metrics import fabric_target

MODES: dict[str, str] = {
    "cable": "Cable colour",
    "speed": "Speed",
    "tier": "Tier",
    "rail": "Rail",
    "oversubscription": "Oversubscription",
    "traffic": "Traffic load",
}

#: at most this many colour rows in the legend (then "N more")
MAX_ROWS = 12
#: tone (`#rrggbb`) -> name of the TIA-598 jacket colours, as the PDF names them
_COLOUR_NAMES: dict[str, str] = {f"#{tone}": name for name, tone in CABLE_COLOURS.items()}


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


def legend_spec(doc: FabricDocument, mode: str) -> LegendSpec:
    """What the legend shows in `mode` for `doc` (ports are always coloured by speed)."""
    if mode == "cable":
        rows, plain = jacket_rows(doc)
        if not rows:
            return SPEED_SPEC  # no cable has a colour of its own: every cable shows its speed
        return LegendSpec("Cables by jacket colour", rows,
                          "Ports, other cables by speed" if plain else "Ports by speed",
                          speed_cables=plain, bundle="bundle: its jacket (mixed: speed)",
                          bundle_colour=rows[0][1])
    if mode == "tier":
        rows = [(label, colour) for label, colour in theme.TIER_PAIR_COLOURS.values()]
        return _mode_spec("Cables by tier", rows)
    if mode == "rail":
        rails = sorted({rail for rail in doc.links.column("rail") if rail})
        rows = [(f"rail {r}", theme.rail_colour_hex(r)) for r in rails]
        return _mode_spec("Cables by rail", _capped(rows) or [("no rails set", theme.NO_RAIL)])
    if mode == "oversubscription":
        target, _kind = fabric_target(doc)
        rows = [(label, colour) for label, colour in theme.OVERSUB_CLASSES]
        return _mode_spec(f"Oversubscription vs {target:.2f}:1", rows)
    if mode == "traffic":
        return traffic_spec("Cables by traffic load")
    return SPEED_SPEC


def traffic_spec(title: str, pending: bool = False) -> LegendSpec:
    """The traffic mode: load as % of capacity, hottest first (`pending`: some cable was edited
    since the loads were computed)."""
    return LegendSpec(title, load_ramp.legend_rows(pending), "Ports by speed",
                      bundle="bundle: its most loaded cable", bundle_colour=load_ramp.RAMP[-1])


def _mode_spec(title: str, rows: list[tuple[str, str]]) -> LegendSpec:
    """A mode that colours cables and their bundles by something other than speed."""
    return LegendSpec(title, rows, "Ports by speed", bundle_colour=rows[0][1])


def jacket_rows(doc: FabricDocument) -> tuple[list[tuple[str, str]], bool]:
    """The jacket colours the cables of `doc` are drawn in, as (name, `#rrggbb`) in TIA-598
    order (other tones after, by the name the cable gave or the SVG name of the tone, e.g.
    "purple" for #800080; the hex only for a tone without a name), and whether some cable has
    none (it is drawn in its speed colour)."""
    names = set(doc.links.column("colour"))
    tones: dict[str, str] = {}
    plain = False
    for name in sorted(names, key=lambda n: n or ""):
        tone = theme.link_colour_hex(name)
        if tone is None:
            plain = True
        else:
            tone = tone.lower()
            given = name.strip().lower() if name and not name.lstrip().startswith("#") else ""
            tones.setdefault(tone, given or _svg_names().get(tone, tone))
    order = list(_COLOUR_NAMES)
    named = [(_COLOUR_NAMES[t], t) for t in order if t in tones]
    other = sorted((tones[t], t) for t in set(tones) - set(order))
    return _capped(named + other), plain


_SVG_NAMES: dict[str, str] = {}


def _svg_names() -> dict[str, str]:
    """`#rrggbb` -> its SVG colour name (the first alphabetically where tones share one)."""
    if not _SVG_NAMES:
        for name in sorted(QColor.colorNames(), reverse=True):
            _SVG_NAMES[QColor(name).name().lower()] = name
    return _SVG_NAMES


def _capped(rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """At most MAX_ROWS rows; beyond them a last row "N more" without a colour."""
    if len(rows) <= MAX_ROWS:
        return rows
    return [*rows[: MAX_ROWS - 1], (f"{len(rows) - MAX_ROWS + 1} more", "")]
