"""What the Topology scene shows of a document, computed without touching a widget.

`topology_data(doc)` walks the document once: every device's panel geometry, position, tier and
bundle group, the ports that carry a cable, and every cable's end points and colours as numpy
columns.  It only reads the document and creates no Qt object (QColor values only), so the file
loader runs it in its worker thread and the GUI thread merely turns the result into items: that
is what keeps opening a 100k-cable fabric from freezing the window.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...model.document import FabricDocument
from ...model.fabric import Device
from .. import theme
from .geometry import DeviceGeometry, device_geometry


def group_key(device: Device, tier: int) -> str | None:
    """The bundle group of a device zoomed far out: servers of one SU (or pod, or rack), spines of
    one rail group (plane), cores of one group; leaves stay single.  Cables then become trunks
    SU -> leaf -> spine group -> core group (shared/reference/performance.md §6)."""
    tags = device.tags
    if tier == 0:
        for tag in ("su", "pod"):
            if tag in tags:
                return f"servers:{tag}:{tags[tag]}"
        return f"servers:rack:{device.rack}" if device.rack else None
    if tier == 2 and ("rail_group" in tags or "plane" in tags):
        return f"spines:{tags.get('pod', '')}:{tags.get('rail_group', tags.get('plane'))}"
    if tier == 3 and ("core_group" in tags or "group" in tags):
        return f"cores:{tags.get('core_group', tags.get('group'))}"
    return None


@dataclass(slots=True)
class DeviceRow:
    id: str
    name: str
    model_text: str
    role: str
    tier: int
    geometry: DeviceGeometry
    x: float
    y: float
    group: str | None


@dataclass(slots=True)
class TopologyData:
    """Devices and cables of one document revision, ready for the scene."""

    revision: int
    devices: list[DeviceRow] = field(default_factory=list)
    used: list[set[str]] = field(default_factory=list)
    link_ids: list[str] = field(default_factory=list)
    coords: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    colours: list[str] = field(default_factory=list)
    speed_colours: list[str] = field(default_factory=list)
    dev_a: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    dev_b: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    rails: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int16))


_CENTRES: dict[int, tuple[DeviceGeometry, dict[str, tuple[float, float, str]]]] = {}


def port_centres(geometry: DeviceGeometry) -> dict[str, tuple[float, float, str]]:
    """Port name -> (centre x, centre y, speed colour) of a (shared) geometry, cached."""
    hit = _CENTRES.get(id(geometry))
    if hit is not None and hit[0] is geometry:
        return hit[1]
    centres = {}
    for name, port in geometry.ports.items():
        x, y, w, h = port.rect
        centres[name] = (x + w / 2, y + h / 2, theme.speed_colour_hex(port.speed_gbps))
    _CENTRES[id(geometry)] = (geometry, centres)
    return centres


def topology_data(doc: FabricDocument) -> TopologyData:
    """Read everything the Topology scene draws from `doc` (any thread; reads only)."""
    data = TopologyData(doc.revision)
    index: dict[str, int] = {}
    centres: list[dict[str, tuple[float, float, str]]] = []
    xs: list[float] = []
    ys: list[float] = []
    models = doc.catalog.devices
    for device in doc.devices.values():
        model = models[device.model]
        geometry = device_geometry(model, device.cages)
        role = doc.role_of(device)
        tier = doc.tier_of(device)
        x, y = device.position
        index[device.id] = len(data.devices)
        data.devices.append(DeviceRow(device.id, device.name, model.model, role.value, tier, geometry,
                                      x, y, group_key(device, tier)))
        data.used.append(set())
        centres.append(port_centres(geometry))
        xs.append(x)
        ys.append(y)
    n = len(doc.links)
    ids: list[str] = []
    coords = np.empty((n, 4), dtype=np.float64)
    dev_a = np.empty(n, dtype=np.int64)
    dev_b = np.empty(n, dtype=np.int64)
    rails = np.zeros(n, dtype=np.int16)
    colours: list[str] = []
    speeds: list[str] = []
    jackets: dict[str, str | None] = {}
    used = data.used
    k = 0
    for link in doc.links.values():
        a, b = link.a, link.b
        ia, ib = index.get(a.device), index.get(b.device)
        if ia is None or ib is None:
            continue
        ca, cb = centres[ia].get(a.port), centres[ib].get(b.port)
        if ca is None or cb is None:
            continue
        coords[k] = (xs[ia] + ca[0], ys[ia] + ca[1], xs[ib] + cb[0], ys[ib] + cb[1])
        dev_a[k], dev_b[k] = ia, ib
        if link.rail:
            rails[k] = link.rail
        speed = ca[2]
        jacket = None
        if link.colour:
            jacket = jackets.get(link.colour, "")
            if jacket == "":
                jacket = jackets[link.colour] = theme.link_colour_hex(link.colour)
        ids.append(link.id)
        colours.append(jacket or speed)
        speeds.append(speed)
        used[ia].add(a.port)
        used[ib].add(b.port)
        k += 1
    data.link_ids = ids
    data.coords = coords[:k]
    data.dev_a = dev_a[:k]
    data.dev_b = dev_b[:k]
    data.rails = rails[:k]
    data.colours = colours
    data.speed_colours = speeds
    return data
