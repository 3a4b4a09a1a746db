"""A media fix for one link: optics at both ends and the cord re-chosen together.

The media choice (`aicnet_gui.media.choose_media`) picks, for the link's whole
component (a twin-port optic also serves the other link of its cage), the cheapest catalog media
that reaches the run; this module turns its ops into a `Fix` with a description that names the
parts, or into a fix in words when nothing in the catalog reaches.
"""

from __future__ import annotations

from collections import Counter

from ..analysis.findings import Fix
from ..analysis.lengths import link_length
from ..media import choose_media, describe, stock_limit
from ..model.document import FabricDocument
from ..model.edits import UpdateDevice, UpdateLink
from ..model.wording import counted, fmt_m


def _run_m(doc: FabricDocument, link_id: str) -> float | None:
    links, _cages = describe(doc, [link_id])
    return links[0].length_m if links else None


def media_fix(doc: FabricDocument, link_id: str) -> Fix | None:
    """Re-equip the link's component so it reaches; None when the media choice changes nothing."""
    link = doc.links.get(link_id)
    if link is None:
        return None
    result = choose_media(doc, [link_id])
    length = _run_m(doc, link_id)
    where = f"{_name(doc, link.a.device)} - {_name(doc, link.b.device)}"
    run = f" ({fmt_m(length)} m)" if length is not None else ""
    if result.held:
        return Fix(f"{where} is pinned: unpin it, or change its optics at both ends and its cord "
                   f"together to media that reach{run}")
    if result.unresolved:
        unresolved = result.unresolved[0]
        return Fix(f"nothing in the catalog equips {where}{run}: {unresolved.reason}"
                   + ("; move the devices closer" if unresolved.too_long else ""))
    if not result.ops:
        return None
    optics: dict[str, list[str]] = {}  # optic id -> "device cage N" places
    cables: Counter[str] = Counter()
    for op in result.ops:
        if isinstance(op, UpdateDevice):
            before = doc.devices[op.id].cages
            for cage, config in sorted(op.changes["cages"].items()):
                old = before.get(cage)
                if config.transceiver and (old is None or old.transceiver != config.transceiver):
                    optics.setdefault(config.transceiver, []).append(
                        f"{_name(doc, op.id)} cage {cage}")
        elif isinstance(op, UpdateLink):
            cable = op.changes.get("cable")
            if cable is not None and cable != doc.links[op.id].cable:
                cables[cable] += 1
    catalog = doc.catalog
    parts = [f"{catalog.transceiver(o).model} in {_places(places)}"
             for o, places in sorted(optics.items())]
    for cable_id, n in sorted(cables.items()):
        cable = catalog.cable(cable_id)
        parts.append(f"the {cable.model} ({cable.type}, up to {fmt_m(stock_limit(cable))} m) on "
                     f"{counted(n, 'link')}")
    if not optics and not cables:
        return None
    return Fix(f"re-equip {where}{run} together: " + "; ".join(parts), tuple(result.ops))


def unplaced_ends(doc: FabricDocument, link_ids: list[str]) -> tuple[list[str], int]:
    """(the devices in no rack that leave cables of `link_ids` without a length, how many of
    those cables): a cable's length comes from its two racks' places (or is typed), and media
    are chosen by length, so no media can be chosen for these until the devices are placed."""
    devices: set[str] = set()
    cables = 0
    for link_id in link_ids:
        link = doc.links.get(link_id)
        if link is None or link_length(doc, link).length_m is not None:
            continue
        cables += 1
        for end in (link.a, link.b):
            device = doc.devices[end.device]
            if device.rack not in doc.racks or device.ru is None:
                devices.add(device.id)
    return sorted(devices, key=lambda d: _name(doc, d)), cables


def names_of(doc: FabricDocument, device_ids: list[str], shown: int = 4) -> str:
    """"gpu-001, gpu-002, leaf-01 and 13 more"."""
    names = [_name(doc, d) for d in device_ids[:shown]]
    more = len(device_ids) - len(names)
    return ", ".join(names) + (f" and {more} more" if more > 0 else "")


def _places(places: list[str], shown: int = 3) -> str:
    if len(places) <= shown:
        return ", ".join(places)
    return f"{', '.join(places[:shown])} and {len(places) - shown} more cages"


def _name(doc: FabricDocument, device_id: str) -> str:
    device = doc.devices.get(device_id)
    return device.name if device is not None else device_id
