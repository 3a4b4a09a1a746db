"""Issue 32, item 9: the editor as an architect draws by hand at 1440x900, each rough edge
fixed at its cause."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SERVER, LEAF = "nvidia-dgx-h100", "nvidia-sn5600"


@pytest.fixture
def hand(window, qtbot):  # noqa: ANN001, ANN201
    """The main window at 1440x900, as the architect uses it (palette, docks and all)."""
    window.resize(1440, 900)
    qtbot.waitUntil(lambda: window.width() == 1440)
    return window


def _visible(view) -> QRectF:  # noqa: ANN001
    return view.mapToScene(view.viewport().rect()).boundingRect()


def _twelve_devices(window) -> list[str]:  # noqa: ANN001
    """8 servers, 2 leaves and 2 more switches dropped from the palette, as a user adds them."""
    return [window.editor.add_device(model) for model in [SERVER] * 8 + [LEAF] * 4]


def test_fit_to_view_shows_the_whole_of_a_small_hand_drawn_design(hand):
    _twelve_devices(hand)
    hand.fit_current()
    view, scene = hand.topology_view, hand.topology
    assert _visible(view).contains(scene.content_rect())
    for item in scene.items_by_id.values():
        assert _visible(view).contains(item.sceneBoundingRect()), item.name


def _box(window, device_id: str) -> QRectF:  # noqa: ANN001
    return window.topology.items_by_id[device_id].sceneBoundingRect()


def _band_of(window, device_id: str) -> list[int]:  # noqa: ANN001
    """The tiers of the bands that hold the device (one, when the bands are right)."""
    scene = window.topology
    scene.content_rect()  # lays out pending moves
    box = _box(window, device_id)
    return [tier for tier, rect in scene.bands.bands() if rect.contains(box)]


def test_used_as_spine_moves_the_devices_into_a_spine_row_above_the_leaves(hand):
    ids = _twelve_devices(hand)
    doc = hand.document.fabric
    leaves, spines = ids[8:10], ids[10:]
    before = {d: doc.devices[d].position for d in spines}
    assert hand.editor.set_role(spines, "spine")
    assert [doc.tier_of(d) for d in spines] == [2, 2]
    leaf_top = min(_box(hand, d).top() for d in leaves)
    for device_id in spines:
        assert _box(hand, device_id).bottom() < leaf_top  # above the leaf row, not in it
        assert _band_of(hand, device_id) == [2]
    assert not _box(hand, spines[0]).intersects(_box(hand, spines[1]))  # side by side
    for device_id in leaves:
        assert _band_of(hand, device_id) == [1]  # the leaves keep their own LEAF band
    # two more spines from the palette join the spine row, each at its own spot
    added = [hand.editor.add_device("nvidia-q3400-ra") for _ in range(2)]
    boxes = [_box(hand, d) for d in spines + added]
    assert all(box.bottom() < leaf_top for box in boxes)
    assert not any(a.intersects(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    for _ in added:
        hand.document.undo_stack.undo()
    hand.document.undo_stack.undo()  # the role change is one step: roles and places return
    assert {d: doc.devices[d].position for d in spines} == before
    assert [doc.tier_of(d) for d in spines] == [1, 1]
    assert all(_band_of(hand, d) == [1] for d in spines)


def test_the_tier_bands_follow_a_role_changed_in_place(hand):
    """A role edited without a move (a file, a script, the generic device edit) still puts the
    device in its tier's band: the bands are laid out again when a tier changes."""
    from aicnet_gui.model.catalog_entities import Role

    ids = _twelve_devices(hand)
    assert _band_of(hand, ids[-1]) == [1]  # (the bands of the adds are laid out)
    assert hand.editor.update_devices([ids[-1]], {"role": Role.SPINE}, "Use as spine")
    assert 2 in _band_of(hand, ids[-1])  # a SPINE band is laid out where it sits


IB_LEAF = "nvidia-qm9700"


def _wired_without_racks(window) -> tuple[list[str], list[str]]:  # noqa: ANN001
    """2 servers rail-wired to 8 leaves (16 cables), nothing in a rack, no media chosen."""
    servers = [window.editor.add_device(SERVER) for _ in range(2)]
    leaves = [window.editor.add_device(IB_LEAF) for _ in range(8)]
    assert window.editor.rail_wiring(servers, leaves)
    return servers, leaves


def _current_report(window, qtbot):  # noqa: ANN001, ANN202
    qtbot.waitUntil(window.validator.current, timeout=30_000)
    qtbot.waitUntil(lambda: window.findings.fixable, timeout=30_000)
    return window.validator.report


