"""A leaf that carries its rail of several SUs (a leaf group, tag `sus`) sits over the servers of
those SUs, and the picture stays about as wide as the layout aims (canvas_layout.ASPECT).

The layout groups devices by their tags; these tests check it against what the tags do not
decide: the servers each leaf is cabled to, read from the links.  Before leaf groups had their
own blocks, a 16-SU DGX H100 fabric on SN5600 (two SUs per leaf) put its 64 leaves in one block
of their own beside the servers (half of them over no server of theirs), and 64 SUs of DGX B300
in four planes stacked 1,024 leaves in a column left of a 128,000-unit strip of servers (5:1)."""

from __future__ import annotations

from collections import defaultdict

import pytest

from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.generators.canvas_layout import ASPECT, panel_size
from aicnet_gui.generators.template_params import FloorParams
from aicnet_gui.model.document import FabricDocument

B300_FLOOR = FloorParams(rack_power_kw=61)

Box = tuple[float, float, float, float]


def _boxes(doc: FabricDocument) -> dict[str, Box]:
    """(left, top, right, bottom) of every device as placed."""
    out = {}
    for device in doc.devices.values():
        width, height = panel_size(doc.catalog.devices[device.model])
        x, y = device.position
        out[device.id] = (x, y, x + width, y + height)
    return out


def _servers_of_each_leaf(doc: FabricDocument) -> dict[str, set[str]]:
    """Leaf id -> the servers cabled to it (from the links, not the tags)."""
    role = {d.id: doc.role_of(d).value for d in doc.devices.values()}
    served: dict[str, set[str]] = defaultdict(set)
    for link in doc.links.values():
        for leaf, other in ((link.a.device, link.b.device), (link.b.device, link.a.device)):
            if role[leaf] == "leaf" and role[other] == "gpu_server":
                served[leaf].add(other)
    return served


def _generated(catalog, params: RailOptimizedParams) -> FabricDocument:
    doc = FabricDocument(catalog)
    generate(doc, params)
    return doc


DESIGNS = [
    # one plane, two 32-node SUs per 128-port SN5600 leaf: 8 leaf groups of 8 leaves
    RailOptimizedParams(sus=16, leaf="nvidia-sn5600", choose_media=False),
    # four planes of DGX B300 on SN5610 at 200G: two SUs per leaf, 32 leaves per group
    RailOptimizedParams(sus=16, server="nvidia-dgx-b300", leaf="nvidia-sn5610", planes=4,
                        floor=B300_FLOOR, choose_media=False),
    # an odd count: the last group's leaves carry one SU (tag `su`, not `sus`)
    RailOptimizedParams(sus=15, server="nvidia-dgx-b300", leaf="nvidia-sn5610", planes=4,
                        floor=B300_FLOOR, choose_media=False),
    # three tiers: leaf groups in pods under a core
    RailOptimizedParams(sus=24, leaf="nvidia-sn5600", tiers="3", sus_per_pod=8,
                        choose_media=False),
    # small SUs on QM9700: 8 SUs of 4 nodes a leaf (side by side under their leaves), 5 of 6
    # and 2 of 11 (narrower than a row of 8 leaves: the leaves wrap to the servers' width)
    RailOptimizedParams(sus=48, nodes_per_su=4, choose_media=False),
    RailOptimizedParams(sus=24, nodes_per_su=6, choose_media=False),
    RailOptimizedParams(sus=24, nodes_per_su=11, choose_media=False),
]
IDS = ["h100-sn5600-16su", "b300-4-plane-16su", "b300-4-plane-15su", "h100-sn5600-3-tier",
       "h100-4-node-sus", "h100-6-node-sus", "h100-11-node-sus"]


@pytest.mark.parametrize("params", DESIGNS, ids=IDS)
def test_each_leaf_of_a_group_sits_over_the_servers_it_is_cabled_to(catalog, params):
    doc = _generated(catalog, params)
    assert any("sus" in d.tags for d in doc.devices.values()), "no leaf carries several SUs"
    boxes = _boxes(doc)
    served = _servers_of_each_leaf(doc)
    assert served
    away = []
    for leaf, servers in served.items():
        left, top, right, bottom = boxes[leaf]
        s_left = min(boxes[s][0] for s in servers)
        s_right = max(boxes[s][2] for s in servers)
        s_top = min(boxes[s][1] for s in servers)
        # over them: its x-range overlaps theirs, and it is above the highest of them
        if not (left < s_right and s_left < right and bottom <= s_top):
            away.append(doc.devices[leaf].name)
    assert away == [], f"{len(away)} of {len(served)} leaves are not over their servers"


