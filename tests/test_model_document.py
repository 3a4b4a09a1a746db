"""The mutation API keeps its invariants: every violating edit raises and changes nothing."""

from __future__ import annotations

import pytest

from aicnet_gui.model.document import FabricDocument, ModelError
from aicnet_gui.model.edits import (
    AddDevice,
    AddLink,
    RemoveDevice,
    UpdateDevice,
    UpdateLink,
)
from aicnet_gui.model.fabric import CageConfig, Device, Endpoint, Link, Rack, Workload
from tests.doc_edits import (
    add_device,
    add_link,
    add_rack,
    add_workload,
    remove_device,
    remove_link,
    update_device,
    update_link,
)

QM9700 = "nvidia-qm9700"
SN5600 = "nvidia-sn5600"
DGX = "nvidia-dgx-h100"


def link(link_id: str, a: tuple[str, str], b: tuple[str, str], **extra) -> Link:
    return Link(id=link_id, a=Endpoint(device=a[0], port=a[1]), b=Endpoint(device=b[0], port=b[1]), **extra)


def snapshot(doc: FabricDocument):
    return (
        dict(doc.devices), dict(doc.links), dict(doc.racks), dict(doc.workloads),
        {d: doc.link_ids_of(d) for d in doc.devices},
    )


@pytest.fixture
def wired(doc: FabricDocument) -> FabricDocument:
    add_rack(doc, Rack(id="r1", name="R01"))
    add_device(doc, Device(id="leaf1", name="leaf-01", model=QM9700, rack="r1", ru=40))
    add_device(doc, Device(id="gpu1", name="gpu-001", model=DGX, rack="r1", ru=2))
    add_link(doc, link("l1", ("gpu1", "p1"), ("leaf1", "5/1")))
    return doc


def test_link_indices_follow_edits(wired: FabricDocument):
    assert wired.link_at("leaf1", "5/1").id == "l1"
    assert wired.link_at("gpu1", "p1").id == "l1"
    assert wired.link_ids_of("leaf1") == {"l1"}
    update_link(wired, "l1", b=Endpoint(device="leaf1", port="5/2"))
    assert wired.link_at("leaf1", "5/1") is None
    assert wired.link_at("leaf1", "5/2").id == "l1"
    remove_link(wired, "l1")
    assert wired.link_ids_of("leaf1") == set()
    assert wired.link_at("gpu1", "p1") is None


def test_port_used_twice_is_refused_and_changes_nothing(wired: FabricDocument):
    before = snapshot(wired)
    with pytest.raises(ModelError, match="already carries link l1"):
        add_link(wired, link("l2", ("gpu1", "p2"), ("leaf1", "5/1")))
    assert snapshot(wired) == before


def test_dangling_endpoint_and_unknown_port_are_refused(wired: FabricDocument):
    with pytest.raises(ModelError, match="does not exist"):
        add_link(wired, link("l2", ("nope", "p1"), ("leaf1", "6/1")))
    with pytest.raises(ModelError, match="has no port '99/1'"):
        add_link(wired, link("l2", ("gpu1", "p2"), ("leaf1", "99/1")))
    assert "l2" not in wired.links


def test_ids_and_names_are_unique(wired: FabricDocument):
    with pytest.raises(ModelError, match="already used"):
        add_device(wired, Device(id="leaf1", name="leaf-99", model=QM9700))
    with pytest.raises(ModelError, match="name 'leaf-01' is already used"):
        add_device(wired, Device(id="leaf2", name="leaf-01", model=QM9700))
    with pytest.raises(ModelError, match="already used"):
        add_link(wired, link("gpu1", ("gpu1", "p2"), ("leaf1", "6/1")))


def test_unknown_catalog_ids_are_refused(doc: FabricDocument):
    with pytest.raises(ModelError, match="unknown device catalog id 'acme-x1'"):
        add_device(doc, Device(id="d", name="x", model="acme-x1"))
    with pytest.raises(ModelError, match="unknown transceiver"):
        add_device(doc, Device(id="d", name="x", model=QM9700, cages={1: CageConfig(transceiver="acme-optic")}))
    assert doc.devices == {}


def test_breakout_mode_must_be_supported(doc: FabricDocument):
    with pytest.raises(ModelError, match="does not support 1x800G"):
        add_device(doc, Device(id="d", name="leaf-01", model=QM9700, cages={3: CageConfig(mode="1x800G")}))
    add_device(doc, Device(id="s", name="spine-01", model=SN5600, cages={3: CageConfig(mode="2x400G")}))
    assert {"swp3s0", "swp3s1"} <= set(doc.ports("s"))
    update_device(doc, "s", cages={3: CageConfig(mode="1x800G")})
    assert "swp3" in doc.ports("s") and "swp3s0" not in doc.ports("s")


