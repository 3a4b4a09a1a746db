"""The wheel carries the catalogs, resources and examples, and works outside the checkout.

Builds the wheel, installs it (without dependencies) into a fresh virtual environment that
borrows the test environment's third-party packages, and runs the installed `aicnet` and
`aicnet-gui` from a folder far from the checkout.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True, capture_output=True,
    )
    return next(out.glob("aicnet-*.whl"))


def test_wheel_contains_data_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "aicnet_gui/_data/catalogs/devices/nvidia-switches.yaml" in names
    assert "aicnet_gui/_data/examples/small-hgx.fabric" in names
    assert any(n.startswith("aicnet_gui/_data/resources/") for n in names)


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    env_dir = tmp_path_factory.mktemp("venv") / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    env_python = env_dir / "bin" / "python"
    purelib = subprocess.run([str(env_python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    # Third-party packages come from the test environment; aicnet itself only from the wheel.
    borrowed = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (Path(purelib) / "borrowed.pth").write_text("\n".join(borrowed) + "\n")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", purelib, str(wheel)],
                   check=True, capture_output=True)
    bin_dir = env_dir / "bin"
    for script in ("aicnet", "aicnet-gui"):
        (bin_dir / script).write_text(
            f"#!{env_python}\nimport sys\n"
            + ("from aicnet_gui.cli import main\n" if script == "aicnet" else "from aicnet_gui.gui.app import main\n")
            + "sys.exit(main())\n"
        )
        (bin_dir / script).chmod(0o755)
    return env_dir


def _run(env_dir: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env["QT_QPA_PLATFORM"] = "offscreen"
    return subprocess.run([str(env_dir / "bin" / args[0]), *args[1:]], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_installed_wheel_runs_outside_the_checkout(installed, tmp_path):
    where = _run(installed, tmp_path, "python", "-c", "import aicnet_gui; print(aicnet_gui.__file__)")
    assert where.returncode == 0, where.stderr
    assert str(ROOT) not in where.stdout and str(installed) in where.stdout

    listing = _run(installed, tmp_path, "aicnet", "catalog", "list")
    assert listing.returncode == 0, listing.stderr
    assert "nvidia-qm9700" in listing.stdout

    example = tmp_path / "small-hgx.fabric"
    shutil.copy(ROOT / "examples" / "small-hgx.fabric", example)
    check = _run(installed, tmp_path, "aicnet", "validate", str(example))
    assert check.returncode == 0, check.stdout + check.stderr

    shot = tmp_path / "shot.png"
    gui = _run(installed, tmp_path, "aicnet-gui", "--screenshot", str(shot), str(example))
    assert gui.returncode == 0, gui.stderr
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
