"""Every output a user gets, written to a folder, so two trees can be compared byte for byte.

A refactoring that must not change behaviour (issue 34: the export and template registries, the
media package) runs this before and after and compares the folders:

- `aicnet export` of every example with every output at once (and `--netbox-layout 4.4`,
  `--port-names os`), with what it prints; `aicnet export --help`;
- the editor's File > Export path (`gui/dialogs/export_dialog.export_job`, the function its
  worker runs) for every format of the dialog, with the message it shows;
- `aicnet generate` for every template (a few sizes, technologies and media choices), the
  `.fabric` written and the `--json` summary; `aicnet generate TEMPLATE --help`;
- `aicnet validate --json` and `aicnet bom --json` of the examples and of the generated designs.

Timestamps are the only expected difference: the PDF's creation date and document id (the
script runs reportlab invariant, `RL_invariant=1`), the CVT workbook's created date (its
`docProps/core.xml`, compared without the date), the zip members' times (the members'
contents are compared, not the zip bytes) and a generated design's `created` / `modified`.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/outputs_snapshot.py write DIR
    .venv/bin/python benchmarks/outputs_snapshot.py compare BEFORE AFTER   # exit 1 on a difference
"""

from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.fabric"))
AICNET = [sys.executable, "-m", "aicnet_gui.cli"]
#: (name, argv after `aicnet generate`): every template, both technologies, with and without media
GENERATE = [
    ("two-tier-64", ["two-tier", "--servers", "64"]),
    ("two-tier-tor-3to1", ["two-tier", "--servers", "48", "--attach", "tor",
                           "--oversubscription", "3:1", "--leaf", "nvidia-sn5600"]),
    ("rail-1su", ["rail-optimized", "--sus", "1"]),
    ("rail-4su-core", ["rail-optimized", "--sus", "4", "--tiers", "3", "--core", "nvidia-qm9700"]),
    ("rail-2su-planes", ["rail-optimized", "--sus", "2", "--rail-planes"]),
    ("rail-b300-2planes", ["rail-optimized", "--sus", "1", "--planes", "2", "--server",
                           "nvidia-dgx-b300", "--leaf", "nvidia-sn5600", "--technology", "rocev2",
                           "--rack-kw", "61"]),
    ("rail-no-media", ["rail-optimized", "--sus", "2", "--no-media"]),
    ("three-tier-256", ["three-tier", "--servers", "256", "--leaves-per-pod", "8"]),
]
BAD_GENERATE = [
    ("bad-servers", ["two-tier", "--servers", "0"]),
    ("bad-too-big", ["two-tier", "--servers", "20000"]),
]
EXPORT_FLAGS = [("--pdf", "plan.pdf"), ("--csv", "cables.csv"), ("--labels-csv", "labels.csv"),
                ("--netbox", "netbox"), ("--cvt", "cvt.xlsx"), ("--p2p", "p2p.csv"),
                ("--slurm", "slurm"), ("--drawio", "diagram.drawio")]


def _run(argv: Sequence[str], out: Path) -> None:
    """Run `aicnet argv`; keep its exit code, stdout and stderr in `out`.*"""
    env = dict(os.environ, RL_invariant="1", COLUMNS="100")
    done = subprocess.run([*AICNET, *argv], capture_output=True, text=True, env=env, cwd=ROOT)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".out").write_text(f"exit {done.returncode}\n{done.stdout}", encoding="utf-8")
    out.with_suffix(".err").write_text(done.stderr, encoding="utf-8")


def _cli_exports(folder: Path) -> None:
    _run(["export", "--help"], folder / "export-help")
    for example in EXAMPLES:
        for variant, extra in (("all", []), ("netbox44", ["--netbox-layout", "4.4"]),
                               ("os-names", ["--port-names", "os"])):
            target = folder / "export" / example.stem / variant
            target.mkdir(parents=True, exist_ok=True)
            argv = ["export", str(example), *extra]
            for flag, name in EXPORT_FLAGS:
                argv += [flag, str(target / name)]
            _run(argv, target / "aicnet")
    _run(["export", str(EXAMPLES[0])], folder / "export-nothing")


