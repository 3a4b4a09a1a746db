"""What the installer and the buyer receive: labels that name the rail and plane of a
multi-plane design, a schedule whose calculated length explains the ordered cord, a BOM page
that prices each line and names the parts without a price, NVL72 racks with their stated
power, and `aicnet bom` naming every unpriced part."""

from __future__ import annotations

import csv
import dataclasses
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from aicnet_gui.catalog.prices import load_price_list
from aicnet_gui.cli import main
from aicnet_gui.fileio import load_fabric, save_fabric
from aicnet_gui.generators import MediaParams, RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.report import ExportOptions, export_labels_csv, export_pdf
from aicnet_gui.report.cables import build_plan
from aicnet_gui.report.labels import _lines
from aicnet_gui.report.topology_diagram import build_diagram

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "superpod-1su.fabric"
B300, SN5600 = "nvidia-dgx-b300", "nvidia-sn5600"
GB300, Q3400 = "nvidia-gb300-nvl72-compute-tray", "nvidia-q3400-ra"


@pytest.fixture
def two_planes(catalog) -> FabricDocument:
    """4 DGX B300 on SN5600, two planes: port k of every NIC to plane k."""
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, nodes_per_su=4, server=B300, leaf=SN5600,
                                      planes=2))
    return doc


@pytest.fixture
def two_planes_twin_aoc(catalog) -> FabricDocument:
    """The same with its leaf-spine links on twin-port AOCs (allowed only AOC there: NVIDIA's
    optics and fibres are orderable, so they are chosen by default): one cable, two links."""
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, nodes_per_su=4, server=B300, leaf=SN5600, planes=2,
                                      media=MediaParams(allowed={"leaf-spine": ["aoc"]})))
    return doc


def test_every_label_names_the_rail_and_plane_of_its_cable(two_planes):
    plan = build_plan(two_planes)
    rows = {row.link_id: row for row in plan.rows}
    assert {row.plane for row in rows.values()} == {"1", "2"}
    for label in plan.labels:
        detail = _lines(label)[-1][1]
        row = rows[label.row.link_id]
        if row.rail is not None:
            assert f"rail {row.rail} plane {row.plane}" in detail, detail
        else:  # leaf-spine: no rail, the plane still tells the two fabrics apart
            assert f"plane {row.plane}" in detail, detail


def test_a_one_plane_fabric_labels_the_rail_without_a_plane_word(catalog):
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, nodes_per_su=4))
    plan = build_plan(doc)
    server = next(label for label in plan.labels if label.row.rail == 3)
    detail = _lines(server)[-1][1]
    assert detail.endswith(", rail 3") and "plane" not in detail


def test_the_label_csv_has_rail_and_plane_columns(two_planes, tmp_path):
    out = tmp_path / "labels.csv"
    export_labels_csv(two_planes, out)
    with open(out, encoding="utf-8-sig", newline="") as handle:
        records = list(csv.DictReader(handle))
    server = next(r for r in records if r["this_device_port"].endswith("p1-2"))
    assert (server["rail"], server["plane"]) == ("1", "2")
    assert {r["plane"] for r in records} == {"1", "2"}


def test_the_calculated_length_never_reads_as_a_shorter_cord(two_planes):
    row = next(r for r in build_plan(two_planes).rows if r.part is not None
               and r.part.id == "nvidia-mfp7e10")
    # 5.01 m needs the 7 m cord; "5" beside "7" would look like a mistake
    odd = dataclasses.replace(row, length_m=5.01, ordered_m=7.0, manual=False)
    assert odd.length_text == "5.01"
    assert dataclasses.replace(row, length_m=4.98, ordered_m=5.0, manual=False).length_text == "5"
    assert dataclasses.replace(row, length_m=6.43, ordered_m=7.0, manual=False).length_text == "6.4"


def _prices(path: Path, rows: list[tuple[str, float]]) -> Path:
    lines = ["part,unit_price,currency,date"] + [f"{p},{v},EUR,2026-11-30" for p, v in rows]
    path.write_text("\n".join(lines) + "\n")
    return path


def _pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_the_bom_page_prices_every_line_and_names_the_unpriced(tmp_path, catalog):
    # superpod-1su: MFP7E10 at 3/5/7/10 m; no price for the 10 m cord
    prices = _prices(tmp_path / "quote.csv", [
        ("nvidia-dgx-h100", 100000), ("nvidia-qm9700", 21000), ("nvidia-mma4z00-ns", 900),
        ("nvidia-mma4z00-ns-flt", 950), ("MFP7E10-N003", 30), ("MFP7E10-N005", 40),
        ("MFP7E10-N007", 50)])
    out = tmp_path / "bom.pdf"
    doc = load_fabric(EXAMPLE, catalog)
    export_pdf(doc, out, ExportOptions(sections=("bom",), prices=load_price_list(prices)))
    text = _pdf_text(out)
    assert "Unit EUR" in text and "Cost EUR" in text
    # the order list holds cables and optics only: the page says where the devices are
    assert "devices to buy are in the Devices table" in " ".join(text.split())
    # 176 + 9 spares of the 3 m cord at 30 EUR; 32 DGX H100 at 100,000
    assert "5,550.00" in text
    assert "3,200,000.00" in text
    assert "No price for" in text and "MFP7E10-N010 (10 m)" in text
    assert "1 part without a price" in text


