"""verify reads the layouts the tools really print, checked against the tools' own code and
samples, never against aicnet's writer: rdma-core's ibnetdiscover man-page example (a
`--group` file: `Non-Chassis Nodes`), its `--full` fields and `[ext N]` ports as ibnetdiscover.c
prints them, lldpd's JSON with Ethernet-mode server names, and NetBox cable CSVs as aicnet's
NetBox 4.5 / 4.4 exports write them (the round trip)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from aicnet_gui.asbuilt import compare, read_ibnetdiscover, read_lldp, read_netbox_cables
from aicnet_gui.model.fabric import FabricTechnology
from aicnet_gui.report import export_netbox

from . import captures as sim
from . import faults
from .conftest import DATA, namer_for

MAN_EXAMPLE = DATA / "ibnetdiscover" / "rdma-core-man-example.txt"
"""rdma-core infiniband-diags/man/common/sec_topology-file.rst, the example, byte for byte."""


def test_the_rdma_core_man_page_example_with_non_chassis_nodes():
    obs = read_ibnetdiscover(MAN_EXAMPLE)
    assert len(obs.links) == 7
    ends = {(str(link.a), str(link.b), link.speed_gbps) for link in obs.links}
    assert ("ISR9024 Voltaire:10", "SW-6IB4 Voltaire:1", 10.0) in ends  # 4xSDR
    assert ("ISR9024 Voltaire:8", "MT23108 InfiniHost Mellanox:Technologies/2", 10.0) in ends
    assert obs.hosts == {"ISR9024 Voltaire", "SW-6IB4 Voltaire", "MT23108 InfiniHost Mellanox"}


GROUPED = """#
# Topology file: generated on Tue Dec  1 01:00:00 2026
#
# Initiated from node e09d730300000001 port e09d730300000001

Chassis 1 (guid 0x5442ba00003000)

# Spine Nodes
vendid=0x8f1
devid=0x5a31
sysimgguid=0x5442ba00003000\t\t# Chassis 1 (core-01)
switchguid=0x5442b100004900(5442b100004900)\t# ISR9288/ISR9096 Voltaire sFB-12D
Switch\t24 "S-005442b100004900"\t\t# "core-01" base port 0 lid 7 lmc 0
[13][ext 1]\t"H-e09d730300000001"[1](e09d730300000001) \t\t# "node-a mlx5_0" lid 3 4xQDR s=4 w=2 v=4

Non-Chassis Nodes

vendid=0x2c9
devid=0x1021
sysimgguid=0xe09d730300000001
caguid=0xe09d730300000001
Ca\t1 "H-e09d730300000001"\t\t# "node-a mlx5_0"
[1](e09d730300000001) \t"S-005442b100004900"[13][ext 1]\t\t# lid 3 lmc 0 "core-01" lid 7 4xQDR s=4 w=2 v=4

