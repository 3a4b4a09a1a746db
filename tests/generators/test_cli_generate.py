"""`aicnet generate`: writes a fabric that loads and validates, prints a summary, and refuses
bad parameters with exit code 2 and a message that says why."""

from __future__ import annotations

import json

import pytest

from aicnet_gui.cli import main
from aicnet_gui.fileio import load_fabric


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_generate_writes_a_fabric_that_validates(tmp_path, capsys, catalog):
    out = tmp_path / "pod.fabric"
    code, text, _ = run(capsys, "generate", "rail-optimized", "--sus", "2", "--nodes-per-su", "32",
                        "--server", "nvidia-dgx-h100", "--leaf", "nvidia-qm9700",
                        "--spine", "nvidia-qm9700", "-o", str(out))
    assert code == 0
    assert "gpu_server   64" in text and "leaf-spine   512" in text and "racks:" in text
    doc = load_fabric(out, catalog)
    assert len(doc.devices) == 64 + 16 + 8
    code, text, err = run(capsys, "validate", str(out))
    assert code == 0, text + err


def test_two_tier_options_and_json(tmp_path, capsys):
    out = tmp_path / "inf.fabric"
    code, text, _ = run(capsys, "generate", "two-tier", "--servers", "48",
                        "--server", "generic-hgx-8-gpu-b3140h", "--leaf", "nvidia-sn5600",
                        "--spine", "nvidia-sn5600", "--oversubscription", "3:1", "--attach", "tor",
                        "--technology", "ethernet", "--workload", "inference", "--json",
                        "-o", str(out))
    assert code == 0
    data = json.loads(text)
    assert data["devices_by_role"] == {"gpu_server": 48, "leaf": 4, "spine": 2}
    assert data["links_by_tier"] == {"server-leaf": 384, "leaf-spine": 128}
    assert data["technology"] == "ethernet" and data["file"] == str(out)


def test_three_tier_options(tmp_path, capsys):
    out = tmp_path / "big.fabric"
    code, text, _ = run(capsys, "generate", "three-tier", "--servers", "64", "--leaf",
                        "nvidia-qm9700", "--core", "nvidia-qm9700", "--leaves-per-pod", "8",
                        "--no-media", "-o", str(out))
    assert code == 0
    assert "spine-core" in text and "transceivers" not in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["rail-optimized", "--sus", "80", "--leaf", "nvidia-qm9700", "--spine", "nvidia-qm9700",
          "--tiers", "2"], "QM9700 has 64 ports at 400G"),
        (["rail-optimized", "--sus", "1", "--nodes-per-su", "40", "--leaf", "nvidia-qm9700"],
         "an SU holds at most 32 nodes"),
        (["two-tier", "--servers", "0"], "--servers: input should be greater than or equal to 1"),
        (["two-tier", "--servers", "8", "--leaf", "nvidia-sn5600", "--spine", "nvidia-qm9700"],
         "do not share a technology"),
        (["two-tier", "--servers", "8", "--server", "nope"], "server model 'nope' is not in"),
        (["two-tier", "--servers", "8", "--oversubscription", "0.5"],
         "--oversubscription: input should be greater than or equal to 1"),
        (["three-tier", "--servers", "64", "--leaves-per-pod", "5", "--leaf", "nvidia-qm9700"],
         "must be a multiple of the 8 leaves"),
        (["rail-optimized", "--sus", "1", "--rack-kw", "5"], "more than the 5 kW rack budget"),
    ],
)
def test_bad_parameters_exit_2_with_the_reason(tmp_path, capsys, argv, message):
    out = tmp_path / "x.fabric"
    code, _, err = run(capsys, "generate", *argv, "-o", str(out))
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    assert not out.exists()


def test_usage_errors_exit_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["generate", "two-tier", "--servers", "8", "--oversubscription", "1:0",
              "-o", str(tmp_path / "x.fabric")])
    assert exc.value.code == 2
    assert "uplink side of the ratio is zero" in capsys.readouterr().err
    code, _, err = run(capsys, "generate", "two-tier", "--servers", "8", "-o",
                       str(tmp_path / "x.json"))
    assert code == 2 and "must end in .fabric" in err
