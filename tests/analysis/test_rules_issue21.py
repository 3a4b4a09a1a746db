"""Rules reviewed in issue 21 on small variants of the examples: MTU per technology, ECMP per
member speed, copper across racks, breakout cords, power class per cage, firmware baselines,
multi-node inference targets, and the new checks."""

from __future__ import annotations

from conftest import HGX, MMF, NIC_OPTIC, SN5600, TWIN_SR4, ib, two_leaf_fabric

from aicnet_gui.analysis import analyze
from aicnet_gui.model.edits import UpdateWorkload
from aicnet_gui.model.fabric import WorkloadKind

QM9700 = "nvidia-qm9700"


def mtu_findings(doc):
    return {f.objects: f.severity for f in analyze(doc).by_code("MTU-MISMATCH") if f.objects}


# ---------------------------------------------------------------------------- MTU
def test_ethernet_switches_at_9216_over_hosts_at_9000_are_common_practice(build):
    two_leaf_fabric(build)  # RoCEv2 at MTU 9000
    doc = build.doc
    for switch in ("leaf-1", "leaf-2", "spine-1", "spine-2"):
        doc.update_device(switch, tags={"mtu": "9216"})
    assert mtu_findings(doc) == {}  # was 4 errors


def test_ethernet_transit_below_the_host_mtu_is_an_error_and_a_host_off_it_too(build):
    two_leaf_fabric(build)
    doc = build.doc
    doc.update_device("spine-1", tags={"mtu": "1500"})
    doc.update_device("gpu-1", tags={"mtu": "9216"})
    doc.update_device("gpu-2", tags={"mtu": "1500"})
    assert mtu_findings(doc) == {("spine-1",): "error", ("gpu-1",): "error", ("gpu-2",): "warning"}


def test_infiniband_path_mtu_is_the_minimum_so_a_lower_port_only_warns(build):
    two_leaf_fabric(build)
    ib(build)
    doc = build.doc
    doc.update_device("leaf-1", tags={"mtu": "2048"})
    doc.update_device("gpu-3", tags={"mtu": "1024"})
    found = [f for f in analyze(doc).by_code("MTU-MISMATCH") if f.objects]
    assert {f.objects: f.severity for f in found} == {("leaf-1",): "warning", ("gpu-3",): "warning"}
    assert all("nothing is dropped" in f.message for f in found)


# ---------------------------------------------------------------------------- inference kinds
def test_multi_node_inference_kinds_default_to_1_to_1(build):
    two_leaf_fabric(build, uplinks_per_leaf=8)  # 2:1 leaves
    build.workload("serve", [f"gpu-{n}" for n in range(1, 5)], kind="inference")
    report = analyze(build.doc)
    assert not [f for f in report.by_code("OVERSUBSCRIBED") if f.severity == "warning"]
    build.doc.apply([UpdateWorkload("serve", {"kind": WorkloadKind.INFERENCE_WIDE_EP})])
    warned = [f for f in analyze(build.doc).by_code("OVERSUBSCRIBED") if f.severity == "warning"]
    assert {f.objects for f in warned} >= {("leaf-1",), ("leaf-2",)}
    assert "1:1 target for inference-wide-ep" in warned[0].message
