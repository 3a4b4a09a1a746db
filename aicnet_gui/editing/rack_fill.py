"""Put devices that are in no rack into new racks, as the templates fill racks (no Qt).

A hand-drawn design starts without racks, and then no cable has a length (lengths come from the
racks' places on the floor), so no media can be chosen for it.  `fill_new_racks` gives the
devices a place with the templates' floor defaults (`generators.template_params.FloorParams`): servers
in server racks, as many per rack as the rack's power budget (its maximum draw, else typical:
`model.power.device_watts`; 42 kW, or one A/B feed when `Settings.power_feed_kw` is smaller) and
its height (48 U, 2 U kept free at the top for the patch panel) allow; switches and other
devices in network racks, at most `switches_per_rack` each; bottom up from RU 1.  The new racks
are added at the end of row 1, named and numbered as Arrange › Add Rack names them.  The result
is plain operations: the editor applies them as one undo step.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..generators.template_params import FloorParams
from ..model.document import FabricDocument
from ..model.edits import AddRack, Operation, UpdateDevice
from ..model.fabric import Device, Rack
from ..model.power import device_watts, rack_budget_kw
from .units import natural_key


class RackFillError(ValueError):
    """A device that no rack of the templates' size can hold (taller than its usable units)."""


@dataclass(frozen=True, slots=True)
class RackFill:
    """What `fill_new_racks` proposes: the ops, the racks it adds, the devices it places."""

    ops: tuple[Operation, ...]
    racks: tuple[Rack, ...]
    placed: int


def new_rack(doc: FabricDocument, row: int = 1, height_ru: int = 48,
             taken: Iterable[Rack] = (), position: int | None = None) -> Rack:
    """A new rack at `position` of `row` (default: at its end), named with the next free `Rnn`
    (`taken`: racks proposed but not yet in the document)."""
    taken = list(taken)
    racks = [*doc.racks.values(), *taken]
    if position is None:
        position = max((r.position for r in racks if r.row == row), default=0) + 1
    names = {r.name for r in racks}
    n = len(racks) + 1
    while f"R{n:02d}" in names:
        n += 1
    rack_id = doc.new_id("rack", reserved=[r.id for r in taken])
    return Rack(id=rack_id, name=f"R{n:02d}", row=row, position=position, height_ru=height_ru)


def fill_new_racks(doc: FabricDocument, device_ids: Iterable[str],
                   floor: FloorParams | None = None) -> RackFill:
    """Racks and RU for the devices of `device_ids` that are in no rack (see the module)."""
    floor = floor or FloorParams()
    usable = floor.rack_height_ru - floor.reserved_top_ru
    budget = rack_budget_kw(floor.rack_power_kw, doc.settings.power_feed_kw)
    budget_w = (budget or floor.rack_power_kw) * 1000
    waiting = [doc.devices[d] for d in dict.fromkeys(device_ids)
               if d in doc.devices and not _racked(doc, doc.devices[d])]
    waiting.sort(key=lambda d: natural_key(d.name))
    servers = [d for d in waiting if doc.tier_of(d) == 0]
    others = [d for d in waiting if doc.tier_of(d) != 0]
    racks: list[Rack] = []
    ops: list[Operation] = []
    for group, most in ((servers, None), (others, floor.switches_per_rack)):
        rack: Rack | None = None
        used = count = 0
        watts = 0.0
        for device in group:
            model = doc.device_model(device)
            height = max(model.height_ru, 1)
            draw = device_watts(model) or 0.0
            if height > usable:
                raise RackFillError(f"{device.name} ({model.model}, {height} U) does not fit a "
                                    f"{floor.rack_height_ru} U rack with "
                                    f"{floor.reserved_top_ru} U kept free")
            full = rack is None or used + height > usable or (most is not None and count >= most)
            if not full and most is None and count and watts + draw > budget_w:
                full = True  # a server rack holds what its power budget feeds
            if full:
                rack = new_rack(doc, 1, floor.rack_height_ru, racks)
                racks.append(rack)
                ops.append(AddRack(rack))
                used = count = 0
                watts = 0.0
            assert rack is not None
            ops.append(UpdateDevice(device.id, {"rack": rack.id, "ru": used + 1}))
            used += height
            count += 1
            watts += draw
    return RackFill(tuple(ops), tuple(racks), len(waiting))


def _racked(doc: FabricDocument, device: Device) -> bool:
    return device.rack in doc.racks and device.ru is not None
