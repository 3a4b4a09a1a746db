"""Findings of the analysis: severity, stable code, message, object ids and a suggested fix.

A `Fix` carries a human text and, where the change is mechanical, the model operations
(`aicnet_gui.model.edits`) that make it: the GUI applies `doc.apply(list(fix.ops))` as one undo
step.  The ops were computed against the document revision of the report
(`AnalysisReport.revision`); a GUI should only offer the one-click fix while the document is
still at that revision (the document's all-or-nothing `apply` refuses ops that no longer fit).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, is_dataclass
from enum import StrEnum
from itertools import compress, islice
from operator import eq
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


@dataclass(frozen=True, slots=True, init=False, eq=False)
class Finding:
    """One problem (or remark) about the design; `objects` are ids of devices, links, racks..."""

    code: str
    severity: Severity
    message: str
    objects: tuple[str, ...] = ()
    fix: Fix | None = None
    # the key of (severity rank, code, objects), made once (see head_key)
    _head: str = field(init=False, repr=False, compare=False)
    # the whole sort key, made when first asked for (see sort_key)
    _key: str = field(init=False, repr=False, compare=False)

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
        _SET_HEAD(self, _head_key(_RANK[severity], code, objects))

    def head_key(self) -> str:
        """Orders findings as the tuple (severity rank, code, objects) does, as one string made
        when the finding is (`sort_findings` breaks its ties by the message)."""
        return self._head

    def sort_key(self) -> str:
        """Orders findings as the tuple (severity rank, code, objects, message) does, as one
        string (made when first asked for, then kept): a findings list sorted after each edit
        by these strings takes ~15 ms per 100k findings, by tuples built per sort ~140 ms."""
        try:
            return _GET_KEY(self)
        except AttributeError:
            key = self._head + _escaped(self.message)
            _SET_KEY(self, key)
            return key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Finding):
            return NotImplemented
        return (self.code == other.code and self.severity == other.severity
                and self.objects == other.objects and self.fix == other.fix
                and self.message == other.message)

    def __hash__(self) -> int:
        return hash((self.code, self.severity, self.message, self.objects, self.fix))

    def _json_message(self) -> str:
        return self.message

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self._json_message(),
            "objects": list(self.objects),
            "fix": self.fix.to_json() if self.fix is not None else None,
        }


_SET_CODE, _SET_SEVERITY, _SET_MESSAGE, _SET_OBJECTS, _SET_FIX, _SET_HEAD, _SET_KEY = (
    Finding.__dict__[name].__set__ for name in ("code", "severity", "message", "objects", "fix",
                                                "_head", "_key"))
_GET_MESSAGE, _GET_KEY = (Finding.__dict__[name].__get__ for name in ("message", "_key"))


class WrittenLater(Finding):
    """A finding whose message is written from its template when first read: a design without
    cables has a CABLE-UNSET finding on each of 2.4M links, and `aicnet validate` prints 20 of
    them.  It orders, compares, hashes and pickles as the `Finding` of the same message does
    (pickled, it is one).  `write(*parts)` must give the same text each time: its parts are
    values the report keeps (names, not the analyzer's state)."""

    __slots__ = ("_write", "_parts")

    # made by `written_later`; its `__init__` (as `dataclasses.replace` calls it) makes one
    # with the message written

    def __init__(self, code: str, severity: Severity, message: str,
                 objects: tuple[str, ...] = (), fix: Fix | None = None) -> None:
        Finding.__init__(self, code, severity, message, objects, fix)
        _SET_WRITE(self, None)

    @property  # type: ignore[override]
    def message(self) -> str:
        text = self._json_message()
        if self._write is not None:  # kept: the message first, then `_write` cleared
            _SET_MESSAGE(self, text)
            _SET_WRITE(self, None)
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        return Finding, (self.code, self.severity, self.message, self.objects, self.fix)

    def _json_message(self) -> str:
        """The message, written for the JSON but not kept when it was not yet read: `validate
        --json` of 2.4M such findings kept ~0.8 GB of messages it wrote once.  (No exception
        for a slot not set yet: raising and catching 2.4M AttributeErrors took ~3.5 s.)"""
        write = self._write
        if write is None:  # written already
            return _GET_MESSAGE(self)  # type: ignore[no-any-return]
        return write(*self._parts)  # type: ignore[no-any-return]


_SET_WRITE, _SET_PARTS = (WrittenLater.__dict__[name].__set__ for name in ("_write", "_parts"))
_NEW = object.__new__


def written_later(code: str, severity: Severity, write: Callable[..., str],
                  parts: tuple[Any, ...], objects: tuple[str, ...] = (),
                  fix: Fix | None = None) -> WrittenLater:
    """A finding whose message is `write(*parts)`, written when first read."""
    finding = _NEW(WrittenLater)
    _SET_CODE(finding, code)
    _SET_SEVERITY(finding, severity)
    _SET_OBJECTS(finding, objects)
    _SET_FIX(finding, fix)
    _SET_HEAD(finding, _head_key(_RANK[severity], code, objects))
    _SET_WRITE(finding, write)
    _SET_PARTS(finding, parts)
    return finding


def sort_findings(findings: list[Finding]) -> None:
    """Sort `findings` in place by `Finding.sort_key` without making it: by the head key, then
    each run of equal heads (a code on the same objects twice: rare) by its messages."""
    findings.sort(key=Finding.head_key)
    heads = list(map(Finding.head_key, findings))
    start = 0
    for at in compress(range(1, len(heads)), map(eq, heads, islice(heads, 1, None))):
        if at <= start:
            continue  # inside the run sorted below
        begin = at - 1
        end = at + 1
        while end < len(heads) and heads[end] == heads[begin]:
            end += 1
        findings[begin:end] = sorted(findings[begin:end], key=_message)
        start = end


def _message(finding: Finding) -> str:
    return _escaped(finding.message)


def _escaped(text: str) -> str:
    """`text` with NUL and \x01 written as two characters, \x01\x01 and \x01\x02: every
    character is then above NUL, and the order of texts is kept."""
    if "\x00" in text or "\x01" in text:
        return text.replace("\x01", "\x01\x02").replace("\x00", "\x01\x01")
    return text


def _head_key(rank: int, code: str, objects: tuple[str, ...]) -> str:
    """One string whose order is the order of the tuple `(rank, code, objects)`, and a prefix
    of none but itself: a text ends with NUL (a prefix sorts first), each object starts with
    \x01 and the objects end with NUL (a shorter tuple sorts first).  The message, escaped,
    follows it in the whole sort key."""
    joined = code + "".join(objects)  # two scans in C (a genexpr was 2x the time)
    if "\x00" not in joined and "\x01" not in joined:
        listed = "\x01" + "\x00\x01".join(objects) + "\x00" if objects else ""
        return f"{chr(0x30 + rank)}{code}\x00{listed}\x00"
    parts = [chr(0x30 + rank), _escaped(code), "\x00"]
    for item in objects:
        parts += ("\x01", _escaped(item), "\x00")
    parts.append("\x00")
    return "".join(parts)


def finding(code: str, severity: Severity, message: str, objects: tuple[str, ...] | list[str],
            fix: Fix | None = None) -> Finding:
    return Finding(code, severity, message, tuple(objects), fix)


ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
