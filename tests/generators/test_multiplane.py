"""Multi-plane designs as an architect orders them: counts against NVIDIA's tables, each plane one
fat tree (networkx on the links), the BOM per plane, a plane failure in `whatif` against a
networkx max-flow, and the designs the catalog cannot cable said so with the reason.

NVIDIA's tables (docs/sources-2026.md §1.1):
- DGX SuperPOD B300, Spectrum-X (RA-11337-001, "DGX SuperPOD Architecture", Table 3 "Larger DGX
  SuperPOD component counts"): twin-plane, 64-node SU, 16 leaves and 8 spines per SU, 512
  node-leaf and 512 leaf-spine cables per SU (one per 800G OSFP cage);
- DGX SuperPOD B300, Quantum-X800 XDR (RA-11339-001, Table 3 "Example Compute Fabric
  Components"): one plane at 800G, 72-node SU, 8 leaves and 4 spines per SU (18 spines for 4
  SUs, 36 for 8: a leaf's 72 uplinks must spread evenly).
"""

from __future__ import annotations

from collections import Counter, defaultdict

import networkx as nx
import pytest

from aicnet_gui.analysis import compute_bom
from aicnet_gui.change.failures import resolve
from aicnet_gui.change.whatif import what_if
from aicnet_gui.generators import GeneratorError, RailOptimizedParams, generate, plan
from aicnet_gui.model.catalog_entities import Role
from aicnet_gui.model.document import FabricDocument

from .test_counts import B300_SPECTRUM_X_TABLE_3, B300_XDR_TABLE_3, cages_used, counts, per_pair

B300, SN5610, Q3400, SN5600 = ("nvidia-dgx-b300", "nvidia-sn5610", "nvidia-q3400-ra",
                               "nvidia-sn5600")


def _per_plane(fabric, role: Role) -> Counter:
    return Counter(d.tags["plane"] for d in fabric.devices if d.role == role)


@pytest.mark.parametrize(("sus", "nodes", "gpus", "leaves", "spines", "node_leaf", "leaf_spine"),
                         [row for row in B300_SPECTRUM_X_TABLE_3 if row[0] > 1],
                         ids=lambda v: str(v))
