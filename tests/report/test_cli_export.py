"""`aicnet export`: several outputs at once, exit 0; bad input exits 2 with a one-line reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from aicnet_gui.cli import main
from aicnet_gui.fileio import save_fabric

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "small-hgx.fabric"


@pytest.fixture
def fabric(small, tmp_path):
    path = tmp_path / "small.fabric"
    save_fabric(small, path)
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_all_outputs_at_once(capsys, fabric, tmp_path):
    pdf, schedule = tmp_path / "plan.pdf", tmp_path / "schedule.csv"
    labels, p2p, netbox = tmp_path / "labels.csv", tmp_path / "p2p.csv", tmp_path / "netbox"
    code, out, err = run(capsys, "export", str(fabric), "--pdf", str(pdf), "--paper", "letter",
                         "--labels", "avery-5160", "--csv", str(schedule), "--labels-csv",
                         str(labels), "--p2p", str(p2p), "--netbox", str(netbox))
    assert code == 0, err
    assert pdf.exists() and schedule.exists() and labels.exists() and p2p.exists()
    assert (netbox / "cables.csv").exists()
    assert f"wrote {pdf}:" in out and "13 labels" in out
    # a Letter plan with 5160 labels: the label pages are Letter size
    assert PdfReader(pdf).pages[-1].mediabox.height == pytest.approx(792)


def test_sections_subset(capsys, fabric, tmp_path):
    pdf = tmp_path / "cover.pdf"
    code, _, err = run(capsys, "export", str(fabric), "--pdf", str(pdf), "--sections", "cover")
    assert code == 0, err
    assert len(PdfReader(pdf).pages) == 1


def test_the_example_exports(capsys, tmp_path):
    if not EXAMPLE.exists():
        pytest.skip("examples/small-hgx.fabric is not there")
    pdf = tmp_path / "example.pdf"
    code, out, err = run(capsys, "export", str(EXAMPLE), "--pdf", str(pdf), "--no-qr")
    assert code == 0, err
    assert "64 links" in out


@pytest.mark.parametrize(("args", "message"), [
    ((), "nothing to export"),
    (("--pdf", "{tmp}/x.pdf", "--sections", "cover,maps"), "unknown section 'maps'"),
    (("--pdf", "{tmp}/x.pdf", "--label-start", "65"), "label start must be 0..64"),
    (("--pdf", "{tmp}/x.pdf", "--label-grid", "cols=3,rows=10,w=80,h=30,left=5,top=5"),
     "does not fit the page"),
    (("--pdf", "{tmp}/x.pdf", "--label-grid", "cols=3"), "missing rows, w, h, left, top"),
    (("--csv", "{tmp}/no/such/dir/x.csv"), "cannot write"),
])
def test_bad_input_exits_2(capsys, fabric, tmp_path, args, message):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
    code, _, err = run(capsys, "export", str(fabric), *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    assert not (tmp_path / "x.pdf").exists()


def test_unreadable_fabric_exits_2(capsys, tmp_path):
    bad = tmp_path / "bad.fabric"
    bad.write_text("{not json", encoding="utf-8")
    code, _, err = run(capsys, "export", str(bad), "--csv", str(tmp_path / "x.csv"))
    assert code == 2 and str(bad) in err


def test_bad_offset_is_a_usage_error(capsys, fabric, tmp_path):
    with pytest.raises(SystemExit) as info:
        main(["export", str(fabric), "--pdf", str(tmp_path / "x.pdf"), "--label-offset", "1"])
    assert info.value.code == 2
    assert "X,Y in millimetres" in capsys.readouterr().err
