"""The PDF's topology diagram boxes a leaf that serves several SUs (tag `sus`) with those SUs:
`SUs 3–4` over the server boxes `SU 3` and `SU 4`, checked against the cables each box's
bundles carry, not the tags the boxes are made from."""

from __future__ import annotations

import pytest

from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.report.topology_diagram import _range_title, _su_numbers, build_diagram


def _generated(catalog, params: RailOptimizedParams) -> FabricDocument:  # noqa: ANN001
    doc = FabricDocument(catalog)
    generate(doc, params)
    return doc


def _sus(title: str) -> set[int]:
    """The SUs a box title names: `SU 3`, `SUs 3–4`, `SUs 1–8 plane 2`."""
    numbers = _su_numbers(title)
    assert numbers is not None, title
    return set(numbers)


DESIGNS = {
    # 16 SUs, two per 128-port SN5600 leaf: 8 leaf boxes
    "h100-sn5600-16su": RailOptimizedParams(sus=16, leaf="nvidia-sn5600", choose_media=False),
    # 32 SUs: 16 leaf groups, merged two to a box (12 boxes at most in a row)
    "h100-sn5600-32su": RailOptimizedParams(sus=32, leaf="nvidia-sn5600", choose_media=False),
    # 15 SUs: the last leaves carry one SU (tag `su`)
    "h100-sn5600-15su": RailOptimizedParams(sus=15, leaf="nvidia-sn5600", choose_media=False),
    # four planes of DGX B300 on SN5610, two SUs per leaf: 32 leaf groups, 3 boxes per plane
    "b300-4-plane-16su": RailOptimizedParams(sus=16, server="nvidia-dgx-b300",
                                             leaf="nvidia-sn5610", planes=4, choose_media=False),
    "b300-4-plane-15su": RailOptimizedParams(sus=15, server="nvidia-dgx-b300",
                                             leaf="nvidia-sn5610", planes=4, choose_media=False),
}


@pytest.mark.parametrize("name", DESIGNS)
def test_a_leaf_box_holds_the_sus_its_cables_serve(catalog, name):  # noqa: ANN001
    doc = _generated(catalog, DESIGNS[name])
    assert any("sus" in d.tags for d in doc.devices.values())
    diagram = build_diagram(doc)
    assert diagram.grouping[1] == "su"
    leaves = {k: n for k, n in diagram.nodes.items() if n.tier == 1}
    servers = {k: n for k, n in diagram.nodes.items() if n.tier == 0}
    assert 2 <= len(leaves) <= 12 and all(n.title.startswith("SU") for n in leaves.values())
    # a leaf box holds one plane's leaves; in each plane the boxes' SUs do not overlap and
    # cover every SU
    by_plane: dict[str | None, list[set[int]]] = {}
    for node in leaves.values():
        (plane,) = {doc.devices[m].plane for m in node.members}
        by_plane.setdefault(plane, []).append(_sus(node.title))
    assert len(by_plane) == (DESIGNS[name].planes or 1)
    for named in by_plane.values():
        assert sum(map(len, named)) == len(set().union(*named)) == DESIGNS[name].sus
    # each server-to-leaf bundle joins a server box to the leaf box that holds its SUs
    for bundle in diagram.bundles:
        if bundle.a in servers and bundle.b in leaves:
            assert _sus(servers[bundle.a].title) <= _sus(leaves[bundle.b].title), (
                servers[bundle.a].title, leaves[bundle.b].title)
    # and every leaf box is cabled to servers of each of its SUs
    for key, node in leaves.items():
        reached = set().union(*(_sus(servers[b.a].title) for b in diagram.bundles
                                if b.b == key and b.a in servers))
        assert reached == _sus(node.title), node.title


def test_merged_titles_read_as_one_run_of_sus():
    assert _range_title("SUs 1–2", "SUs 7–8") == "SUs 1–8"
    assert _range_title("SUs 1–2 plane 1", "SUs 3–4 plane 1") == "SUs 1–4 plane 1"
    assert _range_title("SUs 13–14", "SU 15") == "SUs 13–15"
    assert _range_title("SU 1", "SU 11") == "SUs 1–11"  # as the leaf groups read
    assert _range_title("SU 1 plane 1", "SU 4 plane 1") == "SUs 1–4 plane 1"
    assert _range_title("rack 1", "rack 9") == "rack 1…9"
    assert _range_title("rack a1", "rack b2") == "rack a1 … rack b2"
