"""Where racks and racked devices sit on the floor, and the estimated cable route between two of
them (DESIGN.md §3, cabling.md §4).

route = vertical run from each end up to the cable tray + Manhattan distance between the racks
(or, inside one rack, the height difference plus an in-rack allowance); the estimate adds the
project's slack percentage and a fixed service loop:

    estimate = route * (1 + slack_percent / 100) + slack_m      (rounded to 1 cm, half to even)

`placement()` precomputes the per-device numbers so that a caller can estimate 100k links
without recomputing rack positions for every link.  The analysis (`analysis/lengths.py`, the
vectorized `analysis/store.py`), the media choice (`media/rechoose.py`), the generators'
link table, the cable plan and the canvases all use this arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass

from .document import FabricDocument
from .fabric import Device, LengthEstimation, Rack


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a racked device sits: its rack, the rack's floor x/y and the device's height."""

    rack: str
    x_m: float
    y_m: float
    height_m: float


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


def placement(doc: FabricDocument, device: Device) -> Placement | None:
    """The device's placement, or None when it is not in a rack at a given RU."""
    if device.rack is None or device.ru is None or device.rack not in doc.racks:
        return None
    params = doc.settings.lengths
    height = device_height_m(device, doc.device_model(device).height_ru, params)
    assert height is not None
    x, y = rack_floor_xy(doc.racks[device.rack], params)
    return Placement(device.rack, x, y, height)


def route_estimate_m(a: Placement, b: Placement, params: LengthEstimation) -> float:
    """The estimated length between two placed devices (route + slack), rounded to 1 cm.

    The same float operations in the same order as the vectorized estimate of the analysis
    (`analysis/store.py`), so both give the same value to the last bit.
    """
    if a.rack == b.rack:
        route = abs(a.height_m - b.height_m) + params.in_rack_m
    else:
        tray = max(max(params.tray_height_m, a.height_m), b.height_m)
        route = (tray - a.height_m) + (tray - b.height_m) + abs(a.x_m - b.x_m) + abs(a.y_m - b.y_m)
    return round((route * (1 + params.slack_percent / 100) + params.slack_m) * 100) / 100
