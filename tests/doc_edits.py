"""One edit at a time on a `FabricDocument`, for tests: each helper is `doc.apply([op])`.

The product edits a document through `FabricDocument.apply(ops)` only (the GUI through
`EditorDocument.execute`); these one-operation forms keep the tests that build or change a
document step by step short.  Each returns the `AppliedEdit` (its change set and inverse ops).
"""

from __future__ import annotations

from typing import Any

from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import (
    AddDevice,
    AddLink,
    AddRack,
    AddWorkload,
    AppliedEdit,
    RemoveDevice,
    RemoveLink,
    UpdateDevice,
    UpdateLink,
    UpdateSettings,
)
from aicnet_gui.model.fabric import Device, Link, Rack, Workload


def add_device(doc: FabricDocument, device: Device) -> AppliedEdit:
    return doc.apply([AddDevice(device)])


def remove_device(doc: FabricDocument, device_id: str) -> AppliedEdit:
    return doc.apply([RemoveDevice(device_id)])


def update_device(doc: FabricDocument, device_id: str, **changes: Any) -> AppliedEdit:
    return doc.apply([UpdateDevice(device_id, changes)])


def add_link(doc: FabricDocument, link: Link) -> AppliedEdit:
    return doc.apply([AddLink(link)])


def remove_link(doc: FabricDocument, link_id: str) -> AppliedEdit:
    return doc.apply([RemoveLink(link_id)])


def update_link(doc: FabricDocument, link_id: str, **changes: Any) -> AppliedEdit:
    return doc.apply([UpdateLink(link_id, changes)])


def add_rack(doc: FabricDocument, rack: Rack) -> AppliedEdit:
    return doc.apply([AddRack(rack)])


def add_workload(doc: FabricDocument, workload: Workload) -> AppliedEdit:
    return doc.apply([AddWorkload(workload)])


def update_settings(doc: FabricDocument, **changes: Any) -> AppliedEdit:
    return doc.apply([UpdateSettings(changes)])
