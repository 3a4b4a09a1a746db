"""CAGE-DISABLED: an SN5600 8x breakout disables the next cage (Cumulus Linux 5.6, Switch Port
Attributes: "You must disable the adjacent port"); links there never come up."""

from __future__ import annotations

from conftest import SN5600

from aicnet_gui.analysis import Analyzer, analyze
from aicnet_gui.model.cage_tables import CageConfig
from tests.doc_edits import update_device

DAC800 = "nvidia-mcp4y10"


def _leaves(build, modes):
    build.dev("leaf-1", SN5600, modes=modes)
    build.dev("leaf-2", SN5600)


def test_a_link_on_the_cage_an_8x_breakout_disables_is_an_error(build):
    _leaves(build, {1: "8x100G"})
    build.link("ok", "leaf-1", "swp3s0", "leaf-2", "swp3s0", cable=DAC800, length_m=1)
    build.link("dead", "leaf-1", "swp2s0", "leaf-2", "swp2s0", cable=DAC800, length_m=1)
    (finding,) = analyze(build.doc).by_code("CAGE-DISABLED")
    assert finding.severity.value == "error"
    assert finding.objects == ("leaf-1", "dead")
    assert "leaf-1 cage 2 is disabled because cage 1 runs 8x100G" in finding.message


def test_8x_on_the_second_cage_of_a_pair_is_an_error_and_nothing_else_is_flagged(build):
    _leaves(build, {2: "8x50G"})
    build.link("x", "leaf-1", "swp3s0", "leaf-2", "swp3s0", cable=DAC800, length_m=1)
    (finding,) = analyze(build.doc).by_code("CAGE-DISABLED")
    assert finding.objects == ("leaf-1",)
    assert "cage 2 cannot run 8x50G" in finding.message


def test_an_8x_breakout_with_its_neighbour_free_is_fine(build):
    _leaves(build, {1: "8x100G", 5: "8x50G"})
    build.link("a", "leaf-1", "swp3s0", "leaf-2", "swp3s0", cable=DAC800, length_m=1)
    assert not analyze(build.doc).by_code("CAGE-DISABLED")


def test_the_finding_follows_an_edit_of_the_mode_incrementally(build):
    _leaves(build, {})
    build.link("l", "leaf-1", "swp2s0", "leaf-2", "swp2s0", cable=DAC800, length_m=1)
    analyzer = Analyzer(build.doc)
    assert not analyzer.full().by_code("CAGE-DISABLED")
    edit = update_device(build.doc, "leaf-1", cages={1: CageConfig(mode="8x100G")})
    report = analyzer.update(edit.changes)
    assert [f.objects for f in report.by_code("CAGE-DISABLED")] == [("leaf-1", "l")]
    assert report == analyze(build.doc)
    edit = update_device(build.doc, "leaf-1", cages={})
    assert not analyzer.update(edit.changes).by_code("CAGE-DISABLED")
