"""Multi-plane rail-optimized fabrics (NVIDIA DGX SuperPOD B300 Spectrum-X RA: "twin-planar
design ... Each GPU has 2x 400GbE connectivity through two different planes"; 64-node SU with 16
leaves and 8 spines), and what the analysis makes of them."""

from __future__ import annotations

from collections import Counter

import pytest

from aicnet_gui.analysis import Analyzer, analyze
from aicnet_gui.generators import GeneratorError, RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument
from tests.doc_edits import update_device

B300, SN5600 = "nvidia-dgx-b300", "nvidia-sn5600"


def _make(catalog, **kw) -> FabricDocument:
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(server=B300, leaf=SN5600, technology="rocev2",
                                      choose_media=False, **kw))
    return doc


def test_two_planes_reproduce_the_b300_spectrum_x_su(catalog):
    doc = _make(catalog, sus=1, planes=2)
    switches = [d for d in doc.devices.values() if doc.role_of(d).value in ("leaf", "spine")]
    by = Counter((doc.role_of(d).value, d.plane) for d in switches)
    assert by == {("leaf", "1"): 8, ("leaf", "2"): 8, ("spine", "1"): 4, ("spine", "2"): 4}
    servers = [d for d in doc.devices.values() if doc.role_of(d).value == "gpu_server"]
    assert len(servers) == 64 and all(d.plane is None for d in servers)
    # GPU r's NIC: leg 1 to plane 1's rail-r leaf, leg 2 to plane 2's
    gpu = servers[0]
    ends = {(link.a.port, doc.devices[link.b.device].plane, doc.devices[link.b.device].tags["rail"],
             link.plane, link.rail) for link in doc.links_of(gpu.id)}
    assert ("p3-1", "1", "3", "1", 3) in ends and ("p3-2", "2", "3", "2", 3) in ends
    assert len(ends) == 16
    # every link stays in its plane
    for link in doc.links.values():
        planes = {doc.devices[e.device].plane for e in (link.a, link.b)} - {None}
        assert planes == {link.plane}


def test_four_planes_split_the_nic_in_4x200g(catalog):
    doc = _make(catalog, sus=1, planes=4, nodes_per_su=32)
    leaves = Counter(d.plane for d in doc.devices.values() if doc.role_of(d).value == "leaf")
    assert leaves == {"1": 8, "2": 8, "3": 8, "4": 8}
    gpu = next(d for d in doc.devices.values() if doc.role_of(d).value == "gpu_server")
    assert all(doc.port(gpu.id, link.a.port).speed_gbps == 200 for link in doc.links_of(gpu.id))


def test_planes_need_one_nic_per_gpu(catalog):
    doc = FabricDocument(catalog)
    with pytest.raises(GeneratorError, match="4 compute cages for 8 GPUs"):
        generate(doc, RailOptimizedParams(server="nvidia-dgx-h100", leaf="nvidia-qm9700",
                                          planes=2))


def test_independent_planes_are_not_a_partition_and_keep_full_bandwidth(catalog):
    doc = _make(catalog, sus=1, planes=2)
    report = analyze(doc)
    assert not [f for f in report.findings if f.severity.value == "error"]
    (part,) = report.by_code("FABRIC-PARTITIONED")
    assert part.severity.value == "info" and "2 compute planes" in part.message
    assert not report.by_code("PLANE-CROSSED")
    (workload,) = report.metrics.workloads
    assert workload.per_gpu_gbps == 800  # 2 x 400G, each ring stays in its plane
    over = report.metrics.oversubscription.to_json()
    assert over["planes"] == {"1": {"leaf": 1.0}, "2": {"leaf": 1.0}}
    assert workload.plane_bisection_gbps == {"1": 102400.0, "2": 102400.0}
    assert workload.bisection_gbps == 204800.0


def test_a_switch_wired_into_another_plane_is_an_error(catalog):
    doc = _make(catalog, sus=1, planes=2)
    analyzer = Analyzer(doc)
    analyzer.full()
    spine = next(d for d in doc.devices.values()
                 if d.plane == "1" and doc.role_of(d).value == "spine")
    edit = update_device(doc, spine.id, plane="2")  # its 128 cables now join plane 1's leaves
    report = analyzer.update(edit.changes)
    crossed = report.by_code("PLANE-CROSSED")
    assert crossed and all(f.severity.value == "error" for f in crossed)
    assert len(crossed) == 51
    assert sum(f"and {spine.name} (plane 2)" in f.message for f in crossed) == 50
    assert any("78 more links join two compute planes" in f.message for f in crossed)
    assert report == analyze(doc)
    edit = update_device(doc, spine.id, plane="1")
    assert not analyzer.update(edit.changes).by_code("PLANE-CROSSED")


def test_the_cli_generates_planes_and_prints_them_per_plane(tmp_path, capsys):
    from aicnet_gui.cli import main

    out = tmp_path / "b300.fabric"
    assert main(["generate", "rail-optimized", "--sus", "1", "--planes", "2", "--server", B300,
                 "--leaf", SN5600, "--technology", "rocev2", "--no-media", "-o", str(out)]) == 0
    capsys.readouterr()
    main(["validate", str(out)])
    text = capsys.readouterr().out
    assert "plane 1: leaf 1:1 (its own fat tree)" in text
    assert "bisection per plane: plane 1 102.4 Tb/s, plane 2 102.4 Tb/s" in text


def test_a_multi_plane_design_regrows_with_its_planes(catalog):
    from aicnet_gui.change.template import infer_params

    params = infer_params(_make(catalog, sus=1, planes=2))
    assert (params.planes, params.sus, params.nodes_per_su, params.server) == (2, 1, 64, B300)


def test_growing_a_two_plane_design_keeps_each_switch_in_its_plane(catalog):
    """Names interleave the planes (leaf-01 plane 1, leaf-02 plane 2 ...), so the SU added by
    `aicnet grow` leaves every existing switch in its plane and every cable in its plane."""
    from aicnet_gui.change.growth import grow

    doc = _make(catalog, sus=1, planes=2)
    before = {d.name: d.plane for d in doc.devices.values() if d.plane}
    plan = grow(doc, add_sus=1)
    after = {d.name: d.plane for d in plan.result.devices.values() if d.plane}
    assert all(after[name] == plane for name, plane in before.items())
    assert Counter(after.values()) == {"1": 24, "2": 24}  # 16 leaves + 8 spines per plane
    report = analyze(plan.result)
    assert not report.by_code("PLANE-CROSSED")
    for link in plan.result.links.values():
        planes = {plan.result.devices[e.device].plane for e in (link.a, link.b)} - {None}
        assert planes == {link.plane}


def test_losing_a_whole_plane_costs_half_the_bandwidth_not_the_job(catalog):
    """B300 RA: "the application can continue to operate on 1/2 of the original bandwidth"."""
    from aicnet_gui.change.failures import resolve
    from aicnet_gui.change.whatif import what_if

    doc = _make(catalog, sus=1, planes=2)
    result = what_if(doc, resolve(doc, ["plane:2"]))
    (w,) = result.workloads
    assert not w.lost and not w.partitioned and not result.partitioned
    assert (w.before.per_gpu_gbps, w.after.per_gpu_gbps) == (800, 400)
    assert w.after.bisection_gbps == w.before.bisection_gbps / 2
