"""The bill of materials of small fabrics, counted by hand."""

from __future__ import annotations

from pathlib import Path

from conftest import HGX, MMF, NIC_OPTIC, SN5600, TWIN_SR4

from aicnet_gui.analysis import compute_bom
from aicnet_gui.fileio import load_fabric

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "small-hgx.fabric"


def test_bom_counts_twin_port_optics_per_cage_and_splitters_once(build):
    build.rack("r1")
    build.dev("leaf-1", SN5600, rack="r1", ru=40, optics={1: TWIN_SR4})
    for n in (1, 2):
        build.dev(f"gpu-{n}", HGX, rack="r1", ru=1 + 8 * (n - 1), optics={1: NIC_OPTIC})
        build.link(f"f{n}", f"gpu-{n}", "p1", "leaf-1", f"swp1s{n - 1}", cable=MMF, length_m=4.2)
        build.link(f"d{n}", "leaf-1", f"swp2s{n - 1}", f"gpu-{n}", "p2", cable="nvidia-mcp7y10",
                   assembly="split-1", length_m=0.9 + n)  # legs of 1.9 m and 2.9 m
    bom = compute_bom(build.doc)
    assert bom.devices_by_role == {"gpu_server": 2, "leaf": 1}
    assert bom.devices_by_model == {HGX: 2, SN5600: 1}
    assert bom.links_by_tier == {"server-leaf": 4} and bom.links_total == 4
    # 2 NIC optics + ONE twin-port optic for the two fibres of leaf cage 1
    assert bom.transceivers == {NIC_OPTIC: 2, TWIN_SR4: 1}
    # 2 straight fibres of 4.2 m -> 5 m stock; ONE splitter DAC at its longest leg: 2.9 -> 3 m
    assert bom.cables == {f"{MMF}@5": 2, "nvidia-mcp7y10@3": 1}
    # 5 % spares, rounded up per line
    assert bom.transceiver_spares == {NIC_OPTIC: 1, TWIN_SR4: 1}
    assert bom.cable_spares == {f"{MMF}@5": 1, "nvidia-mcp7y10@3": 1}
    # no power figure for the HGX: the SN5600's typical 940 W, the optics (2 x 9 W + 15 W) and
    # the splitter DAC (3 ends x 0.1 W, NVIDIA Copper DAC and LACC Cables Overview)
    assert bom.power_w == 973.3 and bom.power_unknown == (HGX,)
    # no prices in the built-in catalogs: the cost is unknown, and says so
    assert bom.cost_usd is None and MMF in bom.unpriced
    data = bom.to_json()
    assert set(data) == {"devices", "links", "transceivers", "cables", "power_w", "power_basis",
                         "cost"}
    assert data["cost"] is None and data["links"] == {"by_tier": {"server-leaf": 4}, "total": 4}


def test_bom_marks_unknown_and_unorderable_lengths_and_missing_optics(build):
    build.dev("leaf-1", SN5600)
    build.dev("gpu-1", HGX, optics={1: NIC_OPTIC, 2: NIC_OPTIC})
    build.link("c1", "gpu-1", "p1", "leaf-1", "swp1s0", cable=MMF)  # unplaced: no length
    build.link("c2", "gpu-1", "p2", "leaf-1", "swp2s0", cable=MMF, length_m=55)
    bom = compute_bom(build.doc)
    assert bom.cables == {f"{MMF}@unknown": 1, f"{MMF}@>50": 1}
    assert {(m[0], m[1], m[2]) for m in bom.missing_optics} == {("c1", "leaf-1", 1), ("c2", "leaf-1", 2)}


def test_bom_of_the_example(catalog):
    bom = compute_bom(load_fabric(EXAMPLE, catalog))
    assert bom.links_total == 64
    # 32 NIC optics; the 32 server fibres land on 16 leaf cages -> 16 twin-port optics
    assert bom.transceivers == {NIC_OPTIC: 32, TWIN_SR4: 16}
    # 32 leaf-spine links ride 16 twin-port 800G DACs
    assert sum(n for k, n in bom.cables.items() if k.startswith("nvidia-mcp4y10@")) == 16
    assert sum(n for k, n in bom.cables.items() if k.startswith(f"{MMF}@")) == 32


def test_cable_lines_are_ordered_by_part_then_numeric_length():
    from aicnet_gui.analysis.bom import _part_then_length

    lines = {"b@10": 1, "b@3": 1, "a@7.5": 1, "a@15": 1}
    ordered = [key for key, _ in sorted(lines.items(), key=_part_then_length)]
    assert ordered == ["a@7.5", "a@15", "b@3", "b@10"]
