"""`aicnet grow` / `aicnet migrate`: the target from the generator, fitted onto the design."""

from __future__ import annotations

import json
import re

import pytest

from aicnet_gui.analysis import analyze
from aicnet_gui.change import diff_documents
from aicnet_gui.change.growth import GrowthError, grow, migrate
from aicnet_gui.change.template import infer_params
from aicnet_gui.cli import main
from aicnet_gui.fileio import load_fabric
from aicnet_gui.generators import GeneratorError, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import AddLink, RemoveLink
from aicnet_gui.model.fabric import Endpoint
from aicnet_gui.report.workorder import build_work_order


def _server_leaf(doc):
    return {i: lk for i, lk in doc.links.items()
            if doc.tier_of(lk.a.device) == 0 or doc.tier_of(lk.b.device) == 0}


def test_the_template_is_read_back_from_the_design(example):
    params = infer_params(example("superpod-1su"))
    assert (params.template, params.sus, params.nodes_per_su) == ("rail-optimized", 1, 32)
    assert (params.server, params.leaf, params.spine) == (
        "nvidia-dgx-h100", "nvidia-qm9700", "nvidia-qm9700")
    two = infer_params(example("inference-ethernet"))
    assert (two.template, two.servers, two.oversubscription, two.attach) == (
        "two-tier", 48, 3.0, "tor")


def test_growth_from_one_to_two_sus_keeps_every_server_leaf_cable(example):
    """1 SU: 8 leaves x 32 uplinks, 8 to each of 4 spines.  2 SUs (the generator): 16 leaves,
    8 spines, every leaf to every spine with 4 links.  So each old leaf keeps 4 of its 8 links
    to each old spine on their ports (16) and moves 16 to the 4 new spines: 8 x 16 = 128
    re-terminations, the fewest possible.  SU 2 brings 32 servers x 8 NIC cables + 8 leaves x 32
    uplinks = 512 new cables; 32 servers, 8 leaves and 4 spines to rack."""
    doc = example("superpod-1su")
    before = dict(doc.links)
    plan = grow(doc, add_sus=1)
    result = plan.result
    assert doc.links == before  # the design itself is untouched
    kept = _server_leaf(doc)
    assert all(result.links.get(i) == lk for i, lk in kept.items())
    assert all(result.devices[i] == d for i, d in doc.devices.items())  # nothing moves
    bill = plan.bill()
    assert bill["cables_to_move"] == 128 and bill["cables_to_remove"] == 0
    assert bill["cables_to_pull"] == 512 and bill["cables_kept"] == 384
    assert bill["devices_to_add"] == 44 and bill["devices_to_move"] == 0
    assert {(x["part"], x["delta"]) for x in bill["buy"]} >= {
        ("nvidia-dgx-h100", 32), ("nvidia-qm9700", 12)}
    # every moved cable leaves an old spine for a new one, and says why
    for ret in plan.diff.links_reterminated:
        ((old_end, new_end),) = ret.moved
        assert old_end.device in {"spine-01", "spine-02", "spine-03", "spine-04"}
        assert new_end.device in {"spine-05", "spine-06", "spine-07", "spine-08"}
        assert "8 -> 4 link(s)" in plan.reasons[ret.old.id]
    report = analyze(result)
    assert report.errors == 0
    assert len(result.workloads["workload-1"].members) == 64


def test_model_swap_keeps_the_cables_and_lists_the_parts(example):
    doc = example("superpod-1su")
    plan = migrate(doc, spine="nvidia-qm9790")
    bill = plan.bill()
    assert bill["devices_swapped"] == ["spine-01", "spine-02", "spine-03", "spine-04"]
    assert [(x["part"], x["delta"]) for x in bill["buy"]] == [("nvidia-qm9790", 4)]
    assert [(x["part"], x["delta"]) for x in bill["freed"]] == [("nvidia-qm9700", -4)]
    assert bill["cables_kept"] == len(doc.links) and bill["cables_to_move"] == 0
    assert analyze(plan.result).errors == 0


