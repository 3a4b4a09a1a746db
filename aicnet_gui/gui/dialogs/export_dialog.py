"""File > Export: the cabling plan PDF (sections, paper, label stock) and the CSV / NetBox files.

The dialog fills an `ExportOptions` (aicnet_gui.report) and a target path; `run_export` then
writes it in a background thread behind a modal progress dialog that can cancel.
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
from ...editing.units import counted
from ...report.options import SECTION_TITLES
from .. import resources
from ..window_api import AppWindow
from ..workers.export_worker import ExportJob

FORMATS: dict[str, tuple[str, str]] = {
    "pdf": ("Cabling plan (PDF)", ".pdf"),
    "csv": ("Cable schedule (CSV)", ".csv"),
    "labels": ("Cable labels (CSV for label printers)", ".csv"),
    "cvt": ("NVIDIA Cable Validation Tool 1.7+ workbook (XLSX)", ".xlsx"),
    "p2p": ("NVIDIA Cable Validation Tool point-to-point, before 1.7 (CSV)", ".csv"),
    "netbox": ("NetBox 4.5+ bulk import (folder of CSV and device-type YAML)", ""),
    "slurm": ("Slurm topology.conf and topology.yaml (folder)", ""),
    "drawio": ("draw.io diagram (topology and floor)", ".drawio"),
}
FOLDER_KINDS = ("netbox", "slurm")
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
        for key, (title, _suffix) in FORMATS.items():
            self.kind.addItem(title, key)
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

    def _default_target(self) -> str:
        doc_path = self.document_path
        base = doc_path.with_suffix("") if doc_path else Path.home() / "fabric"
        key = self.kind_key()
        suffix = FORMATS[key][1]
        name = {"pdf": "", "csv": "-cables", "labels": "-labels", "p2p": "-p2p", "netbox": "-netbox",
                "cvt": "-cvt", "slurm": "-slurm", "drawio": ""}[key]
        return str(base.with_name(base.name + name + suffix))

    def _on_kind(self) -> None:
        self.pdf_box.setVisible(self.kind_key() == "pdf")
        self.target.setText(self._default_target())
        self.adjustSize()

    def _browse(self) -> None:
        if self.kind_key() in FOLDER_KINDS:
            path = QFileDialog.getExistingDirectory(self, "Export to folder", self.target.text())
        else:
            suffix = FORMATS[self.kind_key()][1]
            path, _f = QFileDialog.getSaveFileName(self, "Export to", self.target.text(), f"*{suffix}")
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
        if self.kind_key() == "pdf":
            try:
                self.options()
            except ValueError as exc:
                QMessageBox.warning(self, "Export", str(exc))
                return
        self.accept()


def export_job(kind: str, doc, target: str, options: Any):  # noqa: ANN001, ANN201
    """The function the worker runs for one export kind (progress, cancelled) -> summary text."""
    def run(progress, cancelled) -> str:  # noqa: ANN001
        if kind == "pdf":
            result = report.export_pdf(doc, target, options, progress=progress, cancelled=cancelled)
            text = (f"Wrote {counted(result.pages, 'page')} ({counted(result.links, 'cable')}, "
                    f"{counted(result.labels, 'label')}) to {target}")
            if result.warnings:
                text += "\n\n" + "\n".join(result.warnings[:10])
            return text
        progress(0.1, "building the cable plan")
        if kind == "csv":
            rows = report.export_csv(doc, target)
            return f"Wrote {counted(rows, 'cable')} to {target}"
        if kind == "labels":
            rows = report.export_labels_csv(doc, target)
            return f"Wrote {counted(rows, 'label')} to {target}"
        if kind == "p2p":
            rows = report.export_p2p(doc, target)
            return f"Wrote {counted(rows, 'point-to-point row')} to {target}"
        if kind == "cvt":
            from ...report.cvt_xlsx import export_cvt_xlsx

            rows = export_cvt_xlsx(doc, target)
            return f"Wrote {counted(rows, 'link')} to the CVT workbook {target}"
        if kind == "slurm":
            from ...report.slurm import export_slurm

            counts = export_slurm(doc, target)
            return (f"Wrote topology.conf ({counted(counts['topology.conf'], 'switch')}) and "
                    f"topology.yaml to {target}")
        if kind == "drawio":
            from ...report.drawio import export_drawio

            pages = export_drawio(doc, target)
            return f"Wrote {counted(pages, 'page')} to {target}"
        files = report.export_netbox(doc, target)
        return f"Wrote {counted(len(files), 'NetBox file')} to {target}"
    return run


def run_export(window: AppWindow) -> None:
    dialog = ExportDialog(window.document.path, window)
    if not dialog.exec():
        return
    kind = dialog.kind_key()
    options = dialog.options() if kind == "pdf" else None
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
