"""The built-in hardware catalog states the facts users rely on, and the loader never raises.

Facts checked here come from shared/reference/hardware.md (source ids R14, R16, R17, R31, R32 ...).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from aicnet_gui.catalog import (
    USER_CATALOG_ENV,
    CatalogProblem,
    builtin_catalog,
    load_catalog,
    load_catalog_file,
)
from aicnet_gui.catalog import loader as catalog_loader
from aicnet_gui.model.catalog import Catalog
from aicnet_gui.model.catalog_entities import (
    BreakoutMode,
    CableAssembly,
    DeviceModel,
    Transceiver,
    catalog_id,
)
from aicnet_gui.report.netbox_devicetypes import device_type

# ------------------------------------------------------------------------------------ helpers


def logical_ports(
    device: DeviceModel, mode: str | None = None, *, fabric_only: bool = True
) -> list[str]:
    """Port names of `device` with every cage in `mode` (default: each group's default)."""
    names: list[str] = []
    for group in device.cages:
        if fabric_only and not group.fabric:
            continue
        legs = BreakoutMode.parse(mode or group.default_breakout).legs
        for cage in group.cage_numbers:
            for leg in range(1, legs + 1):
                names.append(group.port_name(cage, leg, legs))
    return names


def port_speeds(device: DeviceModel, mode: str | None = None) -> list[int]:
    speeds: list[int] = []
    for group in device.cages:
        if not group.fabric:
            continue
        parsed = BreakoutMode.parse(mode or group.default_breakout)
        speeds += [parsed.speed_gbps] * (parsed.legs * group.count)
    return speeds


@pytest.fixture()
def empty_user_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "user-catalogs"
    folder.mkdir()
    monkeypatch.setenv(USER_CATALOG_ENV, str(folder))
    return folder


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return builtin_catalog()


GOOD_CABLE = """
  - kind: cable
    id: acme-test-dac
    vendor: Acme
    model: Test DAC
    type: DAC
    a_end: {form_factor: QSFP28}
    b_end: {form_factor: QSFP28}
    stock_lengths_m: [1, 2]
    max_length_m: 2
    netbox_type: dac-passive
    technology: [ethernet]
    source: test fixture
    verified: false
"""

BAD_DEVICE = """
  - kind: device
    id: acme-bad-switch
    vendor: Acme
    model: Bad Switch
    role: leaf
    height_ru: 1
    technology: [ethernet]
    source: test fixture
    verified: false
    cages:
      - name: fabric
        count: 32
        form_factor: OSFP
        lanes: 0
        lane_gbps: 100
        breakouts: [1x800G]
        default_breakout: 1x800G
        port_names: {"1": "swp{cage}"}
        interface_type: 800gbase-x-osfp
"""


def write_catalog(folder: Path, name: str, entries_yaml: str) -> Path:
    path = folder / name
    path.write_text(f"format: aicnet.catalog\nversion: 1\nentries:{entries_yaml}", encoding="utf-8")
    return path


# --------------------------------------------------------------------- the built-in catalog


def test_builtin_catalog_loads_without_problems(empty_user_dir: Path) -> None:
    result = load_catalog()
    assert result.problems == [], "\n".join(str(p) for p in result.problems)
    assert len(result.catalog.devices) >= 10
    assert len(result.catalog.transceivers) >= 15
    assert len(result.catalog.cables) >= 15


def test_every_id_is_the_catalog_id_of_vendor_and_model(catalog: Catalog) -> None:
    for entry in catalog:
        assert entry.id == catalog_id(entry.vendor, entry.model), entry.id


def test_every_entry_names_its_source_and_flags_what_is_unverified(catalog: Catalog) -> None:
    for entry in catalog:
        assert entry.source.strip(), entry.id
        assert re.search(r"\bR\d+\b|hardware\.md|cabling\.md|sources-2026\.md", entry.source), entry.id
        if not entry.verified:
            assert entry.notes.strip(), f"{entry.id}: unverified entries must say why in notes"
        assert entry.price_usd is None, f"{entry.id}: no sourced prices"


def test_entries_are_filed_by_kind(catalog: Catalog) -> None:
    for entry_id, origin in catalog.origin.items():
        entry = catalog.get(entry_id)
        folder = {DeviceModel: "devices", Transceiver: "optics", CableAssembly: "cables"}[
            type(entry)
        ]
        assert origin.startswith(f"catalogs/{folder}/"), (entry_id, origin)


def test_port_names_are_unique_in_any_mix_of_breakout_modes(catalog: Catalog) -> None:
    for device in catalog.devices.values():
        owner: dict[str, tuple[int, str]] = {}
        for group in device.cages:
            for cage, mode in itertools.product(group.cage_numbers, group.breakouts):
                legs = BreakoutMode.parse(mode).legs
                for leg in range(1, legs + 1):
                    name = group.port_name(cage, leg, legs)
                    previous = owner.setdefault(name, (cage, mode))
                    # the same name may only come back for the same cage (other mode, same leg)
                    assert previous[0] == cage, (
                        f"{device.id}: {name} on cages {previous[0]} and {cage}"
                    )
                names = [group.port_name(cage, leg, legs) for leg in range(1, legs + 1)]
                assert len(set(names)) == legs, (device.id, cage, mode)


# ----------------------------------------------------------------------------- switches


def test_qm9700_is_32_osfp_cages_of_two_400g_ndr_ports(catalog: Catalog) -> None:
    qm = catalog.device("nvidia-qm9700")
    (fabric,) = qm.cages
    assert (fabric.count, fabric.form_factor, fabric.top) == (32, "OSFP", "finned")
    assert fabric.lanes * fabric.lane_gbps == 800
    assert fabric.default_breakout == "2x400G"
    assert "1x800G" not in fabric.breakouts  # NDR ports are 400G logical ports (R14)
    assert port_speeds(qm) == [400] * 64
    ports = logical_ports(qm)
    assert len(ports) == 64
    assert ports[8:10] == ["5/1", "5/2"]
    assert fabric.power_class_w == 17  # "Class 8 (17W)" (R14)
    assert qm.height_ru == 1
    assert len(logical_ports(qm, "4x200G")) == 128


def test_sn5600_breakouts_and_cumulus_port_names(catalog: Catalog) -> None:
    sn = catalog.device("nvidia-sn5600")
    fabric = next(g for g in sn.cages if g.fabric)
    assert (fabric.count, fabric.form_factor, fabric.lanes, fabric.lane_gbps) == (
        64,
        "OSFP",
        8,
        100,
    )
    assert fabric.default_breakout == "2x400G"
    assert fabric.power_class_w == 18  # R17, with dual 3 kW PSUs
    assert port_speeds(sn) == [400] * 128
    assert port_speeds(sn, "1x800G") == [800] * 64
    assert port_speeds(sn, "4x200G") == [200] * 256
    # R17 (P): at most 256 logical ports; Cumulus 5.6 (P): 256 x 100G / 50G are 8x breakouts
    # that disable the adjacent cage, so they run on every other cage only (32 x 8 = 256)
    for mode in fabric.breakouts:
        cages = fabric.count // 2 if mode in fabric.blocking_modes else fabric.count
        assert cages * BreakoutMode.parse(mode).legs <= 256, mode
    assert fabric.blocking_modes == ["8x100G", "8x50G"]
    assert [c for c in fabric.cage_numbers if fabric.may_block(c)] == list(range(1, 64, 2))
    assert fabric.port_name(3, 1, 2) == "swp3s0"
    assert fabric.port_name(3, 2, 2) == "swp3s1"
    assert fabric.port_name(3, 1, 1) == "swp3"
    service = [g for g in sn.cages if not g.fabric]
    assert [(g.form_factor, list(g.cage_numbers)) for g in service] == [("SFP28", [65])]
    assert service[0].port_name(65, 1, 1) == "swp65"


def test_sn4700_8x50g_only_on_the_top_16_cages_and_sn4600c_4x25g_on_32(catalog: Catalog) -> None:
    """Cumulus Linux 5.6, Switch Port Attributes, Breakout Ports (P)."""
    sn4700 = next(g for g in catalog.device("nvidia-sn4700").cages if g.fabric)
    assert sn4700.blocking_modes == ["8x50G"]
    assert len([c for c in sn4700.cage_numbers if sn4700.may_block(c)]) == 16
    sn4600c = next(g for g in catalog.device("nvidia-sn4600c").cages if g.fabric)
    assert sn4600c.blocking_modes == ["4x25G"]
    assert len([c for c in sn4600c.cage_numbers if sn4600c.may_block(c)]) == 32


def test_a_blocking_mode_must_be_a_breakout_and_not_the_default(catalog: Catalog) -> None:
    sn = catalog.device("nvidia-sn5600").model_dump()
    sn["cages"][0]["blocking_modes"] = ["2x400G"]
    with pytest.raises(ValueError, match="cannot be a blocking mode"):
        DeviceModel.model_validate(sn)
    sn["cages"][0]["blocking_modes"] = ["16x50G"]
    with pytest.raises(ValueError, match="is not one of breakouts"):
        DeviceModel.model_validate(sn)


def test_q3400_counts_cages_and_logical_ports_separately(catalog: Catalog) -> None:
    q3400 = catalog.device("nvidia-q3400-ra")
    assert q3400.cages[0].count == 72
    assert port_speeds(q3400) == [800] * 144


def test_switch_ordering_numbers_reach_the_exported_device_type(catalog: Catalog) -> None:
    """A NetBox device type names the number a purchase order uses: the QM97xx their P2C -NS2F
    (the C2P -NS2R is an alternative named in the notes, not a second number the BOM would print
    on the same line), the SN5600 its 920- SKU; a switch whose number no document read states
    exports none rather than a guess."""
    assert device_type(catalog.device("nvidia-qm9700"))["part_number"] == "MQM9700-NS2F"
    for model in ("nvidia-qm9700", "nvidia-qm9790"):
        entry = catalog.device(model)
        assert entry.part_numbers == ["M" + entry.model + "-NS2F"]
        assert "-NS2R" in entry.notes
    assert device_type(catalog.device("nvidia-sn5600"))["part_number"] == "920-9N42F-00RI-7C0"
    assert "part_number" not in device_type(catalog.device("nvidia-sn5610"))


def test_juniper_cages_count_from_zero(catalog: Catalog) -> None:
    qfx = catalog.device("juniper-qfx5240-64od")
    fabric = qfx.cages[0]
    assert list(fabric.cage_numbers) == list(range(64))
    assert fabric.port_name(0, 1, 1) == "et-0/0/0"
    assert fabric.port_name(5, 2, 2) == "et-0/0/5:1"


# ------------------------------------------------------------------------------ servers


def test_dgx_h100_compute_is_4_flat_osfp_cages_serving_p1_to_p8(catalog: Catalog) -> None:
    dgx = catalog.device("nvidia-dgx-h100")
    compute = next(g for g in dgx.cages if g.name == "compute")
    assert (compute.count, compute.form_factor, compute.top) == (4, "OSFP", "flat")
    assert compute.default_breakout == "2x400G"
    assert [compute.port_name(c, leg, 2) for c in compute.cage_numbers for leg in (1, 2)] == [
        f"p{i}" for i in range(1, 9)
    ]
    assert dgx.gpus == 8
    assert any(not g.fabric and g.form_factor == "RJ45" for g in dgx.cages)  # BMC


def test_dgx_h100_and_h200_non_compute_ports_follow_the_user_guide_and_the_ras(
    catalog: Catalog,
) -> None:
    """User Guide Table 1/Table 5: two dual-port QSFP112 ConnectX-7 in slots 1 and 2 (port 1
    InfiniBand by default, port 2 Ethernet by default) and a dual-port 100GbE in slot 3.  NVIDIA
    bonds port 2 of slots 1 and 2 for in-band management and uses port 1 of each for storage
    (BasePOD deployment guide, Networking); the slot-3 card is a separate, Ethernet-only group
    (hardware.md, correction of 2026-12-01)."""
    for model in ("nvidia-dgx-h100", "nvidia-dgx-h200"):
        dgx = catalog.device(model)
        groups = {g.name: g for g in dgx.cages}
        assert logical_ports(dgx, fabric_only=False) == [f"p{i}" for i in range(1, 9)] + [
            "s1", "s2", "inband1", "inband2", "sysmgmt1", "sysmgmt2", "eth10g1", "bmc"]
        storage, inband, sysmgmt = groups["storage"], groups["inband"], groups["sysmgmt"]
        assert (storage.count, storage.form_factor, inband.count, inband.form_factor) == (
            2, "QSFP112", 2, "QSFP112")
        assert storage.os_names["panel"].names == ["Slot1 P1", "Slot2 P1"]
        assert inband.os_names["panel"].names == ["Slot1 P2", "Slot2 P2"]
        assert inband.os_names["linux-netdev"].names == ["enp170s0f1np1", "enp41s0f1np1"]
        assert storage.fabric and not inband.fabric and not sysmgmt.fabric
        assert set(inband.technology or ()) == {"infiniband", "ethernet"}  # VPI ConnectX-7
        # the card's speed, 400G (User Guide Table 1, BasePOD RA); the SuperPOD RA runs it at 100
        assert inband.default_breakout == "1x400G" and "1x100G" in inband.breakouts
        assert sysmgmt.technology == ["ethernet"] and sysmgmt.count == 2
        assert sysmgmt.os_names["panel"].names == ["Slot3 P1", "Slot3 P2"]


def test_dgx_h100_and_h200_hold_the_user_guide_gpu_to_port_map(catalog: Catalog) -> None:
    """DGX H100/H200 User Guide, Table 6: OSFP1P1 (p1) = GPU 7 ... OSFP4P2 (p8) = GPU 0."""
    for model in ("nvidia-dgx-h100", "nvidia-dgx-h200"):
        compute = next(g for g in catalog.device(model).cages if g.name == "compute")
        assert compute.gpu_of_port == [7, 4, 6, 5, 2, 1, 3, 0]
        rails = {f"p{k + 1}": compute.rail_of_position(k, 8) for k in range(8)}
        assert rails == {"p8": 1, "p6": 2, "p5": 3, "p7": 4, "p2": 5, "p4": 6, "p3": 7, "p1": 8}
        assert catalog.device(model).su_nodes == {"infiniband": 32}


def test_dgx_b300_power_is_the_user_guide_system_maximum(catalog: Catalog) -> None:
    """DGX B300 User Guide, Power Specifications: "15 kW system max." on AC (12 PSUs, N+N) and on
    the 54 V DC busbar; no typical figure is stated, so none is stored."""
    b300 = catalog.device("nvidia-dgx-b300")
    assert (b300.power_max_w, b300.power_typical_w) == (15000, None)
    assert "15 kW system max." in b300.source


def test_gb200_tray_has_4_infiniband_osfp_and_4_bluefield_front_end_ports(catalog: Catalog) -> None:
    """Mission Control GB200 north-south guide (P): BlueField-3 P1/P2 and IB OSFP P3/P4 per bay."""
    tray = catalog.device("nvidia-gb200-nvl72-compute-tray")
    groups = {g.name: g for g in tray.cages}
    assert (groups["compute"].count, groups["compute"].form_factor) == (4, "OSFP")
    assert (groups["frontend"].count, groups["frontend"].form_factor) == (4, "QSFP112")
    assert logical_ports(tray) == ["p1", "p2", "p3", "p4", "fe1", "fe2", "fe3", "fe4"]


def test_a_gpu_to_port_map_must_name_every_gpu_once(catalog: Catalog) -> None:
    dgx = catalog.device("nvidia-dgx-h100").model_dump()
    dgx["cages"][0]["gpu_of_port"] = [0, 1, 2, 3, 4, 5, 6, 6]
    with pytest.raises(ValueError, match="gpu_of_port must name each GPU 0..7 once"):
        DeviceModel.model_validate(dgx)


def test_hgx_server_has_8_x_400g_compute_and_2_x_200g_north_south(catalog: Catalog) -> None:
    hgx = catalog.device("generic-hgx-8-gpu-b3140h")
    compute = next(g for g in hgx.cages if g.name == "compute")
    north_south = next(g for g in hgx.cages if g.name == "north-south")
    assert (compute.count, compute.form_factor, compute.default_breakout) == (
        8,
        "QSFP112",
        "1x400G",
    )
    assert (north_south.count, north_south.form_factor) == (2, "QSFP112")
    assert BreakoutMode.parse(north_south.default_breakout).speed_gbps == 200
    assert sorted(port_speeds(hgx)) == [200] * 2 + [400] * 8
    assert logical_ports(hgx) == [f"p{i}" for i in range(1, 9)] + ["ns1", "ns2"]
    assert hgx.gpus == 8


# ------------------------------------------------------------------------ optics / cables


def test_single_mode_twin_port_reaches(catalog: Catalog) -> None:
    assert catalog.transceiver("nvidia-mms4x00-ns").reach_m.OS2 == 100  # not 500 (R14, R31)
    assert catalog.transceiver("nvidia-mms4x00-nm").reach_m.OS2 == 500
    assert catalog.transceiver("nvidia-mms4x50-nm").reach_m.OS2 == 2000


def test_twin_port_multimode_optic(catalog: Catalog) -> None:
    optic = catalog.transceiver("nvidia-mma4z00-ns")
    assert optic.twin_port and optic.port_gbps == 400 and optic.power_w == 15
    assert optic.reach_m.OM4 == 50 and optic.connector == "MPO-12/APC"
    assert optic.switch_side is True
    nic = catalog.transceiver("nvidia-mma4z00-ns400")
    assert (nic.top, nic.switch_side, nic.twin_port) == ("flat", False, False)


def test_mcp4y10_ladder_and_splitters(catalog: Catalog) -> None:
    dac = catalog.cable("nvidia-mcp4y10")
    assert dac.stock_lengths_m == [0.5, 1, 1.5, 2]
    assert dac.max_length_m == 2 and dac.legs == 1 and dac.leg_gbps == 800
    assert dac.ordered_length(1.2) == 1.5
    assert dac.ordered_length(2.5) is None
    splitter = catalog.cable("nvidia-mcp7y10")
    assert (splitter.legs, splitter.leg_gbps, splitter.b_end.form_factor) == (2, 400, "QSFP112")
    assert catalog.cable("nvidia-mcp7y00").stock_lengths_m == [1, 1.5, 2, 2.5, 3]


def test_fibre_cords_name_connectors_only(catalog: Catalog) -> None:
    for cable in catalog.cables.values():
        if cable.type == "fibre":
            assert cable.a_end.form_factor is None and cable.a_end.connector, cable.id
            assert cable.fibre_grade is not None, cable.id
    assert catalog.cable("nvidia-mfp7e20").legs == 2
    assert catalog.cable("nvidia-mfp7e10").max_length_m == 50


# ------------------------------------------------------------------------------- loader


def test_user_file_with_one_bad_entry_keeps_its_good_entry_and_the_builtins(
    empty_user_dir: Path,
) -> None:
    path = write_catalog(empty_user_dir, "mine.yaml", GOOD_CABLE + BAD_DEVICE)
    result = load_catalog()
    assert "acme-test-dac" in result.catalog
    assert "acme-bad-switch" not in result.catalog
    assert set(builtin_catalog().devices) <= set(result.catalog.devices)
    (problem,) = result.problems
    assert problem.file == str(path)
    assert (problem.entry, problem.entry_id, problem.field) == (
        2,
        "acme-bad-switch",
        "cages.0.lanes",
    )
    assert problem.message == "Input should be greater than or equal to 1"
    assert str(problem) == (
        f"{path}: entry 2 (acme-bad-switch): cages.0.lanes: Input should be greater than or equal to 1"
    )


def test_yaml_syntax_error_is_reported_not_raised(empty_user_dir: Path) -> None:
    path = empty_user_dir / "broken.yaml"
    path.write_text(
        "format: aicnet.catalog\nversion: 1\nentries: [\n  - {id: x\n", encoding="utf-8"
    )
    entries, problems = load_catalog_file(path)
    assert entries == []
    assert len(problems) == 1 and "YAML syntax error" in problems[0].message
    result = load_catalog()
    assert [p.file for p in result.problems] == [str(path)]
    assert "nvidia-qm9700" in result.catalog


@pytest.mark.parametrize(
    ("text", "field", "fragment"),
    [
        ("- just\n- a list\n", "", "top level is a list"),
        ("", "", "empty"),
        (
            "format: something-else\nversion: 1\nentries: []\n",
            "format",
            "expected 'aicnet.catalog'",
        ),
        ("format: aicnet.catalog\nversion: 99\nentries: []\n", "version", "newer"),
        ("format: aicnet.catalog\nversion: 1\nentries: {a: 1}\n", "entries", "expected a list"),
    ],
)
def test_wrong_file_shapes_are_problems(
    tmp_path: Path, text: str, field: str, fragment: str
) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    entries, problems = load_catalog_file(path)
    assert entries == []
    assert len(problems) == 1
    assert problems[0].field == field and fragment in problems[0].message
    assert problems[0].entry is None


def test_unreadable_and_odd_entries_are_problems(tmp_path: Path) -> None:
    entries, problems = load_catalog_file(tmp_path / "missing.yaml")
    assert entries == [] and "cannot read" in problems[0].message
    path = write_catalog(tmp_path, "odd.yaml", "\n  - 42\n  - {id: no-kind}\n  - {kind: router}\n")
    entries, problems = load_catalog_file(path)
    assert entries == []
    assert [(p.entry, p.field) for p in problems] == [(1, ""), (2, "kind"), (3, "kind")]
    assert problems[1].entry_id == "no-kind"
    assert "unknown kind 'router'" in problems[2].message


def test_user_entry_overrides_builtin_id(empty_user_dir: Path) -> None:
    override = GOOD_CABLE.replace("acme-test-dac", "nvidia-mcp4y10").replace(
        "stock_lengths_m: [1, 2]", "stock_lengths_m: [0.5, 1]"
    )
    path = write_catalog(empty_user_dir, "override.yaml", override)
    result = load_catalog()
    assert result.problems == []
    assert result.catalog.cable("nvidia-mcp4y10").stock_lengths_m == [0.5, 1]
    assert result.catalog.origin["nvidia-mcp4y10"] == str(path)
    # the cached built-in catalog is untouched
    assert builtin_catalog().cable("nvidia-mcp4y10").stock_lengths_m == [0.5, 1, 1.5, 2]


def test_extra_dirs_load_after_user_dir_and_duplicates_are_reported(
    empty_user_dir: Path, tmp_path: Path
) -> None:
    extra = tmp_path / "extra"
    (extra / "sub").mkdir(parents=True)
    write_catalog(extra, "a.yaml", GOOD_CABLE)
    write_catalog(extra / "sub", "b.yaml", GOOD_CABLE)
    result = load_catalog(extra_dirs=[extra])
    assert "acme-test-dac" in result.catalog
    (problem,) = result.problems
    assert problem.entry_id == "acme-test-dac" and "duplicate id" in problem.message
    missing = load_catalog(extra_dirs=[tmp_path / "nope"], include_user=False)
    assert [p.message for p in missing.problems] == ["catalog folder not found"]


def test_missing_user_dir_is_not_a_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(USER_CATALOG_ENV, str(tmp_path / "does-not-exist"))
    assert load_catalog().problems == []


def test_builtin_load_is_cached(empty_user_dir: Path) -> None:
    load_catalog()
    before = catalog_loader._load_builtin_cached.cache_info().hits
    load_catalog()
    builtin_catalog()
    assert catalog_loader._load_builtin_cached.cache_info().hits >= before + 2
    # each call hands out its own Catalog, so callers cannot spoil the cache
    assert builtin_catalog() is not builtin_catalog()


def test_problem_str_without_entry() -> None:
    problem = CatalogProblem("catalogs/x.yaml", None, "version", "bad version")
    assert str(problem) == "catalogs/x.yaml: version: bad version"
    problem = CatalogProblem(
        "catalogs/x.yaml", 3, "cages.0.lanes", "Input should be greater than 0", "nvidia-qm9700"
    )
    assert (
        str(problem)
        == "catalogs/x.yaml: entry 3 (nvidia-qm9700): cages.0.lanes: Input should be greater than 0"
    )


def test_yaml_value_errors_are_problems(tmp_path: Path) -> None:
    path = tmp_path / "date.yaml"
    path.write_text(
        "format: aicnet.catalog\nversion: 1\nentries: []\nwhen: 2020-02-30\n", encoding="utf-8"
    )
    entries, problems = load_catalog_file(path)
    assert entries == [] and "YAML value error" in problems[0].message


def test_libyaml_reads_every_builtin_catalog_file_as_the_plain_loader_does():
    """The catalog is read by libyaml when it can (~10x faster); the values and their types
    must be those of the pure-Python safe loader, and an alias is still refused."""
    import yaml

    from aicnet_gui.catalog.loader import AliasRefused, PlainLoader, read_yaml
    from aicnet_gui.paths import data_dir

    def typed(value):  # noqa: ANN001, ANN202
        if isinstance(value, dict):
            return {typed(k): typed(v) for k, v in value.items()}
        if isinstance(value, list):
            return [typed(v) for v in value]
        return type(value).__name__, value

    files = sorted(data_dir("catalogs").rglob("*.yaml"))
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert typed(read_yaml(text)) == typed(yaml.load(text, Loader=PlainLoader)), path  # noqa: S506
    with pytest.raises(AliasRefused):
        read_yaml("a: &x [1, 2]\nb: *x\n")
