"""File > Compare With... and View > Failure What-If (on the selection), in the editor."""

from __future__ import annotations

from aicnet_gui.fileio import save_fabric
from aicnet_gui.model.edits import UpdateLink
from aicnet_gui.model.fabric import Endpoint


def _open(qtbot, window, path):  # noqa: ANN001, ANN202
    assert window.open_path(path, ask=False)  # a synchronous open
    assert window.document.path == path.resolve()


def test_compare_with_selects_what_changed_here(qtbot, window, example_path, tmp_path):
    _open(qtbot, window, example_path)
    doc = window.document.fabric
    free = doc.free_ports("leaf-01")[0]
    # the open design moves one cable end; the other file is the revision before
    assert window.document.execute([UpdateLink("c001", {"b": Endpoint("leaf-01", free)})],
                                    "move c001")
    with qtbot.waitSignal(window.change_tools.compared, timeout=20_000) as blocker:
        window.change_tools.compare_with(example_path)
    diff = blocker.args[0]
    assert [r.new.id for r in diff.links_reterminated] == ["c001"]
    assert window.topology.selected_link_ids() == ["c001"]
    text = window.change_tools.report.text.toPlainText()
    assert "c001 re-terminated: leaf-01:swp1s0 -> leaf-01:" + free in text
    save_fabric(window.document.fabric, tmp_path / "same.fabric")
    with qtbot.waitSignal(window.change_tools.compared, timeout=20_000) as blocker:
        window.change_tools.compare_with(tmp_path / "same.fabric")
    assert blocker.args[0].empty
    assert "no changes" in window.change_tools.report.text.toPlainText()


def test_failure_whatif_on_the_selection_leaves_the_design_alone(qtbot, window, example_path):
    _open(qtbot, window, example_path)
    revision = window.document.fabric.revision
    window.select_ids(["gpu-001"], [], [])
    with qtbot.waitSignal(window.change_tools.failed_over, timeout=20_000) as blocker:
        window.actions_by_name["whatif"].trigger()
    result = blocker.args[0]
    assert result.gpus_lost == 8 and result.partitioned  # a server with every NIC down
    assert window.change_tools.whatif.cell("GPUs cut off") == "8"  # the what-if's table
    assert window.document.fabric.revision == revision
    assert not window.document.dirty


def test_failure_mode_greys_out_the_failed_parts_and_toggles_without_editing(
        qtbot, window, example_path, tmp_path):
    """After a what-if on leaf-01 (small-hgx: 8 server links + 8 uplinks = 16 cables), Failure
    Mode covers leaf-01 and draws its 16 cables as failed on the topology; the floor view greys
    the device too.  Turning the mode off clears both, on brings them back; nothing is edited.
    Another file forgets the failure."""
    _open(qtbot, window, example_path)
    doc = window.document.fabric
    leaf = doc.device_by_name("leaf-01").id
    cables = len(doc.link_ids_of(leaf))
    steps = window.document.undo_stack.count()
    revision = doc.revision
    window.select_ids([leaf], [], [])
    with qtbot.waitSignal(window.change_tools.failed_over, timeout=20_000):
        window.actions_by_name["whatif"].trigger()
    mode = window.actions_by_name["failure-mode"]
    assert mode.isEnabled() and mode.isChecked()
    tools = window.change_tools
    assert tools.topology_overlay.counts == (1, cables)
    assert tools.floor_overlay.counts[0] == 1
    mode.trigger()  # off
    assert tools.topology_overlay.counts == (0, 0) and tools.floor_overlay.counts == (0, 0)
    mode.trigger()  # on again
    assert tools.topology_overlay.counts == (1, cables)
    assert window.document.undo_stack.count() == steps
    assert window.document.fabric.revision == revision
    save_fabric(window.document.fabric, tmp_path / "other.fabric")
    _open(qtbot, window, tmp_path / "other.fabric")
    assert not mode.isEnabled() and not mode.isChecked()
    assert tools.topology_overlay.counts == (0, 0)
