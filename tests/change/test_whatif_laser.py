"""`aicnet whatif --fail laser:DEVICE:N`: a failed external laser source module of a
co-packaged optics switch takes down the links of the ports it feeds, where the vendor says
which ports those are; for the Quantum-X Photonics Q3450-LD no document does (18 modules, no
port map), and the token is refused with that reason instead of a guess."""

from __future__ import annotations

import pytest

from aicnet_gui.change.failures import FailureError, resolve
from aicnet_gui.change.whatif import what_if
from aicnet_gui.model.catalog import Catalog
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.fabric import CageConfig, Device, Endpoint, FabricTechnology, Link, Workload
from tests.doc_edits import add_device, add_link, add_workload, update_settings

Q3450 = "nvidia-q3450-ld"


def _design(catalog: Catalog) -> FabricDocument:
    """Two DGX B300 (8 XDR NICs each) on a Q3450-LD: NIC p<i> of server s on port 8(s-1)+i."""
    doc = FabricDocument(catalog)
    update_settings(doc, technology=FabricTechnology.INFINIBAND)
    add_device(doc, Device(id="cpo", name="cpo-01", model=Q3450))
    for s in (1, 2):
        add_device(doc, Device(id=f"gpu{s}", name=f"gpu-00{s}", model="nvidia-dgx-b300", cages={
            c: CageConfig(transceiver="nvidia-mms4a20") for c in range(1, 9)}))
        for nic in range(1, 9):
            port = 8 * (s - 1) + nic
            add_link(doc, Link(id=f"l{s}-{nic}", a=Endpoint(f"gpu{s}", f"p{nic}"),
                               b=Endpoint("cpo", str(port)), cable="nvidia-mfp7e30", length_m=10.0))
    add_workload(doc, Workload(id="w", name="train", members=["gpu1", "gpu2"]))
    return doc


def test_a_laser_module_without_a_published_port_map_is_refused_with_the_reason(catalog):
    doc = _design(catalog)
    assert catalog.device(Q3450).laser_sources().feeds is None
    with pytest.raises(FailureError, match="18 laser modules feeds is not published"):
        resolve(doc, ["laser:cpo-01:3"])
    with pytest.raises(FailureError, match="laser modules 1 to 18"):
        resolve(doc, ["laser:cpo-01:19"])
    with pytest.raises(FailureError, match="no external laser source modules"):
        resolve(doc, ["laser:gpu-001:1"])
    with pytest.raises(FailureError, match="write laser:DEVICE:N"):
        resolve(doc, ["laser:cpo-01"])


def test_a_failed_laser_module_takes_down_the_ports_it_feeds(catalog):
    """With a published map (module 1 feeds ports 1-4, module 2 ports 9-10), module 1 takes down
    NICs p1..p4 of gpu-001 only: 4 links; together with module 2, also p1, p2 of gpu-002."""
    model = catalog.device(Q3450)
    lasers = model.laser_sources()
    mapped = model.model_copy(update={"replaceable_parts": [
        lasers.model_copy(update={"feeds": {1: [1, 2, 3, 4], 2: [9, 10]}})]})
    doc = _design(catalog.merged(Catalog([mapped])))
    one = resolve(doc, ["laser:cpo-01:1"])
    assert one.links == {f"l1-{n}" for n in range(1, 5)}
    both = resolve(doc, ["laser:cpo-01:1", "laser:cpo-01:2"])
    assert both.links == one.links | {"l2-1", "l2-2"}
    result = what_if(doc, one)
    assert result.links == 4
    (w,) = result.workloads
    assert len(w.lost) == 4  # GPUs 1-4 of gpu-001 lose their only NIC link
