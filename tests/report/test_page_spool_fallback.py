"""The streamed PDF save relies on reportlab's output collector; a reportlab whose collector
differs gets its own save instead of a broken file."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader
from reportlab.pdfbase import pdfdoc

from aicnet_gui.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "small-hgx.fabric"


def test_a_different_collector_falls_back_to_reportlabs_own_save(tmp_path, monkeypatch, capsys):
    collector = pdfdoc.PDFFile
    old_init = collector.__init__

    def changed_init(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        old_init(self, *args, **kwargs)  # a reportlab that keeps its pieces elsewhere
        self.pieces, self.strings = self.strings, None
        self.write = self.pieces.append

    monkeypatch.setattr(collector, "__init__", changed_init)
    monkeypatch.setattr(collector, "format", lambda self, document: b"".join(self.pieces))
    out = tmp_path / "plan.pdf"
    assert main(["export", str(EXAMPLE), "--pdf", str(out), "--labels", "none"]) == 0
    capsys.readouterr()
    assert len(PdfReader(out).pages) > 3
