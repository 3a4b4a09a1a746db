"""`aicnet traffic FILE [--workload ID] [--mode ecmp|adaptive|spray] [--seeds N] [--json]
[--acceptance-csv OUT.csv] [--fail ID ...]`: each workload's collective as NCCL runs it on the
drawn fabric, routed by the load-balancing mode (every mode without --mode), and the bus
bandwidth nccl-tests will show (aicnet_gui/traffic).

--acceptance-csv writes the acceptance sheet (all_reduce_perf and alltoall_perf busBW per
message size and job size) and prints it.  --fail takes what `aicnet whatif --fail` takes: the
model runs with those links down.  Progress goes to stderr on a terminal (or with --progress);
Ctrl-C stops cleanly.  Exit 0, 2 on bad input (an unknown workload lists the design's).
"""

from __future__ import annotations

import argparse
import sys

from ..common import EXIT_OK, CliError, open_document, print_json
from ..progress_line import ProgressLine

HELP = "traffic on the fabric: busBW per load-balancing mode, hottest links"


def register(sub: argparse._SubParsersAction) -> None:
    from ...traffic import MODES  # here: `aicnet --help` imports this module (cli/__init__.py)

    parser = sub.add_parser(
        "traffic", help=HELP,
        description="Each workload's collective as NCCL runs it on the drawn fabric, routed by "
                    "static ECMP, adaptive routing or packet spraying; nccl-tests' bus "
                    "bandwidth and the hottest links.")
    parser.add_argument("file", help="a .fabric file")
    parser.add_argument("--workload", metavar="ID", help="one workload (id or name); default all")
    parser.add_argument("--mode", choices=MODES, help="one load-balancing mode; default every mode")
    parser.add_argument("--seeds", type=int, default=20, metavar="N",
                        help="ECMP draws per mode (mean and 5th/95th percentile; default 20)")
    parser.add_argument("--channels", type=int, metavar="N",
                        help="NCCL channels (default NCCL's own: its ring channels x 2)")
    parser.add_argument("--qps", type=int, default=1, metavar="N",
                        help="queue pairs per connection (NCCL_IB_QPS_PER_CONNECTION, default 1)")
    parser.add_argument("--no-pxn", action="store_true",
                        help="all-to-all without PXN (NCCL_PXN_DISABLE=1): across rails")
    parser.add_argument("--fail", action="append", default=[], metavar="ID",
                        help="run with these down: device, link, optic:DEVICE:CAGE, rail:N, "
                             "plane:NAME (repeatable)")
    parser.add_argument("--acceptance-csv", metavar="OUT.csv",
                        help="write the acceptance sheet (nccl-tests busBW per size and job)")
    parser.add_argument("--links", action="store_true",
                        help="with --json: every link's load by link id")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--progress", action="store_true",
                        help="show progress on stderr even when it is not a terminal")
    parser.set_defaults(func=run)


def _workload_ids(doc, wanted: str | None) -> list[str]:  # noqa: ANN001
    if not doc.workloads:
        raise CliError("the design has no workloads: add one (aicnet generate adds one) to "
                       "model its traffic")
    if wanted is None:
        return sorted(doc.workloads)
    if wanted in doc.workloads:
        return [wanted]
    named = [w.id for w in doc.workloads.values() if w.name == wanted]
    if named:
        return named[:1]
    choices = ", ".join(f"{w.id} ({w.name})" for w in doc.workloads.values())
    raise CliError(f"no workload {wanted!r}; the design has: {choices}")


def _failed(doc, tokens: list[str], file: str) -> frozenset[str]:  # noqa: ANN001
    if not tokens:
        return frozenset()
    from ...change.failures import FailureError, resolve

    try:
        return resolve(doc, tokens).links
    except FailureError as exc:
        raise CliError(f"{file}: {exc}") from None


def run(args: argparse.Namespace) -> int:
    from ...traffic import (
        MODES,
        TrafficModel,
        TrafficParams,
        acceptance_sheet,
        write_acceptance_csv,
    )
    from ...traffic.flows import TooLarge
    from ...traffic.results_text import render_acceptance, render_workload

    if args.seeds < 1 or args.qps < 1 or (args.channels is not None and not 1 <= args.channels <= 64):
        raise CliError("--seeds and --qps take 1 or more, --channels 1 to 64")
    doc = open_document(args.file)
    ids = _workload_ids(doc, args.workload)
    params = TrafficParams(channels=args.channels, qps_per_connection=args.qps,
                           pxn=not args.no_pxn, seeds=args.seeds)
    show = args.progress or sys.stderr.isatty()
    line = ProgressLine(sys.stderr) if show else None
    modes = (args.mode,) if args.mode else MODES
    try:
        model = TrafficModel(doc, params, _failed(doc, args.fail, args.file))
        results = []
        for i, wl_id in enumerate(ids):
            def progress(fraction: float, text: str, i: int = i, wl_id: str = wl_id) -> None:
                if line is not None:
                    line((i + fraction) / len(ids), f"{wl_id}: {text}")
            results.append(model.workload(wl_id, modes, progress))
        medians = [model.median_draws(r) for r in results]
        rows = acceptance_sheet(model, ids, line) if args.acceptance_csv else []
    except TooLarge as exc:
        raise CliError(f"{args.file}: {exc}") from None
    finally:
        if line is not None:
            line.finish()
    if args.acceptance_csv:
        write_acceptance_csv(rows, args.acceptance_csv)
    if args.json:
        data = {"workloads": [r.to_json(args.links, m) for r, m in zip(results, medians,
                                                                       strict=True)]}
        if args.acceptance_csv:
            data["acceptance_csv"] = args.acceptance_csv
        print_json(data)
        return EXIT_OK
    for result, median in zip(results, medians, strict=True):
        print("\n".join(render_workload(result, median)))
    if rows:
        print()
        print("\n".join(render_acceptance(rows)))
        print(f"\nacceptance sheet written: {args.acceptance_csv}")
    return EXIT_OK
