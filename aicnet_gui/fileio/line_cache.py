"""The JSON line of every rack, device, link and workload from the last save (or from the file
the document was opened from), so that a save re-serialises only the objects that changed.

Objects are values: an edit stores a new object, so "unchanged" is "the very same object".  The
cache keeps, per section, the list of objects written and the list of their lines.  A save after
a few edits finds the unchanged objects by position (one identity test per object, in C); when
objects were added or removed it matches them by identity through a table of `id()`s (safe: the
cache holds the objects, so no other live object can have their id).

Opening a file costs nothing here: `FileLines` keeps the raw bytes and splits a section into its
lines only on the first save.  A section is used only when its layout proves the mapping: the
body splits at `,\\n    ` into exactly one piece per object and every split is followed by `{`.
In valid JSON a `{` after a comma is an array element, and the only arrays of objects in a
`.fabric` section are the section arrays themselves, so each piece is then exactly one object,
in file order.  A hand-formatted section fails the test and is serialised afresh.  A piece is
the object's own text as read and validated, so writing it back writes the same object.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import is_, not_

_INDENT = b"\n    "
_SEPARATOR = b"," + _INDENT
_OBJECT_SEPARATOR = _SEPARATOR + b"{"
_SECTION_END = b"\n  ]"


class LineCache:
    """Per section name: the objects of the last save and the JSON line of each."""

    def __init__(self, sections: dict[str, tuple[Sequence[object], list[bytes]]] | None = None) -> None:
        self._sections = dict(sections or {})

    def _section(self, name: str) -> tuple[Sequence[object], list[bytes]] | None:
        return self._sections.get(name)

    def known_lines(self, name: str, items: Sequence[object]) -> list[bytes | None]:
        """The cached line of each of `items`, None for an object not written before."""
        entry = self._section(name)
        if entry is None:
            return [None] * len(items)
        old_items, old_lines = entry
        if len(items) == len(old_items):
            same = list(map(is_, items, old_items))
            known: list[bytes | None] = list(old_lines)
            for index in compress(range(len(same)), map(not_, same)):
                known[index] = None
            return known
        by_id = dict(zip(map(id, old_items), old_lines, strict=True))
        return list(map(by_id.get, map(id, items)))


class FileLines(LineCache):
    """The lines of an opened file, split per section on first use."""

    def __init__(self, raw: bytes, sections: dict[str, Sequence[object]]) -> None:
        super().__init__()
        self._raw = raw
        self._loaded = dict(sections)

    def _section(self, name: str) -> tuple[Sequence[object], list[bytes]] | None:
        items = self._loaded.pop(name, None)
        if items is not None:
            lines = section_lines(self._raw, name, len(items))
            if lines is not None:
                self._sections[name] = (items, lines)
            if not self._loaded:
                self._raw = b""  # every section is split: the file's bytes are no longer needed
        return self._sections.get(name)


def section_lines(raw: bytes, name: str, count: int) -> list[bytes] | None:
    """The `count` one-object lines of section `name` in `raw`, or None when the section is
    absent, empty or not laid out one object per line."""
    if count == 0:
        return None
    header = b'\n  "' + name.encode() + b'": [' + _INDENT
    start = raw.find(header)
    if start < 0 or raw.find(header, start + 1) >= 0:
        return None
    start += len(header)
    end = raw.find(_SECTION_END, start)
    if end < 0:
        return None
    body = raw[start:end]
    separators = body.count(_SEPARATOR)
    if separators != count - 1 or body.count(_OBJECT_SEPARATOR) != separators:
        return None
    if not body.startswith(b"{") or not body.endswith(b"}"):
        return None
    return body.split(_SEPARATOR)
