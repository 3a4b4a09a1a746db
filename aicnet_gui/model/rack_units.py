"""Where a device sits in its rack, written one way everywhere.

A device's position is the lowest rack unit it occupies, counted from 1 at the bottom of the
rack: `Device.ru`, and NetBox's `position` (NetBox's rack elevation numbers a device by its lowest
unit).  A 2U switch in units 41 and 42 is at U41.  The PDF's schedules and labels, the work order,
`aicnet diff`, the CSV exports, draw.io, the NetBox export and the editor's inspector all write
it through `ru_text` (or take `position` as the number), and the schedules state `CONVENTION`.
"""

from __future__ import annotations

from .fabric import Device

CONVENTION = "U = a device's lowest rack unit, counted from 1 at the bottom (NetBox's position)"
"""The sentence the schedules print under their tables."""

CSV_RU = "RU (lowest)"
"""The column name of a position in a CSV export (after "A " / "B ")."""


def position(device: Device) -> int | None:
    """The device's position: its lowest rack unit, None when it has none."""
    return device.ru


def ru_text(ru: int | None) -> str:
    """A position as the plan prints it: `U07`, or `-` without one."""
    return f"U{ru:02d}" if ru is not None else "-"
