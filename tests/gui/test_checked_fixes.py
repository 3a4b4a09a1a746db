"""The Fix button offers a fix only after it was applied to a copy and re-validated: a
multimode cord that would not reach is withheld (the reason is shown), the media re-choice for
the link is offered instead and applies as one undo step."""

from __future__ import annotations

from aicnet_gui.analysis import Severity
from aicnet_gui.model.edits import UpdateLink

SMF_CORD = "nvidia-mfp7e30"


def _validated(window, qtbot):  # noqa: ANN001, ANN202
    if not window.validator.current():
        with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
            pass
    assert window.validator.current()
    return window.validator.report


def _server_leaf_fibre(doc):  # noqa: ANN001, ANN202
    for link in sorted(doc.links.values(), key=lambda x: x.id):
        roles = {doc.role_of(link.a.device).value, doc.role_of(link.b.device).value}
        if roles == {"gpu_server", "leaf"} and link.cable == "nvidia-mfp7e10":
            return link
    raise AssertionError("no server-leaf MFP7E10 link")


def _select(window, code: str, link_id: str) -> None:  # noqa: ANN001
    proxy = window.findings.proxy
    for row in range(proxy.rowCount()):
        finding = window.findings.model.findings[proxy.mapToSource(proxy.index(row, 0)).row()]
        if finding.code == code and finding.objects[0] == link_id:
            window.findings.select_row(row)
            return
    raise AssertionError(f"no {code} on {link_id}")


def _break(window, qtbot, pinned: bool) -> str:  # noqa: ANN001
    _validated(window, qtbot)
    link = _server_leaf_fibre(window.document.fabric)
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.editor.apply_fix([UpdateLink(link.id, {"cable": SMF_CORD, "length_m": 70.0,
                                                      "pinned": pinned})], "break it")
    return link.id


def test_a_fix_that_would_cause_an_error_is_withheld(window, qtbot, example_path):
    assert window.open_path(example_path, ask=False)
    link_id = _break(window, qtbot, pinned=True)
    _select(window, "MEDIA-MISMATCH", link_id)
    assert not window.findings.fix_button.isEnabled()
    detail = window.findings.detail.text()
    assert "not offered as a one-click fix" in detail and "REACH-EXCEEDED" in detail
    assert "is pinned" in detail


def test_the_media_fix_is_offered_and_applies_as_one_step(window, qtbot, example_path):
    assert window.open_path(example_path, ask=False)
    link_id = _break(window, qtbot, pinned=False)
    _select(window, "MEDIA-MISMATCH", link_id)
    assert window.findings.fix_button.isEnabled()
    assert "re-equip" in window.findings.detail.text()
    steps = window.document.undo_stack.count()
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.findings.fix_button.click()
    assert window.document.undo_stack.count() == steps + 1
    report = _validated(window, qtbot)
    assert not [f for f in report.findings if f.severity == Severity.ERROR], report.findings
