"""`aicnet compare`: which fabric to buy.  Every candidate design a requirement allows, built
and measured side by side (aicnet_gui/study/).

The requirement comes from `--requirement FILE` (JSON or YAML, or a .fabric that carries one)
and/or the options (an option replaces the file's value): the servers (`--servers N --server
ID`, or `--gpus N`), the workloads, the site, the growth target, and the values to try on each
axis (repeatable `--technology`, `--leaf`, `--spine`, `--speed`, `--tiers`, `--planes`,
`--oversubscription`, `--layout`; with only `--technology`, every catalog switch of that
technology is tried).  Each candidate is a complete design written to `--out DIR` (one .fabric
each, plus compare.json); `--pdf` writes the comparison report, `--json` prints it.  Progress
goes to stderr; Ctrl-C cancels and keeps the candidates that finished.  Exit 0, 2 on bad input
or a requirement nothing can meet, 130 when cancelled.
"""

from __future__ import annotations

import argparse
import re
import signal
import sys
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..common import EXIT_OK, CliError, catalog_with_warnings, print_json
from ..progress_line import ProgressLine
from .generate import ratio

if TYPE_CHECKING:  # imported where used: `aicnet --help` imports this module (cli/__init__.py)
    from ...model.fabric import Requirement
    from ...study import Study, StudyProgress, StudyResult

HELP = "candidate fabrics side by side: cost, power, performance, resilience, growth"
EXIT_CANCELLED = 130
_SIZE = re.compile(r"^\s*(\d+)\s*(su|sus|gpu|gpus|servers?)?\s*$", re.IGNORECASE)
_WORKLOAD = re.compile(r"^\s*([a-z-]+)\s*[:=]\s*(\d+)\s*(gpus?|servers?)?\s*$", re.IGNORECASE)


def register(sub: argparse._SubParsersAction) -> None:
    from ...model.fabric import LAYOUTS, WorkloadKind
    from ...study.run import DEFAULT_WORKERS

    parser = sub.add_parser("compare", help=HELP,
                            description=__doc__.split("\n\n")[0].replace("`", ""))
    given = parser.add_argument_group("the requirement")
    given.add_argument("--requirement", metavar="FILE",
                       help="requirement file (.requirement.json / .yaml, or a .fabric carrying "
                            "one); options below replace its values")
    given.add_argument("--name", help="name of the study")
    given.add_argument("--servers", type=int, metavar="N", help="number of GPU servers")
    given.add_argument("--gpus", type=int, metavar="N", help="number of GPUs (whole servers)")
    given.add_argument("--server", metavar="ID", help="catalog id of the GPU server "
                                                      "(default nvidia-dgx-h100)")
    given.add_argument("--workload", action="append", metavar="KIND:GPUS",
                       help="a workload of that many GPUs (or N servers), e.g. training:512 or "
                            "inference:16servers; kinds: "
                            + ", ".join(k.value for k in WorkloadKind) + " (repeatable)")
    given.add_argument("--grow-to", metavar="SIZE",
                       help="growth target: servers (256), GPUs (2048gpus) or SUs (4su)")
    given.add_argument("--new-spines-ok", action="store_true", default=None,
                       help="growth may add spines (default: it must fit the spines bought now)")
    given.add_argument("--rack-kw", type=float, metavar="KW", help="rack power budget (42)")
    given.add_argument("--rack-height", type=int, metavar="RU", help="rack height (48)")
    given.add_argument("--racks-per-row", type=int, metavar="N", help="longest row (20)")
    given.add_argument("--rows", type=int, metavar="N", help="rows of racks the site has")
    given.add_argument("--prices", metavar="FILE",
                       help="price list CSV (part, unit_price, currency, date); aicnet ships "
                            "no prices")
    axes = parser.add_argument_group("the axes to sweep (each repeatable)")
    axes.add_argument("--technology", action="append",
                      choices=["infiniband", "rocev2", "ethernet"])
    axes.add_argument("--leaf", action="append", metavar="ID", help="leaf switch model")
    axes.add_argument("--spine", action="append", metavar="ID",
                      help="spine (and core) switch model (default: the leaf model)")
    axes.add_argument("--speed", action="append", type=int, metavar="GBPS",
                      help="port speed (default: the fastest all share)")
    axes.add_argument("--tiers", action="append", choices=["auto", "2", "3"])
    axes.add_argument("--planes", action="append", type=int, choices=[1, 2, 4])
    axes.add_argument("--oversubscription", action="append", type=ratio, metavar="R",
                      help="leaf downlink:uplink, e.g. 1 or 3:1")
    axes.add_argument("--layout", action="append", choices=list(LAYOUTS),
                      help="; ".join(f"{k}: {v}" for k, v in LAYOUTS.items()))
    out = parser.add_argument_group("output")
    out.add_argument("--out", metavar="DIR", help="write one .fabric per candidate (and "
                                                  "compare.json) into DIR")
    out.add_argument("--pdf", metavar="OUT.pdf", help="write the comparison report")
    out.add_argument("--json", action="store_true", help="print the comparison as JSON")
    out.add_argument("--save-requirement", metavar="FILE",
                     help="write the requirement (JSON, or YAML by suffix) and go on")
    out.add_argument("--workers", type=int, default=DEFAULT_WORKERS, metavar="N",
                     help=f"worker processes (default {DEFAULT_WORKERS}; 0: in this process)")
    out.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.set_defaults(func=run)


