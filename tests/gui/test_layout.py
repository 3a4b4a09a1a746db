"""Generated fabrics carry positions the editor can show as they are (no re-layout on open)."""

from __future__ import annotations

from pathlib import Path

import pytest

from aicnet_gui.editing.layout import (
    canvas_size,
    lay_out_if_unusable,
    needs_layout,
    overlap_fraction,
)
from aicnet_gui.fileio import load_fabric
from aicnet_gui.generators.canvas_layout import panel_size
from aicnet_gui.gui.canvas.geometry import device_geometry
from aicnet_gui.model.fabric import Device
from tests.doc_edits import add_device

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_generators_panel_size_is_the_size_the_canvas_draws(catalog):
    for model in catalog.devices.values():
        geometry = device_geometry(model, {})
        assert panel_size(model) == (geometry.width, geometry.height), model.id


@pytest.mark.parametrize("name", ["superpod-1su", "superpod-4su", "roce-enterprise", "inference-ethernet"])
def test_generated_examples_open_without_overlaps_or_a_new_layout(catalog, name):
    doc = load_fabric(EXAMPLES / f"{name}.fabric", catalog)
    boxes = {d.id: (*d.position, *canvas_size(doc, d)) for d in doc.devices.values()}
    assert overlap_fraction(boxes) == 0
    revision = doc.revision
    assert lay_out_if_unusable(doc) is False and doc.revision == revision
    # core on top, then spines, leaves, servers at the bottom
    tops: dict[int, float] = {}
    for device in doc.devices.values():
        tier = doc.tier_of(device)
        tops[tier] = min(tops.get(tier, 1e9), device.position[1])
    tiers = sorted(tops, reverse=True)
    assert [tops[t] for t in tiers] == sorted(tops[t] for t in tiers)


def test_a_file_with_devices_on_top_of_each_other_is_laid_out_before_it_is_shown(doc):
    for n in range(6):
        model = "nvidia-sn5600" if n < 2 else "generic-hgx-8-gpu-b3140h"
        add_device(doc, Device(id=f"d{n}", name=f"dev-{n}", model=model, position=(0.0, 0.0)))
    assert needs_layout(doc, lambda d: canvas_size(doc, d))
    assert lay_out_if_unusable(doc) is True
    boxes = {d.id: (*d.position, *canvas_size(doc, d)) for d in doc.devices.values()}
    assert overlap_fraction(boxes) == 0
