"""The generator API the GUI relies on: one apply (one undo step), settings from the models,
tags, rails and colours, one workload, parameters that render as a form."""

from __future__ import annotations

import pytest

from aicnet_gui.fileio import dumps_fabric, loads_fabric
from aicnet_gui.generators import (
    TEMPLATES,
    GeneratorError,
    RailOptimizedParams,
    ThreeTierParams,
    TwoTierParams,
    build_ops,
    generate,
)
from aicnet_gui.model.catalog import Catalog
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.fabric import FabricTechnology
from tests.doc_edits import update_settings

QM9700, SN5600, HGX = "nvidia-qm9700", "nvidia-sn5600", "generic-hgx-8-gpu-b3140h"


def test_one_apply_is_one_undo_step(catalog):
    doc = FabricDocument(catalog)
    calls = []
    doc.subscribe(calls.append)
    ops, result = build_ops(doc, RailOptimizedParams(sus=1, leaf=QM9700))
    edit = doc.apply(ops)
    assert len(calls) == 1
    assert len(doc.devices) == 44 and len(doc.links) == 512 and result.links == 512
    doc.apply(edit.inverse)
    assert not doc.devices and not doc.links and not doc.racks and not doc.workloads


def test_a_full_document_is_not_overwritten_unless_asked(catalog):
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, leaf=QM9700))
    with pytest.raises(GeneratorError, match="already holds 44 devices"):
        generate(doc, TwoTierParams(servers=4, server=HGX, leaf=SN5600))
    generate(doc, TwoTierParams(servers=4, server=HGX, leaf=SN5600), replace=True)
    assert len(doc.devices) == 4 + 8 + 2
    assert doc.settings.technology == FabricTechnology.ROCEV2


def test_settings_follow_the_switches(make):
    ib, _ = make(RailOptimizedParams(sus=1, leaf=QM9700))
    assert ib.settings.technology == FabricTechnology.INFINIBAND and ib.settings.mtu == 4096
    roce, _ = make(TwoTierParams(servers=8, server=HGX, leaf=SN5600))
    assert roce.settings.technology == FabricTechnology.ROCEV2
    assert roce.settings.pfc and roce.settings.ecn and roce.settings.mtu == 9000
    plain, _ = make(TwoTierParams(servers=8, server=HGX, leaf=SN5600, technology="ethernet",
                                  workload="inference", oversubscription=3))
    assert plain.settings.technology == FabricTechnology.ETHERNET
    assert not plain.settings.pfc and not plain.settings.ecn
    with pytest.raises(GeneratorError, match="InfiniBand switches"):
        make(RailOptimizedParams(sus=1, leaf=QM9700, technology="rocev2"))


def test_roles_tags_rails_and_colours(make):
    """A QM9700 used as spine gets the spine role; leaves carry su/pod/rail tags; the
    server-leaf link of GPU r's NIC has rail r and rail r's colour name; on a DGX H100 GPU r's
    NIC is not port r (User Guide Table 6: OSFP4P2 = p8 serves GPU 0, OSFP1P1 = p1 GPU 7)."""
    doc, _ = make(RailOptimizedParams(sus=2, leaf=QM9700, spine=QM9700))
    spines = [d for d in doc.devices.values() if d.model == QM9700 and d.role.value == "spine"]
    assert len(spines) == 8  # 2 SUs: 16 leaves x 32 up = 512 = 8 spines of 64
    leaf = doc.device_by_name("leaf-10")
    assert leaf.tags == {"su": "2", "pod": "1", "plane": "compute", "rail": "2"}
    server = doc.device_by_name("gpu-001")
    rail_of_port = {"p8": 1, "p6": 2, "p5": 3, "p7": 4, "p2": 5, "p4": 6, "p3": 7, "p1": 8}
    for link in doc.links_of(server.id):
        rail = rail_of_port[link.a.port]
        assert link.rail == rail
        assert doc.devices[link.b.device].tags["rail"] == str(rail)
    colours = {link.rail: link.colour for link in doc.links.values()}
    assert colours[1] == "blue" and colours[2] == "orange" and colours[8] == "black"


def test_one_workload_over_all_servers(make):
    doc, _ = make(TwoTierParams(servers=8, server=HGX, leaf=SN5600, workload="inference",
                                oversubscription=3))
    (workload,) = doc.workloads.values()
    assert workload.kind.value == "inference"
    assert sorted(workload.members) == sorted(
        d.id for d in doc.devices.values() if d.role.value == "gpu_server")


