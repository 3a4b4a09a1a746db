"""`aicnet generate TEMPLATE [OPTIONS] -o OUT.fabric`: build a fabric from a template.

Templates: `two-tier` (leaf-spine at a target oversubscription), `rail-optimized` (DGX
SuperPOD-style scalable units; a core tier is added when two tiers cannot hold the SUs, or on
request with --core) and `three-tier` (pod-based fat tree).  Devices go into racks on a floor,
every cable length is estimated and media (DAC, AOC, optics + fibre) chosen per link.  Prints a
summary (counts per tier, racks, optics and cables); impossible parameters exit with code 2 and
a message that says why and what would work.
"""

from __future__ import annotations

import argparse
import re
import types
import typing
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..common import EXIT_OK, CliError, catalog_with_warnings, print_json

if TYPE_CHECKING:
    from ...generators.template_registry import Flag

HELP = "build a fabric from a template"
_RATIO = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?::\s*(\d+(?:\.\d+)?))?\s*$")

# parameter field -> CLI option (for messages about bad values), besides the templates' own
# flags: the options every template has
_COMMON_OPTION_OF = {
    "server": "--server",
    "leaf": "--leaf", "spine": "--spine", "name": "--name", "technology": "--technology",
    "workload": "--workload", "speed_gbps": "--speed", "rack_power_kw": "--rack-kw",
    "server_power_kw": "--server-kw", "servers_per_rack": "--servers-per-rack",
    "rack_height_ru": "--rack-height", "racks_per_row": "--racks-per-row",
}


def _option_of(field: str) -> str:
    """The CLI option of a parameter field (for messages about bad values)."""
    from ...generators import GENERATOR_TEMPLATES

    flags = {flag.field: flag.option for template in GENERATOR_TEMPLATES for flag in template.flags}
    return {**flags, **_COMMON_OPTION_OF}.get(field, field)


def ratio(text: str) -> float:
    """`3`, `3:1` or `1.5` -> downlink:uplink ratio as a number."""
    match = _RATIO.match(text)
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r} is not a ratio like 3:1 or 1.5")
    down = float(match.group(1))
    up = float(match.group(2)) if match.group(2) else 1.0
    if up == 0:
        raise argparse.ArgumentTypeError(f"{text!r}: the uplink side of the ratio is zero")
    return down / up


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", required=True, metavar="OUT.fabric",
                        help="where to write the fabric")
    parser.add_argument("--server", metavar="ID", help="catalog id of the GPU server (default nvidia-dgx-h100)")
    parser.add_argument("--leaf", metavar="ID", help="catalog id of the leaf switch (default nvidia-qm9700)")
    parser.add_argument("--spine", metavar="ID", help="catalog id of the spine switch (default: the leaf model)")
    parser.add_argument("--name", help="name of the fabric")
    parser.add_argument("--technology", choices=["auto", "infiniband", "rocev2", "ethernet"],
                        help="default auto: InfiniBand for IB switches, RoCEv2 for Ethernet")
    parser.add_argument("--workload", choices=["training", "inference", "storage"],
                        help="kind of the workload spanning all servers (default training)")
    parser.add_argument("--speed", type=int, metavar="GBPS", dest="speed_gbps",
                        help="port speed (default: the fastest all models share)")
    parser.add_argument("--rack-kw", type=float, dest="rack_power_kw", metavar="KW",
                        help="power budget per rack (default 42)")
    parser.add_argument("--server-kw", type=float, dest="server_power_kw", metavar="KW",
                        help="power per server (default: the catalog's maximum)")
    parser.add_argument("--servers-per-rack", type=int, metavar="N",
                        help="servers per rack (default: from power and height)")
    parser.add_argument("--rack-height", type=int, dest="rack_height_ru", metavar="RU",
                        help="rack height in RU (default 48)")
    parser.add_argument("--racks-per-row", type=int, metavar="N", help="longest row (default 20)")
    parser.add_argument("--no-media", action="store_false", dest="choose_media", default=None,
                        help="do not choose optics and cables")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(func=run)


def _flag_options(params: type[Any], flag: Flag) -> dict[str, Any]:
    """argparse's keywords for `flag`: its type and choices from the parameter's annotation
    (`int`, a `Literal` of choices, `bool` as a switch), a ratio parsed as one."""
    options: dict[str, Any] = {"help": flag.help, "metavar": flag.metavar}
    if flag.required:
        options["required"] = True
    annotation = params.model_fields[flag.field].annotation
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
    if flag.ratio:
        options["type"] = ratio
    elif annotation is bool:
        options.update(action="store_true", default=None)
        del options["metavar"]
    elif typing.get_origin(annotation) is typing.Literal:
        choices = list(typing.get_args(annotation))
        options["choices"] = choices
        if all(isinstance(choice, int) for choice in choices):
            options["type"] = int
    elif annotation is int:
        options["type"] = int
    return options


def register(sub: argparse._SubParsersAction) -> None:
    from ...generators import GENERATOR_TEMPLATES

    parser = sub.add_parser("generate", help=HELP,
                            description=__doc__.split("\n\n")[1].replace("`", ""))
    templates = parser.add_subparsers(dest="template", metavar="TEMPLATE")
    templates.required = True
    for template in GENERATOR_TEMPLATES:
        one = templates.add_parser(template.name, help=template.summary)
        for flag in template.flags:
            one.add_argument(flag.option, **_flag_options(template.params, flag))
        _common(one)


_FLOOR = {"rack_power_kw", "server_power_kw", "servers_per_rack", "rack_height_ru",
          "racks_per_row"}
_NOT_PARAMS = {"output", "json", "func", "command", "template"}


def params_from_args(args: argparse.Namespace) -> Any:
    """Template parameters from the parsed options (unset options keep the defaults)."""
    from pydantic import ValidationError

    from ...generators import template_named

    values = {k: v for k, v in vars(args).items() if v is not None and k not in _NOT_PARAMS}
    floor = {k: values.pop(k) for k in list(values) if k in _FLOOR}
    if floor:
        values["floor"] = floor
    try:
        return template_named(args.template).parse(values)
    except ValidationError as exc:
        problems = []
        for error in exc.errors(include_url=False):
            field = str(error["loc"][-1]) if error["loc"] else ""
            option = _option_of(field)
            problems.append(f"{option}: {error['msg'].lower()}")
        raise CliError("bad parameters: " + "; ".join(problems)) from None


def run(args: argparse.Namespace) -> int:
    from ...fileio import save_fabric
    from ...generators import GeneratorError, build_design

    params = params_from_args(args)
    output = Path(args.output)
    if output.suffix != ".fabric":
        raise CliError(f"{output}: the output file must end in .fabric")
    if not output.parent.exists():
        raise CliError(f"{output}: the folder {output.parent} does not exist")
    try:
        doc, result = build_design(catalog_with_warnings(), params)
    except GeneratorError as exc:
        raise CliError(f"{args.template}: {exc}") from None
    save_fabric(doc, output)
    if args.json:
        data = result.as_dict()
        data["file"] = str(output)
        print_json(data)
    else:
        for line in result.lines():
            print(line)
        print(f"written: {output}")
    return EXIT_OK
