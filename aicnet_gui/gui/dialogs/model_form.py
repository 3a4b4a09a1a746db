"""A form generated from a pydantic model: one field per model field, with its description.

Used by the New-from-template wizard to render the generators' parameter models.  Numbers get
spin boxes with the field's bounds ("auto" when the field may be None), `Literal` and enum fields
and catalog ids get combo boxes, booleans check boxes, nested models a titled sub-form.  Fields of
other shapes (lists, mappings) keep their defaults and are listed as such.

A float shows as a user would type it: as many decimals as its value needs (a 0.04445 m rack
unit stays 0.04445), and a value no one types (4/3, float noise) to three significant digits
(1.33); a value the user did not touch comes back exactly as it was given (4/3 is not rounded to
1.33, a value outside the box's range is not clamped).  A field's label is its `title` when the
model gives one (the workload kinds: "Inference, wide expert parallelism"), else its name in
words with acronyms upper-case.
"""

from __future__ import annotations

import math
import types
import typing
from collections.abc import Callable
from enum import Enum
from typing import Any

from annotated_types import Ge, Gt, Le, Lt
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...model.catalog import Catalog
from .. import resources, theme

AUTO = "auto"

#: how enum values read in a combo box
ENUM_TITLES = {**theme.TECH_TITLES, "tia-606": "ANSI/TIA-606", "iso-14763": "ISO/IEC 14763"}


def decimals_for(value: float) -> int:
    """Decimals a spin box needs to show `value` (2 to 6): those of the number as written
    (0.04445: 5; float noise such as 0.1 + 0.2 rounds away), and for a value that no short
    decimal writes (4/3, 1/30) enough for three significant digits (1.33, 0.0333)."""
    fraction = f"{value:.6f}".rstrip("0").partition(".")[2]
    if len(fraction) == 6 and value:  # 1.333333...: no one typed this
        return min(6, max(2, 2 - math.floor(math.log10(abs(value)))))
    return max(2, len(fraction))

# catalog-id fields of the generators, and the roles their models may have
CATALOG_FIELDS: dict[str, tuple[str, ...]] = {
    "server": ("gpu_server",),
    "leaf": ("leaf", "spine", "core"),
    "spine": ("leaf", "spine", "core"),
    "core": ("leaf", "spine", "core"),
}


def _unwrap_optional(annotation: Any) -> tuple[Any, bool]:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        optional = len(args) < len(typing.get_args(annotation))
        if len(args) == 1:
            return args[0], optional
    return annotation, False


def _bounds(info: FieldInfo) -> tuple[float | None, float | None, bool]:
    low = high = None
    strict_low = False
    for meta in info.metadata:
        if isinstance(meta, Ge):
            low = meta.ge
        elif isinstance(meta, Gt):
            low, strict_low = meta.gt, True
        elif isinstance(meta, Le):
            high = meta.le
        elif isinstance(meta, Lt):
            high = meta.lt
    return low, high, strict_low


_WORDS = {"su": "SU", "sus": "SUs", "gbps": "(Gb/s)", "kw": "(kW)", "ru": "(RU)", "m": "(m)",
          "id": "ID", "tor": "ToR", "mtu": "MTU", "pfc": "PFC", "ecn": "ECN", "dcb": "DCB",
          "ecmp": "ECMP", "mb": "(MB)", "percent": "(%)", "allreduce": "All-reduce",
          "roce": "RoCE", "cnp": "CNP", "dscp": "DSCP", "ep": "EP"}


def field_title(name: str) -> str:
    """`nodes_per_su` -> `Nodes per SU`, `rack_power_kw` -> `Rack power (kW)`."""
    words = [_WORDS.get(w, w) for w in name.split("_")]
    first = words[0]
    if first.startswith("("):  # a unit first: `ru_height_m` -> `RU height (m)`
        first = first.strip("()")
    words[0] = first if first[:1].isupper() else first.capitalize()
    return " ".join(words)


