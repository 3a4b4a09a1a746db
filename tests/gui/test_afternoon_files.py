"""Issue 16, files, status and about: Save As proposes the design's name, Open starts in the last
folder, About names the versions and the user catalog, Undo/Redo say what they did, messages
count what changed, optics without a link are a note and a BOM line."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from aicnet_gui.analysis.bom import compute_bom
from aicnet_gui.gui import file_places

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


class Dialogs:
    """Records where the file dialogs start and answers with `answer`."""

    def __init__(self) -> None:
        self.starts: list[str] = []
        self.answer = ""

    def __call__(self, _parent, _title, start, _filter):  # noqa: ANN001, ANN204
        self.starts.append(start)
        return self.answer, ""


def test_save_as_proposes_the_designs_name_in_the_last_folder(window, monkeypatch, tmp_path):
    asked = Dialogs()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", asked)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", asked)
    window.editor.update_metadata({"name": "DGX SuperPOD H100, 4 SU"}, "Name")
    assert not window.save_as()
    assert Path(asked.starts[-1]).name == "dgx-superpod-h100-4-su.fabric"
    folder = tmp_path / "designs"
    folder.mkdir()
    copy = folder / "pod.fabric"
    shutil.copy(EXAMPLES / "small-hgx.fabric", copy)
    assert window.open_path(copy, ask=False)
    window.new_document()
    window.open_dialog()  # Open starts where the last file came from
    assert asked.starts[-1] == str(folder.resolve())
    window.editor.update_metadata({"name": "Small pod"}, "Name")
    assert not window.save_as()
    assert asked.starts[-1] == str(folder.resolve() / "small-pod.fabric")


def test_file_stems_of_design_names():
    assert file_places.file_stem("Small HGX RoCE pod") == "small-hgx-roce-pod"
    assert file_places.file_stem("  ///  ") == "fabric"


def test_about_names_the_version_the_catalog_files_and_the_user_catalog(window, monkeypatch):
    from aicnet_gui import __version__
    from aicnet_gui.catalog.loader import user_catalog_path
    from aicnet_gui.gui.dialogs import about

    shown = []
    monkeypatch.setattr(about.QMessageBox, "about", lambda _p, title, text: shown.append((title, text)))
    window.actions_by_name["about"].trigger()
    (title, text), = shown
    assert __version__ in text
    assert "devices/servers.yaml: version 1" in text and "Catalog format: version 1" in text
    assert str(user_catalog_path()) in text


def test_undo_and_redo_say_what_they_did(window):
    window.editor.add_device("nvidia-sn5600", (0.0, 0.0))
    window.actions_by_name["undo"].trigger()
    assert window.message_label.text().startswith("Undid: Add ")
    window.actions_by_name["redo"].trigger()
    assert window.message_label.text().startswith("Redid: Add ")


def test_setting_optics_on_two_spines_counts_every_cage(window):
    editor = window.editor
    spines = [editor.add_device("nvidia-qm9790", (x, 0.0)) for x in (0.0, 900.0)]
    assert editor.set_cages(spines, list(range(1, 33)), transceiver="nvidia-mma4z00-ns")
    text = window.document.undo_stack.undoText()
    assert text == "Set transceiver of 64 cages on 2 devices", text


def test_optics_in_cages_without_a_link_are_a_note_and_a_bom_line(window, qtbot):
    assert window.open_path(EXAMPLES / "small-hgx.fabric", ask=False)
    doc = window.document.fabric
    spine = next(d for d in doc.devices.values() if d.name == "spine-01")
    ports = doc.ports(spine.id).values()
    free = sorted({p.cage for p in ports} - {p.cage for p in ports if doc.link_at(spine.id, p.name)})
    assert len(free) >= 2
    before = compute_bom(doc).unlinked_optics
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        assert window.editor.set_cages([spine.id], free[:2], transceiver="generic-800g-2xdr4-osfp")
    notes = [f for f in window.validator.report.findings if f.code == "OPTIC-UNLINKED"]
    assert len(notes) == 1 and notes[0].severity.value == "info"
    assert f"cages {free[0]}, {free[1]}" in notes[0].message
    assert compute_bom(doc).unlinked_optics == before + 2
    window.metrics.show()
    window.metrics.raise_()
    with qtbot.waitSignal(window.validator.bom_ready, timeout=60000):
        window.validator.revalidate()
    bill = window.metrics.row_texts("Bill of materials")
    assert bill["Transceivers"].endswith(f"({before + 2} not linked)")
