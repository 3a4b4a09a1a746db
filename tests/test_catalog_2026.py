"""2026 catalog entries and fields: co-packaged optics switches name a built-in engine that
exists and is co-packaged, and the schema refuses the inconsistent ones; laser source modules,
cooling, power feeds, NVLink switch trays and ConnectX-8 modes are read as the documents give
them (docs/sources-2026.md); racks keep their cooling, feeds and NVLink domain id through a
save and a load."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from aicnet_gui.fileio import load_fabric, save_fabric
from aicnet_gui.model.catalog_entities import CageGroup, DeviceModel, Technology, Transceiver
from aicnet_gui.model.fabric import Rack
from tests.doc_edits import add_device, add_rack, update_settings


def test_every_cpo_port_names_an_existing_co_packaged_engine(catalog):
    engines = {t.id for t in catalog.transceivers.values() if t.co_packaged}
    named = set()
    for model in catalog.devices.values():
        for group in model.cages:
            if group.optical_engine is None:
                continue
            engine = catalog.transceivers[group.optical_engine]
            assert engine.co_packaged and engine.form_factor == "CPO", model.id
            assert engine.port_gbps == group.native_gbps, model.id
            named.add(engine.id)
    assert named == engines  # no engine without a switch, no switch without its engine
    assert "nvidia-q3450-ld" in catalog.devices


def test_the_q3450_is_a_liquid_cooled_busbar_switch_with_18_laser_modules(catalog):
    q3450 = catalog.device("nvidia-q3450-ld")
    fabric = q3450.cages[0]
    assert (fabric.count, fabric.form_factor, fabric.lanes, fabric.lane_gbps) == (144, "CPO", 4, 200)
    assert q3450.cooling == "liquid" and q3450.power_feeds == ["dc-busbar"]
    lasers = q3450.laser_sources()
    assert lasers is not None and lasers.count == 18 and lasers.feeds is None  # not published
    assert q3450.verified is False and q3450.height_ru == 4


def test_rack_systems_state_their_nvlink_switch_trays(catalog):
    gb300 = catalog.device("nvidia-gb300-nvl72-compute-tray").rack_system
    gb200 = catalog.device("nvidia-gb200-nvl72-compute-tray").rack_system
    assert gb300.switch_trays == 9 and gb300.switch_chips_per_tray is None  # not stated for GB300
    assert gb200.switch_trays == 9 and gb200.switch_chips_per_tray == 2


def test_connectx8_modes_per_technology(catalog):
    b300 = catalog.device("nvidia-dgx-b300").cages[0]
    assert b300.modes_for(Technology.INFINIBAND) == ["1x800G", "2x400G", "4x200G"]
    assert b300.modes_for(Technology.ETHERNET) == ["2x400G", "4x200G"]
    gb300 = catalog.device("nvidia-gb300-nvl72-compute-tray").cages[0]
    assert gb300.modes_for(Technology.ETHERNET) == ["2x400G"]


def _group(**changes) -> dict:
    return {"name": "fabric", "count": 4, "form_factor": "OSFP", "lanes": 8, "lane_gbps": 200,
            "breakouts": ["1x1600G"], "default_breakout": "1x1600G", "port_names": {"1": "{cage}"},
            "interface_type": "x"} | changes


def test_the_schema_refuses_inconsistent_cpo_and_mode_entries():
    with pytest.raises(ValidationError, match="CPO"):
        CageGroup(**_group(form_factor="CPO"))  # a CPO group without its engine
    with pytest.raises(ValidationError, match="CPO"):
        CageGroup(**_group(optical_engine="x"))  # an engine on a pluggable cage
    with pytest.raises(ValidationError, match="not one of breakouts"):
        CageGroup(**_group(technology_modes={"ethernet": ["2x800G"]}))
    optic = dict(id="x", vendor="V", model="M", form_factor="OSFP", speed_gbps=800, port_gbps=800,
                 lanes_per_port=4, pmd="DR4", media="SMF", connector="MPO-12/APC",
                 reach_m={"OS2": 500}, power_w=0, technology=["infiniband"], source="s",
                 verified=False)
    with pytest.raises(ValidationError, match="form_factor CPO"):
        Transceiver(**optic, co_packaged=True)
    with pytest.raises(ValidationError, match="co_packaged"):
        Transceiver(**(optic | {"form_factor": "CPO"}))
    model = dict(id="x", vendor="V", model="M", role="spine", height_ru=1, technology=["ethernet"],
                 cages=[_group()], source="s", verified=False)
    with pytest.raises(ValidationError, match="feeds names unit 3"):
        DeviceModel(**model, replaceable_parts=[{"kind": "laser-source", "name": "ELS",
                                                 "count": 2, "feeds": {3: [1]}}])


def test_rack_cooling_feeds_and_domain_survive_a_save(doc, tmp_path):
    add_rack(doc, Rack(id="r1", name="R1", cooling="air+liquid", power_feeds=["ac", "dc-busbar"],
                       nvlink_domain="clique-7"))
    update_settings(doc, idle_ports_percent=40.0)
    path = tmp_path / "d.fabric"
    save_fabric(doc, path)
    opened = load_fabric(path, doc.catalog)
    rack = opened.racks["r1"]
    assert (rack.cooling, rack.power_feeds, rack.nvlink_domain) == (
        "air+liquid", ["ac", "dc-busbar"], "clique-7")
    assert opened.settings.idle_ports_percent == 40.0


def test_a_saved_cpo_design_embeds_the_switchs_engine(doc, tmp_path):
    """A shared file opens anywhere: the embedded catalog carries the Q3450-LD's built-in
    engine, though no cage names it."""
    from aicnet_gui.model.catalog import Catalog
    from aicnet_gui.model.fabric import Device

    add_device(doc, Device(id="cpo", name="cpo-1", model="nvidia-q3450-ld"))
    path = tmp_path / "cpo.fabric"
    save_fabric(doc, path)
    opened = load_fabric(path, Catalog())
    assert "nvidia-q3450-ld-co-packaged-optics-port" in opened.catalog.transceivers