def _size(text: str, option: str) -> dict[str, int]:
    match = _SIZE.match(text)
    if not match:
        raise CliError(f"{option} {text!r}: give servers (256), GPUs (2048gpus) or SUs (4su)")
    count, unit = int(match.group(1)), (match.group(2) or "servers").lower()
    key = "sus" if unit.startswith("su") else "gpus" if unit.startswith("gpu") else "servers"
    return {key: count}


def _workloads(texts: list[str]) -> list[dict[str, Any]]:
    from ...model.fabric import WorkloadKind

    out: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for text in texts:
        match = _WORKLOAD.match(text)
        kinds = [k.value for k in WorkloadKind]
        if not match or match.group(1).lower() not in kinds:
            raise CliError(f"--workload {text!r}: write KIND:GPUS (e.g. training:512) or "
                           f"KIND:Nservers; kinds: {', '.join(kinds)}")
        kind = match.group(1).lower()
        seen[kind] = seen.get(kind, 0) + 1
        unit = "servers" if (match.group(3) or "").lower().startswith("server") else "gpus"
        out.append({"id": f"{kind}-{seen[kind]}", "kind": kind, unit: int(match.group(2))})
    return out


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The requirement's fields the options set."""
    values: dict[str, Any] = {}
    for option, field in (("name", "name"), ("server", "server"), ("technology", "technologies"),
                          ("leaf", "leaves"), ("spine", "spines")):
        if getattr(args, option) is not None:
            values[field] = getattr(args, option)
    if args.servers is not None or args.gpus is not None:
        values["servers"], values["gpus"] = args.servers, args.gpus
    if args.workload:
        values["workloads"] = _workloads(args.workload)
    if args.prices is not None:
        values["prices"] = str(Path(args.prices).resolve())
    site = {k: v for k, v in (("rack_power_kw", args.rack_kw), ("rack_height_ru", args.rack_height),
                              ("racks_per_row", args.racks_per_row), ("rows", args.rows))
            if v is not None}
    if site:
        values["site"] = site
    sweep = {k: v for k, v in (("speeds_gbps", args.speed), ("tiers", args.tiers),
                               ("planes", args.planes), ("oversubscription", args.oversubscription),
                               ("layouts", args.layout)) if v is not None}
    if sweep:
        values["sweep"] = sweep
    if args.grow_to is not None:
        values["growth"] = {**_size(args.grow_to, "--grow-to"),
                            "same_spines": not args.new_spines_ok}
    return values


def _merged(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict) and key != "growth":
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged


