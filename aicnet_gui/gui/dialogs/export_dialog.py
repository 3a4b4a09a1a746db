"""File > Export: the cabling plan PDF (sections, paper, label stock) and the files of the tools
that take the design on.

The formats, their titles, default targets, writers and messages are the export registry's
(`report/export_registry.py`); the dialog lists them, shows the PDF options for a format that
takes them, and fills an `ExportOptions` (aicnet_gui.report) and a target path; `run_export`
then writes it in a background thread behind a modal progress dialog that can cancel.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ... import report
from ...report.export_registry import EXPORT_FORMATS, ExportFormat, write_export
from ...report.options import SECTION_TITLES
from .. import resources
from ..window_api import AppWindow
from ..workers.export_worker import ExportJob

#: the registry's formats by key, in its order
FORMATS: dict[str, ExportFormat] = {fmt.key: fmt for fmt in EXPORT_FORMATS}
LABEL_STOCKS = {"": "to match the paper", "avery-l7651": "Avery L7651 (A4, 65 labels)",
                "avery-5160": "Avery 5160 (Letter, 30 labels)", "none": "no label sheets"}


class ExportDialog(QDialog):
    def __init__(self, document_path: Path | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export")
        self.setWindowIcon(resources.icon("export-pdf"))
        #: the open document's file (the default targets sit beside it)
        self.document_path = document_path
        layout = QVBoxLayout(self)
        top = QFormLayout()
        self.kind = QComboBox()
        for key, fmt in FORMATS.items():
            self.kind.addItem(fmt.title, key)
        top.addRow("Export", self.kind)
        target_row = QHBoxLayout()
        self.target = QLineEdit()
        browse = QPushButton("Browse…")
        target_row.addWidget(self.target, 1)
        target_row.addWidget(browse)
        top.addRow("To", target_row)
        layout.addLayout(top)
        self.pdf_box = QGroupBox("Cabling plan")
        pdf = QFormLayout(self.pdf_box)
        self.paper = QComboBox()
        self.paper.addItem("A4", "a4")
        self.paper.addItem("US Letter", "letter")
        pdf.addRow("Paper", self.paper)
        sections = QWidget()
        grid = QVBoxLayout(sections)
        grid.setContentsMargins(0, 0, 0, 0)
        self.sections: dict[str, QCheckBox] = {}
        for key in report.SECTIONS:
            box = QCheckBox(SECTION_TITLES.get(key, key))
            box.setChecked(True)
            self.sections[key] = box
            grid.addWidget(box)
        pdf.addRow("Sections", sections)
        self.labels = QComboBox()
        for key, title in LABEL_STOCKS.items():
            self.labels.addItem(title, key)
        pdf.addRow("Label sheets", self.labels)
        self.label_start = QSpinBox()
        self.label_start.setRange(0, 79)
        self.label_start.setToolTip("labels already used on the first sheet")
        pdf.addRow("Skip labels", self.label_start)
        self.qr = QCheckBox("QR code on every label")
        self.qr.setChecked(True)
        pdf.addRow("", self.qr)
        layout.addWidget(self.pdf_box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Export")
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        browse.clicked.connect(self._browse)
        self.kind.currentIndexChanged.connect(self._on_kind)
        self._on_kind()

    def kind_key(self) -> str:
        return self.kind.currentData()

    def export_format(self) -> ExportFormat:
        return FORMATS[self.kind_key()]

    def _default_target(self) -> str:
        doc_path = self.document_path
        base = doc_path.with_suffix("") if doc_path else Path.home() / "fabric"
        fmt = self.export_format()
        return str(base.with_name(base.name + fmt.stem + fmt.suffix))

    def _on_kind(self) -> None:
        self.pdf_box.setVisible("options" in self.export_format().takes)
        self.target.setText(self._default_target())
        self.adjustSize()

    def _browse(self) -> None:
        fmt = self.export_format()
        if fmt.folder:
            path = QFileDialog.getExistingDirectory(self, "Export to folder", self.target.text())
        else:
            path, _f = QFileDialog.getSaveFileName(self, "Export to", self.target.text(),
                                                   f"*{fmt.suffix}")
        if path:
            self.target.setText(path)

    def options(self) -> Any:
        options = report.ExportOptions(
            paper=self.paper.currentData(),
            sections=tuple(k for k, box in self.sections.items() if box.isChecked()),
            labels=self.labels.currentData() or None,
            label_start=self.label_start.value(),
            label_qr=self.qr.isChecked(),
        )
        options.validate()
        return options

    def _accept(self) -> None:
        if not self.target.text().strip():
            QMessageBox.warning(self, "Export", "Choose where to write the export.")
            return
        if "options" in self.export_format().takes:
            try:
                self.options()
            except ValueError as exc:
                QMessageBox.warning(self, "Export", str(exc))
                return
        self.accept()


def export_job(kind: str, doc, target: str, options: Any):  # noqa: ANN001, ANN201
    """The function the worker runs for one export kind (progress, cancelled) -> summary text."""
    fmt = FORMATS[kind]

    def run(progress, cancelled) -> str:  # noqa: ANN001
        if "progress" not in fmt.takes:
            progress(0.1, "building the cable plan")
        result = write_export(fmt, doc, target, options=options, progress=progress,
                              cancelled=cancelled)
        return fmt.told(target, result)
    return run


def run_export(window: AppWindow) -> None:
    dialog = ExportDialog(window.document.path, window)
    if not dialog.exec():
        return
    kind = dialog.kind_key()
    options = dialog.options() if "options" in dialog.export_format().takes else None
    target = dialog.target.text().strip()
    start_export(window, kind, target, options)


def start_export(window: AppWindow, kind: str, target: str, options: Any) -> ExportJob:
    progress = QProgressDialog("Exporting…", "Cancel", 0, 1000, window)
    progress.setWindowTitle("Export")
    progress.setWindowModality(Qt.WindowModality.WindowModal)
    progress.setMinimumDuration(300)
    # the export runs in a worker: it reads a snapshot, so edits made meanwhile cannot reach it
    job = ExportJob(export_job(kind, window.document.fabric.snapshot(), target, options), window)
    job.progress.connect(lambda f, m: (progress.setValue(int(f * 1000)), progress.setLabelText(m)))
    progress.canceled.connect(job.cancel)

    def done(text: object) -> None:
        progress.reset()
        message = str(text)
        window.show_message(message.splitlines()[0])
        if "\n" in message and window.interactive:
            QMessageBox.information(window, "Export finished", message)

    def failed(text: str) -> None:
        progress.reset()
        window.show_message(text, 1)
        if window.interactive and "cancelled" not in text:
            QMessageBox.critical(window, "Export failed", text)

    job.finished.connect(done)
    job.failed.connect(failed)
    job.abandoned.connect(progress.reset)  # the window closed: the export stops, its dialog too
    window.export_job = job
    job.start()
    return job