def test_fix_all_cable_unset_says_why_it_cannot_fix_when_no_length_is_known(hand, qtbot):
    servers, leaves = _wired_without_racks(hand)
    report = _current_report(hand, qtbot)
    assert sum(f.code == "CABLE-UNSET" for f in report.findings) == 16
    rules = hand.findings.rules
    rules.choose("CABLE-UNSET")
    assert rules.fix_button.text() == "Fix all 16 CABLE-UNSET"
    assert not rules.fix_button.isEnabled()  # it would fix nothing
    tip = rules.fix_button.toolTip()
    assert "no rack" in tip and "gpu-001" in tip and "no length is known for 16 cables" in tip
    assert hand.editor.place_in_new_racks(servers + leaves)
    _current_report(hand, qtbot)
    rules.choose("CABLE-UNSET")
    assert rules.fix_button.isEnabled()  # lengths known: the media choice can equip them


def test_choose_media_says_no_length_is_known_and_offers_to_place_the_devices(
        hand, qtbot, monkeypatch):
    from aicnet_gui.gui.dialogs import messages

    servers, leaves = _wired_without_racks(hand)
    asked: list[str] = []
    answer = ["show"]  # messages.SHOW: show them on the Floor
    monkeypatch.setattr(messages, "ask_place_devices",
                        lambda _parent, text: (asked.append(text), answer[0])[1], raising=False)
    doc = hand.document.fabric
    hand.select_ids(servers, [], [])
    hand.edits.choose_media()
    assert asked and "No length is known for 16 cables" in asked[0]
    assert "10 devices at their ends are in no rack" in asked[0] and "gpu-001" in asked[0]
    assert hand.tabs.currentIndex() == 1  # shown on the Floor, in the tray, selected
    assert set(hand.floor.selected_device_ids()) == set(servers + leaves)
    assert all(link.cable is None for link in doc.links.values())
    answer[0] = "place"  # messages.PLACE: place them in new racks
    hand.show_tab(0)
    hand.select_ids(servers, [], [])
    hand.edits.choose_media()
    assert all(doc.devices[d].rack in doc.racks and doc.devices[d].ru for d in servers + leaves)
    assert all(link.cable is not None for link in doc.links.values())  # media chosen at once
    servers_racks = {doc.devices[d].rack for d in servers}
    assert not servers_racks & {doc.devices[d].rack for d in leaves}  # network racks apart
    stack = hand.document.undo_stack
    stack.undo()  # the media
    assert all(link.cable is None for link in doc.links.values())
    stack.undo()  # the placing
    assert not doc.racks and all(doc.devices[d].rack is None for d in servers + leaves)


def test_ctrl_f_finds_a_device_by_name_or_id_with_completion_and_centres_it(hand, qtbot):
    from PySide6.QtGui import QKeySequence

    assert hand.open_path(EXAMPLES / "superpod-4su.fabric", ask=False)
    doc = hand.document.fabric
    action = hand.actions_by_name["find"]
    assert QKeySequence("Ctrl+F") in action.shortcuts()
    action.trigger()
    box = hand.edits.find_box
    assert box is not None and box.isVisible()
    names = box.model.stringList()
    assert len(set(names)) >= len(doc.devices)  # every name (ids that are not names follow)
    box.line.setText("gpu-1")  # part of a name: the completer offers what contains it
    box.completer.setCompletionPrefix("gpu-1")
    offered = [box.completer.completionModel().index(r, 0).data()
               for r in range(box.completer.completionModel().rowCount())]
    assert offered and all("gpu-1" in name for name in offered)
    target = doc.device_by_name("gpu-117")
    box.line.setText("GPU-117")  # case aside
    assert box.go()
    view, scene = hand.topology_view, hand.topology
    assert scene.selected_device_ids() == [target.id]
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    assert visible.contains(scene.items_by_id[target.id].sceneBoundingRect().center())
    assert not box.isVisible()
    action.trigger()
    box.line.setText(next(iter(doc.devices)))  # by id
    assert box.go() and scene.selected_device_ids() == [next(iter(doc.devices))]
    action.trigger()
    box.line.setText("no such device")
    assert not box.go() and "No device" in box.note.text() and box.isVisible()
    box.close()


