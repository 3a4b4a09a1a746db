"""Fixes are checked before they are offered (aicnet_gui.repair): a one-click fix is applied to a
copy and re-validated; one that would cause a new error is withheld with its reason; reach and
fibre-kind fixes change the optics at both ends and the cord together; oversubscription advice
fits the switch's free ports; and every fix offered on every example and on broken variants of
them leaves no new error."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from conftest import DAC800, HGX, MMF, NIC_OPTIC, SN5600, TWIN_SR4, Build

from aicnet_gui.analysis import Analyzer, Severity, analyze
from aicnet_gui.analysis.fixes import set_cage_mode, set_cage_optic
from aicnet_gui.fileio import load_fabric
from aicnet_gui.media.facts import optic_reach_m
from aicnet_gui.model.catalog_entities import BreakoutMode, Role
from aicnet_gui.model.edits import ChangeSet, UpdateLink
from aicnet_gui.repair import FixChecker

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SMF_CORD = "nvidia-mfp7e30"  # straight MPO-12/APC OS2, stock lengths up to 100 m


def _errors(report) -> Counter:
    return Counter((f.code, f.objects) for f in report.findings if f.severity == Severity.ERROR)


def _sr4_link(build: Build, cable: str, length: float) -> None:
    build.dev("gpu-1", HGX, optics={1: NIC_OPTIC})
    build.dev("leaf-1", SN5600, optics={1: TWIN_SR4})
    build.link("c1", "gpu-1", "p1", "leaf-1", "swp1s0", cable=cable, length_m=length)


def test_reach_fix_on_sr4_over_70_m_changes_both_optics_and_the_cord(build):
    # MMA1Z00-NS400 (SR4) at the NIC and MMA4Z00-NS (2xSR4) at the leaf reach 50 m over OM4;
    # the MFP7E10 OM4 cord is made up to 50 m.  70 m > 50 m: REACH-EXCEEDED.  A longer OM4 cord
    # does not help (the optics stop at 50 m) and an OS2 cord on SR4 optics is MEDIA-MISMATCH,
    # so the fix must re-equip the link: single-mode optics at both ends (DR4-class, >= 70 m
    # over OS2: the catalog's 400GBASE-DR4 QSFP112 reaches 500 m, the MMS4X00-NS 2xDR4 100 m)
    # and an OS2 cord with a stock length >= 70 m (MFP7E30: ... 60, 70 ... 100 m).
    doc = build.doc
    _sr4_link(build, MMF, 70)
    (finding,) = analyze(doc).by_code("REACH-EXCEEDED")
    assert "70 m (typed-in) is longer than the 50 m reach" in finding.message
    assert not finding.fix.applicable  # the rule alone only says it in words
    assert "optics at both ends and the cord together" in finding.fix.description
    fix = FixChecker(doc).checked(finding)
    assert fix.applicable, fix
    doc.apply(list(fix.ops))
    catalog = doc.catalog
    nic = catalog.transceiver(doc.devices["gpu-1"].cages[1].transceiver)
    leaf = catalog.transceiver(doc.devices["leaf-1"].cages[1].transceiver)
    cord = catalog.cable(doc.links["c1"].cable)
    assert nic.media == leaf.media == "SMF" and cord.fibre_grade == "OS2"
    assert optic_reach_m(nic, "OS2") >= 70 and optic_reach_m(leaf, "OS2") >= 70
    assert cord.ordered_length(70) == 70
    after = analyze(doc)
    assert not [f for f in after.findings if f.severity == Severity.ERROR], after.findings


def test_the_multimode_cord_is_not_offered_back_when_it_does_not_reach(build):
    """The known loop: an OS2 cord on SR4 optics at 70 m is MEDIA-MISMATCH; the rule suggests
    the OM4 cord, which at 70 m would be REACH-EXCEEDED (50 m).  That fix is withheld; the
    offered one changes the optics to single-mode instead."""
    doc = build.doc
    _sr4_link(build, SMF_CORD, 70)
    findings = analyze(doc).by_code("MEDIA-MISMATCH")
    assert findings and all("use the MFP7E10" in f.fix.description for f in findings)
    checker = FixChecker(doc)
    rule_fix = findings[0].fix
    verdict = checker.verify(findings[0], rule_fix.ops)
    assert not verdict.ok and "REACH-EXCEEDED" in verdict.reason
    assert [f.code for f in verdict.new_errors] == ["REACH-EXCEEDED"]
    fix = checker.checked(findings[0])
    assert fix.applicable and fix.ops != rule_fix.ops
    doc.apply(list(fix.ops))
    assert {doc.catalog.transceiver(doc.devices[d].cages[1].transceiver).media
            for d in ("gpu-1", "leaf-1")} == {"SMF"}
    assert not _errors(analyze(doc))


def test_a_borrowed_analyzer_ends_where_it_started(build):
    doc = build.doc
    _sr4_link(build, SMF_CORD, 70)
    analyzer = Analyzer(doc)
    report = analyzer.full()
    checker = FixChecker(doc, analyzer, report)
    for finding in report.findings:
        checker.checked(finding)
    assert analyzer.doc is doc
    assert analyzer.update(ChangeSet(), doc) == analyze(doc)
    doc.apply([UpdateLink("c1", {"length_m": 20})])
    with pytest.raises(RuntimeError):
        checker.checked(report.findings[0])  # a checker belongs to one revision


def _leaf_with_servers(build, servers: int):  # noqa: ANN001, ANN202
    """An SN5600 leaf with `servers` HGX servers (8 x 400G NICs each) and 4 x 400G uplinks to
    one spine."""
    build.dev("leaf-1", SN5600)
    build.dev("spine-1", SN5600, role="spine")
    for n in range(servers):
        build.dev(f"gpu-{n}", HGX)
        for r in range(8):
            port = 8 * n + r
            build.link(f"s{n}-{r}", f"gpu-{n}", f"p{r + 1}", "leaf-1",
                       f"swp{port // 2 + 1}s{port % 2}")
    for k in range(4):
        build.link(f"u{k}", "leaf-1", f"swp{61 + k // 2}s{k % 2}", "spine-1", f"swp{1 + k // 2}s{k % 2}")
    return build.doc


def test_oversubscription_advice_fits_the_free_ports(build):
    # SN5600: 64 cages x 2 x 400G = 128 fabric ports.  15 servers x 8 NICs = 120 down, 4 up:
    # 4 free.  120 x 400G / 4 x 400G = 30:1; 1:1 needs 116 more uplinks, and only 4 fit.  With
    # those 4: 120 / 8 = 15:1; moving 112 downlinks leaves 8 down / 8 up = 1:1.
    doc = _leaf_with_servers(build, 15)
    (finding,) = [f for f in analyze(doc).by_code("OVERSUBSCRIBED") if f.objects == ("leaf-1",)]
    assert "is 30:1" in finding.message
    text = finding.fix.description
    assert "about 116 more" not in text
    assert "its 4 free ports take 4 more 400G uplinks (15:1)" in text
    assert "move about 112 400G downlinks" in text


def test_oversubscription_advice_with_room_names_the_ports(build):
    # 2 servers: 16 down, 4 up, 108 free: 1:1 needs 12 more 400G uplinks, which fit.
    doc = _leaf_with_servers(build, 2)
    (finding,) = [f for f in analyze(doc).by_code("OVERSUBSCRIBED") if f.objects == ("leaf-1",)]
    assert "12 more 400G uplinks on 12 of its 108 free ports" in finding.fix.description


# ---------------------------------------------------------------------------- every example
def _fibre_link(doc):
    """A server-leaf fibre link with an optic at both ends (server end first)."""
    for link in sorted(doc.links.values(), key=lambda x: x.id):
        if link.cable is None or doc.catalog.cable(link.cable).type != "fibre":
            continue
        ends = [link.a, link.b]
        roles = [doc.role_of(e.device) for e in ends]
        if Role.GPU_SERVER in roles and Role.LEAF in roles:
            server, leaf = ends if roles[0] == Role.GPU_SERVER else ends[::-1]
            return link, server, leaf
    raise AssertionError("no server-leaf fibre link")


def _cage(doc, end) -> int:
    return doc.port(end.device, end.port).cage


def _break(doc, how: str) -> None:
    link, server, leaf = _fibre_link(doc)
    catalog = doc.catalog
    if how == "none":
        return
    if how == "no-cable":  # the link's cable type removed
        doc.apply([UpdateLink(link.id, {"cable": None})])
    elif how == "exceed-reach":
        doc.apply([UpdateLink(link.id, {"length_m": 70.0})])
    elif how == "single-mode-cord":
        doc.apply([UpdateLink(link.id, {"cable": SMF_CORD})])
    elif how == "wrong-optic":
        group = doc.port(server.device, server.port).group
        wrong = "nvidia-mma4z00-ns" if group.form_factor != "OSFP" else NIC_OPTIC
        doc.apply(set_cage_optic(doc, server.device, _cage(doc, server), wrong))
    elif how == "no-optic":
        doc.apply(set_cage_optic(doc, leaf.device, _cage(doc, leaf), None))
    elif how == "speed":
        port = doc.port(leaf.device, leaf.port)
        modes = sorted(port.group.breakouts, key=lambda m: -BreakoutMode.parse(m).legs)
        other = next(m for m in modes if BreakoutMode.parse(m).speed_gbps != port.speed_gbps)
        doc.apply(set_cage_mode(doc, leaf.device, port.cage, other))
    elif how == "copper-on-optics":
        # a twin-port OSFP DAC chosen for a link whose cages hold optics
        doc.apply([UpdateLink(link.id, {"cable": DAC800})])
    else:
        raise AssertionError(how)
    assert catalog is doc.catalog


BREAKS = ("none", "no-cable", "exceed-reach", "single-mode-cord", "wrong-optic", "no-optic",
          "speed", "copper-on-optics")


@pytest.mark.parametrize("how", BREAKS)
@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.fabric")))
def test_every_offered_fix_leaves_no_new_error(name, how, catalog):
    doc = load_fabric(EXAMPLES / name, catalog)
    _break(doc, how)
    report = analyze(doc)
    before = _errors(report)
    if how not in ("none", "no-cable"):
        assert before, f"{how} did not break {name}"
    checker = FixChecker(doc)
    offered = 0
    for finding in report.findings:
        fix = checker.checked(finding)
        if fix is None or not fix.applicable:
            continue
        offered += 1
        copy = doc.snapshot()
        copy.apply(list(fix.ops))
        after = analyze(copy)  # a full run, independent of the incremental check
        new = {k: n for k, n in _errors(after).items() if n > before.get(k, 0)}
        assert not new, f"{finding.code}: {fix.description} causes {new}"
        left = sum(1 for f in after.findings if (f.code, f.objects) == (finding.code, finding.objects))
        assert left < sum(1 for f in report.findings
                          if (f.code, f.objects) == (finding.code, finding.objects))
    if how in ("exceed-reach", "single-mode-cord", "no-optic", "no-cable"):
        assert offered, f"no one-click fix for {how} on {name}: {report.findings}"


def test_validate_prints_only_checked_fixes_as_one_click(build, tmp_path, capsys):
    import json

    from aicnet_gui.cli import main
    from aicnet_gui.fileio import save_fabric

    doc = build.doc
    _sr4_link(build, SMF_CORD, 70)
    doc.apply([UpdateLink("c1", {"pinned": True})])  # the media re-choice leaves it alone
    path = tmp_path / "broken.fabric"
    save_fabric(doc, path)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    fixes = [line for line in out.splitlines() if "fix: use the MFP7E10" in line]
    assert fixes and not any("[one-click]" in line for line in fixes)
    assert all("would cause REACH-EXCEEDED" in line for line in fixes)
    assert main(["validate", str(path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    media = [f for f in data["findings"] if f["code"] == "MEDIA-MISMATCH"]
    assert media and all(f["fix"]["ops"] == [] for f in media)
