"""NVL72 compute trays are ordered and powered as their racks: the bill of materials lists the
racks they fill, counts the rack's stated power (a GB300 NVL72 rack: up to 142 kW, NVL72 AI
Factory RA) instead of leaving the trays out of the power total, and leaves a rack whose power
no document states (DGX GB200 NVL72) unknown rather than guessing."""

from __future__ import annotations

from aicnet_gui.analysis import compute_bom
from aicnet_gui.cli import main
from aicnet_gui.fileio import save_fabric
from aicnet_gui.generators import RailOptimizedParams, TwoTierParams, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.power import optic_watts
from aicnet_gui.report.bom_lines import bom_tables
from aicnet_gui.report.cables import build_plan

GB200, GB300 = "nvidia-gb200-nvl72-compute-tray", "nvidia-gb300-nvl72-compute-tray"


def _generated(catalog, params) -> FabricDocument:  # noqa: ANN001
    doc = FabricDocument(catalog)
    generate(doc, params)
    return doc


def test_gb300_trays_are_ordered_and_powered_as_nvl72_racks(catalog, tmp_path, capsys):
    doc = _generated(catalog, RailOptimizedParams(sus=2, server=GB300, leaf="nvidia-q3400-ra"))
    bom = compute_bom(doc)
    assert bom.rack_systems == {"GB300 NVL72 rack": 8}
    assert GB300 not in bom.power_unknown
    switches = [d for d in doc.devices.values() if d.model != GB300]
    # the Q3400-RA counts at its 7 kW maximum with active cables, which includes its optics
    switch_w = sum(catalog.device(d.model).power_max_w for d in switches)
    switch_optics = optic_watts(catalog, [c.transceiver for d in switches
                                          for c in d.cages.values() if c.transceiver])
    # the racks' stated 142 kW includes the optics in their trays: not added again
    assert bom.power_w == round(8 * 142_000 + switch_w, 1)

    tables = bom_tables(doc, build_plan(doc), bom)
    (rack,) = tables.rack_systems
    assert (rack.part, rack.quantity, rack.unit_power_w) == ("GB300 NVL72 rack", 8, None)
    assert "142 kW stated per rack, counted on its trays" in rack.note
    tray = next(line for line in tables.devices if line.key == GB300)
    assert tray.power_w == 8 * 142_000 and "in 8 GB300 NVL72 racks" in tray.note
    tray_optics = sum(catalog.transceiver(c.transceiver).power_w for d in doc.devices.values()
                      if d.model == GB300 for c in d.cages.values() if c.transceiver)
    assert tray_optics > 0 and tables.included_optic_w == tray_optics + switch_optics

    path = tmp_path / "gb300.fabric"
    save_fabric(doc, path, keep_backup=False)
    assert main(["bom", str(path)]) == 0
    assert "in rack-scale systems: 8 GB300 NVL72 racks" in capsys.readouterr().out


def test_a_rack_whose_power_no_document_states_stays_unknown(catalog):
    doc = _generated(catalog, TwoTierParams(servers=72, server=GB200, leaf="nvidia-qm9700"))
    bom = compute_bom(doc)
    assert bom.rack_systems == {"DGX GB200 NVL72 rack": 4}
    assert GB200 in bom.power_unknown
    tables = bom_tables(doc, build_plan(doc), bom)
    (rack,) = tables.rack_systems
    assert rack.quantity == 4 and rack.unit_power_w is None


def test_a_tray_with_its_own_power_figure_is_counted_once(catalog):
    """A user catalog entry giving the tray its own maximum: the trays count at it (with their
    optics), the rack's stated power is not added on top, in the CLI total and the PDF alike."""
    from aicnet_gui.model.catalog import Catalog
    from aicnet_gui.report.bom_pages import _power

    own = Catalog(catalog)
    own.add(catalog.device(GB300).model_copy(update={"power_max_w": 6000.0}))
    doc = _generated(own, TwoTierParams(servers=36, server=GB300, leaf="nvidia-q3400-ra"))
    bom = compute_bom(doc)
    optics = optic_watts(own, [c.transceiver for d in doc.devices.values()
                               for c in d.cages.values() if c.transceiver])
    switches = sum(own.device(d.model).power_max_w for d in doc.devices.values()
                   if d.model != GB300)  # Q3400-RA: 7 kW with active cables, optics included
    tray_optics = optic_watts(own, [c.transceiver for d in doc.devices.values() if d.model == GB300
                                    for c in d.cages.values() if c.transceiver])
    assert tray_optics < optics
    assert bom.power_w == round(36 * 6000 + switches + tray_optics, 1)
    tables = bom_tables(doc, build_plan(doc), bom)
    assert _power(tables.devices) == f"{36 * 6000 + switches:,.0f} W"
    assert tables.included_optic_w == optics - tray_optics  # only the switches' optics
    (rack,) = tables.rack_systems
    assert "counted on its trays" not in rack.note