def test_without_prices_the_bom_page_has_no_price_columns(tmp_path, catalog):
    out = tmp_path / "bom.pdf"
    export_pdf(load_fabric(EXAMPLE, catalog), out, ExportOptions(sections=("bom",)))
    text = _pdf_text(out)
    assert "Unit USD" not in text and "No price for" not in text


def test_an_nvl72_rack_shows_its_stated_power_counted_on_its_trays(catalog, tmp_path):
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, nodes_per_su=36, server=GB300, leaf=Q3400))
    out = tmp_path / "bom.pdf"
    export_pdf(doc, out, ExportOptions(sections=("bom",)))
    text = _pdf_text(out)
    rack = text[text.index("GB300 NVL72 rack NVIDIA"):text.index("Totals")]
    assert "142,000" in rack and "on its trays" in rack and "unknown" not in rack


def test_aicnet_bom_names_every_unpriced_part(tmp_path, capsys):
    design = tmp_path / "pod.fabric"
    design.write_bytes(EXAMPLE.read_bytes())
    prices = _prices(tmp_path / "quote.csv", [("nvidia-dgx-h100", 1)])
    assert main(["bom", str(design), "--prices", str(prices)]) == 0
    out = capsys.readouterr().out
    cost = out[out.index("Cost:"):]
    for part in ("nvidia-qm9700", "nvidia-mma4z00-ns", "nvidia-mma4z00-ns-flt",
                 "nvidia-mfp7e10@3 (MFP7E10-N003)", "nvidia-mfp7e10@10 (MFP7E10-N010)"):
        assert part in cost
    assert "..." not in cost


def test_aicnet_bom_without_any_price_says_so(tmp_path, capsys, catalog):
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, nodes_per_su=4))
    design = tmp_path / "pod.fabric"
    save_fabric(doc, design, keep_backup=False)
    assert main(["bom", str(design)]) == 0
    out = capsys.readouterr().out
    assert "priced parts total 0.00" not in out
    assert "no price list" in out


def test_a_rack_section_names_every_rack_its_arriving_cables_come_from(catalog, tmp_path):
    # 1 SU of 64 DGX B300, two per rack: the leaf rack receives cables from 32 server racks,
    # more than one title line holds
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, server=B300, leaf=SN5600, planes=2))
    plan = build_plan(doc)
    section = max(plan.sections, key=lambda s: len(s.arriving))
    assert len(section.arriving) >= 16
    out = tmp_path / "schedule.pdf"
    export_pdf(doc, out, ExportOptions(sections=("schedule",)))
    text = _pdf_text(out)
    start = text.index(f"{section.title} - ")
    heading = " ".join(text[start:text.index("A END", start)].split())
    assert "…" not in heading
    for rack, n in section.arriving.items():
        assert f"{n} from {rack}" in heading
    # every link is still in the schedule, once
    for row in plan.rows[:: max(len(plan.rows) // 50, 1)]:
        assert row.number in text


def _printed(label) -> str:  # noqa: ANN001
    """The text a label carries, as the label CSV's label_text column gives it."""
    if len(label.far) == 1:
        return f"{label.this_id}/{label.far[0][0]}"
    return label.this_id


@pytest.mark.parametrize("design", ["small", "two_planes_twin_aoc"])
def test_the_schedule_label_text_is_what_the_cable_label_says(design, request):
    """A splitter (small: leaf 3 -> two trays), a twin-port DAC (small) and the twin AOCs of two
    400G links (two planes): the installer finds the schedule's text on the label."""
    doc = request.getfixturevalue(design)
    plan = build_plan(doc)
    printed: dict[str, set[str]] = {}
    for label in plan.labels:
        printed.setdefault(label.number, set()).add(_printed(label))
    shared = [row for row in plan.rows
              if sum(1 for r in plan.rows if r.number == row.number) > 1]
    assert shared
    for row in plan.rows:
        assert row.cable_id in printed[row.number], (row.number, row.cable_id)
        assert row.label_b in printed[row.number], (row.number, row.label_b)


def test_the_topology_draws_each_plane_as_its_own_fat_tree(catalog):
    # 2 SU of 64 DGX B300 on SN5600, two planes: 32 leaves and 16 spines, so grouped
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=2, server=B300, leaf=SN5600, planes=2))
    diagram = build_diagram(doc)
    switches = [n for n in diagram.nodes.values() if n.tier >= 1]
    for node in switches:
        planes = {doc.devices[m].plane for m in node.members}
        assert len(planes) == 1 and node.title.endswith(f"plane {planes.pop()}"), node.title
    # no bundle joins a plane-1 box to a plane-2 box
    for bundle in diagram.bundles:
        a, b = diagram.nodes[bundle.a], diagram.nodes[bundle.b]
        if a.tier >= 1 and b.tier >= 1:
            assert a.title.rsplit(" ", 1)[-1] == b.title.rsplit(" ", 1)[-1]


