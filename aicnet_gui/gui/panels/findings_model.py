"""The findings dock's table model: a report's findings kept sorted, updated by what changed.

A new report replaces the shown findings by difference, not by reset: the analyzer keeps the
findings of the rule keys an edit did not touch as the same objects, so the findings that are
gone and the ones that are new are found by identity (numpy over the object ids), the gone rows
are removed and the new ones inserted at their place, found by bisection over a precomputed
sort key.  The view and its filter then see rowsRemoved / rowsInserted for a few rows instead
of a model reset that re-sorts and re-filters every row.  Counts per severity and per code are
kept up to date the same way; the objects' names of a row are resolved when the row is shown.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from ...analysis import Finding, Severity
from ...model.document import FabricDocument
from .. import resources

SEVERITY_COLOURS = {Severity.ERROR: "#c92a2a", Severity.WARNING: "#e67700", Severity.INFO: "#1c7ed6"}
MAX_OBJECTS_SHOWN = 4
FINDING_ROLE = Qt.ItemDataRole.UserRole + 1
#: more separate runs of changed rows than this: one model reset is cheaper than the signals
MAX_RUNS = 256


def object_label(doc: FabricDocument, object_id: str) -> str:
    """A readable name for an id a finding mentions (device name, cable ends, rack name ...)."""
    device = doc.devices.get(object_id)
    if device is not None:
        return device.name
    link = doc.links.get(object_id)
    if link is not None:
        a, b = doc.devices.get(link.a.device), doc.devices.get(link.b.device)
        return (f"{a.name if a else link.a.device}:{link.a.port} ↔ "
                f"{b.name if b else link.b.device}:{link.b.port}")
    rack = doc.racks.get(object_id)
    if rack is not None:
        return f"rack {rack.name}"
    workload = doc.workloads.get(object_id)
    if workload is not None:
        return f"workload {workload.name}"
    model = doc.catalog.devices.get(object_id)
    if model is not None:
        return f"{model.vendor} {model.model}"
    return object_id


@dataclass(frozen=True)
class FindingsChange:
    """What one `set_findings` changed: the findings gone and the new ones (every one of both
    lists when `reset`)."""

    removed: list[Finding]
    added: list[Finding]
    reset: bool


def _ids(findings: list[Finding]) -> np.ndarray:
    return np.fromiter(map(id, findings), dtype=np.int64, count=len(findings))


def _member(ids: np.ndarray, ascending: np.ndarray) -> np.ndarray:
    """For each of `ids`: is it one of `ascending` (sorted)?"""
    if not len(ascending):
        return np.zeros(len(ids), dtype=bool)
    at = np.minimum(np.searchsorted(ascending, ids), len(ascending) - 1)
    return ascending[at] == ids


def _runs(positions: list[int]) -> list[tuple[int, int]]:
    """Ascending positions as (first, last) runs of consecutive values."""
    runs: list[tuple[int, int]] = []
    for _, group in groupby(enumerate(positions), key=lambda pair: pair[1] - pair[0]):
        items = [p for _, p in group]
        runs.append((items[0], items[-1]))
    return runs


class FindingsModel(QAbstractTableModel):
    """The findings of one report as rows, sorted by a column (then by the finding itself)."""

    COLUMNS = ("Severity", "Code", "Message", "Objects")

    def __init__(self, doc_getter: Callable[[], FabricDocument], parent=None) -> None:  # noqa: ANN001
        super().__init__(parent)
        self._doc = doc_getter
        # ascending by `_keys`; row r shows _items[r], or _items[n - 1 - r] when descending
        self._items: list[Finding] = []
        self._keys: list[tuple] = []
        self._ids = np.zeros(0, dtype=np.int64)  # id() of _items, in their order
        self._sorted = self._ids  # the same ids, ascending
        self._labels: dict[int, str] = {}
        self.sort_column = 0
        self.descending = False
        self.severity_counts: Counter[Severity] = Counter()
        self.code_counts: Counter[str] = Counter()
        self.rule_counts: Counter[tuple[str, Severity]] = Counter()

    # ---------------------------------------------------------------- reading
    @property
    def findings(self) -> list[Finding]:
        """The findings in row order."""
        return self._items[::-1] if self.descending else list(self._items)

    def all_findings(self) -> list[Finding]:
        """The findings in any order (no copy: do not change it)."""
        return self._items

    def finding(self, row: int) -> Finding:
        return self._items[self._position(row)]

    def _position(self, row: int) -> int:
        return len(self._items) - 1 - row if self.descending else row

    def objects_text(self, finding: Finding) -> str:
        text = self._labels.get(id(finding))
        if text is None:
            doc = self._doc()
            names = [object_label(doc, o) for o in finding.objects[:MAX_OBJECTS_SHOWN]]
            more = len(finding.objects) - MAX_OBJECTS_SHOWN
            text = ", ".join(names) + (f" and {more} more" if more > 0 else "")
            self._labels[id(finding)] = text
        return text

    def key(self, finding: Finding) -> tuple:
        """The sort key of `finding` for the current column (ties: the finding's own order)."""
        own = finding.sort_key()
        column = self.sort_column
        if column == 1:
            return (finding.code, own)
        if column == 2:
            return (finding.message, own)
        if column == 3:
            return (self.objects_text(finding), own)
        return own

    def row_of(self, finding: Finding) -> int | None:
        """The row of `finding`, or of the shown finding of the same code about the same
        objects (a rule may hand out an equal finding as a new object)."""
        key = self.key(finding)
        at = bisect_left(self._keys, key)
        for position in range(at, len(self._keys)):
            candidate = self._items[position]
            if candidate is finding or (candidate.code == finding.code
                                        and candidate.objects == finding.objects):
                return len(self._items) - 1 - position if self.descending else position
            if self._keys[position] != key:
                break
        for position, candidate in enumerate(self._items):  # a new message: same code, objects
            if candidate.code == finding.code and candidate.objects == finding.objects:
                return len(self._items) - 1 - position if self.descending else position
        return None

    # ---------------------------------------------------------------- Qt model
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._items)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        finding = self.finding(index.row())
        column = index.column()
        if role == FINDING_ROLE:
            return finding
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return finding.severity.value
            if column == 1:
                return finding.code
            if column == 2:
                return finding.message
            return self.objects_text(finding)
        if role == Qt.ItemDataRole.DecorationRole and column == 0:
            return resources.icon(f"severity-{finding.severity.value}")
        if role == Qt.ItemDataRole.ForegroundRole and column in (0, 1):
            return QColor(SEVERITY_COLOURS[finding.severity])
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = f"<b>{finding.code}</b> ({finding.severity.value})<br>{finding.message}"
            if finding.fix is not None:
                tip += f"<br><br><i>Suggested fix (select the row to check it):</i> {finding.fix.description}"
            return tip
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort by `column` (a click on its header): the only full sort, done once here."""
        descending = order == Qt.SortOrder.DescendingOrder
        if column == self.sort_column and descending == self.descending:
            return
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        held = [(index, self.finding(index.row())) for index in persistent
                if index.isValid() and index.row() < len(self._items)]
        self.sort_column, self.descending = max(column, 0), descending
        pairs = sorted(zip(map(self.key, self._items), self._items, strict=True),
                       key=lambda pair: pair[0])
        self._keys = [k for k, _ in pairs]
        self._items = [f for _, f in pairs]
        self._ids = _ids(self._items)
        if held:
            rows = {id(f): p for p, f in enumerate(self._items)}
            n = len(self._items)
            for index, finding in held:
                position = rows[id(finding)]
                row = n - 1 - position if descending else position
                self.changePersistentIndex(index, self.index(row, index.column()))
        self.layoutChanged.emit()

    # ---------------------------------------------------------------- updating
    def set_findings(self, findings: list[Finding]) -> FindingsChange:
        """Show `findings` (any order): the rows gone are removed and the new ones inserted
        where they sort; a model reset only when most rows changed.  Returns what changed."""
        new_ids = _ids(findings)
        new_sorted = np.sort(new_ids)
        gone_mask = ~_member(self._ids, new_sorted)
        added_mask = ~_member(new_ids, self._sorted)
        gone = np.flatnonzero(gone_mask).tolist()
        added = [findings[i] for i in np.flatnonzero(added_mask).tolist()]
        removed = [self._items[p] for p in gone]
        self._sorted = new_sorted
        if gone and added:
            gone, removed, added = self._take_equal(gone, removed, added)
            gone_mask = np.zeros(len(self._items), dtype=bool)
            gone_mask[gone] = True
        if not gone and not added:
            return FindingsChange([], [], False)
        keyed = sorted(((self.key(f), f) for f in added), key=lambda pair: pair[0])
        remaining = len(self._items) - len(gone)
        gone_runs = _runs(gone)
        if remaining == 0 or len(gone_runs) + len(keyed) > max(MAX_RUNS, remaining // 2):
            self._reset(findings)
            return FindingsChange(removed, list(findings), True)
        self._count(removed, -1)
        self._remove(gone_runs)
        self._ids = self._ids[~gone_mask]
        self._insert(keyed)
        self._count(added, +1)
        return FindingsChange(removed, added, False)

    def _take_equal(self, gone: list[int], removed: list[Finding], added: list[Finding]
                    ) -> tuple[list[int], list[Finding], list[Finding]]:
        """A rule that ran again hands out equal findings as new objects: those replace the
        old ones in their rows (nothing to show); the rest are really gone or new."""
        by_value: dict[tuple, list[int]] = {}
        for position, finding in zip(gone, removed, strict=True):
            by_value.setdefault(finding.sort_key(), []).append(position)
        kept: set[int] = set()
        new: list[Finding] = []
        for finding in added:
            positions = by_value.get(finding.sort_key())
            position = next((p for p in positions or () if p not in kept
                             and self._items[p] == finding), None)
            if position is None:
                new.append(finding)
                continue
            kept.add(position)
            old = self._items[position]
            self._items[position] = finding
            self._ids[position] = id(finding)
            label = self._labels.pop(id(old), None)
            if label is not None:
                self._labels[id(finding)] = label
        pairs = [(p, f) for p, f in zip(gone, removed, strict=True) if p not in kept]
        return [p for p, _ in pairs], [f for _, f in pairs], new

    def clear(self) -> None:
        self._reset([])

    def _reset(self, findings: list[Finding]) -> None:
        self.beginResetModel()
        pairs = sorted(zip(map(self.key, findings), findings, strict=True), key=lambda pair: pair[0])
        self._keys = [k for k, _ in pairs]
        self._items = [f for _, f in pairs]
        self._ids = _ids(self._items)
        self._sorted = np.sort(self._ids)
        self._labels.clear()
        self.severity_counts = Counter(f.severity for f in self._items)
        self.code_counts = Counter(f.code for f in self._items)
        self.rule_counts = Counter((f.code, f.severity) for f in self._items)
        self.endResetModel()

    def _count(self, findings: list[Finding], step: int) -> None:
        for finding in findings:
            self.severity_counts[finding.severity] += step
            self.code_counts[finding.code] += step
            self.rule_counts[finding.code, finding.severity] += step
            if step < 0:
                self._labels.pop(id(finding), None)
        self.severity_counts = +self.severity_counts  # drop the zeros
        self.code_counts = +self.code_counts
        self.rule_counts = +self.rule_counts

    def _remove(self, runs: list[tuple[int, int]]) -> None:
        root = QModelIndex()
        for first, last in reversed(runs):
            n = len(self._items)
            rows = (n - 1 - last, n - 1 - first) if self.descending else (first, last)
            self.beginRemoveRows(root, *rows)
            del self._items[first:last + 1]
            del self._keys[first:last + 1]
            self.endRemoveRows()

    def _insert(self, keyed: list[tuple[tuple, Finding]]) -> None:
        """Insert the (key, finding) pairs, ascending by key, one block per place."""
        root = QModelIndex()
        places = [bisect_right(self._keys, k) for k, _ in keyed]
        shift = 0
        start = 0
        self._ids = np.insert(self._ids, places, [id(f) for _, f in keyed]) if keyed else self._ids
        while start < len(keyed):
            end = start
            while end + 1 < len(keyed) and places[end + 1] == places[start]:
                end += 1
            at = places[start] + shift
            block = keyed[start:end + 1]
            n, m = len(self._items), len(block)
            rows = (n - at, n - at + m - 1) if self.descending else (at, at + m - 1)
            self.beginInsertRows(root, *rows)
            self._keys[at:at] = [k for k, _ in block]
            self._items[at:at] = [f for _, f in block]
            self.endInsertRows()
            shift += m
            start = end + 1
