"""One rack-unit convention everywhere: a device's position is the lowest unit it occupies,
counted from the bottom (NetBox's `position`, model/rack_units.py).

The PDF put the DGX H100 of a 1-SU SuperPOD at U08/U16/U24/U32 (their top units) while `aicnet
diff` listed them at U1/U9/U17/U25 (their lowest).  Every writer of a position now says the same
for the same device: the PDF schedule (which states the convention), the labels and their
identifiers, the work order, the diff, the schedule and P2P CSVs, the CVT workbook, the NetBox
export's `position`, draw.io and the editor's inspector (its RU field holds `Device.ru`).
"""

from __future__ import annotations

import csv
import re

from pypdf import PdfReader

from aicnet_gui.change.diff import diff_documents
from aicnet_gui.change.text import render_diff
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import UpdateDevice
from aicnet_gui.model.rack_units import CONVENTION
from aicnet_gui.report import ExportOptions, build_plan, export_csv, export_netbox, export_p2p
from aicnet_gui.report.drawio import drawio_xml
from aicnet_gui.report.identifiers import Identifiers
from aicnet_gui.report.plan_pdf import export_pdf
from aicnet_gui.report.workorder import _place


def _rows(path) -> list[dict[str, str]]:  # noqa: ANN001
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def test_every_writer_puts_a_dgx_at_its_lowest_unit(catalog, tmp_path):
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1))
    dgx = [d for d in doc.devices.values() if d.model == "nvidia-dgx-h100" and d.ru > 1][0]
    low, height = dgx.ru, doc.device_model(dgx).height_ru
    assert height == 8  # so the top unit, low + 7, is a different number
    u = f"U{low:02d}"
    # labels and identifiers (TIA-606 and ISO)
    assert f"-{low:02d}:p1" in Identifiers(doc, "tia-606").port_id(dgx.id, "p1")
    assert f".{u}:p1" in Identifiers(doc, "iso-14763").port_id(dgx.id, "p1")
    # the cable plan the PDF schedule and the labels are drawn from
    plan = build_plan(doc)
    ends = [r.a for r in plan.rows if r.a.dev.id == dgx.id] + [
        r.b for r in plan.rows if r.b.dev.id == dgx.id]
    assert ends and {e.ru_text for e in ends} == {u} and {e.ru for e in ends} == {low}
    # the schedule CSV states the convention in its header
    export_csv(doc, tmp_path / "s.csv")
    rows = [r for r in _rows(tmp_path / "s.csv") if r["A device"] == dgx.name]
    assert rows and {r["A RU (lowest)"] for r in rows} == {str(low)}
    export_p2p(doc, tmp_path / "p2p.csv")
    p2p = [r for r in _rows(tmp_path / "p2p.csv") if r["A-Node Name"] == dgx.name]
    assert p2p and {r["A-U"] for r in p2p} == {str(low)}
    # NetBox's position
    export_netbox(doc, tmp_path / "nb")
    (row,) = [r for r in _rows(tmp_path / "nb" / "devices.csv") if r["name"] == dgx.name]
    assert row["position"] == str(low)
    # draw.io, the work order, the diff
    assert f"{dgx.name} ({u})".encode() in drawio_xml(doc)
    assert _place(doc, dgx).endswith(f" {u}")
    moved = doc.snapshot()
    moved.apply([UpdateDevice(dgx.id, {"ru": None, "rack": None})])
    text = render_diff(diff_documents(moved, doc), "old", "new")
    assert f"-> {dgx.rack} {u}" in text
    # the PDF schedule: the device's rows and the convention on the page
    pdf = tmp_path / "plan.pdf"
    export_pdf(doc, pdf, ExportOptions(sections=("schedule",)))
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages]
    assert all(CONVENTION in page for page in pages if "Colour legend" in page)
    text = " ".join(pages)
    assert re.search(rf"\b{u}\b", text)
    # no DGX top unit appears (units 8, 16, 24, 32: no device of the design sits there)
    tops = {d.ru + 7 for d in doc.devices.values() if d.model == "nvidia-dgx-h100"}
    assert tops.isdisjoint(d.ru for d in doc.devices.values())
    assert not [t for t in sorted(tops) if re.search(rf"\bU{t:02d}\b", text)]
