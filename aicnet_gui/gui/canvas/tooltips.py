"""The Topology canvas's tooltips: a port, a device or a cable under the mouse, in words."""

from __future__ import annotations

from PySide6.QtCore import QPointF

from ...editing.compat import PortRef, port_title
from ...editing.units import counted, speed_label
from ...model.document import FabricDocument
from .items import DeviceItem
from .link_layer import LinkLayer

PICK_PIXELS = 5.0


def port_tooltip(doc: FabricDocument, item: DeviceItem, port_name: str) -> str:
    device = doc.devices[item.device_id]
    assert item.geometry is not None
    port = item.geometry.ports[port_name]
    logical = doc.port(device.id, port.name)
    link = doc.link_at(device.id, port.name)
    state = "free"
    if link is not None:
        other = link.b if link.a.device == device.id and link.a.port == port.name else link.a
        state = f"cable to {port_title(doc, PortRef(other.device, other.port))}"
    group = logical.group if logical else None
    mode = f"{port.legs}x{speed_label(port.speed_gbps)}"
    optic = device.cages.get(port.cage)
    optic_text = f"<br>optic: {optic.transceiver}" if optic and optic.transceiver else ""
    return (f"<b>{device.name}:{port.name}</b> · {speed_label(port.speed_gbps)}<br>"
            f"cage {port.cage} ({group.form_factor if group else ''}, {mode}){optic_text}<br>{state}")


def device_tooltip(doc: FabricDocument, device_id: str) -> str:
    device = doc.devices[device_id]
    model = doc.device_model(device)
    free = len(doc.free_ports(device.id))
    rack = doc.racks[device.rack].name if device.rack in doc.racks else "not in a rack"
    ru = f", RU {device.ru}" if device.ru else ""
    return (f"<b>{device.name}</b><br>{model.vendor} {model.model} · {doc.role_of(device).value}<br>"
            f"{rack}{ru}<br>{counted(len(doc.link_ids_of(device.id)), 'cable')}, "
            f"{counted(free, 'free port')}")


def link_tooltip(doc: FabricDocument, link_id: str) -> str:
    link = doc.links[link_id]
    port = doc.port(link.a.device, link.a.port)
    speed = speed_label(port.speed_gbps) if port else ""
    cable = link.cable or "media not chosen"
    return (f"<b>{port_title(doc, PortRef(link.a.device, link.a.port))} ⟷ "
            f"{port_title(doc, PortRef(link.b.device, link.b.port))}</b><br>{speed} · {cable}")


def tooltip(doc: FabricDocument, item: DeviceItem | None, links: LinkLayer, pos: QPointF,
            scale: float, detail_scale: float) -> str:
    """The tooltip at scene `pos` for a view at `scale`: the port (zoomed in far enough to see
    ports), else the device `item`, else the cable there; "" for none."""
    if item is not None:
        if item.device_id not in doc.devices:
            return ""
        port = item.port_at(item.mapFromScene(pos)) if scale >= detail_scale else None
        if port is not None:
            return port_tooltip(doc, item, port.name)
        return device_tooltip(doc, item.device_id)
    link_id = links.link_at(pos.x(), pos.y(), PICK_PIXELS / max(scale, 1e-6))
    if link_id is not None and link_id in doc.links:
        return link_tooltip(doc, link_id)
    return ""
