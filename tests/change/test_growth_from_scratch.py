"""`aicnet grow` and `aicnet migrate` against the grown size generated from scratch, part by part.

A design grown (or migrated) by the change planner and the same parameters generated from
nothing must order the same devices, the same optics per part and the same cables per part and
ordered length, except where something of the design stays:

- a cable that stays keeps its ports and its media (its cage may be one the generator would
  leave empty, its ordered length the one it was bought at);
- a device that stays keeps its place, and a new device whose generated place is taken by a
  rack of the design stands elsewhere, so the cables on it have other lengths.

Each test computes both bills of materials (analysis.bom), then explains every difference from
the two documents alone: per device, which cages hold optics; per device pair, how many cables
run and at which part and length.  A difference that neither a staying cable nor a staying
rack explains fails the test, and so does a total that the explained differences do not add up
to.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from aicnet_gui.analysis import analyze
from aicnet_gui.analysis.bom import cable_key, compute_bom
from aicnet_gui.analysis.lengths import link_length, placement
from aicnet_gui.change.growth import grow, migrate
from aicnet_gui.cli import main
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument


def _generated(catalog, params) -> FabricDocument:
    doc = FabricDocument(catalog)
    generate(doc, params)
    return doc


def _bom(doc: FabricDocument) -> Counter:
    bom = compute_bom(doc)
    counts: Counter = Counter()
    counts.update({("device", k): n for k, n in bom.devices_by_model.items()})
    counts.update({("optic", k): n for k, n in bom.transceivers.items()})
    counts.update({("cable", k): n for k, n in bom.cables.items()})
    return counts


def _spot(doc: FabricDocument, device_id: str) -> tuple | None:
    """Where a device stands: its rack's floor x/y and its height, in metres."""
    where = placement(doc, doc.devices[device_id])
    return None if where is None else (where.x_m, where.y_m, where.height_m)


def _linked_cages(doc: FabricDocument, device_id: str) -> dict[int, set[str]]:
    """Per cage of the device with a link, the ids of its links."""
    ports = doc.ports(device_id)
    cages: dict[int, set[str]] = defaultdict(set)
    for name in doc.linked_ports(device_id):
        cages[ports[name].cage].add(doc.link_at(device_id, name).id)
    return cages


def _cables_by_pair(doc: FabricDocument) -> dict[frozenset, list[tuple[str, str]]]:
    """Per pair of device names, (cable key as the BOM orders it, link id) of every physical
    cable: a multi-link assembly once, at its longest leg, on the pair of its first link."""
    out: dict[frozenset, list[tuple[str, str]]] = defaultdict(list)
    assemblies: dict[str, list] = defaultdict(list)
    for link in doc.links.values():
        if link.assembly:
            assemblies[link.assembly].append(link)
        else:
            assemblies[link.id].append(link)
    for links in assemblies.values():
        links.sort(key=lambda lk: lk.id)
        first = links[0]
        if first.cable is None:
            continue
        part = doc.catalog.cable(first.cable)
        lengths = [link_length(doc, lk) for lk in links]
        key = cable_key(part.id, max(x.ordered_m for x in lengths),
                        max(x.length_m for x in lengths), part.stock_lengths_m[-1])
        pair = frozenset(doc.devices[e.device].name for e in (first.a, first.b))
        out[pair].append((key, first.id))
    return out