SMALL = Path(__file__).resolve().parents[2] / "examples" / "small-hgx.fabric"


@pytest.mark.parametrize("offset", ["nan,0", "0,inf", "1e9,0", "-5,0", "0,11"])
def test_a_label_offset_that_prints_no_usable_sheet_is_refused(offset, tmp_path, capsys):
    # Avery L7651 leaves 4.75 mm left and right, 10.7 mm top and bottom
    out = tmp_path / "labels.pdf"
    code = main(["export", str(SMALL), "--pdf", str(out), "--sections", "labels",
                 "--label-offset", offset, "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "label offset" in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize("offset", ["-1.5,0.5", "-2,-1", "0.5,-1"])
def test_a_negative_label_offset_is_a_value_not_an_option(offset, tmp_path, capsys):
    out = tmp_path / "labels.pdf"
    assert main(["export", str(SMALL), "--pdf", str(out), "--sections", "labels",
                 "--label-offset", offset, "--no-progress"]) == 0
    assert out.exists()


def test_the_label_grid_example_of_the_help_works(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    # argparse wraps the long example inside words: join the lines back as they were written
    text = re.sub(r"\n\s+", "", capsys.readouterr().out)
    example = text[text.index("e.g. cols=") + 5:].split()[0]
    assert "page=letter" in example
    out = tmp_path / "labels.pdf"
    assert main(["export", str(SMALL), "--pdf", str(out), "--sections", "labels",
                 "--label-grid", example, "--no-progress"]) == 0


def test_aicnet_bom_says_when_a_cord_has_no_per_length_number(catalog, tmp_path, capsys):
    # GB300 on Q3400-RA: MFP7E30 single-mode cords, whose per-length numbers are not public
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, nodes_per_su=36, server=GB300, leaf=Q3400))
    design = tmp_path / "gb300.fabric"
    save_fabric(doc, design, keep_backup=False)
    assert main(["bom", str(design)]) == 0
    cords = [line for line in capsys.readouterr().out.splitlines()
             if line.strip().startswith("nvidia-mfp7e30@")]
    assert cords and all("(MFP7E30-Nxxx: no per-length number in the catalog)" in line
                         for line in cords)


def test_aicnet_bom_prints_each_lines_price_and_they_add_up(tmp_path, capsys):
    design = tmp_path / "pod.fabric"
    design.write_bytes(EXAMPLE.read_bytes())
    prices = _prices(tmp_path / "quote.csv", [
        ("nvidia-dgx-h100", 100000), ("nvidia-qm9700", 21000), ("nvidia-mma4z00-ns", 900),
        ("MFP7E10-N003", 30), ("nvidia-mfp7e10@5", 40)])
    assert main(["bom", str(design), "--prices", str(prices)]) == 0
    out = capsys.readouterr().out
    table = out[out.index("Prices (EUR"):out.index("Links:")].splitlines()[2:]
    rows = {line.split()[0]: line.split()[1:] for line in table if line.strip()}
    assert rows["nvidia-mfp7e10@3"] == ["185", "30.00", "5,550.00"]  # 176 + 9 spares
    assert rows["nvidia-mfp7e10@7"][1:] == ["no", "price", "no", "price"]
    total = sum(float(r[2].replace(",", "")) for r in rows.values() if r[1] != "no")
    assert f"priced parts total {total:,.2f} EUR" in out


@pytest.mark.parametrize("layout", ["4.5", "4.4"])
def test_netbox_cables_name_their_plane_in_a_multi_plane_fabric(two_planes, tmp_path, layout):
    from aicnet_gui.report import export_netbox

    export_netbox(two_planes, tmp_path / "nb", layout=layout)
    with open(tmp_path / "nb" / "cables.csv", encoding="utf-8", newline="") as handle:
        records = list(csv.DictReader(handle))
    server = next(r for r in records if r["side_a_name"].endswith("p1-2"))
    assert server["comments"].endswith("; rail 1; plane 2")
    assert {r["comments"].rsplit("; ", 1)[-1] for r in records} == {"plane 1", "plane 2"}
