"""Cable length estimates from rack floor positions (DESIGN.md §3, cabling.md §4).

route = vertical run from each end up to the cable tray + Manhattan distance between the racks
(or, inside one rack, the height difference plus an in-rack allowance); the estimate adds the
project's slack percentage and a fixed service loop.  The ordered length is the next stock
length in the part's own ladder.  A manual length on the link wins over the estimate.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.document import FabricDocument
from ..model.fabric import Device, LengthEstimation, Link, Rack


@dataclass(frozen=True, slots=True)
class LinkLength:
    length_m: float | None
    manual: bool
    same_rack: bool | None
    ordered_m: float | None


def rack_floor_xy(rack: Rack, params: LengthEstimation) -> tuple[float, float]:
    """The rack's floor position in metres: explicit x/y, or from row and position."""
    x = rack.x_m if rack.x_m is not None else max(rack.position - 1, 0) * params.rack_width_m
    y = rack.y_m if rack.y_m is not None else max(rack.row - 1, 0) * params.row_pitch_m
    return x, y


def device_height_m(device: Device, height_ru: int, params: LengthEstimation) -> float | None:
    """Height above the floor of the middle of the device's front panel."""
    if device.ru is None:
        return None
    return params.rack_base_m + (device.ru - 1 + height_ru / 2) * params.ru_height_m


def estimate_route_m(doc: FabricDocument, a: Device, b: Device) -> tuple[float | None, bool | None]:
    """(estimated length in metres, both ends in one rack) or (None, None) when unplaced."""
    if a.rack is None or b.rack is None or a.ru is None or b.ru is None:
        return None, None
    params = doc.settings.lengths
    rack_a, rack_b = doc.racks[a.rack], doc.racks[b.rack]
    ha = device_height_m(a, doc.device_model(a).height_ru, params)
    hb = device_height_m(b, doc.device_model(b).height_ru, params)
    assert ha is not None and hb is not None
    if a.rack == b.rack:
        route = abs(ha - hb) + params.in_rack_m
        same = True
    else:
        xa, ya = rack_floor_xy(rack_a, params)
        xb, yb = rack_floor_xy(rack_b, params)
        tray = max(params.tray_height_m, ha, hb)
        route = (tray - ha) + (tray - hb) + abs(xa - xb) + abs(ya - yb)
        same = False
    estimate = route * (1 + params.slack_percent / 100) + params.slack_m
    return round(estimate, 2), same


def link_length(doc: FabricDocument, link: Link) -> LinkLength:
    """The length of `link` (manual or estimated) and the stock length to order."""
    a, b = doc.devices[link.a.device], doc.devices[link.b.device]
    estimate, same = estimate_route_m(doc, a, b)
    manual = link.length_m is not None
    length = link.length_m if manual else estimate
    ordered = None
    if length is not None and link.cable is not None:
        cable = doc.catalog.cables.get(link.cable)
        if cable is not None:
            ordered = cable.ordered_length(length)
    return LinkLength(length, manual, same, ordered)