def test_mode_change_that_strands_a_link_is_refused(doc: FabricDocument):
    add_device(doc, Device(id="s", name="leaf-01", model=SN5600))
    add_device(doc, Device(id="t", name="leaf-02", model=SN5600))
    add_link(doc, link("l", ("s", "swp3s1"), ("t", "swp3s1")))
    with pytest.raises(ModelError, match="port swp3s1 carries link l"):
        update_device(doc, "s", cages={3: CageConfig(mode="1x800G")})
    assert doc.devices["s"].cages == {}


def test_bulk_edit_is_all_or_nothing(wired: FabricDocument):
    before = snapshot(wired)
    revision = wired.revision
    ops = [
        AddDevice(Device(id="leaf2", name="leaf-02", model=QM9700)),
        AddLink(link("l2", ("gpu1", "p2"), ("leaf2", "1/1"))),
        AddLink(link("l3", ("gpu1", "p2"), ("leaf2", "1/2"))),  # p2 already used by l2
    ]
    with pytest.raises(ModelError):
        wired.apply(ops)
    assert snapshot(wired) == before
    assert wired.revision == revision


def test_inverse_restores_state_and_reports_touched_ids(wired: FabricDocument):
    add_workload(wired, Workload(id="w", name="train", members=["gpu1"]))
    before = snapshot(wired)
    applied = wired.apply([RemoveDevice("gpu1")])
    assert applied.changes.devices >= {"gpu1", "leaf1"}
    assert applied.changes.links == {"l1"}
    assert applied.changes.workloads == {"w"}
    assert "l1" not in wired.links and wired.workloads["w"].members == []
    wired.apply(applied.inverse)
    assert snapshot(wired) == before


def test_update_inverse_and_validation(wired: FabricDocument):
    applied = wired.apply([UpdateDevice("gpu1", {"name": "gpu-777", "firmware": "28.39"})])
    assert wired.device_by_name("gpu-777").id == "gpu1"
    wired.apply(applied.inverse)
    assert wired.devices["gpu1"].name == "gpu-001" and wired.device_by_name("gpu-777") is None
    with pytest.raises(ModelError, match="length_m"):
        wired.apply([UpdateLink("l1", {"length_m": -3})])
    with pytest.raises(ModelError, match="id of an object cannot change"):
        wired.apply([UpdateLink("l1", {"id": "zz"})])


def test_listeners_hear_each_applied_edit(wired: FabricDocument):
    heard = []
    wired.subscribe(heard.append)
    update_link(wired, "l1", length_m=17.4)
    with pytest.raises(ModelError):
        add_link(wired, link("l9", ("gpu1", "p1"), ("leaf1", "7/1")))
    assert len(heard) == 1
    assert heard[0].links == {"l1"} and heard[0].revision == wired.revision


def test_device_must_fit_its_rack(wired: FabricDocument):
    with pytest.raises(ModelError, match="does not fit rack"):
        add_device(wired, Device(id="x", name="gpu-002", model=DGX, rack="r1", ru=45))
    with pytest.raises(ModelError, match="rack 'r9' does not exist"):
        add_device(wired, Device(id="x", name="gpu-002", model=DGX, rack="r9", ru=1))


def test_design_case_breakout_splitter(doc: FabricDocument):
    """DESIGN.md §2 case 2: one MCP7Y10 splitter, two links sharing one assembly id."""
    add_device(doc, Device(id="leaf2", name="leaf-02", model=SN5600, cages={3: CageConfig(mode="2x400G")}))
    add_device(doc, Device(id="h1", name="hgx-01", model="generic-hgx-8-gpu-b3140h"))
    add_device(doc, Device(id="h2", name="hgx-02", model="generic-hgx-8-gpu-b3140h"))
    doc.apply([
        AddLink(link("a", ("leaf2", "swp3s0"), ("h1", "p1"), cable="nvidia-mcp7y10", assembly="asm-1")),
        AddLink(link("b", ("leaf2", "swp3s1"), ("h2", "p1"), cable="nvidia-mcp7y10", assembly="asm-1")),
    ])
    assert {doc.links["a"].assembly, doc.links["b"].assembly} == {"asm-1"}
    assert doc.port("leaf2", "swp3s0").speed_gbps == 400


