"""The PDF plan, the work order and the CVT workbook are written like every other output: a
failed export leaves the old file (or none) and no temporary file, and a file name planted
as a symlink beside the target is never followed."""

from __future__ import annotations

from pathlib import Path

import pytest

from aicnet_gui.cli import main
from aicnet_gui.report import plan_pdf as pdf_module

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "small-hgx.fabric"


def _temps(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.startswith(".")]


def test_a_failed_pdf_export_keeps_the_old_file(tmp_path, monkeypatch, capsys):
    out = tmp_path / "plan.pdf"
    out.write_bytes(b"the previous plan")

    def broken(*_args, **_kwargs):  # noqa: ANN002, ANN003, ANN202
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(pdf_module, "_write_sections", broken)
    with pytest.raises(RuntimeError):
        pdf_module.export_pdf(_doc(), out)
    assert out.read_bytes() == b"the previous plan"
    assert _temps(tmp_path) == []


def test_exports_never_follow_an_old_fixed_temp_name(tmp_path, capsys):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    for name in (".plan.pdf.part", ".cvt.part.xlsx"):
        (tmp_path / name).symlink_to(victim)
    assert main(["export", str(EXAMPLE), "--pdf", str(tmp_path / "plan.pdf"),
                 "--cvt", str(tmp_path / "cvt.xlsx"), "--labels", "none"]) == 0
    capsys.readouterr()
    assert victim.read_text() == "keep me"
    assert (tmp_path / "plan.pdf").read_bytes().startswith(b"%PDF")
    assert (tmp_path / "cvt.xlsx").read_bytes().startswith(b"PK")
    assert not (tmp_path / "plan.pdf").is_symlink()


def _doc():  # noqa: ANN202
    from aicnet_gui.catalog.loader import builtin_catalog
    from aicnet_gui.fileio import load_fabric

    return load_fabric(EXAMPLE, builtin_catalog())
