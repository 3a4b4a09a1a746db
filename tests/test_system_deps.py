"""tools/system_deps.py, the check `make run` and `make test` run before they start.

The check runs for real here: on the installed PySide6's offscreen plugin (present, since the
tests run on it), on a copy of that plugin whose dependency on libxkbcommon was renamed to a
library that exists nowhere, and with `pdftoppm` hidden from PATH.  apt-get, dnf and sudo are
replaced by scripts that only record their arguments, so nothing is ever installed.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tools" / "system_deps.py"
FAKE_SONAME = "libnot-there.so.0"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or not shutil.which("ldd"),
                                reason="the library check is for Linux (ldd)")


@pytest.fixture(scope="module")
def deps():
    spec = importlib.util.spec_from_file_location("system_deps", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["system_deps"] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("system_deps", None)


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          env=env, timeout=300)


@pytest.fixture
def recorders(tmp_path) -> tuple[Path, Path]:
    """A bin folder whose apt-get, apt-cache, dnf and sudo only log their arguments."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls.log"
    for name, code in (("apt-get", 0), ("apt-cache", 1), ("dnf", 0), ("sudo", 1)):
        script = bin_dir / name
        script.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\nexit {code}\n')
        script.chmod(0o755)
    return bin_dir, log


def calls(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def test_the_check_finds_the_libraries_qt_offscreen_needs(deps):
    plugin = deps.plugin_file(deps.qt_dir(), "offscreen")
    found, missing = deps.ldd_report(plugin)
    assert missing == []
    assert Path(found["libxkbcommon.so.0"]).is_file()
    assert Path(found["libQt6Gui.so.6"]).is_file()
    loaded, _, output = deps.probe(plugin)
    assert loaded, output

    result = run("--check-only", "offscreen")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_a_library_faked_missing_is_reported_and_nothing_is_installed(deps, tmp_path, recorders):
    real_qt = deps.qt_dir()
    qt = tmp_path / "Qt"
    (qt / "plugins" / "platforms").mkdir(parents=True)
    (qt / "lib").symlink_to(real_qt / "lib")  # the plugin finds Qt through $ORIGIN/../../lib
    data = deps.plugin_file(real_qt, "offscreen").read_bytes()
    assert data.count(b"libxkbcommon.so.0\0") == 1
    deps.plugin_file(qt, "offscreen").write_bytes(
        data.replace(b"libxkbcommon.so.0\0", FAKE_SONAME.encode() + b"\0"))
    bin_dir, log = recorders

    _, missing = deps.ldd_report(deps.plugin_file(qt, "offscreen"))
    assert missing == [FAKE_SONAME]
    loaded, _, output = deps.probe(deps.plugin_file(qt, "offscreen"))
    assert not loaded and FAKE_SONAME in output  # Qt's own loader fails on it too

    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    result = run("--check-only", "--qt", str(qt), "offscreen", env=env)
    assert result.returncode == 1
    assert result.stdout == ""
    assert f"Qt's offscreen platform plugin (to draw windows without a screen, as the tests do) " \
           f"cannot load without {FAKE_SONAME}" in result.stderr
    assert "libX11.so.6" not in result.stderr  # present libraries are not reported
    assert "then run make again" in result.stderr
    assert calls(log) == []


def test_pdftoppm_faked_missing_names_the_package_and_installs_only_through_the_manager(
        deps, recorders):
    manager = deps.package_manager()
    if manager is None:
        pytest.skip("neither a Debian/Ubuntu nor a Fedora/RHEL system")
    bin_dir, log = recorders
    env = dict(os.environ, PATH=str(bin_dir))  # no pdftoppm anywhere on PATH

    result = run("pdftoppm", env=env)

    assert result.returncode == 1
    assert "`pdftoppm` (turns cabling-plan PDF pages into PNGs) is not installed" in result.stderr
    wait = "-o DPkg::Lock::Timeout=300"
    install = ([f"apt-get {wait} install -y -q --no-install-recommends poppler-utils"]
               if manager == "apt" else ["dnf install -y poppler-utils"])
    if os.geteuid() == 0:  # root installs (here: the recorder), checks again, still misses it
        assert calls(log) == ([f"apt-get {wait} update -q"] if manager == "apt" else []) + install
        assert "still missing after installing" in result.stderr
    else:  # the recording sudo refuses `sudo -n true`: no rights, so the command is named
        assert calls(log) == ["sudo -n true"]
        assert f"sudo {'apt-get' if manager == 'apt' else 'dnf'} install -y poppler-utils" \
            in result.stderr


def test_make_run_without_a_display_says_so_in_one_line():
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}

    result = run("gui", env=env)

    assert result.returncode == 1
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "there is no display" in result.stderr
    assert "xvfb-run -a make run" in result.stderr
    assert "--screenshot" in result.stderr


