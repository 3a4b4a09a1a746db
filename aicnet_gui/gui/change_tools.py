"""File > Compare With... and View > Failure What-If: the change package (aicnet_gui/change) in
the editor.

- **Compare With...** reads another revision of the design, diffs it against the open design
  (the other file is the old side) and selects on the canvas what is new or changed here: added
  and moved devices, devices with another model, optic or breakout, added, re-terminated and
  changed cables.  A window lists the whole diff, removals included (they are not on the canvas).
- **Failure What-If** fails the chosen parts (the canvas selection, or names typed with
  completion: whatif_dialog.py) on a copy of the design and shows, in tables per workload, the
  GPUs that lose all paths, the GPUs slowed, the per-GPU bandwidth, the max-flow bisection and
  the all-reduce estimate before and after (`change.whatif`'s result objects).  The design is
  not edited.
- **Failure Mode** (View menu, on after a what-if) greys out the failed devices and cables on
  both views (canvas/failure_overlay.py); toggling it off, or another file, clears it.

Both run in a background thread on a snapshot, so the window never blocks; `compared` and
`failed_over` carry the results (tests wait for them).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QLineF, QObject, QRectF, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from ..change.diff import FabricDiff, diff_documents
from ..change.failures import FailureError, resolve
from ..change.text import render_diff
from ..change.whatif import WhatIf, WhatIfResult
from ..fileio import load_fabric
from .canvas.failure_overlay import FailureOverlay, failed_geometry
from .dialogs import messages
from .whatif_dialog import WhatIfDialog
from .workers.background import BackgroundJob


class ChangeReport(QDialog):
    """A read-only text window (non-modal) for a diff or a what-if."""

    def __init__(self, parent: QWidget, title: str, text: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.text = QPlainTextEdit(text)
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.resize(860, 520)


def changed_here(diff: FabricDiff) -> tuple[list[str], list[str]]:
    """(device ids, link ids) of the open design that the diff shows as new or changed."""
    devices = [d.id for d in diff.devices_added] + [m.device for m in diff.devices_moved]
    devices += [c.what for c in diff.device_changes] + [c.device for c in diff.cage_changes]
    links = [lk.id for lk in diff.links_added]
    links += [r.new.id for r in diff.links_reterminated + diff.ports_renamed]
    links += [c.what for c in diff.link_changes]
    return list(dict.fromkeys(devices)), list(dict.fromkeys(links))


class ChangeTools(QObject):
    compared = Signal(object)  # FabricDiff
    failed_over = Signal(object)  # WhatIfResult
    #: the cables Failure Mode shows down (a frozenset of link ids; empty: Failure Mode off)
    failure_changed = Signal(object)

    def __init__(self, window) -> None:  # noqa: ANN001 - the MainWindow
        super().__init__(window)
        self.window = window
        self.report: ChangeReport | None = None
        self.whatif: WhatIfDialog | None = None
        self._job: BackgroundJob | None = None
        #: (device ids, link ids) of the last what-if, shown greyed in Failure Mode
        self.failed: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        self._mode = False
        self.topology_overlay = FailureOverlay()
        self.floor_overlay = FailureOverlay()
        window.topology.addItem(self.topology_overlay)
        window.floor.addItem(self.floor_overlay)
        window.document.reset.connect(self._forget_failure)
        window.document.changed.connect(lambda _changes: self._draw_failure())
        window.topology.planes_changed.connect(self._draw_failure)  # what a plane filter hides

    def _busy(self) -> bool:
        if self._job is not None and self._job.running():
            self.window.show_message("Still working on the previous comparison or what-if", 1)
            return True
        return False

    def _show(self, title: str, text: str) -> None:
        if self.report is not None:
            self.report.close()
        self.report = ChangeReport(self.window, title, text)
        self.report.show()

    # ---------------------------------------------------------------- compare
    def compare_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.window, "Compare with", "",
                                              "Fabric files (*.fabric);;All files (*)")
        if path:
            self.compare_with(path)

    def compare_with(self, path: str | Path) -> None:
        if self._busy():
            return
        path = Path(path)
        current = self.window.document.fabric.snapshot()
        catalog = self.window.catalog
        job = BackgroundJob(lambda: diff_documents(load_fabric(path, catalog), current),
                            "aicnet-compare", self)
        job.finished.connect(lambda diff: self._compared(path, diff))
        job.failed.connect(lambda exc: messages.show_error(self.window, "Compare", str(exc)))
        self._job = job
        self.window.show_message(f"Comparing with {path.name}…")
        job.start()

    def _compared(self, path: Path, diff: FabricDiff) -> None:
        devices, links = changed_here(diff)
        live = self.window.document.fabric
        devices = [d for d in devices if d in live.devices]
        links = [lk for lk in links if lk in live.links]
        self.window.select_ids(devices, links, [], centre=bool(devices or links))
        text = render_diff(diff, path.name, "this design")
        if devices or links:
            text += (f"\n\nSelected on the canvas: {len(devices)} device(s) and {len(links)} "
                     "cable(s) new or changed in this design.")
        self._show(f"Compare with {path.name}", text)
        self.window.show_message("No differences" if diff.empty
                                 else f"{len(devices)} device(s), {len(links)} cable(s) differ")
        self.compared.emit(diff)

    # ---------------------------------------------------------------- what-if
    def whatif_window(self) -> WhatIfDialog:
        """The Failure What-If window (made once, shown again)."""
        if self.whatif is None:
            self.whatif = WhatIfDialog(self.window, lambda: self.window.document.fabric,
                                       self._selection_tokens, self.run_whatif)
        self.whatif.refresh_tokens()
        self.whatif.show()
        self.whatif.raise_()
        return self.whatif

    def _selection_tokens(self) -> list[str]:
        """The selected devices (by name, by id where a name is not unique) and cables."""
        devices, links, _racks = self.window.selection()
        doc = self.window.document.fabric
        names = Counter(d.name for d in doc.devices.values())
        tokens = [doc.devices[d].name if names[doc.devices[d].name] == 1 else d
                  for d in devices if d in doc.devices]
        return tokens + sorted(links)

    def whatif_selection(self) -> None:
        """View › Failure What-If: the window, with the canvas selection as what fails (run at
        once); without a selection the window waits for the parts to be chosen."""
        dialog = self.whatif_window()
        tokens = self._selection_tokens()
        if tokens:
            dialog.set_tokens(tokens)
            dialog.run()

    def run_whatif(self, tokens: list[str]) -> None:
        """Fail the parts `tokens` name (change.failures.resolve) on a snapshot, in the
        background; `failed_over` follows."""
        if self._busy():
            return
        doc = self.window.document.fabric.snapshot()
        try:
            failure = resolve(doc, tokens)
        except FailureError as exc:
            if self.whatif is not None:
                self.whatif.show_error(str(exc))
            self.window.show_message(str(exc), 1)
            return
        label = ", ".join(tokens[:6]) + (f" and {len(tokens) - 6} more" if len(tokens) > 6 else "")
        failure = replace(failure, label=label)
        self.failed = (tuple(failure.devices), tuple(sorted(failure.links)))
        job = BackgroundJob(lambda: WhatIf(doc).run(failure), "aicnet-whatif", self)
        job.finished.connect(self._failed_over)
        job.failed.connect(lambda exc: messages.show_error(self.window, "Failure what-if", str(exc)))
        self._job = job
        self.window.show_message("Running the failure what-if…")
        job.start()

    def _failed_over(self, result: WhatIfResult) -> None:
        self.whatif_window().show_result(result)
        self.window.show_message(f"What-if: {result.gpus_lost} GPU(s) lose all paths, "
                                 f"{result.gpus_reduced} slower"
                                 + ("; a workload is PARTITIONED" if result.partitioned else ""))
        mode = self.window.actions_by_name["failure-mode"]
        mode.setEnabled(True)
        mode.setChecked(True)
        self.set_failure_mode(True)
        self.failed_over.emit(result)

    # ---------------------------------------------------------------- failure mode
    def set_failure_mode(self, on: bool) -> None:
        """Grey out (or show again) the devices and cables of the last what-if."""
        self._mode = bool(on) and self.failed is not None
        self._draw_failure()

    def _draw_failure(self) -> None:
        if not self._mode or self.failed is None:
            self.topology_overlay.clear()
            self.floor_overlay.clear()
            self.failure_changed.emit(frozenset())
            return
        devices, links = self.failed
        doc = self.window.document.fabric
        devices = tuple(d for d in devices if d in doc.devices)
        links = tuple(lk for lk in links if lk in doc.links)
        self.failure_changed.emit(frozenset(links))
        topology = self.window.topology
        for scene, overlay in ((topology, self.topology_overlay),
                               (self.window.floor, self.floor_overlay)):
            mirror = scene.mirror  # where the canvas draws a device or a cable (mirror.py)
            # the Topology's plane filter: nothing is drawn over a switch or cable it hides
            hidden = topology.plane_hidden if scene is topology else (lambda _d, _l: False)

            def rect(device_id: str, mirror=mirror, hidden=hidden) -> QRectF | None:  # noqa: ANN001
                return None if hidden([device_id], []) else mirror.device_rect(device_id)

            def line(link_id: str, mirror=mirror, hidden=hidden) -> QLineF | None:  # noqa: ANN001
                return None if hidden([], [link_id]) else mirror.link_line(link_id)

            overlay.set_failed(*failed_geometry(devices, links, rect, line))

    def _forget_failure(self) -> None:
        self.failed = None
        self._mode = False
        mode = self.window.actions_by_name.get("failure-mode")
        if mode is not None:
            mode.setChecked(False)
            mode.setEnabled(False)
        self._draw_failure()
