"""Check, and where it can, install the system software `make run` and `make test` need.

    python tools/system_deps.py [--check-only] [--qt DIR] NEED...

NEEDs: `offscreen`, `xcb`, `wayland` (Qt can load that platform plugin), `gui` (a display, and
the platform plugin Qt will use on it: the one QT_QPA_PLATFORM names, else xcb for DISPLAY,
else wayland for WAYLAND_DISPLAY) and `pdftoppm` (poppler's PDF-page-to-PNG tool).

Each need is tested for real: a child Python asks Qt's QPluginLoader to load the plugin file
(the same dlopen Qt does when it starts), `ldd` lists every shared library of the plugin that
the dynamic linker cannot find, and for a display a child opens a QGuiApplication on it.
Missing libraries are mapped to packages (a table of the sonames Qt's plugins use; apt-file
or the RPM soname capability for others) and installed with apt-get (Debian/Ubuntu) or dnf
(Fedora/RHEL) when that needs no password: as root, or with `sudo -n`.  Otherwise, or on
another system, the script prints one message naming the command to run and exits 1.  With
`--check-only` it never installs.  Standard library only; Qt is imported only in the child.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path

# soname -> (Debian/Ubuntu package, Fedora/RHEL package): every system library in the closure
# of PySide6's offscreen, xcb and wayland platform plugins (`ldd libq*.so`).
PACKAGES: dict[str, tuple[str, str]] = {
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libGLX.so.0": ("libglx0", "libglvnd-glx"),
    "libGLdispatch.so.0": ("libglvnd0", "libglvnd"),
    "libOpenGL.so.0": ("libopengl0", "libglvnd-opengl"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libgthread-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libXau.so.6": ("libxau6", "libXau"),
    "libXdmcp.so.6": ("libxdmcp6", "libXdmcp"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb-xinerama.so.0": ("libxcb-xinerama0", "libxcb"),
    "libxcb-xinput.so.0": ("libxcb-xinput0", "libxcb"),
    "libxcb-glx.so.0": ("libxcb-glx0", "libxcb"),
    "libwayland-client.so.0": ("libwayland-client0", "libwayland-client"),
    "libwayland-cursor.so.0": ("libwayland-cursor0", "libwayland-cursor"),
    "libwayland-egl.so.1": ("libwayland-egl1", "libwayland-egl"),
    "libpng16.so.16": ("libpng16-16", "libpng"),
    "libexpat.so.1": ("libexpat1", "expat"),
    "libpcre2-8.so.0": ("libpcre2-8-0", "pcre2"),
    "libzstd.so.1": ("libzstd1", "libzstd"),
    "libdrm.so.2": ("libdrm2", "libdrm"),
}
# Debian 13 and Ubuntu 24.04 renamed some library packages for the 64-bit time_t transition.
DEBIAN_RENAMED = {"libglib2.0-0": "libglib2.0-0t64", "libpng16-16": "libpng16-16t64"}
# tool -> (what it is for, Debian/Ubuntu package, Fedora/RHEL package)
TOOLS: dict[str, tuple[str, str, str]] = {
    "pdftoppm": ("turns cabling-plan PDF pages into PNGs", "poppler-utils", "poppler-utils"),
}
APP_MODULES = ("QtCore", "QtGui", "QtWidgets", "QtSvg")
PLUGIN_USE = {
    "offscreen": "to draw windows without a screen, as the tests do",
    "xcb": "to open windows on X11",
    "wayland": "to open windows on Wayland",
}

# Runs in a child Python: load the plugin file with Qt's own loader, then (given a platform)
# start a QGuiApplication on it, which connects to the display.
_PROBE = r"""
import sys
from PySide6.QtCore import QPluginLoader
loader = QPluginLoader(sys.argv[1])
if not loader.load():
    print(loader.errorString())
    sys.exit(3)
print("plugin loaded", flush=True)
if len(sys.argv) > 2:
    from PySide6.QtGui import QGuiApplication
    app = QGuiApplication(["aicnet-probe", "-platform", sys.argv[2]])
    print("display opened:", app.platformName())
