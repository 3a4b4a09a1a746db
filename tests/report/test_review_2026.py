"""The printed plan of the 2026-class designs (DGX B300 on Q3400-RA or two-plane SN5610, GB300
on Q3400-RA) as an installer and a buyer read it: rack headings that count the cables pulled,
a rail column without an empty plane word, and order lines that say when a part number is not
orderable as printed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from aicnet_gui.generators import MediaParams, RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.report import ExportOptions, export_pdf
from aicnet_gui.report.cable_schedule import COLUMNS, row_cells
from aicnet_gui.report.cables import build_plan

B300, SN5610, Q3400 = "nvidia-dgx-b300", "nvidia-sn5610", "nvidia-q3400-ra"


def _text(path: Path) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(str(path)).pages)


@pytest.fixture
def sx_two_planes(catalog) -> FabricDocument:
    """4 DGX B300 on SN5610, two planes; leaf-spine on twin 800G AOCs (two links each), allowed
    only AOC there (NVIDIA's orderable optics and fibres are chosen by default)."""
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, nodes_per_su=4, server=B300, leaf=SN5610,
                                      planes=2, media=MediaParams(allowed={"leaf-spine": ["aoc"]})))
    return doc


@pytest.fixture
def xdr_one_plane(catalog) -> FabricDocument:
    """4 DGX B300 on Q3400-RA: one plane, every link its own fibre."""
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, nodes_per_su=4, server=B300, leaf=Q3400))
    return doc


def test_a_rack_heading_counts_the_cables_pulled_not_the_links(sx_two_planes, tmp_path):
    plan = build_plan(sx_two_planes)
    leaf_rack = max(plan.sections, key=lambda s: len(s.rows))
    cables = len({row.number for row in leaf_rack.rows})
    assert cables < len(leaf_rack.rows)  # twin AOCs: two links, one cable
    out = tmp_path / "schedule.pdf"
    export_pdf(sx_two_planes, out, ExportOptions(sections=("schedule",)))
    text = " ".join(_text(out).split())
    assert (f"{leaf_rack.title} - {cables} cables ({len(leaf_rack.rows)} links) start here"
            in text)
    # a spine rack receives each twin AOC once, as it is pulled once
    for section in plan.sections:
        for rack, n in section.arriving.items():
            pulled = {row.number for row in plan.rows
                      if row.b.dev.rack_id == section.rack_id and row.a.dev.rack == rack}
            assert n == len(pulled)


def test_the_rail_column_of_a_one_plane_fabric_has_no_plane_word(xdr_one_plane, tmp_path):
    plan = build_plan(xdr_one_plane)
    index = next(i for i, c in enumerate(COLUMNS) if c.bottom == "Rail, plane")
    server_row = next(r for r in plan.rows if r.rail is not None)
    assert server_row.plane  # the generator tags every link "compute"
    assert row_cells(server_row, plan.multi_plane)[2 * index + 1] == f"rail {server_row.rail}"
    out = tmp_path / "schedule.pdf"
    export_pdf(xdr_one_plane, out, ExportOptions(sections=("schedule",)))
    text = _text(out)
    assert "plane compute" not in text
    assert re.search(r"rail 1\b", text)


def test_the_rail_column_of_a_two_plane_fabric_names_the_plane(sx_two_planes):
    plan = build_plan(sx_two_planes)
    index = next(i for i, c in enumerate(COLUMNS) if c.bottom == "Rail, plane")
    for row in plan.rows:
        cell = row_cells(row, plan.multi_plane)[2 * index + 1]
        assert f"plane {row.plane}" in cell


def _order_list(path: Path) -> str:
    text = _text(path)
    return " ".join(text[text.index("Order list"):text.index("Cables by tier")].split())


def test_an_order_line_says_when_its_number_is_only_a_pattern(xdr_one_plane, tmp_path):
    # MFP7E30 is in the catalog as "MFP7E30-Nxxx": no distributor takes that number
    out = tmp_path / "bom.pdf"
    export_pdf(xdr_one_plane, out, ExportOptions(sections=("bom",)))
    order = _order_list(out)
    lengths = re.findall(r"MFP7E30 MFP7E30-Nxxx (\d+)", order)
    assert lengths
    for length in lengths:
        assert f"no per-length part number for {length} m in the catalog" in order