def test_800g_migration_of_superpod_1su_is_refused_with_the_reason(example):
    """DGX H100's ConnectX-7 NICs run 400G (catalog): the generator cannot make an 800G fabric
    with them, and migrate says so instead of writing a broken design."""
    doc = example("superpod-1su")
    with pytest.raises(GrowthError, match="800G is not a speed.*DGX H100.*400G"):
        migrate(doc, speed_gbps=800)
    with pytest.raises(GrowthError, match="not a device of the catalog"):
        migrate(doc, leaf="no-such-switch")


def test_migration_the_catalog_cannot_equip_is_refused_as_generate_refuses_it(example, catalog):
    """NDR NICs and XDR switch cages share no catalog cord: `aicnet generate` refuses such a
    design, and migrate did not: it kept the old cords on the new optics and wrote a plan with
    hundreds of errors (PORT-DUPLICATE, OPTIC-MISSING)."""
    doc = example("superpod-1su")
    with pytest.raises(GrowthError, match="cannot make the target: no media in the catalog"):
        migrate(doc, leaf="nvidia-q3400-ra", spine="nvidia-q3400-ra")
    params = infer_params(doc).model_copy(update={"leaf": "nvidia-q3400-ra",
                                                  "spine": "nvidia-q3400-ra"})
    with pytest.raises(GeneratorError, match="no media in the catalog"):
        generate(FabricDocument(catalog), params)


def test_a_migration_refused_for_media_advises_only_what_migrate_takes(example):
    # generate's refusal ends "or generate the topology without media (--no-media)": a flag
    # `aicnet migrate` does not have (its parser refuses it), so not said to a migration
    with pytest.raises(GrowthError) as refused:
        migrate(example("superpod-1su"), leaf="nvidia-q3400-ra", spine="nvidia-q3400-ra")
    message = str(refused.value)
    assert set(re.findall(r"--[a-z-]+", message)) <= {"--leaf", "--spine", "--speed"}, message
    assert message.endswith("choose other hardware or speed"), message