def test_an_unreachable_display_is_one_line_not_qts_abort(deps):
    _, missing = deps.ldd_report(deps.plugin_file(deps.qt_dir(), "xcb"))
    if missing:
        pytest.skip(f"the xcb plugin's libraries are not installed here: {missing}")
    env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["DISPLAY"] = ":97531"

    result = run("--check-only", "gui", env=env)

    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("make run: Qt cannot open a window on DISPLAY=:97531 "
                               "(qt.qpa.xcb: could not connect to display :97531)")
    assert "xvfb-run -a make run" in lines[0]


def test_packages_are_named_for_apt_and_dnf(deps):
    problems = deps.Problems(libraries={s: "Qt" for s in (
        "libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-shape.so.0", "libxcb-randr.so.0",
        FAKE_SONAME)}, tools=["pdftoppm"])

    apt = deps.packages_for(problems, "apt")
    dnf = deps.packages_for(problems, "dnf")

    if not shutil.which("apt-file"):
        assert apt == (["libxcb-cursor0", "libxcb-icccm4", "libxcb-shape0", "libxcb-randr0",
                        "poppler-utils"], [FAKE_SONAME])
    assert dnf == (["xcb-util-cursor", "xcb-util-wm", "libxcb", f"{FAKE_SONAME}()(64bit)",
                    "poppler-utils"], [])
    assert deps.shown_command("dnf", dnf[0]).endswith(
        f"dnf install -y xcb-util-cursor xcb-util-wm libxcb '{FAKE_SONAME}()(64bit)' poppler-utils")


def test_the_table_names_the_debian_packages_that_own_the_libraries(deps):
    if not shutil.which("dpkg-query"):
        pytest.skip("not a Debian system")
    qt = deps.qt_dir()
    found: dict[str, str] = {}
    for name in ("offscreen", "xcb", "wayland"):
        found.update(deps.ldd_report(deps.plugin_file(qt, name))[0])
    checked = 0
    for soname, path in found.items():
        if soname not in deps.PACKAGES:
            continue
        owner = _debian_owner(Path(path))
        table = deps.PACKAGES[soname][0]
        assert owner in (table, deps.DEBIAN_RENAMED.get(table)), soname
        checked += 1
    assert checked >= 10


def _debian_owner(path: Path) -> str:
    """The package that installed `path` (dpkg knows it under /lib or /usr/lib: usrmerge)."""
    real = Path(os.path.realpath(path))
    for candidate in (path, path.parent / real.name, real):
        run = subprocess.run(["dpkg-query", "-S", str(candidate)], capture_output=True, text=True)
        if run.returncode == 0:
            return run.stdout.split(":")[0]
    return ""


@pytest.mark.parametrize(("text", "manager"), [
    ('ID=debian\nVERSION_ID="12"\n', "apt"),
    ("ID=ubuntu\nID_LIKE=debian\n", "apt"),
    ('ID=linuxmint\nID_LIKE="ubuntu debian"\n', "apt"),
    ("ID=fedora\n", "dnf"),
    ('ID="rhel"\nID_LIKE="fedora"\n', "dnf"),
    ('ID="rocky"\nID_LIKE="rhel centos fedora"\n', "dnf"),
    ("ID=arch\n", None),
])
def test_the_package_manager_follows_os_release(deps, tmp_path, text, manager):
    os_release = tmp_path / "os-release"
    os_release.write_text(text)
    assert deps.package_manager(os_release) == manager


def test_the_platform_qt_will_use(deps):
    assert deps.gui_platform({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"}) == "offscreen"
    assert deps.gui_platform({"QT_QPA_PLATFORM": "wayland;xcb"}) == "wayland"
    assert deps.gui_platform({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}) == "xcb"
    assert deps.gui_platform({"WAYLAND_DISPLAY": "wayland-0"}) == "wayland"
    assert deps.gui_platform({}) is None
