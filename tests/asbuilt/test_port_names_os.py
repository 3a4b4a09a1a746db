"""Port names as each operating system spells them, computed from the catalog's os_names."""

from __future__ import annotations

import pytest

from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.fabric import CageConfig, Device
from aicnet_gui.model.port_names_os import PortNamer, default_os
from tests.doc_edits import add_device, update_settings

from .conftest import namer_for


def _one(catalog, model: str, **cages: str) -> tuple[FabricDocument, PortNamer]:
    doc = FabricDocument(catalog)
    config = {int(c[1:]): CageConfig(mode=m) for c, m in cages.items()}
    add_device(doc, Device(id="d", name="d", model=model, cages=config))
    return doc, PortNamer(doc)


@pytest.mark.parametrize("model, cages, port, os_name, expected", [
    ("nvidia-sn5600", {"c1": "1x800G"}, "swp1", "cumulus", "swp1"),
    ("nvidia-sn5600", {}, "swp3s1", "cumulus", "swp3s1"),
    ("nvidia-sn5600", {"c1": "1x800G"}, "swp1", "sonic", "Ethernet0"),
    ("nvidia-sn5600", {"c2": "1x800G"}, "swp2", "sonic", "Ethernet8"),
    ("nvidia-sn5600", {}, "swp1s1", "sonic", "Ethernet4"),
    ("arista-7060x6-64pe", {}, "Ethernet1/1", "eos", "Ethernet1/1"),
    ("arista-7060x6-64pe", {"c3": "2x400G"}, "Ethernet3/2", "eos", "Ethernet3/5"),
    ("arista-7060x6-64pe", {"c2": "2x400G"}, "Ethernet2/2", "sonic", "Ethernet12"),
    ("cisco-n9364e-sg2-o", {}, "Ethernet1/1", "nxos", "Ethernet1/1"),
    ("cisco-n9364e-sg2-o", {"c3": "8x100G"}, "Ethernet1/3/1", "nxos", "Ethernet1/3/1"),
    ("juniper-qfx5240-64od", {}, "et-0/0/0", "junos", "et-0/0/0"),
    ("juniper-qfx5240-64od", {"c0": "2x400G"}, "et-0/0/0:1", "junos", "et-0/0/0:1"),
    ("nvidia-qm9700", {}, "1/1", "ib-port", "1"),
    ("nvidia-qm9700", {}, "5/2", "ib-port", "10"),
    ("nvidia-qm9700", {}, "5/1", "mlnx-os", "1/5/1"),
    ("nvidia-q3400-ra", {}, "1/1", "nvos", "sw1p1"),
    ("nvidia-q3400-ra", {}, "72/2", "ib-port", "144"),
])
def test_switch_port_names(catalog, model, cages, port, os_name, expected):
    doc, namer = _one(catalog, model, **cages)
    assert namer.name("d", port, os_name) == expected
    assert namer.lookup("d", (os_name,))[expected] == port


def test_split_ib_ports_keep_design_names_where_no_source_gives_numbers(catalog):
    doc, namer = _one(catalog, "nvidia-qm9700", c5="4x200G")
    assert namer.name("d", "5/3", "ib-port") == "5/3"
    assert namer.name("d", "6/2", "ib-port") == "12"


def test_dgx_h100_rdma_devices_follow_the_user_guide_not_gpu_order(catalog):
    """DGX H100 User Guide table 6: OSFP4P2 is GPU 0 = mlx5_0 (compute rail 1), OSFP1P1 GPU 7."""
    doc, namer = _one(catalog, "nvidia-dgx-h100")
    assert namer.name("d", "p8", "panel") == "OSFP4P2"
    assert namer.name("d", "p8", "linux-rdma") == "mlx5_0"
    assert namer.name("d", "p8", "linux-netdev") == "ibp24s0"
    assert namer.name("d", "p1", "linux-rdma") == "mlx5_11"
    assert namer.name("d", "p6", "linux-rdma") == "mlx5_3"
    assert namer.lookup("d")["mlx5_0"] == "p8"


def test_dgx_h100_slot_ports_follow_the_user_guide_port_mapping(catalog):
    """User Guide Table 5: Slot1 P1 (storage, s1) is mlx5_7; Slot1 P2 (in-band, inband1) is
    mlx5_8 / enp170s0f1np1; Slot3 P1 (the 100GbE system management card) is ens6f0."""
    doc, namer = _one(catalog, "nvidia-dgx-h100")
    assert namer.name("d", "s1", "linux-rdma") == "mlx5_7"
    assert namer.name("d", "s2", "panel") == "Slot2 P1"
    assert namer.name("d", "inband1", "linux-netdev") == "enp170s0f1np1"
    assert namer.name("d", "inband2", "linux-rdma") == "mlx5_2"
    assert namer.name("d", "sysmgmt1", "linux-netdev") == "ens6f0"
    assert namer.name("d", "eth10g1", "linux-netdev") == "eno3"
    assert namer.lookup("d", ("panel",))["Slot1 P2"] == "inband1"


def test_default_os_by_model_then_vendor(catalog):
    assert default_os(catalog.device("nvidia-qm9700")) == "mlnx-os"
    assert default_os(catalog.device("nvidia-q3400-ra")) == "nvos"
    assert default_os(catalog.device("nvidia-sn5600")) == "cumulus"
    assert default_os(catalog.device("arista-7060x6-64pe")) == "eos"
    assert default_os(catalog.device("nvidia-dgx-h100")) == "linux-rdma"


def test_settings_choose_the_os_per_model(catalog):
    doc, _ = _one(catalog, "nvidia-sn5600")
    assert PortNamer(doc).name("d", "swp1s1") == "swp1s1"
    update_settings(doc, port_os={"nvidia-sn5600": "sonic"})
    assert PortNamer(doc).name("d", "swp1s1") == "Ethernet4"
    update_settings(doc, port_os={"nvidia-sn5600": "design"})
    assert PortNamer(doc).name("d", "swp1s1") == "swp1s1"


def test_a_design_whose_embedded_entries_predate_os_names_borrows_them(catalog):
    """A file saved before os_names existed embeds entries without them (e.g. small-hgx)."""
    import json

    from aicnet_gui.fileio.fabric_file import loads_fabric

    from .conftest import EXAMPLES

    data = json.loads((EXAMPLES / "superpod-1su.fabric").read_text())
    for entry in data["catalog"]["devices"]:
        entry.pop("default_os", None)
        for group in entry["cages"]:
            group.pop("os_names", None)
    doc = loads_fabric(json.dumps(data).encode(), catalog)
    assert not any(group.os_names for group in doc.device_model("leaf-01").cages)
    namer = namer_for(doc, catalog)
    assert namer.name("leaf-01", "2/1") == "1/2/1"
    assert namer.name("gpu-001", "p8") == "mlx5_0"
    assert PortNamer(doc).name("leaf-01", "2/1") == "2/1"


def test_every_naming_of_the_catalog_gives_distinct_names(catalog):
    for model in catalog.devices.values():
        doc = FabricDocument(catalog)
        add_device(doc, Device(id="d", name="d", model=model.id))
        namer = PortNamer(doc)
        for os_name in namer.oses("d"):
            names = [namer.name("d", p, os_name) for p in doc.ports("d")]
            assert len(names) == len(set(names)), (model.id, os_name)
