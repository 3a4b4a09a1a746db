"""File > Export…: the CVT workbook, the Slurm topology and the draw.io diagram from the dialog's
background export, read back with openpyxl, PyYAML and the file's own text."""

from __future__ import annotations


def test_export_dialog_writes_cvt_slurm_and_drawio(window, qtbot, example_path, tmp_path):
    import openpyxl
    import yaml

    from aicnet_gui.gui.dialogs.export_dialog import FORMATS, start_export

    assert {"cvt", "slurm", "drawio"} <= set(FORMATS)
    assert window.open_path(example_path, ask=False)
    targets = {"cvt": tmp_path / "x.xlsx", "slurm": tmp_path / "slurm",
               "drawio": tmp_path / "x.drawio"}
    for kind, target in targets.items():
        job = start_export(window, kind, str(target), None)
        qtbot.waitUntil(lambda t=target: str(t) in window.message_label.text(), timeout=60_000)
        assert job.wait(10)
    links = len(window.document.fabric.links)
    workbook = openpyxl.load_workbook(targets["cvt"], read_only=True)
    assert workbook["Links"].max_row == 1 + links
    assert yaml.safe_load((targets["slurm"] / "topology.yaml").read_text())[0]["tree"]
    assert targets["drawio"].read_text(encoding="utf-8").count("<diagram ") == 2
