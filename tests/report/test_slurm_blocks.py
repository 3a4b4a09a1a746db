"""NVLink domains (model/nvlink_domains.py) and the Slurm block topology made from them: an
NVL72 rack is one domain with its 9 switch trays, each carrying the domain's id; the Slurm
export writes one block per domain, and its block sizes follow NVIDIA topograph's rule, checked
against topograph's own test cases (NVIDIA/topograph pkg/translate/block_test.go,
TestGetBlockSizes) and Slurm's topology.yaml(5) rules."""

from __future__ import annotations

import math
from collections import defaultdict
from itertools import pairwise

import pytest
import yaml

from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import UpdateRack
from aicnet_gui.model.nvlink_domains import nvlink_domains
from aicnet_gui.report.slurm import block_sizes, export_slurm
from tests.report.test_slurm import expand  # Slurm's hostlist syntax, read back

GB300 = "nvidia-gb300-nvl72-compute-tray"


@pytest.fixture(scope="module")
def nvl72(catalog) -> FabricDocument:
    """Two SUs of GB300 NVL72 racks on Q3400-RA rail leaves (4 racks of 18 trays each: a leaf
    per rail takes 72 trays at 1:1): 8 racks."""
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=2, server=GB300, leaf="nvidia-q3400-ra"))
    return doc


def test_an_nvl72_designs_slurm_blocks_are_its_racks(nvl72, tmp_path):
    trays_per_rack: dict[str, list[str]] = defaultdict(list)
    for device in nvl72.devices.values():
        if device.model == GB300:
            trays_per_rack[nvl72.racks[device.rack].name].append(device.name)
    assert len(trays_per_rack) == 8 and {len(t) for t in trays_per_rack.values()} == {18}
    export_slurm(nvl72, tmp_path)
    data = yaml.safe_load((tmp_path / "topology.yaml").read_text())
    (block,) = [t["block"] for t in data if t["topology"] == "nvlink"]
    blocks = {b["block"]: sorted(expand(b["nodes"])) for b in block["blocks"]}
    assert blocks == {f"nvl-{rack}": sorted(trays) for rack, trays in trays_per_rack.items()}
    # topograph's sizes for 8 blocks of 18: 18 x 2^i for i = 0 .. log2(8)
    assert block["block_sizes"] == [18, 36, 72, 144]
    # topology.yaml(5): every block holds at least the base; each size a power of two larger
    assert all(len(nodes) >= block["block_sizes"][0] for nodes in blocks.values())
    assert all(b == a * 2 ** round(math.log2(b / a)) and b > a
               for a, b in pairwise(block["block_sizes"]))


def test_an_nvl72_rack_is_one_domain_with_nine_switch_trays(nvl72):
    domains = nvlink_domains(nvl72)
    assert len(domains) == 8
    for domain in domains:
        assert domain.gpus == 72 and len(domain.devices) == 18
        assert domain.system == "GB300 NVL72 rack"
        assert [t.index for t in domain.switch_trays] == list(range(1, 10))
        assert {t.domain for t in domain.switch_trays} == {domain.id}


def test_racks_that_share_a_domain_id_are_one_domain(catalog):
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, server=GB300, leaf="nvidia-q3400-ra"))
    racks = sorted({d.rack for d in doc.devices.values() if d.model == GB300})
    first, second = racks[:2]
    doc.apply([UpdateRack(first, {"nvlink_domain": "clique-a"}),
               UpdateRack(second, {"nvlink_domain": "clique-a"})])
    domains = {d.id: d for d in nvlink_domains(doc)}
    shared = domains["clique-a"]
    assert shared.racks == (first, second) and shared.gpus == 144 and len(shared.switch_trays) == 18
    assert len(domains) == len(racks) - 1


@pytest.mark.parametrize(("nodes", "sizes"), [
    ([2, 2], [2, 4]),            # topograph Case 1: #nodes/block same, #blocks power of 2
    ([2, 3], [2, 4]),            # Case 2: #nodes/block different
    ([2, 2, 2], [2, 4]),         # Case 3: #blocks not a power of 2
    ([2], [2]),                  # TestBlockTopology Case 1 (one block)
    ([2, 1], [1, 2]),            # TestBlockTopology Case 4: blocks of 2 and 1 -> BlockSizes=1,2
    ([3, 3, 3, 3], [3, 6, 12]),  # Case 7's sizes, here derived rather than requested
])
def test_block_sizes_follow_topograph(nodes, sizes):
    assert block_sizes(nodes) == sizes


def test_an_8_gpu_server_is_no_block(catalog, tmp_path):
    """A DGX B300's NVLink domain is the server itself: no block topology."""
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, nodes_per_su=8, server="nvidia-dgx-b300",
                                      leaf="nvidia-q3400-ra"))
    assert nvlink_domains(doc) == []
    export_slurm(doc, tmp_path)
    data = yaml.safe_load((tmp_path / "topology.yaml").read_text())
    assert [t["topology"] for t in data] == ["fabric"]
