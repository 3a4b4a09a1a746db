"""Findings of the analysis: severity, stable code, message, object ids and a suggested fix.

A `Fix` carries a human text and, where the change is mechanical, the model operations
(`aicnet_gui.model.edits`) that make it: the GUI applies `doc.apply(list(fix.ops))` as one undo
step.  The ops were computed against the document revision of the report
(`AnalysisReport.revision`); a GUI should only offer the one-click fix while the document is
still at that revision (the document's all-or-nothing `apply` refuses ops that no longer fit).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from enum import StrEnum
from typing import Any

from pydantic import BaseModel

from ..model.edits import Operation
from ..model.values import Value


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def _jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel | Value):
        return value.model_dump(mode="json", exclude_defaults=True)
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if isinstance(value, StrEnum):
        return value.value
    return value


def op_to_json(op: Operation) -> dict[str, Any]:
    """`UpdateLink("c1", {"cable": "x"})` -> `{"op": "UpdateLink", "id": "c1", "changes": {...}}`."""
    data: dict[str, Any] = {"op": type(op).__name__}
    if is_dataclass(op):
        for f in fields(op):
            data[f.name] = _jsonable(getattr(op, f.name))
    return data


@dataclass(frozen=True, slots=True)
class Fix:
    """A suggested repair: always a text; `ops` when the repair is a mechanical model edit."""

    description: str
    ops: tuple[Operation, ...] = ()

    @property
    def applicable(self) -> bool:
        """True when the GUI can apply it in one click (`doc.apply(list(fix.ops))`)."""
        return bool(self.ops)

    def to_json(self) -> dict[str, Any]:
        return {"description": self.description, "ops": [op_to_json(op) for op in self.ops]}


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem (or remark) about the design; `objects` are ids of devices, links, racks..."""

    code: str
    severity: Severity
    message: str
    objects: tuple[str, ...] = ()
    fix: Fix | None = None

    def sort_key(self) -> tuple[int, str, tuple[str, ...], str]:
        return (self.severity.rank, self.code, self.objects, self.message)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "objects": list(self.objects),
            "fix": self.fix.to_json() if self.fix is not None else None,
        }


def finding(code: str, severity: Severity, message: str, objects: tuple[str, ...] | list[str],
            fix: Fix | None = None) -> Finding:
    return Finding(code, severity, message, tuple(objects), fix)


ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