def test_switching_to_rocev2_brings_its_defaults_undoably_and_says_so(hand, qtbot):
    from aicnet_gui.model.fabric import FabricTechnology

    _wired_without_racks(hand)
    settings = lambda: hand.document.fabric.settings  # noqa: E731
    assert (settings().technology, settings().mtu) == (FabricTechnology.INFINIBAND, 4096)
    said: list[str] = []
    hand.editor.message.connect(lambda text, _level: said.append(text))
    hand.select_ids([], [], [])
    page = hand.inspector.fabric_page
    page.technology.setCurrentIndex(page.technology.findData("rocev2"))
    page.technology.activated.emit(page.technology.currentIndex())  # as a user's choice
    s = settings()
    assert (s.technology, s.mtu, s.pfc, s.ecn, s.dcb) == (FabricTechnology.ROCEV2, 9000, True,
                                                          True, True)
    assert any("MTU 4096 → 9000" in text and "PFC on" in text for text in said)
    report = _current_report(hand, qtbot)
    assert not {"MTU-MISMATCH", "ROCE-NO-PFC-ECN"} & {f.code for f in report.findings}
    hand.document.undo_stack.undo()  # one step: the technology and its defaults go back
    s = settings()
    assert (s.technology, s.mtu, s.pfc, s.ecn) == (FabricTechnology.INFINIBAND, 4096, False, False)


def test_the_settings_dialog_fills_in_a_new_technologys_defaults(hand):
    from aicnet_gui.model.edits import UpdateSettings

    dialog = hand.editor.open_fabric_settings(hand)
    form = dialog.network
    form.set_values({"technology": "ethernet"})  # as the combo does, announcing the change
    assert form.values()["mtu"] == 9000 and form.values()["ecmp_policy"] == "5-tuple hash"
    assert not dialog.technology_note.isHidden() and "MTU 9000" in dialog.technology_note.text()
    (op,) = dialog.operations()
    assert isinstance(op, UpdateSettings) and op.changes["mtu"] == 9000
    dialog.reject()


def _cut_texts(tree) -> list[str]:  # noqa: ANN001
    """The label and value texts of the metrics tree its columns cut (every row, opened)."""
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QStyle

    from aicnet_gui.gui.panels.metrics import BAR_ROLE

    tree.expandAll()
    metrics = QFontMetrics(tree.font())
    pad = 2 * (tree.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, tree) + 1)
    model, cut = tree.model(), []
    stack = [tree.rootIndex()]
    while stack:
        parent = stack.pop()
        for row in range(model.rowCount(parent)):
            stack.append(model.index(row, 0, parent))
            if tree.isFirstColumnSpanned(row, parent):
                continue
            for column in range(model.columnCount(parent)):
                index = model.index(row, column, parent)
                need = metrics.horizontalAdvance(index.data() or "") + pad
                if any(index.siblingAtColumn(c).data(BAR_ROLE) for c in range(3)) and column:
                    need += 10 + 8  # the narrowest bar beside the value
                if need > tree.visualRect(index).width():
                    cut.append(index.data())
    return cut


@pytest.mark.parametrize("name", ["superpod-1su", "superpod-4su", "roce-enterprise"])
def test_metrics_labels_and_values_are_whole_at_the_default_width(hand, qtbot, name):
    hand.metrics.raise_()
    assert hand.open_path(EXAMPLES / f"{name}.fabric", ask=False)
    qtbot.waitUntil(hand.validator.current, timeout=30_000)
    qtbot.waitUntil(lambda: hand.validator.bom is not None, timeout=30_000)
    qtbot.waitUntil(lambda: hand.metrics.section("Bill of materials") is not None, timeout=30_000)
    assert hand.metrics.width() <= 420  # the dock as the window opens it the first time
    cut = _cut_texts(hand.metrics.tree)
    long_lists = {hand.metrics.row_texts("Bill of materials").get("No power figure")}
    assert [text for text in cut if text not in long_lists] == []


