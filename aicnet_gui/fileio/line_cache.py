"""The JSON line of every rack, device, link and workload from the last save (or from the file
the document was opened from), so that a save re-serialises only the objects that changed.

Objects are values: an edit stores a new object, so "unchanged" is "the very same object".  The
cache keeps, per section, the list of objects written and the list of their lines.  A save after
a few edits finds the unchanged objects by position (one identity test per object, in C); when
objects were added or removed it matches them by identity through a table of `id()`s (safe: the
cache holds the objects, so no other live object can have their id).

Opening a file costs nothing here: `FileLines` keeps the raw bytes and, on the first save,
checks that the file is exactly what aicnet writes around the object sections: the same
format, version, metadata, settings and embedded catalog bytes, the sections at the top level
in their order, each section one object per line (its only line breaks are the `,\n    {`
between two objects, and as many as its objects less one).  Then every piece is one object of
that section's top-level array, in file order (no object of the schema holds an array of
objects, so `,` + `{` cannot come from inside one), and is the text that was read and
validated into that object.  Any other layout (hand-formatted, reordered keys, duplicate keys,
another catalog) fails the check and the file is serialised afresh.

Each document's cache is held here, weakly keyed by the document (`cache_of`, `keep`,
`forget`): the model knows nothing of files, and a document's cache goes with it.  A snapshot
is another document and starts without one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress
from operator import is_, not_
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

if TYPE_CHECKING:
    from ..model.document import FabricDocument

_INDENT = b"\n    "
#: between two objects of a section in the file
LINE_SEPARATOR = b"," + _INDENT
OBJECT_SEPARATOR = LINE_SEPARATOR + b"{"
SECTION_END = b"\n  ]"


class LineCache:
    """Per section name: the objects of the last save and the JSON line of each (or, after a
    save that serialised the whole section, its text, split into lines when next needed)."""

    def __init__(self, sections: dict[str, tuple[Sequence[object], list[bytes] | bytes]] | None = None
                 ) -> None:
        self._sections = dict(sections or {})

    def _section(self, name: str) -> tuple[Sequence[object], list[bytes]] | None:
        entry = self._sections.get(name)
        if entry is not None and isinstance(entry[1], bytes):
            entry = self._sections[name] = (entry[0], entry[1].split(LINE_SEPARATOR))
        return entry  # type: ignore[return-value]

    def known_lines(self, name: str, items: Sequence[object]) -> list[bytes | None] | None:
        """The cached line of each of `items`, None for an object not written before; None
        for them all when the section was not written before."""
        entry = self._section(name)
        if entry is None:
            return None
        old_items, old_lines = entry
        if len(items) == len(old_items):
            same = list(map(is_, items, old_items))
            known: list[bytes | None] = list(old_lines)
            for index in compress(range(len(same)), map(not_, same)):
                known[index] = None
            return known
        by_id = dict(zip(map(id, old_items), old_lines, strict=True))
        return list(map(by_id.get, map(id, items)))


#: the layout of a file at the top level: the exact bytes of a key and its value, or the name
#: of an object section (its body is checked line by line)
Layout = list[bytes | str]


class FileLines(LineCache):
    """The lines of an opened file, matched against the file's expected layout on first use."""

    def __init__(self, raw: bytes, sections: dict[str, Sequence[object]],
                 layout: Callable[[], Layout]) -> None:
        super().__init__()
        self._raw = raw
        self._loaded = dict(sections)
        self._layout: Callable[[], Layout] | None = layout

    @property
    def raw(self) -> bytes | None:
        """The bytes of the file, until its lines are first used (then None)."""
        return self._raw if self._layout is not None else None

    def _section(self, name: str) -> tuple[Sequence[object], list[bytes]] | None:
        if self._layout is not None:
            bodies = match_layout(self._raw, self._layout(), {k: len(v) for k, v in self._loaded.items()})
            for section, body in (bodies or {}).items():
                if body:
                    self._sections[section] = (self._loaded[section], body.split(LINE_SEPARATOR))
            self._raw, self._layout, self._loaded = b"", None, {}
        return self._sections.get(name)


def match_layout(raw: bytes, layout: Layout, counts: dict[str, int]) -> dict[str, bytes] | None:
    """Each object section's body (objects joined by `,\n    `) when `raw` is exactly the
    file of `layout` with `counts[name]` one-line objects in section `name`; else None."""
    bodies: dict[str, bytes] = {}
    pos = 0

    def take(expected: bytes) -> bool:
        nonlocal pos
        if not raw.startswith(expected, pos):
            return False
        pos += len(expected)
        return True

    if not take(b"{\n"):
        return None
    for index, part in enumerate(layout):
        if index and not take(b",\n"):
            return None
        if isinstance(part, bytes):
            if not take(part):
                return None
            continue
        count = counts.get(part, 0)
        if not take(b'  "' + part.encode() + b'": '):
            return None
        if count == 0:
            if not take(b"[]"):
                return None
            continue
        if not take(b"[" + _INDENT):
            return None
        end = raw.find(SECTION_END, pos)
        if end < 0:
            return None
        body = raw[pos:end]
        if not (body.count(b"\n") == body.count(OBJECT_SEPARATOR) == count - 1
                and body.startswith(b"{") and body.endswith(b"}")):
            return None
        bodies[part] = body
        pos = end + len(SECTION_END)
    return bodies if take(b"\n}\n") and pos == len(raw) else None


#: document -> the lines of its last save, or of the file it was opened from
_CACHES: WeakKeyDictionary[FabricDocument, LineCache] = WeakKeyDictionary()


def cache_of(doc: FabricDocument) -> LineCache | None:
    """The lines `doc` was last saved as (or opened from), if any."""
    return _CACHES.get(doc)


def keep(doc: FabricDocument, cache: LineCache) -> None:
    """Remember `cache` for `doc` (until the next `keep`, `forget` or the document's end)."""
    _CACHES[doc] = cache


def forget(doc: FabricDocument) -> None:
    """The next save of `doc` serialises every object afresh."""
    _CACHES.pop(doc, None)
