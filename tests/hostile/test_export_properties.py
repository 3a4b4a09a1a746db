"""Properties of the exports over generated designs: names drawn from formula starts, Slurm's
special characters, line breaks and ordinary text, set on a real design through the mutation API.

* No xlsx or CSV export holds a formula: no CSV cell (read back by the csv module) starts with
  what a spreadsheet reads as one, and no sheet of the CVT workbook has a formula (`<f>`)
  element; a formula-like text is a string cell with the quote-prefix style.
* No line of a Slurm export is read by Slurm as more than the one statement aicnet meant: the
  topology.conf read back by Slurm's own parser (libslurm, or slurm_conf.py's port of it) holds
  exactly aicnet's switches with exactly their nodes and child switches, and topology.yaml read
  by libyaml the same; or the export is refused, and then a name written there is one that
  `slurm_name_problem` explains.  Names with a control character never get that far: the
  document refuses them.

Seeded: 30 and 40 designs (about 15 s for both).
"""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

import openpyxl
import pytest
import yaml
from hypothesis import given, seed, settings
from hypothesis import strategies as st
from mutation import FUZZ

from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.fileio import load_fabric
from aicnet_gui.model.document import ModelError
from aicnet_gui.model.edits import (
    UpdateDevice,
    UpdateLink,
    UpdateMetadata,
    UpdateRack,
    UpdateSettings,
)
from aicnet_gui.model.text_safety import OutputRefused, formula_like, slurm_name_problem
from aicnet_gui.report import export_csv, export_labels_csv, export_netbox, export_p2p
from aicnet_gui.report.cvt_xlsx import export_cvt_xlsx
from aicnet_gui.report.slurm import SlurmTopology, export_slurm

ROOT = Path(__file__).resolve().parents[2]
DESIGNS = settings(FUZZ, max_examples=40)
PIECES = st.sampled_from([
    "=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20", "=cmd|' /C calc'!A0",
    '=HYPERLINK("http://x","y")', "@SUM(1+1)", "leaf", "gpu", "-01", "01", " ", "#", "\\", '"',
    ",", "[", "]", "[1-9]", "=", "Nodes=evil[1-999]", "Łódź", "交换机", "\n", "\r", "\t",
    "\u2028", "\x00", "x" * 70,
])
NAMES = st.lists(PIECES, min_size=1, max_size=4).map("".join)


@pytest.fixture(scope="module")
def design():  # noqa: ANN201
    return load_fabric(ROOT / "examples" / "small-hgx.fabric", builtin_catalog())


def _named(base, data: st.DataObject):  # noqa: ANN001, ANN202
    """A copy of `base` with some of its names drawn (each edit the document refuses is left
    out: a control character must be refused, with its reason)."""
    doc = base.snapshot()
    devices = sorted(doc.devices)
    edits = [UpdateDevice(device, {"name": data.draw(NAMES, label=f"device {device}")})
             for device in data.draw(st.lists(st.sampled_from(devices), max_size=6, unique=True),
                                     label="renamed")]
    edits += [UpdateRack(sorted(doc.racks)[0], {"name": data.draw(NAMES, label="rack")}),
              UpdateMetadata({"name": data.draw(NAMES, label="fabric")}),
              UpdateSettings({"site": data.draw(NAMES, label="site")}),
              UpdateLink(sorted(doc.links)[0], {"colour": data.draw(NAMES, label="colour")})]
    for edit in edits:
        try:
            doc.apply([edit])
        except ModelError as exc:
            text = str(exc)
            assert "one line of printable text" in text or "already used" in text, text
    return doc


def _csv_cells(path: Path) -> list[str]:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return [cell for row in csv.reader(handle) for cell in row]


@seed(33)
@settings(DESIGNS, max_examples=30)
@given(data=st.data())
def test_no_generated_design_yields_a_formula_cell_in_any_xlsx_or_csv_export(
        data, design, tmp_path_factory):
    doc = _named(design, data)
    out = tmp_path_factory.mktemp("sheets")
    export_csv(doc, out / "schedule.csv")
    export_labels_csv(doc, out / "labels.csv")
    export_p2p(doc, out / "p2p.csv")
    export_netbox(doc, out / "netbox")
    export_cvt_xlsx(doc, out / "cvt.xlsx")
    files = sorted(out.rglob("*.csv"))
    assert len(files) >= 9
    for path in files:
        formulas = [c for c in _csv_cells(path) if formula_like(c)]
        assert formulas == [], (path.name, formulas[:3])
    with zipfile.ZipFile(out / "cvt.xlsx") as book:
        sheets = [book.read(n) for n in book.namelist() if n.startswith("xl/worksheets/")]
    assert sheets and not [s for s in sheets if b"<f>" in s or b"<f " in s]
    workbook = openpyxl.load_workbook(out / "cvt.xlsx")
    for sheet in workbook:
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and formula_like(cell.value):
                    assert cell.data_type == "s" and cell.quotePrefix, (sheet.title, cell.value)


@seed(33)
@DESIGNS
@given(data=st.data())
def test_no_slurm_export_holds_a_line_slurm_reads_as_a_second_statement(
        data, design, tmp_path_factory, slurm_reader):
    doc = _named(design, data)
    folder = tmp_path_factory.mktemp("slurm") / "slurm"
    try:
        export_slurm(doc, folder)
    except OutputRefused as exc:
        assert not folder.exists()
        assert any(f"{d.name!r}: {slurm_name_problem(d.name)}" in str(exc)
                   for d in doc.devices.values() if slurm_name_problem(d.name)), str(exc)
        return
    topology = SlurmTopology(doc)
    meant = sorted([(name, nodes, []) for name, nodes in topology.switch_nodes.items()]
                   + [(name, [], children) for name, children in topology.switch_children.items()])
    clean, read = slurm_reader(folder / "topology.conf")
    assert clean, (folder / "topology.conf").read_text()
    assert sorted((name, sorted(n), sorted(s)) for name, n, s in read) == \
        sorted((name, sorted(n), sorted(s)) for name, n, s in meant)
    from slurm_conf import expand

    tree = yaml.load((folder / "topology.yaml").read_text(encoding="utf-8"),  # noqa: S506
                     Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    read_yaml = sorted((s["switch"], sorted(expand(s.get("nodes", ""))),
                        sorted(expand(s.get("children", ""))))
                       for s in tree[0]["tree"]["switches"])
    assert read_yaml == sorted((name, sorted(n), sorted(s)) for name, n, s in meant)
