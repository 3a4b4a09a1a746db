"""The BOM delta between two revisions: devices by model, transceivers per part and cables per
part x ordered length, each line as (before, after).  Both sides come from
`analysis.bom.compute_bom` (the same count as `aicnet bom`), never from a second count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..analysis.bom import Bom, compute_bom
from ..model.document import FabricDocument

SECTIONS = ("devices", "transceivers", "cables")


@dataclass(frozen=True)
class BomLineDelta:
    section: str  # devices | transceivers | cables
    part: str  # catalog id; cables as PART@LENGTH
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before

    def to_json(self) -> dict[str, Any]:
        return {"part": self.part, "before": self.before, "after": self.after, "delta": self.delta}


@dataclass(frozen=True)
class BomDelta:
    before: Bom
    after: Bom
    lines: tuple[BomLineDelta, ...] = field(default=())

    @property
    def empty(self) -> bool:
        return not self.lines

    def section(self, name: str) -> list[BomLineDelta]:
        return [line for line in self.lines if line.section == name]

    @property
    def power_delta_w(self) -> float:
        return round(self.after.power_w - self.before.power_w, 1)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {name: [line.to_json() for line in self.section(name)]
                                for name in SECTIONS}
        data["power_w"] = {"before": self.before.power_w, "after": self.after.power_w,
                           "delta": self.power_delta_w}
        return data


def _counts(bom: Bom, section: str) -> dict[str, int]:
    return {"devices": bom.devices_by_model, "transceivers": bom.transceivers,
            "cables": bom.cables}[section]


def delta_of(before: Bom, after: Bom) -> BomDelta:
    lines = []
    for section in SECTIONS:
        a, b = _counts(before, section), _counts(after, section)
        for part in sorted(set(a) | set(b)):
            if a.get(part, 0) != b.get(part, 0):
                lines.append(BomLineDelta(section, part, a.get(part, 0), b.get(part, 0)))
    return BomDelta(before, after, tuple(lines))


def bom_delta(old: FabricDocument, new: FabricDocument) -> BomDelta:
    return delta_of(compute_bom(old), compute_bom(new))
