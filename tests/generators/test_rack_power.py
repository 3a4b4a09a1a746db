"""Generated racks stay within their power budget and height, counted as RACK-POWER and
POWER-FEED count them (model/power.py): switches and the optics the media choice installs
included, at 1, 16 and 400 SUs, on InfiniBand and Spectrum-X; a budget given on the command
line or as the project's A/B feed capacity is respected."""

from __future__ import annotations

from collections import defaultdict

import pytest

from aicnet_gui.analysis import analyze
from aicnet_gui.analysis.lengths import link_length
from aicnet_gui.cli import main
from aicnet_gui.fileio import load_fabric
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.generators.template_params import FloorParams
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import UpdateSettings
from aicnet_gui.model.power import device_watts, optic_watts, optics_in_figure

B300, Q3400, SN5600 = "nvidia-dgx-b300", "nvidia-q3400-ra", "nvidia-sn5600"
RACK_CODES = {"RACK-POWER", "RACK-SPACE", "POWER-FEED"}


def rack_findings(doc: FabricDocument) -> list[str]:
    return [f"{f.code}: {f.message}" for f in analyze(doc).findings if f.code in RACK_CODES]


def rack_draw_kw(doc: FabricDocument) -> dict[str, float]:
    """Per rack its draw in kW, summed here from model/power.py."""
    draw: dict[str, float] = defaultdict(float)
    for device in doc.devices.values():
        model = doc.device_model(device)
        watts = device_watts(model) or 0.0
        if not optics_in_figure(model):  # a maximum stated with active cables includes them
            watts += optic_watts(doc.catalog, [c.transceiver for c in device.cages.values()
                                               if c.transceiver])
        draw[device.rack] += watts / 1000
    return draw


@pytest.mark.parametrize("sus", [1, 16])
def test_q3400_network_racks_hold_what_they_can_power(sus, make):
    """A Q3400-RA draws up to 7 kW with active cables in its 72 cages (its maximum, optics
    included; it counted 2.9 kW typical plus 72 x 25 W of optics before): eleven fit a network
    rack by height (46 U / 4 U) but not by power.  Every rack stays within 42 kW, and a rack
    of fully equipped switches holds six (6 x 7 = 42 kW)."""
    doc, result = make(RailOptimizedParams(sus=sus, nodes_per_su=32, server=B300, leaf=Q3400))
    assert result.unresolved == []
    assert rack_findings(doc) == []
    draw = rack_draw_kw(doc)
    assert max(draw.values()) <= 42.0 + 1e-9
    full: dict[str, int] = defaultdict(int)
    for device in doc.devices.values():
        if device.model == Q3400 and len([c for c in device.cages.values() if c.transceiver]) == 72:
            full[device.rack] += 1
    assert not full or max(full.values()) <= 6


def test_spectrum_x_sn5600_two_planes(make):
    doc, result = make(RailOptimizedParams(sus=2, planes=2, server=B300, leaf=SN5600))
    assert result.unresolved == []
    assert rack_findings(doc) == []


def test_a_rack_budget_from_the_command_line_is_respected(tmp_path, catalog):
    """--rack-kw sets every rack's budget and placement keeps to it; a larger budget puts
    more switches into a network rack (the budget is used, not only obeyed)."""
    most = {}
    for kw in (20.0, 60.0):
        out = tmp_path / f"x{kw:g}.fabric"
        code = main(["generate", "rail-optimized", "--sus", "2", "--nodes-per-su", "32",
                     "--server", B300, "--leaf", Q3400, "--rack-kw", f"{kw:g}", "-o", str(out)])
        assert code == 0
        doc = load_fabric(out, catalog)
        assert {r.power_kw for r in doc.racks.values()} == {kw}
        assert rack_findings(doc) == []
        assert max(rack_draw_kw(doc).values()) <= kw + 1e-9
        per_rack: dict[str, int] = defaultdict(int)
        for device in doc.devices.values():
            if device.model == Q3400:
                per_rack[device.rack] += 1
        most[kw] = max(per_rack.values())
    assert most[20.0] < most[60.0]


def test_the_project_feed_capacity_is_respected(catalog):
    """With A/B feeds of 20 kW each (project setting) no rack may draw more than 20 kW, even
    under a 42 kW rack budget: POWER-FEED stays silent."""
    doc = FabricDocument(catalog)
    doc.apply([UpdateSettings({"power_feed_kw": 20.0})])
    generate(doc, RailOptimizedParams(sus=1, nodes_per_su=32, server=B300, leaf=Q3400))
    assert rack_findings(doc) == []
    assert max(rack_draw_kw(doc).values()) <= 20.0 + 1e-9
    servers_per_rack: dict[str, int] = defaultdict(int)
    for device in doc.devices.values():
        if device.model == B300:
            servers_per_rack[device.rack] += 1
    assert max(servers_per_rack.values()) == 1  # 10.2 kW assumed per DGX B300 + optics


def test_a_switch_that_alone_exceeds_the_budget_is_refused(make):
    from aicnet_gui.generators import GeneratorError

    with pytest.raises(GeneratorError, match="more than the 4 kW rack budget"):
        make(RailOptimizedParams(sus=1, nodes_per_su=32, server=B300, leaf=Q3400,
                                 floor=FloorParams(rack_power_kw=4, server_power_kw=1)))


def test_400_sus_no_rack_over_budget_and_the_longest_run_has_media(make):
    """The 102,400-GPU design: no RACK-POWER or RACK-SPACE finding, and more network racks
    (longer runs) still give every link media that reaches, the longest one included."""
    doc, result = make(RailOptimizedParams(sus=400, nodes_per_su=32, server=B300, leaf=Q3400))
    assert result.unresolved == []
    report = analyze(doc)
    codes = {f.code for f in report.findings}
    assert not codes & (RACK_CODES | {"CABLE-UNSET", "REACH-EXCEEDED", "MEDIA-MISMATCH"})
    longest = max(doc.links.values(), key=lambda x: link_length(doc, x).length_m)
    length = link_length(doc, longest)
    assert length.length_m > 100  # more network racks, runs across the floor
    assert length.ordered_m >= length.length_m
    assert doc.catalog.cable(longest.cable).max_length_m >= length.length_m


def test_b300_says_what_budget_nvidias_four_per_rack_takes_and_that_budget_gives_it(make):
    """DGX B300 at its User Guide's 15 kW system max: the default 42 kW rack holds 2; NVIDIA's
    B300 XDR RA puts 4 in a rack (~56 kW consumption). The note names the budget that holds 4
    at maximum power with their optics, and that budget does."""
    import re

    _doc, result = make(RailOptimizedParams(sus=1, server=B300, leaf=Q3400))
    assert result.servers_per_rack == 2
    (note,) = [n for n in result.notes if "reference design puts 4 DGX B300" in n]
    budget = int(re.search(r"--rack-kw (\d+)", note).group(1))
    doc, result = make(RailOptimizedParams(sus=1, server=B300, leaf=Q3400,
                                           floor=FloorParams(rack_power_kw=budget)))
    assert result.servers_per_rack == 4
    assert not rack_findings(doc)
    assert not [n for n in result.notes if "reference design puts" in n]
