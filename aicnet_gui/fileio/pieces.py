"""Read a `.fabric` file laid out as aicnet writes it with its links read a piece at a time,
into columns.

aicnet writes one link per line, so the links section splits between two links into pieces of
~256 kB that are valid JSON arrays on their own.  Each piece is parsed by pydantic's JSON parser
and its links' fields appended to one list per field; the columns are then validated by pydantic, field by
field, as the `Link` model validates that field (model/link_table.py), and the document takes
them as they are.  No `Link` object is made: at 300k links, pydantic making them was ~0.8 s of an
open, the columns are ~0.4 s (and no JSON tree of the whole section is ever held: a piece's
dicts are gone before the next piece is read).  The rest of the file (with an empty links
section) is validated by pydantic as a whole.

Nothing here guesses: the split only happens at `,\\n    {` (a raw line break cannot occur inside
a JSON string, and in aicnet's layout only a link starts a line with four spaces and a brace),
a piece that is not exactly whole links fails to parse, and a file with `"links"` anywhere else
(a second key, or such a value) is left to whole-file validation.  The caller validates the file
as a whole then, or after a failure here, in the careful way that reports the error's place.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator
from functools import partial
from itertools import compress, repeat
from operator import ne
from typing import Any

from pydantic_core import from_json

from ..forked import Forked, fork_useful
from ..model.fabric import Fabric
from ..model.limits import MAX_LINKS
from ..model.link_table import DEFAULTS, FIELDS, LinkColumns, columns_from_rows
from ..spawned import Spawned
from .line_cache import LINE_SEPARATOR, OBJECT_SEPARATOR, SECTION_END

_OPEN = b'\n  "links": [\n    {'
_CLOSE = b"}" + SECTION_END
_WORKLOADS = b',\n  "workloads": '
PIECE_BYTES = 256 * 1024
#: a links section above this many bytes (~110k links) is read in halves where asked
HALVES_BYTES = 16 * 1024 * 1024
#: the part of the links this process reads when a forked child reads the rest: this process
#: also validates the rest of the file (~0.28 s at 1.2M links) and reads the child's columns
#: back (~0.09 s), the child writes them (child_wire.py: ~0.07 s for 530k rows); 0.50 and 0.56
#: measured alike at 1.2M links (`aicnet validate` of planes2: 5.54-5.91 s and 5.59-5.87 s)
HEAD_SHARE = 0.56
#: the same for a spawned child (the editor), which first starts an interpreter and imports
#: pydantic and the link model (~0.35 s) and reads its half's bytes from a pipe; at 1.2M links
#: File > Open took 3,133-3,210 ms with 0.50, 3,217-3,315 ms with 0.56 and 3,325-3,329 ms with
#: 0.44 (planes2, `bench_canvas.py --designs planes2`, alternated)
SPAWNED_HEAD_SHARE = 0.50


class TooMany(ValueError):
    """A section has more objects than a design may hold (found before they are all made)."""

    def __init__(self, section: str, count: int) -> None:
        super().__init__(f"{count} {section}")
        self.section = section
        self.count = count


def validate_in_pieces(raw: bytes, piece_bytes: int = PIECE_BYTES, halves: bool = False,
                       known: KnownLinks | None = None) -> tuple[Fabric, LinkColumns] | None:
    """The file's Fabric (its `links` empty) and its links as validated columns; None when the
    file is not laid out for it.  Raises pydantic's ValidationError (or ValueError) when a piece
    or a column does not validate.  `halves` (a single-threaded, short-lived process: the
    CLI): a big links section's second half is read in a forked child meanwhile
    (`_link_columns`).  `known`: the links of another revision, whose lines this file's
    identical lines take their values from (`_relative_columns`)."""
    open_at = raw.find(_OPEN)
    if open_at < 0:
        return None
    first = open_at + len(_OPEN) - 1  # the brace of the first link
    close_at = _links_end(raw, first)
    try:
        return _read(raw, first, close_at, piece_bytes, halves, known)
    except TooMany:
        raise
    except ValueError:  # pydantic's ValidationError too
        exact = raw.find(_CLOSE, first)
        if exact == close_at:
            raise
        # another array between the links and the workloads key: read up to the links' own end
        return _read(raw, first, exact, piece_bytes, halves, known)


def _read(raw: bytes, first: int, close_at: int, piece_bytes: int, halves: bool,
          known: KnownLinks | None = None) -> tuple[Fabric, LinkColumns] | None:
    if close_at < 0:
        return None
    end = close_at + 1  # after the brace of the last link
    if raw.count(b'"links"', 0, first) + raw.count(b'"links"', end) != 1:
        return None  # "links" elsewhere too (a second key?): only the whole file says which counts
    def too_many() -> None:  # a byte scan: ~0.1 s for 1.2M links
        count = raw.count(OBJECT_SEPARATOR, first, end) + 1
        if count > MAX_LINKS:  # said before a link is parsed (parsing 3M took ~10 s and ~1 GB)
            raise TooMany("links", count)

    def the_rest() -> Fabric:  # the file but its links, validated as a whole
        return Fabric.model_validate_json(raw[:first] + b"]" + raw[close_at + len(_CLOSE):])

    if known is None:
        return _link_columns(raw, first, end, piece_bytes, halves, too_many, the_rest)
    too_many()
    fabric = the_rest()
    relative = _relative_columns(raw, first, end, known)
    if relative is None:
        relative = _link_columns(raw, first, end, piece_bytes, False, lambda: None, lambda: fabric)[1]
    return fabric, relative


class KnownLinks:
    """The links of a file read before (`known_links`), for reading a revision of it: each of
    its link lines (the text between two `,\n    {`, row by row of the columns it was read
    into) and those columns."""

    def __init__(self, lines: list[bytes], columns: LinkColumns) -> None:
        self.lines = lines
        self.columns = columns
        self._row: dict[bytes, int] | None = None

    @property
    def row(self) -> dict[bytes, int]:
        """Line -> its row (made when the revision's lines are not where these are)."""
        if self._row is None:
            self._row = dict(zip(self.lines, range(len(self.lines)), strict=True))
        return self._row


def known_links(raw: bytes, columns: LinkColumns | None) -> KnownLinks | None:
    """The links of the file `raw`, read (in pieces) into `columns`, by line; None when its
    lines are not one link each (then nothing is taken from it)."""
    open_at = raw.find(_OPEN)
    if columns is None or open_at < 0:
        return None
    first = open_at + len(_OPEN) - 1
    close_at = _links_end(raw, first)
    if close_at < 0:
        return None
    # a line starts a link (the separator ends with its brace): as many lines as links, each
    # line is one link, in row order
    lines = raw[first + 1:close_at + 1].split(OBJECT_SEPARATOR)
    return KnownLinks(lines, columns) if len(lines) == columns.n else None


def _relative_columns(raw: bytes, first: int, end: int, known: KnownLinks) -> LinkColumns | None:
    """The links between `first` and `end`, a line that is byte for byte a line of `known`
    taking that link's validated values (the same text parses and validates to the same
    values), the other lines parsed and validated together; None when more than half the
    lines are new, or anything fails (the file is then read whole, which says what is wrong).
    Lines are compared where they stand first (a revision a few edits apart: no look-up),
    else looked up by their text.

    Two revisions of a 300k-link design one edit apart share all their lines but one: ~0.1 s
    instead of ~0.6 s of parsing and validating."""
    lines = raw[first + 1:end].split(OBJECT_SEPARATOR)
    n_known = known.columns.n
    if len(lines) == n_known:
        changed = list(compress(range(n_known), map(ne, lines, known.lines)))
        if len(changed) * 2 <= n_known:
            fresh = _validated_lines([lines[i] for i in changed])
            return None if fresh is None else _patched(known.columns, changed, fresh)
    rows = list(map(known.row.get, lines))
    missing = [line for line, row in zip(lines, rows, strict=True) if row is None]
    if len(missing) * 2 > len(lines):
        return None
    fresh = _validated_lines(missing)
    if fresh is None:
        return None
    added = iter(range(n_known, n_known + len(missing)))
    at = [next(added) if row is None else row for row in rows]
    merged: dict[str, list[Any] | None] = {}
    for name in FIELDS:
        before, new = known.columns.values[name], fresh[name]
        if before is None and new is None:
            merged[name] = None
            continue
        values = ((before if before is not None else [DEFAULTS[name]] * n_known)
                  + (new if new is not None else [DEFAULTS.get(name)] * len(missing)))
        merged[name] = list(map(values.__getitem__, at))
    return LinkColumns(merged)


def _validated_lines(lines: list[bytes]) -> dict[str, list[Any] | None] | None:
    """Link lines (without their opening brace) as validated columns; None when they are not
    one link each or do not validate."""
    if not lines:
        return dict.fromkeys(FIELDS)
    try:
        parsed = from_json(b"[{" + b",{".join(lines) + b"]", cache_strings="all")
        if not isinstance(parsed, list) or len(parsed) != len(lines):
            return None
        return LinkColumns.validated(columns_from_rows(iter([parsed]))).values
    except ValueError:  # pydantic's ValidationError too
        return None


def _patched(known: LinkColumns, changed: list[int], fresh: dict[str, list[Any] | None]) -> LinkColumns:
    """`known`'s columns with the rows `changed` given the values `fresh` (in that order)."""
    merged: dict[str, list[Any] | None] = {}
    for name in FIELDS:
        before, new = known.values[name], fresh[name]
        if before is None and new is None:
            merged[name] = None
            continue
        column = list(before) if before is not None else [DEFAULTS[name]] * known.n
        values = new if new is not None else [DEFAULTS.get(name)] * len(changed)
        for row, value in zip(changed, values, strict=True):
            column[row] = value
        merged[name] = column
    return LinkColumns(merged)


def _link_columns(raw: bytes, first: int, end: int, piece_bytes: int, halves: bool,
                  too_many: Callable[[], None], the_rest: Callable[[], Fabric]
                  ) -> tuple[Fabric, LinkColumns]:
    """`the_rest()` (the file but its links) and the links between `first` and `end` as
    validated columns, once `too_many()` (which raises TooMany) passed.  With `halves`, above
    `HALVES_BYTES` and where a fork helps (aicnet_gui/forked.py): the second half (from the
    first link that starts past `HEAD_SHARE` of it, `SPAWNED_HEAD_SHARE` for a spawned child)
    parsed and validated in a child while this process counts the links (the child, started
    first, is stopped when there are too many), validates the rest of the file and then the
    first half, and the two joined.  Columns are validated value by value, so the halves
    validate as the whole does; a failure is the one of reading alone: too many links first,
    then the rest of the file's, then the first half's (the child's half is then done here, to
    raise its own)."""
    forking = fork_useful()
    share = HEAD_SHARE if forking else SPAWNED_HEAD_SHARE
    middle = raw.find(OBJECT_SEPARATOR, first + int((end - first) * share), end) \
        if halves and end - first > HALVES_BYTES else -1
    if middle < 0:
        too_many()
        fabric = the_rest()
        return fabric, LinkColumns.validated(columns_from_rows(_pieces(raw, first, end, piece_bytes)))
    second = middle + len(LINE_SEPARATOR)
    with _second_half(raw, second, end, piece_bytes, forking) as pending:
        too_many()  # the child's start goes first: it is the longer of the two
        fabric = the_rest()
        head = _validated_columns(raw, first, middle, piece_bytes)
        tail = pending.result()
    if tail is None:
        tail = _validated_columns(raw, second, end, piece_bytes)
    return fabric, LinkColumns(_joined(head, tail))


def _second_half(raw: bytes, start: int, end: int, piece_bytes: int,
                 forking: bool) -> Forked[dict[str, list[Any] | None]] | Spawned[dict[str, list[Any] | None]]:
    """The links between `start` and `end` read in a child: forked where that is safe (the
    CLI: it has the file's bytes already), else spawned with those bytes (the editor, whose Qt
    threads forbid a fork: aicnet_gui/spawned.py); `result()` None when neither can run."""
    if forking:
        return Forked(partial(_validated_columns, raw, start, end, piece_bytes))
    return Spawned(_validated_columns, pickle.PickleBuffer(memoryview(raw)[start:end]), 0,
                   end - start, piece_bytes)


def _validated_columns(raw: bytes, start: int, end: int, piece_bytes: int) -> dict[str, list[Any] | None]:
    return LinkColumns.validated(columns_from_rows(_pieces(raw, start, end, piece_bytes))).values


def _joined(head: dict[str, list[Any] | None], tail: dict[str, list[Any] | None]) -> dict[str, list[Any] | None]:
    """Two halves' columns as one: a field one half has no link with takes its default there
    (what reading the whole gives), a field neither has stays None.  The head's lists are
    extended (they are this caller's own): a concatenation's new lists, and the old ones freed,
    took ~40 ms more at 1.2M links."""
    sizes = (len(head["id"]), len(tail["id"]))  # type: ignore[arg-type]
    joined: dict[str, list[Any] | None] = {}
    for name in FIELDS:
        first, second = head[name], tail[name]
        if first is None and second is None:
            joined[name] = None
            continue
        column = first if first is not None else [DEFAULTS[name]] * sizes[0]
        column += second if second is not None else repeat(DEFAULTS[name], sizes[1])
        joined[name] = column
    return joined


def _links_end(raw: bytes, first: int) -> int:
    """Where the links section ends (its `}\\n  ]`), -1 when nowhere after `first`.  In aicnet's
    layout the workloads follow the links: their key is found from the end of the file (the
    embedded catalog and the workloads are short), not by reading all the links' bytes; a raw
    line break cannot be inside a string, so only a top-level key starts a line with `  "`.
    (In a file laid out otherwise, another array may end there: its pieces then fail to parse
    and `validate_in_pieces` reads up to the first `}\\n  ]` after the links instead.)"""
    workloads = raw.rfind(_WORKLOADS)
    if workloads > first and raw.startswith(_CLOSE, workloads - len(_CLOSE)):
        return workloads - len(_CLOSE)
    return raw.find(_CLOSE, first)


def _pieces(raw: bytes, first: int, end: int, piece_bytes: int) -> Iterator[list[dict[str, Any]]]:
    """The links between `first` and `end`, parsed a piece of whole links at a time; TooMany
    as soon as the pieces hold more than a design may (before the rest is parsed)."""
    start = first
    count = 0
    while start < end:
        cut = raw.find(OBJECT_SEPARATOR, min(start + piece_bytes, end), end)
        if cut < 0:
            cut = end
        # pydantic's JSON parser, its string cache on: a device id or port name read again is
        # the string read before (~16k devices for ~600k link ends: less memory, and the
        # document's and the analysis' look-ups then hash each string once)
        rows = from_json(b"[" + raw[start:cut] + b"]", cache_strings="all")
        count += len(rows) if isinstance(rows, list) else 1
        if count > MAX_LINKS:
            raise TooMany("links", raw.count(OBJECT_SEPARATOR, first, end) + 1)
        yield rows
        start = cut + len(LINE_SEPARATOR)