def requirement_from(args: argparse.Namespace) -> tuple[Requirement, Path | None]:
    """The requirement the command compares against, and the folder its price list is
    relative to."""
    from pydantic import ValidationError

    from ...fileio.requirement_file import load_requirement
    from ...model.fabric import Requirement

    base: dict[str, Any] = {}
    folder = None
    if args.requirement:
        loaded = load_requirement(args.requirement)
        base = loaded.model_dump(exclude_defaults=True)
        folder = Path(args.requirement).resolve().parent
        if loaded.prices is not None and not Path(loaded.prices).is_absolute():
            base["prices"] = str(folder / loaded.prices)
    values = _merged(base, _overrides(args))
    if "servers" not in values and "gpus" not in values:
        raise CliError("compare needs the size of the cluster: --servers N or --gpus N (or a "
                       "--requirement file)")
    try:
        return Requirement.model_validate(values), folder
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in error["loc"]) or "requirement"
        raise CliError(f"bad requirement: {where}: {error['msg'].removeprefix('Value error, ')}"
                       ) from None


def _progress(quiet: bool):  # noqa: ANN202 - a StudyProgress callback, or None
    if quiet:
        return None
    stream = sys.stderr
    if stream.isatty():
        line = ProgressLine(stream)

        def draw(p: StudyProgress) -> None:
            line(p.done / p.total if p.total else 1.0, p.text())

        return draw

    def plain(p: StudyProgress) -> None:
        if p.last is None and not p.cancelling:
            return
        eta = f"; ETA {p.eta_s:.0f} s" if p.eta_s is not None and p.done < p.total else ""
        print(f"aicnet: {p.text()} ({p.elapsed_s:.1f} s{eta})", file=stream, flush=True)

    return plain


def _run(study: Study, out_dir: Path, workers: int, quiet: bool) -> StudyResult:
    """The study with Ctrl-C as its cancel (a second Ctrl-C stops at once)."""
    from ...study import run_study

    stop = threading.Event()

    def on_interrupt(_signum: int, _frame: Any) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        print("\naicnet: cancelling: no new candidate starts; the finished ones are kept "
              "(Ctrl-C again quits)", file=sys.stderr, flush=True)

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        return run_study(study, out_dir, workers=workers, progress=_progress(quiet),
                         cancelled=stop.is_set)
    finally:
        signal.signal(signal.SIGINT, previous)


def run(args: argparse.Namespace) -> int:
    import orjson

    from ...fileio.requirement_file import save_requirement
    from ...study import Study, StudyError

    requirement, folder = requirement_from(args)
    if args.save_requirement:
        save_requirement(args.save_requirement, requirement)
    catalog = catalog_with_warnings()
    try:
        study = Study.prepare(requirement, catalog, folder)
    except StudyError as exc:
        raise CliError(str(exc)) from None
    if args.pdf and not Path(args.pdf).resolve().parent.is_dir():
        raise CliError(f"{args.pdf}: the folder {Path(args.pdf).parent} does not exist")
    if args.out:
        out = Path(args.out)
        if out.exists() and not out.is_dir():
            raise CliError(f"{out}: exists and is not a folder")
        result = _run(study, out, args.workers, args.quiet)
        (out / "compare.json").write_bytes(
            orjson.dumps(result.to_json(), option=orjson.OPT_INDENT_2) + b"\n")
        return _finish(result, study, args)
    with tempfile.TemporaryDirectory(prefix="aicnet-compare-") as scratch:
        result = _run(study, Path(scratch), args.workers, args.quiet)
        return _finish(result, study, args, scratch=True)


def _finish(result: StudyResult, study: Study, args: argparse.Namespace,
            scratch: bool = False) -> int:
    from ...study.comparison_text import render

    if scratch:  # the files were only read back: none is kept
        from dataclasses import replace

        result = replace(result, candidates=tuple(replace(c, file=None)
                                                  for c in result.candidates))
    if args.pdf:
        from ...report.compare_pdf import write_comparison

        try:
            write_comparison(result, study.requirement, study.catalog, args.pdf)
        except OSError as exc:
            raise CliError(f"cannot write {args.pdf}: {exc.strerror or exc}") from None
    if args.json:
        print_json(result.to_json())
    else:
        print("\n".join(render(result, study.catalog)))
        if args.pdf:
            print(f"written: {args.pdf}")
    return EXIT_CANCELLED if result.cancelled else EXIT_OK
