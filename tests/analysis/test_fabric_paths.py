"""Hand-computed graph facts: bisection by max-flow, the worst leaf-to-top path, and islands.

All cases start from the 2-SU SuperPOD design (64 DGX H100, 16 QM9700 leaves, 8 spines, every
leaf linked to every spine with 4 x 400G), then change its links through the document API.
"""

from __future__ import annotations

import pytest

from aicnet_gui.analysis import Analyzer, Severity, analyze
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import RemoveLink, UpdateSettings

DGX, QM9700 = "nvidia-dgx-h100", "nvidia-qm9700"


def superpod(catalog, sus: int = 2, **kw) -> FabricDocument:
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=sus, server=DGX, leaf=QM9700, choose_media=False, **kw))
    return doc


def uplinks(doc: FabricDocument, leaf_name: str) -> list:
    leaf = doc.device_by_name(leaf_name).id
    return sorted((lk for lk in doc.links_of(leaf)
                   if doc.devices[lk.b.device if lk.a.device == leaf else lk.a.device].role.value
                   == "spine"), key=lambda lk: lk.id)


def codes(report, code: str) -> list:
    return [f for f in report.findings if f.code == code]


def test_one_leaf_at_two_to_one(catalog):
    """leaf-01 (rail 1 of SU 1) keeps 16 of its 32 uplinks: 32 x 400G down, 16 x 400G up = 2:1.

    Bisection: the halves are SU 1 and SU 2 (servers ordered by the leaves they land on).  Every
    path from SU 1 to SU 2 leaves an SU 1 leaf upwards, so the cut is the uplinks of SU 1's
    leaves: 7 leaves x 32 x 400G + 16 x 400G = 89,600 + 6,400 = 96,000 Gb/s (the supply, 32
    servers x 8 x 400G = 102,400, is larger).  An analytic rail-aligned formula said 99.2 Tb/s.
    Worst path: leaf-01 2:1 -> a spine (the spines have no uplinks): 2:1.
    """
    doc = superpod(catalog)
    links = uplinks(doc, "leaf-01")
    assert len(links) == 32
    doc.apply([RemoveLink(lk.id) for lk in links[::2]])
    report = analyze(doc)
    (workload,) = report.metrics.workloads
    assert workload.bisection_gbps == pytest.approx(96_000)
    over = report.metrics.oversubscription
    assert over.effective == 2.0
    assert over.effective_path[0] == "leaf-01" and over.effective_path[1].startswith("spine-")
    (finding,) = [f for f in codes(report, "OVERSUBSCRIBED") if "worst path" in f.message]
    assert "leaves leaf-01" in finding.message
    assert "worst path (leaf-01 2:1 -> spine-0" in finding.message and "(top))" in finding.message
    assert "add uplinks to leaf-01" in finding.fix.description
    assert doc.device_by_name("leaf-01").id in finding.objects


def test_worst_path_multiplies_along_three_tiers(catalog):
    """16 SUs (three tiers, 1:1).  spine-001 keeps 16 of its 32 core links: 32 x 400G down
    (one per leaf of its pod), 16 up = 2:1; its leaves are 1:1, so the worst path is a leaf of
    pod 1 -> spine-001 -> a core: 1 x 2 = 2:1, while the tier averages are 1:1 and
    128 x 32 : (127 x 32 + 16) = 1.0039:1."""
    doc = superpod(catalog, sus=16)
    spine = doc.device_by_name("spine-001").id
    to_core = sorted((lk for lk in doc.links_of(spine)
                      if doc.devices[lk.b.device if lk.a.device == spine else lk.a.device]
                      .role.value == "core"), key=lambda lk: lk.id)
    assert len(to_core) == 32
    doc.apply([RemoveLink(lk.id) for lk in to_core[::2]])
    over = analyze(doc).metrics.oversubscription
    assert over.effective == 2.0
    assert over.effective_path[1] == "spine-001" and over.effective_path[2].startswith("core-")
    assert over.tier_average == pytest.approx(128 * 32 / (127 * 32 + 16), abs=1e-4)


