"""The five defects of the second hostile-input campaign (issue 33), each as the input that
found it, plus one more found while fixing them; every test failed on the code before the fix.

1. the CVT workbook wrote a name starting with `=` as a live formula;
2. a line break in a name went through `validate` and into Slurm's topology files;
3. `catalog import-netbox` ended in exit 3 on nesting 1,000 deep and on a 5,000-digit number
   (and ran out of memory on a port numbered 99,999,999);
4. `bom --prices` ended in exit 3 on a field over 131,072 characters, and read any size whole;
5. a PDF or CSV export killed midway left its `.NAME.*.tmp` behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest

from tests.held_lock import HOLD_AT_LOCK

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "small-hgx.fabric"
CALC = "=cmd|' /C calc'!A0"
LINK = '=HYPERLINK("http://x","y")'


def _design(tmp_path: Path, edit) -> Path:  # noqa: ANN001
    data = json.loads(EXAMPLE.read_text())
    edit(data)
    path = tmp_path / "hostile.fabric"
    path.write_text(json.dumps(data))
    return path


def _names(data: dict) -> None:
    data["devices"][0]["name"] = CALC
    data["racks"][0]["name"] = LINK
    data["catalog"]["devices"][0]["model"] = "=1+1"


def test_1_the_cvt_workbook_holds_formula_like_names_as_text(aicnet, tmp_path):
    out = tmp_path / "cvt.xlsx"
    code, _, err = aicnet("export", str(_design(tmp_path, _names)), "--cvt", str(out))
    assert code == 0, err
    with zipfile.ZipFile(out) as book:  # a formula cell is an <f> element in the sheet XML
        sheets = [book.read(n) for n in book.namelist() if n.startswith("xl/worksheets/")]
    assert sheets and not [s for s in sheets if b"<f>" in s or b"<f " in s]
    workbook = openpyxl.load_workbook(out)  # a reader XlsxWriter did not write
    texts = [cell for sheet in workbook for row in sheet.iter_rows() for cell in row
             if isinstance(cell.value, str) and cell.value[:1] in "=+-@"]
    assert {c.value for c in texts} >= {CALC, LINK}  # the names, exactly as typed
    assert all(c.data_type == "s" and c.quotePrefix for c in texts)  # text, also when edited


def _newlines(data: dict) -> None:
    data["metadata"]["name"] = "pod\nSwitchName=evil Nodes=attacker[1-999]"


@pytest.mark.parametrize(("edit", "where"), [
    (_newlines, "$.metadata.name"),
    (lambda d: d["devices"][0].update(name="leaf-x\nSwitchName=evil2 Nodes=a[1-9]"),
     "$.devices[0].name"),
    (lambda d: d["racks"][0].update(name="R1\r\n#"), "$.racks[0].name"),
])
def test_2_a_line_break_in_a_name_is_refused_where_the_file_is_read(aicnet, tmp_path, edit,
                                                                      where):
    design = _design(tmp_path, edit)
    code, _, err = aicnet("validate", str(design))
    assert code == 2, err
    assert any(f"{design}: {where}: {char}" in err
               for char in ("U+000A (a line feed)", "U+000D (a carriage return)")), err
    assert "Traceback" not in err
    code, _, err = aicnet("export", str(design), "--slurm", str(tmp_path / "slurm"))
    assert code == 2 and not (tmp_path / "slurm").exists(), err


def test_2_the_slurm_files_hold_no_second_statement(aicnet, tmp_path, slurm_reader):
    """A name with a space would have split its line (`SwitchName=leaf x Nodes=...`): the
    export is refused with the name and the reason, and writes nothing."""
    design = _design(tmp_path, lambda d: d["devices"][0].update(name="leaf x Nodes=evil[1-9]"))
    code, _, err = aicnet("export", str(design), "--slurm", str(tmp_path / "slurm"))
    assert code == 2 and "'leaf x Nodes=evil[1-9]': U+0020 (a space): whitespace ends a value" \
        in err, err
    assert not (tmp_path / "slurm").exists()
    # the fabric's own name, whatever it holds, stays on its comment line
    design = _design(tmp_path, lambda d: d["metadata"].update(name="pod # x \\"))
    code, _, err = aicnet("export", str(design), "--slurm", str(tmp_path / "slurm"))
    assert code == 0, err
    clean, switches = slurm_reader(tmp_path / "slurm" / "topology.conf")
    assert clean and sorted(s[0] for s in switches) == ["leaf-01-to-leaf-02", "spine-01",
                                                          "spine-02"]


def test_3_import_netbox_deep_nesting_and_huge_numbers_are_one_message(aicnet, tmp_path):
    deep = tmp_path / "deep.yaml"
    deep.write_text("manufacturer: X\nmodel: Y\nu_height: 1\ninterfaces: "
                    + "[" * 1000 + "]" * 1000 + "\n")
    code, _, err = aicnet("catalog", "import-netbox", str(deep), "--dry-run")
    assert code == 2 and f"{deep}: line 4, column 44: nested deeper than 32 levels" in err, err
    huge = tmp_path / "huge.yaml"
    huge.write_text("manufacturer: X\nmodel: Y\nu_height: " + "9" * 5000 + "\ninterfaces: []\n")
    code, _, err = aicnet("catalog", "import-netbox", str(huge), "--dry-run")
    assert code == 2 and f"{huge}: line 3, column 11: a number of 5,000 characters" in err, err
    far = tmp_path / "far.yaml"  # cage numbers 1 .. 99,999,999 sized a set of 10^8 numbers
    far.write_text("manufacturer: X\nmodel: Y\nu_height: 1\ninterfaces:\n"
                   "  - {name: swp1, type: 800gbase-x-osfp}\n"
                   "  - {name: swp99999999, type: 800gbase-x-osfp}\n")
    code, out, err = aicnet("catalog", "import-netbox", str(far), "--dry-run")
    assert code == 0 and "swp99999999 (interfaces[1]): port number 99999999 is above 1024" in out


def test_4_a_price_list_with_a_huge_field_or_too_many_rows_is_one_message(aicnet, tmp_path):
    from aicnet_gui.model.limits import MAX_PRICE_ROWS

    wide = tmp_path / "wide.csv"
    wide.write_text("part,unit_price,currency,date\n" + "x" * 140_000 + ",1,USD,2026-01-01\n")
    code, _, err = aicnet("bom", str(EXAMPLE), "--prices", str(wide))
    assert code == 2 and f"{wide}: line 2: a line of more than 4,096 bytes" in err, err
    quoted = tmp_path / "quoted.csv"  # one field over many short lines: the csv module's limit
    quoted.write_text('part,unit_price,currency,date\n"' + "x\n" * 70_000 + '",1,USD,2026-01-01\n')
    code, _, err = aicnet("bom", str(EXAMPLE), "--prices", str(quoted))
    assert code == 2 and f"{quoted}: line " in err and "field larger than field limit" in err, err
    many = tmp_path / "many.csv"
    rows = "".join(f"part-{n},1,USD,2026-01-01\n" for n in range(MAX_PRICE_ROWS + 1))
    many.write_text("part,unit_price,currency,date\n" + rows)
    code, _, err = aicnet("bom", str(EXAMPLE), "--prices", str(many))
    assert code == 2 and f"{many}: line {MAX_PRICE_ROWS + 2}: a price list holds at most " \
        f"{MAX_PRICE_ROWS:,} rows" in err, err


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


#: the real command line, held at the moment its PDF's temp file exists and is being locked
#: (SIGTERM is held back there) until a line comes on stdin (tests/held_lock.py)
_HELD_EXPORT = """
import aicnet_gui.fileio.atomic as atomic
""" + HOLD_AT_LOCK + """
from aicnet_gui.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _start_export(tmp_path: Path, out: Path) -> subprocess.Popen:
    child = subprocess.Popen(
        [sys.executable, "-c", _HELD_EXPORT, "export", str(ROOT / "examples" / "superpod-4su.fabric"),
         "--pdf", str(out), "--no-progress"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
        env=os.environ | {"PYTHONDONTWRITEBYTECODE": "1"})
    assert child.stdout is not None and child.stdout.readline() == b"locked\n"
    assert len(_temps(tmp_path)) == 1  # the temp file exists: the write is under way
    return child


def test_5_a_pdf_export_stopped_midway_leaves_no_temp_file(tmp_path):
    out = tmp_path / "plan.pdf"
    out.write_bytes(b"the previous plan")
    child = _start_export(tmp_path, out)
    child.send_signal(signal.SIGTERM)  # a polite kill: the write in progress is undone
    # the signal, held while the temp file was made, is handled once the export goes on
    _, err = child.communicate(b"go\n", timeout=120)
    assert child.returncode == 128 + signal.SIGTERM and b"stopped by SIGTERM" in err, err
    assert _temps(tmp_path) == [] and out.read_bytes() == b"the previous plan"
    child = _start_export(tmp_path, out)
    child.send_signal(signal.SIGKILL)  # no chance to clean up: the next start of aicnet does
    child.wait(timeout=120)
    assert len(_temps(tmp_path)) == 1 and out.read_bytes() == b"the previous plan"
    subprocess.run([sys.executable, "-m", "aicnet_gui.cli", "info", str(EXAMPLE)], check=True,
                   capture_output=True)
    assert _temps(tmp_path) == [] and out.read_bytes() == b"the previous plan"


_CSV_WRITER = """
import sys
from aicnet_gui.report.csv_exports import write_csv
def rows():
    yield ["first"]
    print("writing", flush=True)
    sys.stdin.readline()  # killed here, halfway through the file
    yield ["never"]
write_csv(sys.argv[1], ["h"], rows())
"""


def test_5_a_csv_export_killed_midway_is_cleaned_by_the_next_write_or_start(tmp_path, small):
    from aicnet_gui.report import export_csv

    out = tmp_path / "schedule.csv"
    for cleaner in ("next start", "next write"):
        child = subprocess.Popen([sys.executable, "-c", _CSV_WRITER, str(out)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert child.stdout is not None and child.stdout.readline() == b"writing\n"
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
        assert len(_temps(tmp_path)) == 1
        if cleaner == "next start":  # any command: its start removes what the kill left
            subprocess.run([sys.executable, "-m", "aicnet_gui.cli", "info", str(EXAMPLE)],
                           check=True, capture_output=True)
        else:
            export_csv(small, out)
        assert _temps(tmp_path) == [], cleaner


def test_2_a_name_slurm_cannot_read_is_a_finding_of_validate(aicnet, tmp_path):
    """Issue 33: names that cannot be written safely are refused at validation with the reason
    (SLURM-NAME, a warning: only the Slurm export needs it), not only when the export is asked
    for; a management switch, which the Slurm files do not list, is not judged."""
    design = _design(tmp_path, lambda d: d["devices"][0].update(name="leaf x Nodes=evil[1-9]"))
    code, out, _ = aicnet("validate", str(design), "--json")
    found = [f for f in json.loads(out)["findings"] if f["code"] == "SLURM-NAME"]
    assert len(found) == 1 and "U+0020 (a space)" in found[0]["message"], found
    assert found[0]["severity"] == "warning"
    code, out, _ = aicnet("validate", str(EXAMPLE), "--json")
    assert not [f for f in json.loads(out)["findings"] if f["code"] == "SLURM-NAME"]