def test_an_order_line_of_a_generic_part_says_it_names_no_product(sx_two_planes, tmp_path):
    out = tmp_path / "bom.pdf"
    export_pdf(sx_two_planes, out, ExportOptions(sections=("bom",)))
    order = _order_list(out)
    assert "800G OSFP AOC" in order
    assert order.count("no part number: a generic part") == order.count("800G OSFP AOC")
    # an orderable per-length number carries no warning
    assert re.search(r"MFP7E10-N0\d\d \d+ \d+ \d+ \d+ fibre 1:1 (MFP7E10|MMA4Z00)", order)


def test_the_spares_rule_printed_is_the_one_the_order_list_applies(xdr_one_plane, tmp_path):
    # spares are rounded up per cable part AND ordered length, not once per part's total
    from aicnet_gui.analysis.bom import compute_bom, spares_for

    bom = compute_bom(xdr_one_plane)
    lines = {k: n for k, n in bom.cables.items() if k.startswith("nvidia-mfp7e30@")}
    assert len(lines) > 1
    percent = xdr_one_plane.settings.spares_percent
    per_line = sum(spares_for(n, percent) for n in lines.values())
    assert per_line == sum(bom.cable_spares[k] for k in lines)
    out = tmp_path / "bom.pdf"
    export_pdf(xdr_one_plane, out, ExportOptions(sections=("bom", "design")))
    text = " ".join(_text(out).split())
    assert "once per part" not in text
    assert text.count("rounded up once per line") == 2


def test_the_resilience_table_counts_physical_cables_by_their_number(sx_two_planes, tmp_path):
    from aicnet_gui.report.resilience_table import resilience_rows

    plan = build_plan(sx_two_planes)
    assert plan.cables < len(plan.rows)  # twin AOCs on the leaf-spine tier
    rows, _ = resilience_rows(sx_two_planes, plan)
    cable = next(r for r in rows if r[0] == "single cable")
    assert cable[1] == str(plan.cables)
    numbers = {row.number for row in plan.rows}
    assert cable[2].split(",")[0] in numbers  # a number the schedule and the labels print
    out = tmp_path / "design.pdf"
    export_pdf(sx_two_planes, out, ExportOptions(sections=("design",)))
    text = " ".join(_text(out).split())
    assert f"single cable {plan.cables} {cable[2]}" in text


def test_a_mesh_of_identical_lines_is_labelled_once_in_the_legend(catalog, tmp_path):
    # 2 SU of GB300 trays on Q3400-RA: 8 leaves x 4 spines, every line 18x800G; on the lines
    # the 32 equal labels overlapped into a band nobody could read
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=2, server="nvidia-gb300-nvl72-compute-tray",
                                      leaf=Q3400))
    out = tmp_path / "topology.pdf"
    export_pdf(doc, out, ExportOptions(sections=("topology",)))
    text = _text(out)
    assert "each line: 18x800G" in text
    assert text.count("18x800G") == 1


def test_the_analysis_page_of_a_two_plane_fabric_gives_each_plane(sx_two_planes, tmp_path):
    # aicnet validate prints "plane 1: leaf 1:1 (its own fat tree)" and a bisection per
    # plane; the PDF gave only the pooled numbers and a switch table without planes
    from aicnet_gui.report.analysis_data import gather

    metrics = gather(sx_two_planes).metrics
    planes = metrics["oversubscription"]["planes"]
    assert set(planes) == {"1", "2"}
    bisection = metrics["workloads"][0]["plane_bisection_gbps"]
    out = tmp_path / "analysis.pdf"
    export_pdf(sx_two_planes, out, ExportOptions(sections=("analysis",)))
    text = " ".join(_text(out).split())
    assert "Per plane (own fat tree) plane 1: leaf 1.00:1; plane 2: leaf 1.00:1" in text
    for name, device in ((d.name, d) for d in sx_two_planes.devices.values()
                         if d.role.value == "leaf"):
        assert f"{name} leaf, plane {device.plane} " in text
    for plane, gbps in bisection.items():
        value = f"{gbps / 1000:.1f} Tb/s" if gbps >= 10_000 else f"{gbps:g} Gb/s"
        assert f"plane {plane} {value}" in text