def test_partitioned_fabric_is_an_error_naming_the_islands(catalog):
    """SU 1's leaves keep only their links to spines 1-4, SU 2's only those to spines 5-8: two
    islands of 8 leaves + 4 spines each, no path between them.  The workload spans both:
    FABRIC-PARTITIONED (error), and the max-flow between SU 1 and SU 2 is 0."""
    doc = superpod(catalog)
    spines = sorted(d.id for d in doc.devices.values() if d.role.value == "spine")
    cut = []
    for su, keep in ((1, set(spines[:4])), (2, set(spines[4:]))):
        for leaf in range(8 * (su - 1) + 1, 8 * su + 1):
            cut += [lk.id for lk in uplinks(doc, f"leaf-{leaf:02d}")
                    if lk.a.device not in keep and lk.b.device not in keep]
    doc.apply([RemoveLink(i) for i in cut])
    report = analyze(doc)
    (finding,) = codes(report, "FABRIC-PARTITIONED")
    assert finding.severity == Severity.ERROR
    assert "2 switch islands" in finding.message
    assert "rails 1-8 of 32 servers" in finding.message
    assert "cannot reach each other" in finding.message
    (workload,) = report.metrics.workloads
    assert workload.bisection_gbps == 0
    # the workload figures say the same as the finding: nothing crosses between the islands
    assert workload.per_gpu_gbps == 0 and workload.alltoall_gbps_per_gpu == 0
    assert workload.allreduce_ms is None and workload.bottleneck_tier == "partitioned"


def test_rail_planes_are_a_note_when_declared_and_an_error_when_not(catalog):
    """--rail-planes: 8 rails, each its own plane (1 SU: each rail is one QM9700, 8 islands).
    Declared in the settings: an info note saying traffic between rails crosses NVLink.  The
    same wiring without the declaration: an error."""
    doc = superpod(catalog, sus=1, rail_planes=True)
    assert doc.settings.rail_planes
    analyzer = Analyzer(doc)
    declared = analyzer.full()
    (note,) = codes(declared, "FABRIC-PARTITIONED")
    assert note.severity == Severity.INFO
    assert declared.metrics.workloads[0].allreduce_ms is not None  # rings cross rails on NVLink
    assert "8 rail planes" in note.message and "NVLink" in note.message
    assert not codes(declared, "LEAF-NO-UPLINK")  # a rail on one switch is the design
    edit = doc.apply([UpdateSettings({"rail_planes": False})])
    report = analyzer.update(edit.changes)
    (error,) = codes(report, "FABRIC-PARTITIONED")
    assert error.severity == Severity.ERROR and "8 switch islands" in error.message
    assert len(codes(report, "LEAF-NO-UPLINK")) == 8


def test_fabric_without_workloads_is_checked_whole(catalog):
    doc = superpod(catalog, sus=1, rail_planes=True)
    doc.apply([UpdateSettings({"rail_planes": False})])
    from aicnet_gui.model.edits import RemoveWorkload

    doc.apply([RemoveWorkload(w) for w in list(doc.workloads)])
    (error,) = codes(analyze(doc), "FABRIC-PARTITIONED")
    assert error.message.startswith("the fabric is split over 8 switch islands")


def test_a_big_fabric_defers_the_graph_facts_of_a_rewiring_edit(catalog):
    """Above 20,000 links an incremental run with `defer_graph` (as the live validator runs it)
    keeps the last islands, worst path and bisection after a rewiring edit and says so
    (`graph_pending`); the full run it leads to has the new ones.  32 SUs: 24,576 links."""
    doc = superpod(catalog, sus=32)
    assert len(doc.links) > 20_000
    analyzer = Analyzer(doc)
    before = analyzer.full()
    assert before.metrics.oversubscription.effective == 1.0 and not before.graph_pending
    analyzer.defer_graph = True
    links = uplinks(doc, "leaf-001")
    edit = doc.apply([RemoveLink(lk.id) for lk in links[::2]])  # leaf-001 now 2:1
    quick = analyzer.update(edit.changes)
    assert quick.graph_pending
    assert quick.metrics.oversubscription.effective == 1.0  # the last value, for now
    full = Analyzer(doc).full()
    assert not full.graph_pending and full.metrics.oversubscription.effective == 2.0
