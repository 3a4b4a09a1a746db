"""The edit operations of the one mutation API, and the change set each applied edit reports.

An edit is a list of operations applied all-or-nothing by `FabricDocument.apply`; applying it
returns the inverse list, which is exactly what an undo command needs.  Operations are treated
as values (never changed after creation); they are not frozen only because frozen dataclasses
cost ~3x more to create, and a generator run creates 100k of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .catalog import Catalog
from .fabric import Device, Link, Rack, Requirement, Workload


@dataclass(slots=True)
class AddDevice:
    device: Device


@dataclass(slots=True)
class RemoveDevice:
    """Removes the device, its links and its workload memberships."""

    id: str


@dataclass(slots=True)
class UpdateDevice:
    id: str
    changes: dict[str, Any]


@dataclass(slots=True)
class AddLink:
    link: Link


@dataclass(slots=True)
class RemoveLink:
    id: str


@dataclass(slots=True)
class UpdateLink:
    id: str
    changes: dict[str, Any]


@dataclass(slots=True)
class AddRack:
    rack: Rack


@dataclass(slots=True)
class RemoveRack:
    """Removes the rack; devices in it stay, unracked."""

    id: str


@dataclass(slots=True)
class UpdateRack:
    id: str
    changes: dict[str, Any]


@dataclass(slots=True)
class AddWorkload:
    workload: Workload


@dataclass(slots=True)
class RemoveWorkload:
    id: str


@dataclass(slots=True)
class UpdateWorkload:
    id: str
    changes: dict[str, Any]


@dataclass(slots=True)
class UpdateSettings:
    """Changes top-level fields of `Settings` (nested models are replaced whole)."""

    changes: dict[str, Any]


@dataclass(slots=True)
class UpdateMetadata:
    changes: dict[str, Any]


@dataclass(slots=True)
class SetRequirement:
    """Sets (or with None, removes) the requirement the design was chosen for."""

    requirement: Requirement | None


@dataclass(slots=True)
class ReplaceCatalog:
    """Puts another catalog under the document (e.g. with entries updated from the user's
    catalog); every device, optic and cable is checked against it."""

    catalog: Catalog


Operation = (
    AddDevice
    | RemoveDevice
    | UpdateDevice
    | AddLink
    | RemoveLink
    | UpdateLink
    | AddRack
    | RemoveRack
    | UpdateRack
    | AddWorkload
    | RemoveWorkload
    | UpdateWorkload
    | UpdateSettings
    | UpdateMetadata
    | SetRequirement
    | ReplaceCatalog
)


@dataclass(slots=True)
class ChangeSet:
    """The ids an applied edit touched, by kind, and the document revision it produced."""

    devices: set[str] = field(default_factory=set)
    links: set[str] = field(default_factory=set)
    racks: set[str] = field(default_factory=set)
    workloads: set[str] = field(default_factory=set)
    settings: bool = False
    metadata: bool = False
    requirement: bool = False
    reset: bool = False
    revision: int = 0

    @property
    def ids(self) -> set[str]:
        return self.devices | self.links | self.racks | self.workloads

    def __bool__(self) -> bool:
        return bool(self.ids or self.settings or self.metadata or self.requirement or self.reset)

    def merge(self, other: ChangeSet) -> None:
        self.devices |= other.devices
        self.links |= other.links
        self.racks |= other.racks
        self.workloads |= other.workloads
        self.settings |= other.settings
        self.metadata |= other.metadata
        self.requirement |= other.requirement
        self.reset |= other.reset
        self.revision = max(self.revision, other.revision)


@dataclass(frozen=True)
class AppliedEdit:
    changes: ChangeSet
    inverse: list[Operation]