class ModelForm(QWidget):
    """Edits the fields of one pydantic model class; `values()` gives the raw values."""

    changed = Signal()

    def __init__(self, model: type[BaseModel], catalog: Catalog, skip: tuple[str, ...] = (),
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.catalog = catalog
        self._getters: dict[str, Callable[[], Any]] = {}
        self._setters: dict[str, Callable[[Any], None]] = {}
        self.fixed: list[str] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        layout.addLayout(form)
        nested: list[tuple[str, type[BaseModel]]] = []
        for name, info in model.model_fields.items():
            if name in skip:
                continue
            annotation, optional = _unwrap_optional(info.annotation)
            if isinstance(annotation, type) and issubclass(annotation, BaseModel):
                nested.append((name, annotation))
                continue
            widget = self._editor(name, info, annotation, optional)
            if widget is None:
                self.fixed.append(name)
                continue
            label = QLabel(info.title or field_title(name))
            if info.description:
                label.setToolTip(info.description)
                widget.setToolTip(info.description)
            form.addRow(label, widget)
        for name, sub_model in nested:
            box = QGroupBox(info.title or field_title(name))
            box.setCheckable(False)
            inner = QVBoxLayout(box)
            sub = ModelForm(sub_model, catalog, parent=box)
            sub.changed.connect(self.changed)
            inner.addWidget(sub)
            layout.addWidget(box)
            self._getters[name] = sub.values
            self._setters[name] = sub.set_values
            self.fixed.extend(f"{name}.{f}" for f in sub.fixed)
        defaults = {n: f.get_default(call_default_factory=True) for n, f in model.model_fields.items()}
        self.set_values({k: v for k, v in defaults.items() if k in self._setters})

    # ---------------------------------------------------------------- editors
    def _editor(self, name: str, info: FieldInfo, annotation: Any, optional: bool) -> QWidget | None:
        origin = typing.get_origin(annotation)
        if origin is typing.Literal:
            box = QComboBox()
            for value in typing.get_args(annotation):
                box.addItem(str(value), value)
            if optional:
                box.insertItem(0, AUTO, None)
            box.currentIndexChanged.connect(self.changed)
            self._getters[name] = box.currentData
            self._setters[name] = lambda v, b=box: b.setCurrentIndex(max(b.findData(v), 0))
            return box
        if isinstance(annotation, type) and issubclass(annotation, Enum):
            return self._choice(name, annotation)
        if annotation is str and name in CATALOG_FIELDS:
            box = QComboBox()
            if optional:
                box.addItem("(default)", None)
            roles = CATALOG_FIELDS[name]
            for model in sorted(self.catalog.devices.values(), key=lambda m: (m.role.value, m.vendor, m.model)):
                if model.role.value in roles:
                    box.addItem(resources.icon(f"role-{model.role.value}"), f"{model.vendor} {model.model}", model.id)
            box.currentIndexChanged.connect(self.changed)
            self._getters[name] = box.currentData
            self._setters[name] = lambda v, b=box: b.setCurrentIndex(max(b.findData(v), 0))
            return box
        if annotation is bool:
            check = QCheckBox()
            check.toggled.connect(self.changed)
            self._getters[name] = check.isChecked
            self._setters[name] = lambda v, c=check: c.setChecked(bool(v))
            return check
        if annotation in (int, float):
            return self._number(name, info, annotation, optional)
        if annotation is str:
            edit = QLineEdit()
            if optional:
                edit.setPlaceholderText("automatic")
            edit.textChanged.connect(self.changed)
            self._getters[name] = (lambda e=edit: e.text().strip() or None) if optional else edit.text
            self._setters[name] = lambda v, e=edit: e.setText("" if v is None else str(v))
            return edit
        return None

    def _choice(self, name: str, enum: type[Enum]) -> QWidget:
        box = QComboBox()
        for member in enum:
            box.addItem(ENUM_TITLES.get(str(member.value), str(member.value)), member.value)
        box.currentIndexChanged.connect(self.changed)
        self._getters[name] = lambda b=box: enum(b.currentData())
        self._setters[name] = lambda v, b=box: b.setCurrentIndex(max(b.findData(getattr(v, "value", v)), 0))
        return box

    def _number(self, name: str, info: FieldInfo, annotation: type, optional: bool) -> QWidget:
        low, high, strict = _bounds(info)
        spin: QSpinBox | QDoubleSpinBox
        if annotation is int:
            spin = QSpinBox()
            lo = int(low + (1 if strict else 0)) if low is not None else 0
            spin.setRange(lo - (1 if optional else 0), int(high) if high is not None else 1_000_000)
        else:
            spin = QDoubleSpinBox()
            spin.setDecimals(2)
            lo_f = float(low) + (0.01 if strict else 0.0) if low is not None else 0.0
            spin.setRange(lo_f - (0.01 if optional else 0.0), float(high) if high is not None else 1e6)
        if optional:
            spin.setSpecialValueText(AUTO)
        spin.setKeyboardTracking(False)
        spin.valueChanged.connect(self.changed)

        # the value last put in and what the box showed for it: while the box still shows
        # that, the value comes back as given (not rounded to the decimals, not clamped)
        given: list[Any] = [None, None]

        def get(s: QSpinBox | QDoubleSpinBox = spin) -> Any:
            if s.value() == given[1]:
                return given[0]
            if optional and s.value() == s.minimum():
                return None
            return s.value()

        def put(value: Any, s: QSpinBox | QDoubleSpinBox = spin) -> None:
            if isinstance(s, QDoubleSpinBox) and isinstance(value, float):
                s.setDecimals(max(s.decimals(), decimals_for(value)))
            s.setValue(s.minimum() if value is None else value)
            given[:] = [value, s.value()]

        self._getters[name] = get
        self._setters[name] = put
        return spin

    # ---------------------------------------------------------------- values
    def values(self) -> dict[str, Any]:
        return {name: get() for name, get in self._getters.items()}

    def set_values(self, values: dict[str, Any]) -> None:
        for name, value in values.items():
            setter = self._setters.get(name)
            if setter is None:
                continue
            if isinstance(value, BaseModel):
                value = value.model_dump()
            setter(value)
