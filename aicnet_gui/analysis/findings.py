"""Findings of the analysis: severity, stable code, message, object ids and a suggested fix.

A `Fix` carries a human text and, where the change is mechanical, the model operations
(`aicnet_gui.model.edits`) that make it: the GUI applies `doc.apply(list(fix.ops))` as one undo
step.  The ops were computed against the document revision of the report
(`AnalysisReport.revision`); a GUI should only offer the one-click fix while the document is
still at that revision (the document's all-or-nothing `apply` refuses ops that no longer fit).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
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


@dataclass(frozen=True, slots=True, init=False)
class Finding:
    """One problem (or remark) about the design; `objects` are ids of devices, links, racks..."""

    code: str
    severity: Severity
    message: str
    objects: tuple[str, ...] = ()
    fix: Fix | None = None
    # the sort key, made once (see sort_key)
    _sort: str = field(init=False, repr=False, compare=False)

    def __init__(self, code: str, severity: Severity, message: str,
                 objects: tuple[str, ...] = (), fix: Fix | None = None) -> None:
        # the dataclass's own __init__ of a frozen class sets each field through
        # object.__setattr__ and then calls __post_init__: ~0.9 us of a finding's 1.5 us, and
        # a design without cables has a finding per link (2.4M); the slots' own setters are
        # what it ends up calling
        _SET_CODE(self, code)
        _SET_SEVERITY(self, severity)
        _SET_MESSAGE(self, message)
        _SET_OBJECTS(self, objects)
        _SET_FIX(self, fix)
        _SET_SORT(self, _ordered(_RANK[severity], code, objects, message))

    def sort_key(self) -> str:
        """Orders findings as the tuple (severity rank, code, objects, message) does, as one
        string made when the finding is: a report sorts every finding after each edit, and
        100k findings sorted by tuples built per sort cost ~140 ms, by these strings ~15 ms."""
        return self._sort

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "objects": list(self.objects),
            "fix": self.fix.to_json() if self.fix is not None else None,
        }


_SET_CODE, _SET_SEVERITY, _SET_MESSAGE, _SET_OBJECTS, _SET_FIX, _SET_SORT = (
    Finding.__dict__[name].__set__ for name in ("code", "severity", "message", "objects", "fix",
                                                "_sort"))


def _escaped(text: str) -> str:
    """`text` with NUL and \x01 written as two characters, \x01\x01 and \x01\x02: every
    character is then above NUL, and the order of texts is kept."""
    if "\x00" in text or "\x01" in text:
        return text.replace("\x01", "\x01\x02").replace("\x00", "\x01\x01")
    return text


def _ordered(rank: int, code: str, objects: tuple[str, ...], message: str) -> str:
    """One string whose order is the order of the tuple `(rank, code, objects, message)`: a
    text ends with NUL (a prefix sorts first), each object starts with \x01 and the objects end
    with NUL (a shorter tuple sorts first), the message comes last."""
    joined = code + message + "".join(objects)  # two scans in C (a genexpr was 2x the time)
    if "\x00" not in joined and "\x01" not in joined:
        listed = "\x01" + "\x00\x01".join(objects) + "\x00" if objects else ""
        return f"{chr(0x30 + rank)}{code}\x00{listed}\x00{message}"
    parts = [chr(0x30 + rank), _escaped(code), "\x00"]
    for item in objects:
        parts += ("\x01", _escaped(item), "\x00")
    parts += ("\x00", _escaped(message))
    return "".join(parts)


def finding(code: str, severity: Severity, message: str, objects: tuple[str, ...] | list[str],
            fix: Fix | None = None) -> Finding:
    return Finding(code, severity, message, tuple(objects), fix)


ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
