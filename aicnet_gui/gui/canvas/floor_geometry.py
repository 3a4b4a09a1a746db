"""Where racks and RU slots are on the Floor canvas, and the floor place under a point.

Racks are drawn as elevations, so the floor rows are stacked on the page in floor order (each
distinct floor y is one row, one row pitch apart: the tallest rack plus an aisle) while x keeps
the floor's scale (one tile per rack, `lengths.rack_width_m` wide).  `FloorGrid` answers both
ways: a rack's origin and a device's slots from the model (the mirror places the items there),
and the floor position and RU under a point (a drag drops there).  The row table is cached per
document revision.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF

from ...model.document import FabricDocument
from ...model.fabric import Rack
from ...model.floor import rack_floor_xy
from .floor_items import AISLE, FOOTER, HEADER, PITCH_X, RACK_W, RAIL, RU_PX


class FloorGrid:
    """Rack origins, RU slots and floor positions of one document on the Floor canvas."""

    def __init__(self, document: Callable[[], FabricDocument]) -> None:
        self._document = document
        self._pitch = 0.0
        self._rows: list[float] = []
        self._row_index: dict[float, int] = {}
        self._key: tuple[int, int] | None = None

    def _refresh(self) -> None:
        """Row pitch (tallest rack plus an aisle) and the floor rows, cached per revision."""
        doc = self._document()
        if self._key == (id(doc), doc.revision):
            return
        tallest = max((r.height_ru for r in doc.racks.values()), default=48)
        self._pitch = HEADER + tallest * RU_PX + FOOTER + AISLE
        params = doc.settings.lengths
        self._rows = sorted({round(rack_floor_xy(r, params)[1], 3) for r in doc.racks.values()})
        self._row_index = {y: k for k, y in enumerate(self._rows)}
        self._key = (id(doc), doc.revision)

    def rack_origin(self, rack: Rack) -> QPointF:
        self._refresh()
        params = self._document().settings.lengths
        x_m, y_m = rack_floor_xy(rack, params)
        row = self._row_index.get(round(y_m, 3), 0)
        return QPointF(x_m / params.rack_width_m * PITCH_X, row * self._pitch)

    def floor_target(self, pos: QPointF) -> tuple[float, float]:
        """The floor position (x, y in metres) for a rack dropped with its top-left at `pos`:
        the nearest tile along the row, and the row under it (a new row past the last one)."""
        self._refresh()
        params = self._document().settings.lengths
        x_m = max(0, round(pos.x() / PITCH_X)) * params.rack_width_m
        k = max(0, round(pos.y() / self._pitch))
        rows = self._rows or [0.0]
        y_m = rows[k] if k < len(rows) else rows[-1] + (k - len(rows) + 1) * params.row_pitch_m
        return round(x_m, 3), round(y_m, 3)

    def device_slot_rect(self, rack: Rack, ru: int, height_ru: int,
                         origin: QPointF | None = None) -> QRectF:
        """The slots of a device of `height_ru` at `ru` in `rack` (whose origin the caller may
        already know: a relayout places 18,000 devices in 3,600 racks)."""
        origin = origin if origin is not None else self.rack_origin(rack)
        top = origin.y() + HEADER + (rack.height_ru - (ru - 1) - max(height_ru, 1)) * RU_PX
        return QRectF(origin.x() + RAIL, top, RACK_W - 2 * RAIL, max(height_ru, 1) * RU_PX)

    def ru_at(self, rack: Rack, y: float, height_ru: int) -> int:
        """The RU whose slot is at scene height `y` for a device whose top edge is at y."""
        body_top = self.rack_origin(rack).y() + HEADER
        slots_from_top = round((y - body_top) / RU_PX)
        return rack.height_ru - slots_from_top - max(height_ru, 1) + 1
