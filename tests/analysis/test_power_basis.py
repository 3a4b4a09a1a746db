"""Power totals say what they are built on: a verified maximum, else which models are counted at
a typical, missing or unverified figure (`aicnet bom` text and --json, the PDF's BOM).

The BOM says "devices at maximum, else typical", but the QM9700 carried only its 747 W typical
figure: a 1-SU SuperPOD showed 343.0 kW.  Its maximum, 1,720 W with active cables (secondary
sources quoting NVIDIA's specifications; no NVIDIA page stating it could be read), includes the
modules in its cages, so it replaces the typical figure *and* its optics; it is marked
unverified, and so is every total built on it.
"""

from __future__ import annotations

import json

from pypdf import PdfReader

from aicnet_gui.analysis.bom import compute_bom
from aicnet_gui.cli import main
from aicnet_gui.fileio import save_fabric
from aicnet_gui.generators import RailOptimizedParams, TwoTierParams, generate
from aicnet_gui.model.document import FabricDocument


def _generated(catalog, params) -> FabricDocument:
    doc = FabricDocument(catalog)
    generate(doc, params)
    return doc


def test_a_1su_superpod_counts_its_switches_at_their_unverified_maximum(catalog):
    """32 DGX H100 at 10,200 W (User Guide, verified) + their 128 twin-port flat-top optics +
    12 QM9700 at 1,720 W each with their optics included (none of the 384 switch optics added
    again): 326,400 + 128 x 15 + 20,640 = 348,960 W, where it said 343,044 W."""
    doc = _generated(catalog, RailOptimizedParams(sus=1))
    bom = compute_bom(doc)
    flt = catalog.transceiver("nvidia-mma4z00-ns-flt").power_w
    assert bom.transceivers == {"nvidia-mma4z00-ns": 384, "nvidia-mma4z00-ns-flt": 128}
    assert bom.power_w == 32 * 10_200 + 128 * flt + 12 * 1_720
    assert bom.power_caveats() == [
        ("nvidia-qm9700", 12, "1,720 W maximum, optics included, unverified")]
    basis = bom.to_json()["power_basis"]
    assert basis["unverified"] == ["nvidia-qm9700"] and basis["typical"] == []
    assert basis["no_figure"] == []
    assert basis["unverified_w"] == bom.power_unverified_w() == 12 * 1_720  # the compare's share
    qm = basis["models"]["nvidia-qm9700"]
    assert (qm["figure"], qm["watts_each"], qm["verified"], qm["optics_included"]) == (
        "maximum", 1720, False, True)
    assert "secondary" in qm["source"]
    assert basis["models"]["nvidia-dgx-h100"]["verified"] is True


def test_typical_and_missing_figures_are_named_in_the_cli_text_and_json(catalog, tmp_path, capsys):
    """SN5600 leaves (8, one per rail): 940 W typical (no maximum known, secondary); SN5400: no power
    figure at all (the 2 spines); the generic HGX server: none either.  Each is listed under the total."""
    path = tmp_path / "eth.fabric"
    save_fabric(_generated(catalog, TwoTierParams(
        servers=16, server="generic-hgx-8-gpu-b3140h", leaf="nvidia-sn5600",
        spine="nvidia-sn5400", technology="rocev2")), path)
    assert main(["bom", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    at = next(i for i, line in enumerate(out) if line.startswith("Power: "))
    assert out[at + 1:at + 4] == [
        "  generic-hgx-8-gpu-b3140h x16: no power figure: not counted",
        "  nvidia-sn5400 x2: no power figure: not counted",
        "  nvidia-sn5600 x8: 940 W typical: no maximum known, unverified"]
    assert main(["bom", str(path), "--json"]) == 0
    basis = json.loads(capsys.readouterr().out)["power_basis"]
    assert basis["typical"] == ["nvidia-sn5600"]
    assert basis["no_figure"] == ["generic-hgx-8-gpu-b3140h", "nvidia-sn5400"]
    assert basis["unverified"] == ["nvidia-sn5600"]


def test_the_pdf_bom_names_the_figures_its_power_total_is_built_on(catalog, tmp_path):
    path, pdf = tmp_path / "su.fabric", tmp_path / "su.pdf"
    save_fabric(_generated(catalog, RailOptimizedParams(sus=1)), path)
    assert main(["export", str(path), "--pdf", str(pdf)]) == 0
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(pdf).pages)
    assert "Power figures nvidia-qm9700 x12: 1,720 W maximum, optics included, unverified" in text
    assert "power figure unverified (secondary source)" in text  # the QM9700's device line
    assert "switch maximums stated with active cables" in text  # its optics, not added again
