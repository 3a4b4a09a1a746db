"""The fields issue 21's checks read survive a save and a load, and old files without them
read as before: a link patch's polarity parts, a cage's FEC, a workload's all-reduce algorithm."""

from __future__ import annotations

import json

from conftest import HGX, SN5600

from aicnet_gui.fileio.fabric_file import dumps_fabric, loads_fabric
from aicnet_gui.model.edits import UpdateDevice, UpdateLink
from aicnet_gui.model.fabric import CageConfig, LinkPatch


def test_polarity_fec_and_algorithm_round_trip(build, catalog):
    build.rack("r1")
    build.dev("leaf-1", SN5600, rack="r1", ru=40, optics={1: "generic-800g-2xdr4-osfp"})
    build.dev("spine-1", SN5600, rack="r1", ru=42, role="spine",
              optics={1: "generic-800g-2xdr4-osfp"})
    build.dev("gpu-1", HGX, rack="r1", ru=1)
    build.link("u1", "leaf-1", "swp1s0", "spine-1", "swp1s0", cable="nvidia-mfp7e30")
    build.workload("w", ["gpu-1"], algorithm="collnet")
    doc = build.doc
    doc.apply([UpdateLink("u1", {"patch": LinkPatch(method="A", trunk="A", cord_a="B", cord_b="A")}),
               UpdateDevice("leaf-1", {"cages": {1: CageConfig(
                   transceiver="generic-800g-2xdr4-osfp", fec="rs544")}})])
    raw = dumps_fabric(doc)
    again = loads_fabric(raw, catalog)
    patch = again.links["u1"].patch
    assert (patch.method, patch.trunk, patch.cord_a, patch.cord_b) == ("A", "A", "B", "A")
    assert again.devices["leaf-1"].cages[1].fec == "rs544"
    assert again.workloads["w"].algorithm == "collnet"
    # a file written before these fields: nothing of them in it, the defaults on reading
    data = json.loads(raw)
    data["links"][0]["patch"] = {"mated_pairs": 2}
    for workload in data["workloads"]:
        workload.pop("algorithm", None)
    old = loads_fabric(json.dumps(data).encode(), catalog)
    assert old.links["u1"].patch == LinkPatch(mated_pairs=2)
    # no algorithm in the file: NCCL's own choice (NCCL_ALGO unset), the default since issue 35
    assert old.workloads["w"].algorithm == "auto"
