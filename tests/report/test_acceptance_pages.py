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


def test_an_ecmp_fabric_lists_the_hot_uplinks_of_its_median_draw(catalog, tmp_path):
    # 64 HGX on top-of-rack leaves at 2:1 under static ECMP: the plan's hottest links are one
    # hash's (its median draw), where a leaf-spine uplink is full; the mean of the draws
    # listed only NIC links at about 65 %
    from aicnet_gui.fileio import save_fabric
    from aicnet_gui.generators import TwoTierParams, generate
    from aicnet_gui.model.document import FabricDocument
    from aicnet_gui.model.edits import UpdateSettings

    doc = FabricDocument(catalog)
    generate(doc, TwoTierParams(servers=64, oversubscription=2.0, attach="tor",
                                server="generic-hgx-8-gpu-b3140h", leaf="cisco-n9364e-sg2-o",
                                technology="rocev2"))
    doc.apply([UpdateSettings({"load_balancing": "ecmp"})])
    path, out = tmp_path / "tor.fabric", tmp_path / "plan.pdf"
    save_fabric(doc, path)
    assert main(["export", str(path), "--pdf", str(out), "--sections", "traffic",
                 "--no-progress"]) == 0
    text = " ".join(page.extract_text() for page in PdfReader(out).pages)
    assert "Hottest links (ecmp, its median draw:" in text
    hot = text[text.index("Hottest links (ecmp"):].split("\n")
    first = next(line for line in hot if "->" in line)
    assert "leaf-" in first and "spine-" in first and "100%" in first, first