def explain(design: FabricDocument, grown: FabricDocument, scratch: FabricDocument
            ) -> tuple[Counter, list[str]]:
    """(the differences grown - scratch that what stays explains, the ones it does not)."""
    unexplained: list[str] = []
    explained: Counter = Counter()
    g_id = {d.name: d.id for d in grown.devices.values()}
    s_id = {d.name: d.id for d in scratch.devices.values()}
    if set(g_id) != set(s_id):
        return explained, [f"devices differ: {sorted(set(g_id) ^ set(s_id))}"]
    kept_links = {i for i, lk in grown.links.items() if design.links.get(i) == lk}
    design_floor = {_spot(design, d.id)[:2] for d in design.devices.values()
                    if _spot(design, d.id) is not None}
    displaced: set[str] = set()
    for name, gid in g_id.items():
        sid = s_id[name]
        if grown.devices[gid].model != scratch.devices[sid].model:
            unexplained.append(f"{name}: {grown.devices[gid].model} vs "
                               f"{scratch.devices[sid].model}")
        if _spot(grown, gid) == _spot(scratch, sid):
            continue
        displaced.add(name)
        if gid in design.devices:  # a device of the design: it must not have moved
            if _spot(grown, gid) != _spot(design, gid):
                unexplained.append(f"{name} moved from where the design had it")
        elif (_spot(scratch, sid) or (None, None))[:2] not in design_floor:
            unexplained.append(f"{name} (new) is not where the generator puts it, and no rack "
                               "of the design stands there")
    # optics: per device, every cage with an optic carries a link, and a cage the generator
    # leaves empty holds a cable that stays
    for name, gid in g_id.items():
        sid = s_id[name]
        g_cages, s_cages = _linked_cages(grown, gid), _linked_cages(scratch, sid)
        g_dev, s_dev = grown.devices[gid], scratch.devices[sid]
        idle = [c for c, cfg in g_dev.cages.items() if cfg.transceiver and c not in g_cages
                and not (gid in design.devices and design.devices[gid].cages.get(c) == cfg
                         and c not in _linked_cages(design, gid))]
        if idle:
            unexplained.append(f"{name}: optics in cages {idle} that carry no link")
        g_optics = Counter(g_dev.cages[c].transceiver for c in g_cages
                           if c in g_dev.cages and g_dev.cages[c].transceiver)
        s_optics = Counter(s_dev.cages[c].transceiver for c in s_cages
                           if c in s_dev.cages and s_dev.cages[c].transceiver)
        if g_optics == s_optics:
            continue
        extra = [c for c in g_cages if c not in s_cages]
        if not extra or not all(g_cages[c] & kept_links for c in extra):
            unexplained.append(f"{name}: optics {dict(g_optics)} vs {dict(s_optics)} in cages "
                               f"without a cable that stays ({extra})")
            continue
        explained.update({("optic", k): n for k, n in (g_optics - s_optics).items()})
        explained.subtract({("optic", k): n for k, n in (s_optics - g_optics).items()})
    # cables: per device pair, as many as the generator runs, at its parts and lengths unless
    # a cable stays or an end stands elsewhere
    g_pairs, s_pairs = _cables_by_pair(grown), _cables_by_pair(scratch)
    for pair in set(g_pairs) | set(s_pairs):
        g, s = g_pairs.get(pair, []), s_pairs.get(pair, [])
        if len(g) != len(s):
            unexplained.append(f"{sorted(pair)}: {len(g)} cables vs {len(s)}")
            continue
        g_keys, s_keys = Counter(k for k, _ in g), Counter(k for k, _ in s)
        if g_keys == s_keys:
            continue
        if pair & displaced or any(i in kept_links for _, i in g):
            explained.update({("cable", k): n for k, n in (g_keys - s_keys).items()})
            explained.subtract({("cable", k): n for k, n in (s_keys - g_keys).items()})
        else:
            unexplained.append(f"{sorted(pair)}: {dict(g_keys)} vs {dict(s_keys)} with both "
                               "ends where the generator puts them and no cable that stays")
    return explained, unexplained


def _check_against_scratch(design, plan, catalog) -> Counter:
    """Assert that every difference between the planned design and the target generated from
    scratch is explained; return the differences (grown - scratch, per part)."""
    scratch = _generated(catalog, plan.params)
    grown_bom, scratch_bom = _bom(plan.result), _bom(scratch)
    explained, unexplained = explain(design, plan.result, scratch)
    assert unexplained == []
    difference = Counter(grown_bom)
    difference.subtract(scratch_bom)
    difference = Counter({k: n for k, n in difference.items() if n})
    expected = Counter({k: n for k, n in explained.items() if n})
    assert difference == expected  # the explained differences are all the differences
    assert not analyze(plan.result).by_code("OPTIC-UNLINKED")
    return difference


def test_growing_a_2su_superpod_buys_the_optics_of_a_3su_one(catalog):
    """The issue's case: DGX H100 / QM9700, 2 SUs + 1.  A 3-SU design generated from scratch
    holds 1,152 MMA4Z00-NS; the grown one held 1,185 (bought 417, 31 of them in cages whose
    cables moved, 2 more in half-used cages).  It must hold the same, buy 1,152 - 768 = 384,
    and nothing else may differ: its new racks stand where the generator puts them."""
    design = _generated(catalog, RailOptimizedParams(sus=2))
    plan = grow(design, add_sus=1)
    assert _check_against_scratch(design, plan, catalog) == Counter()
    assert compute_bom(plan.result).transceivers["nvidia-mma4z00-ns"] == 1152
    buy = {x["part"]: x["delta"] for x in plan.bill()["buy"]}
    assert buy["nvidia-mma4z00-ns"] == 384 and buy["nvidia-mma4z00-ns-flt"] == 128


