"""What the legend lists in the cable and rail colour modes, kept up to date by the cables an
edit touched.

The legend of the "cable" mode lists the jacket colours the cables use, the "rail" mode the
rails; both are a function of the set of those values over all cables.  `LegendKeys` counts
the values per cable once, then follows each edit's changed cables, so an edit redraws the
legend only when that set changed (a colour or rail appeared or its last cable went), instead
of walking every cable after every edit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..model.document import FabricDocument

#: colour mode -> the link attribute its legend lists
ATTRIBUTES = {"cable": "colour", "rail": "rail"}


class LegendKeys:
    """Per cable, the value the legend of one colour mode lists; counts of each value."""

    def __init__(self) -> None:
        self.mode: str | None = None
        self._of: dict[str, Any] = {}
        self._counts: Counter[Any] = Counter()

    def forget(self) -> None:
        """A new document or mode: count again when next asked."""
        self.mode = None
        self._of.clear()
        self._counts.clear()

    def update(self, doc: FabricDocument, mode: str, link_ids: Iterable[str]) -> bool:
        """Take the changed cables into account; True when the set of values changed (the
        legend must be redrawn).  The first call for a mode counts every cable (and says
        True)."""
        attribute = ATTRIBUTES.get(mode)
        if attribute is None:
            return False
        if mode != self.mode:
            self.forget()
            self.mode = mode
            ids, values = doc.links.columns("id", attribute)
            self._of = dict(zip(ids, values, strict=True))
            self._counts.update(values)
            return True
        changed = False
        for link_id in link_ids:
            link = doc.links.get(link_id)
            new = getattr(link, attribute) if link is not None else None
            had = link_id in self._of
            old = self._of.get(link_id)
            if had and link is not None and old == new:
                continue
            if had:
                self._counts[old] -= 1
                if self._counts[old] <= 0:
                    del self._counts[old]
                    changed = True
                del self._of[link_id]
            if link is not None:
                if new not in self._counts:
                    changed = True
                self._counts[new] += 1
                self._of[link_id] = new
        return changed
