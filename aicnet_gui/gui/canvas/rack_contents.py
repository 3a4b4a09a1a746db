"""What the Floor view needs to know about the contents of each rack: the RU it uses, the slots
its devices fill and, for a rack-scale system (a GB300 NVL72 rack of 18 compute trays), the
system's name.

The model holds an NVL72 rack's compute trays as devices but not its NVLink switch trays and
power shelves; drawn as is, the rack looked 30 U empty.  The Floor view marks a rack whose
servers are trays of a rack system as that system, the slots its trays leave as the system's
own (not free space).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class RackContents:
    """The devices of one rack as the rack elevation draws them."""

    used_ru: int = 0
    occupied: set[int] = field(default_factory=set)  # RU numbers its devices fill
    system: str = ""  # the rack-scale system its servers belong to ("" for none)


def rack_contents(doc: Any, rack_ids: set[str] | None = None) -> dict[str, RackContents]:
    """Rack id -> its contents, for every rack or the racks in `rack_ids`."""
    result: dict[str, RackContents] = {}
    for device in doc.devices.values():
        rack = device.rack
        if not rack or (rack_ids is not None and rack not in rack_ids):
            continue
        contents = result.setdefault(rack, RackContents())
        model = doc.device_model(device)
        contents.used_ru += model.height_ru
        if device.ru is not None:
            contents.occupied.update(range(device.ru, device.ru + max(model.height_ru, 1)))
        system = getattr(model, "rack_system", None)
        if system is not None and not contents.system:
            contents.system = system.name
    return result


def free_runs(occupied: set[int], height_ru: int) -> list[tuple[int, int]]:
    """The runs of free slots of a rack of `height_ru` units: (lowest RU, count), bottom up."""
    runs: list[tuple[int, int]] = []
    start = None
    for ru in range(1, height_ru + 2):
        free = ru <= height_ru and ru not in occupied
        if free and start is None:
            start = ru
        elif not free and start is not None:
            runs.append((start, ru - start))
            start = None
    return runs