def test_generated_fabric_round_trips(make, catalog):
    doc, _ = make(ThreeTierParams(servers=64, leaf=QM9700))
    raw = dumps_fabric(doc)
    again = loads_fabric(raw, catalog)
    assert dumps_fabric(again) == raw
    assert len(again.links) == len(doc.links)


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_parameters_render_as_a_form(template):
    """Every field has a description and a JSON schema the wizard can read."""
    model = TEMPLATES[template]
    schema = model.model_json_schema()
    for name, field in model.model_fields.items():
        if name == "template":
            continue
        assert field.description, name
    assert schema["properties"]["template"]["const"] == template


def test_a_refused_fabric_is_an_explained_error_and_changes_nothing(catalog):
    """Naming servers like links makes ids collide: the model refuses the edit as a whole."""
    doc = FabricDocument(catalog)
    update_settings(doc, naming=dict(doc.settings.naming, gpu_server="link-{n}"))
    with pytest.raises(GeneratorError, match="id 'link-1' is already used"):
        generate(doc, RailOptimizedParams(sus=1, leaf=QM9700))
    assert not doc.devices and not doc.links and not doc.racks


def test_su_size_comes_from_the_server_models_reference_design(make, catalog):
    """No --nodes-per-su: the server model's reference SU on the fabric's technology (DGX H100
    on InfiniBand: 32, DGX SuperPOD RA); a model whose reference design says 16 gets 16."""
    doc, _ = make(RailOptimizedParams(sus=1, leaf=QM9700, spine=QM9700))
    servers = [d for d in doc.devices.values() if d.role.value == "gpu_server"]
    assert len(servers) == 32
    dgx = catalog.device("nvidia-dgx-h100")
    small = dgx.model_copy(update={"id": "test-dgx-su16", "su_nodes": {"infiniband": 16}})
    own = Catalog([*catalog, small])
    doc = FabricDocument(own)
    generate(doc, RailOptimizedParams(sus=2, server="test-dgx-su16", leaf=QM9700))
    servers = [d for d in doc.devices.values() if d.role.value == "gpu_server"]
    assert len(servers) == 32
    assert {d.tags["su"] for d in servers} == {"1", "2"}


def test_dgx_b300_on_xdr_takes_nvidias_72_node_su_and_table_3_counts(catalog):
    """DGX SuperPOD B300 XDR RA, Table 3, 1 SU: 72 nodes, 8 leaves, 4 spines, 576 node-leaf
    and 576 leaf-spine cables; the SU size comes from the DGX B300's reference design."""
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, server="nvidia-dgx-b300", leaf="nvidia-q3400-ra",
                                      choose_media=False))
    roles: dict[str, int] = {}
    for device in doc.devices.values():
        roles[doc.role_of(device).value] = roles.get(doc.role_of(device).value, 0) + 1
    assert roles == {"gpu_server": 72, "leaf": 8, "spine": 4}
    tiers = [sorted((doc.tier_of(link.a.device), doc.tier_of(link.b.device)))
             for link in doc.links.values()]
    assert tiers.count([0, 1]) == 576 and tiers.count([1, 2]) == 576


def test_infiniband_fabric_names_its_subnet_managers(make):
    """An InfiniBand fabric comes up only with a subnet manager: the generator names the
    switch-embedded SM on the first two spines (master, standby), as IB-SUBNET-MANAGER's fix
    would, so a generated SuperPOD validates without that warning; Ethernet names none."""
    doc, _ = make(RailOptimizedParams(sus=1, leaf=QM9700, spine=QM9700))
    assert doc.settings.subnet_managers == ["spine-01", "spine-02"]
    from aicnet_gui.analysis import analyze

    assert not analyze(doc).by_code("IB-SUBNET-MANAGER")
    ethernet, _ = make(TwoTierParams(servers=8, server=HGX, leaf=SN5600))
    assert ethernet.settings.subnet_managers == []


def test_a_design_past_the_file_limits_is_refused_before_it_is_built(catalog, monkeypatch):
    """A generator never writes a file aicnet would refuse to open (model/limits.py)."""
    from aicnet_gui.generators import build
    from aicnet_gui.generators.errors import GeneratorError

    monkeypatch.setitem(build._LIMITS, "links", 500)
    doc = FabricDocument(catalog)
    with pytest.raises(GeneratorError, match="would hold 512 links, and a design holds at most 500"):
        generate(doc, RailOptimizedParams(sus=1, leaf="nvidia-qm9700"))
    assert not doc.links and not doc.devices
