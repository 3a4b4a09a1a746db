"""Catalog corrections found on review (issue 32, item 6), each against the document it cites.

- DGX H100/H200 in-band pair (port 2 of the slot 1 and 2 ConnectX-7): listed as a 100G port; the
  User Guide's Table 1 gives the card "up to 400GbE / 400 Gb/s InfiniBand" and the BasePOD RA
  "2x dual-port QSFP112 ConnectX-7 VPI", up to 400 Gb/s: 100 Gb/s is the speed the SuperPOD RA
  runs its in-band network at, a mode of the port, not what the port is.
- 800GBASE-SR8: 50 m of OM4 was 800GBASE-VR8's reach; IEEE 802.3df adopted 100 m of MMF for SR8
  (the baselines an NVIDIA engineer's kernel commit quotes), 60 m on OM3 (secondary).
- The UFM appliances of NVIDIA's DGX SuperPOD H100 RA (four, Table 7; four UFM cables into the
  compute fabric at every size, Table 4) were missing: a catalog entry, and the rail-optimized
  template builds them where a DGX was left out for them (the RA's 31-node SU).
"""

from __future__ import annotations

from collections import Counter

from aicnet_gui.analysis import analyze
from aicnet_gui.analysis.bom import compute_bom
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.catalog import Catalog
from aicnet_gui.model.document import FabricDocument

UFM = "nvidia-ufm-enterprise-appliance"


def test_the_dgx_in_band_pair_is_a_400g_port_run_at_100g_in_a_superpod(catalog: Catalog) -> None:
    for model in ("nvidia-dgx-h100", "nvidia-dgx-h200"):
        dgx = catalog.device(model)
        inband = next(g for g in dgx.cages if g.name == "inband")
        assert inband.default_breakout == "1x400G"
        assert inband.lanes * inband.lane_gbps == 400 and "1x100G" in inband.breakouts
        if model == "nvidia-dgx-h100":
            assert "up to 400GbE" in dgx.notes and "operate at 100 Gbps" in dgx.notes


def test_800gbase_sr8_reaches_100_m_of_om4_as_802_3df_adopted(catalog: Catalog) -> None:
    sr8 = catalog.transceiver("generic-800gbase-sr8-osfp")
    assert (sr8.reach_m.OM4, sr8.reach_m.OM3) == (100, 60)
    assert "404c76783f32" in sr8.source and "MMF 100m - SR8" in sr8.source
    assert sr8.verified is False  # the IEEE text itself was not read


def test_the_ufm_appliance_is_a_catalog_entry_with_its_ra_and_its_module(catalog: Catalog) -> None:
    ufm = catalog.device(UFM)
    assert ufm.role.value == "storage" and ufm.gpus == 0 and ufm.technology == ["infiniband"]
    (port,) = ufm.cages
    assert (port.count, port.form_factor, port.top, port.default_breakout) == (
        1, "OSFP", "flat", "1x400G")
    assert "Table 7" in ufm.source and "Table 4" in ufm.source and ufm.verified is False
    assert ufm.power_max_w is None and ufm.power_typical_w is None  # no document read


def _superpod(catalog: Catalog, sus: int, nodes: int | None = None) -> FabricDocument:
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=sus, nodes_per_su=nodes))
    return doc


def test_a_31_node_superpod_gets_the_ras_four_ufm_appliances_on_its_compute_leaves(catalog):
    """1 SU of 31 DGX H100 (the RA's count): 31 x 8 + 4 = 252 compute-and-UFM cables and 256
    leaf-spine cables (RA Table 4), 4 UFM appliances in the BOM with a single-port flat-top
    OSFP (MMA4Z00-NS400, the QM97xx manual's UFM-side module) each, no finding about them."""
    doc = _superpod(catalog, 1, 31)
    ufms = [d for d in doc.devices.values() if d.model == UFM]
    assert [d.name for d in ufms] == ["ufm-01", "ufm-02", "ufm-03", "ufm-04"]
    tiers = Counter(tuple(sorted(doc.devices[e.device].role.value for e in (lk.a, lk.b)))
                    for lk in doc.links.values())
    assert tiers[("gpu_server", "leaf")] + tiers[("leaf", "storage")] == 252
    assert tiers[("leaf", "spine")] == 256
    leaves = [lk.b.device if lk.a.device in {u.id for u in ufms} else lk.a.device
              for lk in doc.links.values() if {lk.a.device, lk.b.device} & {u.id for u in ufms}]
    assert sorted(doc.devices[leaf].name for leaf in leaves) == [
        "leaf-01", "leaf-02", "leaf-03", "leaf-04"]
    bom = compute_bom(doc)
    assert bom.devices_by_model[UFM] == 4
    assert bom.transceivers["nvidia-mma4z00-ns400"] == 4
    report = analyze(doc)
    assert report.errors == 0 and report.warnings == 0
    assert not [f for f in report.findings if set(f.objects) & {u.id for u in ufms}]


def test_a_32_node_su_says_why_it_has_no_ufm_appliance(catalog):
    from aicnet_gui.generators import build_ops

    doc = FabricDocument(catalog)
    _ops, result = build_ops(doc, RailOptimizedParams(sus=1))
    assert any("no UFM appliance added" in n and "--nodes-per-su 31" in n for n in result.notes)
    assert not [d for d in _superpod(catalog, 1).devices.values() if d.model == UFM]
