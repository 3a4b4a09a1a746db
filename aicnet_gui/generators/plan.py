"""The abstract result of a template: devices, links and placement groups, before naming,
racks and media.  Plain slotted dataclasses (a 4,096-server plan has ~100k links)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.catalog_entities import DeviceModel, Role
from ..model.fabric import CageConfig


@dataclass(slots=True)
class PlannedDevice:
    role: Role
    model: DeviceModel
    tags: dict[str, str]
    cages: dict[int, CageConfig]
    name: str = ""
    rack: str | None = None
    ru: int | None = None

    @property
    def id(self) -> str:
        return self.name


@dataclass(slots=True)
class PlannedLink:
    a: int
    a_port: str
    b: int
    b_port: str
    tier: str
    rail: int | None = None
    cable: str | None = None
    assembly: str | None = None


@dataclass(slots=True)
class ComputeCell:
    """Servers and the leaves they attach to, placed together (an SU, a rail group of leaves,
    or one ToR leaf and its servers)."""

    label: str
    servers: list[int]
    leaves: list[int]
    pod: int = 0


@dataclass(slots=True)
class SwitchBlock:
    """Spines of one pod (or of the whole two-tier fabric), or the core switches."""

    label: str
    switches: list[int]
    pod: int | None = 0


@dataclass
class FabricPlan:
    template: str
    speed: int
    tiers: int
    devices: list[PlannedDevice] = field(default_factory=list)
    links: list[PlannedLink] = field(default_factory=list)
    cells: list[ComputeCell] = field(default_factory=list)
    blocks: list[SwitchBlock] = field(default_factory=list)
    pods: int = 1
    rail_planes: bool = False  # rails are separate fabrics on purpose (settings.rail_planes)
    planes: int = 1  # independent compute planes (multi-plane designs); switches carry theirs
    sizing: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: why no catalog media may cable this design's links, said when the media choice finds none
    media_hint: str = ""
    #: per link, the index of its counterpart class: link j of every plane of a multi-plane
    #: design shares class j, so the planes get the same media (PLANE-UNBALANCED); None: none
    link_class: list[int] | None = None

    def add_device(
        self, role: Role, model: DeviceModel, tags: dict[str, str], cages: dict[int, CageConfig]
    ) -> int:
        self.devices.append(PlannedDevice(role, model, tags, dict(cages)))
        return len(self.devices) - 1

    def connect(
        self, a: int, a_port: str, b: int, b_port: str, tier: str, rail: int | None = None
    ) -> None:
        self.links.append(PlannedLink(a, a_port, b, b_port, tier, rail))

    def count(self, role: Role) -> int:
        return sum(1 for d in self.devices if d.role == role)
