"""The `aicnet` command line: output a user reads, exit codes 0/1/2, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from aicnet_gui.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "small-hgx.fabric"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_catalog_list_and_show(capsys):
    code, out, _ = run(capsys, "catalog", "list")
    assert code == 0
    assert "nvidia-qm9700" in out and "nvidia-sn5600" in out
    code, out, _ = run(capsys, "catalog", "show", "nvidia-qm9700", "--json")
    entry = json.loads(out)
    assert code == 0 and entry["cages"][0]["count"] == 32 and entry["cages"][0]["form_factor"] == "OSFP"


def test_catalog_show_says_what_no_public_document_states(capsys):
    code, out, _ = run(capsys, "catalog", "show", "nvidia-dgx-b300", "--json")
    entry = json.loads(out)
    # the DGX B300 User Guide states the maximum ("15 kW system max."), not a typical draw
    assert code == 0 and entry["not_stated_in_a_public_document"] == [
        "power_typical_w", "cages[0].power_class_w (compute)"]
    code, out, _ = run(capsys, "catalog", "show", "nvidia-qm9700", "--json")
    qm9700 = json.loads(out)
    assert qm9700["power_typical_w"] == 747  # with passive cables (hardware.md, S)
    assert qm9700["power_max_w"] == 1720  # with active cables (S), optics included
    assert "not_stated_in_a_public_document" not in qm9700  # both figures stated (secondary)


def test_catalog_show_reads_as_a_data_sheet(capsys):
    """Without --json an entry is a sheet a buyer reads: verified or not, the facts with their
    units, a figure no document gives as "not stated", what no public document states named,
    the cage groups under their names, the source and the notes wrapped."""
    code, out, _ = run(capsys, "catalog", "show", "nvidia-dgx-b300")
    lines = out.splitlines()
    assert code == 0 and lines[1].split() == ["id:", "nvidia-dgx-b300"]
    assert any(line.startswith("verified:") and "no: the notes say" in line for line in lines)
    assert any(line.split() == ["power", "max", "(W):", "15000"] for line in lines)
    assert any(line.split() == ["power", "typical", "(W):", "not", "stated"] for line in lines)
    assert ("not stated in a public document: power typical (W); "
            "cage group 1 (compute): power class (W)") in lines
    assert any(line.startswith("cages 1 (compute):") for line in lines)
    assert "source:" in lines and "notes:" in lines
    assert max(len(line) for line in lines) <= 110
    code, out, _ = run(capsys, "catalog", "show", "nvidia-mms4x00-nm")
    assert "verified:             yes: every number was checked against the source below" in out
    assert "  OS2:                500" in out and "OM4" not in out.split("source:")[0]


def test_catalog_show_unknown_id_exits_2(capsys):
    code, _, err = run(capsys, "catalog", "show", "qm97")
    assert code == 2
    assert "no catalog entry 'qm97'" in err and "nvidia-qm9700" in err


def test_info_counts_by_role(capsys):
    code, out, _ = run(capsys, "info", str(EXAMPLE), "--json")
    data = json.loads(out)
    assert code == 0
    assert data["devices"]["by_role"] == {"gpu_server": 4, "leaf": 2, "spine": 2}
    assert data["links"]["by_tier"] == {"leaf-spine": 32, "server-leaf": 32}
    assert data["racks"] == 3


def test_validate_clean_example_exits_0(capsys):
    code, out, _ = run(capsys, "validate", str(EXAMPLE))
    assert code == 0, out


def test_validate_bad_file_exits_2_with_place(capsys, tmp_path):
    bad = tmp_path / "bad.fabric"
    bad.write_text('{"format": "aicnet.fabric", "schema_version": 1, "links": [{"id": 3}]}')
    code, _, err = run(capsys, "validate", str(bad))
    assert code == 2
    assert f"{bad}: $.links[0]" in err


def test_usage_error_exits_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["validate"])
    assert info.value.code == 2


def test_a_mistyped_command_and_the_help_list_every_command(capsys):
    """Only the command named is imported before it runs; without one every command shows."""
    with pytest.raises(SystemExit) as info:
        main(["valdate", "x.fabric"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'valdate'" in err and "'validate'" in err and "'whatif'" in err
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    out = capsys.readouterr().out
    assert info.value.code == 0 and "generate" in out and "verify" in out


def test_no_traceback_reaches_the_user(tmp_path):
    bad = tmp_path / "bad.fabric"
    bad.write_bytes(b"\x00\xff garbage")
    result = subprocess.run([sys.executable, "-m", "aicnet_gui.cli", "validate", str(bad)],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "not UTF-8" in result.stderr
