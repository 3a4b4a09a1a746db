"""One bounded memo keyed by object identity.

Many speed-ups in aicnet work something out once per shared object (a cage table, a port
table, a device geometry) and find it again by that object's identity.  `IdentityMemo` is the
one implementation: an entry holds its key object strongly, so the `id()` it is filed under
stays that object's for as long as the entry lives (no stale hit after the object dies and its
address is reused), and past `limit` entries the memo starts over (forgotten values are only
worked out again).  `limit=None` makes it a registry that keeps every entry (for owners whose
lifetime already bounds it, such as one analysis's endpoint classes).

An optional `tag` files the same object under several keys (a cage table per device model).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")


class IdentityMemo(Generic[Value]):
    """Object (by identity, optionally with a tag) -> value, bounded by `limit` entries."""

    __slots__ = ("_entries", "_limit")

    def __init__(self, limit: int | None) -> None:
        self._entries: dict[Hashable, tuple[object, Value]] = {}
        self._limit = limit

    def get(self, obj: object, tag: Hashable = None) -> Value | None:
        """The value filed for this very object (and tag), else None."""
        entry = self._entries.get(id(obj) if tag is None else (tag, id(obj)))
        return entry[1] if entry is not None and entry[0] is obj else None

    def put(self, obj: object, value: Value, tag: Hashable = None) -> Value:
        """File `value` for `obj` (and tag); returns `value`.  A full memo starts over first."""
        if self._limit is not None and len(self._entries) >= self._limit:
            self._entries.clear()
        self._entries[id(obj) if tag is None else (tag, id(obj))] = (obj, value)
        return value

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
