"""File > Compare With... and View > Failure What-If on Selection, in the editor."""

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
    assert "GPUs that lose all paths: 8" in window.change_tools.report.text.toPlainText()
    assert window.document.fabric.revision == revision
    assert not window.document.dirty