"""
# apt-get waits this long for another apt (an unattended upgrade) instead of failing at once.
APT_WAIT = ("-o", "DPkg::Lock::Timeout=300")
_SONAME_ERROR = re.compile(r"([\w.+-]+\.so[\w.]*): cannot open shared object file")


@dataclass
class Problems:
    """What is missing: libraries and tools with the reason each is needed."""

    libraries: dict[str, str] = field(default_factory=dict)  # soname -> what needs it
    tools: list[str] = field(default_factory=list)
    unexplained: list[str] = field(default_factory=list)  # failures naming no library
    display: str = ""  # set when there is no display to open the window on

    def __bool__(self) -> bool:
        return bool(self.libraries or self.tools or self.unexplained or self.display)


def qt_dir() -> Path:
    """The Qt folder of the PySide6 this Python would import (without importing it)."""
    spec = find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("system_deps: PySide6 is not installed in this Python "
                         f"({sys.executable}); run it with the project's .venv/bin/python")
    return Path(next(iter(spec.submodule_search_locations))) / "Qt"


def plugin_file(qt: Path, name: str) -> Path:
    return qt / "plugins" / "platforms" / f"libq{name}.so"


def app_modules(qt: Path) -> list[Path]:
    """PySide6's modules aicnet imports (beside the plugin they load more Qt libraries)."""
    return [path for module in APP_MODULES for path in sorted(qt.parent.glob(f"{module}.*.so"))]


def ldd_report(path: Path) -> tuple[dict[str, str], list[str]]:
    """(soname -> resolved path, sonames not found) for `path` and everything it loads."""
    if not shutil.which("ldd"):
        return {}, []
    out = subprocess.run(["ldd", str(path)], capture_output=True, text=True).stdout
    found: dict[str, str] = {}
    missing: list[str] = []
    for line in out.splitlines():
        name, sep, target = line.strip().partition(" => ")
        if not sep:
            continue
        if target.strip() == "not found":
            if name not in missing:
                missing.append(name)
        else:
            found[name] = target.split(" (")[0]
    return found, missing


