"""What a device draws and what a rack may draw: one house for the power figures.

The rack rules (RACK-POWER, POWER-FEED), the bill of materials and the generator's rack
placement all count the same watts:

- a device model draws its maximum power, else its typical power, else nothing is known
  (`device_watts` returns None and the caller says so);
- a device of a rack-scale system with no figure of its own (an NVL72 compute tray) whose
  rack's power the vendor states (a GB300 NVL72 rack: up to 142 kW) draws its share of that
  rack figure (`share_watts`: 142 kW / 18), and the rack figure includes what its cages hold
  (`counts_optics` is False for it): a full rack draws its stated power, in RACK-POWER,
  POWER-FEED and the bill of materials alike; the generator gives such racks that power as
  their budget;
- on the maximum basis alone (`maximum_watts`, what `aicnet compare` totals so that no
  candidate's switches count at a typical figure while another's count at their maximum) a
  model with only a typical figure is not counted, and is named;
- every optic in its cages adds its module power (`optic_watts`), unless the figure counted
  already includes them: a rack's stated power, or a maximum the vendor gives with active
  cables in every cage (`DeviceModel.power_max_includes_optics`: a QM9700's 1,720 W);
- a rack may draw its own budget (`Rack.power_kw`) and, when the project sets the capacity of
  one of a rack's two A/B feeds (`Settings.power_feed_kw`), no more than that either: with 2N
  feeds either one must carry the whole rack (`rack_budget_kw`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

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


def maximum_watts(model: DeviceModel) -> float | None:
    """What one device of `model` counts for on the maximum basis alone (the comparison's): its
    maximum, else its share of its rack's stated power (a vendor's "up to" figure); None when
    the catalog states no maximum (a typical figure is not one, and is not mixed in)."""
    if model.power_max_w is not None:
        return float(model.power_max_w)
    return share_watts(model) if rack_powered(model) else None


def system_racks(model: DeviceModel, count: int) -> int:
    """The racks `count` devices of a rack-scale model fill (a started rack counts: a part of
    an NVL72 rack is not sold); 0 for a model that is not part of one."""
    system = model.rack_system
    return -(-count // system.devices) if system is not None else 0


def rack_powered(model: DeviceModel) -> bool:
    """True for a device counted through its rack's stated power: a rack-scale system's device
    with no figure of its own, in a system whose rack power is stated."""
    system = model.rack_system
    return (device_watts(model) is None and system is not None
            and system.power_kw is not None)


def share_watts(model: DeviceModel) -> float | None:
    """What one device of `model` counts for in W: `device_watts`, else (`rack_powered`) its
    share of its rack's stated power, optics included; None when neither is known."""
    watts = device_watts(model)
    if watts is not None or not rack_powered(model):
        return watts
    system = model.rack_system
    assert system is not None and system.power_kw is not None
    return system.power_kw * 1000 / system.devices


def counts_optics(model: DeviceModel) -> bool:
    """Whether the optics in a device's cages add to its power (not for a `rack_powered`
    device: its rack's stated figure includes them; not when its maximum is stated with the
    optics in its cages)."""
    return not (rack_powered(model) or optics_in_figure(model))


def optics_in_figure(model: DeviceModel) -> bool:
    """True when the device's own figure, its maximum, is stated with the optics in its
    cages (`DeviceModel.power_max_includes_optics`): they are not added to it again."""
    return model.power_max_w is not None and model.power_max_includes_optics


@dataclass(frozen=True, slots=True)
class PowerBasis:
    """What one device of a model counts for, and what that figure is: the maximum, the
    typical (no maximum known), its share of its rack's stated power, or nothing known; and
    whether a vendor document that was read states it (`DeviceModel.power_verified`)."""

    watts: float | None
    figure: str  # "maximum", "typical", "rack share" or "none"
    verified: bool
    includes_optics: bool  # the figure covers the optics in the device's cages
    source: str

    @property
    def caveat(self) -> str:
        """What a total built on this figure must say, "" when nothing: a verified maximum."""
        if self.figure == "none":
            return "no power figure: not counted"
        what = {"maximum": "maximum", "typical": "typical: no maximum known",
                "rack share": "its share of the rack's stated power"}[self.figure]
        each = f"{self.watts:,.0f} W {what}" + (", optics included" if self.includes_optics
                                                 else "")
        if self.figure == "typical":
            return each + ("" if self.verified else ", unverified")
        return "" if self.verified else each + ", unverified"


    @property
    def short_caveat(self) -> str:
        """`caveat` in a few words, for a narrow column: "1,720 W max, unverified"."""
        if not self.caveat:
            return ""
        if self.figure == "none":
            return "no figure, not counted"
        what = {"maximum": "max", "typical": "typical", "rack share": "rack share"}[self.figure]
        return f"{self.watts:,.0f} W {what}" + ("" if self.verified else ", unverified")


def power_basis(model: DeviceModel) -> PowerBasis:
    """The figure `share_watts` counts for one device of `model`, and how sure it is."""
    source = model.power_source or model.source
    if model.power_max_w is not None:
        return PowerBasis(float(model.power_max_w), "maximum", model.power_verified,
                          model.power_max_includes_optics, source)
    if model.power_typical_w is not None:
        return PowerBasis(float(model.power_typical_w), "typical", model.power_verified, False,
                          source)
    if rack_powered(model):
        return PowerBasis(share_watts(model), "rack share", model.power_verified, True, source)
    return PowerBasis(None, "none", False, False, "")


def optic_watts(catalog: Catalog, optics: Iterable[str]) -> float:
    """The power in W of the optics (catalog ids, one per cage that holds one)."""
    transceivers = catalog.transceivers
    return float(sum(transceivers[optic].power_w for optic in optics))


def rack_budget_kw(rack_kw: float | None, feed_kw: float | None) -> float | None:
    """What a rack may draw in kW: its own budget and, with A/B feeds of `feed_kw` each, no
    more than one feed carries; None when neither is set."""
    limits = [kw for kw in (rack_kw, feed_kw) if kw is not None]
    return min(limits) if limits else None
