"""`Analyzer`: runs every rule over a document, fully or incrementally after an edit.

`full()` rebuilds the columns (store.py) in bulk, runs each rule on its numpy-selected
candidates and returns an `AnalysisReport`.  `update(changes)` re-reads only the racks, devices
and links the `ChangeSet` names, re-derives their columns and sums, and re-runs each rule on
the keys that depend on them:

- link rules: the changed links and every link of a device whose links changed (a fix on one
  link may move its cage-mates);
- device rules: the changed devices, both ends of every changed link, switches whose workload
  coverage changed, and for ECMP the switches that share an upper switch with a changed one;
- rack / model / assembly rules: the old and new rack, model and assembly of what changed;
- workload and fabric rules, and the workload metrics: every time (vectorized, ~1-2 ms).

The result equals a full run (tests/analysis/test_incremental.py checks this on random edit
sequences).  A rule that raises is caught: its failures become one INTERNAL-ERROR finding per
rule and every other rule still runs.  The analyzer never writes to the document.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..gc_control import gc_held
from ..model.document import FabricDocument
from ..model.edits import ChangeSet
from ..model.wording import counted
from . import (
    rules_airflow,
    rules_cabling,
    rules_cages,
    rules_compat,
    rules_device,
    rules_fabric,
    rules_groups,
    rules_link,
    rules_multiplane,
    rules_oob,
    rules_planes,
    rules_power_feeds,
    rules_roce,
    rules_scale,
    rules_subnet,
)
from .bandwidth import analyze_workloads
from .fabric_paths import worst_path
from .findings import ERROR, Finding, Fix
from .report import (
    LINK_FIELDS,
    AnalysisReport,
    BreakoutMetrics,
    LinkColumns,
    Metrics,
    MetricsData,
    OversubscriptionMetrics,
    ReachMetrics,
)
from .rules_fabric import tier_ratios
from .signatures import SigRule
from .state import SCOPES, Failure, Rule, State
from .store import Store

DEFAULT_RULES: tuple[Rule, ...] = (
    *rules_link.RULES, *rules_device.RULES, *rules_cages.RULES, *rules_groups.RULES,
    *rules_fabric.RULES, *rules_subnet.RULES, *rules_roce.RULES, *rules_power_feeds.RULES,
    *rules_airflow.RULES, *rules_planes.RULES, *rules_scale.RULES, *rules_oob.RULES,
    *rules_multiplane.RULES, *rules_cabling.RULES,
)
SIGNATURE_RULES: tuple[tuple[str, SigRule], ...] = tuple(rules_compat.RULES)
REBASE_AFTER = 4096  # links changed since the last copy of the link columns
REPORT_DEVICE_COLUMNS = ("alive", "switch", "tier", "up", "down", "links", "stranded", "ports",
                         "plane")


def _describe(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ else []
    where = f" at {frames[-1].name}:{frames[-1].lineno}" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


class Analyzer:
    """Analysis of one document; keeps its state between runs for incremental updates."""

    def __init__(self, doc: FabricDocument, rules: Sequence[Rule] | None = None,
                 signature_rules: Sequence[tuple[str, SigRule]] | None = None) -> None:
        self.doc = doc
        self.rules: tuple[Rule, ...] = tuple(DEFAULT_RULES if rules is None else rules)
        self.signature_rules = list(SIGNATURE_RULES if signature_rules is None else signature_rules)
        self.state: State | None = None
        #: incremental runs keep the last max-flow bisection of a rewired fabric and mark the
        #: report `graph_pending` (the live validator then runs a full pass in its worker)
        self.defer_graph = False
        # rule name -> key -> findings / (failing rule, error) of that key
        self._found: dict[str, dict[Any, tuple[Finding, ...]]] = {}
        self._failed: dict[str, dict[Any, tuple[tuple[str, str], ...]]] = {}
        self._by_scope: dict[str, list[Rule]] = {s: [] for s in SCOPES}
        for rule in self.rules:
            self._by_scope[rule.scope].append(rule)

    # ================================================================== full run
    def full(self) -> AnalysisReport:
        """Analyse the whole document (the garbage collector is paused meanwhile: the bulk load
        allocates ~1M short-lived objects, performance.md §9.4)."""
        with gc_held():
            return self._full()

    def _full(self) -> AnalysisReport:
        start = time.perf_counter()
        state = State.create(self.doc, self.signature_rules)
        store = state.store
        store.load_racks()
        store.load_devices()
        store.load_links()
        rows = store.link_rows()
        store.derive(rows)
        store.aggregate(store.device_rows(), rows)
        state.topo.rebuild()
        self._index_groups(state)
        analyze_workloads(state)
        self.state = state
        self._rebase()
        self._found = {rule.name: {} for rule in self.rules}
        self._failed = {rule.name: {} for rule in self.rules}
        for rule in self.rules:
            keys = rule.candidates(state) if rule.candidates is not None else self._keys(rule.scope)
            for key in keys:
                self._run(rule, key)
        return self._report(start)

    def _rebase(self) -> None:
        """Copy the link columns the reports share; later changes go into an overlay."""
        store = self.state.store
        n = store.n_links
        self._links_base = (list(store.link_ids),
                            {k: store.l[k][:n].copy() for k in ("alive", *LINK_FIELDS)})
        self._links_overlay: dict[str, tuple | None] = {}

    def _note_links(self, link_ids: Iterable[str]) -> None:
        store = self.state.store
        col = store.l
        for link_id in link_ids:
            row = store.link_row.get(link_id)
            self._links_overlay[link_id] = None if row is None else tuple(
                col[name][row].item() for name in LINK_FIELDS)
        if len(self._links_overlay) > REBASE_AFTER:
            self._rebase()

    def _keys(self, scope: str) -> Iterable[Any]:
        state = self.state
        assert state is not None
        if scope == "link":
            return state.store.link_rows().tolist()
        if scope == "device":
            return state.store.device_rows().tolist()
        if scope == "rack":
            return sorted(state.doc.racks)
        if scope == "model":
            return sorted(state.firmware)
        if scope == "assembly":
            return sorted(state.assemblies)
        if scope == "workload":
            return sorted(state.doc.workloads)
        return [None]

    def _index_groups(self, state: State) -> None:
        store = state.store
        assemblies: dict[str, set[str]] = {}
        for row in np.flatnonzero(store.l["has_asm"][: store.n_links]).tolist():
            assemblies.setdefault(store.assembly[row], set()).add(store.link_ids[row])
        state.assemblies = assemblies
        firmware: dict[str, dict[str, str]] = {}
        racks: dict[str, set[str]] = {}
        for device in self.doc.devices.values():
            firmware.setdefault(state.firmware_line(device.model), {})[device.id] = device.firmware
            if device.rack is not None:
                racks.setdefault(device.rack, set()).add(device.id)
        state.firmware = firmware
        state.rack_members = racks

    # ================================================================== running rules
    def _key_id(self, scope: str, key: Any) -> Any:
        state = self.state
        assert state is not None
        if scope == "link":
            return state.store.link_ids[key]
        if scope == "device":
            return state.store.dev_ids[key]
        return key if key is not None else ""

    def _run(self, rule: Rule, key: Any, key_id: Any = None) -> None:
        state = self.state
        assert state is not None
        if key_id is None:
            key_id = self._key_id(rule.scope, key)
        found: list[Finding] = []
        failed: list[tuple[str, str]] = []
        try:
            for item in rule.check(state, key):
                if isinstance(item, Failure):
                    failed.append((item.rule, item.error))
                else:
                    found.append(item)
        except Exception as exc:  # noqa: BLE001 - a failing rule must not stop the others
            found = []
            failed.append((rule.name, _describe(exc)))
        if found:
            self._found[rule.name][key_id] = tuple(found)
        else:
            self._found[rule.name].pop(key_id, None)
        if failed:
            self._failed[rule.name][key_id] = tuple(failed)
        else:
            self._failed[rule.name].pop(key_id, None)

    def _clear(self, scope: str, key_id: Any) -> None:
        for rule in self._by_scope[scope]:
            self._found[rule.name].pop(key_id, None)
            self._failed[rule.name].pop(key_id, None)

    # ================================================================== incremental run
    def update(self, changes: ChangeSet, doc: FabricDocument | None = None) -> AnalysisReport:
        """Re-analyse after `changes` (the ChangeSet of one or more applied edits).

        `doc` is the document to read from now (e.g. a fresh `doc.snapshot()` taken after the
        edit); by default the document the analyzer was made with.
        """
        if doc is not None and doc is not self.doc:
            if doc.catalog is not self.doc.catalog:
                self.doc = doc
                return self.full()
            self.doc = doc
            if self.state is not None:
                self.state.doc = doc
                self.state.store.doc = doc
        state = self.state
        if state is None or changes.reset or changes.settings:
            return self.full()
        start = time.perf_counter()
        state.run = {"defer_graph": self.defer_graph}
        store = state.store
        store.settings = self.doc.settings
        doc = self.doc

        # --- racks and devices: remember where things were, then re-read them
        for rack_id in sorted(changes.racks):
            store.set_rack(rack_id)
        # a device named in the change set may only have had a link changed: the document
        # replaces a device object when it changes, so compare identities
        changed_devices = {
            d for d in changes.devices
            if d not in store.dev_row or doc.devices.get(d) is not store.dev_obj[store.dev_row[d]]
        }
        # devices whose change reaches their links (model, role, name, place, cages); a new
        # firmware version or tag only re-runs the device's own rules
        wired = {d for d in changed_devices if _wiring(store, doc, d)}
        for rack_id in changes.racks:
            members = state.rack_members.get(rack_id, set())
            changed_devices |= members
            wired |= members
        old_device: dict[str, tuple[str | None, str | None]] = {}
        for dev_id in changed_devices:
            row = store.dev_row.get(dev_id)
            old = store.dev_obj[row] if row is not None else None
            old_device[dev_id] = (old.rack, old.model) if old is not None else (None, None)
        dirty_links = set(changes.links)
        for dev_id in wired:
            if dev_id in doc.devices:
                dirty_links |= doc.link_ids_of(dev_id)
        touched_rows: set[int] = set()  # device rows whose links change
        old_ends: set[tuple[int, int]] = set()  # (device row, cage) the dirty links used
        old_assembly: dict[str, str | None] = {}
        cage_of = self._cage_of
        for link_id in dirty_links:
            row = store.link_row.get(link_id)
            if row is not None:
                for side in ("a", "b"):
                    dev = int(store.l[side][row])
                    touched_rows.add(dev)
                    old_ends.add((dev, cage_of(row, side)))
                old_assembly[link_id] = store.assembly[row]
        changed_rows: set[int] = set()  # devices whose own rules re-run
        wired_rows: set[int] = set()  # ... and whose links, sums and neighbours change too
        typed_rows: set[int] = set()  # ... added, removed, or of another model or role
        regrouped = False  # a device changed tier or became / stopped being a switch
        old_model = {d: (store.dev_obj[store.dev_row[d]].model, store.dev_obj[store.dev_row[d]].role)
                     for d in changed_devices if d in store.dev_row}
        for dev_id in sorted(changed_devices):
            before = store.dev_row.get(dev_id)
            was = (int(store.d["tier"][before]), bool(store.d["switch"][before])) if before is not None else None
            row = store.set_device(dev_id)
            now = (int(store.d["tier"][row]), bool(store.d["switch"][row])) if row is not None else None
            regrouped |= was != now
            if _typed(store, old_model.get(dev_id), row):
                typed_rows.add(row if row is not None else before)
            if row is not None:
                changed_rows.add(row)
                if dev_id in wired:
                    touched_rows.add(row)
                    wired_rows.add(row)
        link_rows = []
        for link_id in sorted(dirty_links):
            row = store.set_link(link_id)
            if row is not None:
                link_rows.append(row)
        link_rows_a = np.array(sorted(link_rows), dtype=np.int64)
        store.derive(link_rows_a)
        for row in link_rows:
            for side in ("a", "b"):
                dev = int(store.l[side][row])
                touched_rows.add(dev)
                old_ends.add((dev, cage_of(row, side)))

        # --- per-device sums and neighbours of every device whose links changed
        alive = store.d["alive"]
        touched = sorted(r for r in touched_rows if alive[r])
        their_links: dict[int, set[str]] = {r: doc.link_ids_of(store.dev_ids[r]) for r in touched}
        all_their = set().union(*their_links.values()) if their_links else set()
        their_rows = store.rows_of_links(all_their)
        old_up = {r: state.topo.up(r) for r in touched_rows}
        old_down = {r: state.topo.down(r) for r in touched_rows}
        old_links = {r: (old_up[r], old_down[r], int(store.d["up"][r]),
                         int(store.d["compute_linked"][r])) for r in touched_rows}
        store.aggregate(np.array(touched, dtype=np.int64), their_rows)
        state.topo.refresh(touched_rows, their_rows)
        touched = sorted(touched_rows)
        # links whose rules must run again: the dirty ones, and their cage-mates (a fix that
        # changes a cage's mode moves every link on that cage)
        rerun_links = {i for i in dirty_links if i in store.link_row}
        ends_by_dev: dict[int, set[int]] = {}
        for dev, cage in old_ends:
            ends_by_dev.setdefault(dev, set()).add(cage)
        # ... and the legs of their assemblies on the same devices (a cable fix covers them)
        assemblies = {a for a in old_assembly.values() if a is not None}
        assemblies |= {store.assembly[store.link_row[i]] for i in rerun_links} - {None}
        ep_cage = state.endpoints.arrays()["cage"]
        for dev, cages in ends_by_dev.items():
            if dev not in their_links:
                continue
            rows = store.rows_of_links(their_links[dev])
            if not len(rows):
                continue
            ends = np.where(store.l["a"][rows] == dev, store.l["a_ep"][rows], store.l["b_ep"][rows])
            mates = np.isin(ep_cage[ends], list(cages))
            if assemblies:
                mates |= np.fromiter((store.assembly[r] in assemblies for r in rows.tolist()),
                                     bool, len(rows))
            rerun_links.update(store.link_ids[r] for r in rows[mates].tolist())

        # --- group indices
        dirty_assemblies: set[str] = set()
        for link_id in dirty_links:
            old = old_assembly.get(link_id)
            if old is not None:
                dirty_assemblies.add(old)
                members = state.assemblies.get(old)
                if members is not None:
                    members.discard(link_id)
                    if not members:
                        del state.assemblies[old]
            link = doc.links.get(link_id)
            if link is not None and link.assembly is not None:
                dirty_assemblies.add(link.assembly)
                state.assemblies.setdefault(link.assembly, set()).add(link_id)
        dirty_racks = set(changes.racks)
        dirty_models: set[str] = set()
        for dev_id, (old_rack, old_model) in old_device.items():
            if old_rack is not None:
                dirty_racks.add(old_rack)
                members = state.rack_members.get(old_rack)
                if members is not None:
                    members.discard(dev_id)
                    if not members:
                        del state.rack_members[old_rack]
            if old_model is not None:
                old_line = state.firmware_line(old_model)
                dirty_models.add(old_line)
                versions = state.firmware.get(old_line)
                if versions is not None:
                    versions.pop(dev_id, None)
                    if not versions:
                        del state.firmware[old_line]
            device = doc.devices.get(dev_id)
            if device is not None:
                line = state.firmware_line(device.model)
                dirty_models.add(line)
                state.firmware.setdefault(line, {})[device.id] = device.firmware
                if device.rack is not None:
                    dirty_racks.add(device.rack)
                    state.rack_members.setdefault(device.rack, set()).add(device.id)

        # --- workloads and the switches whose oversubscription targets moved
        old_target, old_wl, old_ids = state.target, state.target_wl, state.target_ids
        analyze_workloads(state, touched, old_links, changes.workloads, typed_rows)
        rerun = set(touched) | changed_rows
        n = len(state.target)
        m = min(len(old_target), n)
        changed = np.zeros(n, dtype=bool)
        changed[m:] = True
        same = (old_target[:m] == state.target[:m]) | (np.isnan(old_target[:m]) & np.isnan(state.target[:m]))
        if old_ids == state.target_ids:
            moved = old_wl[:m] != state.target_wl[:m]
        else:
            moved = _names(old_wl[:m], old_ids) != _names(state.target_wl[:m], state.target_ids)
        changed[:m] = ~same | moved
        if changes.workloads:
            changed |= ~np.isnan(state.target)
            changed[:m] |= ~np.isnan(old_target[:m])
        rerun.update(np.flatnonzero(changed & alive[:n]).tolist())

        # --- ECMP: a switch's result depends on its uppers and on the uppers of the switches
        # that share an upper switch with it; re-check those whose inputs changed
        switch = store.d["switch"]
        tier_of = store.d["tier"]
        reach = state.memo.setdefault("ecmp", {})
        if regrouped:
            reach.clear()
        topo = state.topo
        peers: set[int] = set()

        expand: set[tuple[int, int]] = set()  # (upper switch, tier): re-check its lowers
        peers.update(wired_rows)
        for row in touched:
            if not switch[row] and row not in wired_rows:
                continue
            tier = int(tier_of[row])
            was_up = {p[0] for p in old_up.get(row, ())}
            now_up = topo.upset(row)
            was_down = {p[0] for p in old_down.get(row, ()) if switch[p[0]]}
            now_down = {p[0] for p in topo.down(row) if switch[p[0]]}
            renamed = row in wired_rows
            if renamed or old_up.get(row) != topo.up(row):
                peers.add(row)
            if renamed or was_up != now_up:
                expand.update((upper, tier) for upper in was_up | now_up)
            if renamed or was_down != now_down:
                for low in was_down | now_down:
                    low_tier = int(tier_of[low])
                    reach.pop((row, low_tier), None)
                    expand.update((upper, low_tier) for upper in topo.upset(low))
        for upper, tier in expand:
            reach.pop((upper, tier), None)
            down = topo.down(upper)
            if down:
                rows = np.fromiter((p[0] for p in down), np.int64, len(down))
                peers.update(rows[switch[rows] & (tier_of[rows] == tier)].tolist())

        self._note_links(dirty_links)

        # --- run the rules on what depends on the change
        for link_id in dirty_links:
            if link_id not in store.link_row:
                self._clear("link", link_id)
        lrows = store.rows_of_links(rerun_links)
        for rule in self._by_scope["link"]:
            for row in lrows.tolist():
                self._run(rule, row)
        for dev_id in changed_devices:
            if dev_id not in store.dev_row:
                self._clear("device", dev_id)
        rerun_rows = sorted(r for r in rerun if alive[r])
        peer_rows = sorted(r for r in peers if alive[r])
        for rule in self._by_scope["device"]:
            for row in (peer_rows if rule.depends == "peers" else rerun_rows):
                self._run(rule, row)
        for scope, keys in (("rack", dirty_racks), ("model", dirty_models),
                            ("assembly", dirty_assemblies)):
            for rule in self._by_scope[scope]:
                for key in sorted(keys):
                    self._run(rule, key)
        for workload_id in changes.workloads:
            if workload_id not in doc.workloads:
                self._clear("workload", workload_id)
        for rule in self._by_scope["workload"]:
            for key in sorted(doc.workloads):
                self._run(rule, key)
        for rule in self._by_scope["fabric"]:
            self._run(rule, None)
        return self._report(start)

    def _cage_of(self, row: int, side: str) -> int:
        state = self.state
        assert state is not None
        return state.endpoints.ports[int(state.store.l[side + "_ep"][row])].cage

    # ================================================================== report
    def _internal_errors(self) -> list[Finding]:
        failures: dict[str, list[tuple[Any, str]]] = {}
        for per_key in self._failed.values():
            for key_id, items in per_key.items():
                for rule_name, error in items:
                    failures.setdefault(rule_name, []).append((key_id, error))
        found = []
        for rule_name, items in sorted(failures.items()):
            items.sort(key=lambda item: str(item[0]))
            objects = tuple(str(k) for k, _e in items if k != "")
            found.append(Finding(
                "INTERNAL-ERROR", ERROR,
                f"the rule '{rule_name}' failed on {counted(len(items), 'object')} ({items[0][1]}); the "
                "other rules ran normally. This is a bug in aicnet, please report it",
                objects, Fix("report the bug; the objects listed were not checked by this rule")))
        return found

    def _report(self, start: float) -> AnalysisReport:
        state = self.state
        assert state is not None
        store = state.store
        findings = [f for per_key in self._found.values() for items in per_key.values() for f in items]
        findings.extend(self._internal_errors())
        findings.sort(key=Finding.sort_key)
        n_dev = store.n_devices
        targets = state.settings.oversubscription
        data = MetricsData(
            devices=list(store.dev_obj),
            d={k: store.d[k][:n_dev].copy() for k in REPORT_DEVICE_COLUMNS},
            links=LinkColumns(self._links_base[0], self._links_base[1], dict(self._links_overlay)),
            cables=state.cindex.cables,
            reach_by=list(state.sigs.reach_by),
            leaf_rail=state.leaf_rail[:n_dev].copy(),
            tier_totals=tier_ratios(state),
            worst_path=_worst_path_names(state),
            targets={"training": targets.training, "storage": targets.storage,
                     "inference": targets.inference},
            plane_names=tuple(store.plane_names),
        )
        workloads = tuple(state.workloads[w].metrics for w in sorted(state.workloads))
        metrics = Metrics(
            OversubscriptionMetrics(data), ReachMetrics(data),
            BreakoutMetrics(data, list(store.dev_ports), state.endpoints), workloads,
        )
        duration = (time.perf_counter() - start) * 1000
        return AnalysisReport(findings, metrics, self.doc.revision, round(duration, 3),
                              graph_pending=bool(state.run.get("graph_pending")))


def _worst_path_names(state: State) -> tuple[float, tuple[str, ...], tuple[float, ...]] | None:
    path = worst_path(state)
    if path is None:
        return None
    return path.ratio, tuple(state.name(r) for r in path.rows), path.ratios


def _wiring(store: Store, doc: FabricDocument, dev_id: str) -> bool:
    """Does this device change reach its links (or is the device new or gone)?"""
    row = store.dev_row.get(dev_id)
    old = store.dev_obj[row] if row is not None else None
    new = doc.devices.get(dev_id)
    if old is None or new is None:
        return True
    return (old.model, old.role, old.name, old.rack, old.ru, old.cages) != (
        new.model, new.role, new.name, new.rack, new.ru, new.cages)


def _typed(store: Store, old: tuple | None, row: int | None) -> bool:
    """Was the device added or removed, or did its model or role change?"""
    if old is None or row is None:
        return True
    device = store.dev_obj[row]
    return (device.model, device.role) != old


def _names(index: np.ndarray, ids: list[str]) -> np.ndarray:
    return np.array([*ids, ""], dtype=object)[index]


def analyze(doc: FabricDocument) -> AnalysisReport:
    """Analyse the whole document once."""
    return Analyzer(doc).full()
