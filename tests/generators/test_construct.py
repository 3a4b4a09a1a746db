"""Generated links are built from values validated once each; they must be the same Link objects
that validating every link gives, and a bad value must still be reported by pydantic."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from aicnet_gui.generators import RailOptimizedParams, TwoTierParams, construct
from aicnet_gui.generators.construct import LinkColumns, build_links
from aicnet_gui.model.fabric import Link


def columns(**changes) -> LinkColumns:
    """Three links of a small fabric, with `changes` to single columns."""
    values = {
        "ids": ["link-1", "link-2", "link-3"],
        "a_device": ["gpu-01", "gpu-02", "leaf-01"],
        "a_port": ["p1", "p1", "1/2"],
        "b_device": ["leaf-01", "leaf-01", "spine-01"],
        "b_port": ["1/1", "2/1", "1/1"],
        "cable": ["nvidia-mfp7e10", "nvidia-mfp7e10", None],
        "assembly": [None, None, "asm-1"],
        "rail": [1, 1, None],
        "colour": ["blue", "blue", None],
        "plane": ["compute", "compute", None],
    }
    values.update(changes)
    return LinkColumns(**values)


def test_built_links_equal_validated_links():
    built, validated = build_links(columns()), columns().validated()
    assert built == validated
    assert [x.model_dump() for x in built] == [x.model_dump() for x in validated]
    assert all(type(x) is Link for x in built)


def test_a_bad_value_is_reported_by_pydantic_for_its_link():
    with pytest.raises(ValidationError) as failure:
        build_links(columns(b_port=["1/1", "", "1/1"]))
    assert failure.value.errors()[0]["loc"] == (1, "b", 1)  # $[1].b[1]: the port of end b
    with pytest.raises(ValidationError):
        build_links(columns(rail=[1, "one", None]))


def test_without_the_shortcut_every_link_is_validated(monkeypatch):
    monkeypatch.setattr(construct, "_SHORTCUT", False)
    assert build_links(columns()) == columns().validated()


def test_changing_one_built_link_leaves_the_others_alone():
    first, second, _ = build_links(columns())
    first.notes = "patched by hand"
    assert second.notes == "" and first.notes == "patched by hand"
    copy = second.model_copy(update={"notes": "x"})
    assert copy.notes == "x" and second.notes == "" and copy.a is second.a


@pytest.mark.parametrize("params", [
    RailOptimizedParams(sus=2, leaf="nvidia-qm9700"),
    TwoTierParams(servers=4, server="generic-hgx-8-gpu-b3140h", leaf="nvidia-sn5600",
                  attach="tor"),
])
def test_generated_links_survive_a_validation_round_trip(params, make):
    doc, _ = make(params)
    links = list(doc.links.values())
    assert [Link.model_validate(x.model_dump()) for x in links] == links


def test_the_shortcut_holds_for_the_link_model_of_today():
    # were it off (Link changed in a way the trusted constructor does not cover), generators
    # would silently validate every link again: ~2x slower on 100k links
    assert construct._SHORTCUT
