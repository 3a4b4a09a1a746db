"""Work in a forked child (aicnet_gui/forked.py): the child's result, or None so that the caller
does the work itself.  `aicnet diff` counts its BOMs so and reads its second file beside the
first (its identical link lines take the first's values): the same documents, the same errors
and the same output as one file after the other in one process."""

from __future__ import annotations

import json
import os
import threading

import pytest

from aicnet_gui import forked
from aicnet_gui.cli import main
from aicnet_gui.cli.common import open_document, open_two_documents
from aicnet_gui.fileio import save_fabric
from aicnet_gui.fileio.errors import FabricFileError
from aicnet_gui.fileio.fabric_file import dumps_fabric
from aicnet_gui.forked import Forked, fork_useful
from tests.doc_edits import remove_link, update_link

QT_LOADED = forked.qt_loaded


@pytest.fixture(autouse=True)
def _forks_beside_qt(monkeypatch):
    """Forks in this test process though other tests loaded Qt (no Qt thread runs here)."""
    monkeypatch.setattr(forked, "qt_loaded", lambda: False)


@pytest.fixture
def needs_fork(_forks_beside_qt):
    if not fork_useful():
        pytest.skip("no fork here (forked.fork_useful)")


@pytest.mark.usefixtures("needs_fork")
def test_the_result_comes_from_a_child():
    pending = Forked(os.getpid)
    assert pending.result() not in (None, os.getpid())


@pytest.mark.usefixtures("needs_fork")
@pytest.mark.parametrize("work", [lambda: 1 / 0, lambda: (lambda: 1), lambda: os._exit(3)],
                         ids=["raises", "does not pickle", "dies"])
def test_a_failed_child_gives_none(work):
    assert Forked(work).result() is None


def test_no_child_where_a_fork_is_not_safe(monkeypatch):
    monkeypatch.setattr(forked.sys, "platform", "darwin")
    assert not fork_useful() and Forked(os.getpid).result() is None
    monkeypatch.undo()
    monkeypatch.setitem(forked.sys.modules, "PySide6.QtCore", object())
    assert QT_LOADED()  # the editor's process: never a fork
    monkeypatch.setattr(forked, "qt_loaded", QT_LOADED)
    assert not fork_useful()
    monkeypatch.undo()
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not fork_useful()
    finally:
        stop.set()
        thread.join()


def _revisions(example, tmp_path):  # noqa: ANN001, ANN202
    old, new = example("small-hgx"), example("small-hgx")
    update_link(new, "c001", length_m=7.0)
    remove_link(new, "c002")
    save_fabric(old, tmp_path / "a.fabric")
    save_fabric(new, tmp_path / "b.fabric")
    return tmp_path / "a.fabric", tmp_path / "b.fabric"


def test_two_documents_are_those_opened_one_by_one(example, tmp_path):
    a, b = _revisions(example, tmp_path)
    seen = []
    old, new, extra = open_two_documents(a, b, lambda doc: seen.append(doc) or "first")
    assert seen == [old] and extra == "first"
    assert dumps_fabric(old) == dumps_fabric(open_document(a))
    assert dumps_fabric(new) == dumps_fabric(open_document(b))
    assert new.links["c001"].length_m == 7.0


def test_the_first_files_error_comes_first(example, tmp_path):
    a, b = _revisions(example, tmp_path)
    bad = tmp_path / "bad.fabric"
    bad.write_text('{"format": "aicnet.fabric", "schema_version": 4, "devices": 7}')
    for first, second, named in ((bad, b, bad), (a, bad, bad), (bad, tmp_path / "none", bad),
                                 (a, tmp_path / "none", tmp_path / "none")):
        with pytest.raises(FabricFileError) as raised:
            open_two_documents(first, second)
        with pytest.raises(FabricFileError) as alone:
            open_document(named)
        assert str(raised.value) == str(alone.value)


def test_cli_diff_with_children_prints_what_one_process_prints(example, tmp_path, capsys,
                                                                monkeypatch):
    a, b = _revisions(example, tmp_path)
    assert main(["diff", "--json", str(a), str(b)]) == 0
    together = json.loads(capsys.readouterr().out)
    monkeypatch.setattr(forked, "fork_useful", lambda: False)
    assert main(["diff", "--json", str(a), str(b)]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert together == alone and together["counts"]["cable_changes"] == 1
    assert together["counts"]["cables_removed"] == 1 and together["bom"]["cables"]
