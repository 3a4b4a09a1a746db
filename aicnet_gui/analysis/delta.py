"""`Delta`: what one `Analyzer.update` changed, as the rules see it.

`refresh.apply_changes` fills a Delta step by step while it brings the analyzer's state up to
date (re-read racks and devices, re-index links, per-device sums, group indices, workload
targets, ECMP peers).  Each rule's dependency function (`Rule.dirty`, defaults in dirty.py)
then turns the Delta into the keys of its scope to check again.  Rows are the store's rows
(`State.store`); ids are document ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..model.edits import ChangeSet
from .topology import Pair

Neighbours = tuple[Pair, ...]  # Topology.up / Topology.down of one row


@dataclass(eq=False)
class Delta:
    changes: ChangeSet
    # ---- re-read racks and devices
    devices: set[str] = field(default_factory=set)  # device ids re-read (object or rack changed)
    placed: set[str] = field(default_factory=set)  # ... not re-read: only their position changed
    wired: set[str] = field(default_factory=set)  # ... whose change reaches their links
    old_device: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)  # (rack, model)
    changed_rows: set[int] = field(default_factory=set)  # rows of re-read devices still alive
    wired_rows: set[int] = field(default_factory=set)  # ... of the wired ones
    typed_rows: set[int] = field(default_factory=set)  # added, removed, or new model or role
    regrouped: bool = False  # a device changed tier or became / stopped being a switch
    # ---- re-index links
    links: set[str] = field(default_factory=set)  # link ids re-read: changed, or of a wired device
    # ... of which only the length can have changed: a device at one end moved to another RU of
    # its rack (the far ends keep their sums, neighbours and findings; only the link re-runs)
    lengths_only: set[str] = field(default_factory=set)
    old_assembly: dict[str, str | None] = field(default_factory=dict)  # link id -> assembly before
    old_ends: set[tuple[int, int]] = field(default_factory=set)  # (device row, cage), before and after
    touched_rows: set[int] = field(default_factory=set)  # device rows whose links changed
    # ---- per-device sums and topology
    their_links: dict[int, set[str]] = field(default_factory=dict)  # live touched row -> link ids
    their_rows: dict[int, np.ndarray] = field(default_factory=dict)  # ... -> their sorted link rows
    old_up: dict[int, Neighbours] = field(default_factory=dict)
    old_down: dict[int, Neighbours] = field(default_factory=dict)
    old_sums: dict[int, tuple] = field(default_factory=dict)  # (up, down, up count, compute linked)
    # ---- group indices, workload targets, ECMP
    racks: set[str] = field(default_factory=set)  # racks whose members or attributes changed
    models: set[str] = field(default_factory=set)  # firmware lines (State.firmware_line)
    assemblies: set[str] = field(default_factory=set)
    targets: set[int] = field(default_factory=set)  # rows whose oversubscription target moved
    peers: set[int] = field(default_factory=set)  # switches whose ECMP inputs changed

    def seen_by_rules(self) -> bool:
        """Can any finding change?  Not when the edit only moved devices on the canvas."""
        changes = self.changes
        return bool(self.devices or self.links or changes.links or changes.racks
                    or changes.workloads or changes.requirement or changes.metadata
                    or changes.devices - self.placed)

    def rows_changed(self) -> set[int]:
        """Device rows whose own facts, links, sums or targets changed (may include dead rows)."""
        return self.touched_rows | self.changed_rows | self.targets