def test_cli_grow_and_migrate(tmp_path, capsys, catalog):
    out = tmp_path / "g.fabric"
    assert main(["grow", "examples/superpod-1su.fabric", "--add-sus", "1", "-o", str(out),
                 "--json", "--pdf", str(tmp_path / "wo.pdf")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bill"]["cables_to_move"] == 128 and data["validation"]["errors"] == 0
    grown = load_fabric(out, catalog)
    assert len(grown.devices) == 44 + 44
    assert (tmp_path / "wo.pdf").stat().st_size > 0
    assert main(["grow", "examples/superpod-1su.fabric", "--add-servers", "4"]) == 2
    assert "whole SUs" in capsys.readouterr().err
    assert main(["migrate", "examples/superpod-1su.fabric", "--speed", "800"]) == 2
    assert "400G" in capsys.readouterr().err
    assert main(["migrate", "examples/superpod-1su.fabric", "--leaf", "nvidia-q3400-ra",
                 "--spine", "nvidia-q3400-ra"]) == 2
    assert "no media" in capsys.readouterr().err


def test_switch_swap_replugs_every_cable_in_cage_order(example):
    """SN5600 -> Cisco N9364E-SG2-O (64 x OSFP, 2 x 400G per cage) at both tiers: every cable
    runs between the same two devices and lands on the new model's port of the same cage and
    leg (swpNs0 -> Ethernet1/N/1): the cables stay, on renamed ports, instead of being pulled
    and run again or counted as moved."""
    doc = example("roce-enterprise")
    plan = migrate(doc, leaf="cisco-n9364e-sg2-o", spine="cisco-n9364e-sg2-o")
    bill = plan.bill()
    assert bill["cables_to_move"] == 0
    assert bill["cables_on_renamed_ports"] == bill["cables_kept"] == len(doc.links)
    assert bill["cables_to_pull"] == bill["cables_to_remove"] == 0
    assert [(x["part"], x["delta"]) for x in bill["buy"]] == [("cisco-n9364e-sg2-o", 12)]
    for ret in plan.diff.ports_renamed:
        for old_end, new_end in ret.moved:
            cage, leg = old_end.port.removeprefix("swp").split("s")
            assert new_end.port == f"Ethernet1/{cage}/{int(leg) + 1}"
    assert analyze(plan.result).errors == 0


def test_a_swap_to_other_port_names_on_the_same_cages_moves_no_cable(example, capsys):
    """SN5600 -> Arista 7060X6-64PE leaves (64 OSFP cages, both at 2 x 400G): swp1s0 and
    Ethernet1/1 are the same cage and leg, only named otherwise.  The acceptance run listed
    all 1,024 cables "to move" (SN5600 -> SN5610, same names, said they stay); a cable on the
    same cage and leg stays, on a renamed port, and only a cable whose cage or leg changes
    moves."""
    doc = example("roce-enterprise")
    plan = migrate(doc, leaf="arista-7060x6-64pe")
    bill = plan.bill()
    assert bill["cables_to_move"] == 0 and not plan.diff.links_reterminated
    assert bill["cables_kept"] == bill["cables_on_renamed_ports"] == len(doc.links) == 1024
    old, new = plan.diff.old, plan.diff.new
    for ret in plan.diff.ports_renamed:
        for old_end, new_end in ret.moved:
            before, after = old.port(*old_end), new.port(*new_end)
            assert (before.cage, before.leg, before.legs) == (after.cage, after.leg, after.legs)
            assert old_end.port != new_end.port
    assert main(["migrate", "examples/roce-enterprise.fabric", "--leaf",
                 "arista-7060x6-64pe"]) == 0
    out = capsys.readouterr().out
    assert "0 to move (re-terminate)" in out and "1024 stay" in out
    assert "1024 on renamed ports" in out and "swp1s0 -> leaf-01:Ethernet1/1" in out
    # the work order re-labels each renamed end where it is and moves nothing
    work = build_work_order(plan.diff)
    steps = [(action, s.what, s.note) for r in work.racks for action, ss in r.steps.items()
             for s in ss if s.what == "cable end"]
    assert len(steps) == 1024 and all(a == "change" and "re-label" in n for a, _w, n in steps)
    assert {e.row.link_id for e in work.labels} == set(doc.links)
    # two cables of the planned design swap cages 1 and 2 of a leaf: those two move, the rest stay
    result = plan.result
    at = {(e.device, e.port): (lk, n) for lk in result.links.values()
          for n, e in (("a", lk.a), ("b", lk.b))}
    (one, end1), (two, end2) = at[("leaf-01", "Ethernet1/1")], at[("leaf-01", "Ethernet2/1")]
    result.apply([RemoveLink(one.id), RemoveLink(two.id),
                  AddLink(one.model_copy(update={end1: Endpoint("leaf-01", "Ethernet2/1")})),
                  AddLink(two.model_copy(update={end2: Endpoint("leaf-01", "Ethernet1/1")}))])
    diff = diff_documents(doc, result)
    assert sorted(r.new.id for r in diff.links_reterminated) == sorted([one.id, two.id])
    assert len(diff.ports_renamed) == 1022
    assert diff.counts()["cables_reterminated"] == 2
    assert diff.counts()["cables_on_renamed_ports"] == 1022


def test_migration_to_other_cages_lists_the_optics_bought_and_retired(example, catalog):
    """SN5600 (OSFP) -> SN5400 (64 x QSFP-DD 400G) for the ToR leaves and spines of
    inference-ethernet: the OSFP twin-port optics are retired, QSFP-DD optics are bought for
    the switch cages, and the planned design validates."""
    doc = example("inference-ethernet")
    plan = migrate(doc, leaf="nvidia-sn5400", spine="nvidia-sn5400")
    delta = plan.diff.bom.section("transceivers")
    bought = {x.part for x in delta if x.delta > 0}
    retired = {x.part for x in delta if x.delta < 0}
    form = {p: catalog.transceiver(p).form_factor for p in bought | retired}
    assert "nvidia-mma4z00-ns-t" in retired  # the SN5600 side twin-port optic
    assert any(form[p] == "QSFP-DD" for p in bought)
    assert not any(form[p] == "QSFP-DD" for p in retired)
    assert analyze(plan.result).errors == 0


def test_an_nvl72_design_grows_by_whole_racks_that_keep_their_own_power(catalog):
    """GB300 NVL72 trays regrow as racks of 18 at the rack's stated 142 kW; the network racks
    keep the floor's budget (it was read from the NVL72 racks, so every new switch rack got
    142 kW)."""
    from aicnet_gui.generators import RailOptimizedParams, generate
    from aicnet_gui.model.document import FabricDocument

    tray = "nvidia-gb300-nvl72-compute-tray"
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, server=tray, leaf="nvidia-q3400-ra"))
    assert infer_params(doc).floor.rack_power_kw == 42
    grown = grow(doc, add_sus=1).result
    racks: dict[str, list[str]] = {}
    for device in grown.devices.values():
        racks.setdefault(device.rack, []).append(device.model)
    trays = [r for r, models in racks.items() if tray in models]
    assert len(trays) == 2 * 72 // 18
    assert all(racks[r] == [tray] * 18 and grown.racks[r].power_kw == 142 for r in trays)
    assert all(grown.racks[r].power_kw == 42 for r in racks if r not in trays)
    assert not [f for f in analyze(grown).findings if f.code in {"RACK-SYSTEM", "RACK-POWER"}]


