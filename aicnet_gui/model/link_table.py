"""The links of a document: a mapping of link id -> `Link` whose loaded part is held as columns.

A 100,000-GPU design has ~300k links.  Made into 300k `Link` objects (and 600k `Endpoint`s) by
pydantic, they were half of opening the file, and every full analysis, scene and save then read
them back attribute by attribute.  So the links an opened file holds stay as what they were read
as, one list per field (`LinkColumns`, validated by pydantic column by column); a `Link` object
is made only when someone asks for that link (and kept, so the same link is the same object
afterwards, in this table and its copies).  The readers that walk every link (the analysis store,
the scene, the save, the catalog ids a design uses) take the columns (`columns`) without making
any object.

`LinkTable` reads like the dict it replaces (ids in order, `[]`, `get`, `in`, `len`, `values`,
`items`, equality with a dict), and changes only through the document's mutation API: `put` a
link (added, or a new value of one), `remove` one.  The order is a dict's: a new value keeps its
link's place, a new link goes last; a removed link put back as the very object that was loaded
(an undo) takes its loaded place again, so a save writes it where it was.

For the line cache of the file writer (fileio/line_cache.py), `tokens()` names every link by an
object that stays the same while the link does: a loaded link still as loaded by its id as read
(the very string object of its row, unique to it), any other by its `Link`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from functools import cache, partial
from itertools import chain, compress, filterfalse, islice, repeat
from operator import attrgetter, is_not, itemgetter
from typing import Annotated, Any

from pydantic import TypeAdapter
from pydantic_core import SchemaValidator, core_schema

from ..gc_control import gc_paused
from .fabric import ENDPOINT_PAIR_SCHEMA, Endpoint, Link
from .values import positional_maker

#: the fields of a link, in the model's (and the file's) order: id, a, b, then the optional ones
FIELDS: tuple[str, ...] = tuple(Link.model_fields)
assert FIELDS[:3] == ("id", "a", "b")
REQUIRED: frozenset[str] = frozenset(n for n, f in Link.model_fields.items() if f.is_required())
DEFAULTS: dict[str, Any] = {n: f.default for n, f in Link.model_fields.items() if not f.is_required()}

_ENDS = ("a", "b")
_as_endpoint = partial(tuple.__new__, Endpoint)  # a (device, port) pair as an Endpoint, in C


def _column_validator(name: str) -> Any:
    """A pydantic validator of one field's column: a list of that field's values, each checked
    as the `Link` model checks the field (a link's ends as plain (device, port) tuples)."""
    if name in _ENDS:
        return SchemaValidator(core_schema.list_schema(ENDPOINT_PAIR_SCHEMA))
    field = Link.model_fields[name]
    item = Annotated[field.annotation, *field.metadata] if field.metadata else field.annotation
    return TypeAdapter(list[item]).validator


_VALIDATORS = {name: _column_validator(name) for name in FIELDS}
#: see `LinkColumns.scan_instead`
SCANS_BEFORE_ROW = 8


class LinkColumns:
    """The links of an opened file, one list per field (a field no link sets is None), and the
    row of each id.  Never changed once made (but for `absent`, set by the load that made it):
    tables and their copies share it."""

    __slots__ = ("n", "ids", "values", "_row", "_row_part", "_present", "_made", "_scans", "absent")

    def __init__(self, values: dict[str, list[Any] | None]) -> None:
        self.ids: list[str] = values["id"]  # type: ignore[assignment]
        self.n = len(self.ids)
        self.values = values
        self._row: dict[str, int] | None = None
        self._row_part: dict[str, int] | None = None  # `row` while `build_row` makes it
        self._scans = 0  # membership questions answered by a scan of the ids (`scan_instead`)
        #: ids known to be no row's (the document's load: the workloads' ids it checked against
        #: the link ids' set), answered without a scan
        self.absent: frozenset[str] = frozenset()
        self._present = tuple(name for name in FIELDS if values.get(name) is not None)
        # row -> its Link, once asked for (shared by every table on these columns; a dict's
        # setdefault keeps one object per row when two threads make the same row at once)
        self._made: dict[int, Link] = {}

    @property
    def row(self) -> dict[str, int]:
        """Id -> row, made on first use (a load and `aicnet validate` never ask), or
        completed when `build_row` has made part of it."""
        row = self._row
        if row is None:
            self.build_row()
            row = self._row
            assert row is not None
        return row

    def build_row(self, rows: int | None = None) -> bool:
        """Make `row` now, at most `rows` more rows a call (the editor makes it after its
        first frame, a part per turn of the event loop: ~0.3 s in one piece at 1.2M links);
        True once it is complete."""
        if self._row is not None:
            return True
        part = self._row_part if self._row_part is not None else {}
        start = len(part)
        stop = self.n if rows is None else min(self.n, start + rows)
        part.update(zip(islice(self.ids, start, stop), range(start, stop), strict=True))
        if len(part) != stop:
            raise ValueError("link ids are not unique")  # the document never loads such columns
        if stop == self.n:
            self._row, self._row_part = part, None
            return True
        self._row_part = part
        return False

    def scan_instead(self) -> bool:
        """Whether to answer "is this id a row's?" by scanning the ids (~2 ms at 300k rows)
        rather than by making `row` (~50 ms): for the first `SCANS_BEFORE_ROW` questions while
        `row` is not made (a load checks each workload's id against the links; `aicnet
        validate` asks nothing else)."""
        if self._row is not None or self._scans >= SCANS_BEFORE_ROW:
            return False
        self._scans += 1
        return True

    @classmethod
    def validated(cls, values: dict[str, list[Any] | None]) -> LinkColumns:
        """Columns read from a file (plain JSON values, a field absent from every link None),
        each validated by pydantic as the `Link` model validates that field; raises pydantic's
        ValidationError (or ValueError) at the first bad value."""
        missing = REQUIRED - {name for name, column in values.items() if column is not None}
        if missing:
            raise ValueError(f"links without {sorted(missing)[0]!r}")
        unknown = values.keys() - set(FIELDS)
        if unknown:
            raise ValueError(f"unknown link field {sorted(unknown)[0]!r}")
        checked = {name: None if column is None else _VALIDATORS[name].validate_python(column)
                   for name, column in values.items()}
        return cls(checked)

    def column(self, name: str) -> list[Any]:
        """The field's value of every row (a new list)."""
        column = self.values.get(name)
        return [DEFAULTS[name]] * self.n if column is None else list(column)

    def link(self, row: int) -> Link:
        """The `Link` of a row (the same object every time)."""
        made = self._made.get(row)
        if made is None:
            values = self.values
            fields = [values[name][row] for name in self._present]  # type: ignore[index]
            # the ends, `a` and `b`, follow the id (FIELDS: the model's order, all three required)
            fields[1], fields[2] = _as_endpoint(fields[1]), _as_endpoint(fields[2])
            made = self._made.setdefault(row, _maker(self._present)(*fields))
        return made

    def links(self, rows: list[int] | range) -> list[Link]:
        """The `Link` of each row (made in bulk where not made yet)."""
        made = self._made
        todo = list(filterfalse(made.__contains__, rows)) if made else rows
        if todo:
            values = self._present_values(todo)
            maker = _maker(self._present)
            with gc_paused():  # 300k new objects would set off collections that find nothing
                # made.setdefault: a row another thread made meanwhile keeps its object
                deque(map(made.setdefault, todo, map(maker, *values)), maxlen=0)
        return list(map(made.__getitem__, rows))

    def _present_values(self, rows: list[int] | range) -> list[Iterable[Any]]:
        """The columns of the fields some link sets, at `rows`, the ends as Endpoints."""
        everything = isinstance(rows, range) and len(rows) == self.n
        columns: list[Iterable[Any]] = []
        for name in self._present:
            column: list[Any] = self.values[name]  # type: ignore[assignment]
            picked: Iterable[Any] = column if everything else map(column.__getitem__, rows)
            columns.append(map(_as_endpoint, picked) if name in _ENDS else picked)
        return columns


@cache
def _maker(present: tuple[str, ...]) -> Any:
    return positional_maker(Link, present)


# a base row's state in a table
_GONE, _LOADED, _REPLACED = 0, 1, 2


class LinkTable(Mapping[str, Link]):
    """Link id -> Link: the loaded links as columns plus the links set since (module docstring)."""

    __slots__ = ("_base", "_state", "_kept", "_loaded", "_replaced", "_tail")

    def __init__(self, base: LinkColumns | None = None) -> None:
        self._base = base
        n = base.n if base is not None else 0
        # per base row: _GONE, _LOADED (its value is the column's) or _REPLACED (in _replaced)
        self._state = bytearray(b"\x01") * n
        self._kept = n  # base rows not gone
        self._loaded = n  # base rows still as loaded
        self._replaced: dict[str, Link] = {}  # a base row's id -> its new value
        self._tail: dict[str, Link] = {}  # links put since, not on a kept base row, in order

    @classmethod
    def of(cls, links: dict[str, Link]) -> LinkTable:
        """A table of these links (the dict is taken, not copied)."""
        table = cls()
        table._tail = links
        return table

    def copy(self) -> LinkTable:
        """A table with the same links that later changes of either do not reach."""
        other = LinkTable.__new__(LinkTable)
        other._base = self._base
        other._state = bytearray(self._state)
        other._kept, other._loaded = self._kept, self._loaded
        other._replaced = dict(self._replaced)
        other._tail = dict(self._tail)
        return other

    # ------------------------------------------------------------------ reading
    def _base_row(self, link_id: str) -> int | None:
        base = self._base
        return None if base is None else base.row.get(link_id)

    def __getitem__(self, link_id: str) -> Link:
        link = self._tail.get(link_id) or self._replaced.get(link_id)
        if link is not None:
            return link
        base = self._base
        if base is not None:
            row = base.row.get(link_id)
            if row is not None and self._state[row] == _LOADED:
                return base._made.get(row) or base.link(row)
        raise KeyError(link_id)

    def pick(self, link_ids: list[str]) -> list[Link]:
        """The links of these ids, in their order (loaded ones made together)."""
        base = self._base
        if base is None:
            return list(map(self._tail.__getitem__, link_ids))
        row, state, loaded = base.row, self._state, []
        for link_id in link_ids:
            at = row.get(link_id)
            if at is not None and state[at] == _LOADED:
                loaded.append(at)
        made = iter(base.links(loaded))
        return [next(made) if (at := row.get(link_id)) is not None and state[at] == _LOADED
                else self[link_id] for link_id in link_ids]

    def get(self, link_id: str, default: Any = None) -> Any:  # type: ignore[override]
        try:
            return self[link_id]
        except KeyError:
            return default

    def __contains__(self, link_id: object) -> bool:
        if link_id in self._tail:
            return True
        base = self._base
        if base is None or not isinstance(link_id, str) or link_id in base.absent:
            return False
        if self._kept == base.n and base.scan_instead():  # no row gone: a row's id is a link's
            return link_id in base.ids
        row = base.row.get(link_id)
        return row is not None and self._state[row] != _GONE

    def __len__(self) -> int:
        return self._kept + len(self._tail)

    def __iter__(self) -> Iterator[str]:
        base = self._base
        if base is not None:
            if self._kept == base.n:
                yield from base.ids
            else:
                yield from compress(base.ids, self._state)
        yield from self._tail

    def isdisjoint(self, link_ids: Mapping[str, Any] | set[str]) -> bool:
        """No id of `link_ids` is a link's (looped in C)."""
        if not self._tail.keys().isdisjoint(link_ids):
            return False
        base = self._base
        if base is None:
            return True
        shared = base.row.keys() & link_ids
        return not shared or not any(map(self._state.__getitem__, map(base.row.__getitem__, shared)))

    def values(self) -> list[Link]:  # type: ignore[override]
        """Every link, in order (a new list; loaded links are made on the way)."""
        base = self._base
        if base is None:
            return list(self._tail.values())
        if self._loaded == base.n:
            head = base.links(range(base.n))
        else:
            rows = list(compress(range(base.n), self._state))
            head = base.links([r for r in rows if self._state[r] == _LOADED])
            if self._replaced:  # put the replaced ones back in their places
                made = iter(head)
                replaced, ids, state = self._replaced, base.ids, self._state
                head = [next(made) if state[r] == _LOADED else replaced[ids[r]] for r in rows]
        return head + list(self._tail.values())

    def items(self) -> list[tuple[str, Link]]:  # type: ignore[override]
        return list(zip(self, self.values(), strict=True))

    def column(self, name: str) -> list[Any]:
        """One field of every link, in order (a new list; no `Link` is made for it).  The ends
        `a` and `b` are (device, port) tuples (an `Endpoint` for a link set since loading)."""
        base = self._base
        values: list[Any] = []
        if base is not None:
            values = base.column(name)
            if self._replaced:
                row = base.row
                for link_id, link in self._replaced.items():
                    values[row[link_id]] = getattr(link, name)
            if self._kept != base.n:
                values = list(compress(values, self._state))
        if self._tail:
            values += map(attrgetter(name), self._tail.values())
        return values

    def columns(self, *names: str) -> tuple[list[Any], ...]:
        return tuple(self.column(name) for name in names)

    def ids_with(self, name: str) -> list[str]:
        """The ids of the links whose field `name` is set (not None), in order; no column is
        copied when no loaded link sets it (patch panels, typed-in lengths: mostly none)."""
        base = self._base
        if base is not None and base.values.get(name) is None and not self._replaced:
            return [link.id for link in self._tail.values() if getattr(link, name) is not None]
        ids, values = self.columns("id", name)
        return list(compress(ids, map(is_not, values, repeat(None))))

    def as_loaded(self) -> LinkColumns | None:
        """The columns the table was loaded from, while it holds exactly them (no link put or
        removed since); else None."""
        base = self._base
        if base is None or self._loaded != base.n or self._tail or self._replaced:
            return None
        return base

    def loaded_order(self) -> LinkColumns | None:
        """The columns the table was loaded from while it is exactly as loaded (nothing
        changed, removed or added: its order is the columns' own), else None.  Their `row` map
        (never changed) is then every link's row: a reader that lays out the links in this
        order shares it (made when first asked, or in parts by `LinkColumns.build_row`)."""
        base = self._base
        if base is None or self._loaded != base.n or self._tail:
            return None
        return base

    def tokens(self) -> list[object]:
        """Per link, in order: its id as read while it is as loaded, else its `Link` (see the
        module docstring; the list may be the columns' own: not to be changed)."""
        base = self._base
        tokens: list[object] = []
        if base is not None:
            if self._loaded == base.n:
                tokens = base.ids  # type: ignore[assignment]
            else:
                tokens = list(base.ids)
                row = base.row
                for link_id, link in self._replaced.items():
                    tokens[row[link_id]] = link
                if self._kept != base.n:
                    tokens = list(compress(tokens, self._state))
        if self._tail:
            tokens = [*tokens, *self._tail.values()]
        return tokens

    def resolve(self, tokens: list[object]) -> list[Link]:
        """The `Link` each token of `tokens()` names (loaded ones made in bulk)."""
        base = self._base
        loaded = [isinstance(token, str) for token in tokens]
        if base is None or not any(loaded):
            return tokens  # type: ignore[return-value]
        made = iter(base.links(list(map(base.row.__getitem__, compress(tokens, loaded)))))
        return [next(made) if is_row else token  # type: ignore[misc]
                for token, is_row in zip(tokens, loaded, strict=True)]

    # ------------------------------------------------------------------ changing
    def put(self, link: Link) -> None:
        """Add `link`, or store it as the new value of the link with its id."""
        link_id = link.id
        tail = self._tail
        if link_id in tail:
            tail[link_id] = link
            return
        row = self._base_row(link_id)
        if row is None:
            tail[link_id] = link
            return
        state = self._state[row]
        as_loaded = self._base._made.get(row) is link  # type: ignore[union-attr]
        if state == _GONE and not as_loaded:
            tail[link_id] = link  # a new link with a removed one's id goes last, as in a dict
            return
        if state == _GONE:
            self._kept += 1
        elif state == _REPLACED:
            del self._replaced[link_id]
        else:
            self._loaded -= 1
        if as_loaded:
            self._state[row] = _LOADED
            self._loaded += 1
        else:
            self._state[row] = _REPLACED
            self._replaced[link_id] = link

    def put_new(self, links: dict[str, Link]) -> None:
        """Add links whose ids are no link's (a run the document checked)."""
        base = self._base
        if base is None or base.row.keys().isdisjoint(links):
            self._tail.update(links)
            return
        for link in links.values():
            self.put(link)

    def remove(self, link_id: str) -> None:
        if self._tail.pop(link_id, None) is not None:
            return
        row = self._base_row(link_id)
        state = _GONE if row is None else self._state[row]
        if state == _GONE:
            raise KeyError(link_id)
        if state == _REPLACED:
            del self._replaced[link_id]
        else:
            self._loaded -= 1
        self._state[row] = _GONE  # type: ignore[index]
        self._kept -= 1

    def __repr__(self) -> str:
        return f"LinkTable({len(self)} links)"


def columns_from_rows(rows_per_piece: Iterator[list[dict[str, Any]]]) -> dict[str, list[Any] | None]:
    """Raw columns (not validated) from pieces of JSON link objects: each field's values in
    order, a field no link has None, a link without a field its default.  Raises ValueError
    for a piece that is not a list of objects, an unknown field or a missing required one."""
    columns: dict[str, list[Any]] = {name: [] for name in FIELDS}
    seen: set[str] = set()
    count = 0
    for rows in rows_per_piece:
        if not isinstance(rows, list) or not all(map(isinstance, rows, repeat(dict))):
            raise ValueError("links are not a list of objects")
        keys = set(chain.from_iterable(rows))  # every field any link of the piece has
        unknown = keys - columns.keys()
        if unknown:
            raise ValueError(f"unknown link field {sorted(unknown)[0]!r}")
        for name in keys | REQUIRED:
            column = columns[name]
            if name not in seen:
                column += repeat(DEFAULTS.get(name), count)
                seen.add(name)
            if name in REQUIRED:
                try:
                    column += map(itemgetter(name), rows)
                except KeyError:
                    raise ValueError(f"a link without {name!r}") from None
            else:
                column += map(dict.get, rows, repeat(name), repeat(DEFAULTS[name]))
        count += len(rows)
        for name in seen - keys - REQUIRED:
            columns[name] += repeat(DEFAULTS[name], len(rows))
    return {name: (columns[name] if name in seen else None) for name in FIELDS}
