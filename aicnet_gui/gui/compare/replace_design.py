"""The edit that makes another design the project's own ("use this one"), as model operations.

No undoable replace of a whole document exists (`EditorDocument` replaces its model on New,
Open and Revert and clears the undo stack), so the choice goes through the one mutation API,
as a generator run into a non-empty document does (generators/build.py with `replace`):
everything of the current design is removed, the chosen design's catalog, settings, name and
requirement are taken, then its racks, devices, links and workloads are added.  `apply` gives
the exact inverse, so one undo step brings the previous design back.  Qt-free.
"""

from __future__ import annotations

from ...model.document import FabricDocument, emptying_ops
from ...model.edits import (
    AddDevice,
    AddLink,
    AddRack,
    AddWorkload,
    Operation,
    ReplaceCatalog,
    SetRequirement,
    UpdateMetadata,
    UpdateSettings,
)
from ...model.fabric import Requirement, Settings

#: what the chosen design brings of its metadata (author, revision and dates stay the project's)
TAKEN_METADATA = ("name", "description")


def replacement_ops(current: FabricDocument, chosen: FabricDocument,
                    requirement: Requirement | None) -> list[Operation]:
    """Operations that turn `current` into `chosen` (which nobody else edits), with
    `requirement` as the project's requirement."""
    ops = emptying_ops(current)
    if chosen.catalog is not current.catalog:  # checked on an empty design: nothing to refuse
        ops.append(ReplaceCatalog(chosen.catalog))
    settings = {name: getattr(chosen.settings, name) for name in Settings.model_fields
                if getattr(chosen.settings, name) != getattr(current.settings, name)}
    if settings:
        ops.append(UpdateSettings(settings))
    ops.append(UpdateMetadata({name: getattr(chosen.metadata, name) for name in TAKEN_METADATA}))
    ops.append(SetRequirement(requirement))
    ops += [AddRack(r) for r in chosen.racks.values()]
    ops += [AddDevice(d) for d in chosen.devices.values()]
    ops += map(AddLink, chosen.links.values())
    ops += [AddWorkload(w) for w in chosen.workloads.values()]
    return ops