def test_an_nvl72_design_with_a_misplaced_tray_still_grows(catalog):
    """19 trays in one rack (a tray moved by hand) is a RACK-SYSTEM warning, not a servers-per-
    rack setting: growth places the new trays 18 to a rack (it refused with '19 servers per
    rack cannot be built')."""
    from aicnet_gui.generators import RailOptimizedParams, generate
    from aicnet_gui.model.document import FabricDocument
    from aicnet_gui.model.edits import UpdateDevice

    tray = "nvidia-gb300-nvl72-compute-tray"
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, server=tray, leaf="nvidia-q3400-ra"))
    racks: dict[str, list] = {}
    for device in doc.devices.values():
        racks.setdefault(device.rack, []).append(device)
    first, second = sorted(r for r, ds in racks.items() if ds[0].model == tray)[:2]
    doc.apply([UpdateDevice(racks[second][0].id, {"rack": first, "ru": 19})])
    assert infer_params(doc).floor.servers_per_rack is None
    grown = grow(doc, add_sus=1).result
    assert len([d for d in grown.devices.values() if d.model == tray]) == 144


def _generated(catalog, **params):
    from aicnet_gui.generators import RailOptimizedParams, generate
    from aicnet_gui.model.document import FabricDocument

    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(**params))
    return doc


def test_a_grown_design_restates_the_size_in_the_name_and_description_the_generator_wrote(catalog):
    """A generated design's default name and sizing text state its size ("1 SU x 32", "8
    leaves"): after growth they state the grown size, as a design generated at that size."""
    doc = _generated(catalog, sus=1)
    assert doc.metadata.name == "DGX H100 rail-optimized, 1 SU x 32"
    result = grow(doc, add_sus=1).result
    fresh = _generated(catalog, sus=2)
    assert result.metadata.name == fresh.metadata.name == "DGX H100 rail-optimized, 2 SU x 32"
    assert result.metadata.description == fresh.metadata.description
    assert "16 leaves" in result.metadata.description


def test_the_users_own_name_and_description_survive_growth(example):
    from aicnet_gui.model.edits import UpdateMetadata

    doc = example("superpod-1su")  # named by hand (--name), described by the generator
    grown = grow(doc, add_sus=1).result
    assert grown.metadata.name == "DGX SuperPOD H100, 1 SU"
    assert "2 SU x 32 nodes" in grown.metadata.description
    doc.apply([UpdateMetadata({"description": "hall B, phase 1"})])
    assert grow(doc, add_sus=1).result.metadata.description == "hall B, phase 1"
