"""The analyzer's state that rules read, and the `Rule` type.

A rule has a scope (`link`, `device`, `rack`, `model`, `assembly`, `workload`, `fabric`), a
`check(state, key)` that returns findings for one key (a link row, a device row, a rack id, a
device-model id, an assembly id, a workload id, or None for the fabric), and optionally
`candidates(state)`: a fast (numpy) pre-selection of the keys worth checking in a full run.
`candidates` must never leave out a key that `check` would report on: an incremental run calls
`check` on every dirty key, and both runs must agree.

A rule may also say what it depends on: `dirty(state, delta)` returns the keys of its scope to
check again after an edit, given the update's `Delta` (delta.py).  A rule that says nothing gets
its scope's default (dirty.py `SCOPE_DEFAULTS`); `depends="peers"` on a device rule is the older
spelling of `dirty=dirty.switch_peers`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ..model.catalog_entities import Technology
from ..model.document import FabricDocument
from ..model.fabric import Link, Workload
from ..model.fit import fabric_family
from .delta import Delta
from .findings import Finding
from .index import CatalogIndex, Endpoints
from .signatures import Signatures
from .store import Store
from .topology import Topology

Scope = Literal["link", "device", "rack", "model", "assembly", "workload", "fabric"]
SCOPES: tuple[Scope, ...] = ("link", "device", "rack", "model", "assembly", "workload", "fabric")


@dataclass(frozen=True, slots=True)
class Failure:
    """A rule that raised on one key; reported as one INTERNAL-ERROR finding per rule."""

    rule: str
    error: str


@dataclass(frozen=True)
class Rule:
    name: str
    scope: Scope
    check: Callable[[State, Any], Iterable[Finding | Failure]]
    candidates: Callable[[State], Iterable[Any]] | None = None
    codes: tuple[str, ...] = ()
    # device rules only, the older spelling of `dirty`: "self" (the scope's default) or "peers"
    # (dirty.switch_peers: also the switches sharing an upper switch with a changed one, ECMP)
    depends: str = "self"
    # the keys to check again after an edit, given its Delta; None: the scope's default
    dirty: Callable[[State, Delta], Iterable[Any]] | None = None
    # a full run's `check` of all its keys at once: for each key, in order, what `check` gives,
    # its findings and its failures apart (the engine checks key by key instead when it raises)
    check_all: Callable[[State, list[Any]],
                        Iterable[tuple[tuple[Finding, ...], tuple[Failure, ...]]]] | None = None


@dataclass
class WorkloadView:
    """Per-workload results the fabric and device rules read (filled by bandwidth.py)."""

    covered: np.ndarray  # bool per device row: the workload's traffic crosses this switch
    metrics: Any = None


@dataclass
class State:
    doc: FabricDocument
    cindex: CatalogIndex
    endpoints: Endpoints
    sigs: Signatures
    store: Store
    topo: Topology
    family: Technology
    workloads: dict[str, WorkloadView] = field(default_factory=dict)
    # strictest oversubscription target over the workloads crossing each device row
    target: np.ndarray = field(default_factory=lambda: np.zeros(0))
    target_wl: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    target_ids: list[str] = field(default_factory=list)
    leaf_rail: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    wl_models: dict[str, Any] = field(default_factory=dict)
    # results a rule may reuse while its inputs are unchanged (kept until the next full run)
    memo: dict[str, Any] = field(default_factory=dict)
    # results shared by the rules of one run (cleared at the start of every run)
    run: dict[str, Any] = field(default_factory=dict)
    # link ids per assembly id, and device ids per (firmware line -> firmware): a firmware line
    # is a model's firmware_family or its id (State.firmware_line)
    assemblies: dict[str, set[str]] = field(default_factory=dict)
    firmware: dict[str, dict[str, str]] = field(default_factory=dict)
    rack_members: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def create(cls, doc: FabricDocument, sig_rules: list) -> State:
        cindex = CatalogIndex(doc.catalog)
        endpoints = Endpoints(cindex)
        family = fabric_family(doc.settings.technology)
        sigs = Signatures(cindex, endpoints, family, sig_rules)
        store = Store(doc, cindex, endpoints, sigs)
        return cls(doc, cindex, endpoints, sigs, store, Topology(store), family)

    @classmethod
    def load(cls, doc: FabricDocument, sig_rules: list) -> State:
        """A state with every rack, device and link read and the link columns derived: what
        the analyzer's full run and the bill of materials start from."""
        state = cls.create(doc, sig_rules)
        store = state.store
        store.load_racks()
        store.load_devices()
        store.load_links()
        store.derive(store.link_rows())
        return state

    # ---------------------------------------------------------------- names and objects
    @property
    def settings(self):  # noqa: ANN201
        return self.doc.settings

    def dev_id(self, row: int) -> str:
        return self.store.dev_ids[row]  # type: ignore[return-value]

    def name(self, row: int) -> str:
        device = self.store.dev_obj[row]
        return device.name if device is not None else f"#{row}"

    def names(self, rows: Iterable[int]) -> str:
        return ", ".join(self.name(r) for r in rows)

    def link_id(self, row: int) -> str:
        return self.store.link_ids[row]  # type: ignore[return-value]

    def link(self, row: int) -> Link:
        return self.doc.links[self.link_id(row)]

    def end_label(self, row: int, side: str) -> str:
        store = self.store
        dev = int(store.l[side][row])
        port = store.a_port[row] if side == "a" else store.b_port[row]
        return f"{self.name(dev)}:{port}"

    def firmware_line(self, model_id: str) -> str:
        """The key firmware versions are compared under: the model's `firmware_family`, else its
        id (the "model" scope of the rules iterates these keys)."""
        idx = self.cindex.model_idx.get(model_id)
        family = self.cindex.models[idx].firmware_family if idx is not None else None
        return family or model_id

    def workload(self, workload_id: str) -> Workload:
        return self.doc.workloads[workload_id]

    def tier_name(self, tier: int) -> str:
        return {0: "server", 1: "leaf", 2: "spine", 3: "core"}.get(tier, f"tier {tier}")
