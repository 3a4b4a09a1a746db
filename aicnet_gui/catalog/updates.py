"""Catalog entries of a design that differ from the catalog on this machine, and the catalog
with them updated.

A `.fabric` file embeds the entries it was designed with, so it opens anywhere and its entries
win over the local catalog (a design does not change because someone's catalog did).  When the
local catalog has newer data for a part the design uses (a price, a corrected power figure),
`entry_updates` lists the differences and `updated_catalog` gives the document's catalog with
the chosen entries taken from the local one; `ReplaceCatalog` applies it as one edit, checked
against the whole design.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..model.catalog import Catalog
from ..model.document import FabricDocument


@dataclass(frozen=True)
class EntryUpdate:
    """One used entry whose local version differs: which fields differ."""

    entry_id: str
    kind: str
    fields: tuple[str, ...]

    def describe(self) -> str:
        return f"{self.kind} {self.entry_id}: {', '.join(self.fields)}"


def entry_updates(doc: FabricDocument, local: Catalog) -> list[EntryUpdate]:
    """The entries `doc` uses whose version in `local` differs from the document's."""
    updates = []
    for entry_id in sorted(doc.used_catalog_ids()):
        mine, theirs = doc.catalog.get(entry_id), local.get(entry_id)
        if mine is None or theirs is None or mine is theirs or mine.kind != theirs.kind:
            continue
        old, new = mine.model_dump(), theirs.model_dump()
        if old != new:
            fields = tuple(name for name in old if old[name] != new.get(name))
            updates.append(EntryUpdate(entry_id, mine.kind, fields))
    return updates


def updated_catalog(doc: FabricDocument, local: Catalog, ids: Iterable[str]) -> Catalog:
    """The document's catalog with the entries `ids` taken from `local`."""
    result = Catalog(doc.catalog)
    result.origin = dict(doc.catalog.origin)
    for entry_id in ids:
        entry = local.get(entry_id)
        if entry is not None:
            result.add(entry)
            result.origin[entry_id] = local.origin.get(entry_id, "local")
    return result
