"""Racks, devices, links and workloads are slotted values with BaseModel's value API: what a
generator, a paste or a quick fix relies on when it copies, dumps and re-reads them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from aicnet_gui.model.fabric import Device, Endpoint, Link, Rack, Workload


def test_design_objects_hold_only_their_fields():
    # a 100k-link fabric's memory: no per-object field dict or fields-set
    for obj in (Link(id="l1", a=("a", "1"), b=("b", "1")), Rack(id="r", name="R"),
                Device(id="d", name="d", model="m"), Workload(id="w", name="w")):
        assert not hasattr(obj, "__dict__")


def test_ends_are_endpoints_whatever_sequence_they_come_as():
    link = Link.model_validate({"id": "l1", "a": ["gpu-1", "p1"], "b": ("leaf-1", "1/1")})
    assert type(link.a) is Endpoint and link.a.device == "gpu-1" and link.b.port == "1/1"
    assert link.a == ("gpu-1", "p1")  # the (device, port) key of the port index itself
    with pytest.raises(ValidationError) as bad:
        Link.model_validate({"id": "l1", "a": ["gpu-1", ""], "b": ["leaf-1", "1/1"]})
    assert bad.value.errors()[0]["loc"] == ("a", 1)
    with pytest.raises(ValidationError):
        Link.model_validate({"id": "l1", "a": ["gpu-1", "p1", "p2"], "b": ["leaf-1", "1/1"]})


def test_copy_changes_only_the_copy():
    link = Link(id="l1", a=("a", "1"), b=("b", "1"), cable="c1")
    copy = link.model_copy(update={"cable": "c2", "notes": "moved"})
    assert (copy.cable, copy.notes) == ("c2", "moved")
    assert (link.cable, link.notes) == ("c1", "")
    assert copy.a is link.a and copy == link.model_copy(update={"cable": "c2", "notes": "moved"})
    with pytest.raises(AttributeError, match="no field 'colr'"):
        link.model_copy(update={"colr": "blue"})


def test_dump_and_validate_round_trip_and_unknown_fields_are_refused():
    device = Device(id="d", name="d", model="m", tags={"su": "1"}, position=(1.0, 2.0))
    assert device.model_dump(mode="json", exclude_defaults=True) == {
        "id": "d", "name": "d", "model": "m", "position": [1.0, 2.0], "tags": {"su": "1"}}
    assert Device.model_validate(device.model_dump()) == device
    with pytest.raises(ValidationError, match="colour"):
        Device.model_validate({"id": "d", "name": "d", "model": "m", "colour": "red"})
    with pytest.raises(ValidationError):
        Rack(id="r", name="R", height_ru=0)
    assert list(Link.model_fields)[:3] == ["id", "a", "b"]


def test_devices_read_alike_share_one_cage_table_but_dumps_stay_their_own():
    cages = {"1": {"transceiver": "nvidia-mma4z00-ns"}, "2": {"mode": "2x400g"}}
    first, second = (Device.model_validate({"id": i, "name": i, "model": "m", "cages": cages})
                     for i in ("a", "b"))
    assert first.cages is second.cages  # validated once, held once
    one, two = first.model_dump(mode="json"), second.model_dump(mode="json")
    assert one["cages"] == two["cages"] and one["cages"] is not two["cages"]
    one["cages"]["1"]["transceiver"] = None  # changing a dump changes neither device
    assert second.model_dump(mode="json")["cages"]["1"]["transceiver"] == "nvidia-mma4z00-ns"


def test_trusted_constructor_carries_every_field_and_defaults_the_rest():
    # the generators' one way to make links without validation: a new field (patch) is carried
    from aicnet_gui.model.fabric import LinkPatch

    given = {"id": "l1", "a": Endpoint("gpu-1", "p1"), "b": Endpoint("leaf-1", "1/1"),
             "cable": "cord", "rail": 2, "patch": LinkPatch(mated_pairs=4)}
    made = Link.trusted(**given)
    assert made == Link.model_validate(given)
    assert made.patch == LinkPatch(mated_pairs=4) and made.notes == "" and made.pinned is False
    workload, other = Workload.trusted(id="w", name="w"), Workload.trusted(id="v", name="v")
    assert workload.members == [] and workload.members is not other.members  # factory per object
    with pytest.raises(TypeError):
        Link.trusted(id="l2", a=Endpoint("gpu-1", "p1"))  # a required field missing
    with pytest.raises(TypeError):
        Link.trusted(id="l2", a=Endpoint("gpu-1", "p1"), b=Endpoint("x", "1"), colour_x="red")
