"""Every CSV export writes names as data, never as spreadsheet formulas (OWASP CSV injection),
and writes its file through an exclusive temp file that a planted symlink cannot redirect."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

from aicnet_gui.model.edits import UpdateDevice, UpdateLink, UpdateRack, UpdateSettings
from aicnet_gui.report import export_csv, export_labels_csv, export_netbox, export_p2p
from aicnet_gui.report.csv_exports import neutralised

HOSTILE = {
    "leaf": '=HYPERLINK("http://x","y")',
    "dgx-a": "+cmd|' /C calc'!A0",
    "dgx-b": "@SUM(1+1)",
    "spine": "-2+3",
    "tray-a": "\uff1dHYPERLINK(\"http://x\")",  # fullwidth ＝, folded into = by some programs
    "tray-b": "\uff20SUM(1+1)",
}
#: cell starts no name can hold (names are one line of printable text) but other text can
CONTROL_STARTS = ["\tleading-tab", "\rleading-cr", "\nleading-lf", "\x00nul"]
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n", "\x00", "\uff1d", "\uff0b", "\uff0d", "\uff20")


@pytest.fixture
def hostile(small):
    small.apply([UpdateDevice(device_id, {"name": name}) for device_id, name in HOSTILE.items()]
                + [UpdateRack("r1", {"name": "=R1"}),
                   UpdateLink("f1", {"colour": "@blue", "plane": "=plane"}),
                   UpdateSettings({"site": "+1A"})])
    return small


def _cells(path: Path) -> list[str]:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return [cell for row in csv.reader(handle) for cell in row]


def _check(path: Path, expect: tuple[str, ...]) -> None:
    cells = _cells(path)
    assert not [c for c in cells if c.startswith(FORMULA_START)], path.name
    for text in expect:  # the text is there, as data behind a '
        assert any(c.startswith("'" + text) or ("'" + text) in c for c in cells), (path.name, text)


def test_a_formula_cell_gets_a_leading_quote_and_other_cells_stay_as_they_are():
    for text in [*HOSTILE.values(), *CONTROL_STARTS, "\uff0b1", "\uff0d1"]:
        assert neutralised(text) == "'" + text
    assert neutralised("leaf-01") == "leaf-01"
    assert neutralised(-3) == -3  # a number is a number
    assert neutralised(None) == ""


def test_schedule_csv_neutralises_names(hostile, tmp_path):
    out = tmp_path / "schedule.csv"
    export_csv(hostile, out)
    _check(out, (HOSTILE["leaf"], HOSTILE["dgx-a"], HOSTILE["dgx-b"], "=plane", "@blue"))


def test_labels_csv_neutralises_names(hostile, tmp_path):
    out = tmp_path / "labels.csv"
    export_labels_csv(hostile, out)
    _check(out, ("@blue",))


def test_p2p_csv_neutralises_names(hostile, tmp_path):
    out = tmp_path / "p2p.csv"
    export_p2p(hostile, out)
    _check(out, (HOSTILE["leaf"], HOSTILE["dgx-a"], HOSTILE["dgx-b"], HOSTILE["tray-a"]))


@pytest.mark.parametrize("layout", ["4.5", "4.4"])
def test_every_netbox_csv_neutralises_names(hostile, tmp_path, layout):
    written = {name: n for name, n in export_netbox(hostile, tmp_path / "nb", layout=layout).items()
               if name.endswith(".csv")}
    expect = {
        "devices.csv": (HOSTILE["leaf"], HOSTILE["spine"], "+1A"),
        "racks.csv": ("=R1", "+1A"),
        # 4.5: the device types' templates hold these ports, so no interface rows
        "interfaces.csv": (HOSTILE["leaf"], HOSTILE["dgx-b"]) if layout == "4.4" else (),
        "cables.csv": (HOSTILE["leaf"], HOSTILE["dgx-a"], HOSTILE["tray-b"]),
        "sites.csv": ("+1A",),
        "manufacturers.csv": (),
        "device_roles.csv": (),
    }
    assert set(written) == set(expect)
    for name, texts in expect.items():
        _check(tmp_path / "nb" / name, texts)


def test_a_symlink_planted_at_the_old_temp_name_is_not_followed(small, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    out = tmp_path / "schedule.csv"
    os.symlink(victim, tmp_path / ".schedule.csv.part")
    export_csv(small, out)
    assert victim.read_text() == "keep me"
    assert out.is_file() and not out.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".schedule.csv.part", "schedule.csv", "victim.txt"]


def test_a_failed_export_leaves_no_temp_file(small, tmp_path):
    folder = tmp_path / "out.csv"
    folder.mkdir()  # the target is a folder: like `--csv /tmp`
    with pytest.raises(IsADirectoryError):
        export_csv(small, folder)
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]

    def broken_rows():
        yield ["x"]
        raise OSError(28, "No space left on device")

    from aicnet_gui.report.csv_exports import write_csv

    with pytest.raises(OSError, match="No space"):
        write_csv(tmp_path / "part.csv", ["h"], broken_rows())
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_the_as_built_rework_csv_neutralises_observed_names(tmp_path):
    from aicnet_gui.asbuilt.differences import Difference
    from aicnet_gui.asbuilt.rework import ReworkItem, write_csv_list

    observed = "=cmd|' /C calc'!A0"  # what a switch's LLDP said: data from the cluster
    item = ReworkItem("=R1", "miswired", ("C000001",), ("@label",),
                      Difference("miswired", ("l1",), "-moved", "+swap", observed=(observed,),
                                 where="lldp/leaf-01.json"), ())
    out = tmp_path / "rework.csv"
    assert write_csv_list([item], out) == 1
    _check(out, ("=R1", "@label", "-moved", "+swap", observed))


def test_the_netbox_readme_and_device_types_ignore_a_planted_symlink(small, tmp_path):
    folder = tmp_path / "nb"
    folder.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    os.symlink(victim, folder / ".README.txt.part")  # the fixed name outfile.py once used
    export_netbox(small, folder)
    assert victim.read_text() == "keep me"
    assert (folder / "README.txt").is_file() and not (folder / "README.txt").is_symlink()
    assert not [p for p in folder.rglob("*.tmp")]
