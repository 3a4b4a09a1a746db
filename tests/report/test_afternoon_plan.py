"""Issue 16, the printed plan: the ordered length leads in the schedule, one rounding everywhere,
the design report says once where notes are written, buyer's words on the BOM page, and
`aicnet export` shows progress and keeps finished pages out of memory."""

from __future__ import annotations

import io
from pathlib import Path

from pypdf import PdfReader

from aicnet_gui.cli import main
from aicnet_gui.cli.progress_line import ProgressLine
from aicnet_gui.fileio import save_fabric
from aicnet_gui.model.rounding import half_up, metres
from aicnet_gui.report import ExportOptions, build_plan, export_pdf
from aicnet_gui.report.cable_schedule import COLUMNS, row_cells
from aicnet_gui.report.fonts import fonts
from aicnet_gui.report.pdfpage import DocInfo, PdfWriter
from tests.doc_edits import update_link, update_settings


def _text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_lengths_round_half_up_the_same_everywhere(small):
    assert [half_up(v) for v in (1.65, 1.75, 1.25, 2.05)] == [1.7, 1.8, 1.3, 2.1]
    assert [metres(v) for v in (1.65, 12.0, 5.11)] == ["1.7", "12", "5.1"]
    link_id = sorted(small.links)[0]
    update_link(small, link_id, length_m=1.65)
    row = next(r for r in build_plan(small).rows if r.link_id == link_id)
    assert row.length_text.startswith("1.7")  # the schedule: not float round()'s 1.6


def test_the_schedule_leads_with_the_ordered_length(small):
    index = next(i for i, c in enumerate(COLUMNS) if c.top == "Order m")
    column = COLUMNS[index]
    assert column.bottom == "Calc m" and column.strong  # ordered: top line, bold
    link_id = next(i for i in sorted(small.links) if small.links[i].cable == "nvidia-mfp7e10")
    update_link(small, link_id, length_m=17.4)  # a multimode fibre
    row = next(r for r in build_plan(small).rows if r.link_id == link_id)
    cells = row_cells(row)
    assert cells[2 * index] == row.ordered_text and cells[2 * index + 1] == row.length_text
    assert row.ordered_m is not None and row.ordered_m >= 17.4
    assert row.ordered_text == metres(row.ordered_m, 2) and row.length_text.startswith("17.4")


def test_the_design_report_says_once_where_notes_are_written(small, tmp_path):
    out = tmp_path / "design.pdf"
    export_pdf(small, out, ExportOptions(sections=("design",)))
    text = _text(out)
    assert "not written yet" not in text and "settings.notes" not in text
    assert text.count("Edit > Fabric Settings > Design notes") == 1
    update_settings(small, notes=small.settings.notes.model_copy(update={"nccl": "NCCL_IB_HCA=mlx5"}))
    export_pdf(small, out, ExportOptions(sections=("design",)))
    text = _text(out)
    assert "NCCL_IB_HCA=mlx5" in text and text.count("Design notes") == 1


def test_the_bom_page_speaks_to_a_buyer(small, tmp_path):
    out = tmp_path / "bom.pdf"
    export_pdf(small, out, ExportOptions(sections=("bom",)))
    text = _text(out)
    assert "Validator" not in text and "aicnet bom" not in text and "Cross-check" not in text
    assert "Power, whole fabric" in text


def test_finished_pages_leave_memory(small, tmp_path):
    writer = PdfWriter(str(tmp_path / "pages.pdf"), DocInfo("p", "A", "", "today", "TIA-606"), fonts())
    for k in range(5):
        box = writer.begin_page((595.0, 842.0), "Cable schedule")
        writer.text().text(box.left, box.top - 20, f"row {k} " * 200, 8)
        writer.end_page()
        assert writer.spool.held(writer.canvas) == 0  # compressed into the spool file
    writer.spool.flush()  # the last pages may still be in the compressing thread
    assert writer.spool.pages == 5 and writer.spool.bytes > 0
    writer.finish()
    reader = PdfReader(tmp_path / "pages.pdf")
    assert len(reader.pages) == 5 and "row 4" in reader.pages[4].extract_text()


def test_export_shows_progress_with_pages_and_eta_when_asked(small, tmp_path, capsys):
    fabric, pdf = tmp_path / "small.fabric", tmp_path / "plan.pdf"
    save_fabric(small, fabric)
    assert main(["export", str(fabric), "--pdf", str(pdf), "--progress"]) == 0
    out, err = capsys.readouterr()
    lines = err.replace("\r", "\n").split("\n")
    assert any("pages" in line and "%" in line for line in lines)
    assert "100 %  wrote" in err and err.endswith("\n")
    assert "aicnet:" not in out  # stdout keeps the summary only
    assert main(["export", str(fabric), "--pdf", str(pdf)]) == 0  # stderr is no terminal here
    assert "%" not in capsys.readouterr().err


def test_the_progress_line_estimates_the_time_left():
    now = [0.0]
    stream = io.StringIO()
    line = ProgressLine(stream, clock=lambda: now[0])
    now[0] = 30.0
    line(0.25, "cable schedule: 100 of 400 links, 12 pages")
    assert line.text(0.25, "x").endswith("ETA 1:30")  # 30 s for a quarter: 90 s to go
    now[0] = 120.0
    line(1.0, "wrote 48 pages")
    shown = stream.getvalue()
    assert shown.endswith("\n") and shown.rstrip().endswith("wrote 48 pages  in 2:00")


def test_the_streamed_file_is_byte_for_byte_what_reportlab_would_save(tmp_path, monkeypatch):
    from reportlab import rl_config

    monkeypatch.setattr(rl_config, "invariant", 1)  # no time stamps or random ids

    def writer(path: Path) -> PdfWriter:
        out = PdfWriter(str(path), DocInfo("p", "A", "", "today", "TIA-606"), fonts())
        for k in range(3):
            box = out.begin_page((595.0, 842.0), "Cable schedule")
            out.text().text(box.left, box.top - 20, f"row {k} Łódź", 8)
            out.end_page()
        return out

    from reportlab.pdfbase import pdfdoc

    def joined(_self, _document):  # noqa: ANN001, ANN202
        raise AssertionError("the whole file was joined in memory")

    streamed = writer(tmp_path / "streamed.pdf")
    with monkeypatch.context() as patch:
        patch.setattr(pdfdoc.PDFFile, "format", joined)
        streamed.finish()  # written object by object, never joined
    saved = writer(tmp_path / "saved.pdf")
    saved.canvas.beginForm("total", 0, -3, 60, 12)
    saved.text().text(0, 0, "3", 8)
    saved.canvas.endForm()
    saved.canvas.save()  # reportlab's own: the whole file joined in memory
    assert (tmp_path / "streamed.pdf").read_bytes() == (tmp_path / "saved.pdf").read_bytes()