def _gui_exports(folder: Path) -> None:
    """What File > Export writes for every format of its dialog, and the message it shows."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from reportlab import rl_config

    rl_config.invariant = 1
    from aicnet_gui import report
    from aicnet_gui.catalog.loader import builtin_catalog
    from aicnet_gui.fileio import load_fabric
    from aicnet_gui.gui.dialogs import export_dialog

    catalog = builtin_catalog()
    dialog_kinds = _dialog_kinds(export_dialog)
    for example in EXAMPLES:
        doc = load_fabric(example, catalog)
        target_dir = folder / "gui-export" / example.stem
        target_dir.mkdir(parents=True, exist_ok=True)
        lines = []
        for kind, suffix in dialog_kinds:
            target = str(target_dir / (kind + suffix))
            options = report.ExportOptions() if kind == "pdf" else None
            steps: list[str] = []
            job = export_dialog.export_job(kind, doc, target, options)
            text = job(lambda f, m, s=steps: s.append(f"{f:.2f} {m}"), lambda: False)
            lines.append(f"{kind}: {text!s}".replace(str(folder), "<DIR>"))
        (target_dir / "messages.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _dialog_kinds(export_dialog: object) -> list[tuple[str, str]]:
    """(kind, suffix) of every format the dialog offers, in its order, read from the dialog
    module as it is: a dict of (title, suffix) before issue 34, of registry entries after."""
    formats: dict = export_dialog.FORMATS  # type: ignore[attr-defined]
    return [(key, fmt[1] if isinstance(fmt, tuple) else fmt.suffix)
            for key, fmt in formats.items()]


def _generated(folder: Path) -> list[Path]:
    made = []
    (folder / "generate").mkdir(parents=True, exist_ok=True)
    for name, argv in GENERATE:
        target = folder / "generate" / name
        fabric = target.with_suffix(".fabric")
        _run(["generate", *argv, "-o", str(fabric), "--json"], target)
        _run(["generate", *argv, "-o", str(target.with_name(name + "-text.fabric"))],
             target.with_name(name + "-text"))
        made.append(fabric)
    for name, argv in BAD_GENERATE:
        _run(["generate", *argv, "-o", str(folder / "generate" / f"{name}.fabric")],
             folder / "generate" / name)
    for template in ("two-tier", "rail-optimized", "three-tier"):
        _run(["generate", template, "--help"], folder / "generate" / f"help-{template}")
    _run(["generate", "--help"], folder / "generate" / "help")
    return made


def _checks(folder: Path, designs: list[Path]) -> None:
    for design in [*EXAMPLES, *designs]:
        target = folder / "checks" / design.stem
        _run(["validate", "--json", str(design)], target.with_name(design.stem + "-validate"))
        _run(["bom", "--json", str(design)], target.with_name(design.stem + "-bom"))


def write(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    _cli_exports(folder)
    _checks(folder, _generated(folder))
    _gui_exports(folder)


# ---- compare ---------------------------------------------------------------------------------

_CORE_DATES = re.compile(rb"<dcterms:(created|modified)[^>]*>[^<]*</dcterms:\1>")
_FABRIC_DATES = re.compile(rb'"(created|modified)": ?"[0-9T:+.-]+"')


def _normalised(path: Path, root: Path) -> bytes:
    """The file's bytes with the paths of its tree and its timestamps taken out."""
    data = path.read_bytes().replace(str(root).encode(), b"<DIR>")
    if path.suffix == ".xlsx":
        parts = []
        with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as book:
            for member in sorted(book.namelist()):
                body = book.read(member)
                if member == "docProps/core.xml":
                    body = _CORE_DATES.sub(b"", body)
                parts.append(member.encode() + b"\0" + body)
        data = b"\n".join(parts)
    elif path.suffix == ".fabric":
        data = _FABRIC_DATES.sub(b"", data)
    return data


def compare(before: Path, after: Path) -> int:
    names = {p.relative_to(before) for p in before.rglob("*") if p.is_file()}
    others = {p.relative_to(after) for p in after.rglob("*") if p.is_file()}
    problems = [f"only before: {n}" for n in sorted(names - others)]
    problems += [f"only after: {n}" for n in sorted(others - names)]
    for name in sorted(names & others):
        old, new = _normalised(before / name, before), _normalised(after / name, after)
        if old != new:
            reordered = sorted(old.splitlines()) == sorted(new.splitlines())
            problems.append(f"differs{' (the same lines in another order)' if reordered else ''}"
                            f": {name}")
    for line in problems:
        print(line)
    print(f"{len(names & others)} files compared, {len(problems)} differences")
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("write").add_argument("folder", type=Path)
    both = sub.add_parser("compare")
    both.add_argument("before", type=Path)
    both.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "write":
        write(args.folder.resolve())
        return 0
    return compare(args.before.resolve(), args.after.resolve())


if __name__ == "__main__":
    sys.exit(main())