def test_the_whatif_is_a_table_and_what_fails_is_chosen_by_name(hand, qtbot):
    from aicnet_gui.gui.whatif_dialog import WORKLOAD_COLUMNS

    assert hand.open_path(EXAMPLES / "superpod-1su.fabric", ask=False)
    hand.select_ids([], [], [])
    tools = hand.change_tools
    hand.actions_by_name["whatif"].trigger()  # nothing selected: the window waits for a choice
    dialog = tools.whatif
    assert dialog is not None and dialog.isVisible() and dialog.result is None
    offered = dialog.tokens_model.stringList()
    assert "spine-01" in offered and "rail:1" in offered
    dialog.entry.setText("spine-01")
    with qtbot.waitSignal(tools.failed_over, timeout=30_000) as blocker:
        dialog.run()
    result = blocker.args[0]
    spine = hand.document.fabric.device_by_name("spine-01").id
    assert result.failure.label == "spine-01"
    assert result.links == len(hand.document.fabric.link_ids_of(spine))
    table = dialog.workloads
    assert table.rowCount() == len(result.workloads) >= 1
    assert [table.horizontalHeaderItem(k).text() for k in range(table.columnCount())] == [
        c.title for c in WORKLOAD_COLUMNS]
    impact = result.workloads[0]
    assert dialog.cell("Workload") == impact.name
    assert dialog.cell("GPUs cut off") == str(len(impact.lost))
    before, after = impact.before.bisection_gbps / 1000, impact.after.bisection_gbps / 1000
    assert dialog.cell("Bisection (Tb/s)") == (f"{before:,.4g}" if before == after
                                               else f"{before:,.4g} → {after:,.4g}")
    # a whole rail, chosen from the list of names; a name that is nothing is refused in words
    dialog.set_tokens(["rail:1"])
    with qtbot.waitSignal(tools.failed_over, timeout=30_000) as blocker:
        dialog.run()
    assert blocker.args[0].links == len([lk for lk in hand.document.fabric.links.values()
                                         if lk.rail == 1])
    dialog.set_tokens(["no-such-switch"])
    dialog.run()
    assert "no-such-switch" in dialog.status.text() and "not a device" in dialog.status.text()
    dialog.close()


def test_a_pod_caption_too_long_for_its_row_is_its_title_not_a_cut_text():
    """Far out on a 400-SU design each pod's row is thin: `Pod 7: 256 serv…` was written;
    the caption falls back to the title alone (the contents are in the tooltip)."""
    from aicnet_gui.editing.overview import Block, BlockKey
    from aicnet_gui.gui.canvas.overview_layer import _Label

    block = Block(BlockKey("pod", "7"), "Pod 7", {"gpu_server": 256, "leaf": 64})
    label = _Label(block, block.text, 2048, QRectF(0, 0, 90, 10), line=14.0)
    width = 7.0  # px per character
    assert label.text(400, lambda c: len(c) * width <= 400).startswith("Pod 7: 256 servers")
    assert label.text(60, lambda c: len(c) * width <= 60) == "Pod 7"


def _sixteen_sus(tmp_path: Path) -> Path:
    from aicnet_gui.catalog.loader import builtin_catalog
    from aicnet_gui.fileio import save_fabric
    from aicnet_gui.generators import RailOptimizedParams, generate
    from aicnet_gui.model.document import FabricDocument

    doc = FabricDocument(builtin_catalog())
    generate(doc, RailOptimizedParams(sus=16, nodes_per_su=32))
    path = tmp_path / "16su.fabric"
    save_fabric(doc, path, keep_backup=False)
    return path


def test_close_up_on_a_big_design_the_trunks_to_far_spines_are_stubs(hand, tmp_path):
    """Zoomed in on a server row of a big design, a leaf-spine cable whose spine is off screen is
    drawn as a short stub from its leaf, not across the rows below; a click on a row where the
    whole line would pass picks no cable."""
    from aicnet_gui.gui.canvas import lod

    assert hand.open_path(_sixteen_sus(tmp_path), ask=False)
    doc, scene, view = hand.document.fabric, hand.topology, hand.topology_view
    assert len(doc.links) > lod.SMALL_FABRIC_LINKS
    leaf = doc.device_by_name("leaf-0001") or doc.device_by_name("leaf-001") \
        or next(d for d in doc.devices.values() if doc.tier_of(d) == 1)
    trunk = next(doc.links[i] for i in doc.link_ids_of(leaf.id)
                 if doc.tier_of(doc.links[i].b.device if doc.links[i].a.device == leaf.id
                                else doc.links[i].a.device) == 2)
    view.set_zoom(1.0)
    view.centerOn(scene.items_by_id[leaf.id].sceneBoundingRect().center())
    view.viewport().repaint()
    links = scene.links
    ax, ay, bx, by = links.endpoints(trunk.id)
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    assert visible.contains(ax, ay) != visible.contains(bx, by)  # one end on screen
    near = (ax, ay) if visible.contains(ax, ay) else (bx, by)
    far = (bx, by) if near == (ax, ay) else (ax, ay)
    stub = 40.0 / view.scale_factor()  # lod.STUB_PX

    def along(d: float) -> tuple[float, float]:
        length = ((far[0] - near[0]) ** 2 + (far[1] - near[1]) ** 2) ** 0.5
        return (near[0] + (far[0] - near[0]) * d / length, near[1] + (far[1] - near[1]) * d / length)

    assert links.link_at(*along(stub / 2), 0.5) == trunk.id  # the stub is there
    beyond = along(min(4 * stub, 0.9 * visible.height()))
    assert links.link_at(*beyond, 0.5) != trunk.id  # the rest of the line is not drawn
