"""Every generated fabric passes the analysis without errors, across templates and hardware:
InfiniBand and Ethernet, DGX / HGX / GB200 servers, NVIDIA, Arista, Cisco and Juniper switches,
twin-port optics, splitter copper, splitter fibre at 200G, two and three tiers."""

from __future__ import annotations

import pytest

from aicnet_gui.analysis import Severity, analyze
from aicnet_gui.generators import RailOptimizedParams, ThreeTierParams, TwoTierParams

from .conftest import check_media

HGX, QM9700, SN5600 = "generic-hgx-8-gpu-b3140h", "nvidia-qm9700", "nvidia-sn5600"

CASES = {
    "superpod-1su": RailOptimizedParams(sus=1, leaf=QM9700),
    "superpod-31-nodes": RailOptimizedParams(sus=3, nodes_per_su=31, leaf=QM9700),
    "superpod-core": RailOptimizedParams(sus=4, leaf=QM9700, core=QM9700),
    "dgx-b200": RailOptimizedParams(sus=2, server="nvidia-dgx-b200", leaf=QM9700),
    "three-tier-512": ThreeTierParams(servers=512, leaf=QM9700),
    "gb200-trays": TwoTierParams(servers=72, server="nvidia-gb200-nvl72-compute-tray",
                                 leaf=QM9700),
    "dgx-tor": TwoTierParams(servers=4, leaf=QM9700, attach="tor"),
    "hgx-tor-copper": TwoTierParams(servers=4, server=HGX, leaf=SN5600, attach="tor"),
    "hgx-roce": TwoTierParams(servers=64, server=HGX, leaf=SN5600),
    "hgx-200g-splitter-fibre": TwoTierParams(servers=16, server=HGX, leaf=SN5600,
                                             speed_gbps=200),
    "hgx-inference": TwoTierParams(servers=48, server=HGX, leaf=SN5600, oversubscription=3,
                                   attach="tor", technology="ethernet", workload="inference"),
    "arista": TwoTierParams(servers=32, server=HGX, leaf="arista-7060x6-64pe"),
    "cisco": TwoTierParams(servers=32, server=HGX, leaf="cisco-n9364e-sg2-o"),
    "sn5400-qsfp-dd": TwoTierParams(servers=16, server=HGX, leaf="nvidia-sn5400"),
    # ConnectX-8 on Ethernet: 2 x 400GbE, no 800GbE on one port (CX-8 firmware release notes)
    "dgx-b300-ethernet": TwoTierParams(servers=8, server="nvidia-dgx-b300", leaf=SN5600),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_generated_fabric_has_no_errors(name, make):
    doc, result = make(CASES[name])
    assert result.unresolved == []
    check_media(doc)
    report = analyze(doc)
    errors = [f"{f.code}: {f.message}" for f in report.findings if f.severity == Severity.ERROR]
    assert errors == []


def test_an_ethernet_fabric_runs_connectx8_at_a_speed_it_runs_on_ethernet(make):
    # the DGX B300's ConnectX-8 cages run 1x800G on XDR InfiniBand only; on Spectrum-4 the
    # fastest shared Ethernet speed is 400G (each NIC as 2 x 400G), not 800G
    _doc, result = make(TwoTierParams(servers=8, server="nvidia-dgx-b300", leaf=SN5600))
    assert result.speed_gbps == 400