def test_a_port_cannot_be_linked_to_itself(wired: FabricDocument):
    with pytest.raises(ModelError, match="cannot connect a port to itself"):
        add_link(wired, link("loop", ("gpu1", "p2"), ("gpu1", "p2")))


def test_snapshot_does_not_see_later_edits(wired: FabricDocument):
    snap = wired.snapshot()
    update_link(wired, "l1", length_m=30.0)
    remove_device(wired, "gpu1")
    assert snap.links["l1"].length_m is None
    assert snap.link_at("leaf1", "5/1").id == "l1" and "gpu1" in snap.devices
    assert snap.revision < wired.revision


def test_bulk_link_run_rolls_back_on_a_late_failure(wired: FabricDocument):
    before = snapshot(wired)
    add_device(wired, Device(id="leaf2", name="leaf-02", model=QM9700))
    before = snapshot(wired)
    ops = [AddLink(link(f"x{i}", ("leaf2", f"{i}/1"), ("leaf1", f"{i + 10}/1"))) for i in range(1, 6)]
    ops.append(AddLink(link("x9", ("leaf2", "9/1"), ("leaf1", "5/1"))))  # 5/1 carries l1
    with pytest.raises(ModelError, match="already carries link l1"):
        wired.apply(ops)
    assert snapshot(wired) == before
    applied = wired.apply(ops[:5])
    assert applied.changes.links == {f"x{i}" for i in range(1, 6)}
    assert applied.changes.devices == {"leaf1", "leaf2"}
    wired.apply(applied.inverse)
    assert snapshot(wired) == before


def test_update_validates_changed_fields_and_refuses_unknown_ones(wired: FabricDocument):
    update_device(wired, "gpu1", position=(10, 20), tags={"su": "2"})
    assert wired.devices["gpu1"].position == (10.0, 20.0)
    with pytest.raises(ModelError, match="unknown field 'colour'"):
        update_device(wired, "gpu1", colour="red")
    with pytest.raises(ModelError, match="position"):
        update_device(wired, "gpu1", position="left")
    assert wired.devices["gpu1"].tags == {"su": "2"}


def _links_by_end(doc: FabricDocument) -> dict[str, set[str]]:
    """Device id -> ids of the links with an end on it, read from the links themselves."""
    expected: dict[str, set[str]] = {d: set() for d in doc.devices}
    for lk in doc.links.values():
        expected[lk.a.device].add(lk.id)
        expected[lk.b.device].add(lk.id)
    return expected


@pytest.mark.parametrize("asked_first", [False, True], ids=["index-built-late", "index-built-first"])
def test_links_of_a_device_follow_edits_made_before_or_after_the_first_question(
        catalog, asked_first: bool):
    """The device -> links index is built on the first question; edits made before it (a
    device removed with its links, then restored in one run) show in its answers exactly as
    when it was built first (a refused mode change before it: test_mode_change_that_strands...)."""
    from pathlib import Path

    from aicnet_gui.fileio import load_fabric

    doc = load_fabric(Path(__file__).parent.parent / "examples" / "superpod-1su.fabric", catalog)
    snap = doc.snapshot()
    if asked_first:
        assert doc.link_ids_of(next(iter(doc.devices))) is not None
    leaf = doc.devices["leaf-01"]
    first_port = next(iter(doc.ports(leaf.id)))
    holder = doc.link_at(leaf.id, first_port).id
    applied = doc.apply([RemoveDevice(leaf.id)])
    assert holder in applied.changes.links and holder not in doc.links
    assert _links_by_end(doc) == {d: doc.link_ids_of(d) for d in doc.devices}
    doc.apply(applied.inverse)
    assert doc.link_at(leaf.id, first_port).id == holder
    assert _links_by_end(doc) == {d: doc.link_ids_of(d) for d in doc.devices}
    assert sorted(lk.id for lk in doc.links_of(leaf.id)) == sorted(doc.link_ids_of(leaf.id))
    assert _links_by_end(snap) == {d: snap.link_ids_of(d) for d in snap.devices}


def test_a_rack_or_workload_cannot_take_an_id_another_object_has(small):
    from aicnet_gui.model.fabric import Rack, Workload

    with pytest.raises(ModelError, match="already used"):
        add_workload(small, Workload(id="l1", name="clash", members=["gpu1"]))  # a link's id
    with pytest.raises(ModelError, match="already used"):
        add_workload(small, Workload(id="r1", name="clash", members=["gpu1"]))  # a rack's id
    with pytest.raises(ModelError, match="already used"):
        add_rack(small, Rack(id="w1", name="R99"))  # a workload's id
    assert set(small.workloads) == {"w1"} and set(small.racks) == {"r1"}
