"""A mutable id -> row map over a read-only one, without copying it.

The Topology's link layer finds a cable's row by its id.  After an open its rows are the
document's loaded links in their order, whose id -> row map the document already holds
(`LinkTable.loaded_order`, 1.2M entries at 200,000 GPUs: ~65 MB as a second dict).
`SharedIndex` reads that map and keeps only what changed since (a cable added, moved to
another row or removed) in its own small dict.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping

#: `_own`'s value for an id removed from the shared map
_GONE = -1


class SharedIndex(MutableMapping[str, int]):
    """Id -> row: `base` (never changed, not copied) with this map's changes on top."""

    __slots__ = ("_base", "_own", "_gone")

    def __init__(self, base: Mapping[str, int]) -> None:
        self._base = base
        self._own: dict[str, int] = {}  # ids set since (a row), or _GONE for a base id removed
        self._gone = 0  # base ids removed and not set again

    def __getitem__(self, key: str) -> int:
        row = self._own.get(key)
        if row is None:
            return self._base[key]
        if row == _GONE:
            raise KeyError(key)
        return row

    def get(self, key: str, default: int | None = None) -> int | None:  # type: ignore[override]
        row = self._own.get(key)
        if row is None:
            return self._base.get(key, default)
        return default if row == _GONE else row

    def __contains__(self, key: object) -> bool:
        row = self._own.get(key)  # type: ignore[call-overload]
        return key in self._base if row is None else row != _GONE

    def __setitem__(self, key: str, row: int) -> None:
        if row < 0:
            raise ValueError(f"row {row} of {key!r}: rows are >= 0")
        if self._own.get(key) == _GONE:
            self._gone -= 1
        self._own[key] = row

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        if key in self._base:
            self._own[key] = _GONE
            self._gone += 1
        else:
            del self._own[key]

    def __iter__(self) -> Iterator[str]:
        own = self._own
        for key in self._base:
            if key not in own:
                yield key
        for key, row in own.items():
            if row != _GONE:
                yield key

    def __len__(self) -> int:
        added = sum(1 for key, row in self._own.items() if row != _GONE and key not in self._base)
        return len(self._base) - self._gone + added
