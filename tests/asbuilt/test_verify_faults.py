"""Verify against observations generated from the examples in each tool's exact format, with
seeded faults: every fault is reported once, as the right kind, with the right cable, and
nothing else; an exact observation reports nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from aicnet_gui.asbuilt import compare, read_ibnetdiscover, read_lldp, read_netbox_cables

from . import captures as sim
from . import faults
from .conftest import namer_for


def _observe(kind: str, doc, links, namer, tmp_path):
    if kind == "ibnetdiscover":
        path = tmp_path / "ibnetdiscover.txt"
        path.write_text(sim.ibnetdiscover_text(doc, links, namer))
        return read_ibnetdiscover(path)
    if kind == "netbox":
        path = tmp_path / "cables.csv"
        path.write_text(sim.netbox_table_csv(doc, links, namer))
        return read_netbox_cables(path)
    sim.write_lldp_files(sim.lldp_outputs(doc, links, namer), tmp_path / "lldp")
    return read_lldp([tmp_path / "lldp"])


def _diffs(comparison) -> list[tuple[str, frozenset[str]]]:
    return sorted((d.kind, frozenset(d.links)) for d in comparison.differences)


def _run(kind, doc, catalog, tmp_path, seed: Callable[[list], None] | None = None):
    namer = namer_for(doc, catalog)
    links = sim.planned_links(doc)
    if seed is not None:
        seed(links)
    return compare(doc, _observe(kind, doc, links, namer, tmp_path), namer)


CASES = [("ibnetdiscover", "superpod"), ("lldp", "roce"), ("lldp", "small_hgx"),
         ("netbox", "small_hgx")]


@pytest.mark.parametrize("kind, example", CASES)
def test_an_exact_observation_reports_nothing(kind, example, request, catalog, tmp_path):
    doc = request.getfixturevalue(example)
    result = _run(kind, doc, catalog, tmp_path)
    assert result.differences == []
    assert result.matched == result.checked == len(doc.links)


def _link(doc, device, port) -> str:
    return doc.link_at(device, port).id


@pytest.mark.parametrize("kind, example", CASES)
def test_two_server_cables_swapped_on_one_leaf(kind, example, request, catalog, tmp_path):
    doc = request.getfixturevalue(example)
    leaf = doc.link_at("gpu-001", "p1")
    leaf_end = leaf.b if leaf.b.device != "gpu-001" else leaf.a
    other = next(k for k in doc.links_of(leaf_end.device)
                 if k.rail == leaf.rail and k.id != leaf.id
                 and "gpu-001" not in (k.a.device, k.b.device))

    def seed(links):
        i = faults.index_of(links, ("gpu-001", "p1"), doc)
        j = faults.index_of(links, tuple(other.a), doc)
        a_i = links[i].a if links[i].a[0] == leaf_end.device else links[i].b
        a_j = links[j].a if links[j].a[0] == leaf_end.device else links[j].b
        for k, (mine, theirs) in ((i, (a_i, a_j)), (j, (a_j, a_i))):
            if links[k].a == mine:
                links[k].a = theirs
            else:
                links[k].b = theirs

    result = _run(kind, doc, catalog, tmp_path, seed)
    assert _diffs(result) == [("swapped", frozenset({leaf.id, other.id}))]
    (diff,) = result.differences
    assert doc.devices[leaf_end.device].name in diff.message


@pytest.mark.parametrize("kind, example", CASES)
def test_rails_crossed_at_a_server(kind, example, request, catalog, tmp_path):
    doc = request.getfixturevalue(example)
    p1, p2 = doc.link_at("gpu-001", "p1"), doc.link_at("gpu-001", "p2")
    assert p1.rail != p2.rail

    def seed(links):
        i, j = (faults.index_of(links, ("gpu-001", p), doc) for p in ("p1", "p2"))
        for k in (i, j):
            if links[k].b[0] == "gpu-001":
                links[k].a, links[k].b = links[k].b, links[k].a
        faults.swap_far_ends(links, i, j)

    result = _run(kind, doc, catalog, tmp_path, seed)
    assert _diffs(result) == [("wrong_rail", frozenset({p1.id, p2.id}))]


@pytest.mark.parametrize("kind, example", CASES)
def test_a_cable_left_out(kind, example, request, catalog, tmp_path):
    doc = request.getfixturevalue(example)
    gone = _link(doc, "gpu-002", "p2")
    result = _run(kind, doc, catalog, tmp_path,
                  lambda links: faults.drop(links, faults.index_of(links, ("gpu-002", "p2"), doc)))
    assert _diffs(result) == [("missing", frozenset({gone}))]


@pytest.mark.parametrize("kind", ["lldp", "netbox"])
def test_shift_to_the_neighbour_port(kind, small_hgx, catalog, tmp_path):
    doc = small_hgx
    link = doc.link_at("gpu-003", "p1")
    switch_end = link.b if link.b.device != "gpu-003" else link.a
    to = faults.neighbour_free_port(doc, switch_end.device, switch_end.port)

    def seed(links):
        i = faults.index_of(links, ("gpu-003", "p1"), doc)
        end = "a" if links[i].a == tuple(switch_end) else "b"
        faults.move_end(links, i, end, (switch_end.device, to))

    result = _run(kind, doc, catalog, tmp_path, seed)
    assert _diffs(result) == [("wrong_port", frozenset({link.id}))]
    assert f"to {switch_end.port}" in result.differences[0].action


def test_shift_by_one_port_on_a_full_leaf(superpod, catalog, tmp_path):
    """A full QM9700: the cable in 1/1 went to 1/2, whose own cable was left out."""
    doc = superpod
    first, second = doc.link_at("leaf-01", "1/1"), doc.link_at("leaf-01", "1/2")

    def seed(links):
        i = faults.index_of(links, ("leaf-01", "1/1"), doc)
        faults.move_end(links, i, "b" if links[i].b == ("leaf-01", "1/1") else "a",
                        ("leaf-01", "1/2"))
        faults.drop(links, faults.index_of(links, ("leaf-01", "1/2"), doc))

    result = _run("ibnetdiscover", doc, catalog, tmp_path, seed)
    assert _diffs(result) == [("missing", frozenset({second.id})),
                              ("wrong_port", frozenset({first.id}))]


@pytest.mark.parametrize("kind, example", [("lldp", "small_hgx"), ("netbox", "small_hgx"),
                                           ("lldp", "roce")])
def test_an_extra_cable(kind, example, request, catalog, tmp_path):
    doc = request.getfixturevalue(example)
    result = _run(kind, doc, catalog, tmp_path,
                  lambda links: faults.add(links, ("gpu-001", "ns1"), ("gpu-002", "ns1")))
    assert _diffs(result) == [("unexpected", frozenset())]
    assert result.differences[0].ports == (("gpu-001", "ns1"), ("gpu-002", "ns1")) or \
        set(result.differences[0].ports) == {("gpu-001", "ns1"), ("gpu-002", "ns1")}


def test_a_link_up_at_the_wrong_speed(superpod, catalog, tmp_path):
    doc = superpod
    slow = _link(doc, "gpu-004", "p3")

    def seed(links):
        links[faults.index_of(links, ("gpu-004", "p3"), doc)].speed_gbps = 200

    result = _run("ibnetdiscover", doc, catalog, tmp_path, seed)
    assert _diffs(result) == [("wrong_speed", frozenset({slow}))]
    assert "200 Gb/s, planned 400 Gb/s" in result.differences[0].message


def test_a_cable_on_another_rails_leaf(small_hgx, catalog, tmp_path):
    doc = small_hgx
    link = doc.link_at("gpu-002", "p1")
    switch_end = link.b if link.b.device != "gpu-002" else link.a
    other_leaf = next(d for d in doc.devices if d.startswith("leaf") and d != switch_end.device)
    assert link.rail is not None
    to = doc.free_ports(other_leaf)[0]

    def seed(links):
        i = faults.index_of(links, ("gpu-002", "p1"), doc)
        end = "a" if links[i].a == tuple(switch_end) else "b"
        faults.move_end(links, i, end, (other_leaf, to))

    result = _run("lldp", doc, catalog, tmp_path, seed)
    assert _diffs(result) == [("wrong_rail", frozenset({link.id}))]


def test_an_unknown_host_and_the_host_map(roce, catalog, tmp_path):
    doc = roce
    namer = namer_for(doc, catalog)
    outputs = sim.lldp_outputs(doc, sim.planned_links(doc), namer,
                               hosts={d for d in doc.devices if d.startswith("leaf")})
    text = sim.orjson.dumps(outputs["leaf-01"]).decode().replace('"gpu-001"', '"dgx-a01-01"')
    outputs["leaf-01"] = sim.orjson.loads(text)
    sim.write_lldp_files(outputs, tmp_path / "lldp")
    observation = read_lldp([tmp_path / "lldp"])
    result = compare(doc, observation, namer)
    planned = frozenset(k.id for k in doc.links_of("gpu-001")
                        if "leaf-01" in (k.a.device, k.b.device))
    assert _diffs(result) == [("unknown_device", planned)]
    assert "dgx-a01-01" in result.differences[0].message
    assert compare(doc, observation, namer, {"dgx-a01-01": "gpu-001"}).differences == []


def test_all_faults_at_once_each_reported_once(small_hgx, catalog, tmp_path):
    doc = small_hgx
    gone = _link(doc, "gpu-004", "p4")
    p1, p2 = doc.link_at("gpu-001", "p1"), doc.link_at("gpu-001", "p2")
    shifted = doc.link_at("gpu-003", "p1")
    switch_end = shifted.b if shifted.b.device != "gpu-003" else shifted.a
    to = faults.neighbour_free_port(doc, switch_end.device, switch_end.port)

    def seed(links):
        i = faults.index_of(links, ("gpu-003", "p1"), doc)
        faults.move_end(links, i, "a" if links[i].a == tuple(switch_end) else "b",
                        (switch_end.device, to))
        i, j = (faults.index_of(links, ("gpu-001", p), doc) for p in ("p1", "p2"))
        for k in (i, j):
            if links[k].b[0] == "gpu-001":
                links[k].a, links[k].b = links[k].b, links[k].a
        faults.swap_far_ends(links, i, j)
        faults.add(links, ("gpu-001", "ns1"), ("gpu-002", "ns1"))
        faults.drop(links, faults.index_of(links, ("gpu-004", "p4"), doc))

    result = _run("lldp", doc, catalog, tmp_path, seed)
    assert _diffs(result) == sorted([
        ("missing", frozenset({gone})), ("wrong_rail", frozenset({p1.id, p2.id})),
        ("wrong_port", frozenset({shifted.id})), ("unexpected", frozenset()),
    ])


def test_management_ports_and_sharp_nodes_are_not_fabric_cables(superpod, catalog, tmp_path):
    namer = namer_for(superpod, catalog)
    text = sim.ibnetdiscover_text(superpod, sim.planned_links(superpod), namer)
    text += ('\nvendid=0x2c9\ndevid=0xcf09\nsysimgguid=0xb8599f0300000020\n'
             'caguid=0xb8599f0300000021\n'
             'Ca\t1 "H-b8599f0300000021"\t\t# "Mellanox Technologies Aggregation Node"\n'
             '[1](b8599f0300000021) \t"S-b8599f0300000020"[65]\t\t# lid 200 lmc 0 '
             '"MF0;leaf-01:MQM9700/U1" lid 1 4xNDR\n')
    path = tmp_path / "ib.txt"
    path.write_text(text)
    assert compare(superpod, read_ibnetdiscover(path), namer).differences == []


def test_a_switch_management_port_neighbour_is_left_out(small_hgx, catalog, tmp_path):
    namer = namer_for(small_hgx, catalog)
    outputs = sim.lldp_outputs(small_hgx, sim.planned_links(small_hgx), namer)
    outputs["leaf-01"]["lldp"]["interface"].append({"eth0": {
        "via": "LLDP", "rid": "99", "age": "0 day, 01:00:00",
        "chassis": {"oob-sw-01": {"id": {"type": "mac", "value": "44:38:39:00:00:01"}}},
        "port": {"id": {"type": "ifname", "value": "swp12"}, "descr": "swp12", "ttl": "120"}}})
    sim.write_lldp_files(outputs, tmp_path / "lldp")
    result = compare(small_hgx, read_lldp([tmp_path / "lldp"]), namer)
    assert result.differences == []
    assert any("1 observed links on management ports" in note for note in result.notes)
