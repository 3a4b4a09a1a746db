"""`aicnet compare` on the command line: the JSON scripts read, the files and the PDF it
writes, the switch models it tries for a technology, bad input, and Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from pypdf import PdfReader

from aicnet_gui.cli import main
from aicnet_gui.model.catalog_entities import Role

from .conftest import TEST_PRICES


def _json(capsys, *argv: str) -> dict:
    assert main(["compare", *argv, "--quiet", "--workers", "0"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_files_and_pdf(capsys, tmp_path):
    out, pdf = tmp_path / "out", tmp_path / "compare.pdf"
    data = _json(capsys, "--servers", "16", "--leaf", "nvidia-qm9700", "--leaf",
                 "nvidia-sn4600c", "--oversubscription", "1", "--oversubscription", "3:1",
                 "--prices", str(TEST_PRICES), "--out", str(out), "--pdf", str(pdf), "--json")
    names = [c["name"] for c in data["candidates"]]
    assert names == ["qm9700-1to1", "qm9700-3to1", "sn4600c-1to1", "sn4600c-3to1"]
    built = [c for c in data["candidates"] if c["metrics"]]
    assert [Path(c["file"]).name for c in built] == ["qm9700-1to1.fabric", "qm9700-3to1.fabric"]
    assert all(Path(c["file"]).is_file() for c in built)
    assert json.loads((out / "compare.json").read_bytes())["candidates"] == data["candidates"]
    # 16 servers put 16 NICs on each rail's leaf; at 3:1 it needs ceil(16 / 3) = 6 uplinks
    assert built[1]["metrics"]["oversubscription"]["effective"] == round(16 / 6, 4)
    assert built[0]["metrics"]["cost"] > 0 and built[0]["metrics"]["pareto"]["cost_time"] in (
        True, False)
    text = "\n".join(page.extract_text() for page in PdfReader(pdf).pages)
    for name in names:
        assert name in text
    assert "Cost against collective time" in text and "Counts per candidate" in text
    assert "share no port speed" in text  # the reasons of what cannot be built


def test_the_files_carry_the_requirement_and_reopen_as_it(capsys, tmp_path):
    out = tmp_path / "out"
    _json(capsys, "--servers", "16", "--leaf", "nvidia-qm9700", "--prices", str(TEST_PRICES),
          "--out", str(out), "--json", "--save-requirement", str(tmp_path / "r.yaml"))
    again = _json(capsys, "--requirement", str(out / "qm9700.fabric"), "--json")
    assert again["candidates"][0]["metrics"]["cost"] is not None  # its price list came along
    from_yaml = _json(capsys, "--requirement", str(tmp_path / "r.yaml"), "--leaf",
                      "nvidia-sn5600", "--json")
    assert [c["name"] for c in from_yaml["candidates"]] == ["sn5600"]  # an option replaces


def test_with_only_a_technology_every_catalog_switch_of_it_is_tried(capsys, catalog):
    data = _json(capsys, "--servers", "8", "--technology", "rocev2", "--json")
    ethernet = sorted(m.id for m in catalog.devices.values()
                      if m.role in (Role.LEAF, Role.SPINE, Role.CORE) and not m.discontinued
                      and "ethernet" in {t.value for t in m.technology})
    tried = sorted(c["combination"]["leaf"] for c in data["candidates"])
    assert tried == ethernet and len(tried) >= 6
    assert all(c["combination"]["technology"] == "rocev2" for c in data["candidates"])
    assert all(c["metrics"] is None or c["metrics"]["technology"] == "rocev2"
               for c in data["candidates"])


def test_bad_input_exits_2_with_the_reason(capsys):
    assert main(["compare", "--servers", "8", "--rack-kw", "8", "--quiet"]) == 2
    assert "rack budget" in capsys.readouterr().err
    assert main(["compare", "--leaf", "nvidia-qm9700"]) == 2
    assert "--servers N or --gpus N" in capsys.readouterr().err
    assert main(["compare", "--servers", "8", "--workload", "training=many"]) == 2
    assert "KIND:GPUS" in capsys.readouterr().err
    assert main(["compare", "--servers", "8", "--gpus", "64"]) == 2
    assert "one of them" in capsys.readouterr().err


def test_ctrl_c_keeps_the_finished_candidates(tmp_path):
    out = tmp_path / "out"
    command = [sys.executable, "-m", "aicnet_gui.cli", "compare", "--servers", "32", "--json",
               "--out", str(out), "--workers", "1", "--technology", "rocev2",
               "--oversubscription", "1", "--oversubscription", "2",
               "--oversubscription", "3"]
    env = dict(os.environ)
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                          cwd=Path(__file__).resolve().parents[2]) as process:
        for line in process.stderr:  # wait until the first candidate is done
            if b" of " in line and b"built" in line or b"not buildable" in line:
                break
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=300)
    assert process.returncode == 130, stderr.decode()
    assert b"cancelling" in stderr
    data = json.loads(stdout)
    assert data["cancelled"] and data["not_run"] and data["candidates"]
    written = sorted(p.name for p in out.glob("*.fabric"))
    assert written == sorted(Path(c["file"]).name for c in data["candidates"] if c["file"])
    assert json.loads((out / "compare.json").read_bytes())["cancelled"] is True


def test_the_pdf_says_how_much_power_rests_on_unverified_figures(capsys, tmp_path):
    # 16 DGX H100 on QM9700: 8 leaves (16 NICs down, 16 up) and 2 spines (128 uplinks / 64)
    # counted at the QM9700's 1,720 W maximum, a secondary figure (catalog notes): 10 x 1.72 =
    # 17.2 kW of the total rests on it; the
    # PDF says so in its words, not by a JSON key the reader never sees
    pdf = tmp_path / "compare.pdf"
    data = _json(capsys, "--servers", "16", "--leaf", "nvidia-qm9700", "--pdf", str(pdf),
                 "--json")
    assert data["candidates"][0]["metrics"]["power_unverified_kw"] == 17.2
    text = "\n".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "power_unverified" not in text
    assert re.search(r"Unverified\s+kW", text) and re.search(r"\b181\.4\s+17\.2\b", text), text
