"""A generated design's topology picture is a block the fitted view can show, not a strip: one or
two SUs of DGX B300 (wide 144-port leaves, or a two-plane SU's 16 leaves) used to lay out at
8:1 to 37:1, which the canvas fitted as a thin bar with the SU titles hidden."""

from __future__ import annotations

import pytest

from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.generators.canvas_layout import panel_size
from aicnet_gui.generators.template_params import FloorParams
from aicnet_gui.model.document import FabricDocument

B300_FLOOR = FloorParams(rack_power_kw=61)


def _picture(doc: FabricDocument) -> tuple[float, float]:
    """Width and height of the box around every device as placed."""
    boxes = []
    for device in doc.devices.values():
        width, height = panel_size(doc.catalog.devices[device.model])
        x, y = device.position
        boxes.append((x, y, x + width, y + height))
    return (max(b[2] for b in boxes) - min(b[0] for b in boxes),
            max(b[3] for b in boxes) - min(b[1] for b in boxes))


def _generated(catalog, params: RailOptimizedParams) -> FabricDocument:
    doc = FabricDocument(catalog)
    generate(doc, params)
    return doc


@pytest.mark.parametrize("params", [
    RailOptimizedParams(sus=1, server="nvidia-dgx-b300", leaf="nvidia-q3400-ra", floor=B300_FLOOR),
    RailOptimizedParams(sus=2, server="nvidia-dgx-b300", leaf="nvidia-q3400-ra", floor=B300_FLOOR),
    RailOptimizedParams(sus=1, server="nvidia-dgx-b300", leaf="nvidia-sn5610", planes=2,
                        floor=B300_FLOOR),
    RailOptimizedParams(sus=2, server="nvidia-dgx-b300", leaf="nvidia-sn5610", planes=2,
                        floor=B300_FLOOR),
    RailOptimizedParams(sus=2, server="nvidia-gb300-nvl72-compute-tray", leaf="nvidia-q3400-ra"),
    RailOptimizedParams(sus=2),
], ids=["b300-xdr-1su", "b300-xdr-2su", "b300-2-plane-1su", "b300-2-plane-2su", "gb300-2su",
        "h100-2su"])
def test_one_or_two_sus_lay_out_as_a_block(catalog, params):
    width, height = _picture(_generated(catalog, params))
    assert width / height <= 4.0, f"{width:.0f} x {height:.0f}"


def test_an_h100_su_keeps_its_eight_rail_leaves_in_one_row(catalog):
    doc = _generated(catalog, RailOptimizedParams(sus=1))
    leaf_rows = {device.position[1] for device in doc.devices.values() if device.role == "leaf"}
    assert len(leaf_rows) == 1


def test_wide_leaves_wrap_into_rows_of_four(catalog):
    doc = _generated(catalog, RailOptimizedParams(sus=1, server="nvidia-dgx-b300",
                                                  leaf="nvidia-q3400-ra", floor=B300_FLOOR))
    rows: dict[float, int] = {}
    for device in doc.devices.values():
        if device.role == "leaf":
            rows[device.position[1]] = rows.get(device.position[1], 0) + 1
    assert sorted(rows.values()) == [4, 4]
