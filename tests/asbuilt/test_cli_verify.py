"""`aicnet verify`: exit 0 as built = as designed, 1 differences, 2 bad input; the re-work list
by rack with cable numbers and label identifiers, as text, JSON, CSV and PDF."""

from __future__ import annotations

import csv
import json

from aicnet_gui.cli import main

from . import captures as sim
from .conftest import DATA, EXAMPLES, namer_for, open_example

PLAN = str(EXAMPLES / "superpod-1su.fabric")


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _ibnet(catalog, tmp_path, seed=None) -> str:
    doc = open_example(catalog, "superpod-1su.fabric")
    links = sim.planned_links(doc)
    if seed:
        seed(links)
    path = tmp_path / "ib.txt"
    path.write_text(sim.ibnetdiscover_text(doc, links, namer_for(doc, catalog)))
    return str(path)


def test_exact_observation_exits_0(capsys, catalog, tmp_path):
    code, out, _ = _run(capsys, "verify", PLAN, "--ibnetdiscover", _ibnet(catalog, tmp_path))
    assert code == 0
    assert "512 planned links checked, 512 as planned, 0 differences" in out
    assert "As built = as designed." in out


def _drop_first(links):
    del links[0]


def test_differences_exit_1_with_rack_cable_number_and_labels(capsys, catalog, tmp_path):
    ib = _ibnet(catalog, tmp_path, _drop_first)
    out_csv, out_pdf = tmp_path / "rework.csv", tmp_path / "rework.pdf"
    code, out, _ = _run(capsys, "verify", PLAN, "--ibnetdiscover", ib, "--csv", str(out_csv),
                        "--pdf", str(out_pdf))
    assert code == 1
    lines = out.splitlines()
    rack = lines.index("Rack R01-01")
    # link-1 is GPU 0's NIC, p8 = OSFP4P2 (DGX H100 User Guide, Table 6), on the rail-1 leaf
    assert lines[rack + 1] == ("  [missing] C000032: gpu-001:p8 - leaf-01:1/1 is not cabled "
                               "(not seen)")
    assert lines[rack + 2] == "      labels: 1A.A01-01:p8/1A.A06-46:1-1"
    with open(out_csv, encoding="utf-8-sig") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["Rack"], r["Kind"], r["Cables"], r["Links"]) for r in rows] == [
        ("R01-01", "missing", "C000032", "link-1")]
    assert out_pdf.read_bytes().startswith(b"%PDF")


def test_json(capsys, catalog, tmp_path):
    code, out, _ = _run(capsys, "verify", PLAN, "--ibnetdiscover",
                        _ibnet(catalog, tmp_path, _drop_first), "--json")
    data = json.loads(out)
    assert code == 1
    assert data["summary"]["by_kind"] == {"missing": 1}
    assert data["rework"][0]["labels"] == ["1A.A01-01:p8/1A.A06-46:1-1"]
    assert data["rework"][0]["links"] == ["link-1"]


def test_lldp_folder_and_host_map(capsys, catalog, tmp_path):
    doc = open_example(catalog, "small-hgx.fabric")
    outputs = sim.lldp_outputs(doc, sim.planned_links(doc), namer_for(doc, catalog))
    renamed = {("dgx-a01-01" if host == "gpu-001" else host): body
               for host, body in outputs.items()}
    text = json.dumps(renamed).replace('"gpu-001"', '"dgx-a01-01"').replace(
        '"gpu-002"', '"dgx-a01-02"')
    merged = tmp_path / "all.json"
    merged.write_text(text)
    plan = str(EXAMPLES / "small-hgx.fabric")
    code, out, _ = _run(capsys, "verify", plan, "--lldp", str(merged))
    assert code == 1 and "dgx-a01-01 is not a device of the design" in out
    code, out, _ = _run(capsys, "verify", plan, "--lldp", str(merged),
                        "--map", str(DATA / "hostmap.csv"))
    assert code == 0, out


def test_bad_input_exits_2_naming_file_and_place(capsys, tmp_path):
    bad = tmp_path / "leaf-01.json"
    bad.write_text('{"lldp": {"interface": {"swp1": {"chassis": {"x": {}}}}}}')
    code, out, err = _run(capsys, "verify", PLAN, "--lldp", str(bad))
    assert code == 2 and out == ""
    assert err == f"aicnet: error: {bad}: $.lldp.interface.swp1.port: Field required\n"
    code, _, err = _run(capsys, "verify", PLAN, "--netbox-cables", str(tmp_path / "none.csv"))
    assert code == 2 and "none.csv: no such file" in err


def test_export_with_os_port_names(capsys, tmp_path):
    out = tmp_path / "schedule.csv"
    p2p, netbox = tmp_path / "p2p.csv", tmp_path / "netbox"
    code, _, _ = _run(capsys, "export", PLAN, "--port-names", "os", "--csv", str(out),
                      "--p2p", str(p2p), "--netbox", str(netbox))
    assert code == 0
    with open(out, encoding="utf-8-sig") as handle:
        rows = {r["Link id"]: r for r in csv.DictReader(handle)}
    first = rows["link-1"]
    assert (first["A device"], first["A port"], first["B device"], first["B port"]) == \
        ("gpu-001", "mlx5_0", "leaf-01", "1/1/1")  # p8 = OSFP4P2 = mlx5_0, GPU 0 (Table 6)
    assert first["Label text A"].endswith(":mlx5_0/1A.A06-46:1-1-1")
    with open(p2p, encoding="utf-8") as handle:
        # CVT 1.4-1.6: an HCA port is its number in the default mapping (1 -> mlx5_0 P1)
        assert "gpu-001,Host,1,leaf-01,Switch,1/1/1," in handle.read()
    # NetBox 4.5 layout: the QM9700 device type carries the OS port names the cables use
    qm9700 = (netbox / "device-types" / "Nvidia" / "QM9700.yaml").read_text(encoding="utf-8")
    assert "- name: 1/1/1\n  type: infiniband-ndr\n" in qm9700
    with open(netbox / "cables.csv", encoding="utf-8") as handle:
        assert ",gpu-001,dcim.interface,mlx5_0,1A,leaf-01,dcim.interface,1/1/1," in handle.read()
    code, _, _ = _run(capsys, "export", PLAN, "--csv", str(out))
    with open(out, encoding="utf-8-sig") as handle:
        first = next(r for r in csv.DictReader(handle) if r["Link id"] == "link-1")
    assert (first["A port"], first["B port"]) == ("p8", "1/1")
