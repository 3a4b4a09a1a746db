"""`aicnet export FILE --pdf OUT.pdf | --csv OUT.csv | --labels-csv OUT.csv | --netbox DIR |
--cvt OUT.xlsx | --p2p OUT.csv | --slurm DIR | --drawio OUT.drawio [--port-names design|os]`:
the cabling plan and the files of the tools that take the design on (NetBox, NVIDIA CVT, Slurm,
draw.io).

`--port-names os` prints every port as its device's operating system names it (Cumulus `swp1s0`,
SONiC `Ethernet8`, InfiniBand port numbers, `mlx5_N` on servers: `model/port_names_os.py`).

The outputs are the export registry's formats (`report/export_registry.py`: one flag each, its
help saying what it writes and for whom).  Several may be asked for at once; the cable plan is
built once for all of them, and the PDF is written last.  Exit 0 when everything was written,
2 for bad input (unreadable fabric, unknown section, a label grid that does not fit its page,
an output that cannot be written).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from ..common import EXIT_OK, CliError, catalog_with_warnings, price_list_for
from ..progress_line import ProgressLine

if TYPE_CHECKING:
    from ...report.export_registry import ExportFormat
    from ...report.options import ExportOptions

HELP = "write the cabling plan PDF, CSVs, NetBox, CVT, Slurm and draw.io files"

T = TypeVar("T")
#: argument strings that are values although they start with "-": -2, -0.5, -1.5,0.5
NEGATIVE_VALUE = re.compile(r"^-\d+$|^-\d*\.\d+$|^-\d*\.?\d+,[-+]?\d*\.?\d+$")


def _offset(text: str) -> tuple[float, float]:
    try:
        x, y = (float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not X,Y in millimetres, e.g. 0.5,-1"
        ) from None
    return x, y


def _write(target: str, export: Callable[[], T]) -> T:
    """Run one export; an OS error, or a text the output cannot hold safely, becomes a
    one-line message naming the output."""
    from ...model.text_safety import OutputRefused

    try:
        return export()
    except OSError as exc:
        raise CliError(f"cannot write {target}: {exc.strerror or exc}") from None
    except OutputRefused as exc:
        raise CliError(f"{target}: {exc}") from None


def register(sub: argparse._SubParsersAction) -> None:
    from ...report.export_registry import EXPORT_FORMATS

    parser = sub.add_parser(
        "export",
        help=HELP,
        description="Write the cabling plan (PDF: cover, topology, analysis, findings, BOM, "
                    "design report, cable schedule, label sheets) and the files of the tools "
                    "that take the design on: NetBox, NVIDIA CVT, Slurm, draw.io. Each output "
                    "below says who reads it.",
    )
    # "--label-offset -1.5,0.5" is a value, not an option: argparse takes only plain negative
    # numbers for values, so a negative X offset needed "--label-offset=-1.5,0.5"
    if hasattr(parser, "_negative_number_matcher"):
        parser._negative_number_matcher = NEGATIVE_VALUE
    parser.add_argument("file", help="a .fabric file")
    out = parser.add_argument_group("outputs (at least one)")
    for fmt in EXPORT_FORMATS:
        out.add_argument(fmt.flag, metavar=fmt.metavar, help=fmt.help)
    pdf = parser.add_argument_group("PDF options")
    pdf.add_argument("--paper", choices=["a4", "letter"], default="a4")
    pdf.add_argument("--sections", metavar="LIST",
                     help="comma-separated subset of: cover, topology, analysis, findings, bom, "
                          "design, schedule, labels (default: all)")
    pdf.add_argument("--labels", choices=["avery-5160", "avery-l7651", "custom", "none"],
                     help="label stock (default: avery-l7651 on A4, avery-5160 on Letter)")
    pdf.add_argument("--label-grid", metavar="SPEC",
                     help="custom grid, e.g. cols=3,rows=10,w=66.7,h=25.4,left=4.8,top=12.7,"
                          "px=69.9,py=25.4,page=letter (Avery 5160 in mm)"
                          "[,unit=mm|in|pt]; page=a4|letter|WxH (default a4)")
    pdf.add_argument("--label-start", type=int, default=0, metavar="N",
                     help="skip N used labels on the first sheet")
    pdf.add_argument("--label-offset", type=_offset, default=(0.0, 0.0), metavar="X,Y",
                     help="printer calibration shift in mm (+X right, +Y up)")
    pdf.add_argument("--no-qr", action="store_true", help="labels without QR codes")
    pdf.add_argument("--no-calibration", action="store_true",
                     help="leave out the label calibration page")
    pdf.add_argument("--prices", metavar="FILE",
                     help="price list CSV for the BOM's cost (default: <design>.prices.csv or "
                          "prices.csv next to the design or in the user catalog folder)")
    parser.add_argument("--profile", choices=["tia-606", "iso-14763"],
                        help="identifier profile (default: the project's label profile)")
    for fmt in EXPORT_FORMATS:
        for option in fmt.options:
            parser.add_argument(option.flag, choices=list(option.choices), default=option.default,
                                help=option.help)
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="a progress line on stderr (pages, ETA) while the PDF is written "
                             "(default: when stderr is a terminal)")
    parser.add_argument("--port-names", choices=["design", "os"], default="design",
                        help="os: ports as each switch's and server's operating system names "
                             "them (the fabric's port_os setting, else the model's default OS)")
    parser.set_defaults(func=run)


def _options(args: argparse.Namespace) -> ExportOptions:
    from ...report.label_layout import parse_custom_stock
    from ...report.options import SECTIONS, ExportOptions

    sections = SECTIONS
    if args.sections:
        sections = tuple(s.strip().lower() for s in args.sections.split(",") if s.strip())
    custom = None
    labels = args.labels
    if args.label_grid:
        try:
            custom = parse_custom_stock(args.label_grid)
        except ValueError as exc:
            raise CliError(f"--label-grid: {exc}") from None
        labels = labels or "custom"
        if labels != "custom":
            raise CliError("--label-grid needs --labels custom (or no --labels)")
    options = ExportOptions(
        paper=args.paper, sections=sections, labels=labels, custom_labels=custom,
        label_start=args.label_start, label_offset_mm=args.label_offset,
        label_qr=not args.no_qr, calibration_page=not args.no_calibration, profile=args.profile,
        port_names=args.port_names,
        prices=price_list_for(args.prices, args.file),
    )
    try:
        options.validate()
    except ValueError as exc:
        raise CliError(str(exc)) from None
    return options


def _writing_order(asked: list[ExportFormat]) -> list[ExportFormat]:
    """The formats asked for, in the registry's order, those that show a progress line (the
    PDF) last: the quick files are written first."""
    return sorted(asked, key=lambda fmt: "progress" in fmt.takes)


def _progress_line(args: argparse.Namespace) -> ProgressLine | None:
    show = sys.stderr.isatty() if args.progress is None else args.progress
    return ProgressLine(sys.stderr) if show else None


def run(args: argparse.Namespace) -> int:
    from ...fileio import load_fabric
    from ...model.port_names_os import PortNamer
    from ...report import build_plan
    from ...report.export_registry import EXPORT_FORMATS, write_export

    asked = [fmt for fmt in EXPORT_FORMATS if getattr(args, fmt.dest)]
    if not asked:
        flags = [fmt.flag for fmt in EXPORT_FORMATS]
        raise CliError(f"nothing to export: give {', '.join(flags[:-1])} or {flags[-1]}")
    options = _options(args) if any("options" in fmt.takes for fmt in asked) else None
    catalog = catalog_with_warnings()
    doc = load_fabric(args.file, catalog)
    namer = PortNamer(doc, fallback=catalog.devices) if args.port_names == "os" else None
    plan = build_plan(doc, args.profile, port_names=namer)
    written: list[str] = []
    for fmt in _writing_order(asked):
        target = getattr(args, fmt.dest)
        bar = _progress_line(args) if "progress" in fmt.takes else None
        values = {option.keyword: getattr(args, option.dest) for option in fmt.options}
        try:
            result = _write(target, partial(write_export, fmt, doc, target, plan=plan,
                                            port_names=namer, options=options, progress=bar,
                                            values=values))
        finally:
            if bar is not None:
                bar.finish()  # ends the line when the export stopped before 100 %
        written.append(fmt.said(target, result))
    for line in written:
        print(f"wrote {line}")
    for problem in plan.problems:
        print(f"aicnet: warning: {problem}", file=sys.stderr)
    return EXIT_OK