@pytest.mark.parametrize("params", DESIGNS, ids=IDS)
def test_the_servers_under_a_group_are_its_own(catalog, params):
    """The box around the servers a leaf is cabled to holds no other server: the group's SUs
    are a block of their own, not mixed with another group's."""
    doc = _generated(catalog, params)
    boxes = _boxes(doc)
    served = {frozenset(servers) for servers in _servers_of_each_leaf(doc).values()}
    every = {s for servers in served for s in servers}
    for servers in served:
        left = min(boxes[s][0] for s in servers)
        top = min(boxes[s][1] for s in servers)
        right = max(boxes[s][2] for s in servers)
        bottom = max(boxes[s][3] for s in servers)
        strangers = [s for s in every - servers if left <= boxes[s][0] and boxes[s][2] <= right
                     and top <= boxes[s][1] and boxes[s][3] <= bottom]
        assert strangers == []


@pytest.mark.parametrize("params", [
    RailOptimizedParams(sus=16, leaf="nvidia-sn5600", choose_media=False),
    RailOptimizedParams(sus=64, server="nvidia-dgx-b300", leaf="nvidia-sn5610", planes=4,
                        floor=B300_FLOOR, choose_media=False),
    # 8 SUs of 4 a leaf, 16 a pod: 7.6:1 with the leaves in bands of their own
    RailOptimizedParams(sus=400, nodes_per_su=4, choose_media=False),
], ids=["h100-sn5600-16su", "b300-4-plane-64su", "h100-400-sus-of-4"])
def test_the_picture_stays_about_as_wide_as_the_layout_aims(catalog, params):
    boxes = _boxes(_generated(catalog, params)).values()
    width = max(b[2] for b in boxes) - min(b[0] for b in boxes)
    height = max(b[3] for b in boxes) - min(b[1] for b in boxes)
    assert ASPECT / 2 <= width / height <= ASPECT * 1.5, f"{width:.0f} x {height:.0f}"


def test_a_leaf_group_and_its_servers_share_one_block_key():
    from aicnet_gui.generators.canvas_layout import LeafGroups, group_key

    class Device:
        def __init__(self, tags: dict[str, str]) -> None:
            self.id = self.name = str(tags)
            self.tags, self.rack = tags, None

    groups = LeafGroups(["1-2", "3-4", None, "9-x", "7-5"])
    assert group_key(Device({"sus": "3-4", "pod": "1"}), groups) == "su:3-4"
    assert group_key(Device({"su": "4", "pod": "1"}), groups) == "su:3-4"
    assert group_key(Device({"su": "5", "pod": "1"}), groups) == "su:5"  # no group carries it
    assert group_key(Device({"su": "2"})) == "su:2"  # without the groups: the SU alone
    assert group_key(Device({"pod": "2"}), groups) == "pod:2"
    assert groups.spans == ("1-2", "3-4")  # spans that are no range are ignored


class _Planned:
    """A device as the layout reads it (a generator's planned device)."""

    def __init__(self, name: str, tags: dict[str, str], tier: int, width: float) -> None:
        self.id = self.name = name
        self.tags, self.rack, self.tier, self.width = tags, None, tier, width


def test_the_switch_tiers_of_a_400_su_four_plane_design_keep_the_picture_wide():
    """400 SUs of 64 DGX B300 in four planes, as the generator tags them (200 leaf groups of 32
    SN5610 in pods of 16 SUs, 6,400 spines, 4,096 cores): the spine and core rows, held to
    16,000 units, stood 42,000 units high over rows of blocks 54,000 wide (0.7:1)."""
    from aicnet_gui.generators.canvas_layout import layout_devices

    devices = []
    for su in range(1, 401):
        pod = str((su - 1) // 16 + 1)
        devices += [_Planned(f"gpu-{len(devices):05d}", {"su": str(su), "pod": pod}, 0, 280.0)
                     for _ in range(64)]
    for first in range(1, 401, 2):
        tags = {"sus": f"{first}-{first + 1}", "pod": str((first - 1) // 16 + 1)}
        devices += [_Planned(f"leaf-{len(devices):05d}", dict(tags), 1, 769.0) for _ in range(32)]
    devices += [_Planned(f"spine-{k:04d}", {"pod": "1"}, 2, 769.0) for k in range(6400)]
    devices += [_Planned(f"core-{k:04d}", {}, 3, 769.0) for k in range(4096)]
    positions = layout_devices(devices, lambda d: d.tier, lambda d: (d.width, 46.0))
    by_id = {d.id: d for d in devices}
    width = max(x + by_id[k].width for k, (x, _y) in positions.items()) - min(
        x for x, _y in positions.values())
    height = max(y + 46.0 for _x, y in positions.values()) - min(y for _x, y in positions.values())
    assert ASPECT / 2 <= width / height <= ASPECT * 1.5, f"{width:.0f} x {height:.0f}"