def probe(plugin: Path, connect: str | None = None) -> tuple[bool, bool, str]:
    """(plugin loaded, display opened, output) from a child Python that asks Qt itself."""
    args = [sys.executable, "-c", _PROBE, str(plugin)] + ([connect] if connect else [])
    try:
        run = subprocess.run(args, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return False, False, f"Qt did not answer within 120 s while loading {plugin.name}"
    output = (run.stdout + run.stderr).strip()
    loaded = "plugin loaded" in run.stdout
    return loaded, loaded and run.returncode == 0 and "display opened" in run.stdout, output


def check_plugin(qt: Path, name: str, problems: Problems, connect: bool = False) -> None:
    """Record what keeps Qt from loading platform plugin `name` (and, if asked, its display)."""
    plugin = plugin_file(qt, name)
    if not plugin.is_file():
        problems.unexplained.append(f"Qt has no {name} platform plugin ({plugin} is not there)")
        return
    loaded, opened, output = probe(plugin, name if connect else None)
    missing: list[str] = []
    for path in [plugin, *app_modules(qt)]:
        missing += [s for s in ldd_report(path)[1] if s not in missing]
    missing += [s for s in _SONAME_ERROR.findall(output) if s not in missing]
    why = f"Qt's {name} platform plugin ({PLUGIN_USE.get(name, 'to start')})"
    for soname in missing:
        problems.libraries.setdefault(soname, why)
    if not loaded and not missing:
        problems.unexplained.append(f"Qt cannot load its {name} platform plugin: "
                                    + (output.splitlines() or ["no message"])[-1])
    elif loaded and connect and not opened:
        problems.display = (f"make run: Qt cannot open a window on {_display_names()} "
                            f"({_qt_complaint(output)}): is that display running? Or run it "
                            f"{WITHOUT_DISPLAY}")


def _display_names() -> str:
    shown = [f"{k}={os.environ[k]}" for k in ("DISPLAY", "WAYLAND_DISPLAY") if os.environ.get(k)]
    return ", ".join(shown) or "none"


def _qt_complaint(output: str) -> str:
    lines = [line for line in output.splitlines() if line and "plugin loaded" not in line]
    telling = [line for line in lines if "connect" in line or line.startswith("qt.qpa")]
    return (telling or lines or ["no message"])[0]


def gui_platform(env: dict[str, str]) -> str | None:
    """The platform plugin Qt will start with, or None when there is nothing to show on."""
    requested = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if requested:
        return requested
    if env.get("DISPLAY"):
        return "xcb"
    if env.get("WAYLAND_DISPLAY"):
        return "wayland"
    return None


WITHOUT_DISPLAY = ("under a virtual X server: `xvfb-run -a make run` (package xvfb); or render "
                   "the window to a picture: `QT_QPA_PLATFORM=offscreen .venv/bin/aicnet-gui "
                   "--screenshot window.png examples/small-hgx.fabric`")


def no_display_message() -> str:
    return ("make run: there is no display to open the window on (DISPLAY and WAYLAND_DISPLAY "
            "are unset): run it in a desktop session, over `ssh -X`, or " + WITHOUT_DISPLAY)


def check(needs: list[str], qt: Path | None, env: dict[str, str]) -> Problems:
    problems = Problems()
    linux = sys.platform.startswith("linux")
    for need in needs:
        if need in TOOLS:
            if not _tool_works(need):
                problems.tools.append(need)
        elif need == "gui":
            name = gui_platform(env)
            if name is None or (name == "xcb" and not env.get("DISPLAY")) or (
                    name == "wayland" and not env.get("WAYLAND_DISPLAY")):
                problems.display = no_display_message()
            elif linux:
                check_plugin(qt or qt_dir(), name, problems,
                             connect=name in ("xcb", "wayland"))
        elif linux:  # a platform plugin; macOS and Windows wheels carry their own libraries
            check_plugin(qt or qt_dir(), need, problems)
    return problems


def _tool_works(tool: str) -> bool:
    path = shutil.which(tool)
    if path is None:
        return False
    try:
        return subprocess.run([path, "-v"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def package_manager(os_release: Path = Path("/etc/os-release")) -> str | None:
    """'apt' on Debian and Ubuntu (and their derivatives), 'dnf' on Fedora and RHEL, else None."""
    try:
        text = os_release.read_text()
    except OSError:
        return None
    ids: set[str] = set()
    for line in text.splitlines():
        key, _, value = line.partition("=")
        if key in ("ID", "ID_LIKE"):
            ids.update(value.strip().strip('"').split())
    if ids & {"debian", "ubuntu"}:
        return "apt"
    if ids & {"fedora", "rhel", "centos"}:
        return "dnf"
    return None


def packages_for(problems: Problems, manager: str) -> tuple[list[str], list[str]]:
    """(packages to install, sonames no package is known for) with `manager`'s names."""
    column = 0 if manager == "apt" else 1
    packages: list[str] = []
    unknown: list[str] = []
    for soname in problems.libraries:
        name = PACKAGES[soname][column] if soname in PACKAGES else _search_package(soname, manager)
        if name is None:
            unknown.append(soname)
        elif name not in packages:
            packages.append(name)
    for tool in problems.tools:
        name = TOOLS[tool][1 + column]
        if name not in packages:
            packages.append(name)
    if manager == "apt":
        packages = [_debian_name(p) for p in packages]
    return packages, unknown


def _search_package(soname: str, manager: str) -> str | None:
    if manager == "dnf":  # RPM gives every shared library a capability named after its soname
        return f"{soname}()(64bit)" if sys.maxsize > 2**32 else soname
    if shutil.which("apt-file"):
        out = subprocess.run(["apt-file", "search", "--regexp", f"/{re.escape(soname)}$"],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            return line.split(":")[0]
    return None


def _debian_name(package: str) -> str:
    renamed = DEBIAN_RENAMED.get(package)
    if renamed and shutil.which("apt-cache") and not _apt_knows(package) and _apt_knows(renamed):
        return renamed
    return package


def _apt_knows(package: str) -> bool:
    run = subprocess.run(["apt-cache", "show", "--no-all-versions", package],
                         capture_output=True, text=True)
    return run.returncode == 0 and bool(run.stdout.strip())


def privilege() -> list[str] | None:
    """The prefix that runs a command as root without asking for a password, or None."""
    if os.geteuid() == 0:
        return []
    sudo = shutil.which("sudo")
    if sudo and subprocess.run([sudo, "-n", "true"], capture_output=True).returncode == 0:
        return ["sudo", "-n"]
    return None


def install_command(manager: str, packages: list[str]) -> list[str]:
    if manager == "apt":
        return ["apt-get", *APT_WAIT, "install", "-y", "-q", "--no-install-recommends", *packages]
    return ["dnf", "install", "-y", *packages]


def shown_command(manager: str | None, packages: list[str]) -> str:
    """The command that installs `packages` (with sudo, when not root and sudo is there)."""
    prefix = "sudo " if os.geteuid() != 0 and shutil.which("sudo") else ""
    if manager == "apt":
        return prefix + "apt-get install -y " + " ".join(packages)
    if manager == "dnf":
        return prefix + "dnf install -y " + " ".join(_shell_word(p) for p in packages)
    return ""


def _shell_word(word: str) -> str:
    return f"'{word}'" if any(c in word for c in "()*") else word


def install(manager: str, packages: list[str], prefix: list[str]) -> bool:
    """Install `packages`, printing what runs; True when the package manager succeeded."""
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    env_words = ["env", "DEBIAN_FRONTEND=noninteractive"] if prefix and manager == "apt" else []
    commands = [install_command(manager, packages)]
    if manager == "apt":
        commands.insert(0, ["apt-get", *APT_WAIT, "update", "-q"])
    for command in commands:
        full = prefix + env_words + command
        print("system_deps: " + " ".join(full), flush=True)
        if subprocess.run(full, env=env, stdin=subprocess.DEVNULL).returncode != 0:
            return False
    return True


def describe(problems: Problems) -> str:
    parts = []
    by_need: dict[str, list[str]] = {}
    for soname, why in problems.libraries.items():
        by_need.setdefault(why, []).append(soname)
    for why, sonames in by_need.items():
        parts.append(f"{why} cannot load without {', '.join(sonames)}")
    for tool in problems.tools:
        parts.append(f"`{tool}` ({TOOLS[tool][0]}) is not installed")
    parts += problems.unexplained
    return "; ".join(parts)


def remedy(problems: Problems, manager: str | None) -> str:
    """The message naming the command that installs what is missing."""
    if manager is None:
        system = "macOS" if sys.platform == "darwin" else "this system"
        tools = [f"{t} (Debian/Fedora package {TOOLS[t][1]})" for t in problems.tools]
        wanted = list(problems.libraries) + tools
        return (f"Install the packages of {system} that provide {', '.join(wanted)}"
                + (" (with Homebrew: brew install poppler)" if sys.platform == "darwin"
                   and problems.tools else "") + ", then run make again.")
    packages, unknown = packages_for(problems, manager)
    if not packages and not unknown:
        return "No package can be named for this."
    lines = []
    if packages:
        who = " as root" if os.geteuid() != 0 and not shutil.which("sudo") else ""
        lines.append(f"Install them{who} with:  {shown_command(manager, packages)}")
    for soname in unknown:
        lines.append(f"No package is known here for {soname}; `apt-file search {soname}` "
                     "names it (apt-get install -y apt-file && apt-file update).")
    return "\n".join(lines + ["then run make again."])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="system_deps", description=__doc__.splitlines()[0])
    parser.add_argument("needs", nargs="+", metavar="NEED",
                        choices=["gui", "offscreen", "xcb", "wayland", *TOOLS])
    parser.add_argument("--check-only", action="store_true", help="report, never install")
    parser.add_argument("--qt", type=Path, help="the Qt folder to check (default: PySide6's)")
    args = parser.parse_args(argv)
    env = dict(os.environ)

    problems = check(args.needs, args.qt, env)
    if problems.display:  # nothing to install fixes this; say it first and only
        print(problems.display, file=sys.stderr)
        return 1
    if not problems:
        return 0
    manager = package_manager() if sys.platform.startswith("linux") else None
    packages, unknown = packages_for(problems, manager) if manager else ([], [])
    prefix = privilege() if manager and packages and not problems.unexplained else None
    if args.check_only or prefix is None:
        print(f"make: missing system software: {describe(problems)}.\n"
              f"{remedy(problems, manager)}", file=sys.stderr)
        return 1
    print(f"system_deps: installing {' '.join(packages)} ({describe(problems)})", flush=True)
    installed = install(manager, packages, prefix)
    problems = check(args.needs, args.qt, env)
    if problems.display:
        print(problems.display, file=sys.stderr)
        return 1
    if not problems:
        return 0
    state = "still missing after installing" if installed else "could not be installed"
    print(f"make: system software {state}: {describe(problems)}.\n"
          f"{remedy(problems, manager)}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
