"""A small fabric for the report tests, built from the real catalog in one `doc.apply`.

Racks R1 (row 1, position 1) and R2 (row 1, position 2).  In R1: spine QM9790 at RU 42 and leaf
`leaf-Łódź-01` (QM9700, 1U) at RU 40 with twin-port MMA4Z00-NS optics in cages 1-2.  In R2: two
DGX H100 (8U) at RU 2 and RU 12 with flat-top twin-port optics in cage 1, and two GB200 compute
trays (1U) at RU 20 and 21.  Links:
- 4 straight MFP7E10 fibres: dgx-a p1/p2 -> leaf 1/1, 1/2; dgx-b p1/p2 -> leaf 2/1, 2/2;
- 1 MCP7Y00 splitter DAC (assembly `split-1`): leaf 3/1 -> tray-a p1, leaf 3/2 -> tray-b p1;
- 1 MCP4Y10 twin-port DAC (assembly `dac-1`) carrying 2 links: leaf 32/1, 32/2 -> spine 1/1, 1/2.
So 8 links, 6 physical cables and 4*2 + (1+2) + 2 = 13 label ends.
"""

from __future__ import annotations

import pytest

from aicnet_gui.model.edits import AddDevice, AddLink, AddRack, UpdateMetadata
from aicnet_gui.model.fabric import CageConfig, Device, Endpoint, Link, Rack

LEAF_NAME = "leaf-Łódź-01"


def _link(link_id: str, a: tuple[str, str], b: tuple[str, str], cable: str, **extra) -> AddLink:
    return AddLink(Link(id=link_id, a=Endpoint(device=a[0], port=a[1]),
                        b=Endpoint(device=b[0], port=b[1]), cable=cable, **extra))


@pytest.fixture
def small(doc):
    twin = CageConfig(transceiver="nvidia-mma4z00-ns")
    flat = CageConfig(transceiver="nvidia-mma4z00-ns-flt")
    doc.apply([
        UpdateMetadata({"name": "Report test pod", "author": "Zoë Tester", "revision": "B"}),
        AddRack(Rack(id="r1", name="R1", row=1, position=1)),
        AddRack(Rack(id="r2", name="R2", row=1, position=2)),
        AddDevice(Device(id="spine", name="spine-01", model="nvidia-qm9790", rack="r1", ru=42)),
        AddDevice(Device(id="leaf", name=LEAF_NAME, model="nvidia-qm9700", rack="r1", ru=40,
                         cages={1: twin, 2: twin})),
        AddDevice(Device(id="dgx-a", name="dgx-a", model="nvidia-dgx-h100", rack="r2", ru=2,
                         cages={1: flat})),
        AddDevice(Device(id="dgx-b", name="dgx-b", model="nvidia-dgx-h100", rack="r2", ru=12,
                         cages={1: flat})),
        AddDevice(Device(id="tray-a", name="tray-a", model="nvidia-gb200-nvl72-compute-tray",
                         rack="r2", ru=20)),
        AddDevice(Device(id="tray-b", name="tray-b", model="nvidia-gb200-nvl72-compute-tray",
                         rack="r2", ru=21)),
        _link("f1", ("dgx-a", "p1"), ("leaf", "1/1"), "nvidia-mfp7e10", colour="blue", rail=1),
        _link("f2", ("dgx-a", "p2"), ("leaf", "1/2"), "nvidia-mfp7e10", colour="orange", rail=2),
        # stored switch-first: the plan must still put the server at the A end
        _link("f3", ("leaf", "2/1"), ("dgx-b", "p1"), "nvidia-mfp7e10", colour="blue", rail=1),
        _link("f4", ("dgx-b", "p2"), ("leaf", "2/2"), "nvidia-mfp7e10", colour="orange", rail=2),
        _link("s1", ("leaf", "3/1"), ("tray-a", "p1"), "nvidia-mcp7y00", assembly="split-1"),
        _link("s2", ("tray-b", "p1"), ("leaf", "3/2"), "nvidia-mcp7y00", assembly="split-1"),
        _link("d1", ("leaf", "32/1"), ("spine", "1/1"), "nvidia-mcp4y10", assembly="dac-1",
              colour="black"),
        _link("d2", ("leaf", "32/2"), ("spine", "1/2"), "nvidia-mcp4y10", assembly="dac-1",
              colour="black"),
    ])
    return doc
