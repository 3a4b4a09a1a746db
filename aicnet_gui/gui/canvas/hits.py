"""What is under the mouse on a canvas, as a typed answer (for the context menu and clicks).

`TopologyScene.hit_at` and `FloorScene.hit_at` return one of these or None, so a caller
matches on the type instead of probing items for attributes.
"""

from __future__ import annotations

from dataclasses import dataclass

from .groups import GroupKey


@dataclass(frozen=True, slots=True)
class DeviceHit:
    device_id: str
    #: the device was already selected
    selected: bool


@dataclass(frozen=True, slots=True)
class RackHit:
    rack_id: str
    selected: bool


@dataclass(frozen=True, slots=True)
class LinkHit:
    link_id: str
    selected: bool


@dataclass(frozen=True, slots=True)
class GroupHit:
    """A collapsed group's box (Topology)."""

    key: GroupKey
    title: str


Hit = DeviceHit | RackHit | LinkHit | GroupHit
