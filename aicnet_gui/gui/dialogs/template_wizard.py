"""New from template: pick a generator template, fill its parameters, preview, generate.

The templates and their titles are the generators' registry (`generators.GENERATOR_TEMPLATES`);
each one's parameter form is rendered from its pydantic model.
"Check" plans the fabric and shows what would be built, or the generator's reason why the
parameters cannot work.  "Create" starts a new document and applies the generated operations as
ONE undo step (undo gives back the empty fabric).  The generator already places the devices
with the editor's tier layout (`generators.canvas_layout`).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ... import generators
from ...model.catalog import Catalog
from ...model.edits import Operation
from .. import resources
from ..window_api import AppWindow
from .model_form import ModelForm


def params_error(exc: ValidationError) -> str:
    first = exc.errors(include_url=False)[0]
    where = ".".join(str(p) for p in first["loc"])
    return f"{where.replace('_', ' ')}: {first['msg']}"


class TemplateWizard(QDialog):
    """Choose a template and its parameters; `result_ops` holds the generated operations."""

    def __init__(self, catalog: Catalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New fabric from a template")
        self.setWindowIcon(resources.icon("new-template"))
        self.resize(880, 640)
        self.catalog = catalog
        self.result_ops: list[Operation] = []
        self.result_summary = None
        layout_ = QVBoxLayout(self)
        body = QHBoxLayout()
        layout_.addLayout(body, 1)
        self.templates = QListWidget()
        self.templates.setFixedWidth(230)
        body.addWidget(self.templates)
        right = QVBoxLayout()
        body.addLayout(right, 1)
        self.description = QLabel()
        self.description.setWordWrap(True)
        self.description.setStyleSheet("color: #3e4c59; padding-bottom: 6px;")
        right.addWidget(self.description)
        self.forms = QStackedWidget()
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.forms)
        right.addWidget(scroll, 1)
        self.preview = QPlainTextEdit()
        self.preview.setReadOnly(True)
        self.preview.setFixedHeight(200)
        self.preview.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.preview.setPlaceholderText("Press Check to see what the template builds.")
        right.addWidget(self.preview)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.check_button = self.buttons.addButton("Check", QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Create")
        self.buttons.accepted.connect(self.create)
        self.buttons.rejected.connect(self.reject)
        self.check_button.clicked.connect(self.check)
        layout_.addWidget(self.buttons)
        self._forms: dict[str, ModelForm] = {}
        for template in generators.GENERATOR_TEMPLATES:
            item = QListWidgetItem(resources.icon("new-template"), template.title)
            item.setData(Qt.ItemDataRole.UserRole, template.name)
            self.templates.addItem(item)
            form = ModelForm(template.params, self.catalog, skip=("template",))
            form.changed.connect(self._invalidate)
            self._forms[template.name] = form
            self.forms.addWidget(form)
        self.templates.currentRowChanged.connect(self._on_template)
        self.templates.setCurrentRow(1 if "rail-optimized" in generators.TEMPLATES else 0)

    def template(self) -> str:
        return self.templates.currentItem().data(Qt.ItemDataRole.UserRole)

    def form(self) -> ModelForm:
        return self._forms[self.template()]

    def _on_template(self, row: int) -> None:
        self.forms.setCurrentIndex(row)
        params = generators.template_named(self.template()).params
        self.description.setText((params.__doc__ or "").strip())
        self._invalidate()

    def _invalidate(self) -> None:
        self.preview.setStyleSheet("")
        self.preview.setPlainText("")

    def params(self) -> Any:
        """The validated parameters, or raises ValueError with a readable message."""
        values = {"template": self.template(), **self.form().values()}
        try:
            return generators.template_named(self.template()).parse(values)
        except ValidationError as exc:
            raise ValueError(params_error(exc)) from None

    def _build(self) -> bool:
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            params = self.params()
            from ...model.document import FabricDocument

            scratch = FabricDocument(self.catalog)
            ops, summary = generators.build_ops(scratch, params)
        except (ValueError, generators.GeneratorError) as exc:
            self._show(str(exc), error=True)
            return False
        finally:
            QGuiApplication.restoreOverrideCursor()
        self.result_ops, self.result_summary = ops, summary
        self._show("\n".join(summary.lines()), error=False)
        return True

    def _show(self, text: str, error: bool) -> None:
        self.preview.setStyleSheet("color: #c92a2a;" if error else "")
        self.preview.setPlainText(text)

    def check(self) -> None:
        self._build()

    def create(self) -> None:
        if self._build():
            self.accept()


def run_template_wizard(window: AppWindow) -> bool:
    """Show the wizard; on Create, a new document holding the generated fabric (one undo step)."""
    wizard = TemplateWizard(window.catalog, window)
    if not wizard.exec():
        return False
    return apply_template(window, wizard.template(), wizard.result_ops)


def apply_template(window: AppWindow, template: str, ops: list[Operation]) -> bool:
    title = generators.template_named(template).title
    QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        window.document.new()
        ok = window.editor.apply_generated(ops, f"Generate {title}")
    finally:
        QGuiApplication.restoreOverrideCursor()
    if ok:
        window.fit_to_view()
    return ok