def test_four_planes_on_sn5610_have_the_twin_plane_tables_switches(
        catalog, sus, nodes, gpus, leaves, spines, node_leaf, leaf_spine):
    """Quad-Plane (NVIDIA: "numberOfPlanes: 4 for Quad-Plane (B300 only)", Network Operator
    26.4): no reachable RA counts it, so the check is the twin-plane table of the same servers
    (RA-11337-001 Table 3, above): 4 x 200G per GPU is the same bandwidth as 2 x 400G, and an
    SN5610 has 256 ports at 200G, twice its 400G ports, so each leaf carries its rail of two
    64-node SUs (128 down, 128 up) and a plane has half the twin-plane plane's leaves: the whole
    design has the table's 16 leaves and 8 spines per SU, one cable per GPU cage (512 per SU) and
    one per leaf uplink cage (32 per leaf, 512 per SU), each cage carrying four 200G links."""
    fabric = plan(catalog, RailOptimizedParams(sus=sus, server=B300, leaf=SN5610, planes=4,
                                               technology="rocev2", choose_media=False))
    assert fabric.speed == 200 and fabric.planes == 4 and fabric.tiers == 2
    assert counts(fabric) == {"gpu_server": nodes, "leaf": leaves, "spine": spines, "core": 0,
                              "server-leaf": 4 * node_leaf, "leaf-spine": 4 * leaf_spine}
    assert cages_used(catalog, fabric, "server-leaf", lower=True) == node_leaf
    assert cages_used(catalog, fabric, "leaf-spine", lower=True) == leaf_spine
    assert _per_plane(fabric, Role.LEAF) == {p: leaves // 4 for p in "1234"}
    assert _per_plane(fabric, Role.SPINE) == {p: spines // 4 for p in "1234"}
    assert per_pair(fabric, "leaf-spine") == {128 // (spines // 4)}
    assert any("4 planes are aicnet's own sizing" in note for note in fabric.notes)


@pytest.mark.parametrize(("sus", "nodes", "gpus", "leaves", "spines", "node_leaf", "leaf_spine"),
                         [row for row in B300_XDR_TABLE_3 if row[0] > 1], ids=lambda v: str(v))
def test_two_planes_on_q3400_have_the_xdr_tables_leaves(
        catalog, sus, nodes, gpus, leaves, spines, node_leaf, leaf_spine):
    """2 x 400G per GPU on Q3400-RA (288 ports at 400G): each leaf carries its rail of two
    72-node SUs, so the design has the XDR table's 8 leaves per SU (issue 36: 16 per SU, each
    using half its ports, "where 8 would do").  Spines: a plane's leaves have 144 uplinks, which
    divide evenly over fewer spines than the 800G table's 72 uplinks do, so 4 and 8 SUs need
    16 and 32 spines where the 800G design needs 18 and 36; 2 and 18 SUs need the table's."""
    fabric = plan(catalog, RailOptimizedParams(sus=sus, server=B300, leaf=Q3400, planes=2,
                                               choose_media=False))
    assert fabric.speed == 400 and fabric.planes == 2
    got = counts(fabric)
    assert (got["gpu_server"], got["leaf"]) == (nodes, leaves)
    assert got["spine"] == {2: 8, 4: 16, 8: 32, 18: 72}[sus] <= spines
    assert (got["server-leaf"], got["leaf-spine"]) == (2 * node_leaf, 2 * leaf_spine)
    assert _per_plane(fabric, Role.LEAF) == {"1": leaves // 2, "2": leaves // 2}
    leaf_links = Counter(link.b for link in fabric.links if link.tier == "server-leaf")
    assert set(leaf_links.values()) == {144}  # two SUs' rail, every down port used
    assert any("NVIDIA's DGX B300 XDR design is one plane at 800G" in n for n in fabric.notes)


def test_xdr_planes_with_media_are_refused_with_nvidias_design(catalog):
    """With media, 2 planes on XDR are refused: no XDR part in NVIDIA's list takes a
    ConnectX-8 cage toward two planes; the message names NVIDIA's XDR design instead (one plane
    at 800G, RA-11339-001 Table 3), which the catalog does cable."""
    with pytest.raises(GeneratorError) as err:
        generate(FabricDocument(catalog), RailOptimizedParams(sus=1, server=B300, leaf=Q3400,
                                                              planes=2))
    message = str(err.value)
    assert "800g200gpam4list" in message and "the MMS4A20 has one MPO" in message
    assert "RA-11339-001 Table 3: --planes 1" in message
    doc = FabricDocument(catalog)
    result = generate(doc, RailOptimizedParams(sus=1, server=B300, leaf=Q3400))
    assert result.unresolved == [] and all(x.cable for x in doc.links.values())


def test_four_planes_with_media_say_what_would_cable_them(catalog):
    with pytest.raises(GeneratorError, match="a fibre shuffle or cross-connect would"):
        generate(FabricDocument(catalog), RailOptimizedParams(
            sus=2, server=B300, leaf=SN5610, planes=4, technology="rocev2"))


def _two_planes(catalog, sus: int = 2, planes: int = 2, media: bool = True) -> FabricDocument:
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=sus, server=B300, leaf=SN5610, planes=planes,
                                      technology="rocev2", choose_media=media))
    return doc


def test_every_plane_is_one_fat_tree_and_no_link_joins_two(catalog):
    """networkx on the design's links: the switches of each plane form one connected graph,
    every leaf of a plane reaches every spine of its plane with the same number of links, no
    link joins switches of two planes, and every GPU NIC port lands in exactly one plane."""
    doc = _two_planes(catalog)
    plane = {d.id: d.plane for d in doc.devices.values()}
    role = {d.id: doc.role_of(d).value for d in doc.devices.values()}
    graph = nx.MultiGraph()
    for link in doc.links.values():
        graph.add_edge(link.a.device, link.b.device)
    switch_pairs = [(a, b) for a, b, _ in graph.edges(keys=True)
                    if role[a] != "gpu_server" and role[b] != "gpu_server"]
    assert all(plane[a] == plane[b] for a, b in switch_pairs)
    for name in ("1", "2"):
        switches = [d for d, p in plane.items() if p == name]
        sub = graph.subgraph(switches)
        assert nx.is_connected(sub)
        leaves = [d for d in switches if role[d] == "leaf"]
        spines = [d for d in switches if role[d] == "spine"]
        assert (len(leaves), len(spines)) == (16, 8)  # 2 SUs per plane: 8 per SU, 4 per SU
        widths = {sub.number_of_edges(leaf, spine) for leaf in leaves for spine in spines}
        assert widths == {64 // 8}  # one width: every leaf to every spine, ECMP-balanced
    for server in (d for d, r in role.items() if r == "gpu_server"):
        ends = [doc.port(server, x.a.port if x.a.device == server else x.b.port).name
                for x in doc.links_of(server)]
        assert len(ends) == len(set(ends)) == 16
        reached = Counter(plane[x.b.device if x.a.device == server else x.a.device]
                          for x in doc.links_of(server))
        assert reached == {"1": 8, "2": 8}


def test_the_bom_of_each_plane_is_half_of_the_whole(catalog):
    """Per part, every length together: each plane has half the switches, half the switch
    optics and half the cables and links of the design; the servers and the optics in their
    NIC cages (one twin-port module serves both planes' ports) are the shared part; planes and
    shared part add up to the whole BOM."""
    doc = _two_planes(catalog)
    bom = compute_bom(doc)
    assert list(bom.planes) == ["1", "2", "shared"]
    one, two, shared = bom.planes["1"], bom.planes["2"], bom.planes["shared"]

    def by_part(cables: dict[str, int]) -> Counter:
        out: Counter = Counter()
        for key, n in cables.items():
            out[key.partition("@")[0]] += n
        return out

    switches = {m: n for m, n in bom.devices_by_model.items() if m != B300}
    for part in (one, two):
        assert part.devices_by_model == {m: n // 2 for m, n in switches.items()}
        assert by_part(part.cables) == {k: n // 2 for k, n in by_part(bom.cables).items()}
        assert part.links_total == bom.links_total // 2
        assert part.links_by_tier == {t: n // 2 for t, n in bom.links_by_tier.items()}
    assert shared.devices_by_model == {B300: 128} and shared.links_total == 0
    total: Counter = Counter()
    for part in (one, two, shared):
        total.update(part.transceivers)
    assert dict(total) == bom.transceivers
    assert Counter(one.cables) + Counter(two.cables) == Counter(bom.cables)
    assert one.transceivers == two.transceivers
    assert sum(shared.transceivers.values()) == 128 * 8  # one module per NIC cage
    json_planes = bom.to_json()["planes"]
    assert json_planes["1"]["devices"] == one.devices_by_model


def _bisection(doc: FabricDocument, gone: set[str] = frozenset()) -> float:
    """networkx max-flow from the servers of SU 1 to those of SU 2 (the rail-aligned cut of
    two SUs), over the links not in `gone`: a server sends through its own NIC links only
    (source side: server to switch; sink side: switch to server), switch links both ways."""
    role = {d.id: doc.role_of(d).value for d in doc.devices.values()}
    su = {d.id: d.tags.get("su") for d in doc.devices.values()}
    graph = nx.DiGraph()
    capacity: dict[tuple[str, str], float] = defaultdict(float)
    for link in doc.links.values():
        if link.id in gone:
            continue
        gbps = min(doc.port(e.device, e.port).speed_gbps for e in (link.a, link.b))
        a, b = link.a.device, link.b.device
        if role[b] == "gpu_server":
            a, b = b, a
        if role[a] == "gpu_server":
            if su[a] == "1":
                capacity[("S", a)] = float("inf")
                capacity[(a, b)] += gbps
            else:
                capacity[(a, "T")] = float("inf")
                capacity[(b, a)] += gbps
        else:
            capacity[(a, b)] += gbps
            capacity[(b, a)] += gbps
    for (u, v), c in capacity.items():
        graph.add_edge(u, v, capacity=c)
    return nx.maximum_flow_value(graph, "S", "T")


@pytest.mark.parametrize("planes", [2, 4])
def test_a_plane_failure_costs_exactly_its_share(catalog, planes):
    """`whatif plane:2` on a design of P planes: the max-flow between the two SUs' GPUs (the
    analysis' bisection, scipy) equals a networkx max-flow built here on the links, before and
    after, and the plane takes exactly 1/P of it; each GPU keeps (P-1)/P of its NIC."""
    doc = _two_planes(catalog, planes=planes, media=False)
    failure = resolve(doc, ["plane:2"])
    result = what_if(doc, failure)
    (w,) = result.workloads
    before, after = _bisection(doc), _bisection(doc, set(failure.links))
    assert w.before.bisection_gbps == before
    assert w.after.bisection_gbps == after == before * (planes - 1) / planes
    assert not w.lost and not result.partitioned
    assert (w.before.per_gpu_gbps, w.after.per_gpu_gbps) == (800, 800 * (planes - 1) / planes)


def test_the_planes_get_the_same_parts_where_their_racks_differ(catalog):
    """16 SUs of twin-plane B300 on SN5600: plane 2's switches sit in other racks than plane
    1's, so some of its runs are longer; each link's media are chosen for the longest of its
    counterparts in both planes, so both planes get the same optics and cords part for part
    (before, plane 2 took single-mode where plane 1 had multimode: PLANE-UNBALANCED on the
    generator's own design).  Lengths may differ; parts and counts may not."""
    from aicnet_gui.analysis import analyze

    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=16, server=B300, leaf=SN5600, planes=2,
                                      technology="rocev2"))
    assert not analyze(doc).by_code("PLANE-UNBALANCED")
    bom = compute_bom(doc)
    one, two = bom.planes["1"], bom.planes["2"]
    assert one.transceivers == two.transceivers
    assert one.cables_by_part() == two.cables_by_part()
    assert one.cables != two.cables  # the lengths differ: the racks do
