"""Both canvases mirror the document through one contract (canvas/mirror.py): a canvas layer
registered with either mirror is told every rebuild, edit and zoom after the mirror followed it,
and asks either mirror where a device or a cable is drawn."""

from __future__ import annotations

from pathlib import Path

import pytest

from aicnet_gui.gui.canvas import lod
from aicnet_gui.gui.canvas.floor_mirror import FloorMirror
from aicnet_gui.gui.canvas.mirror import SceneMirror
from aicnet_gui.gui.canvas.scene_data import TopologyData
from aicnet_gui.gui.canvas.topology_mirror import TopologyMirror
from aicnet_gui.model.edits import ChangeSet

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


class ProbeLayer:
    """A canvas layer that records what it was told, and where its mirror drew things then."""

    def __init__(self, mirror: SceneMirror) -> None:
        self.mirror = mirror
        self.events: list[tuple[str, object]] = []

    def mirror_reset(self, source: object) -> None:
        self.events.append(("reset", source))

    def mirror_changed(self, changes: ChangeSet) -> None:
        # the mirror has followed the edit already: the devices it names are where the model says
        moved = {d: self.mirror.device_rect(d) for d in changes.devices}
        self.events.append(("changed", (changes, moved)))

    def mirror_scale(self, scale: float) -> None:
        self.events.append(("scale", scale))

    def kinds(self) -> list[str]:
        return [kind for kind, _what in self.events]


@pytest.fixture
def probes(window):  # noqa: ANN001, ANN201
    window.show_tab(1)  # the Floor follows edits only while it is shown
    floor = ProbeLayer(window.floor.mirror)
    topology = ProbeLayer(window.topology.mirror)
    window.topology.mirror.add_layer(topology)
    window.floor.mirror.add_layer(floor)
    return topology, floor


def test_both_canvases_implement_the_one_contract(window):
    assert isinstance(window.topology.mirror, TopologyMirror)
    assert isinstance(window.floor.mirror, FloorMirror)
    assert all(isinstance(m, SceneMirror) for m in (window.topology.mirror, window.floor.mirror))


def test_a_layer_is_told_each_rebuild_edit_and_zoom_on_both_canvases(window, probes):
    topology, floor = probes
    assert window.open_path(EXAMPLES / "superpod-1su.fabric", ask=False)  # then fitted
    assert topology.kinds()[-2:] == ["reset", "scale"] and floor.kinds()[-2:] == ["reset", "scale"]
    assert isinstance(topology.events[-2][1], TopologyData)
    doc = window.document.fabric
    device = next(d for d in doc.devices.values() if d.rack is not None and d.ru is not None)
    assert window.editor.place_devices({device.id: (None, None)})  # out of its rack
    for probe, scene in ((topology, window.topology), (floor, window.floor)):
        kind, (changes, moved) = probe.events[-1]
        assert kind == "changed" and device.id in changes.devices, probe
        item = scene.items_by_id[device.id]
        assert moved[device.id] == item.sceneBoundingRect()  # told after the mirror moved it
    assert window.floor.items_by_id[device.id].in_tray
    window.topology_view.set_zoom(lod.FAR_SCALE / 2)
    assert topology.events[-1] == ("scale", pytest.approx(lod.FAR_SCALE / 2))
    assert window.topology.mirror.far
    window.floor_view.set_zoom(0.5)
    assert floor.events[-1] == ("scale", pytest.approx(0.5)) and not window.floor.mirror.far


def test_a_hidden_floor_tells_its_layers_when_it_catches_up(window, probes):
    topology, floor = probes
    assert window.open_path(EXAMPLES / "superpod-1su.fabric", ask=False)
    window.show_tab(0)  # the Floor is hidden: it only notes that it is stale
    told = len(floor.events)
    leaf = next(d for d in window.document.fabric.devices.values()
                if window.document.fabric.tier_of(d) == 1)
    assert window.editor.update_devices([leaf.id], {"name": "leaf-renamed"}, "Rename")
    assert window.floor.stale and len(floor.events) == told  # nothing told of a stale picture
    assert topology.kinds()[-1] == "changed"
    window.show_tab(1)
    assert not window.floor.stale and floor.kinds()[-1] == "reset"


def test_either_mirror_says_where_a_device_and_a_cable_are(window):
    assert window.open_path(EXAMPLES / "small-hgx.fabric", ask=False)
    doc = window.document.fabric
    link = next(iter(doc.links.values()))
    for scene in (window.topology, window.floor):
        mirror = scene.mirror
        a = mirror.device_rect(link.a.device)
        assert a == scene.items_by_id[link.a.device].sceneBoundingRect()
        line = mirror.link_line(link.id)
        assert line is not None and line.length() > 0
        assert mirror.device_rect("no-such-device") is None and mirror.link_line("nope") is None
    # the Topology draws the cable port to port, as its link layer does
    ends = window.topology.links.endpoints(link.id)
    line = window.topology.mirror.link_line(link.id)
    assert (line.x1(), line.y1(), line.x2(), line.y2()) == pytest.approx(ends)
