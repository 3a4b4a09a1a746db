"""What a generated rack must provide for the devices placed in it: cooling and power feeds.

RACK-COOLING and RACK-POWER-FEED (docs/rules.md) judge a rack by what it states
(`Rack.cooling`, `Rack.power_feeds`) against the models in it (`DeviceModel.cooling`,
`DeviceModel.power_feeds`).  A generated rack states what its devices need, so a design is
judged as it would be built:

- cooling: `liquid` when its devices are liquid-cooled (a GB300 NVL72 rack "is liquid cooled",
  a Quantum-X Photonics Q3450-LD has "dual-loop liquid cooling"), `air` when they are
  air-cooled (Q3400-RA, SN5610: fans), `air+liquid` when the rack holds both; unstated (not
  judged) when no device of the rack states its cooling;
- power feeds: a feed every device that states its feeds can take (a GB300 tray and a Q3450-LD
  a DC busbar; a DGX B300 AC or a 54 V DC busbar: the first its model lists), else every feed
  one of them needs (a rack that must deliver both); unstated when no device states one.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model.catalog_entities import DeviceModel, PowerFeed


def rack_cooling(models: Iterable[DeviceModel]) -> str | None:
    """`air`, `liquid`, `air+liquid`, or None when no model states its cooling."""
    kinds = {m.cooling for m in models if m.cooling is not None}
    if not kinds:
        return None
    return "air+liquid" if len(kinds) > 1 else kinds.pop()


def rack_feeds(models: Iterable[DeviceModel]) -> list[PowerFeed] | None:
    """The feed(s) the rack delivers so that every device that states its feeds can take one;
    None when none states any."""
    stated = [m.power_feeds for m in models if m.power_feeds]
    if not stated:
        return None
    common = [feed for feed in stated[0] if all(feed in feeds for feeds in stated)]
    if common:
        return [common[0]]
    needed: list[PowerFeed] = []
    for feeds in stated:
        if not any(feed in needed for feed in feeds):
            needed.append(feeds[0])
    return needed
