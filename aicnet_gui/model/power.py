"""What a device draws and what a rack may draw: one house for the power figures.

The rack rules (RACK-POWER, POWER-FEED), the bill of materials and the generator's rack
placement all count the same watts:

- a device model draws its maximum power, else its typical power, else nothing is known
  (`device_watts` returns None and the caller says so); devices of a rack-scale system (NVL72
  compute trays) with no figure of their own draw, in the bill of materials, the stated power of
  the racks they fill (`models_watts`), and their racks carry that power as their budget;
- every optic in its cages adds its module power (`optic_watts`);
- a rack may draw its own budget (`Rack.power_kw`) and, when the project sets the capacity of
  one of a rack's two A/B feeds (`Settings.power_feed_kw`), no more than that either: with 2N
  feeds either one must carry the whole rack (`rack_budget_kw`).
"""

from __future__ import annotations

from collections.abc import Iterable

from .catalog import Catalog
from .catalog_entities import DeviceModel


def device_watts(model: DeviceModel) -> float | None:
    """The power a device of `model` draws in W: its maximum, else its typical; None when the
    catalog has neither."""
    if model.power_max_w is not None:
        return float(model.power_max_w)
    if model.power_typical_w is not None:
        return float(model.power_typical_w)
    return None


def system_racks(model: DeviceModel, count: int) -> int:
    """The racks `count` devices of a rack-scale model fill (a started rack counts: a part of
    an NVL72 rack is not sold); 0 for a model that is not part of one."""
    system = model.rack_system
    return -(-count // system.devices) if system is not None else 0


def models_watts(model: DeviceModel, count: int) -> float | None:
    """What `count` devices of `model` draw in W: each at `device_watts`; for a model with no
    figure of its own whose rack-scale system states the rack's power (a GB300 NVL72 rack, up to
    142 kW), the racks they fill at that power; None when neither is known."""
    watts = device_watts(model)
    if watts is not None:
        return watts * count
    system = model.rack_system
    if system is None or system.power_kw is None:
        return None
    return system_racks(model, count) * system.power_kw * 1000


def optic_watts(catalog: Catalog, optics: Iterable[str]) -> float:
    """The power in W of the optics (catalog ids, one per cage that holds one)."""
    transceivers = catalog.transceivers
    return float(sum(transceivers[optic].power_w for optic in optics))


def rack_budget_kw(rack_kw: float | None, feed_kw: float | None) -> float | None:
    """What a rack may draw in kW: its own budget and, with A/B feeds of `feed_kw` each, no
    more than one feed carries; None when neither is set."""
    limits = [kw for kw in (rack_kw, feed_kw) if kw is not None]
    return min(limits) if limits else None
