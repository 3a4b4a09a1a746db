"""What the window shows of the live validation: findings, metrics and workloads docks, badges
on the canvas, colour modes and the validation state in the status bar.

`LivePanels` connects the `LiveValidator` to everything that shows its results, so the window
only creates it and places its docks.  A report is shown only for the revision it describes;
between an edit and the next report the fixes are disabled and the status says "validating…".
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLabel

from ..analysis import AnalysisReport, Bom, Finding, Fix, Severity
from ..editing.units import counted
from ..model.edits import ChangeSet
from ..repair import FixChecker
from ..repair.batch import batch_fix
from . import colouring
from .badge_tally import BadgeTally
from .canvas.legend import LegendSpec
from .legend_keys import LegendKeys
from .panels.findings import FindingsDock
from .panels.forms import on_screen
from .panels.metrics import MetricsDock
from .panels.workloads import WorkloadsDock
from .validation import LiveValidator
from .window_api import AppWindow


class LivePanels(QObject):
    """The validator and the docks and marks that show its results."""

    #: a current report was shown everywhere
    shown = Signal(object)
    #: the canvas's colour mode changed (its name)
    colour_mode_changed = Signal(str)

    def __init__(self, window: AppWindow) -> None:
        super().__init__(window)
        self.window = window
        self.validator = LiveValidator(window.document, self)
        doc = lambda: window.document.fabric  # noqa: E731
        self.findings = FindingsDock(doc, window)
        self.metrics = MetricsDock(doc, window)
        self.workloads = WorkloadsDock(window.editor, window.selected_servers, window)
        self.colour_mode = "cable"
        #: what the legend shows in a mode another part draws (mode -> spec maker): the traffic
        #: mode's title names the workload and the load-balancing mode shown
        self.legend_specs: dict[str, Callable[[], LegendSpec]] = {}
        self.badges = BadgeTally()
        self.legend_keys = LegendKeys()
        self._validated_text: str | None = None
        self.status_label = QLabel("validating…")
        self.status_label.setToolTip("Live validation: every edit is checked in the background")
        v = self.validator
        v.report_ready.connect(self._on_report)
        v.bom_ready.connect(self._on_bom)
        v.status.connect(self._on_status)
        v.failed.connect(lambda text: window.show_message(text, 1))
        window.document.changed.connect(self._on_changed)
        window.document.reset.connect(self._on_reset)
        self.findings.show_objects.connect(lambda ids: window.show_objects(ids))
        self.findings.fix_requested.connect(self.apply_fix)
        self.findings.fix_many_requested.connect(self.apply_fix_many)
        self.findings.checker = self.checked_fix
        self._checker: FixChecker | None = None
        self.metrics.show_objects.connect(lambda ids: window.show_objects(ids))
        self.workloads.show_objects.connect(lambda ids: window.show_objects(ids))
        self.workloads.highlight.connect(self._on_highlight)
        self.metrics.visibilityChanged.connect(self._on_metrics_visible)
        self.workloads.visibilityChanged.connect(self._on_workloads_visible)
        # a new document is validated once the canvas has drawn it and built its items
        v.hold_after_reset = True
        window.topology.built.connect(v.resume)
        v.revalidate()  # the document the window starts with (possibly empty) is checked too

    # ---------------------------------------------------------------- following the validator
    def _on_status(self, text: str) -> None:
        """"validated …" is shown with the report's counts once the report is shown (the
        findings model counts them as it takes the report); any other text at once."""
        if text.startswith("validated") and self.validator.report is not None:
            self._validated_text = text
            return
        self._validated_text = None
        self._show_status(text, "#616e7c")

    def _show_status(self, text: str, colour: str) -> None:
        self.status_label.setStyleSheet(f"color: {colour};")
        self.status_label.setText(text)

    def _show_counts(self, text: str) -> None:
        counts = self.findings.model.severity_counts
        errors, warnings = counts[Severity.ERROR], counts[Severity.WARNING]
        parts = []
        if errors:
            parts.append(counted(errors, "error"))
        if warnings:
            parts.append(counted(warnings, "warning"))
        text += " · " + (", ".join(parts) if parts else "no problems")
        self._show_status(text, "#c92a2a" if errors else ("#e67700" if warnings else "#2b8a3e"))

    def _on_report(self, report: AnalysisReport) -> None:
        window = self.window
        doc = window.document.fabric
        change = self.findings.set_report(report, current=True)
        if self._validated_text is not None:
            self._show_counts(self._validated_text)
            self._validated_text = None
        self.metrics.set_report(report)
        self.workloads.set_report(report)
        tally = self.badges
        if change.reset:
            tally.reset(change.added, doc.devices, doc.links)
            changed = True
        else:
            changed = tally.update(change.removed, change.added, doc.devices, doc.links)
        if changed:
            window.topology.show_badges(dict(tally.devices), set(tally.link_errors),
                                        set(tally.link_warnings))
        if self.colour_mode == "oversubscription":
            self.set_colour_mode(self.colour_mode)
        self.shown.emit(report)

    def _on_bom(self, bom: Bom) -> None:
        self.metrics.set_bom(bom)

    def _on_changed(self, changes: ChangeSet) -> None:
        self.findings.set_stale()
        if changes.links and self.legend_keys.update(self.window.document.fabric, self.colour_mode,
                                                     changes.links):
            self.refresh_legend()  # a cable colour or rail appeared in the fabric or left it

    def _on_reset(self) -> None:
        self.findings.clear()
        self.badges.reset((), (), ())
        self.metrics.clear()
        self.window.topology.set_highlight(set(), None)
        self.set_colour_mode(self.colour_mode)

    def _on_highlight(self, members: set[str], bottleneck: str | None) -> None:
        """The workload's servers and bottleneck, while the Workloads panel is on screen."""
        if not on_screen(self.workloads):
            members, bottleneck = set(), None
        self.window.topology.set_highlight(set(members), bottleneck)

    def _on_workloads_visible(self, visible: bool) -> None:
        if visible:
            self.workloads.emit_highlight()
        else:
            self.window.topology.set_highlight(set(), None)

    def _on_metrics_visible(self, visible: bool) -> None:
        self.validator.set_bom_enabled(visible)

    # ---------------------------------------------------------------- actions
    def checked_fix(self, finding: Finding) -> Fix | None:
        """The fix to offer for a finding of the current report: its ops applied to a copy of
        the document and re-validated with the live analyzer (aicnet_gui.repair); a fix that
        would cause a new error comes back in words.  None while no current report exists."""
        checker = self._current_checker()
        return checker.checked(finding) if checker is not None else None

    def _current_checker(self) -> FixChecker | None:
        v = self.validator
        if not v.current() or v.analyzer is None or v.report is None:
            return None
        doc = self.window.document.fabric
        checker = self._checker
        if checker is None or checker.report is not v.report or not checker.current:
            checker = self._checker = FixChecker(doc, v.analyzer, v.report)
        return checker

    def apply_fix_many(self, findings: list[Finding]) -> bool:
        """The fixes of several findings merged and checked together (aicnet_gui.repair.batch),
        applied as one undo step; the status bar says why when nothing can be applied."""
        checker = self._current_checker()
        if checker is None or not findings:
            return False
        batch = batch_fix(checker, findings)
        if not batch.applicable:
            self.window.show_message(f"Nothing fixed: {batch.reason}", 1)
            return False
        text = batch.description[:1].upper() + batch.description[1:]
        return self.window.editor.apply_fix(list(batch.ops), text)

    def apply_fix(self, finding: Finding) -> bool:
        """Apply a finding's checked fix as one undo step (only while its report is current)."""
        fix = self.checked_fix(finding)
        if fix is None or not fix.applicable:
            return False
        return self.window.editor.apply_fix(list(fix.ops), f"Fix {finding.code}: {fix.description}")

    def set_colour_mode(self, mode: str) -> None:
        window = self.window
        doc = window.document.fabric
        self.colour_mode = mode
        self.legend_keys.forget()  # counted again at the next edit of a cable
        classes = colouring.oversub_classes(doc, self.validator.report) if mode == "oversubscription" else None
        window.topology.set_colour_mode(mode, colouring.accents(doc, mode, classes or {}), classes)
        self.refresh_legend()
        self.colour_mode_changed.emit(mode)

    def refresh_legend(self) -> None:
        """Show in the legend what the current colour mode draws."""
        maker = self.legend_specs.get(self.colour_mode)
        self.window.legend.set_spec(maker() if maker is not None else
                                    colouring.legend_spec(self.window.document.fabric,
                                                          self.colour_mode))
