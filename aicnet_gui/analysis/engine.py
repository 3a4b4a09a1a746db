"""`Analyzer`: runs every rule over a document, fully or incrementally after an edit.

`full()` loads the columns (store.py) in bulk, runs each rule on its numpy-selected
candidates and returns an `AnalysisReport`.  `update(changes)` brings the state up to date in
steps (refresh.py: re-read racks and devices, re-index links, sums, group indices, workload
targets, ECMP peers) that record what changed in one `Delta` (delta.py); then each rule's
dependency (`Rule.dirty`, or its scope's default in dirty.py) names the keys to check again:

- link rules: the changed links, their cage-mates and assembly legs;
- device rules: the changed devices, both ends of every changed link, switches whose workload
  coverage changed, and for ECMP the switches that share an upper switch with a changed one;
- rack / model / assembly rules: the old and new rack, model and assembly of what changed;
- workload and fabric rules, and the workload metrics: every time (vectorized, ~1-2 ms).

Each distinct dependency runs once per update.  The result equals a full run
(tests/analysis/test_incremental.py checks this on random edit sequences).  A rule that raises
is caught: its failures become one INTERNAL-ERROR finding per rule and every other rule still
runs.  The analyzer never writes to the document.

`trial_update(changes)` is `update` for a trial edit (repair/fix_checker.py: apply a fix, look,
undo): it makes no report, but returns the findings the update replaced and those it put in
their place (`FindingChanges`), so a fix is judged on what it changed, not on a report of every
finding (a 308k-link design with a finding per link made and sorted 308k findings twice per
checked fix: ~0.65 s each, 13 s for the 20 fixes `aicnet validate` lists).
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..gc_control import gc_paused
from ..model.document import FabricDocument
from ..model.edits import ChangeSet
from ..model.wording import counted
from . import (
    rules_airflow,
    rules_cabling,
    rules_cages,
    rules_compat,
    rules_device,
    rules_export_names,
    rules_fabric,
    rules_groups,
    rules_idle,
    rules_link,
    rules_load_balancing,
    rules_multiplane,
    rules_oob,
    rules_plane_balance,
    rules_planes,
    rules_power_feeds,
    rules_rack_env,
    rules_roce,
    rules_scale,
    rules_subnet,
)
from .delta import Delta
from .dirty import Dependency, dependency_of
from .fabric_paths import worst_path
from .findings import ERROR, Finding, Fix, sort_findings
from .refresh import apply_changes, build
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

DEFAULT_RULES: tuple[Rule, ...] = (
    *rules_link.RULES, *rules_device.RULES, *rules_cages.RULES, *rules_groups.RULES,
    *rules_fabric.RULES, *rules_subnet.RULES, *rules_roce.RULES, *rules_power_feeds.RULES,
    *rules_airflow.RULES, *rules_planes.RULES, *rules_scale.RULES, *rules_oob.RULES,
    *rules_multiplane.RULES, *rules_cabling.RULES, *rules_rack_env.RULES,
    *rules_plane_balance.RULES, *rules_idle.RULES, *rules_load_balancing.RULES, *rules_export_names.RULES,
)
SIGNATURE_RULES: tuple[tuple[str, SigRule], ...] = tuple(rules_compat.RULES)
REBASE_AFTER = 4096  # links changed since the last copy of the link columns
REPORT_DEVICE_COLUMNS = ("alive", "switch", "tier", "up", "down", "links", "stranded", "ports",
                         "plane")


@dataclass(frozen=True, slots=True)
class FindingChanges:
    """What an incremental update changed among the findings: the findings of every rule and
    key it ran again, as they were (`removed`, the very objects of the report before) and as
    they are now (`added`).  A finding the run made again equal appears in both."""

    removed: tuple[Finding, ...]
    added: tuple[Finding, ...]
    #: (rule name, key) -> its findings before, for `undo_trial`
    before: dict[tuple[str, Any], tuple[Finding, ...]] = field(default_factory=dict, compare=False,
                                                               repr=False)


def _describe(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ else []
    where = f" at {frames[-1].name}:{frames[-1].lineno}" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


def _other_key_id(key: Any) -> Any:
    """The id of a key of a scope other than links and devices: the key, "" for None."""
    return key if key is not None else ""


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
        # the device objects and port maps per row the reports share, until a device is re-read
        self._device_lists: tuple[list, list] | None = None
        self._by_scope: dict[str, list[Rule]] = {s: [] for s in SCOPES}
        for rule in self.rules:
            self._by_scope[rule.scope].append(rule)
        # the rules in the order an update runs them, each with its dependency
        self._dependent: list[tuple[Rule, Dependency]] = [
            (rule, dependency_of(rule)) for scope in SCOPES for rule in self._by_scope[scope]]
        # during `trial_update`: (rule name, key) -> its findings before the update, and
        # whether a rule's failures changed or the update ran in full (then no journal holds)
        self._journal: dict[tuple[str, Any], tuple[Finding, ...]] | None = None
        self._journal_whole = False

    # ================================================================== full run
    def full(self) -> AnalysisReport:
        """Analyse the whole document (the garbage collector is paused meanwhile: the bulk load
        allocates ~1M short-lived objects, performance.md §9.4), and freeze what it built: the
        state and the findings live until the next full run and hold no reference cycles, and
        the first collection after the pause would otherwise walk all of them (2.4M findings:
        ~4 s)."""
        self._journal_whole = True
        with gc_paused():
            return self._full()

    def _full(self) -> AnalysisReport:
        start = time.perf_counter()
        state = State.load(self.doc, self.signature_rules)
        build(state)
        self.state = state
        self._device_lists = None
        self._rebase()
        self._found = {rule.name: {} for rule in self.rules}
        self._failed = {rule.name: {} for rule in self.rules}
        for rule in self.rules:
            keys = rule.candidates(state) if rule.candidates is not None else self._keys(rule.scope)
            if rule.check_all is not None:
                keys = list(keys)
                if self._run_all(rule, keys):
                    continue
            for key in keys:
                self._run(rule, key)
        return self._report(start)

    def _run_all(self, rule: Rule, keys: list[Any]) -> bool:
        """`rule.check_all` of `keys` in a full run (its results kept as `_run` keeps them);
        False when it raises or miscounts, nothing kept then: each key is run on its own, so a
        failure is that key's."""
        assert rule.check_all is not None and self.state is not None
        found, failed = self._found[rule.name], self._failed[rule.name]  # empty: a full run
        key_id_of, done = self._key_ids(rule.scope), 0
        try:
            for key, (findings, failures) in zip(keys, rule.check_all(self.state, keys)):  # noqa: B905
                done += 1
                if findings or failures:
                    key_id = key_id_of(key)
                    if findings:
                        found[key_id] = findings
                    if failures:
                        failed[key_id] = tuple((item.rule, item.error) for item in failures)
        except Exception:  # noqa: BLE001 - run key by key, where a failure is reported
            done = -1
        if done == len(keys):
            return True
        found.clear()
        failed.clear()
        return False

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

    # ================================================================== running rules
    def _key_id(self, scope: str, key: Any) -> Any:
        return self._key_ids(scope)(key)

    def _key_ids(self, scope: str) -> Callable[[Any], Any]:
        """The id of a key of `scope` (a link's or device's row: its id; else the key, "" for
        None), as one callable a full run applies to millions of keys."""
        state = self.state
        assert state is not None
        if scope == "link":
            return state.store.link_ids.__getitem__
        if scope == "device":
            return state.store.dev_ids.__getitem__
        return _other_key_id

    def _run(self, rule: Rule, key: Any, key_id: Any = None) -> None:
        state = self.state
        assert state is not None
        if key_id is None:
            key_id = self._key_id(rule.scope, key)
        found: list[Finding] = []
        failed: list[tuple[str, str]] = []
        if self._journal is not None:
            self._note_before(rule.name, key_id)
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
        # a rule's failures become INTERNAL-ERROR findings only in a report (`trial_update`)
        if failed:
            self._failed[rule.name][key_id] = tuple(failed)
            self._journal_whole = True
        elif self._failed[rule.name].pop(key_id, None) is not None:
            self._journal_whole = True

    def _clear(self, scope: str, key_id: Any) -> None:
        for rule in self._by_scope[scope]:
            if self._journal is not None:
                self._note_before(rule.name, key_id)
            self._found[rule.name].pop(key_id, None)
            if self._failed[rule.name].pop(key_id, None) is not None:
                self._journal_whole = True

    def _note_before(self, rule_name: str, key_id: Any) -> None:
        journal = self._journal
        assert journal is not None
        key = (rule_name, key_id)
        if key not in journal:
            journal[key] = self._found[rule_name].get(key_id, ())

    # ================================================================== incremental run
    def update(self, changes: ChangeSet, doc: FabricDocument | None = None) -> AnalysisReport:
        """Re-analyse after `changes` (the ChangeSet of one or more applied edits).

        `doc` is the document to read from now (e.g. a fresh `doc.snapshot()` taken after the
        edit); by default the document the analyzer was made with.
        """
        report = self._update(changes, doc, True)
        assert report is not None
        return report

    def trial_update(self, changes: ChangeSet, doc: FabricDocument | None = None,
                     ) -> FindingChanges | AnalysisReport:
        """`update` without its report: the findings it changed (`FindingChanges`); the whole
        report instead when the update ran in full or a rule's failures changed (whose
        INTERNAL-ERROR findings only a report makes)."""
        self._journal, self._journal_whole = {}, False
        try:
            report = self._update(changes, doc, False)
            if report is not None:
                return report
            if self._journal_whole:
                return self._report(time.perf_counter())
            removed: list[Finding] = []
            added: list[Finding] = []
            for (rule_name, key_id), before in self._journal.items():
                after = self._found[rule_name].get(key_id, ())
                if after is not before:
                    removed += before
                    added += after
            return FindingChanges(tuple(removed), tuple(added), self._journal)
        finally:
            self._journal = None

    def undo_trial(self, changes: ChangeSet, doc: FabricDocument | None,
                   trial: FindingChanges | AnalysisReport | None) -> None:
        """Bring the analyzer back after a trial edit was undone (`changes`: the ChangeSet of
        its inverse, applied; `trial`: what `trial_update` gave): the state is brought up to
        date as by `update`, and the findings of the rules and keys the trial ran again are put
        back as they were, not found again (the state is the one they were found on; a key the
        trial did not run had the same inputs all along).  After a trial that gave a whole
        report, or raised (`trial` None), the rules run again, as `update` runs them."""
        if not self._adopt(doc):  # another catalog: nothing of the state holds
            self.full()
            return
        if (not isinstance(trial, FindingChanges) or self.state is None or changes.reset
                or changes.settings):
            self._update(changes, None, False)
            return
        state = self.state
        state.run = {"defer_graph": self.defer_graph}
        state.store.settings = self.doc.settings
        delta = apply_changes(state, changes)
        if delta.devices or delta.placed:
            self._device_lists = None
        if delta.seen_by_rules():
            self._note_links(delta.links)
        for (rule_name, key_id), before in trial.before.items():
            if before:
                self._found[rule_name][key_id] = before
            else:
                self._found[rule_name].pop(key_id, None)

    def _update(self, changes: ChangeSet, doc: FabricDocument | None, report: bool,
                ) -> AnalysisReport | None:
        """`update`; without `report` None after an incremental run (a full run reports)."""
        if not self._adopt(doc):
            return self.full()
        state = self.state
        if state is None or changes.reset or changes.settings:
            return self.full()
        start = time.perf_counter()
        state.run = {"defer_graph": self.defer_graph}
        state.store.settings = self.doc.settings
        delta = apply_changes(state, changes)
        if delta.devices or delta.placed:  # rows re-read (store.set_device) or new objects
            self._device_lists = None
        if not delta.seen_by_rules():
            return self._report(start) if report else None
        self._note_links(delta.links)
        self._clear_removed(delta)
        keys_of: dict[Dependency, list[Any]] = {}
        for rule, depends in self._dependent:
            keys = keys_of.get(depends)
            if keys is None:
                keys = keys_of[depends] = list(depends(state, delta))
            for key in keys:
                self._run(rule, key)
        return self._report(start) if report else None

    def _adopt(self, doc: FabricDocument | None) -> bool:
        """Read from `doc` from now on; False when it has another catalog (run in full)."""
        if doc is None or doc is self.doc:
            return True
        same_catalog = doc.catalog is self.doc.catalog
        self.doc = doc
        if same_catalog and self.state is not None:
            self.state.doc = doc
            self.state.store.doc = doc
        return same_catalog

    def _clear_removed(self, delta: Delta) -> None:
        """Forget the findings of links, devices and workloads the edit removed."""
        state = self.state
        assert state is not None
        gone = (("link", delta.links, state.store.link_row), ("device", delta.devices, state.store.dev_row),
                ("workload", delta.changes.workloads, state.doc.workloads))
        for scope, ids, still in gone:
            for key_id in ids:
                if key_id not in still:
                    self._clear(scope, key_id)

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
        sort_findings(findings)
        n_dev = store.n_devices
        targets = state.settings.oversubscription
        if self._device_lists is None:
            self._device_lists = (list(store.dev_obj), list(store.dev_ports))
        devices, ports = self._device_lists
        data = MetricsData(
            devices=devices,
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
            BreakoutMetrics(data, ports, state.endpoints), workloads,
        )
        duration = (time.perf_counter() - start) * 1000
        return AnalysisReport(findings, metrics, self.doc.revision, round(duration, 3),
                              graph_pending=bool(state.run.get("graph_pending")))


def _worst_path_names(state: State) -> tuple[float, tuple[str, ...], tuple[float, ...]] | None:
    path = worst_path(state)
    if path is None:
        return None
    return path.ratio, tuple(state.name(r) for r in path.rows), path.ratios


def analyze(doc: FabricDocument) -> AnalysisReport:
    """Analyse the whole document once."""
    return Analyzer(doc).full()
