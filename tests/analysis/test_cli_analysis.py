"""`aicnet validate` and `aicnet bom`: readable and JSON output, exit codes 0 / 1 / 2."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Build, two_leaf_fabric

from aicnet_gui.cli import main
from aicnet_gui.fileio import save_fabric
from aicnet_gui.model.document import FabricDocument
from tests.doc_edits import update_settings

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "small-hgx.fabric"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_example_is_clean(capsys):
    code, out, _ = run(capsys, "validate", str(EXAMPLE))
    assert code == 0
    assert "0 errors" in out and "oversubscription: leaf 1:1" in out
    assert "workload llm-pretrain" in out and "all-reduce of 1024 MB" in out


def test_validate_json_shape(capsys):
    code, out, _ = run(capsys, "validate", str(EXAMPLE), "--json")
    data = json.loads(out)
    assert code == 0 and set(data) == {"findings", "metrics"}
    assert data["metrics"]["oversubscription"]["switches"] == {"leaf-01": 1.0, "leaf-02": 1.0}
    assert data["metrics"]["oversubscription"]["worst"] == 1.0
    reach = data["metrics"]["reach"]["links"]
    assert len(reach) == 64 and list(reach) == sorted(reach)  # by id, whatever the file's order
    assert data["metrics"]["workloads"][0]["per_gpu_gbps"] == 400


def test_validate_with_errors_exits_1(capsys, tmp_path, catalog):
    doc = FabricDocument(catalog)
    update_settings(doc, technology="rocev2", pfc=False, ecn=False, mtu=9000)
    two_leaf_fabric(Build(doc))
    path = tmp_path / "broken.fabric"
    save_fabric(doc, path)
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1
    assert "Errors (1)" in out and "ROCE-NO-PFC-ECN" in out and "[one-click]" in out
    code, out, _ = run(capsys, "validate", str(path), "--json")
    data = json.loads(out)
    assert code == 1
    (finding,) = [f for f in data["findings"] if f["code"] == "ROCE-NO-PFC-ECN"]
    assert finding["severity"] == "error" and finding["objects"] == []
    assert finding["fix"]["ops"] == [{"op": "UpdateSettings",
                                      "changes": {"pfc": True, "ecn": True, "dcb": True}}]


def test_validate_bad_input_exits_2(capsys, tmp_path):
    bad = tmp_path / "bad.fabric"
    bad.write_text("{not json")
    code, _, err = run(capsys, "validate", str(bad))
    assert code == 2 and str(bad) in err
    code, _, err = run(capsys, "validate", str(tmp_path / "missing.fabric"))
    assert code == 2


def test_bom_table_and_json(capsys):
    code, out, _ = run(capsys, "bom", str(EXAMPLE))
    assert code == 0
    assert "nvidia-mma4z00-ns" in out and "Cost: unknown" in out
    code, out, _ = run(capsys, "bom", str(EXAMPLE), "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) == {"devices", "links", "transceivers", "cables", "power_w", "power_basis",
                         "cost"}
    assert data["links"]["by_tier"] == {"server-leaf": 32, "leaf-spine": 32}
    assert data["transceivers"] == {"nvidia-mma1z00-ns400": 32, "nvidia-mma4z00-ns": 16}
    code, out, _ = run(capsys, "bom", str(EXAMPLE), "--json", "--details")
    assert json.loads(out)["details"]["spares_percent"] == 5.0


def test_bom_bad_input_exits_2(capsys, tmp_path):
    bad = tmp_path / "bad.fabric"
    bad.write_text('{"format": "aicnet.fabric", "schema_version": 1, "links": [{"id": 3}]}')
    code, _, err = run(capsys, "bom", str(bad))
    assert code == 2 and "$.links[0]" in err
