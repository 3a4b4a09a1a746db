"""The plan PDF's acceptance sheet pages, as the bring-up team reads them."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from aicnet_gui.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "small-hgx.fabric"


def test_the_acceptance_headings_count_servers_in_words(tmp_path):
    # small-hgx: 4 HGX servers; the one-node job is "1 server", not "1 servers"
    out = tmp_path / "plan.pdf"
    assert main(["export", str(EXAMPLE), "--pdf", str(out), "--sections", "traffic",
                 "--no-progress"]) == 0
    text = " ".join(page.extract_text() for page in PdfReader(out).pages)
    assert "1 node: 1 server, 8 GPUs" in text and "1 servers" not in text
    assert "1 SU: 4 servers, 32 GPUs" in text