def test_growing_4_to_5_sus_pairs_the_half_used_spine_cages(example, catalog):
    """4 SUs: each leaf has 2 cables to each of 16 spines, in one twin-port cage; 5 SUs: 1 to
    each of 32.  Each old spine keeps one cable per old leaf, one leg of every cage: 192 spine
    optics half idle.  The plan re-plugs one cable of each pair of such cages into its
    neighbour's free leg on the same spine (the cable stays where it runs) and frees the optic."""
    design = example("superpod-4su")
    plan = grow(design, add_sus=1)
    difference = _check_against_scratch(design, plan, catalog)
    assert not [k for k in difference if k[0] == "optic"]
    replugged = [r for r in plan.diff.links_reterminated if "re-plugged" in plan.reasons[r.old.id]]
    assert len(replugged) == 192
    for ret in replugged:
        ((old_end, new_end),) = ret.moved
        assert old_end.device == new_end.device  # the same switch, another cage
        assert int(old_end.port.split("/")[0]) == int(new_end.port.split("/")[0]) + 1


@pytest.mark.parametrize("case", [
    "superpod-1su +1 SU", "roce-enterprise +1 SU", "inference-ethernet +8 servers",
    "B300 XDR 1 SU +1", "migrate superpod-1su spines to QM9790",
    "migrate inference-ethernet to SN5400", "migrate roce-enterprise to N9364E-SG2-O"])
def test_grown_and_migrated_designs_differ_from_scratch_only_where_something_stays(
        case, example, catalog):
    plans = {
        "superpod-1su +1 SU": lambda: (example("superpod-1su"), dict(add_sus=1)),
        "roce-enterprise +1 SU": lambda: (example("roce-enterprise"), dict(add_sus=1)),
        "inference-ethernet +8 servers": lambda: (example("inference-ethernet"),
                                                  dict(add_servers=8)),
        "B300 XDR 1 SU +1": lambda: (_generated(catalog, RailOptimizedParams(
            sus=1, server="nvidia-dgx-b300", leaf="nvidia-q3400-ra")), dict(add_sus=1)),
        "migrate superpod-1su spines to QM9790": lambda: (
            example("superpod-1su"), dict(spine="nvidia-qm9790")),
        "migrate inference-ethernet to SN5400": lambda: (
            example("inference-ethernet"), dict(leaf="nvidia-sn5400", spine="nvidia-sn5400")),
        "migrate roce-enterprise to N9364E-SG2-O": lambda: (
            example("roce-enterprise"),
            dict(leaf="cisco-n9364e-sg2-o", spine="cisco-n9364e-sg2-o")),
    }
    design, args = plans[case]()
    plan = (migrate if case.startswith("migrate") else grow)(design, **args)
    difference = _check_against_scratch(design, plan, catalog)
    assert not [k for k in difference if k[0] in {"device", "optic"}]


def test_grow_closing_line_counts_every_finding_of_the_planned_design(tmp_path, capsys, catalog):
    """The closing line counted errors and warnings only: 8 OPTIC-UNLINKED notes hid behind
    "0 error(s), 0 warning(s)".  It counts notes too and names the codes, as validate does."""
    from aicnet_gui.fileio import save_fabric

    path = tmp_path / "two.fabric"
    save_fabric(_generated(catalog, RailOptimizedParams(sus=2)), path)
    assert main(["grow", str(path), "--add-sus", "1", "-o", str(tmp_path / "g.fabric")]) == 0
    out = capsys.readouterr().out
    assert main(["validate", str(tmp_path / "g.fabric")]) == 0
    said = capsys.readouterr().out.splitlines()[0]  # "g.fabric: 0 errors, 0 warnings, 2 notes"
    counts = said.split(": ", 1)[1].split("  (")[0]
    closing = [line for line in out.splitlines() if line.startswith("The planned design")]
    assert closing == [f"The planned design: {counts} (PORTS-EXHAUSTED 1, SCALE-LIMIT 1) "
                       "- see aicnet validate"]
    assert main(["grow", str(path), "--add-sus", "1", "--json"]) == 0
    import json

    validation = json.loads(capsys.readouterr().out)["validation"]
    assert validation == {"errors": 0, "warnings": 0, "notes": 2,
                          "by_code": {"PORTS-EXHAUSTED": 1, "SCALE-LIMIT": 1}}
