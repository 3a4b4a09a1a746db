"""The in-memory catalog: device models, transceivers and cable assemblies by id (no file I/O).

`aicnet_gui.catalog` fills it from YAML files; a fabric document embeds the entries it uses so
that a shared file opens anywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .catalog_entities import CableAssembly, CatalogEntry, DeviceModel, Transceiver


class UnknownCatalogId(KeyError):
    """A catalog id that no loaded catalog knows."""

    def __init__(self, kind: str, entry_id: str) -> None:
        super().__init__(entry_id)
        self.kind = kind
        self.entry_id = entry_id

    def __str__(self) -> str:
        return f"unknown {self.kind} catalog id {self.entry_id!r}"


class Catalog:
    """All catalog entries by id; later additions override earlier ones with the same id."""

    def __init__(self, entries: Iterable[CatalogEntry] = ()) -> None:
        self.devices: dict[str, DeviceModel] = {}
        self.transceivers: dict[str, Transceiver] = {}
        self.cables: dict[str, CableAssembly] = {}
        self.origin: dict[str, str] = {}
        for entry in entries:
            self.add(entry)

    def add(self, entry: CatalogEntry, origin: str = "") -> None:
        table = self._table_for(entry)
        table[entry.id] = entry
        if origin:
            self.origin[entry.id] = origin

    def _table_for(self, entry: CatalogEntry) -> dict:
        if isinstance(entry, DeviceModel):
            return self.devices
        if isinstance(entry, Transceiver):
            return self.transceivers
        return self.cables

    def merged(self, other: Catalog) -> Catalog:
        """A new catalog with `other`'s entries laid over this one's."""
        result = Catalog(self)
        result.origin = {**self.origin, **other.origin}
        for entry in other:
            result.add(entry)
        return result

    def __iter__(self) -> Iterator[CatalogEntry]:
        yield from self.devices.values()
        yield from self.transceivers.values()
        yield from self.cables.values()

    def __len__(self) -> int:
        return len(self.devices) + len(self.transceivers) + len(self.cables)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self.devices or entry_id in self.transceivers or entry_id in self.cables

    def get(self, entry_id: str) -> CatalogEntry | None:
        return (
            self.devices.get(entry_id)
            or self.transceivers.get(entry_id)
            or self.cables.get(entry_id)
        )

    def device(self, entry_id: str) -> DeviceModel:
        try:
            return self.devices[entry_id]
        except KeyError:
            raise UnknownCatalogId("device", entry_id) from None

    def transceiver(self, entry_id: str) -> Transceiver:
        try:
            return self.transceivers[entry_id]
        except KeyError:
            raise UnknownCatalogId("transceiver", entry_id) from None

    def cable(self, entry_id: str) -> CableAssembly:
        try:
            return self.cables[entry_id]
        except KeyError:
            raise UnknownCatalogId("cable", entry_id) from None

    def subset(self, ids: Iterable[str]) -> Catalog:
        """The entries named by `ids` (unknown ids are skipped)."""
        result = Catalog()
        for entry_id in ids:
            entry = self.get(entry_id)
            if entry is not None:
                result.add(entry)
        return result