def test_a_device_line_says_when_its_power_is_typical_and_it_has_no_part_number(
        xdr_one_plane, tmp_path):
    # Q3400-RA: 7 kW maximum with active cables (secondary: unverified, optics included), no
    # OPN; DGX B300: 15 kW maximum from its User Guide (verified)
    from aicnet_gui.report.bom_lines import bom_tables

    plan = build_plan(xdr_one_plane)
    lines = {line.key: line for line in bom_tables(xdr_one_plane, plan).devices}
    switch, server = lines[Q3400], lines[B300]
    assert "power figure unverified (secondary source)" in switch.note
    assert "its optics included, not added again" in switch.note
    assert "typical" not in server.note and "unverified" not in server.note
    assert "no part number in the catalog" in switch.note
    out = tmp_path / "bom.pdf"
    export_pdf(xdr_one_plane, out, ExportOptions(sections=("bom",)))
    text = " ".join(_text(out).split())
    assert "power figure unverified (secondary source)" in text


def test_a_tray_ordered_with_its_rack_asks_for_no_part_number(catalog):
    from aicnet_gui.report.bom_lines import bom_tables

    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, server="nvidia-gb300-nvl72-compute-tray",
                                      leaf=Q3400))
    lines = {line.key: line for line in bom_tables(doc, build_plan(doc)).devices}
    tray = lines["nvidia-gb300-nvl72-compute-tray"]
    assert "no part number" not in tray.note and "typical" not in tray.note


def test_the_schedule_says_which_rows_are_one_twin_cable(sx_two_planes, tmp_path):
    # two rows with one cable number: the Type line says the cable carries both links, so the
    # installer pulls and labels it once
    out = tmp_path / "schedule.pdf"
    export_pdf(sx_two_planes, out, ExportOptions(sections=("schedule",)))
    text = _text(out)
    plan = build_plan(sx_two_planes)
    twins = [r for r in plan.rows if r.part is not None and r.part.type == "AOC"]
    assert twins
    assert text.count("AOC, 2 links") == len(twins)
    fibres = [r for r in plan.rows if r.part is not None and r.part.type == "fibre"]
    assert text.count("fibre 1:1") == len(fibres)


def test_a_rack_where_cables_only_end_gets_a_schedule_page(xdr_one_plane, tmp_path):
    # the spines' rack starts no cable: it had no page, and the installer at it nothing to
    # work from; now it names where its cables come from and their numbers per spine
    from aicnet_gui.report.arrivals import number_ranges

    plan = build_plan(xdr_one_plane)
    spine_racks = [s for s in plan.sections if not s.rows and s.arrivals]
    assert spine_racks
    out = tmp_path / "schedule.pdf"
    export_pdf(xdr_one_plane, out, ExportOptions(sections=("schedule",)))
    text = " ".join(_text(out).split())
    for section in spine_racks:
        assert f"{section.title} - no cable starts here (A end); arriving here:" in text
        for device in {row.b.dev.name for row in section.arrivals}:
            serials = [row.serial for row in section.arrivals if row.b.dev.name == device]
            assert number_ranges(serials) in text
    assert number_ranges([3, 1, 2, 7, 9, 8, 12]) == "C000001-C000003, C000007-C000009, C000012"


def test_aicnet_bom_says_a_generic_cable_has_no_part_number(sx_two_planes, tmp_path, capsys):
    from aicnet_gui.cli import main
    from aicnet_gui.fileio import save_fabric

    path = tmp_path / "sx.fabric"
    save_fabric(sx_two_planes, path)
    assert main(["bom", str(path)]) == 0
    out = capsys.readouterr().out
    aoc = [line for line in out.splitlines() if line.strip().startswith("generic-800g-osfp-aoc@")]
    assert aoc
    assert all("no part number: a generic part" in line for line in aoc)
    assert "twin cable that carries two links counts once" in out
    assert "devices at maximum, else typical" in out