vendid=0x2c9
devid=0x1021
caguid=0xe09d730300000002
Ca\t1 "H-e09d730300000002"\t\t# "node-b mlx5_0"
[1](e09d730300000002) \t"H-e09d730300000003"[1] (e09d730300000003) \t\t# lid 4 lmc 0 "node-c mlx5_0" lid 5 4xNDR s=4 w=2 v=8
"""
"""`ibnetdiscover -g -f` as ibnetdiscover.c prints it: `out_chassis`, the spine heading, the
`# Chassis N (name)` after sysimgguid, `[ext N]` after both port numbers (`out_ext_port`), the
` s= w= v=` of `--full`, and a CA-to-CA line with the far port GUID after a space."""


def test_group_and_full_output(tmp_path):
    path = tmp_path / "ib.txt"
    path.write_text(GROUPED)
    ends = {(str(link.a), str(link.b), link.speed_gbps) for link in read_ibnetdiscover(path).links}
    assert ends == {("core-01:13", "node-a:mlx5_0", 40.0),
                    ("node-b:mlx5_0", "node-c:mlx5_0", 400.0)}


@pytest.mark.parametrize("full, group", [(True, False), (False, True), (True, True)])
def test_full_and_group_captures_of_a_superpod_keep_every_speed(superpod, catalog, tmp_path,
                                                               full, group):
    namer = namer_for(superpod, catalog)
    links = sim.planned_links(superpod)
    slow = faults.index_of(links, ("gpu-001", "p1"), superpod)
    links[slow].speed_gbps = 200  # one link up at 2xNDR
    path = tmp_path / "ib.txt"
    path.write_text(sim.ibnetdiscover_text(superpod, links, namer, full=full, group=group))
    obs = read_ibnetdiscover(path)
    assert all(link.speed_gbps is not None for link in obs.links)
    result = compare(superpod, obs, namer)
    assert [(d.kind, d.links) for d in result.differences] == [
        ("wrong_speed", (superpod.link_at("gpu-001", "p1").id,))]
    assert result.matched == len(superpod.links)


def _roce_dgx(superpod):
    superpod.settings.technology = FabricTechnology.ROCEV2
    return superpod


ETHERNET_NAMES = ["enp220s0np0", "enp154s0np0", "enp206s0np0", "enp192s0np0", "enp79s0np0",
                  "enp64s0np0", "enp94s0np0", "enp24s0np0"]
"""A DGX H100's eight ConnectX-7 compute ports in Ethernet mode: the guide's InfiniBand names
(Table 6: ibp220s0 ...) as systemd names the same PCI functions as Ethernet (Table 5's pairs)."""


def _server_lldp(doc, namer, device, swap=None) -> dict:
    entries = []
    for port, netdev in zip([f"p{i}" for i in range(1, 9)], ETHERNET_NAMES, strict=True):
        link = doc.link_at(device, port)
        far = link.b if link.a.device == device else link.a
        if swap is not None and port in swap:
            other = doc.link_at(device, swap[1] if port == swap[0] else swap[0])
            far = other.b if other.a.device == device else other.a
        switch_port = namer.name(far.device, far.port)
        entries.append({netdev: {"via": "LLDP", "rid": "1", "chassis": {
            doc.devices[far.device].name: {"id": {"type": "mac", "value": "0c:42:a1:00:00:01"},
                                           "descr": "Cumulus Linux"}},
            "port": {"id": {"type": "ifname", "value": switch_port}, "descr": switch_port,
                     "ttl": "120"}}})
    return {"lldp": {"interface": entries}}


def test_lldp_on_an_ethernet_server_names_its_ports_as_linux_does(superpod, catalog, tmp_path):
    """Item 8: LLDP on the server reports enp220s0np0 ..., the plan must know those names, or
    a swap of two of its cables is invisible (matched by device only)."""
    import orjson

    doc = _roce_dgx(superpod)
    namer = namer_for(doc, catalog)
    assert namer.name("gpu-001", "p1", "linux-netdev") == "enp220s0np0"
    folder = tmp_path / "lldp"
    folder.mkdir()
    (folder / "gpu-001.json").write_bytes(orjson.dumps(_server_lldp(doc, namer, "gpu-001")))
    result = compare(doc, read_lldp([folder]), namer)
    assert result.differences == [] and result.matched == 8
    assert not any("by device only" in note for note in result.notes)
    (folder / "gpu-001.json").write_bytes(orjson.dumps(
        _server_lldp(doc, namer, "gpu-001", swap=("p1", "p2"))))
    result = compare(doc, read_lldp([folder]), namer)
    assert [d.kind for d in result.differences] in (["swapped"], ["wrong_rail"])


def _cables(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    return rows[0], rows[1:]


@pytest.mark.parametrize("layout", ["4.5", "4.4"])
@pytest.mark.parametrize("example", ["small_hgx", "roce", "superpod"])
def test_netbox_export_reads_back_with_no_difference(layout, example, request, catalog,
                                                     tmp_path):
    doc = request.getfixturevalue(example)
    export_netbox(doc, tmp_path / "nb", layout=layout)
    result = compare(doc, read_netbox_cables(tmp_path / "nb" / "cables.csv"),
                     namer_for(doc, catalog))
    assert result.differences == []
    assert result.matched == result.checked == len(doc.links)


def test_netbox_45_export_of_a_changed_cabling_shows_the_changes(small_hgx, catalog, tmp_path):
    """Two cables whose far ends an installer swapped in NetBox, and one deleted: one swap (or
    wrong rail) and the missing links, nothing else; a twin-port cable deleted is two missing
    links (its single-1c2p profile carries two)."""
    export_netbox(small_hgx, tmp_path / "nb")
    path = tmp_path / "nb" / "cables.csv"
    header, rows = _cables(path)
    col = {name: i for i, name in enumerate(header)}
    singles = [r for r in rows if r[col["profile"]] == "single-1c1p"]
    twin = next(r for r in rows if r[col["profile"]] == "single-1c2p")
    a, b = singles[0], singles[1]
    a[col["side_b_device"]], b[col["side_b_device"]] = b[col["side_b_device"]], \
        a[col["side_b_device"]]
    a[col["side_b_name"]], b[col["side_b_name"]] = b[col["side_b_name"]], a[col["side_b_name"]]
    rows.remove(twin)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([header, *rows])
    result = compare(small_hgx, read_netbox_cables(path), namer_for(small_hgx, catalog))
    kinds = sorted(d.kind for d in result.differences)
    assert kinds.count("missing") == 2
    assert len(kinds) == 3 and kinds[2] in {"swapped", "wrong_rail", "wrong_port",
                                            "wrong_device"}


def test_connected_only_counts_planned_cables_as_not_cabled(small_hgx, catalog, tmp_path):
    export_netbox(small_hgx, tmp_path / "nb")
    path = tmp_path / "nb" / "cables.csv"
    everything = compare(small_hgx, read_netbox_cables(path), namer_for(small_hgx, catalog))
    assert everything.differences == []
    assert any("are 'planned'" in note for note in everything.notes)
    installed = compare(small_hgx, read_netbox_cables(path, connected_only=True),
                        namer_for(small_hgx, catalog))
    assert {d.kind for d in installed.differences} == {"missing"}
    assert len(installed.differences) == len(small_hgx.links)


def test_netbox_table_export_of_a_breakout_cable(small_hgx, catalog, tmp_path):
    """NetBox's own export of a 1C2P:2C1P breakout cable: one A termination (the unsplit
    interface), two B devices and terminations in set order; each B end matches its leg."""
    link = small_hgx.link_at("leaf-01", "swp3s0")
    other = small_hgx.link_at("leaf-01", "swp3s1")
    far = [e for lk in (link, other) for e in (lk.a, lk.b) if e.device != "leaf-01"]
    text = (f"ID,Device A,Termination A,Device B,Termination B,Status,Profile\n"
            f'1,leaf-01,swp3,"{far[1].device},{far[0].device}","{far[1].port},{far[0].port}",'
            f"Connected,1C2P:2C1P breakout\n")
    path = tmp_path / "cables.csv"
    path.write_text(text)
    obs = read_netbox_cables(path)
    result = compare(small_hgx, obs, namer_for(small_hgx, catalog))
    assert result.matched == 2
    assert {d.kind for d in result.differences} == {"missing"}  # the file has no other cable
